//! Inputs of a chosen size for the load tests and the growth benchmarks (issue 16: time
//! grows linearly with the input): tournament files, clock event lists, move lists. Each
//! is the same on every run (a fixed pseudo-random sequence). Included with `#[path]` by
//! `tests/competition.rs`, `tests/clock.rs`, `tests/repetition.rs` and the benches.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::time::Instant;

use serde_json::{json, Value};

/// A linear congruential generator: the same input on every run.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// A Swiss tournament file: `players` players (ids `P0`, `P1` …), `rounds` rounds, every
/// player paired once a round (pairings shuffled, results drawn), under `order`.
pub fn swiss_yaml(players: usize, rounds: usize, order: &str) -> String {
    let mut rng = Lcg(2020);
    let mut s = format!("format: swiss\norder: {order}\nrounds: {rounds}\nplayers:\n");
    for i in 0..players {
        writeln!(s, "  - {{id: P{i}}}").unwrap();
    }
    s.push_str("games:\n");
    let mut ids: Vec<usize> = (0..players).collect();
    for r in 1..=rounds {
        for i in (1..ids.len()).rev() {
            let j = (rng.next() as usize) % (i + 1);
            ids.swap(i, j);
        }
        for pair in ids.chunks_exact(2) {
            let result = ["red", "black", "draw"][(rng.next() % 3) as usize];
            writeln!(s, "  - {{round: {r}, red: P{}, black: P{}, result: {result}}}", pair[0], pair[1]).unwrap();
        }
    }
    s
}

/// A one-round Swiss of `games` games among `games + 1` players in which every game after
/// the first books player `P0` again: one double booking per game.
pub fn double_booked_yaml(games: usize) -> String {
    let mut s = String::from("format: swiss\nrounds: 1\nplayers:\n");
    for i in 0..=games {
        writeln!(s, "  - {{id: P{i}}}").unwrap();
    }
    s.push_str("games:\n");
    for i in 1..=games {
        writeln!(s, "  - {{round: 1, red: P0, black: P{i}, result: draw}}").unwrap();
    }
    s
}

/// `plies` clock `move` events whose times keep both sides in time under `max_ms` a move.
pub fn move_events(plies: usize, max_ms: u64) -> Vec<Value> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..plies)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            json!({"move": state % max_ms})
        })
        .collect()
}

/// The two chariots going back and forth from the start position, `plies` moves (ICCS).
pub fn shuffle_moves(plies: usize) -> Vec<String> {
    ["a0a1", "a9a8", "a1a0", "a8a9"].iter().cycle().take(plies).map(|m| m.to_string()).collect()
}

/// Seconds `f` takes (the best of `runs`).
pub fn seconds<F: FnMut()>(runs: usize, mut f: F) -> f64 {
    (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Times `run` on the input `prepare` makes of size `n`, `10 n` and `100 n` (the best of
/// `runs` each; preparing is not timed), prints the times with their ratios (linear: about
/// 10× and 100×) and returns them in seconds.
pub fn growth<T>(what: &str, n: usize, runs: usize, mut prepare: impl FnMut(usize) -> T, mut run: impl FnMut(&T)) -> [f64; 3] {
    let t = [n, 10 * n, 100 * n].map(|k| {
        let input = prepare(k);
        seconds(runs, || run(&input))
    });
    println!(
        "{what}: {n}: {:.4} s | {}: {:.4} s ({:.1}×) | {}: {:.4} s ({:.1}×)",
        t[0],
        10 * n,
        t[1],
        t[1] / t[0],
        100 * n,
        t[2],
        t[2] / t[0]
    );
    t
}
