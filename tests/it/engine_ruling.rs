//! The `ruling` query of UCI and UCCI engines (PROTOCOL.md §7.1): the runner plays the
//! cycle from its first position until the completing move makes the position stand as
//! often as the engine's search needs, has the engine search that move alone, and reads
//! its score as the verdict. The engine is `tests/fakes/searching-engine.sh`, which logs
//! what it is sent.

use crate::assert::assert_contains;
use std::time::Duration;

use serde_json::{json, Value};
use xqspec::Ask;
use xqspec::RulingQuery;
use xqspec::{Answer, Query};
use xqspec::{Dialect, Engine, EngineRuling, RankBase, Searcher};
use xqspec::{Reply, Subject};

const FAKE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fakes/searching-engine.sh"
);

/// PROTOCOL.md's example: Red's chariot chases the cannon; Black's c8c7 completes the cycle.
const FEN: &str = "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1";
const CYCLE: [&str; 4] = ["a8a7", "c7c8", "a7a8", "c8c7"];

struct Fake {
    engine: Engine,
    log: std::path::PathBuf,
}

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.log);
    }
}

fn fake(dialect: Dialect, env: &[(&str, &str)], ruling: EngineRuling) -> Fake {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = std::env::temp_dir().join(format!(
        "xqspec-engine-ruling-{}-{n}.log",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&log);
    let mut cmd = format!("env FAKE_LOG={}", log.display());
    for (k, v) in env {
        cmd.push_str(&format!(" {k}='{v}'"));
    }
    cmd.push_str(&format!(" sh {FAKE}"));
    let editions = ["cxa-2020", "axf"].map(String::from).to_vec();
    let engine = Engine::start_ruling(
        &cmd,
        dialect,
        RankBase::Zero,
        editions,
        Duration::from_secs(5),
        ruling,
        None,
    )
    .unwrap();
    Fake { engine, log }
}

impl Fake {
    fn rule(&mut self, edition: &str, moves: &[&str]) -> Answer {
        let q = Query::Ruling(RulingQuery {
            fen: FEN.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        });
        let ask = Ask {
            edition,
            overlay: None,
            query: &q,
        };
        match self.engine.ask("r", &ask, Duration::from_secs(5)) {
            Reply::Answer(a) => a,
            other => panic!("{other:?}"),
        }
    }

    fn sent(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The last `position` line sent.
    fn position(&self) -> String {
        let sent = self.sent();
        sent.into_iter()
            .rev()
            .find(|l| l.starts_with("position"))
            .unwrap()
    }

    fn declares_ruling(&self) -> bool {
        self.engine.about().queries.iter().any(|q| q == "ruling")
    }
}

fn ruling(a: &Answer) -> Value {
    match a {
        Answer::Value(m) => m["ruling"].clone(),
        other => panic!("not a value: {other:?}"),
    }
}

#[test]
fn a_uci_engine_searches_the_completing_move_alone_and_its_score_is_the_verdict() {
    for (score, verdict) in [
        ("mate -1", "black_must_change"),
        ("mate 0", "black_must_change"),
        ("mate 2", "red_must_change"),
        ("cp 0", "draw"),
        ("cp 35", "none"),
    ] {
        let mut f = fake(
            Dialect::Uci,
            &[
                ("FAKE_NAME", "Fairy-Stockfish 061226 LB"),
                ("FAKE_SCORE", score),
            ],
            EngineRuling::Known,
        );
        assert!(f.declares_ruling());
        let got = ruling(&f.rule("axf", &CYCLE));
        assert_eq!(got["verdict"], json!(verdict), "{score}");
        assert_eq!(got["verdict_only"], json!(true));
        assert_eq!(got["cycle"], json!([1, 4]));
        // From the cycle's first position, the position standing a third time after c8c7.
        let pos = f.position();
        let sent = f.sent();
        assert_sent_position(
            &pos,
            "position fen 3k5/R8/2c6/9/9/9/9/9/9/4K4 w",
            " moves a8a7 c7c8 a7a8 c8c7 a8a7 c7c8 a7a8",
        );
        assert_eq!(sent.last().unwrap(), "go depth 1 searchmoves c8c7");
    }
}

/// The `position` command sent starts with `start` and ends with `moves`.
#[track_caller]
fn assert_sent_position(pos: &str, start: &str, moves: &str) {
    assert!(pos.starts_with(start) && pos.ends_with(moves), "{pos}");
}

#[test]
fn the_moves_before_the_cycle_are_left_out_and_twice_given_cycles_are_not_repeated_more() {
    let mut f = fake(
        Dialect::Uci,
        &[
            ("FAKE_NAME", "Pikafish dev-20260722"),
            ("FAKE_SCORE", "mate -1"),
        ],
        EngineRuling::Known,
    );
    // The generals step aside first, then the cycle twice: the cycle judged is the last one.
    let moves = [
        "e0f0", "d9e9", "a8a7", "c7c8", "a7a8", "c8c7", "a8a7", "c7c8", "a7a8", "c8c7",
    ];
    let got = ruling(&f.rule("axf", &moves));
    assert_eq!(got["cycle"], json!([7, 10]));
    assert_eq!(got["verdict"], json!("black_must_change"));
    let pos = f.position();
    assert_sent_position(
        &pos,
        "position fen 4k4/R8/2c6/9/9/9/9/9/9/5K3 w",
        " moves a8a7 c7c8 a7a8 c8c7 a8a7 c7c8 a7a8",
    );
}

#[test]
fn a_ucci_engine_bans_every_other_move_and_reads_its_own_draw_score() {
    for (score, verdict) in [
        ("-9899", "black_must_change"),
        ("9899", "red_must_change"),
        ("-20", "draw"),
        ("20", "none"),
        ("-350", "none"),
    ] {
        let mut f = fake(
            Dialect::Ucci,
            &[
                ("FAKE_DIALECT", "ucci"),
                ("FAKE_NAME", "ElephantEye"),
                ("FAKE_SCORE", score),
                ("FAKE_BEST", "c8c7"),
            ],
            EngineRuling::Known,
        );
        let got = ruling(&f.rule("axf", &CYCLE));
        assert_eq!(got["verdict"], json!(verdict), "{score}");
        let sent = f.sent();
        let n = sent.len();
        // ElephantEye rules in its search at the second occurrence: the cycle once.
        assert!(
            sent[n - 3].ends_with(" moves a8a7 c7c8 a7a8"),
            "{:?}",
            &sent[n - 3..]
        );
        let ban = &sent[n - 2];
        assert!(
            ban.starts_with("banmoves ") && ban.contains(" c8d8"),
            "{ban}"
        );
        assert!(!ban.contains("c8c7"), "{ban}");
        assert_eq!(sent[n - 1], "go depth 1");
    }
}

#[test]
fn rulings_are_asked_only_under_the_engines_rule_set_and_only_of_a_repetition() {
    let mut f = fake(
        Dialect::Uci,
        &[("FAKE_NAME", "Fairy-Stockfish 14.0.1 XQ")],
        EngineRuling::Known,
    );
    assert!(matches!(
        f.rule("cxa-2020", &CYCLE),
        Answer::Unsupported { .. }
    ));
    assert!(matches!(
        f.rule("axf", &["a8a7", "c7c8"]),
        Answer::Unsupported { .. }
    ));
}

#[test]
fn which_engines_are_asked() {
    // Debian's Fairy-Stockfish 11.1 predates the chasing rules; an unknown engine is not
    // asked unless declared; an engine that cannot search (no network file) is not asked.
    for (name, env, ruling, asked) in [
        ("Fairy-Stockfish 11.1 LB 64", "", EngineRuling::Known, false),
        ("Fairy-Stockfish 14 LB", "", EngineRuling::Known, true),
        ("SomeEngine 2.0", "", EngineRuling::Known, false),
        (
            "SomeEngine 2.0",
            "",
            EngineRuling::As {
                rule_set: "axf".into(),
                occurrences: Some(2),
            },
            true,
        ),
        ("Fairy-Stockfish 061226 LB", "", EngineRuling::Off, false),
        ("Pikafish dev-20260722", "1", EngineRuling::Known, false),
    ] {
        let f = fake(
            Dialect::Uci,
            &[("FAKE_NAME", name), ("FAKE_NO_SEARCH", env)],
            ruling,
        );
        assert_eq!(f.declares_ruling(), asked, "{name}");
    }
    assert!(Searcher::of("ElephantEye", Dialect::Ucci).is_some());
    assert!(Searcher::of("ElephantEye", Dialect::Uci).is_none());
}

#[test]
fn an_undeclared_rule_set_is_refused_at_start() {
    let editions = vec!["cxa-2020".to_string()];
    let err = Engine::start_ruling(
        &format!("sh {FAKE}"),
        Dialect::Uci,
        RankBase::Zero,
        editions,
        Duration::from_secs(5),
        EngineRuling::As {
            rule_set: "axf".into(),
            occurrences: None,
        },
        None,
    )
    .err()
    .unwrap();
    assert_contains(&err, "`axf` is not a rule set");
}
