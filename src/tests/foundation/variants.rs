//! Proof that the VM is data-driven: edit the YAML, and the legal moves and perft counts
//! change as the edited rule says — and agree with the slow reference generator built
//! from the same edited YAML.

use crate::tests::assert::assert_contains;
use crate::Move;
use crate::Spec;
use crate::{Position, Rules};

use super::reference::RefRules;

/// The built-in spec with one textual edit to one cxa-2020 file.
fn variant(file: &str, from: &str, to: &str) -> (Rules, RefRules) {
    let spec = crate::tests::spec_edit::edited(&[(file, from, to)]);
    let ed = spec.edition("cxa-2020").unwrap();
    (
        Rules::of_edition(ed).unwrap_or_else(|e| panic!("edited spec compiles: {e}")),
        RefRules::new(ed),
    )
}

/// The built-in spec with one textual edit to cxa-2020's movement clauses.
fn movement_variant(from: &str, to: &str) -> (Rules, RefRules) {
    variant("cxa-2020/movement.yaml", from, to)
}

/// The built-in cxa-2020 movement rules, unedited.
fn builtin() -> Rules {
    let spec = Spec::builtin().unwrap();
    Rules::of_edition(spec.edition("cxa-2020").unwrap()).unwrap()
}

fn moves(rules: &Rules, fen: &str) -> Vec<String> {
    let pos = Position::from_fen(rules, fen).unwrap();
    let mut v: Vec<String> = pos.legal_moves(rules).iter().map(|m| m.iccs()).collect();
    v.sort();
    v
}

/// VM and reference agree on perft of the given depth from `fen`.
fn agree(rules: &Rules, reference: &RefRules, fen: &str, depth: u32) -> u64 {
    assert!(reference.agrees_on_kinds(rules));
    let mut pos = Position::from_fen(rules, fen).unwrap();
    let fast = crate::perft(&mut pos, rules, depth);
    let slow = reference.perft(&reference.board_of(&pos), pos.side_to_move(), depth);
    assert_eq!(
        fast, slow,
        "VM and reference disagree on {fen} depth {depth}"
    );
    fast
}

const START: &str = "startpos";

#[test]
fn horse_without_blocking_point() {
    let (rules, reference) = movement_variant(
        "        - leap: [1, 2]\n          block: [0, 1]",
        "        - step: [1, 2]",
    );
    // The horses on b0 and h0 gain d1 and f1, whose legs (c0, g0) hold elephants.
    let (before, after) = (moves(&builtin(), START), moves(&rules, START));
    assert_eq!(before.len(), 44);
    assert_eq!(after.len(), 46);
    assert!(after.contains(&"b0d1".to_string()) && after.contains(&"h0f1".to_string()));
    assert!(!before.contains(&"b0d1".to_string()));
    assert_eq!(
        agree(&rules, &reference, START, 3),
        crate::perft(&mut rules.start_position(), &rules, 3)
    );
    assert_ne!(agree(&rules, &reference, START, 2), 1920);
}

#[test]
fn soldier_sideways_before_the_river() {
    let (rules, reference) = movement_variant("          from: beyond_river\n", "");
    let after = moves(&rules, START);
    // Five soldiers: three gain two sideways steps, the two on the edge files one each.
    assert_eq!(after.len(), 44 + 8);
    assert!(after.contains(&"e3d3".to_string()));
    agree(&rules, &reference, START, 3);
}

#[test]
fn elephant_allowed_to_cross() {
    let fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1";
    let (rules, reference) = movement_variant(
        "          block: [1, 1]\n          symmetry: rotate\n          to: own_half\n",
        "          block: [1, 1]\n          symmetry: rotate\n",
    );
    let (before, after) = (moves(&builtin(), fen), moves(&rules, fen));
    assert!(!before.contains(&"c4e6".to_string()));
    assert!(after.contains(&"c4e6".to_string()) && after.contains(&"c4a6".to_string()));
    assert_eq!(after.len(), before.len() + 2);
    agree(&rules, &reference, fen, 3);
}

#[test]
fn facing_generals_allowed_when_the_rule_is_dropped() {
    // Red's general on d0 may step to e0, facing Black's on e9, only without the rule.
    let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let base = builtin();
    let (rules, reference) = variant(
        "cxa-2020/check.yaml",
        "        - royals_facing           # movement.generals_facing\n",
        "",
    );
    let m = Move::parse_iccs("d0e0").unwrap();
    assert!(!Position::from_fen(&base, fen).unwrap().is_legal(&base, m));
    assert!(Position::from_fen(&rules, fen).unwrap().is_legal(&rules, m));
    agree(&rules, &reference, fen, 3);
}

#[test]
fn cannon_with_two_screens() {
    let (rules, reference) = movement_variant("          screens: 1\n", "          screens: 2\n");
    // From the start the cannon on b2 takes the horse on b9 over one screen (b7); with two
    // screens required it cannot.
    let base = builtin();
    assert!(moves(&base, START).contains(&"b2b9".to_string()));
    assert!(!moves(&rules, START).contains(&"b2b9".to_string()));
    agree(&rules, &reference, START, 3);
    agree(
        &rules,
        &reference,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        2,
    );
}

#[test]
fn unknown_region_is_a_spec_error_at_the_clause() {
    let spec =
        crate::tests::spec_edit::edited(&[("cxa-2020/movement.yaml", "to: palace", "to: palce")]);
    let err = Rules::of_edition(spec.edition("cxa-2020").unwrap()).unwrap_err();
    let msg = err.to_string();
    assert_contains(&msg, "movement.general");
    assert_contains(&msg, "palce");
    assert!(msg.starts_with("cxa-2020/movement.yaml:2:"), "{msg}");
}
