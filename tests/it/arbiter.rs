//! The arbiter's rules (`src/arbiter`): proof that they are data (edited YAML changes the
//! answers), overlays that set what the rulebook leaves to the event, errors located at the
//! clause or overlay line, and fuzzing of the event reader (no panic, a typed refusal with
//! the event's index).

use crate::assert::assert_contains;
use crate::rule_sets::builtin_cached;
use crate::spec_edit::{compile_error, edited_one as edited};
use proptest::prelude::*;
use serde_json::{json, Value};
use xqspec::RuleSet;
use xqspec::ToAnswer;
use xqspec::{ArbiterError, GameResult, OutcomeQuery, TouchQuery};
use xqspec::{Overlay, Spec, SpecErrors};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn ruleset(spec: &Spec, id: &str) -> RuleSet {
    RuleSet::of_spec(spec, id).unwrap_or_else(|e| panic!("{id} compiles: {e}"))
}

/// cxa-2020 with one textual edit to its results clauses.
fn results_2020(from: &str, to: &str) -> RuleSet {
    ruleset(&edited("cxa-2020/results.yaml", from, to), "cxa-2020")
}

fn builtin(id: &str) -> RuleSet {
    RuleSet::builtin(id).unwrap()
}

fn with_overlay(edition: &str, changes: &str) -> RuleSet {
    let text = format!(
        "overlay: test-event\nname: a test event\nedition: {edition}\nprovenance: {{status: inferred, source: digest, ref: test}}\nchanges:\n{changes}"
    );
    let o = Overlay::parse("overlays/test-event.yaml", &text).unwrap();
    let spec = Spec::builtin().unwrap();
    RuleSet::compile(
        spec.with_overlay(&o)
            .unwrap_or_else(|e| panic!("overlay applies: {e}")),
    )
    .unwrap_or_else(|e| panic!("compiles: {e}"))
}

fn touch(rs: &RuleSet, fen: &str, touches: &[&str], simultaneous: bool) -> Value {
    let q = TouchQuery {
        fen: fen.into(),
        moves: vec![],
        touches: touches.iter().map(|s| s.to_string()).collect(),
        simultaneous,
    };
    rs.arbiter
        .as_ref()
        .unwrap()
        .touch_move(&rs.vm, &q)
        .unwrap()
        .to_json()
}

fn outcome(rs: &RuleSet, fen: Option<&str>, events: Value) -> Result<Value, ArbiterError> {
    let q = OutcomeQuery {
        fen: fen.map(str::to_string),
        events: events.as_array().unwrap().clone(),
    };
    rs.arbiter
        .as_ref()
        .unwrap()
        .outcome(rs.board(), &q)
        .map(|o| o.to_json())
}

fn rounds(n: usize) -> Vec<Value> {
    // From BARE: Red's chariot tours ranks 1–6 of files a, b, c, f, g, h, i and back (one
    // point a round), Black's general e9-e8-e9…: no capture, no check, and no position
    // stands a fourth time (the arbiter watching the board would rule a pending position).
    let mut tour: Vec<String> = vec!["a7".into()];
    for (k, f) in "abcfghi".chars().enumerate() {
        let ranks: Vec<u32> = if k % 2 == 0 {
            (1..=6).rev().collect()
        } else {
            (1..=6).collect()
        };
        tour.extend(ranks.iter().map(|r| format!("{f}{r}")));
    }
    let back: Vec<String> = tour.iter().rev().skip(1).cloned().collect();
    tour.extend(back);
    (0..n)
        .flat_map(|i| {
            let red = format!(
                "{}{}",
                tour[i % (tour.len() - 1)],
                tour[i % (tour.len() - 1) + 1]
            );
            let black = if i % 2 == 0 { "e9e8" } else { "e8e9" };
            [red, black.to_string()]
        })
        .map(|m| json!({ "move": m }))
        .collect()
}

const BARE: &str = "4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1";

// ------------------------------------------------------------------ data-driven

#[test]
fn touch_move_order_is_data() {
    // 5.3 as written: own cannon b2 then black horse b9 → the cannon must take (5.3.1).
    let base = touch(&builtin("cxa-2020"), START, &["b2", "b9"], false);
    assert_eq!(base["allowed"], json!(["b2b9"]));
    assert_eq!(base["step"], "5.3.1");
    // Put 5.3.2 (move the own piece) first: now every move of the cannon is allowed.
    let spec = edited(
        "cxa-2020/touch.yaml",
        "        - {step: \"5.3.1\", capture: opponent, with: own}\n        - {step: \"5.3.2\", move: own}\n",
        "        - {step: \"5.3.2\", move: own}\n        - {step: \"5.3.1\", capture: opponent, with: own}\n",
    );
    let swapped = touch(&ruleset(&spec, "cxa-2020"), START, &["b2", "b9"], false);
    assert_eq!(swapped["step"], "5.3.2");
    assert_eq!(
        swapped["allowed"],
        json!([
            "b2a2", "b2b1", "b2b3", "b2b4", "b2b5", "b2b6", "b2b9", "b2c2", "b2d2", "b2e2", "b2f2",
            "b2g2"
        ])
    );
    // The 1999 list is its own: the edit of the 2020 file leaves it as it was.
    assert_eq!(
        touch(&ruleset(&spec, "cxa-1999"), START, &["b2", "b9"], false)["allowed"],
        json!(["b2b9"])
    );
}

#[test]
fn simultaneous_touch_borrows_its_steps_by_reference() {
    // 5.5 says "as 5.4": pointing it at 5.3 instead changes the answer.
    let rs = builtin("cxa-2020");
    assert_eq!(
        touch(&rs, START, &["e3", "b9"], true)["allowed"],
        json!(["b2b9"])
    );
    let spec = edited(
        "cxa-2020/touch.yaml",
        "steps_of: touch.opponent_then_own",
        "steps_of: touch.own_then_opponent",
    );
    let t = touch(&ruleset(&spec, "cxa-2020"), START, &["e3", "b9"], true);
    assert_eq!(t["allowed"], json!(["e3e4"]));
    assert_eq!(t["step"], "5.3.2");
}

#[test]
fn natural_limit_rounds_are_data() {
    let fen = "4k4/9/R8/9/9/9/9/9/9/3K5 w - - 98 50"; // 49 rounds without a capture
    let mut events = rounds(1);
    events.push(json!({"claim_natural_limit": "red"}));
    let events = Value::Array(events);
    let base = outcome(&builtin("cxa-2020"), Some(fen), events.clone()).unwrap();
    assert_eq!(base["result"], "ongoing", "50 rounds are not 60");
    assert_eq!(base["fouls"]["red"], 1);
    let rs = results_2020(
        "      rounds: 60\n      checks_counted: 10",
        "      rounds: 50\n      checks_counted: 10",
    );
    let changed = outcome(&rs, Some(fen), events).unwrap();
    assert_eq!(changed["result"], "draw");
    assert_eq!(changed["clause"], "result.natural_limit");
}

#[test]
fn foul_count_and_level_are_data() {
    let events = json!([{"disturb": "red"}, {"disturb": "red"}]);
    assert_eq!(
        outcome(&builtin("cxa-2020"), None, events.clone()).unwrap()["result"],
        "ongoing"
    );
    let rs = results_2020(
        "data: {when: foul, result: loss, times: 3, counted: game}",
        "data: {when: foul, result: loss, times: 2, counted: game}",
    );
    let o = outcome(&rs, None, events).unwrap();
    assert_eq!(
        (o["result"].as_str(), o["event"].as_u64()),
        (Some("black_wins"), Some(1))
    );

    // The level of the event decides 4.1.8 / 8.1.8.
    let illegal = json!([{"illegal_move": {"move": "a0a5"}}]);
    assert_eq!(
        outcome(&builtin("cxa-2020"), None, illegal.clone()).unwrap()["result"],
        "black_wins"
    );
    let rs = results_2020("      level: national\n", "      level: junior\n");
    let o = outcome(&rs, None, illegal).unwrap();
    assert_eq!(o["result"], "ongoing");
    assert_eq!(o["fouls"]["red"], 1);
}

// ------------------------------------------------------------------ overlays

#[test]
fn provincial_2020_event_takes_back_the_illegal_move_and_binds_the_piece() {
    let rs = with_overlay(
        "cxa-2020",
        "  - clause: event.level\n    data: {level: provincial}\n",
    );
    let o = outcome(&rs, None, json!([{"illegal_move": {"move": "a0a5"}}])).unwrap();
    assert_eq!(o["result"], "ongoing");
    assert_eq!(o["fouls"]["red"], 1);
    assert_eq!(o["rulings"][1]["decision"], "must_move");
    assert_eq!(o["rulings"][1]["moves"], json!(["a0a1", "a0a2"]));
    // 5.8.3: the moved piece counts as touched (5.1): another move is refused …
    let e = outcome(
        &rs,
        None,
        json!([{"illegal_move": {"move": "a0a5"}}, {"move": "h2e2"}]),
    )
    .unwrap_err();
    assert_eq!(e.kind(), Some("events.touch_obligation"), "{e}");
    assert!(e.to_string().contains("events[1]"), "{e}");
    // … the chariot may move, and a second illegal move loses.
    let o = outcome(&rs, None, json!([{"illegal_move": {"move": "a0a5"}}, {"move": "a0a1"}, {"move": "h9g7"}, {"illegal_move": {"move": "a1a5"}}]))
        .unwrap();
    assert_eq!(
        (
            o["result"].as_str(),
            o["clause"].as_str(),
            o["article"].as_str()
        ),
        (
            Some("black_wins"),
            Some("result.illegal_move"),
            Some("4.1.8")
        )
    );
}

#[test]
fn lateness_limit_set_by_an_event() {
    let rs = with_overlay(
        "cxa-1999",
        "  - clause: result.late_arrival\n    data: {limit_minutes: 15}\n",
    );
    let late = |red: u32, black: u32| {
        outcome(&rs, None, json!([{"late": {"red": red, "black": black}}])).unwrap()
    };
    assert_eq!(
        late(900, 0)["result"],
        "ongoing",
        "15:00 late is not over a 15-minute limit"
    );
    let o = late(901, 0);
    assert_eq!(
        (o["result"].as_str(), o["article"].as_str()),
        (Some("black_wins"), Some("4.1.5, 21.1"))
    );
    assert_eq!(o["rulings"][0]["decision"], "deduct_time");
    let o = late(901, 1000);
    assert_eq!(
        (o["result"].as_str(), o["clause"].as_str()),
        (Some("both_lose"), Some("result.both_late"))
    );
    // 2020 has no 21.3: both over the limit lose by 4.1.7 each.
    let rs = with_overlay(
        "cxa-2020",
        "  - clause: result.late_arrival\n    data: {limit_minutes: 15}\n",
    );
    let o = outcome(&rs, None, json!([{"late": {"red": 901, "black": 1000}}])).unwrap();
    assert_eq!(
        (o["result"].as_str(), o["clause"].as_str()),
        (Some("both_lose"), Some("result.late_arrival"))
    );
}

#[test]
fn the_shipped_overlay_changes_only_what_it_names() {
    let base = builtin("cxa-2011");
    let event = builtin("cxa-2011+provincial-2012-open");
    assert_eq!(base.arbiter.as_ref().unwrap().level(), Some("national"));
    assert_eq!(event.arbiter.as_ref().unwrap().level(), Some("provincial"));
    let c = event.edition.clause("draw.natural_limit").unwrap();
    assert_eq!(c.data["rounds"], 40);
    assert_eq!(c.data["checks_counted"], 8);
    assert_eq!(
        c.data["false_claim_penalty_minutes"], 5,
        "keys the overlay does not name keep the edition's value"
    );
    assert_eq!(
        c.provenance.r#ref.as_deref(),
        Some("§10 (an event supplement under the 2011 rules)")
    );
}

#[test]
fn overlay_errors_name_file_line_and_column() {
    let spec = Spec::builtin().unwrap();
    let overlay = |changes: &str| {
        let text = format!("overlay: bad-event\nname: n\nedition: cxa-2011\nprovenance: {{status: verified, source: digest, ref: x}}\nchanges:\n{changes}");
        Overlay::parse("overlays/bad-event.yaml", &text).unwrap()
    };
    // The first error's place (file, line, column) and all the errors in words.
    let placed = |e: SpecErrors| {
        let l = &e.0[0].location;
        ((l.file.clone(), l.line, l.column), e.to_string())
    };
    // An overlay with these changes, refused when it is applied, or when the rule set compiles.
    let refused = |changes: &str| placed(spec.with_overlay(&overlay(changes)).unwrap_err());
    let uncompiled = |changes: &str| {
        placed(RuleSet::compile(spec.with_overlay(&overlay(changes)).unwrap()).unwrap_err())
    };
    let at = |line: usize, column: usize| ("overlays/bad-event.yaml".to_string(), line, column);
    // An unknown clause of the arbiter's families.
    let (place, e) = refused("  - clause: draw.natural_limits\n    data: {rounds: 40}\n");
    assert_eq!(place, at(6, 5), "{e}");
    assert!(e.starts_with("overlays/bad-event.yaml:6:5: clause draw.natural_limits: edition `cxa-2011` has no such clause"), "{e}");
    // A changed shape: a number becomes a word. At the key: line 9, column 12 (`    data:
    // {rounds`).
    let (place, e) = refused("  - clause: event.level\n    data: {level: provincial}\n  - clause: draw.natural_limit\n    data: {rounds: forty}\n");
    assert_eq!(place, at(9, 12), "{e}");
    assert_contains(&e, "`rounds` changes shape");
    // A key the clause does not have.
    let (_, e) = refused("  - clause: draw.natural_limit\n    data: {moves: 80}\n");
    assert_contains(&e, "`moves` is not in the clause's data");
    // The right shape but a value the arbiter does not know: refused when the rule set
    // compiles, at the overlay's line.
    let (place, e) =
        uncompiled("  - clause: draw.natural_limit\n    data: {checks_of: sometimes}\n");
    assert_eq!(place, at(7, 12), "{e}");
    assert_contains(&e, "unknown variant `sometimes`");
    // Rounds to change: at least 1, at its key on a line of its own (block mapping), and
    // only in the clauses whose rulings wait for a change.
    let (_, e) =
        uncompiled("  - clause: result.change_refused\n    data:\n      rounds_to_change: 0\n");
    assert_contains(
        &e,
        "overlays/bad-event.yaml:8:7: clause result.change_refused: `rounds_to_change` is 0",
    );
    let (_, e) = refused("  - clause: result.time\n    data: {rounds_to_change: 2}\n");
    assert_contains(&e, "overlays/bad-event.yaml:7:12: clause result.time: `rounds_to_change` is not in the clause's data");
    let e = compile_error(
        "cxa-2020/results.yaml",
        "data: {when: flag_fall, result: loss}",
        "data: {when: flag_fall, result: loss, rounds_to_change: 2}",
    );
    assert_contains(&e, "clause result.time: `rounds_to_change` only applies to `when: change_refused` or `when: repetition_draw`");
    // A change's own provenance and an unencoded term cite listed sources.
    let (_, e) = refused("  - clause: event.level\n    data: {level: provincial}\n    provenance: {status: inferred, source: no-such-page}\nunencoded_differences:\n  - {articles: \"(六)\", summary: s, summary_zh: 说明, why: w, provenance: {status: verified, source: nor-this}}\n");
    assert_contains(
        &e,
        "overlays/bad-event.yaml:6:5: provenance cites source `no-such-page`",
    );
    assert_contains(
        &e,
        "overlays/bad-event.yaml:1:1: provenance cites source `nor-this`",
    );
    let (_, e) = uncompiled("  - clause: event.level\n    data: {level: world}\n");
    assert_contains(&e, "level `world` is not one of the levels listed");
}

// ------------------------------------------------------------------ clause errors

#[test]
fn clause_errors_are_located() {
    // Each edit of a cxa-2020 file (file, from, to), and what the error must say.
    let edits: [(&str, &str, &str, &[&str]); 7] = [
        (
            "cxa-2020/touch.yaml",
            "        - {step: \"5.1\", free: true}\n",
            "        - {step: \"5.1\", capture: opponent}\n",
            &[
                "cxa-2020/touch.yaml:",
                "clause touch.own_piece: step 5.1: names a role that is not touched in this pattern",
            ],
        ),
        (
            "cxa-2020/results.yaml",
            "times_by_level: {national: 1, provincial: 2, junior: 2}",
            "times_by_level: {national: 1, regional: 2}",
            &["clause result.illegal_move: level `regional` is not one of event.level's levels"],
        ),
        (
            "cxa-2020/fouls.yaml",
            "data: {when: disturbing}",
            "data: {when: disturbing, excess: 2}",
            &["clause foul.disturbing: excess do(es) not apply to `when: disturbing`"],
        ),
        // A shape error names the path down to the field, also for a number where a word
        // is due (YAML's text would read it as the word "7")...
        (
            "cxa-2020/results.yaml",
            "levels: [national, provincial, junior]",
            "levels: [national, provincial, 7]",
            &["clause event.level: data: levels[2]: invalid type: integer `7`, expected a string"],
        ),
        // ... lists the names an enum takes when it is given a number ...
        (
            "cxa-2020/results.yaml",
            "data: {when: flag_fall, result: loss}",
            "data: {when: 7, result: loss}",
            &["clause result.time: data: when: unknown variant `7`, expected one of `checkmated`"],
        ),
        // ... and places an unknown field in the map that holds it.
        (
            "cxa-2020/results.yaml",
            "data: {when: flag_fall, result: loss}",
            "data: {when: flag_fall, result: loss, zz: 1}",
            &["clause result.time: data: unknown field `zz`, expected one of `when`"],
        ),
        // An unknown id in the arbiter's families is an error, not a silently ignored rule.
        (
            "cxa-2020/results.yaml",
            "clauses:\n  - id: event.level",
            "clauses:\n  - id: draw.sudden_death\n    article: \"4.9\"\n    summary: x\n    summary_zh: 某\n    provenance: {status: inferred, source: digest}\n    data: {rounds: 1}\n  - id: event.level",
            &["draw.sudden_death: the arbiter's rules know no clause of this id"],
        ),
    ];
    for (file, from, to, says) in edits {
        let text = compile_error(file, from, to);
        for part in says {
            assert_contains(&text, part);
        }
    }
}

#[test]
fn rule_sets_without_arbiter_clauses_have_none() {
    let mut files: Vec<(String, String)> = Spec::builtin_files()
        .into_iter()
        // (The clock clauses name the arbiter's foul clauses, so they go too.)
        .filter(|(p, _)| {
            ![
                "results.yaml",
                "touch.yaml",
                "fouls.yaml",
                "arbiter.yaml",
                "clock.yaml",
                "playoff.yaml",
            ]
            .iter()
            .any(|f| p.ends_with(f))
                && !p.starts_with("overlays/")
        })
        .collect();
    for f in &mut files {
        if f.0.ends_with("edition.yaml") {
            // Drop the `removes:` lists, which name arbiter clauses.
            let mut out = String::new();
            let mut skipping = false;
            for line in f.1.lines() {
                if line.starts_with("removes:") {
                    skipping = true;
                    continue;
                }
                if skipping && line.starts_with("  - ") {
                    continue;
                }
                skipping = false;
                out.push_str(line);
                out.push('\n');
            }
            f.1 = out;
        }
    }
    let spec = Spec::from_files(files).unwrap();
    assert!(ruleset(&spec, "cxa-2020").arbiter.is_none());
}

// ------------------------------------------------------------------ event reader

#[test]
fn refusals_carry_the_event_index() {
    let rs = builtin("cxa-2020");
    let cases = [
        (
            json!([{"resign": "red"}, {"move": "h2e2"}]),
            "events.after_end",
            "events[1] (move)",
        ),
        (
            json!([{"move": "h2e2"}, {"claim_natural_limit": "red"}]),
            "events.not_on_move",
            "events[1] (claim_natural_limit)",
        ),
        (
            json!([{"move": "h2e2"}, {"move": "h9g7"}, {"resgn": "red"}]),
            "events.syntax",
            "events[2]",
        ),
        (
            json!([{"move": "h2e2"}, {"move": "h2e3"}]),
            "move.illegal",
            "events[1] (move)",
        ),
        (
            json!([{"accept_draw": "red"}]),
            "events.no_pending_offer",
            "events[0]",
        ),
        (json!(["resign"]), "events.syntax", "events[0]"),
        // Seconds late: a side left out was not late, but no other key and no null.
        (
            json!([{"late": {"red": 1, "white": 2}}]),
            "events.syntax",
            "events[0]",
        ),
        (
            json!([{"late": {"red": null}}]),
            "events.syntax",
            "events[0]",
        ),
    ];
    for (events, kind, place) in cases {
        let e = outcome(&rs, None, events.clone()).unwrap_err();
        assert_eq!(e.kind(), Some(kind), "{events}: {e}");
        assert!(e.to_string().contains(place), "{events}: {e}");
    }
}

#[test]
fn every_reject_kind_and_fen_code_is_in_the_vocabulary() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/conformance/vocabulary.yaml"
    ))
    .unwrap();
    let vocab: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let kinds = vocab["reject_kinds"].as_mapping().unwrap();
    for k in xqspec::ArbiterRejectKind::ALL {
        assert!(
            kinds.contains_key(k.code()),
            "{k} is not a reject kind of conformance/vocabulary.yaml"
        );
    }
    // FEN problem codes are distinct snake_case names.
    let codes: std::collections::BTreeSet<&str> = xqspec::FenProblemKind::ALL
        .iter()
        .map(|k| k.code())
        .collect();
    assert_eq!(codes.len(), xqspec::FenProblemKind::ALL.len());
    assert!(codes
        .iter()
        .all(|c| c.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (0u32..400).prop_map(|n| json!(n)),
        prop::sample::select(vec![
            "red",
            "black",
            "green",
            "h2e2",
            "e3",
            "b9",
            "a0a5",
            "draw",
            "red_loses",
            "black_must_change",
            "rest",
            "missing",
            "illegible",
            "simple_position",
            "natural_limit",
            "",
            "e10",
            "炮二平五",
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(
                        xqspec::EVENT_KINDS
                            .iter()
                            .copied()
                            .chain([
                                "side",
                                "points",
                                "simultaneous",
                                "moves",
                                "found_after_rounds",
                                "found_after_seconds",
                                "from",
                                "to",
                                "pieces",
                                "after_press",
                                "opponent_remaining_seconds",
                                "chosen_by",
                                "chosen",
                                "kind",
                                "remaining_seconds",
                                "red",
                                "black",
                                "announced",
                                "consent",
                                "accidental",
                                "off_board",
                            ])
                            .collect::<Vec<_>>(),
                    ),
                    inner
                ),
                0..3
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

/// Events that mostly read: plausible kinds and values.
fn plausible_event() -> impl Strategy<Value = Value> {
    let side = prop::sample::select(vec!["red", "black"]);
    let point = prop::sample::select(vec![
        "e3", "b9", "b2", "b7", "d0", "e0", "a0", "h9", "e4", "i9",
    ]);
    let mv = prop::sample::select(vec![
        "h2e2", "h9g7", "b2b9", "a9b9", "e3e4", "e6e5", "a0a5", "d0e0", "h0g2", "b0c2", "c9e7",
        "e0e1",
    ]);
    prop_oneof![
        mv.clone().prop_map(|m| json!({ "move": m })),
        (mv, 0u32..8).prop_map(|(m, r)| json!({"illegal_move": {"move": m, "found_after_rounds": r}})),
        (side.clone(), prop::collection::vec(point.clone(), 1..3), any::<bool>())
            .prop_map(|(s, p, b)| json!({"touch": {"side": s, "points": p, "simultaneous": b}})),
        (side.clone(), prop::collection::vec(point.clone(), 1..2), any::<bool>(), any::<bool>())
            .prop_map(|(s, p, a, c)| json!({"adjust": {"side": s, "points": p, "announced": a, "consent": c}})),
        (prop::sample::select(vec!["offer_draw", "accept_draw", "decline_draw", "claim_natural_limit", "flag", "press_without_move",
            "stop_clock", "disturb", "player_rules", "refuse_rules", "resign"]), side.clone())
            .prop_map(|(k, s)| json!({ k: s })),
        prop::sample::select(vec!["draw", "red_must_change", "black_must_change", "red_loses", "black_loses"]).prop_map(|v| json!({ "repetition": v })),
        prop::sample::select(vec!["simple_position", "natural_limit"]).prop_map(|v| json!({ "arbiter": v })),
        (0u32..2000, 0u32..2000).prop_map(|(r, b)| json!({"late": {"red": r, "black": b}})),
        (side.clone(), 0u32..20, prop::sample::select(vec!["missing", "illegible", "identical"]), prop::option::of(0u32..400))
            .prop_map(|(s, m, k, t)| json!({"unrecorded": {"side": s, "moves": m, "kind": k, "remaining_seconds": t}})),
        (0u32..600).prop_map(|t| json!({"colours_reversed": {"found_after_seconds": t}})),
        (point.clone(), point.clone(), 0u32..8).prop_map(|(f, t, r)| json!({"displaced": {"from": f, "to": t, "found_after_rounds": r}})),
        (side.clone(), 0u32..4, any::<bool>(), any::<bool>(), prop::option::of(0u32..400)).prop_map(|(s, n, o, a, t)| {
            json!({"knock_over": {"side": s, "pieces": n, "off_board": o, "after_press": a, "opponent_remaining_seconds": t}})
        }),
        (point.clone(), point.clone(), point, side).prop_map(|(f, a, b, s)| json!({"between_points": {"from": f, "points": [a, b], "chosen_by": s, "chosen": a}})),
    ]
}

fn check_no_panic(events: Vec<Value>) {
    for ed in [
        "cxa-1999",
        "cxa-2011",
        "cxa-2020",
        "cxa-2011+provincial-2012-open",
    ] {
        let rs = builtin_cached(ed);
        let q = OutcomeQuery {
            fen: None,
            events: events.clone(),
        };
        match rs.arbiter.as_ref().unwrap().outcome(rs.board(), &q) {
            Ok(o) => {
                let j = o.to_json();
                assert!(j["fouls"]["red"].is_u64() && j["fouls"]["black"].is_u64());
                assert_eq!(
                    o.result == GameResult::Ongoing,
                    o.clause.is_none(),
                    "{events:?}"
                );
                assert!(o.rulings.iter().all(|r| r.event < events.len()));
            }
            Err(ArbiterError::Reject { kind, message }) => {
                assert!(kind.code().contains('.'), "{kind}");
                assert!(
                    message.contains("events[") || kind.code().starts_with("touch."),
                    "{kind}: {message}"
                );
            }
            Err(ArbiterError::Fen(e)) => panic!("the start position was refused: {e}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_events_never_panic(events in prop::collection::vec(any_json(), 0..6)) {
        check_no_panic(events);
    }

    #[test]
    fn plausible_event_sequences_never_panic(events in prop::collection::vec(plausible_event(), 0..14)) {
        check_no_panic(events);
    }

    #[test]
    fn touch_queries_never_panic(points in prop::collection::vec("[a-j][0-9]{1,2}|e3|b9|b2|d0", 0..4), both in any::<bool>()) {
        let rs = builtin_cached("cxa-2020");
        let q = TouchQuery { fen: START.into(), moves: vec![], touches: points, simultaneous: both };
        match rs.arbiter.as_ref().unwrap().touch_move(&rs.vm, &q) {
            Ok(t) => prop_assert!(t.allowed.as_ref().is_none_or(|l| !l.is_empty())),
            Err(e) => prop_assert!(e.kind().is_some_and(|k| k.starts_with("touch.")), "{}", e),
        }
    }
}

#[test]
fn a_game_of_bare_generals_counts_rounds_from_the_fen() {
    // The FEN's halfmove counter counts towards the natural move limit.
    let rs = builtin("cxa-2020");
    let mut events = rounds(60);
    events.push(json!({"claim_natural_limit": "red"}));
    let o = outcome(&rs, Some(BARE), Value::Array(events)).unwrap();
    assert_eq!(o["result"], "draw");
    assert_eq!(o["rulings"][0]["rounds"], 60);
}

#[test]
fn touching_when_the_game_is_over_is_refused_not_free() {
    for (fen, what, clause) in [
        (
            "3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1",
            "checkmated",
            "result.checkmate",
        ),
        (
            "3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1",
            "stalemated",
            "result.stalemate",
        ),
    ] {
        for id in ["cxa-1999", "cxa-2011", "cxa-2020"] {
            let rs = builtin(id);
            let q = TouchQuery {
                fen: fen.into(),
                moves: vec![],
                touches: vec!["d9".into()],
                simultaneous: false,
            };
            match rs.arbiter.as_ref().unwrap().touch_move(&rs.vm, &q) {
                Err(ArbiterError::Reject { kind, message }) => {
                    assert_eq!(kind.code(), "touch.game_over", "{id}: {message}");
                    assert!(
                        message.contains(what)
                            && message.contains(clause)
                            && message.contains("touch-move does not apply"),
                        "{id}: {message}"
                    );
                }
                other => panic!("{id}: the game is over, got {other:?}"),
            }
        }
    }
    // Reached by the moves too: Red mates, then Black touches.
    let rs = builtin("cxa-2020");
    let q = TouchQuery {
        fen: "3k5/9/9/9/9/9/9/9/2R6/4K4 w - - 0 1".into(),
        moves: vec!["c1d1".into()],
        touches: vec!["d9".into()],
        simultaneous: false,
    };
    let e = rs.arbiter.as_ref().unwrap().touch_move(&rs.vm, &q);
    assert!(
        matches!(
            &e,
            Err(ArbiterError::Reject {
                kind: xqspec::ArbiterRejectKind::TouchGameOver,
                ..
            })
        ),
        "{e:?}"
    );
    // Before the mate, the same touch binds as ever.
    let q = TouchQuery {
        moves: vec![],
        touches: vec!["c1".into()],
        ..q
    };
    assert!(rs.arbiter.as_ref().unwrap().touch_move(&rs.vm, &q).is_ok());
}
