//! The README's example for Rust implementers, working: a type implementing
//! `xqspec::Implementation` run against the embedded cases by
//! `xqspec::Harness`.
//!
//! "Your engine" is played here by xqspec's own rule VM, wrapped the way an
//! implementer would wrap theirs: it answers `legal_moves` and `status` only,
//! so every other case is skipped.

use crate::assert::assert_contains;
use xqspec::CaseStatus as Status;
use xqspec::Harness;
use xqspec::{About, Answer, Implementation, Query};
use xqspec::{Position, Rules};

struct MyEngine {
    rules: Rules,
}

impl MyEngine {
    fn position(&self, fen: &str, moves: &[String]) -> Result<Position, Answer> {
        let mut pos = Position::from_fen(&self.rules, fen)
            .map_err(|e| Answer::reject("fen", e.to_string()))?;
        for m in moves {
            let mv = xqspec::Move::parse_iccs(m)
                .ok_or_else(|| Answer::reject("move.syntax", m.clone()))?;
            pos.play(&self.rules, mv)
                .map_err(|e| Answer::reject("move.illegal", e.to_string()))?;
        }
        Ok(pos)
    }
}

impl Implementation for MyEngine {
    fn about(&self) -> About {
        About {
            editions: vec!["cxa-2020".into()],
            queries: vec!["legal_moves".into(), "status".into()],
            ..About::named("my-engine", "0.1.0")
        }
    }

    fn answer(&mut self, _edition: &str, query: &Query) -> Answer {
        match query {
            Query::LegalMoves { fen, moves } => match self.position(fen, moves) {
                Ok(pos) => Answer::moves(pos.legal_moves(&self.rules).iter().map(|m| m.iccs())),
                Err(rejected) => rejected,
            },
            Query::Status { fen, moves } => match self.position(fen, moves) {
                Ok(pos) => Answer::status(pos.status(&self.rules).name()),
                Err(rejected) => rejected,
            },
            _ => Answer::unsupported("not implemented"),
        }
    }
}

fn engine() -> MyEngine {
    MyEngine {
        rules: Rules::builtin("cxa-2020").expect("the built-in edition compiles"),
    }
}

#[test]
fn my_engine_conforms() {
    Harness::new(engine())
        .edition("cxa-2020")
        .skip_feature("slow")
        .run();
}

#[test]
fn the_harness_reports_what_it_ran() {
    let results = Harness::new(engine())
        .edition("cxa-2020")
        .results()
        .unwrap();
    let count = |s: Status| results.iter().filter(|r| r.status == s).count();
    assert!(count(Status::Pass) >= 10, "{results:#?}");
    assert_eq!(
        count(Status::Fail) + count(Status::Error) + count(Status::Crash),
        0
    );
    // perft and validate_fen are not declared: skipped, never failed.
    assert!(results
        .iter()
        .filter(|r| r.area == "perft")
        .all(|r| r.status == Status::Skip));
    assert!(results.iter().all(|r| r.edition == "cxa-2020"));
}

#[test]
fn an_ignored_case_that_passes_fails_the_harness() {
    let h = Harness::new(engine())
        .edition("cxa-2020")
        .ignore(["horse-leg-blocked"]);
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.run())).unwrap_err();
    let msg = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert_contains(&msg, "LISTED BUT PASSES horse-leg-blocked");
    assert!(Harness::new(engine())
        .ignore(["no-such-case"])
        .results()
        .unwrap_err()
        .contains("no-such-case"));
}
