//! `cargo bench --bench perft`: perft from the start position, depth 5 (133,312,995 leaves,
//! last ply counted in bulk), one thread. Prints each run and the best, in nodes per second.
//!
//! Reference on this machine class (from the issue): Pikafish about 1.6 s, Fairy-Stockfish
//! about 10 s for the same count.

mod common;

use std::time::Instant;

use xqspec::Rules;

fn main() {
    let depth: u32 = common::setting("PERFT_DEPTH", 5);
    let runs: usize = common::setting("PERFT_RUNS", 3);
    let rules = Rules::builtin("cxa-2020").expect("built-in spec");
    let mut best = f64::MAX;
    let mut nodes = 0;
    for i in 0..runs {
        let mut pos = rules.start_position();
        let t = Instant::now();
        nodes = xqspec::perft(&mut pos, &rules, depth);
        let s = t.elapsed().as_secs_f64();
        best = best.min(s);
        println!(
            "run {}: perft({depth}) = {nodes} in {s:.3} s ({:.1} M nodes/s)",
            i + 1,
            nodes as f64 / s / 1e6
        );
    }
    if depth == 5 {
        assert_eq!(nodes, 133_312_995, "wrong perft count");
    }
    println!(
        "best: {best:.3} s, {:.1} M nodes/s",
        nodes as f64 / best / 1e6
    );
}
