//! The 棋例 ruling does not depend on which wing or which colour a cycle is played on.
//!
//! Every `ruling` case of the suite, under every edition it lists, is ruled as written and
//! again with the board transformed three ways:
//!
//! - `mirror`: left ↔ right (file f → 8−f); sides unchanged;
//! - `colour_swap`: the board turned 180° ((f, r) → (8−f, 9−r)), piece colours and the side
//!   to move exchanged;
//! - `both`: the two at once ((f, r) → (f, 9−r), colours exchanged).
//!
//! The transformed ruling is compared with the ruling of the original input by the same
//! engine (not with the case's expectation), so the tests hold whatever the engine rules:
//! the same verdict (its sides exchanged under a colour swap), the same judged cycle, every
//! ply of the same class and chase kinds with its move and targets transformed, Red's and
//! Black's patterns exchanged under a colour swap, the same clauses. Inputs the engine
//! rejects must be rejected the same way (kind, and the move it is at) once transformed.
//! Every difference is reported at once. What the ruling draws and says (arrows, reason)
//! is compared by an ignored test: it is known to differ (see there).

use std::collections::BTreeMap;

use xqspec::RuleSet;
use xqspec::Suite;
use xqspec::{rule, RepetitionRules, Ruling, RulingError, RulingQuery, Verdict};

/// The initial setup, which the FEN reader also accepts as `startpos`.
const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transform {
    Mirror,
    ColourSwap,
    Both,
}

impl Transform {
    const ALL: [Transform; 3] = [Transform::Mirror, Transform::ColourSwap, Transform::Both];

    fn name(self) -> &'static str {
        match self {
            Transform::Mirror => "mirror",
            Transform::ColourSwap => "colour_swap",
            Transform::Both => "both",
        }
    }

    /// File f goes to 8−f.
    fn flips_files(self) -> bool {
        matches!(self, Transform::Mirror | Transform::ColourSwap)
    }

    /// Rank r goes to 9−r, and Red and Black exchange.
    fn swaps_colours(self) -> bool {
        matches!(self, Transform::ColourSwap | Transform::Both)
    }

    /// A point in ICCS (`c7`); `None` if the text is no point.
    fn square(self, s: &str) -> Option<String> {
        let &[f, r] = s.as_bytes() else { return None };
        if !(b'a'..=b'i').contains(&f) || !r.is_ascii_digit() {
            return None;
        }
        let f = if self.flips_files() {
            b'i' - (f - b'a')
        } else {
            f
        };
        let r = if self.swaps_colours() {
            b'9' - (r - b'0')
        } else {
            r
        };
        Some(format!("{}{}", f as char, r as char))
    }

    /// A move in canonical ICCS (`a8a7`). Text that is not one (the deliberate syntax errors
    /// of some cases) is left as it is.
    fn mv(self, s: &str) -> String {
        if s.len() == 4 && s.is_char_boundary(2) {
            if let (Some(a), Some(b)) = (self.square(&s[..2]), self.square(&s[2..])) {
                return a + &b;
            }
        }
        s.to_string()
    }

    /// A FEN: the board field transformed rank by rank, the side to move exchanged under a
    /// colour swap (written `w` or `b`), every other field (placeholders, halfmove clock,
    /// move number) kept as it is.
    fn fen(self, text: &str) -> String {
        let text = if text.trim() == "startpos" {
            START_FEN
        } else {
            text
        };
        let mut fields: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        let Some(board) = fields.first() else {
            return text.to_string();
        };
        let mut ranks: Vec<String> = board
            .split('/')
            .map(|rank| {
                let mut cells: Vec<Option<char>> = Vec::new();
                for ch in rank.chars() {
                    match ch.to_digit(10) {
                        Some(d) => cells.extend(std::iter::repeat_n(None, d as usize)),
                        None => cells.push(Some(ch)),
                    }
                }
                if self.flips_files() {
                    cells.reverse();
                }
                let mut out = String::new();
                let mut empty = 0u32;
                for c in cells {
                    match c {
                        None => empty += 1,
                        Some(ch) => {
                            if empty > 0 {
                                out.push(char::from_digit(empty, 10).unwrap());
                                empty = 0;
                            }
                            let ch = match (self.swaps_colours(), ch.is_ascii_uppercase()) {
                                (false, _) => ch,
                                (true, true) => ch.to_ascii_lowercase(),
                                (true, false) => ch.to_ascii_uppercase(),
                            };
                            out.push(ch);
                        }
                    }
                }
                if empty > 0 {
                    out.push(char::from_digit(empty, 10).unwrap());
                }
                out
            })
            .collect();
        if self.swaps_colours() {
            ranks.reverse();
        }
        fields[0] = ranks.join("/");
        if self.swaps_colours() {
            if let Some(side) = fields.get_mut(1) {
                *side = match side.as_str() {
                    "w" | "r" => "b".to_string(),
                    "b" => "w".to_string(),
                    other => other.to_string(),
                };
            }
        }
        fields.join(" ")
    }

    /// Free text (a reason): every point (`c7`) and move (`h2e2`) standing as a word of
    /// its own is transformed, the rest kept.
    fn text(self, s: &str) -> String {
        let b = s.as_bytes();
        let is_square = |i: usize| {
            i + 1 < b.len() && (b'a'..=b'i').contains(&b[i]) && b[i + 1].is_ascii_digit()
        };
        let mut out = String::with_capacity(s.len());
        let mut i = 0;
        while i < b.len() {
            let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
            if word_start && is_square(i) {
                let len = if is_square(i + 2) { 4 } else { 2 };
                if b.get(i + len).is_none_or(|c| !c.is_ascii_alphanumeric()) {
                    let word = &s[i..i + len];
                    out.push_str(&if len == 4 {
                        self.mv(word)
                    } else {
                        self.square(word).expect("a point")
                    });
                    i += len;
                    continue;
                }
            }
            let ch = s[i..].chars().next().expect("a char");
            out.push(ch);
            i += ch.len_utf8();
        }
        out
    }

    fn query(self, q: &RulingQuery) -> RulingQuery {
        RulingQuery {
            fen: self.fen(&q.fen),
            moves: q.moves.iter().map(|m| self.mv(m)).collect(),
        }
    }

    fn verdict(self, v: Verdict) -> Verdict {
        if !self.swaps_colours() {
            return v;
        }
        match v {
            Verdict::RedMustChange => Verdict::BlackMustChange,
            Verdict::BlackMustChange => Verdict::RedMustChange,
            Verdict::RedLoses => Verdict::BlackLoses,
            Verdict::BlackLoses => Verdict::RedLoses,
            Verdict::Draw => Verdict::Draw,
            Verdict::None => Verdict::None,
        }
    }

    fn side(self, side: &'static str) -> &'static str {
        match (self.swaps_colours(), side) {
            (true, "red") => "black",
            (true, "black") => "red",
            _ => side,
        }
    }
}

/// A ruling in comparable terms: what the ruling says, with points as ICCS text, so that
/// a transformed one can be computed from the original and compared field by field.
#[derive(Clone, Debug, PartialEq, Eq)]
struct View {
    verdict: &'static str,
    judged: &'static str,
    cycle: Option<(usize, usize)>,
    plies: Vec<PlyView>,
    /// Red's then Black's (pattern, status, rulebook name).
    patterns: Option<[(String, String, String); 2]>,
    clauses: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct PlyView {
    ply: usize,
    mv: String,
    side: &'static str,
    class: String,
    base_class: String,
    /// Sorted: the order of the targets follows the order points are scanned in, which a
    /// transform of the board changes without changing what is chased.
    targets: Vec<String>,
    chases: Vec<String>,
    /// Attacker and target (or mover and partner) of each arrow, sorted; and the reason
    /// text. Compared only by [`Detail::Drawing`].
    arrows: Vec<String>,
    reason: String,
}

/// How much of a ruling is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Detail {
    /// What the ruling decides: verdict, cycle, classes, targets, chases, patterns, clauses.
    Ruling,
    /// Also what it draws and says: the arrows (attacker → target) and the reason text,
    /// which name the attacker of each target.
    Drawing,
}

fn view(rep: &RepetitionRules, r: &Ruling, detail: Detail) -> View {
    View {
        verdict: r.verdict.name(),
        judged: r.judged,
        cycle: r.cycle,
        plies: r
            .plies
            .iter()
            .map(|p| {
                let mut targets = p.targets.clone();
                targets.sort();
                let mut chases: Vec<String> =
                    p.chases.iter().map(|k| k.name().to_string()).collect();
                chases.sort();
                let mut arrows: Vec<String> =
                    p.arrows.iter().map(|(a, b)| format!("{a}{b}")).collect();
                arrows.sort();
                let reason = unordered(&p.reason);
                let (arrows, reason) = if detail == Detail::Drawing {
                    (arrows, reason)
                } else {
                    (Vec::new(), String::new())
                };
                PlyView {
                    ply: p.ply,
                    mv: p.facts.mv.iccs(),
                    side: p.facts.side.name(),
                    class: rep.classes[p.facts.class].name.clone(),
                    base_class: rep.classes[p.facts.base_class].name.clone(),
                    targets,
                    chases,
                    arrows,
                    reason,
                }
            })
            .collect(),
        patterns: r.patterns.as_ref().map(|ps| {
            let one = |i: usize| {
                (
                    ps[i].pattern.clone(),
                    format!("{:?}", ps[i].status),
                    ps[i].zh.clone(),
                )
            };
            [one(0), one(1)]
        }),
        clauses: r.clauses.iter().map(|c| c.clause.clone()).collect(),
    }
}

/// A reason with its `; `-separated parts after the class sorted: the parts follow the
/// order the targets are found in, which a transform changes.
fn unordered(reason: &str) -> String {
    let Some((head, rest)) = reason.split_once(": ") else {
        return reason.to_string();
    };
    let mut parts: Vec<&str> = rest.split("; ").collect();
    parts.sort();
    format!("{head}: {}", parts.join("; "))
}

/// What the ruling of the transformed input should be, given the ruling of the original.
fn expected(t: Transform, v: &View) -> View {
    let sorted = |mut xs: Vec<String>| {
        xs.sort();
        xs
    };
    View {
        verdict: t
            .verdict(Verdict::parse(v.verdict).expect("a verdict name"))
            .name(),
        judged: v.judged,
        cycle: v.cycle,
        plies: v
            .plies
            .iter()
            .map(|p| PlyView {
                ply: p.ply,
                mv: t.mv(&p.mv),
                side: t.side(p.side),
                class: p.class.clone(),
                base_class: p.base_class.clone(),
                targets: sorted(
                    p.targets
                        .iter()
                        .map(|s| t.square(s).unwrap_or_else(|| format!("?{s}")))
                        .collect(),
                ),
                chases: p.chases.clone(),
                arrows: sorted(p.arrows.iter().map(|a| t.mv(a)).collect()),
                reason: unordered(&t.text(&p.reason)),
            })
            .collect(),
        patterns: v.patterns.as_ref().map(|[red, black]| {
            if t.swaps_colours() {
                [black.clone(), red.clone()]
            } else {
                [red.clone(), black.clone()]
            }
        }),
        clauses: v.clauses.clone(),
    }
}

/// The fields in which `got` differs from `want`, in words.
fn differences(want: &View, got: &View) -> Vec<String> {
    let mut out = Vec::new();
    macro_rules! field {
        ($name:literal, $a:expr, $b:expr) => {
            if $a != $b {
                out.push(format!("{}: expected {:?}, got {:?}", $name, $a, $b));
            }
        };
    }
    field!("verdict", want.verdict, got.verdict);
    field!("judged", want.judged, got.judged);
    field!("cycle", want.cycle, got.cycle);
    field!("patterns", want.patterns, got.patterns);
    field!("clauses", want.clauses, got.clauses);
    if want.plies.len() != got.plies.len() {
        out.push(format!(
            "plies: expected {} ({:?}), got {} ({:?})",
            want.plies.len(),
            want.plies.iter().map(|p| p.ply).collect::<Vec<_>>(),
            got.plies.len(),
            got.plies.iter().map(|p| p.ply).collect::<Vec<_>>()
        ));
    }
    for (w, g) in want.plies.iter().zip(&got.plies) {
        let n = w.ply;
        macro_rules! ply_field {
            ($name:literal, $a:expr, $b:expr) => {
                if $a != $b {
                    out.push(format!(
                        "ply {n} {}: expected {:?}, got {:?}",
                        $name, $a, $b
                    ));
                }
            };
        }
        ply_field!("number", w.ply, g.ply);
        ply_field!("move", w.mv, g.mv);
        ply_field!("side", w.side, g.side);
        ply_field!("class", w.class, g.class);
        ply_field!("base class", w.base_class, g.base_class);
        ply_field!("targets", w.targets, g.targets);
        ply_field!("chases", w.chases, g.chases);
        ply_field!("arrows", w.arrows, g.arrows);
        ply_field!("reason", w.reason, g.reason);
    }
    out
}

/// What a rejection says that a transform must keep: its kind, and the move it is at.
fn rejection(e: &RulingError) -> (&'static str, Option<usize>) {
    let index = match e {
        RulingError::Fen(_) => None,
        RulingError::MoveSyntax { index, .. } | RulingError::Illegal { index, .. } => Some(*index),
    };
    (e.reject_kind(), index)
}

struct Tally {
    /// Case × edition inputs tried.
    inputs: usize,
    ruled: usize,
    rejected: usize,
    mismatches: Vec<String>,
}

/// Rules every `ruling` case × edition as written and transformed by `t`; collects every
/// difference.
fn check(t: Transform, detail: Detail) -> Tally {
    let suite = Suite::embedded();
    assert!(
        suite.problems.is_empty(),
        "the embedded suite loads: {:?}",
        suite.problems
    );
    let mut sets: BTreeMap<String, Option<RuleSet>> = BTreeMap::new();
    let mut tally = Tally {
        inputs: 0,
        ruled: 0,
        rejected: 0,
        mismatches: Vec::new(),
    };
    for case in suite.cases.iter().filter(|c| c.query == "ruling") {
        let q = match serde_json::from_value::<RulingQuery>(serde_json::Value::Object(
            case.input.clone(),
        )) {
            Ok(q) => q,
            Err(e) => {
                tally
                    .mismatches
                    .push(format!("{}: the input is no ruling query: {e}", case.id));
                continue;
            }
        };
        let tq = t.query(&q);
        for edition in &case.editions {
            tally.inputs += 1;
            let rs = sets
                .entry(edition.clone())
                .or_insert_with(|| RuleSet::builtin(edition).ok());
            let Some(rs) = rs.as_ref() else {
                tally.mismatches.push(format!(
                    "{} @{edition}: no built-in rule set of that name",
                    case.id
                ));
                continue;
            };
            let Some(rep) = rs.repetition.as_ref() else {
                tally.mismatches.push(format!(
                    "{} @{edition}: the rule set has no repetition clauses",
                    case.id
                ));
                continue;
            };
            let at = format!("{} @{edition} [{}]", case.id, t.name());
            match (rule(&rs.vm, rep, &q), rule(&rs.vm, rep, &tq)) {
                (Ok(a), Ok(b)) => {
                    tally.ruled += 1;
                    let diffs = differences(&expected(t, &view(rep, &a, detail)), &view(rep, &b, detail));
                    if !diffs.is_empty() {
                        tally.mismatches.push(format!(
                            "{at}: fen {:?} moves {:?} → fen {:?} moves {:?}\n    {}",
                            q.fen,
                            q.moves,
                            tq.fen,
                            tq.moves,
                            diffs.join("\n    ")
                        ));
                    }
                }
                (Err(a), Err(b)) => {
                    tally.rejected += 1;
                    if rejection(&a) != rejection(&b) {
                        tally.mismatches.push(format!(
                            "{at}: the original is rejected {:?} ({a}), the transformed {:?} ({b}); fen {:?} moves {:?}",
                            rejection(&a),
                            rejection(&b),
                            tq.fen,
                            tq.moves
                        ));
                    }
                }
                (Ok(a), Err(b)) => tally.mismatches.push(format!(
                    "{at}: the original is ruled {}, the transformed input is rejected: {b} ({}); fen {:?} moves {:?}",
                    a.verdict.name(),
                    b.reject_kind(),
                    tq.fen,
                    tq.moves
                )),
                (Err(a), Ok(b)) => tally.mismatches.push(format!(
                    "{at}: the original is rejected ({a}, {}), the transformed input is ruled {}; fen {:?} moves {:?}",
                    a.reject_kind(),
                    b.verdict.name(),
                    tq.fen,
                    tq.moves
                )),
            }
        }
    }
    tally
}

fn assert_symmetric(t: Transform, detail: Detail) {
    let tally = check(t, detail);
    eprintln!(
        "{} ({detail:?}): {} rulings compared, {} rejections compared, {} mismatches",
        t.name(),
        tally.ruled,
        tally.rejected,
        tally.mismatches.len()
    );
    // Guard against a vacuous pass (the suite has hundreds of ruling cases).
    assert!(
        tally.ruled >= 100,
        "{}: only {} rulings compared",
        t.name(),
        tally.ruled
    );
    assert!(
        tally.rejected >= 1,
        "{}: no rejected input compared",
        t.name()
    );
    assert!(
        tally.mismatches.is_empty(),
        "{}: {} of {} case × edition inputs rule differently once transformed:\n{}",
        t.name(),
        tally.mismatches.len(),
        tally.inputs,
        tally.mismatches.join("\n")
    );
}

#[test]
fn rulings_are_the_same_mirrored_left_to_right() {
    assert_symmetric(Transform::Mirror, Detail::Ruling);
}

#[test]
fn rulings_are_the_same_with_colours_swapped() {
    assert_symmetric(Transform::ColourSwap, Detail::Ruling);
}

#[test]
fn rulings_are_the_same_mirrored_and_colour_swapped() {
    assert_symmetric(Transform::Both, Detail::Ruling);
}

/// Known not to hold: where the engine has several equal answers it keeps the first it
/// generates, and generation follows the points in index order, which the transforms
/// change. So the decision (verdict, cycle, classes, targets, chase kinds, patterns,
/// clauses: the tests above) is the same, but what the ruling draws and says may name
/// another piece: the attacker of a target that several pieces can win equally well
/// (`Analyst::wins_on` keeps the first of equal ways; the arrow and the reason show it),
/// the check before a win after check, the line piece a block parries (`facts.blocked`),
/// and the order of the exempt first capturers listed. With the suite of commit 19fca46:
/// 4 case × edition inputs differ under `mirror`, 17 under `colour_swap`, 19 under
/// `both`. Run with `--ignored` to list them.
#[test]
#[ignore = "known: among equal attackers, checks or blocked pieces the first in scan order is drawn and named"]
fn arrows_and_reasons_are_the_same_once_transformed() {
    let mut failures = Vec::new();
    for t in Transform::ALL {
        if let Err(e) = std::panic::catch_unwind(|| assert_symmetric(t, Detail::Drawing)) {
            failures.push(e.downcast_ref::<String>().cloned().unwrap_or_default());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The perpetual chase of conformance case chariot-chases-unprotected-cannon.
const CHASE_FEN: &str = "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1";

#[test]
fn the_transforms_of_a_known_position_and_move() {
    // The counters are kept; Black to move becomes Red to move, written `w`.
    let fen = "2bak4/4a4/4b4/9/2p2r3/r8/1R7/4B4/9/1R2K1B2 b - - 7 23";
    let fens = [
        (
            Transform::Mirror,
            CHASE_FEN,
            "5k3/8R/6c2/9/9/9/9/9/9/4K4 w - - 0 1",
        ),
        (
            Transform::ColourSwap,
            CHASE_FEN,
            "4k4/9/9/9/9/9/9/6C2/8r/5K3 b - - 0 1",
        ),
        (
            Transform::Both,
            CHASE_FEN,
            "4k4/9/9/9/9/9/9/2C6/r8/3K5 b - - 0 1",
        ),
        (
            Transform::Mirror,
            fen,
            "4kab2/4a4/4b4/9/3r2p2/8r/7R1/4B4/9/2B1K2R1 b - - 7 23",
        ),
        (
            Transform::ColourSwap,
            fen,
            "2b1k2r1/9/4b4/7r1/8R/3R2P2/9/4B4/4A4/4KAB2 w - - 7 23",
        ),
        (
            Transform::ColourSwap,
            "startpos",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        ),
    ];
    for (t, fen, want) in fens {
        assert_eq!(t.fen(fen), want, "{} of {fen}", t.name());
    }
    assert_eq!(Transform::Mirror.mv("a8a7"), "i8i7");
    assert_eq!(Transform::ColourSwap.mv("a8a7"), "i1i2");
    assert_eq!(Transform::Both.mv("a8a7"), "a1a2");
    assert_eq!(Transform::Mirror.mv("h2e2"), "b2e2");
    assert_eq!(Transform::ColourSwap.mv("h2e2"), "b7e7");
    // Not a canonical move: left alone, so it stays a syntax error.
    assert_eq!(Transform::ColourSwap.mv("C7-C8"), "C7-C8");
    assert_eq!(Transform::Both.square("e0"), Some("e9".to_string()));
    assert_eq!(Transform::Mirror.square("j0"), None);
    assert_eq!(
        Transform::ColourSwap
            .text("the chariot on a8 can take the cannon on c7 after the check h2e2 (26.1; 长捉)"),
        "the chariot on i1 can take the cannon on g2 after the check b7e7 (26.1; 长捉)"
    );
    let verdicts = [
        (
            Transform::ColourSwap,
            Verdict::RedMustChange,
            Verdict::BlackMustChange,
        ),
        (
            Transform::ColourSwap,
            Verdict::BlackLoses,
            Verdict::RedLoses,
        ),
        (Transform::Mirror, Verdict::RedLoses, Verdict::RedLoses),
        (Transform::Both, Verdict::Draw, Verdict::Draw),
    ];
    for (t, v, want) in verdicts {
        assert_eq!(t.verdict(v), want, "{} of {v:?}", t.name());
    }
    // The engine reads every transformed FEN as the position it should be: the same
    // canonical text back, and the transformed move legal there.
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    for t in Transform::ALL {
        let fen = t.fen(CHASE_FEN);
        let pos = xqspec::Position::from_fen(&rs.vm, &fen)
            .unwrap_or_else(|e| panic!("{}: {fen}: {e}", t.name()));
        assert_eq!(pos.to_fen(&rs.vm), fen, "{}", t.name());
        let legal: Vec<String> = pos.legal_moves(&rs.vm).iter().map(|m| m.iccs()).collect();
        assert!(
            legal.contains(&t.mv("a8a7")),
            "{}: {} among {legal:?}",
            t.name(),
            t.mv("a8a7")
        );
    }
}

#[test]
fn each_transform_applied_twice_is_the_identity() {
    let suite = Suite::embedded();
    let mut n = 0;
    for case in suite.cases.iter().filter(|c| c.query == "ruling") {
        let Ok(q) =
            serde_json::from_value::<RulingQuery>(serde_json::Value::Object(case.input.clone()))
        else {
            continue;
        };
        for t in Transform::ALL {
            assert_eq!(t.query(&t.query(&q)), q, "{} [{}]", case.id, t.name());
            n += 1;
        }
    }
    assert!(n > 0);
    for t in Transform::ALL {
        for f in 0..9u8 {
            for r in 0..10u8 {
                let s = format!("{}{r}", (b'a' + f) as char);
                assert_eq!(t.square(&t.square(&s).unwrap()).unwrap(), s, "{}", t.name());
            }
        }
        for v in Verdict::ALL {
            assert_eq!(t.verdict(t.verdict(v)), v);
        }
    }
    // Each transform differs from the identity on an asymmetric position.
    for t in Transform::ALL {
        assert_ne!(t.fen(CHASE_FEN), CHASE_FEN, "{}", t.name());
    }
    // Mirror after colour swap is both.
    let q = RulingQuery {
        fen: CHASE_FEN.into(),
        moves: vec!["a8a7".into(), "c7c8".into()],
    };
    assert_eq!(
        Transform::Mirror.query(&Transform::ColourSwap.query(&q)),
        Transform::Both.query(&q)
    );
}
