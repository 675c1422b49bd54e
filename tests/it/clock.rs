//! The clock domain: proof that it is data-driven (edit the YAML, the simulation changes),
//! fuzzing of the clock and play-off queries (no panic, every refusal names its event or
//! game), conservation of time on random games, and the `xqspec clock` command.

use crate::assert::assert_contains;
use crate::spec_edit::{compile_error, edited_one as edited};
use std::path::Path;
use std::process::Command;

use proptest::prelude::*;
use serde_json::{json, Value};
use xqspec::RuleSet;
use xqspec::ToAnswer;
use xqspec::{ClockQuery, ClockRules, PlayoffQuery};

fn builtin(edition: &str) -> ClockRules {
    RuleSet::builtin(edition)
        .unwrap()
        .clock
        .expect("the edition has clock clauses")
}

/// The clock rules of `edition` after one textual edit to one file.
fn variant(file: &str, from: &str, to: &str, edition: &str) -> ClockRules {
    RuleSet::of_spec(&edited(file, from, to), edition)
        .unwrap_or_else(|e| panic!("edited spec compiles: {e}"))
        .clock
        .unwrap()
}

fn ask(rules: &ClockRules, scheme: &str, settings: Option<Value>, events: Value) -> Value {
    let q = ClockQuery {
        scheme: scheme.into(),
        settings,
        events: events.as_array().unwrap().clone(),
    };
    rules.answer_clock(&q).unwrap_or_else(|e| panic!("{e}"))
}

/// One textual edit of a clause file of an edition, and what it changes: the field at `at`
/// (a JSON pointer; null when absent) of the answer to `events` under `scheme` (with
/// `settings`), under the shipped rules and under the edited ones.
struct ClockEdit {
    what: &'static str,
    edit: (&'static str, &'static str, &'static str),
    ask: (&'static str, Option<Value>, Value),
    at: &'static str,
    shipped: Value,
    edited: Value,
}

/// Each edit through the one check: its field under the shipped and the edited rules.
fn check_edits(edition: &str, rows: Vec<ClockEdit>) {
    for r in rows {
        let (file, from, to) = r.edit;
        let (scheme, settings, events) = &r.ask;
        let field = |rules: &ClockRules| {
            let v = ask(rules, scheme, settings.clone(), events.clone());
            v.pointer(r.at).cloned().unwrap_or(Value::Null)
        };
        assert_eq!(field(&builtin(edition)), r.shipped, "{}: shipped", r.what);
        let edited = variant(&format!("{edition}/{file}"), from, to, edition);
        assert_eq!(field(&edited), r.edited, "{}: edited", r.what);
    }
}

/// `n` moves of a second each.
fn moves_of_a_second(n: usize) -> Value {
    Value::Array((0..n).map(|_| json!({"move": 1000})).collect())
}

#[test]
fn editing_a_scheme_or_the_clock_rules_changes_the_simulation() {
    let five = "        - {time: 5m}\n      increment: 3s";
    let four = (
        "clock.yaml",
        five,
        "        - {time: 4m}\n      increment: 3s",
    );
    let blitz = |events: Value| ("blitz_5m_3s", None, events);
    let knock = json!([{"move": 120_000}, {"move": 1_000}, {"knock": "black"}]);
    check_edits(
        "cxa-2020",
        vec![
            ClockEdit {
                what: "four minutes instead of five: the same first move is now a flag",
                edit: four,
                ask: blitz(json!([{"move": 250_000}])),
                at: "/flag/side",
                shipped: Value::Null,
                edited: json!("red"),
            },
            ClockEdit {
                what: "four minutes instead of five: the flag falls 10 s over",
                edit: four,
                ask: blitz(json!([{"move": 250_000}])),
                at: "/flag/over",
                shipped: Value::Null,
                edited: json!(10_000),
            },
            ClockEdit {
                what: "a 5 s increment instead of 3 s",
                edit: (
                    "clock.yaml",
                    five,
                    "        - {time: 5m}\n      increment: 5s",
                ),
                ask: blitz(json!([{"move": 250_000}, {"move": 10_000}])),
                at: "/final",
                shipped: json!({"red": 53_000, "black": 293_000}),
                edited: json!({"red": 55_000, "black": 295_000}),
            },
            ClockEdit {
                what: "a clock at zero exhausted: the exact five minutes are a flag",
                edit: (
                    "clock.yaml",
                    "exhausted_when: below_zero",
                    "exhausted_when: at_zero",
                ),
                ask: blitz(json!([{"move": 300_000}])),
                at: "/flag/left",
                shipped: Value::Null,
                edited: json!(300_000),
            },
            ClockEdit {
                what: "the increment added when the clock starts: Red gets it at once",
                edit: ("clock.yaml", "added: after_move", "added: before_move"),
                ask: blitz(json!([])),
                at: "/final",
                shipped: json!({"red": 300_000, "black": 300_000}),
                edited: json!({"red": 303_000, "black": 300_000}),
            },
            ClockEdit {
                what: "5.9 with a 5-minute limit: an opponent with 5 minutes left no longer \
                       makes the knocker lose at 4:59",
                edit: (
                    "touch.yaml",
                    "opponent_under_minutes: 3",
                    "opponent_under_minutes: 5",
                ),
                ask: blitz(knock),
                at: "/violations/0/effect",
                shipped: json!("time_added"),
                edited: json!("loss"),
            },
            ClockEdit {
                what: "pressing without a move stops being a foul",
                edit: (
                    "clock.yaml",
                    "      foul: foul.press_without_move\n",
                    "      foul: null\n",
                ),
                ask: blitz(json!([{"press": 1000}])),
                at: "/violations/0/foul",
                shipped: json!(true),
                edited: json!(false),
            },
        ],
    );
}

#[test]
fn one_rule_of_5_9_decides_the_clock_and_the_arbiter_alike() {
    // One piece knocked off the board after the knocker's press, its opponent under 3
    // minutes: 5.9 (`off_board_counts: true`) makes the knocker lose, on the clock (Black,
    // Red has 1:43 left) and at the arbiter's (Red, Black has 1:00 left).
    let clock_events = json!([{"move": 200_000}, {"move": 1_000}, {"knock": "black", "pieces": 1, "off_board": true}]);
    let arbiter_events = json!([{"move": "h2e2"}, {"knock_over": {"side": "red", "pieces": 1, "after_press": true, "off_board": true, "opponent_remaining_seconds": 60}}]);
    let outcome = |rs: &RuleSet| {
        let q = xqspec::OutcomeQuery {
            fen: None,
            events: arbiter_events.as_array().unwrap().clone(),
        };
        rs.arbiter
            .as_ref()
            .unwrap()
            .outcome(rs.board(), &q)
            .unwrap()
            .to_json()
    };
    let base = RuleSet::builtin("cxa-2020").unwrap();
    let v = ask(
        base.clock.as_ref().unwrap(),
        "blitz_5m_3s",
        None,
        clock_events.clone(),
    );
    assert_eq!(v["violations"][0]["effect"], "loss", "{v}");
    assert_eq!(outcome(&base)["result"], "black_wins");
    // Off the board no longer counts: one piece is too few for both.
    let spec = edited(
        "cxa-2020/touch.yaml",
        "off_board_counts: true",
        "off_board_counts: false",
    );
    let rs = RuleSet::of_spec(&spec, "cxa-2020").unwrap();
    let v = ask(
        rs.clock.as_ref().unwrap(),
        "blitz_5m_3s",
        None,
        clock_events,
    );
    assert_eq!(v["violations"], json!([]), "{v}");
    assert_ne!(outcome(&rs)["result"], "black_wins");
}

#[test]
fn editing_the_classification_and_quotas_changes_the_answers() {
    let ten = json!({"periods": [{"time": 600_000}]});
    check_edits(
        "cxa-2020",
        vec![ClockEdit {
            what: "a standard game from 9 minutes on instead of 15",
            edit: ("clock.yaml", "at_most: 15m", "at_most: 9m"),
            ask: ("sudden_death", Some(ten), json!([])),
            at: "/class",
            shipped: json!("rapid"),
            edited: json!("standard"),
        }],
    );
    let quota = "{time: 5m, moves: 30, repeat: true}\n      increment: 0s";
    let reading = ("clock.yaml", "use: fifty_moves", "use: thirty_moves");
    let late_flag = || ("quota_10_40", None, json!([{"move": 600_001}]));
    check_edits(
        "cxa-1999",
        vec![
            ClockEdit {
                what: "scheme 4 with 20 moves instead of 30: the 20th move now adds 5 minutes",
                edit: (
                    "clock.yaml",
                    quota,
                    "{time: 5m, moves: 20, repeat: true}\n      increment: 0s",
                ),
                ask: ("quota_5_30", None, moves_of_a_second(39)),
                at: "/final/red",
                shipped: json!(280_000),
                edited: json!(580_000),
            },
            ClockEdit {
                what: "unused time forfeited instead of carried over",
                edit: (
                    "clock.yaml",
                    "unused_time: carries_over",
                    "unused_time: forfeited",
                ),
                ask: ("quota_5_30", None, moves_of_a_second(59)),
                at: "/final/red",
                shipped: json!(570_000),
                edited: json!(300_000),
            },
            ClockEdit {
                what: "the overlay's `use:` switch, made in the edition itself",
                edit: reading,
                ask: late_flag(),
                at: "/reading",
                shipped: json!("fifty_moves"),
                edited: json!("thirty_moves"),
            },
            ClockEdit {
                what: "the thirty-move reading flags after 40 moves, as the fifty-move one",
                edit: reading,
                ask: late_flag(),
                at: "/flag/moves_required",
                shipped: json!(40),
                edited: json!(40),
            },
        ],
    );
}

#[test]
fn editing_a_playoff_chain_changes_the_next_stage() {
    let q = PlayoffQuery {
        chain: "slow_rapid_decider".into(),
        games: vec![json!({"red": "A", "result": "draw"})],
        better_ranked: None,
    };
    let v = builtin("cxa-2020").answer_playoff(&q).unwrap();
    assert_eq!(v["next"]["colours"], json!({"rule": "swap", "red": "B"}));
    let lot = variant(
        "cxa-2020/playoff.yaml",
        "scheme: rapid_10m_10s, colours: {first: swap}",
        "scheme: rapid_10m_10s, colours: {first: lot}",
        "cxa-2020",
    );
    assert_eq!(
        lot.answer_playoff(&q).unwrap()["next"]["colours"],
        json!({"rule": "lot"})
    );
    let blitz = variant(
        "cxa-2020/playoff.yaml",
        "scheme: rapid_10m_10s, colours: {first: swap}",
        "scheme: blitz_5m_3s, colours: {first: swap}",
        "cxa-2020",
    );
    assert_eq!(
        blitz.answer_playoff(&q).unwrap()["next"]["control"]["increment"],
        3000
    );
}

#[test]
fn spec_errors_name_the_clause() {
    let bad = |file: &str, from: &str, to: &str, want: &str| {
        let e = compile_error(file, from, to);
        assert_contains(&e, want);
        assert_contains(&e, file);
    };
    bad(
        "cxa-2020/clock.yaml",
        "increment: 10s",
        "increment: 10 seconds",
        "clock.scheme.rapid_10m_10s",
    );
    bad(
        "cxa-2020/clock.yaml",
        "exhausted_when: below_zero",
        "exhausted_when: sometimes",
        "clock.flag",
    );
    bad(
        "cxa-2020/playoff.yaml",
        "scheme: rapid_10m_10s, colours: {first: swap}",
        "scheme: rapid_9m, colours: {first: swap}",
        "no clock scheme",
    );
    bad(
        "cxa-2020/playoff.yaml",
        "{not_chooser_of: slow}",
        "{not_chooser_of: decider}",
        "not an earlier stage",
    );
    bad(
        "cxa-1999/clock.yaml",
        "use: fifty_moves",
        "use: forty_moves",
        "names no alternative",
    );
    bad(
        "cxa-1999/clock.yaml",
        "{time: 5m, moves: 30, repeat: true}",
        "{time: 5m, moves: 30}",
        "must repeat",
    );
    bad(
        "cxa-2020/clock.yaml",
        "{time: 10m}\n      increment: 10s",
        "{time: 10m, moves: 40, repeat: true}\n      increment: 10s",
        "no `clock.quota` rule",
    );
}

// ---------------------------------------------------------------- fuzzing

fn time_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..400_000).prop_map(Value::from),
        (-1_000i64..0).prop_map(Value::from),
        Just(json!(9_007_199_254_740_991u64)),
        Just(json!(9_007_199_254_740_992u64)),
        Just(json!(u64::MAX)),
        Just(json!(1.5)),
        Just(json!("1m30s")),
        Just(json!("-5m")),
        Just(json!("99999999999999999999h")),
        Just(json!("soon")),
        Just(json!(null)),
        Just(json!([1])),
    ]
}

fn who() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("red")),
        Just(json!("black")),
        Just(json!("arbiter")),
        Just(json!("white")),
        Just(json!(3))
    ]
}

fn event() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => time_value().prop_map(|t| json!({"move": t})),
        1 => (time_value(), who()).prop_map(|(t, s)| json!({"move": t, "side": s})),
        1 => time_value().prop_map(|t| json!({"press": t})),
        1 => (time_value(), who()).prop_map(|(t, b)| json!({"stop": t, "by": b})),
        1 => who().prop_map(|b| json!({"start": b})),
        1 => (who(), 0u64..4, any::<bool>()).prop_map(|(s, p, o)| json!({"knock": s, "pieces": p, "off_board": o})),
        1 => (time_value(), who()).prop_map(|(t, s)| json!({"add": t, "to": s})),
        1 => Just(json!({"castle": 1})),
        1 => Just(json!({"move": 1, "press": 1})),
        1 => Just(json!("move")),
    ]
}

fn rules_for(i: usize) -> &'static ClockRules {
    use std::sync::OnceLock;
    static R: OnceLock<Vec<ClockRules>> = OnceLock::new();
    &R.get_or_init(|| {
        ["cxa-1999", "cxa-2011", "cxa-2020"]
            .iter()
            .map(|e| builtin(e))
            .collect()
    })[i % 3]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn clock_queries_never_panic(events in prop::collection::vec(event(), 0..40), ed in 0usize..3, scheme in 0usize..9) {
        let rules = rules_for(ed);
        let ids = ["quota_90_40", "quota_5_30", "quota_10_40", "sudden_death", "increment", "blitz_5m_3s", "decider_6m_4m_3s", "handicap", "nope"];
        let settings = match ids[scheme] {
            "sudden_death" => Some(json!({"periods": [{"time": 60_000}]})),
            "increment" => Some(json!({"periods": [{"time": 60_000}], "increment": 2000})),
            "handicap" => Some(json!({"periods": [{"time": {"red": 60_000, "black": 50_000}}], "increment": 0})),
            _ => None,
        };
        let n = events.len();
        let q = ClockQuery { scheme: ids[scheme].into(), settings, events };
        match rules.answer_clock(&q) {
            Ok(v) => {
                prop_assert!(v["moves"].as_array().unwrap().len() <= n);
                for k in ["red", "black"] {
                    prop_assert!(v["final"][k].as_i64().unwrap() >= 0 || v["flag"].is_null());
                }
            }
            Err(xqspec::ClockError::Event(e)) => prop_assert!(e.number >= 1 && e.number <= n, "{e}"),
            Err(_) => {}
        }
    }

    /// On a game of plain moves, each side's time left is its start, less the time its
    /// face ran, plus what was added; and the flag, if any, is the first move that took
    /// longer than the time left.
    #[test]
    fn time_is_conserved(times in prop::collection::vec(0u64..40_000, 0..120)) {
        let rules = rules_for(2);
        let mut left = [300_000i64, 300_000];
        let mut flag = None;
        for (i, &t) in times.iter().enumerate() {
            let s = i % 2;
            if (t as i64) > left[s] { flag = Some(i + 1); left[s] = 0; break; }
            left[s] += 3000 - t as i64;
        }
        // Events after a flag are refused: the game ends there.
        let played = flag.unwrap_or(times.len());
        let events: Vec<Value> = times[..played].iter().map(|t| json!({"move": t})).collect();
        let v = rules.answer_clock(&ClockQuery { scheme: "blitz_5m_3s".into(), settings: None, events }).unwrap();
        prop_assert_eq!(v["flag"]["event"].as_u64().map(|e| e as usize), flag);
        prop_assert_eq!(&v["final"], &json!({"red": left[0], "black": left[1]}));
    }

    #[test]
    fn playoff_queries_never_panic(games in prop::collection::vec(
        (prop_oneof![Just(json!("A")), Just(json!("B")), Just(json!("C"))],
         prop_oneof![Just(json!("red")), Just(json!("black")), Just(json!("draw")), Just(json!("won"))],
         prop::option::of(prop_oneof![Just(json!("A")), Just(json!("B")), Just(json!(1))])), 0..12),
        chain in 0usize..7, better in prop::option::of(prop_oneof![Just(json!("A")), Just(json!("Z"))])) {
        let chains = ["slow_rapid_decider", "slow_rapid_blitz_decider", "slow_rapid_two_blitz_decider",
                      "slow_rapid_blitz_until_decisive", "match_two_blitz_decider", "match_blitz_until_decisive", "nope"];
        let games: Vec<Value> = games.into_iter().map(|(r, res, c)| {
            let mut g = json!({"red": r, "result": res});
            if let Some(c) = c { g["chose"] = c; }
            g
        }).collect();
        let q = PlayoffQuery { chain: chains[chain].into(), games, better_ranked: better };
        if let Ok(v) = rules_for(2).answer_playoff(&q) {
            prop_assert!(v["winner"].is_string() || v["next"].is_object());
        }
    }
}

// ---------------------------------------------------------------- the command

const BIN: &str = env!("CARGO_BIN_EXE_xqspec");

fn xqspec(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn clock_command_lists_and_simulates() {
    let (ok, out, err) = xqspec(&["clock", "--list", "--edition", "cxa-1999"]);
    assert!(ok, "{err}");
    assert_contains(&out, "quota_90_40");
    assert_contains(&out, "1h30m/40, then 15m/10 repeated");
    assert_contains(&out, "reading `fifty_moves`");

    let dir = std::env::temp_dir().join(format!("xqspec-clock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.yaml");
    std::fs::write(&file, "scheme: blitz_5m_3s\nevents:\n  - move: 20s\n  - {press: 2s}\n  - move: 1000\n  - move: 5m\n").unwrap();
    let f = file.to_str().unwrap();
    let (ok, out, err) = xqspec(&["clock", f]);
    assert!(ok, "{err}");
    assert_contains(&out, "FLAG (4:42.000 left)");
    assert_contains(&out, "art. 8.1.7 press without move: foul");
    assert_contains(&out, "red's flag fell at event 4");
    let (ok, out, _) = xqspec(&["clock", "--json", f]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["flag"]["event"], 4);

    // Under the 2011 rules with the provincial overlay, the increment scheme needs no settings.
    std::fs::write(&file, "- move: 40s\n").unwrap();
    let overlay =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/overlays/provincial-2012-open.yaml");
    let (ok, out, err) = xqspec(&[
        "clock",
        "--edition",
        "cxa-2011",
        "--overlay",
        overlay.to_str().unwrap(),
        "--scheme",
        "increment",
        f,
    ]);
    assert!(ok, "{err}");
    assert_contains(&out, "29:40.000");

    std::fs::write(&file, "- move: 1000\n- move: -5\n").unwrap();
    let (ok, _, err) = xqspec(&["clock", "--scheme", "blitz_5m_3s", f]);
    assert!(
        !ok && err.contains("event 2") && err.contains("negative"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

use crate::load;

#[test]
fn the_table_of_100k_clock_events_is_drawn_in_under_5_s() {
    let r = builtin("cxa-1999");
    let s = r.scheme("quota_90_40").unwrap();
    let control = r.control(s, None).unwrap();
    let events = xqspec::parse_clock_events(&load::move_events(100_000, 120_000)).unwrap();
    let t = xqspec::simulate_clock(&control, &r.timing, &events).unwrap();
    let t0 = load::Stopwatch::start();
    let table = xqspec::timeline_table(&r, &control, &events, &t);
    let took = t0.seconds();
    assert!(took < 5.0, "100,000 events: {took:.2} s");
    // A header, its rule, the start, then a row per event up to the flag (if any).
    let rows = t.flag.map_or(events.len(), |f| f.event);
    assert!(
        table.lines().count() >= 3 + rows,
        "{} lines",
        table.lines().count()
    );
    assert!(
        table.lines().nth(3).unwrap().contains("move 1"),
        "{}",
        table.lines().nth(3).unwrap()
    );
}
