//! The 棋例's forcing-line primitive and the readings' bounds (moved from tests/it: they reach
//! `repetition`'s analysis and `report`'s readings, no embedder's API).

use proptest::prelude::*;

use super::random_line::random_line;
use crate::{rule, RuleSet, RulingQuery, Spec};

fn builtin(id: &str) -> RuleSet {
    RuleSet::builtin(id).unwrap()
}

/// The position turned 180° with the colours exchanged (the same game seen from the other
/// side), and a point under that turn.
fn turned(p: &crate::Position) -> crate::Position {
    let mut t = crate::Position::empty(p.side_to_move().opponent());
    for (sq, piece) in p.pieces() {
        t.put(
            crate::Piece {
                side: piece.side.opponent(),
                kind: piece.kind,
            },
            turn(sq),
        );
    }
    t
}

fn turn(sq: crate::Square) -> crate::Square {
    crate::Square::new(8 - sq.file() as i32, 9 - sq.rank() as i32).unwrap()
}

/// The forcing line goes on only for more by the rule's own measure of material: in ch9
/// 参考图11, after 炮5平6 the soldier takes the advisor with check and wins it; taking the
/// elephant too would give the soldier, floating, for an elephant, which is no gain (worth
/// less than a chariot, 2011 26.6), so the line stops a whole advisor ahead.
#[test]
fn a_line_goes_on_only_for_a_gain_by_the_material_rule() {
    let rs = builtin("cxa-2020");
    let rep = rs.repetition.as_ref().unwrap();
    let (mut pos, _) = crate::line_after(
        &rs.vm,
        "3k4C/4a4/4b3b/p8/5P2P/4c4/5p3/4BA3/4A4/4K1B2 w - - 0 1",
        &["e0f0".to_string(), "e4f4".to_string()],
    )
    .unwrap();
    pos.set_side_to_move(crate::Side::Black);
    let an = crate::repetition::analysis::Analyst::new(&rs.vm, rep);
    let lines = an.forcing_lines(&pos, rep.forcing);
    let advisor = lines
        .iter()
        .find(|l| l.target.to_string() == "f2")
        .expect("the advisor on f2 is won");
    assert_eq!(
        advisor.gain,
        crate::repetition::Val {
            pieces: 1,
            floating: 0
        }
    );
}

/// Which searches count only a mate at once is the data's (`mate_at_once_in`), not the
/// code's: in `qili-capture-then-mated-in-two-chase` the chariot's capture of the bare horse
/// on f6 is answered by a mate that needs a second check. With 24.3's reading (`lines`) the
/// capture wins the horse; with the field absent, that mate refutes it and no line wins it.
#[test]
fn which_searches_count_only_a_mate_at_once_is_data() {
    let rs = builtin("cxa-2020");
    let rep = rs.repetition.as_ref().unwrap();
    assert_eq!(
        rep.forcing.mate_at_once_in,
        Some(crate::repetition::forcing::MateAtOnceIn::Lines)
    );
    let (mut pos, _) = crate::line_after(
        &rs.vm,
        "4k4/9/9/5n3/6br1/2n6/3p5/9/9/3K2R2 w - - 0 1",
        &["g0f0".to_string()],
    )
    .unwrap();
    pos.set_side_to_move(crate::Side::Red);
    let wins_horse = |b: crate::repetition::Bounds| {
        let an = crate::repetition::analysis::Analyst::new(&rs.vm, rep);
        an.forcing_lines(&pos, b)
            .iter()
            .any(|l| l.target.to_string() == "f6")
    };
    assert!(wins_horse(rep.forcing));
    assert!(!wins_horse(crate::repetition::Bounds {
        mate_at_once_in: None,
        ..rep.forcing
    }));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The forcing-line primitive on random positions, for either side to move: every line
    /// wins (no loss by the material clause's measure) an opposing piece that is material with a piece of the side's own,
    /// starting with a legal move; the same search on the board turned round finds the same
    /// lines, turned; and a search bounded to a few positions still answers (the bound is
    /// the data's, never a clock).
    #[test]
    fn forcing_lines_are_sound_symmetric_and_bounded(seed in any::<u64>(), plies in 0usize..24, black in any::<bool>()) {
        use crate::repetition::analysis::Analyst;
        let (fen, moves) = random_line(seed, plies);
        let rs = builtin("cxa-2020");
        let rep = rs.repetition.as_ref().unwrap();
        let mut pos = crate::Position::from_fen(&rs.vm, &fen).unwrap();
        for m in &moves { pos.play(&rs.vm, crate::Move::parse_iccs(m).unwrap()).unwrap(); }
        let side = if black { crate::Side::Black } else { crate::Side::Red };
        let pos = Analyst::with_mover(&pos, side);
        prop_assume!(!pos.in_check(&rs.vm) && !Analyst::with_mover(&pos, side.opponent()).in_check(&rs.vm));
        let an = Analyst::new(&rs.vm, rep);
        let lines = an.forcing_lines(&pos, rep.forcing);
        for l in &lines {
            prop_assert!(an.no_loss(l.gain), "{l:?}");
            prop_assert!(pos.is_legal(&rs.vm, l.first), "{l:?}");
            prop_assert!(pos.piece_at(l.target).is_some_and(|p| p.side != side) && an.material(&pos, l.target).is_some(), "{l:?}");
            prop_assert!(pos.piece_at(l.capturer).is_some_and(|p| p.side == side), "{l:?}");
        }
        let key = |ls: &[crate::repetition::forcing::Line], f: &dyn Fn(crate::Square) -> crate::Square| {
            let mut k: Vec<(String, String, i32, i32)> = ls.iter().map(|l| (crate::Move::new(f(l.first.from), f(l.first.to)).iccs(), f(l.target).to_string(), l.gain.pieces, l.gain.floating)).collect();
            k.sort();
            k
        };
        let t = turned(&pos);
        let tan = Analyst::new(&rs.vm, rep);
        prop_assert_eq!(key(&lines, &turn), key(&tan.forcing_lines(&t, rep.forcing), &|s| s));
        let tiny = crate::repetition::Bounds { nodes: 3, ..rep.forcing };
        let _ = an.forcing_lines(&pos, tiny);
    }
}

/// A variant that switches off only `parried` or `with_checks` knows it (the parts of the
/// rules it changes, each switched off), so that a ruling judges again under it only the
/// moves they steered; one that changes a bound of the searches (`laid_open`) does not, and
/// is judged in full. That either way the ruling's basis is the one full rulings under each
/// variant give is `readings_are_few_general_and_what_each_ruling_rests_on`.
#[test]
fn a_variant_knows_the_parts_of_the_rules_it_switches_off() {
    use crate::repetition::readings::Part;
    for id in ["axf", "cxa-2020"] {
        let set = builtin(id);
        let rep = set.repetition.as_ref().unwrap();
        assert!(!rep.variants.is_empty(), "{id}");
        for v in &rep.variants {
            let want = match v.name.as_str() {
                "parried" => Some(Part::Newness.bit()),
                "with_checks" => Some(Part::CheckChases.bit()),
                _ => None,
            };
            assert_eq!(v.changes, want, "{id} {}", v.name);
        }
    }
}

#[cfg(feature = "cli")]
/// Issue 33's bounds on the readings of the 棋例 clauses, measured as `reports/readings.md`
/// measures them: at most 12 distinct switches; none that changes the verdict of exactly one
/// of the book's shared diagrams; every inferred reading with at least two dependent
/// diagrams (its own rule set's, or, inherited unchanged, its parent's). And every ruling's
/// `rests_on` is exactly the inferred readings whose switching off changes its verdict.
#[test]
fn readings_are_few_general_and_what_each_ruling_rests_on() {
    use crate::report::readings::diagrams_of;
    use crate::report::readings::evidence;
    use crate::ReadingBasis;
    let spec = Spec::builtin().unwrap();
    let suite = crate::Suite::embedded();
    let all = evidence(&spec, &suite).unwrap();
    let names: std::collections::BTreeSet<&str> = all
        .iter()
        .flat_map(|rs| rs.readings.iter().map(|r| r.reading.name.as_str()))
        .collect();
    assert!(names.len() <= 12, "{names:?}");
    for rs in &all {
        for r in &rs.readings {
            assert_ne!(
                r.book_verdicts(),
                1,
                "{} {} changes exactly one of the book's verdicts",
                rs.id,
                r.reading.name
            );
            if r.reading.reading.basis == ReadingBasis::Inferred {
                let (ds, _) = diagrams_of(&all, rs, r);
                assert!(
                    ds.len() >= 2,
                    "{} {}: an inferred reading with {} dependent diagram(s)",
                    rs.id,
                    r.reading.name,
                    ds.len()
                );
            }
        }
        // The basis of every ruling: the inferred readings whose variant changes its verdict.
        let set = builtin(&rs.id);
        let rep = set.repetition.as_ref().unwrap();
        let mut inferred_cases = 0;
        for case in suite
            .cases
            .iter()
            .filter(|c| c.query == "ruling" && c.overlay.is_none() && c.editions.contains(&rs.id))
        {
            let Ok(q) = serde_json::from_value::<RulingQuery>(serde_json::Value::Object(
                case.input.clone(),
            )) else {
                continue;
            };
            let Ok(r) = rule(&set.vm, rep, &q) else {
                continue;
            };
            let want: Vec<&str> = rs
                .readings
                .iter()
                .filter(|e| {
                    e.reading.reading.basis == ReadingBasis::Inferred
                        && e.changes
                            .iter()
                            .any(|c| c.case == case.id && c.verdict.is_some())
                })
                .map(|e| e.reading.name.as_str())
                .collect();
            assert_eq!(r.basis.rests_on, want, "{}@{}", case.id, rs.id);
            let json = r.to_json(rep);
            assert_eq!(
                json["basis"],
                if want.is_empty() { "text" } else { "inferred" },
                "{}@{}",
                case.id,
                rs.id
            );
            inferred_cases += usize::from(!want.is_empty());
        }
        if rs.id == "cxa-2020" {
            assert!(inferred_cases > 0, "some 2020 verdict rests on a reading");
        }
    }
}
