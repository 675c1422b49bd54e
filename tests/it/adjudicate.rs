//! The arbiter watching the board: records adjudicated from their moves alone (mate,
//! stalemate, perpetual check, a forbidden cycle not changed, the natural move limit), each
//! at its ply under every rule set; the counts are data (an edited `repetition.cycle` or
//! natural limit changes the ply); every shared game record adjudicates without an error.

use crate::games::shared_pgn_files;

use xqspec::replay_text;
use xqspec::Adjudication;
use xqspec::RuleSet;

const ALL: [&str; 4] = ["cxa-1999", "cxa-2011", "cxa-2020", "axf"];
const CXA: [&str; 3] = ["cxa-1999", "cxa-2011", "cxa-2020"];

/// A one-game PGN in ICCS from `fen`.
fn record(fen: &str, moves: &[&str]) -> String {
    format!(
        "[FEN \"{fen}\"]\n[Format \"ICCS\"]\n\n{}\n",
        moves.join(" ")
    )
}

fn times(cycle: &[&'static str], n: usize) -> Vec<&'static str> {
    cycle
        .iter()
        .copied()
        .cycle()
        .take(cycle.len() * n)
        .collect()
}

/// Every game of `text` adjudicated under `rs`.
fn adjudicate(rs: &RuleSet, text: &str) -> Vec<Adjudication> {
    let arbiter = rs.arbiter.as_ref().expect("arbiter's clauses");
    replay_text(&rs.vm, text)
        .iter()
        .map(|g| {
            assert!(g.error.is_none(), "{}: {:?}", rs.id(), g.error);
            let start = g.start.clone().unwrap_or_else(|| rs.vm.start_position());
            arbiter
                .adjudicate(rs.board(), &start, &g.moves)
                .unwrap_or_else(|e| panic!("{}: {e}", rs.id()))
        })
        .collect()
}

fn one(rs: &RuleSet, text: &str) -> (String, Option<usize>, Option<&'static str>, Option<String>) {
    let a = adjudicate(rs, text).remove(0);
    (
        a.result_name().to_string(),
        a.ply,
        a.how,
        a.clause.map(|c| c.clause),
    )
}

/// The first game of `text` ends under `rs` as `want` says: the result, after which ply, how,
/// and by which clause of `result.`.
fn assert_ends(rs: &RuleSet, text: &str, want: (&str, usize, &str, &str)) {
    let (result, ply, how, clause) = want;
    assert_eq!(
        one(rs, text),
        (
            result.to_string(),
            Some(ply),
            Some(how),
            Some(format!("result.{clause}"))
        ),
        "{}",
        rs.id()
    );
}

/// The first game of `text` ends as `want` says under each rule set of `ids`.
fn assert_ends_under(ids: &[&str], text: &str, want: (&str, usize, &str, &str)) {
    for id in ids {
        assert_ends(&RuleSet::builtin(id).unwrap(), text, want);
    }
}

const PERPETUAL_CHECK: [&str; 4] = ["a8a9", "e9e8", "a9a8", "e8e9"];
const CHASE: [&str; 4] = ["a8a7", "c7c8", "a7a8", "c8c7"];
const IDLE: [&str; 4] = ["a0a1", "i9i8", "a1a0", "i8i9"];
const PC_FEN: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
const CHASE_FEN: &str = "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 30";

#[test]
fn mate_and_stalemate_are_found_at_their_ply_under_every_rule_set() {
    let mate = record(
        "3k5/9/9/9/9/9/9/9/R8/1R3K3 w - - 0 1",
        &["a1a8", "d9e9", "b0b9"],
    );
    let stalemate = record(
        "3k5/9/9/9/9/9/9/9/R8/R3K4 w - - 0 1",
        &["a1a2", "d9d8", "a2a1", "d8d9", "a1a8"],
    );
    assert_ends_under(&ALL, &mate, ("red_wins", 3, "checkmated", "checkmate"));
    assert_ends_under(&ALL, &stalemate, ("red_wins", 5, "stalemated", "stalemate"));
}

#[test]
fn perpetual_check_is_found_where_the_position_is_pending() {
    let text = record(PC_FEN, &times(&PERPETUAL_CHECK, 6));
    let pc = ("black_wins", 12, "perpetual_check", "perpetual_check");
    assert_ends_under(&CXA, &text, pc);
    // The AXF orders the checker to change; three more cycles lose.
    let refused = ("black_wins", 24, "change_refused", "change_refused");
    assert_ends_under(&["axf"], &text, refused);
}

#[test]
fn a_forbidden_cycle_not_changed_loses_one_cycle_after_the_order() {
    let text = record(CHASE_FEN, &times(&CHASE, 6));
    let refused = ("black_wins", 16, "change_refused", "change_refused");
    assert_ends_under(&CXA, &text, refused);
    let rs = RuleSet::builtin("axf").unwrap();
    assert_eq!(one(&rs, &text).1, Some(24));
    // Changed after the order: undecided.
    let mut changed = times(&CHASE, 3);
    changed.extend(["a8b8", "c7c6"]);
    for id in ALL {
        let rs = RuleSet::builtin(id).unwrap();
        assert_eq!(
            one(&rs, &record(CHASE_FEN, &changed)).0,
            "undecided",
            "{id}"
        );
    }
}

#[test]
fn the_natural_limit_is_found_when_its_rounds_are_played() {
    // 55 rounds from the counter, then the idle shuffle: 60 rounds after ply 10, before the
    // start position stands a fourth time (ply 12).
    let text = record("4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 110 60", &times(&IDLE, 3));
    let limit = ("draw", 10, "natural_limit", "natural_limit");
    assert_ends_under(&CXA, &text, limit);
    // No natural limit in the AXF rule set: the repetition draws.
    let repeated = ("draw", 12, "repetition_draw", "repetition_draw");
    assert_ends_under(&["axf"], &text, repeated);
}

/// cxa-2020 with one textual edit to its file `file` (under `spec/cxa-2020/`).
fn edited_2020(file: &str, from: &str, to: &str) -> RuleSet {
    let file = format!("cxa-2020/{file}");
    RuleSet::of_spec(&crate::spec_edit::edited(&[(&file, from, to)]), "cxa-2020").unwrap()
}

/// cxa-2020 with one textual edit to its repetition clauses.
fn repetition_2020(from: &str, to: &str) -> RuleSet {
    edited_2020("repetition.yaml", from, to)
}

#[test]
fn the_counts_are_data() {
    let text = record(PC_FEN, &times(&PERPETUAL_CHECK, 6));
    // Two cycles make a pending position: the perpetual check loses after ply 8.
    let rs = repetition_2020("pending_after_cycles: 3", "pending_after_cycles: 2");
    assert_eq!(one(&rs, &text).1, Some(8));
    // Without the counts nobody watches the board.
    let rs = repetition_2020(
        "      pending_after_cycles: 3\n      cycles_after_ruling: 1\n",
        "",
    );
    assert_eq!(one(&rs, &text).0, "undecided");
    // Two more cycles after the order before a chase that is not changed loses.
    let chase = record(CHASE_FEN, &times(&CHASE, 6));
    let rs = repetition_2020("cycles_after_ruling: 1", "cycles_after_ruling: 2");
    assert_eq!(one(&rs, &chase).1, Some(20));
    // A natural limit of 58 rounds is reached after ply 6.
    let text = record("4k3r/9/9/9/9/9/9/9/9/R2K5 w - - 110 60", &times(&IDLE, 3));
    let rs = edited_2020("results.yaml", "      rounds: 60\n", "      rounds: 58\n");
    assert_ends(&rs, &text, ("draw", 6, "natural_limit", "natural_limit"));
}

#[test]
fn every_shared_game_adjudicates_without_an_error() {
    let Some(files) = shared_pgn_files() else {
        return;
    };
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    let mut games = 0;
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let (text, _) = xqspec::decode_text(&bytes, None);
        games += adjudicate(&rs, &text).len();
    }
    assert!(games >= 1125, "{games} games");
}
