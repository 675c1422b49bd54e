//! `cargo bench --bench standings`: the standings of a 9-round Swiss with 500 players
//! (2,250 games, results and pairings from a fixed pseudo-random sequence; pairings are
//! input, not computed). Measures the ranking of a validated tournament, validation plus
//! ranking from the raw records, and the whole file from YAML text; prints the best of
//! several runs of each. The target: under 20 ms.

use std::fmt::Write as _;
use std::time::Instant;

use xqspec::competition::tournament::{read_file, RawTournament};
use xqspec::competition::{standings, Tournament};
use xqspec::ruleset::RuleSet;

/// A linear congruential generator: the same tournament on every run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

fn tournament_yaml(players: usize, rounds: usize, order: &str) -> String {
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
        for pair in ids.chunks(2) {
            let result = ["red", "black", "draw"][(rng.next() % 3) as usize];
            writeln!(s, "  - {{round: {r}, red: P{}, black: P{}, result: {result}}}", pair[0], pair[1]).unwrap();
        }
    }
    s
}

fn best<F: FnMut()>(runs: usize, mut f: F) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    best * 1e3
}

fn main() {
    let runs: usize = std::env::var("STANDINGS_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let rules = RuleSet::builtin("cxa-2020").expect("built-in spec").competition.expect("competition clauses");
    for order in ["opponent_scores", "progressive_scores"] {
        let text = tournament_yaml(500, 9, order);
        let raw = RawTournament::from_yaml("bench.yaml", &text).expect("reads");
        let t: Tournament = Tournament::validate(&raw, &rules).expect("valid");
        let rank = best(runs, || {
            let st = standings(&t, &rules);
            assert_eq!(st.rows.len(), 500);
        });
        let validate = best(runs, || {
            let t = Tournament::validate(&raw, &rules).expect("valid");
            standings(&t, &rules);
        });
        let file = best(runs.min(5), || {
            let t = read_file("bench.yaml", &text, &rules).expect("valid");
            standings(&t, &rules);
        });
        println!("swiss 500 players, 9 rounds, order {order}: ranking {rank:.2} ms; validation + ranking {validate:.2} ms; YAML file + validation + ranking {file:.2} ms (best of {runs})");
    }
}
