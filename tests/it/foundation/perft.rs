//! The reference perft counts (tests/data/perft.yaml, from ../shared/data/perft.yaml).

use serde::Deserialize;
use xqspec::{Position, Rules};

#[derive(Deserialize)]
struct Entry {
    fen: String,
    depth: u32,
    nodes: u64,
}

fn entries() -> Vec<Entry> {
    let text = include_str!("../../data/perft.yaml");
    serde_yaml::from_str(text).expect("perft.yaml parses")
}

/// Entries up to this many nodes run in every `cargo test`.
const FAST_LIMIT: u64 = 1_500_000;

fn run(filter: impl Fn(&Entry) -> bool) {
    let rules = Rules::builtin("cxa-2020").unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for e in entries().iter().filter(|e| filter(e)) {
        let mut pos = Position::from_fen(&rules, &e.fen).unwrap();
        let got = xqspec::perft(&mut pos, &rules, e.depth);
        ran += 1;
        if got != e.nodes {
            failures.push(format!(
                "{} depth {}: expected {}, got {got}",
                e.fen, e.depth, e.nodes
            ));
        }
    }
    assert!(ran > 0, "no perft entry selected");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn perft_reference_counts_up_to_limit() {
    let n = entries().iter().filter(|e| e.nodes <= FAST_LIMIT).count();
    assert!(n >= 80, "expected most entries under the limit, got {n}");
    run(|e| e.nodes <= FAST_LIMIT);
}

#[test]
#[ignore = "about a minute in release mode; run with --ignored before resolving"]
fn perft_reference_counts_all() {
    assert_eq!(entries().len(), 102);
    run(|_| true);
}

#[test]
fn perft_matches_every_edition_at_start() {
    // Movement is the same in the three editions: same counts.
    for ed in ["cxa-1999", "cxa-2011", "cxa-2020"] {
        let rules = Rules::builtin(ed).unwrap();
        let mut pos = rules.start_position();
        assert_eq!(xqspec::perft(&mut pos, &rules, 3), 79666, "{ed}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let rules = Rules::builtin("cxa-2020").unwrap();
    let mut pos = rules.start_position();
    let rows = xqspec::perft_divide(&mut pos, &rules, 2);
    assert_eq!(rows.len(), 44);
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 1920);
    let names: Vec<String> = rows.iter().map(|(m, _)| m.iccs()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn perft_within_a_budget_counts_every_ply_and_stops_at_the_budget() {
    use xqspec::{perft_within, BudgetExhausted};
    let rules = Rules::builtin("cxa-2020").unwrap();
    // Depth 3 from the start visits 44 + 1,920 + 79,666 positions.
    let visits = 44 + 1920 + 79666;
    assert_eq!(
        perft_within(&mut rules.start_position(), &rules, 3, visits),
        Ok(79666)
    );
    assert_eq!(
        perft_within(&mut rules.start_position(), &rules, 3, visits - 1),
        Err(BudgetExhausted { budget: visits - 1 })
    );
    assert_eq!(
        perft_within(&mut rules.start_position(), &rules, 0, 0),
        Ok(1)
    );
    // The position is left as it was, budget spent or not.
    let mut pos = rules.start_position();
    let before = pos.to_fen(&rules);
    assert!(perft_within(&mut pos, &rules, 64, 1000).is_err());
    assert_eq!(pos.to_fen(&rules), before);
}
