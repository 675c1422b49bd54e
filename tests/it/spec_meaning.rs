//! Meaning checks of the rule data: one test per class of nonsense that shape checks let
//! through. Each takes the built-in spec, breaks one clause (through an overlay, or an
//! edited copy of a spec file) and checks that compiling refuses it with an error naming
//! the clause and the field.

use crate::assert::assert_contains;
use xqspec::RuleSet;
use xqspec::{Overlay, Spec};

/// The built-in `edition` with an overlay whose `changes:` list is `changes` (YAML lines).
fn with_overlay(edition: &str, changes: &str) -> Result<RuleSet, String> {
    let spec = Spec::builtin().map_err(|e| e.to_string())?;
    let text = format!(
        "overlay: t\nname: t\nedition: {edition}\nprovenance: {{status: inferred, source: seed-002}}\nchanges:\n{changes}"
    );
    let o = Overlay::parse("overlays/t.yaml", &text).map_err(|e| e.to_string())?;
    let ed = spec.with_overlay(&o).map_err(|e| e.to_string())?;
    RuleSet::compile(ed).map_err(|e| e.to_string())
}

/// The built-in spec with one textual edit to one file, then `edition` compiled.
fn edited(file: &str, from: &str, to: &str, edition: &str) -> Result<RuleSet, String> {
    let spec = crate::spec_edit::try_edited(&[(file, from, to)]).map_err(|e| e.to_string())?;
    RuleSet::of_spec(&spec, edition).map_err(|e| e.to_string())
}

fn refused(r: Result<RuleSet, String>, needles: &[&str]) {
    let e = match r {
        Ok(rs) => panic!("{} compiled, but should be refused", rs.id()),
        Err(e) => e,
    };
    for n in needles {
        assert!(e.contains(n), "the error does not name `{n}`:\n{e}");
    }
}

fn change(clause: &str, data: &str) -> String {
    format!("  - clause: {clause}\n    data: {data}\n")
}

/// Changing `clause` of cxa-2020 to `data` (through an overlay) is refused, naming each of
/// `needles`.
fn refused_change(clause: &str, data: &str, needles: &[&str]) {
    refused(with_overlay("cxa-2020", &change(clause, data)), needles);
}

// ---- movement, regions, setup ----

#[test]
fn a_chariot_that_cannot_move() {
    refused_change(
        "movement.chariot",
        "{program: []}",
        &["movement.chariot", "`program`", "no move"],
    );
}

#[test]
fn a_kind_that_cannot_move_from_its_setup() {
    let to = "      piece: chariot\n      program:\n        - slide: [0, 1]\n          symmetry: rotate\n          from: palace";
    let r = edited(
        "cxa-2020/movement.yaml",
        "      piece: chariot\n      program:\n        - slide: [0, 1]\n          symmetry: rotate",
        to,
        "cxa-2020",
    );
    refused(r, &["movement.chariot", "setup points"]);
}

#[test]
fn a_horse_leap_off_the_board() {
    let r = with_overlay(
        "cxa-2020",
        &change(
            "movement.horse",
            "{program: [{leap: [1, 12], block: [0, 1], symmetry: all}]}",
        ),
    );
    refused(
        r,
        &["movement.horse", "`leap: [1, 12]`", "no point of the board"],
    );
}

#[test]
fn a_step_that_never_lands_in_its_region() {
    let r = with_overlay(
        "cxa-2020",
        &change(
            "movement.advisor",
            "{program: [{step: [3, 3], symmetry: rotate, to: palace}]}",
        ),
    );
    refused(r, &["movement.advisor", "`step: [3, 3]`", "palace"]);
}

#[test]
fn a_slide_of_no_points_and_a_hop_over_too_many_screens() {
    let base =
        "      piece: chariot\n      program:\n        - slide: [0, 1]\n          symmetry: rotate";
    refused(
        edited(
            "cxa-2020/movement.yaml",
            base,
            &format!("{base}\n          max: 0"),
            "cxa-2020",
        ),
        &["movement.chariot", "`max`"],
    );
    refused(
        edited(
            "cxa-2020/movement.yaml",
            "screens: 1",
            "screens: 9",
            "cxa-2020",
        ),
        &["movement.cannon", "`hop: [0, 1]`"],
    );
}

#[test]
fn an_empty_region() {
    refused_change(
        "board.palace",
        "{regions: {palace: {files: [f, d]}}}",
        &["board.palace", "region `palace`", "empty"],
    );
}

#[test]
fn a_general_set_up_outside_its_palace() {
    refused_change(
        "pieces.setup",
        "{points: {general: [e4]}}",
        &["pieces.setup", "`points.general`", "palace"],
    );
}

#[test]
fn an_elephant_set_up_across_the_river() {
    refused_change(
        "pieces.setup",
        "{points: {elephant: [c5, g5]}}",
        &["pieces.setup", "`points.elephant`", "own_half"],
    );
}

#[test]
fn a_setup_that_is_no_legal_position() {
    // Without the middle soldiers the generals face each other on the open e-file.
    refused_change(
        "pieces.setup",
        "{points: {soldier: [a3, c3, g3, i3]}}",
        &["pieces.setup", "`points`", "not a legal position"],
    );
}

#[test]
fn a_kind_set_up_on_no_point() {
    refused_change(
        "pieces.setup",
        "{points: {cannon: []}}",
        &["pieces.setup", "`points.cannon`"],
    );
}

// ---- counts and limits ----

#[test]
fn a_natural_move_limit_of_zero_rounds() {
    refused_change(
        "draw.natural_limit",
        "{rounds: 0}",
        &["draw.natural_limit", "`rounds`"],
    );
    refused_change(
        "draw.natural_limit",
        "{rounds: -3}",
        &["draw.natural_limit", "rounds"],
    );
    refused_change(
        "draw.natural_limit",
        "{rounds: 5}",
        &["draw.natural_limit", "`checks_counted`"],
    );
}

#[test]
fn a_shuffle_minimum_of_zero() {
    refused_change(
        "repetition.cycle",
        "{shuffle_min_moves_per_side: 0}",
        &["repetition.cycle", "`shuffle_min_moves_per_side`"],
    );
}

#[test]
fn zero_counts_of_the_arbiter() {
    refused_change(
        "draw.no_early_offer",
        "{rounds: 0}",
        &["draw.no_early_offer", "`rounds`"],
    );
    refused_change(
        "draw.early_repetition",
        "{rounds: 0}",
        &["draw.early_repetition", "`rounds`"],
    );
    refused_change(
        "irregularity.knocked_over",
        "{min_pieces: 0}",
        &["irregularity.knocked_over", "`min_pieces`"],
    );
    refused_change(
        "irregularity.displaced_piece",
        "{within_rounds: 0}",
        &["irregularity.displaced_piece", "`within_rounds`"],
    );
    refused_change(
        "foul.unrecorded_moves",
        "{every_moves: 0}",
        &["foul.unrecorded_moves", "`every_moves`"],
    );
    refused_change(
        "play.turns",
        "{moves_per_round: 0}",
        &["play.turns", "`moves_per_round`"],
    );
}

#[test]
fn zero_counts_of_time() {
    let r = with_overlay(
        "cxa-2020",
        &change(
            "clock.scheme.rapid_10m_10s",
            "{periods: [{time: 0s}], increment: 0s}",
        ),
    );
    refused(r, &["clock.scheme.rapid_10m_10s", "`periods[0].time`"]);
    refused_change(
        "playoff.slow_rapid_decider",
        "{stages: [{stage: slow, games: 0, scheme: null, colours: {first: not_stated}}]}",
        &["playoff.slow_rapid_decider", "`games`"],
    );
}

#[test]
fn a_material_value_below_zero() {
    refused_change(
        "repetition.material",
        "{values: {chariot: -4}}",
        &["repetition.material", "`values.chariot`"],
    );
}

// ---- scores ----

#[test]
fn a_win_worth_u64_max() {
    refused_change(
        "scoring.game",
        "{tables: {standard: {win: 18446744073709551615}}}",
        &["scoring.game", "win", "bound"],
    );
}

#[test]
fn scores_must_be_exact() {
    refused_change(
        "scoring.game",
        "{tables: {standard: {win: 2.1}}}",
        &["scoring.game", "win", "whole number"],
    );
    let r = edited(
        "cxa-2020/competition.yaml",
        "standard: {win: 2, draw_red: 1",
        "standard: {win: 2, draw_red: \"1/3\"",
        "cxa-2020",
    );
    refused(r, &["scoring.game", "draw_red", "whole number"]);
    // Halves and fractions that are exact are accepted.
    let rs = edited(
        "cxa-2020/competition.yaml",
        "standard: {win: 2, draw_red: 1",
        "standard: {win: 2, draw_red: \"3/2\"",
        "cxa-2020",
    )
    .unwrap();
    assert_eq!(rs.competition.unwrap().game.draw_red, 1.5);
    let rs = with_overlay(
        "cxa-2020",
        &change("scoring.game", "{tables: {standard: {draw_black: 0.5}}}"),
    )
    .unwrap();
    assert_eq!(rs.competition.unwrap().game.draw_black, 0.5);
}

#[test]
fn every_scoring_table_and_share_is_checked() {
    // A table not in use is checked too: an overlay may switch to it.
    refused_change(
        "scoring.game",
        "{tables: {win3_draw1: {win: 1}}}",
        &["scoring.game", "`tables.win3_draw1`"],
    );
    refused_change("scoring.match", "{win: 0}", &["scoring.match", "`win`"]);
    refused_change(
        "bye.opponent_score",
        "{factor: 2}",
        &["bye.opponent_score", "`factor`"],
    );
    refused_change(
        "tiebreak.round_robin",
        "{cycles: 0}",
        &["tiebreak.round_robin", "`cycles`"],
    );
    refused_change(
        "lineup.boards_with_reserves",
        "{example: {orders: 16}}",
        &["lineup.boards_with_reserves", "`example.orders`"],
    );
}

// ---- the spec check ----

#[test]
fn the_built_in_editions_and_overlays_pass() {
    let spec = Spec::builtin().unwrap();
    let report = xqspec::check_spec(&spec, None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let rulesets = spec.editions().len() + spec.overlays().len();
    let perfts: Vec<&String> = report
        .lines
        .iter()
        .filter(|l| l.contains("perft(start, 3) = 79666"))
        .collect();
    assert_eq!(perfts.len(), rulesets, "{:?}", report.lines);
}

/// The spec check of the built-in spec with the overlay `text`, read from `path`: its
/// errors and its warnings.
fn checked_with(path: &str, text: &str) -> (Vec<String>, Vec<String>) {
    let spec = Spec::builtin().unwrap();
    let o = Overlay::parse(path, text).unwrap();
    let report = xqspec::check_spec(&spec, Some(&o));
    (report.errors, report.warnings)
}

#[test]
fn an_overlay_given_is_applied_and_checked() {
    let text = "overlay: t\nname: t\nedition: cxa-2020\nprovenance: {status: inferred, source: seed-002}\nchanges:\n  - clause: draw.natural_limit\n    data: {rounds: 0}\n";
    let (errors, _) = checked_with("elsewhere/t.yaml", text);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_contains(&errors[0], "elsewhere/t.yaml");
    assert_contains(&errors[0], "draw.natural_limit");
}

#[test]
fn a_perft_change_without_a_movement_change_is_a_warning() {
    // A setup without the a-file soldier changes the moves, but no movement clause.
    let text = "overlay: t\nname: t\nedition: cxa-2020\nprovenance: {status: inferred, source: seed-002}\nchanges:\n  - clause: pieces.setup\n    data: {points: {soldier: [c3, e3, g3, i3]}}\n";
    let (errors, warnings) = checked_with("overlays/t.yaml", text);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_contains(&warnings[0], "cxa-2020+t");
    assert_contains(&warnings[0], "movement.");
}

#[test]
fn a_missing_overlay_file_and_an_empty_spec_folder_are_errors() {
    let missing = std::env::temp_dir().join("xqspec-no-such-overlay.yaml");
    let e = Overlay::load(&missing).unwrap_err().to_string();
    assert_contains(&e, "xqspec-no-such-overlay.yaml");
    let dir = std::env::temp_dir().join(format!("xqspec-empty-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let e = Spec::load_dir(&dir).unwrap_err().to_string();
    assert_contains(&e, "no edition");
    assert_contains(&e, &dir.display().to_string());
    let _ = std::fs::remove_dir(&dir);
    let empty = Spec::from_files(Vec::new()).unwrap();
    assert!(!xqspec::check_spec(&empty, None).errors.is_empty());
}
