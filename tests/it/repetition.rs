//! The repetition rules (棋例): data-driven behaviour, located spec errors, typed
//! rejections, and fuzzing of the ruling with random legal play. (The PROTOCOL.md example is
//! checked with the others in `tests/arbiter.rs`.)

use crate::assert::assert_contains;
use crate::spec_edit::{compile_error, compiled, edited_one as edited};
use proptest::prelude::*;

use crate::random_line::random_line;
use xqspec::RuleSet;
use xqspec::Spec;
use xqspec::ToAnswer;
use xqspec::{rule, RulingError, RulingQuery, Verdict};

/// The perpetual chase of an unprotected cannon (conformance case chariot-chases-unprotected-cannon).
const CHASE_FEN: &str = "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1";
const CHASE: [&str; 4] = ["a8a7", "c7c8", "a7a8", "c8c7"];
/// 2020 ch. 8 fig. 7: Red's cannon threatens mate every move, Black's chariot blocks.
const KILL_FEN: &str = "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1";
const KILL: [&str; 4] = ["i0h0", "i8h8", "h0i0", "h8i8"];
/// 2020 ch. 9 参考图49: Red's horse flees the chariot to where it takes part in the cannon's
/// chase of Black's cannon (the flight reading of 从捉到捉).
const REF49_FEN: &str = "3akab2/3cn1C2/4b2C1/pN6R/1r1n2p2/9/P1p1P1P1P/1c2B4/5N3/2BAKA3 w - - 0 1";
const REF49: [&str; 4] = ["b6c8", "b5c5", "c8b6", "c5b5"];

fn q(fen: &str, moves: &[&str]) -> RulingQuery {
    RulingQuery {
        fen: fen.into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

/// The ruling of the cycle `moves` from `fen` under `rs`.
fn ruled(rs: &RuleSet, fen: &str, moves: &[&str]) -> xqspec::Ruling {
    rule(&rs.vm, rs.repetition.as_ref().unwrap(), &q(fen, moves)).unwrap()
}

fn verdict(rs: &RuleSet, fen: &str, moves: &[&str]) -> Verdict {
    ruled(rs, fen, moves).verdict
}

/// Ply `ply` of the ruling `r` has `point` among its targets, or (`wanted` false) has not.
#[track_caller]
fn assert_target(r: &xqspec::Ruling, ply: usize, point: &str, wanted: bool) {
    let p = &r.plies[ply];
    let found = p.targets.iter().any(|t| t == point);
    assert_eq!(found, wanted, "{:?}: {}", p.targets, p.reason);
}

/// cxa-2020 with one textual edit to its 棋例 clauses.
fn rep_2020(from: &str, to: &str) -> RuleSet {
    compiled("cxa-2020/repetition.yaml", from, to)
}

/// The AXF rule set with one textual edit to its 棋例 clauses.
fn rep_axf(from: &str, to: &str) -> RuleSet {
    compiled("axf/repetition.yaml", from, to)
}

/// The AXF rule set without `with_checks`: a check chases nothing.
fn axf_without_check_chases() -> RuleSet {
    rep_axf(
        "          with_checks: true\n",
        "          with_checks: false\n",
    )
}

fn builtin(id: &str) -> RuleSet {
    RuleSet::builtin(id).unwrap()
}

/// The built-in rule set `id` with the reading `name` switched off, as the readings report
/// and a ruling's basis switch it.
fn reading_off(id: &str, name: &str) -> RuleSet {
    let spec = Spec::builtin().unwrap();
    let ed = spec.edition(id).unwrap();
    RuleSet::compile(xqspec::without_reading(ed, name)).unwrap()
}

#[test]
fn the_same_cycle_is_ruled_by_each_rule_set_s_data() {
    // Perpetual threat to mate: forbidden in the CXA editions, allowed by the AXF.
    for e in ["cxa-1999", "cxa-2011", "cxa-2020"] {
        assert_eq!(
            verdict(&builtin(e), KILL_FEN, &KILL),
            Verdict::RedMustChange,
            "{e}"
        );
    }
    assert_eq!(verdict(&builtin("axf"), KILL_FEN, &KILL), Verdict::Draw);
}

#[test]
fn editing_the_patterns_changes_the_verdict() {
    // Make every attack allowed but perpetual check: 长杀 becomes allowed, the cycle a draw.
    let rs = rep_2020("        - {pattern: perpetual_attack, zh: 长打, status: forbidden, every_family: attack}\n", "");
    assert_eq!(verdict(&rs, KILL_FEN, &KILL), Verdict::Draw);
    assert_eq!(verdict(&rs, CHASE_FEN, &CHASE), Verdict::Draw);
}

#[test]
fn the_names_of_cycles_are_data() {
    let name = |rs: &RuleSet| {
        let r = ruled(rs, KILL_FEN, &KILL);
        r.patterns.unwrap()[0].zh.clone()
    };
    assert_eq!(name(&builtin("cxa-2020")), "长杀");
    assert_eq!(
        name(&rep_2020("{perpetual: 长,", "{perpetual: 常,")),
        "常杀"
    );
}

#[test]
fn the_words_of_statuses_and_sides_are_data_and_in_the_answer() {
    let patterns = |rs: &RuleSet| {
        let rep = rs.repetition.as_ref().unwrap();
        rule(&rs.vm, rep, &q(KILL_FEN, &KILL)).unwrap().to_json(rep)["patterns"].clone()
    };
    let words = |p: &serde_json::Value| {
        ["red", "black"].map(|s| {
            format!(
                "{}{}，{}",
                p[s]["side_zh"].as_str().unwrap(),
                p[s]["zh"].as_str().unwrap(),
                p[s]["status_zh"].as_str().unwrap()
            )
        })
    };
    for e in ["cxa-1999", "cxa-2011", "cxa-2020"] {
        let [red, black] = words(&patterns(&builtin(e)));
        assert_eq!(red, "红方长杀，禁止", "{e}");
        assert!(
            black.starts_with("黑方") && black.ends_with("，允许"),
            "{e}: {black}"
        );
    }
    // the AXF allows a perpetual threat to mate
    assert_eq!(words(&patterns(&builtin("axf")))[0], "红方长杀，允许");
    assert_eq!(
        words(&patterns(&rep_2020(
            "status_names: {forbidden: 禁止, allowed: 允许}\n      side_names: {red: 红方,",
            "status_names: {forbidden: 禁止着法, allowed: 允许}\n      side_names: {red: 紅方,"
        )))[0],
        "紅方长杀，禁止着法"
    );
}

#[test]
fn editing_values_and_exemptions_changes_the_classes() {
    // A cannon worth nothing is no material: following it is no chase.
    let rs = rep_2020("cannon: 2, advisor", "advisor");
    assert_eq!(verdict(&rs, CHASE_FEN, &CHASE), Verdict::Draw);
    // Exempting the chariot's own attacks (as the general's are) makes the chase idle too.
    let rs = rep_2020(
        "first_capturer_not: [general, soldier]",
        "first_capturer_not: [general, soldier, chariot]",
    );
    assert_eq!(verdict(&rs, CHASE_FEN, &CHASE), Verdict::Draw);
    // Making the verdict against a perpetual chaser a loss rather than an order to change.
    let rs = rep_2020(
        "      when: {one: [forbidden], other: [allowed]}\n      verdict: must_change",
        "      when: {one: [forbidden], other: [allowed]}\n      verdict: loses",
    );
    assert_eq!(verdict(&rs, CHASE_FEN, &CHASE), Verdict::RedLoses);
}

/// The class of each ply of a ruling.
fn classes(rs: &RuleSet, fen: &str, moves: &[&str]) -> Vec<String> {
    class_names(rs, &ruled(rs, fen, moves))
}

/// The class of each ply of the ruling `r` under `rs`.
fn class_names(rs: &RuleSet, r: &xqspec::Ruling) -> Vec<String> {
    let rep = rs.repetition.as_ref().unwrap();
    r.plies
        .iter()
        .map(|p| rep.classes[p.facts.class].name.clone())
        .collect()
}

/// Each reading of art. 24 the 2020 data takes from the book's diagrams is a clause field:
/// switching it off gives the other reading, and the diagram's ruling changes with it.
/// Each reading (a switch, or a choice, of the 棋例 clauses' data) changes the rulings it is
/// read from when the data switches it off. (`reports/readings.md` lists every case each one
/// changes.) The mechanisms the text states (24.4's exchange, 24.3's joint capture) are no
/// switches: their rulings are checked as they stand.
#[test]
fn each_reading_of_the_newness_and_value_rules_is_a_field_of_the_data() {
    let r2020 = builtin("cxa-2020");
    // The flight reading of 从捉到捉 (`parried: counts`), switched off: the clause asks for new
    // wins, and nothing of a flight.
    let flight = reading_off("cxa-2020", "parried");
    let laid_open = rep_2020("      laid_open: true\n", "      laid_open: false\n");
    let floating = rep_2020("floating_worth_below: 4", "floating_worth_below: 2");
    let one_check = rep_2020("      answer_checks: 2\n", "      answer_checks: 1\n");
    let joint_off = rep_2020("      joint_counts: true\n", "      joint_counts: false\n");
    // Each diagram: its name, position and cycle.
    let diagrams: [(&str, &str, &[&str]); 14] = [
        // ch8 图12: the cannon steps out of the chariot's attack and frees its guard: before it,
        // the chariot's capture of the soldier drew away the cannon's root (26.5), after it the
        // capture wins: a new chase by the gain, the text's notion, with no reading.
        (
            "ch8 图12",
            "3k2P2/P3a4/6rc1/8R/9/9/9/B3B4/4A4/4KA3 w - - 0 1",
            &["i6h6", "h7i7", "h6i6", "i7h7"],
        ),
        // ch8 图29: a chariot offered for exchange whose threat of mate goes with it is 兑 (24.4).
        (
            "ch8 图29",
            "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
            &["i3h3", "h9i9", "h3i3", "i9g9", "i3g3", "g9h9"],
        ),
        // ch8 图24: a crossed soldier given for a horse is no gain (below a chariot, 2011 26.6);
        // worth less than a horse, it would be.
        (
            "ch8 图24",
            "2P1kn3/4r4/9/9/p3p3R/9/4P4/4B4/9/2BAKA3 w - - 0 1",
            &["i5i9", "e8f8", "i9i5", "f8e8"],
        ),
        // ch8 图3: the horse's hidden root is a chariot that checks twice; with one check it has
        // none.
        (
            "ch8 图3",
            "5a3/5k3/4P4/p7p/9/8P/P8/4B4/2nRA2r1/2BAK4 w - - 0 1",
            &["e2g0", "h1g1", "g0e2", "g1h1"],
        ),
        // ch8 图9: the advisor on d0, which Black's cannon may take after the chariot moves, has
        // a root held by a pin: won jointly (24.3 与其他子联合吃子).
        (
            "ch8 图9",
            "r1b1kab2/4a4/2n6/p3p2Rp/2p1P4/6N2/P1P5P/2N1C4/3RA4/1cBAK1c1r w - - 0 1",
            &["g4h2", "i0h0", "h2g4", "h0i0"],
        ),
        // ch8 图27: Black's cannon flees the horse to a point from which it wins the horse on a0
        // with its chariot: a chase, though the same capture stood before, when Red could have
        // answered it by taking the cannon (the flight reading).
        (
            "ch8 图27",
            "c4k3/4a4/b4a3/1Np5p/6p2/9/6P2/4B4/r3A4/N2RKA3 w - - 0 1",
            &["b6c8", "a9a8", "c8b6", "a8a9"],
        ),
        // ch9 参考图37: a flight that adds nothing where it goes (the capture stands with the
        // cannon off the board) makes no chase.
        (
            "ch9 参考图37",
            "2baka3/9/n3b4/p1p1pc1rN/6R2/8c/4P3C/3NB4/9/2BAKA3 w - - 0 1",
            &["g5g4", "i4i5", "g4g5", "i5i4"],
        ),
        // ch9 参考图38: the chariot that screens its cannon onto Red's chariot bears on it too: a
        // joint chase, and Red's single-piece chase must give way (26.9.2).
        (
            "ch9 参考图38",
            "2c1kab2/4a4/2n1b4/p3P3p/6p2/9/P7P/1CN1C4/4A3N/2BAKR1rc w - - 0 1",
            &["i1g2", "h0g0", "g2i1", "g0h0"],
        ),
        // ch8 图13: the chariot steps between the two cannons, which then attack each other over
        // it: 兑 (24.4, the moved piece the screen between two pieces of one kind).
        (
            "ch8 图13",
            "3k1ab2/4a4/4c4/4R3p/3PC4/4r4/8P/9/9/5K3 w - - 0 1",
            &["e6d6", "d9e9", "d6e6", "e9d9"],
        ),
        // ch8 图14: the cannon's capture of the elephant wins only if the soldier's capture of the
        // chariot, which the soldier has anyway, is added to it; that capture is a line of its own
        // (and the soldier's own attack, 26.1), so the step is of the idle family (闲); judged on
        // its points alone, without the whole exchange (`laid_open`), it would be a chase.
        (
            "ch8 图14",
            "1rb1kacn1/4a4/2n1b2r1/p1C1pRP1p/2p6/9/PcP1P3P/N3C1N2/9/1RBAKAB2 w - - 0 1",
            &["g6h6", "h7g7", "h6g6", "g7h7"],
        ),
        // ch8 图25: the chariot flees the horse to d5, where it screens and bears on the horse on
        // d9 with the cannon: a chase; without the flight reading the win stood, and the move only
        // follows (跟).
        (
            "ch8 图25",
            "1R1nka3/4ac3/b3b4/p1P1p3p/5n1rc/3R5/P2CP1P2/2N1BCr2/4A4/4KAB2 w - - 0 1",
            &["d4d5", "f5g7", "d5d4", "g7f5"],
        ),
        // ch9 参考图39: the chariot flees the horse to where it still guards the horse that screens
        // the cannon's capture of Black's chariot, which that chariot attacks: the book's
        // 车马炮联合捉车, against which Black's single-piece chase of the chariot must change.
        (
            "ch9 参考图39",
            "4kab2/4arNC1/4b1R2/4n4/2p3pc1/9/4P3P/4B4/4A4/2BAK4 w - - 0 1",
            &["g7g6", "e6f4", "g6g7", "f4e6"],
        ),
        // ch9 参考图11: the cannon steps behind the soldier, and the two attack the advisor whose
        // root may not take back (炮5平6 捉); the soldier's capture counts, as a joint one. Without
        // the reading it is the soldier's own (26.1) and the step idle.
        (
            "ch9 参考图11",
            "3k4C/4a4/4b3b/p8/5P2P/4c4/5p3/4BA3/4A4/4K1B2 w - - 0 1",
            &["e0f0", "e4f4", "f0e0", "f4e4"],
        ),
        // ch8 图28: the chariot's capture of the unrooted horse uncovers its cannon's check, and
        // the answer takes the cannon: even, yet a chase of an unrooted piece; without the
        // reading, no win.
        (
            "ch8 图28",
            "CR1akab1r/9/2n1b1n2/2p5p/6p2/2P6/r3P1P1P/4CcN2/9/2BAK1BR1 w - - 0 1",
            &["b9c9", "c7e8", "c9b9", "e8c7"],
        ),
    ];
    let diagram = |name: &str| {
        let (_, fen, moves) = diagrams.iter().find(|d| d.0 == name).unwrap();
        (*fen, *moves)
    };
    // The class of a ply of a diagram under a rule set: (diagram, rule set, ply, class, whether
    // the ply is of that class).
    let classes_ruled: [(&str, &RuleSet, usize, &str, bool); 23] = [
        ("ch8 图12", &r2020, 1, "chase", true),
        ("ch8 图12", &flight, 1, "chase", true),
        ("ch8 图29", &r2020, 0, "exchange", true),
        ("ch8 图24", &r2020, 0, "chase", false),
        ("ch8 图24", &floating, 0, "chase", true),
        ("ch8 图3", &r2020, 0, "chase", true),
        ("ch8 图3", &one_check, 0, "idle", true),
        // ch8 图9's third move opens the file between the two chariots, which then attack each
        // other: 兑 (24.4).
        ("ch8 图9", &r2020, 2, "exchange", true),
        ("ch8 图27", &r2020, 1, "chase", true),
        ("ch8 图27", &flight, 1, "chase", false),
        ("ch9 参考图37", &r2020, 1, "chase", false),
        ("ch8 图13", &r2020, 2, "exchange", true),
        ("ch8 图14", &r2020, 2, "chase", false),
        ("ch8 图14", &laid_open, 2, "chase", true),
        ("ch8 图25", &r2020, 0, "chase", true),
        ("ch8 图25", &flight, 0, "follow", true),
        ("ch9 参考图39", &r2020, 2, "chase", true),
        ("ch9 参考图39", &flight, 2, "chase", false),
        ("ch9 参考图11", &r2020, 1, "chase", true),
        ("ch9 参考图11", &r2020, 3, "idle", true),
        ("ch9 参考图11", &joint_off, 1, "chase", false),
        ("ch8 图28", &r2020, 0, "chase", true),
        ("ch8 图28", &laid_open, 0, "chase", false),
    ];
    for (name, rs, ply, class, is) in classes_ruled {
        let (fen, moves) = diagram(name);
        let got = &classes(rs, fen, moves)[ply];
        assert_eq!(got == class, is, "{name}, ply {ply}: {got}");
    }
    // The verdict on a diagram under a rule set.
    let verdicts: [(&str, &RuleSet, Verdict); 4] = [
        // The same 图3 rests on the flight: the elephant's return (相三进五) flees Black's chariot to
        // where its move cuts the horse's root again; without the reading Black's cycle is the
        // only forbidden one.
        ("ch8 图3", &r2020, Verdict::Draw),
        ("ch8 图3", &flight, Verdict::BlackMustChange),
        ("ch9 参考图38", &r2020, Verdict::RedMustChange),
        ("ch9 参考图39", &r2020, Verdict::BlackMustChange),
    ];
    for (name, rs, want) in verdicts {
        let (fen, moves) = diagram(name);
        assert_eq!(verdict(rs, fen, moves), want, "{name}");
    }
    // ch8 图9: the chase of ply 1 is joint (24.3).
    let (fen, moves) = diagram("ch8 图9");
    let chases = &ruled(&r2020, fen, moves).plies[1].chases;
    assert!(chases.contains(&xqspec::ChaseKind::Joint), "{chases:?}");
}

/// Under the AXF rule set a chase outranks a threat to mate (D56); in the CXA order the
/// threat is heavier and the cycle a draw.
#[test]
fn the_axf_order_of_effects_is_data() {
    // AXF D56 (conformance case axf-orange-060).
    let case: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string("conformance/ruling/axf/axf-orange-060.yaml").unwrap(),
    )
    .unwrap();
    let fen = case["input"]["fen"].as_str().unwrap().to_string();
    let mv: Vec<String> = case["input"]["moves"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mv: Vec<&str> = mv.iter().map(String::as_str).collect();
    assert_eq!(verdict(&builtin("axf"), &fen, &mv), Verdict::RedMustChange);
    assert_eq!(
        verdict(
            &rep_axf(
                "heaviest_first: [check, chase, kill,",
                "heaviest_first: [check, kill, chase,"
            ),
            &fen,
            &mv
        ),
        Verdict::Draw
    );
}

/// The cycle `moves` from `fen` is ruled `verdict` under the AXF rule set, and a draw under
/// `off` (the AXF rule set with a reading switched off).
#[track_caller]
fn assert_axf_reading(fen: &str, moves: &[&str], verdict_on: Verdict, off: &RuleSet) {
    assert_eq!(verdict(&builtin("axf"), fen, moves), verdict_on);
    assert_eq!(verdict(off, fen, moves), Verdict::Draw);
}

/// AXF: a check chases what it wins whichever way the general steps out of it; where the
/// general cannot step at all, what it wins as it stands (Fairy-Stockfish's axf-fsf-05: the
/// cannon's check that attacks the soldier, answered only by a block, is a chase too, and Red's
/// cycle of chases loses). Without `with_checks` the check chases nothing and the cycle is a
/// draw.
#[test]
fn an_axf_check_the_general_cannot_step_out_of_chases_what_it_attacks() {
    let (fen, mv) = (
        "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
        [
            "f4d4", "f5d5", "d4f4", "d5f5", "f4d4", "f5d5", "d4f4", "d5f5",
        ],
    );
    assert_axf_reading(
        fen,
        &mv,
        Verdict::RedMustChange,
        &axf_without_check_chases(),
    );
}

/// AXF judges newness by the attack: a win whose capture stood before the move is new only
/// where the move takes a root away from its target without parrying a threat (D39: a block
/// that shields the mover's own piece and so cuts the target's root attacks nothing new); a
/// root pinned by the move, or a second cannon screen put in its way, still makes a chase.
#[test]
fn an_axf_root_cut_by_a_shield_is_no_new_attack() {
    let axf = builtin("axf");
    let off = || reading_off("axf", "parried");
    // D39 (axf-orange-044): the advisor shields the chariot from the rook, cutting the rook's
    // root of the horse the chariot may take: idle, and Red's chase of the pinned chariot loses.
    let (fen, mv) = (
        "2baka3/C4rN2/4b1n2/1Rp5p/6p2/2P6/4c1P1c/4B3C/4A4/4KAB2 w - - 0 1",
        ["b6b8", "f9e8", "b8b6", "e8f9", "b6b8", "f9e8", "b8b6"],
    );
    assert_eq!(verdict(&axf, fen, &mv), Verdict::RedMustChange);
    // The plies judged are 4–7; the third is the shield (f9e8): no chase. (The advisor's
    // return to f9 takes away the screen of Red's cannon, the horse's other root: a chase,
    // but one chase in two moves is allowed.)
    let c = classes(&axf, fen, &mv);
    assert_eq!(c[2], "block", "{c:?}");
    assert_eq!(classes(&off(), fen, &mv)[2], "chase");
    assert_eq!(verdict(&off(), fen, &mv), Verdict::Draw);
    // Fairy-Stockfish's 'creating pins to undermine root' (axf-fsf-24): the horse's return
    // pins the root of the horse the chariot attacks: still a chase.
    let (fen, mv) = (
        "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1",
        [
            "e3g4", "e1f1", "g4e3", "f1e1", "e3g4", "e1f1", "g4e3", "f1e1",
        ],
    );
    assert_eq!(verdict(&axf, fen, &mv), Verdict::BlackMustChange);
    // orange-xiangqi's extra illustration (axf-orange-113): the soldier steps in as a second
    // screen of the cannon that guarded the horse, shielding nothing: still a chase.
    let (fen, mv) = (
        "2ca1k3/4a4/b3b4/2P5P/6p2/1c7/9/B7N/2nR5/2BAK4 w - - 0 1",
        [
            "c6b6", "e7c5", "b6c6", "c5e7", "c6b6", "e7c5", "b6c6", "c5e7",
        ],
    );
    assert_eq!(verdict(&axf, fen, &mv), Verdict::RedMustChange);
    let c = classes(&axf, fen, &mv);
    // Every move since the position first stood is judged: Red's are the odd ones.
    assert!(c.iter().step_by(2).all(|k| k == "chase"), "{c:?}");
}

/// Fairy-Stockfish's 'discovered check capture threat by rook' (axf-fsf-25): the chariot
/// that may take the unguarded horse while uncovering its cannon's check chases it, though
/// the answer to the check takes the cannon and the line comes out even.
#[test]
fn an_axf_capture_even_only_by_the_check_it_uncovers_still_chases() {
    let (fen, mv) = (
        "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
        [
            "b4c2", "b0c0", "c2b4", "c0b0", "b4c2", "b0c0", "c2b4", "c0b0",
        ],
    );
    let off = rep_axf("      laid_open: true\n", "      laid_open: false\n");
    assert_axf_reading(fen, &mv, Verdict::BlackMustChange, &off);
}

/// Under AXF a check chases too what it wins whichever way the general steps out of it, and
/// such a check counts among the chases of that piece (Fairy-Stockfish's axf-fsf-10); a
/// check after which the general's step protects the pieces again chases nothing (D12).
#[test]
fn an_axf_check_keeps_the_chases_the_general_cannot_step_away_from() {
    let axf = builtin("axf");
    let off = axf_without_check_chases();
    let (fen, mv) = (
        "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
        [
            "d1d3", "b1b3", "d3d1", "b3b1", "d1d3", "b1b3", "d3d1", "b3b1",
        ],
    );
    assert_axf_reading(fen, &mv, Verdict::BlackMustChange, &off);
    let r = ruled(&axf, fen, &mv);
    let check = r
        .plies
        .iter()
        .find(|p| p.facts.mv.to.to_string() == "b3")
        .unwrap();
    assert_eq!(check.targets, ["d3"]);
    assert_contains(&check.reason, "whichever way the general steps");
    // AXF D12 (axf-orange-014): one check, one threat; the general's step guards again.
    let (fen, mv) = (
        "2bak3r/2R1a2C1/2Rcb4/2N2P3/5C2p/9/9/4p4/4p2p1/5K3 w - - 0 1",
        ["f5e5", "e9f9", "e5f5", "f9e9", "f5e5", "e9f9"],
    );
    assert_eq!(verdict(&axf, fen, &mv), Verdict::Draw);
}

#[test]
fn a_check_line_wins_every_piece_it_takes_not_only_the_first() {
    // ch8 图3: 车7平8 threatens 车8进1 (check); whichever piece interposes is taken with check,
    // and the chariot on d1 falls after a second check. The chariot is a target of the chase
    // though the line takes an advisor (or an elephant) before it.
    let rs = builtin("cxa-2020");
    let fen = "5a3/5k3/4P4/p7p/9/8P/P8/4B4/2nRA2r1/2BAK4 w - - 0 1";
    let r = ruled(&rs, fen, &["e2g0", "h1g1", "g0e2", "g1h1"]);
    assert_eq!(class_names(&rs, &r), ["chase", "chase", "chase", "chase"]);
    assert_target(&r, 3, "d1", true);
    assert_eq!(r.verdict, Verdict::Draw);
}

#[test]
fn a_losing_capture_chases_the_piece_it_opens_the_way_to() {
    // ch8 图26: 炮8进3 threatens 炮打相 with check, which uncovers the other cannon on the
    // chariot; the book: 黑方长捉车. The chariot is the target, won by a single piece, and
    // 26.9.2 (our reading) then asks Black to change.
    let rs = builtin("cxa-2020");
    let (fen, mv) = (
        "2baka2r/9/2n1b4/2p1p4/9/3Rc1Pc1/4C1n2/3NB1NC1/4A4/4KAB2 w - - 0 1",
        ["d4d7", "h4h7", "d7d4", "h7h4"],
    );
    let r = ruled(&rs, fen, &mv);
    assert_target(&r, 3, "d4", true);
    assert_eq!(r.verdict, Verdict::BlackMustChange);
    // The cannon's own capture of the chariot, over the elephant that guards itself where it
    // stands, is a single piece's (联合 needs two pieces to take part): 黑方长捉车.
    assert!(
        !r.plies[1].chases.contains(&xqspec::ChaseKind::Joint),
        "{:?}: {}",
        r.plies[1].chases,
        r.plies[1].reason
    );
    // Judged on its points alone (without `laid_open`), the capture wins nothing: a draw.
    let first_taken = rep_2020("      laid_open: true\n", "      laid_open: false\n");
    let r = ruled(&first_taken, fen, &mv);
    assert_target(&r, 3, "d4", false);
    assert_eq!(r.verdict, Verdict::Draw);
}

#[test]
fn spec_errors_name_the_clause_and_its_place() {
    // (text replaced in cxa-2020/repetition.yaml, its replacement, what the error says)
    let edits: &[(&str, &str, &[&str])] = &[
        (
            "heaviest_first: [check, kill,",
            "heaviest_first: [check, kil,",
            &[
                "cxa-2020/repetition.yaml:",
                "repetition.multiple_effects",
                "`kil` is no class",
            ],
        ),
        (
            "test: {mate_threat: {depth: 4}}",
            "test: {mate_threat: {deep: 4}}",
            &["repetition.kill", "deep"],
        ),
        (
            "region: beyond_river",
            "region: over_the_river",
            &["repetition.material", "over_the_river"],
        ),
        // the rulebook's words of a ruling are data: missing or empty, an error at the clause
        (
            "      side_names: {red: 红方, black: 黑方}\n",
            "",
            &[
                "cxa-2020/repetition.yaml:",
                "repetition.patterns",
                "side_names",
            ],
        ),
        (
            "forbidden: 禁止, allowed: 允许",
            "forbidden: \"\", allowed: 允许",
            &["repetition.patterns", "status_names.forbidden is empty"],
        ),
    ];
    for (from, to, says) in edits {
        let e = compile_error("cxa-2020/repetition.yaml", from, to);
        assert!(says.iter().all(|s| e.contains(s)), "{from} → {to}: {e}");
    }
}

#[test]
fn bad_input_is_a_typed_rejection() {
    let rs = builtin("cxa-2020");
    let rep = rs.repetition.as_ref().unwrap();
    match rule(&rs.vm, rep, &q(CHASE_FEN, &["a8a7", "c7d6"])) {
        Err(e @ RulingError::Illegal { index: 2, .. }) => {
            assert_eq!(e.reject_kind(), "move.illegal")
        }
        other => panic!("{other:?}"),
    }
    match rule(&rs.vm, rep, &q(CHASE_FEN, &["a8a7", "C7-C8"])) {
        Err(e @ RulingError::MoveSyntax { index: 2, .. }) => {
            assert_eq!(e.reject_kind(), "move.syntax")
        }
        other => panic!("{other:?}"),
    }
    let e = rule(&rs.vm, rep, &q("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &[])).unwrap_err();
    assert_eq!(e.reject_kind(), "fen.opponent_in_check");
    // Moves that repeat nothing: no ruling.
    assert_eq!(verdict(&rs, "startpos", &["h2e2", "h9g7"]), Verdict::None);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_play_never_panics_and_repeats_are_judged(seed in any::<u64>(), plies in 0usize..14, back in 0usize..2) {
        let (fen, mut moves) = random_line(seed, plies);
        // Append a there-and-back shuffle so that a position repeats.
        let rs = builtin("cxa-2020");
        let mut pos = xqspec::Position::from_fen(&rs.vm, &fen).unwrap();
        for m in &moves { pos.play(&rs.vm, xqspec::Move::parse_iccs(m).unwrap()).unwrap(); }
        let mut shuffle = Vec::new();
        for _ in 0..2 {
            let Some(m) = pos.legal_moves(&rs.vm).into_iter().find(|m| {
                let mut p = pos.clone();
                p.play(&rs.vm, *m).is_ok() && p.is_legal(&rs.vm, xqspec::Move::new(m.to, m.from))
            }) else { break };
            pos.play(&rs.vm, m).unwrap();
            shuffle.push(m);
        }
        let mut tail = Vec::new();
        if shuffle.len() == 2 {
            for m in &shuffle { tail.push(m.iccs()); }
            tail.push(xqspec::Move::new(shuffle[0].to, shuffle[0].from).iccs());
            tail.push(xqspec::Move::new(shuffle[1].to, shuffle[1].from).iccs());
        }
        // `back` also tries a line cut short (no repetition).
        if back == 0 { moves.extend(tail.clone()); }
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        for id in ["cxa-1999", "cxa-2011", "cxa-2020", "axf"] {
            let rs = builtin(id);
            let r = rule(&rs.vm, rs.repetition.as_ref().unwrap(), &q(&fen, &refs));
            // Every prefix was legal, so the ruling is made; a repetition is judged.
            let r = r.unwrap_or_else(|e| panic!("{id}: {e}"));
            if back == 0 && tail.len() == 4 {
                prop_assert!(r.cycle.is_some(), "{id}: a repeated position must be judged");
                prop_assert!(r.verdict != Verdict::None);
            }
        }
    }

    #[test]
    fn garbage_moves_are_refused_with_their_number(text in "[a-k][0-9][a-k][0-9]|[A-Z]{2}|", at in 0usize..3) {
        let rs = builtin("axf");
        let mut moves: Vec<String> = CHASE.iter().take(at).map(|s| s.to_string()).collect();
        moves.push(text.clone());
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        match rule(&rs.vm, rs.repetition.as_ref().unwrap(), &q(CHASE_FEN, &refs)) {
            Ok(_) => {}
            Err(RulingError::MoveSyntax { index, .. }) | Err(RulingError::Illegal { index, .. }) => prop_assert_eq!(index, at + 1),
            Err(e) => prop_assert!(false, "{e}"),
        }
    }
}

#[test]
fn forcing_bounds_are_checked_data() {
    // The forcing-line search's bounds come from `repetition.forcing`; a bound that would
    // make the search empty or unbounded is refused at its clause.
    for (from, to, says) in [
        (
            "      nodes: 20000\n",
            "      nodes: 0\n",
            "nodes must be 1",
        ),
        (
            "      ply_nodes: 13000\n",
            "      ply_nodes: 0\n",
            "ply_nodes must be 1",
        ),
        (
            "      cycle_nodes: 100000\n",
            "      cycle_nodes: 0\n",
            "cycle_nodes must be 1",
        ),
    ] {
        let e = compile_error("cxa-2020/repetition.yaml", from, to);
        assert_contains(&e, "repetition.forcing");
        assert_contains(&e, says);
    }
}

use crate::load;

#[test]
fn an_svg_sheet_beyond_its_limit_is_refused_naming_the_limit() {
    // The command, run as the binary (its arguments are the binary's, not the library's).
    struct RulingArgs {
        moves: Vec<String>,
        every_move: bool,
        svg: Option<std::path::PathBuf>,
    }
    let rs = builtin("cxa-2020");
    let start = rs.vm.start_position().to_fen(&rs.vm);
    let dir = std::env::temp_dir().join(format!("xqspec-svg-cap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = |plies: usize, file: &str| RulingArgs {
        moves: load::shuffle_moves(plies),
        every_move: true,
        svg: Some(dir.join(file)),
    };
    let run = |a: &RulingArgs| -> Result<f64, (String, f64)> {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_xqspec"));
        cmd.args([
            "ruling",
            "--edition",
            "cxa-2020",
            "--json",
            "--fen",
            &start,
            "--moves",
        ])
        .args(&a.moves);
        if a.every_move {
            cmd.arg("--every-move");
        }
        if let Some(svg) = &a.svg {
            cmd.arg("--svg").arg(svg);
        }
        let (out, cpu) = load::output_timed(&mut cmd, b"");
        if out.status.success() {
            Ok(cpu)
        } else {
            Err((String::from_utf8_lossy(&out.stderr).into_owned(), cpu))
        }
    };
    // The sheet limit, `diagram::MAX_SHEET_DIAGRAMS` (the message names it).
    let max = 500;
    // The start and every move: one diagram too many; 100,000 moves are refused at once.
    for plies in [max, 100_000] {
        let (e, cpu) = run(&args(plies, "big.svg")).unwrap_err();
        assert_contains(&e, &format!("{} diagrams", plies + 1));
        assert_contains(&e, &format!("at most {max} (MAX_SHEET_DIAGRAMS)"));
        assert!(cpu < 1.0, "refused before judging: {cpu} s");
        assert!(!dir.join("big.svg").exists(), "nothing written");
    }
    // Without --every-move only the cycle is judged: a long game whose last moves repeat
    // gets its sheet of the cycle.
    let mut long = RulingArgs {
        every_move: false,
        svg: Some(dir.join("cycle.svg")),
        ..args(0, "")
    };
    long.moves = load::shuffle_moves(2 * max);
    run(&long).unwrap();
    assert!(
        std::fs::read_to_string(dir.join("cycle.svg"))
            .unwrap()
            .matches("<svg ")
            .count()
            < 20,
        "the cycle only"
    );
    // At the limit, the sheet is drawn: one board per diagram.
    run(&args(max - 1, "full.svg")).unwrap();
    let svg = std::fs::read_to_string(dir.join("full.svg")).unwrap();
    assert_eq!(
        svg.matches("<svg ").count(),
        1 + max,
        "the sheet and its boards"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// ch9 参考图49 rests on the flight reading; a plain perpetual chase of an unprotected cannon
/// rests on the text alone.
#[test]
fn a_ruling_says_whether_it_rests_on_the_text_or_on_a_reading() {
    let rs = builtin("cxa-2020");
    let rep = rs.repetition.as_ref().unwrap();
    let r = rule(&rs.vm, rep, &q(REF49_FEN, &REF49)).unwrap();
    assert_eq!(
        (r.basis.name(), r.basis.rests_on.clone()),
        ("inferred", vec!["parried".to_string()])
    );
    let r = rule(&rs.vm, rep, &q(CHASE_FEN, &CHASE)).unwrap();
    assert_eq!(r.verdict, Verdict::RedMustChange);
    assert_eq!((r.basis.name(), r.basis.rests_on.len()), ("text", 0));
}

/// A switch that is on must say what it rests on; a reading must name a switch.
#[test]
fn a_switch_without_its_reading_is_a_located_spec_error() {
    let mut files = Spec::builtin_files();
    let f = files
        .iter_mut()
        .find(|(p, _)| p == "cxa-2020/repetition.yaml")
        .unwrap();
    let (from, to) = (
        ", readings: {joint_counts: {basis: text,",
        ", rudiments: {joint_counts: {basis: text,",
    );
    assert!(f.1.contains(from));
    f.1 = f.1.replacen(from, to, 1);
    assert!(
        Spec::from_files(files).is_err(),
        "an unknown provenance key is refused"
    );
    let mut files = Spec::builtin_files();
    let f = files
        .iter_mut()
        .find(|(p, _)| p == "cxa-2020/repetition.yaml")
        .unwrap();
    f.1 = f.1.replacen(
        "      joint_counts: true\n",
        "      joint_counts: true\n      soldiers_first: true\n",
        1,
    );
    let spec = Spec::from_files(files).unwrap_or_else(|e| panic!("{e}"));
    let Err(err) = RuleSet::of_spec(&spec, "cxa-2020") else {
        panic!("a switch without a reading is refused")
    };
    let err = err.to_string();
    assert_contains(&err, "repetition.own_attack");
    assert_contains(&err, "soldiers_first");
    assert_contains(&err, "readings");
    let spec = edited(
        "cxa-2020/repetition.yaml",
        "      joint_counts: true\n",
        "      joint_counts: false\n",
    );
    let err = RuleSet::of_spec(&spec, "cxa-2020")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.is_empty(),
        "a reading whose switch is off is fine: {err}"
    );
}

/// The arbiter watching the board carries the basis of its ruling into `outcome`: ch9
/// 参考图49's cycle, played on after the order to change, ends the game on a verdict that
/// rests on the flight reading, and so does every decision that follows from that ruling.
#[test]
fn an_outcome_on_the_board_s_ruling_says_what_it_rests_on() {
    let rs = builtin("cxa-2020");
    let arbiter = rs.arbiter.as_ref().unwrap();
    let outcome = |q: &xqspec::OutcomeQuery| arbiter.outcome(rs.board(), q).unwrap();
    let events: Vec<serde_json::Value> = REF49
        .iter()
        .cycle()
        .take(16)
        .map(|m| serde_json::json!({ "move": m }))
        .collect();
    let q = xqspec::OutcomeQuery {
        fen: Some(REF49_FEN.into()),
        events,
    };
    let o = outcome(&q);
    let json = o.to_json();
    assert_eq!(
        (json["result"].as_str(), json["basis"].as_str()),
        (Some("black_wins"), Some("inferred")),
        "{json}"
    );
    assert_eq!(json["rests_on"], serde_json::json!(["parried"]));
    let pending: Vec<&serde_json::Value> = json["rulings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["decision"] == "pending_position")
        .collect();
    assert!(
        !pending.is_empty() && pending.iter().all(|r| r["basis"] == "inferred"),
        "{json}"
    );
    // A decision that rests on no ruling of the board carries no basis.
    let q = xqspec::OutcomeQuery {
        fen: None,
        events: vec![serde_json::json!({ "move": "h2e2" })],
    };
    let o = outcome(&q);
    assert!(o.to_json().get("basis").is_none());
}
