//! A program that embeds xqspec without its command line (`default-features = false`): the
//! rules and the conformance harness alone. CI builds and runs it; ARCHITECTURE.md gives
//! what it costs to build against what the library with the command line costs.
//!
//! `xqspec-embed [FEN]`: the legal moves of a position (the start by default) under the
//! 2020 rules, then the suite's FEN cases put to the reference implementation.

use xqspec::Harness;
use xqspec::Position;
use xqspec::Reference;
use xqspec::RuleSet;
use xqspec::Suite;

fn main() {
    let rs = RuleSet::builtin("cxa-2020").expect("the built-in rules compile");
    let position = match std::env::args().nth(1) {
        Some(fen) => Position::from_fen(&rs.vm, &fen).unwrap_or_else(|e| {
            eprintln!("bad FEN: {e}");
            std::process::exit(2)
        }),
        None => rs.vm.start_position(),
    };
    let moves: Vec<String> = position
        .legal_moves(&rs.vm)
        .iter()
        .map(|m| m.iccs())
        .collect();
    println!("{} legal moves: {}", moves.len(), moves.join(" "));

    let mut suite = Suite::embedded();
    suite.cases.retain(|c| c.query == "validate_fen");
    let reference = Reference::builtin().expect("the built-in spec loads");
    Harness::new(&reference)
        .suite(suite)
        .edition("cxa-2020")
        .run();
}
