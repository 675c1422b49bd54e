//! The runner survives faulty implementations: a crash, a hang, garbage
//! output or a wrong id costs only the case it happened on. The fakes are
//! small shell scripts in `tests/fakes/`.

use crate::assert::assert_contains;
use std::time::Duration;

use xqspec::runner;
use xqspec::Suite;
use xqspec::{Adapter, Subject};
use xqspec::{CaseStatus as Status, KnownFailures, RunOptions, Summary};
use xqspec::{Dialect, Engine, RankBase};

const FAKES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes");

/// The real vocabularies, as suite files.
fn vocabulary_files() -> Vec<(String, String)> {
    ["vocabulary.yaml", "features.yaml"]
        .iter()
        .map(|n| {
            (
                n.to_string(),
                std::fs::read_to_string(format!("{}/conformance/{n}", env!("CARGO_MANIFEST_DIR")))
                    .unwrap(),
            )
        })
        .collect()
}

/// A fake case file of the suite: `id` asks `query` of `input`, expecting `expect`.
fn case_file(id: &str, query: &str, input: &str, expect: &str) -> (String, String) {
    (
        format!("fake/{id}.yaml"),
        format!("id: {id}\ndescription: fake\nclauses: [movement.horse]\neditions: [cxa-2020]\nquery: {query}\ninput: {input}\nexpect: {expect}\n"),
    )
}

/// The suite of these fake cases plus the real vocabularies; it has no problems.
fn suite_of(cases: impl IntoIterator<Item = (String, String)>) -> Suite {
    let mut files = vocabulary_files();
    files.extend(cases);
    let s = Suite::from_files(files);
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    s
}

/// A suite of cases with the given ids asking `query` (perft at depth 1, or of a position)
/// and expecting `expect`, plus the real vocabularies.
pub(crate) fn suite(ids: &[&str], query: &str, expect: &str) -> Suite {
    let input = if query == "perft" {
        "{fen: x, depth: 1}"
    } else {
        "{fen: x}"
    };
    suite_of(ids.iter().map(|id| case_file(id, query, input, expect)))
}

/// The fake adapter `tests/fakes/faulty-adapter.sh`, given `answer` seconds an answer.
fn faulty_adapter(answer: Duration) -> Adapter {
    faulty_adapter_after("", answer)
}

/// The fake adapter run after `prefix` (`env` and variables, with a space), given `answer`
/// seconds an answer.
fn faulty_adapter_after(prefix: &str, answer: Duration) -> Adapter {
    let cmd = format!("{prefix}sh {FAKES}/faulty-adapter.sh");
    Adapter::start(&cmd, Duration::from_secs(5), answer).unwrap()
}

/// Starts an engine speaking `dialect` by `cmd`, ruling under cxa-2020: the engine or why not.
pub(crate) fn start_engine(cmd: &str, dialect: Dialect, ranks: RankBase) -> Result<Engine, String> {
    Engine::start(
        cmd,
        dialect,
        ranks,
        vec!["cxa-2020".into()],
        Duration::from_secs(5),
    )
}

/// An engine speaking `dialect`, started by `cmd`, ruling under cxa-2020.
pub(crate) fn engine(cmd: &str, dialect: Dialect, ranks: RankBase) -> Engine {
    start_engine(cmd, dialect, ranks).unwrap()
}

/// The default run options, with `timeout` allowed for each answer.
pub(crate) fn answer_within(timeout: Duration) -> RunOptions {
    RunOptions {
        timeout,
        ..RunOptions::default()
    }
}

/// The fake UCI engine that prints nothing after the handshake.
fn silent_uci_engine() -> Engine {
    engine(
        &format!("env FAKE_UCI_SILENT=1 sh {FAKES}/uci-engine.sh"),
        Dialect::Uci,
        RankBase::Zero,
    )
}

/// The results of running `s` on `subject`.
pub(crate) fn results(
    s: &Suite,
    subject: &mut dyn Subject,
    opts: &RunOptions,
) -> Vec<runner::CaseResult> {
    runner::run(s, subject, opts, &mut |_| {}).unwrap().results
}

/// The results of running `s` on the faulty adapter with these known failures (YAML).
fn known_results(s: &Suite, known: &str) -> Vec<runner::CaseResult> {
    let opts = RunOptions {
        known: KnownFailures::parse("known.yaml", known, s).unwrap(),
        ..RunOptions::default()
    };
    results(s, &mut faulty_adapter(Duration::from_secs(10)), &opts)
}

/// The located errors of a known-failures file `known.yaml` with this text, as printed.
fn known_failure_errors(text: &str, s: &Suite) -> Vec<String> {
    KnownFailures::parse("known.yaml", text, s)
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect()
}

fn statuses(results: &[runner::CaseResult]) -> Vec<(String, Status)> {
    results.iter().map(|r| (r.id.clone(), r.status)).collect()
}

/// The fake adapter with the variables `vars` (each followed by a space), given 2 s an
/// answer, counting its starts in a fresh file named by `tag`: that file and the adapter.
fn counted_faulty_adapter(tag: &str, vars: &str) -> (std::path::PathBuf, Adapter) {
    let starts = std::env::temp_dir().join(format!("xqspec-fake-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_file(&starts);
    let prefix = format!("env FAKE_STARTS={} {vars}", starts.display());
    let adapter = faulty_adapter_after(&prefix, Duration::from_secs(2));
    (starts, adapter)
}

#[test]
fn each_fault_costs_only_its_own_case() {
    let ids = [
        "crash-1",
        "garbage-1",
        "hang-1",
        "ok-1",
        "ok-2",
        "reject-1",
        "unsup-1",
        "wrongid-1",
        "zz-ok",
    ];
    let s = suite(&ids, "perft", "{nodes: 1}");
    let (starts, mut adapter) = counted_faulty_adapter("starts", "");
    assert_eq!(adapter.about().name(), "faulty");
    let opts = answer_within(Duration::from_secs(2));
    let results = results(&s, &mut adapter, &opts);
    use Status::*;
    let want: Vec<(String, Status)> = [
        ("crash-1", Crash),
        ("garbage-1", Error),
        ("hang-1", Timeout),
        ("ok-1", Pass),
        ("ok-2", Pass),
        ("reject-1", Fail),
        ("unsup-1", Skip),
        ("wrongid-1", Error),
        ("zz-ok", Pass),
    ]
    .iter()
    .map(|(i, s)| (i.to_string(), *s))
    .collect();
    assert_eq!(statuses(&results), want);
    // The crash report carries the exit status and the implementation's stderr.
    assert_contains(&results[0].detail, "exit status: 3");
    assert_contains(&results[0].detail, "fake: crashing on crash-1");
    assert_contains(
        &results[7].detail,
        "answered id \"wrongid-1@cxa-2020-other\"",
    );
    assert_eq!(
        results[5].detail,
        "expected {\"nodes\":1}, got reject fen.syntax (fake)"
    );
    // One start, then one restart after each of crash, garbage, hang and wrong id.
    assert_eq!(adapter.starts, 5);
    assert_eq!(std::fs::read_to_string(&starts).unwrap().lines().count(), 5);
    let _ = std::fs::remove_file(&starts);
    let sum = Summary::of(&results);
    assert_eq!(
        sum.line(),
        "3 passed, 5 failed, 0 known failures, 1 skipped"
    );
}

#[test]
fn restarts_stop_after_three_failed_starts() {
    let s = suite(
        &["crash-1", "ok-1", "ok-2", "ok-3", "ok-4"],
        "perft",
        "{nodes: 1}",
    );
    let (starts, mut adapter) = counted_faulty_adapter("once", "FAKE_START_ONCE=1 ");
    let results = results(&s, &mut adapter, &RunOptions::default());
    let details: Vec<(&str, Status, &str)> = results
        .iter()
        .map(|r| (r.id.as_str(), r.status, r.detail.as_str()))
        .collect();
    assert!(
        details.iter().all(|(_, s, _)| *s == Status::Crash),
        "{details:#?}"
    );
    assert!(
        details[1]
            .2
            .starts_with("restart failed: exited during the handshake: exit status: 4"),
        "{details:#?}"
    );
    assert_eq!(details[4].2, "not restarted after 3 failed starts");
    assert_eq!(
        adapter.starts, 4,
        "the first start and three failed restarts"
    );
    let _ = std::fs::remove_file(&starts);
}

#[test]
fn known_failures_are_kept_true() {
    let s = suite(&["ok-1", "reject-1", "ok-2"], "perft", "{nodes: 1}");
    let results = known_results(
        &s,
        "- {id: reject-1, reason: we reject too eagerly, answer: {reject: fen.syntax}}\n- {id: ok-2, reason: used to fail, answer: {nodes: 2}}\n",
    );
    let sum = Summary::of(&results);
    assert_eq!((sum.known_failures, sum.unexpected_passes), (1, 1));
    assert_eq!(
        sum.line(),
        "1 passed, 1 failed, 1 known failures, 0 skipped"
    );
    assert!(!sum.ok(), "a listed case that passes fails the run");
    assert_problem_line(&results, "LISTED BUT PASSES ok-2");

    let bad = known_failure_errors("- {id: nope, reason: x, answer: {nodes: 2}}\n- {id: ok-1, reason: ' ', answer: {nodes: 2}}\n", &s);
    assert_eq!(
        bad,
        vec![
            "known.yaml:1:4: entry 1 (`nope`): no case has this id",
            "known.yaml:2:14: entry 2 (`ok-1`): a known failure needs a reason"
        ]
    );
}

/// One of the problem lines of `results` (as the runner prints them) starts with `start`.
fn assert_problem_line(results: &[runner::CaseResult], start: &str) {
    let lines = runner::problem_lines(results, true);
    assert!(lines.iter().any(|l| l.starts_with(start)), "{lines:?}");
}

/// A listed case must fail with the entry's `answer:`: the same wrong answer (or fault) is a
/// known failure, another one fails the run, saying what the answer was to be and what it is.
#[test]
fn a_known_failure_that_answers_otherwise_fails_the_run() {
    // Every case expects 2 nodes; the fake answers 1, rejects reject-*, crashes on crash-*.
    let s = suite(
        &["crash-1", "ok-1", "ok-2", "reject-1"],
        "perft",
        "{nodes: 2}",
    );
    let results = known_results(
        &s,
        "- id: ok-1\n  reason: we count one node\n  answer: {nodes: 1}\n\
         - id: ok-2\n  reason: we used to count three\n  answer: {nodes: 3}\n\
         - id: reject-1\n  reason: we reject it\n  answer: {reject: fen.syntax}\n\
         - id: crash-1\n  reason: we crash on it\n  answer: {fault: crash}\n",
    );
    let tallies: Vec<(&str, runner::Tally)> =
        results.iter().map(|r| (r.id.as_str(), r.tally())).collect();
    assert_eq!(
        tallies,
        [
            ("crash-1", runner::Tally::KnownFailure),
            ("ok-1", runner::Tally::KnownFailure),
            ("ok-2", runner::Tally::ChangedKnownFailure),
            ("reject-1", runner::Tally::KnownFailure),
        ]
    );
    let sum = Summary::of(&results);
    assert_eq!(
        (sum.known_failures, sum.changed_known_failures, sum.failed),
        (3, 1, 1)
    );
    assert!(!sum.ok(), "a known failure that changed fails the run");
    assert_eq!(
        results[2].known_changed.as_deref(),
        Some("the known failure changed: listed as answering {\"nodes\":3}; now: {\"nodes\":1} (expected nodes 3, got 1)")
    );
    assert_problem_line(&results, "KNOWN FAILURE CHANGED ok-2 [cxa-2020]");
    // What --write-known-failures writes for these results: the answers given.
    let written = runner::known_failures_yaml(&results);
    for line in [
        "  answer: {fault: crash}\n",
        "  answer: {nodes: 1}\n",
        "  answer: {reject: fen.syntax}\n",
    ] {
        assert_contains(&written, line);
    }
    assert!(
        KnownFailures::parse("written.yaml", &written, &s).is_ok(),
        "{written}"
    );
}

#[test]
fn a_known_failure_without_its_answer_is_a_located_error() {
    let s = suite(&["ok-1", "ok-2"], "perft", "{nodes: 2}");
    let bad = known_failure_errors(
        "# header\n- id: ok-1\n  reason: fine\n  answer: {nodes: 1}\n- id: ok-2\n  reason: no answer\n\
         - id: ok-1\n  edition: cxa-2020\n  reason: the right answer is not a known failure\n  answer: {nodes: 2}\n\
         - id: ok-2\n  reason: wrong field\n  answer: {status: check}\n",
        &s,
    );
    assert_eq!(
        bad,
        vec![
            "known.yaml:5:1: entry 2 (`ok-2`): a known failure needs an `answer:`: what is answered instead of the case's `expect`, in the same shape (`--write-known-failures FILE` writes it)",
            "known.yaml:10:3: entry 3 (`ok-1`): the answer is what the case expects under cxa-2020; give the wrong answer it is known to give instead",
            "known.yaml:13:3: entry 4 (`ok-2`): `perft` answers with `nodes`, not `status`",
        ]
    );
}

#[test]
fn an_implementation_that_cannot_start_is_reported_not_hung() {
    let err = Adapter::start(
        &format!("sh {FAKES}/does-not-exist.sh"),
        Duration::from_secs(5),
        Duration::from_secs(5),
    )
    .err()
    .unwrap();
    assert_contains(&err, "exited during the handshake");
    let err = Adapter::start(
        "sleep 5",
        Duration::from_millis(300),
        Duration::from_secs(1),
    )
    .err()
    .unwrap();
    assert_contains(&err, "no hello reply");
}

#[test]
fn selection_by_glob_feature_and_edition() {
    let s = suite(&["ok-1", "ok-2", "crash-1"], "perft", "{nodes: 1}");
    let ids = |o: RunOptions| -> Vec<String> {
        runner::select(&s, &o)
            .unwrap()
            .iter()
            .map(|(c, _)| c.id.clone())
            .collect()
    };
    assert_eq!(
        ids(RunOptions {
            run: vec!["ok-*".into()],
            ..Default::default()
        }),
        ["ok-1", "ok-2"]
    );
    assert_eq!(
        ids(RunOptions {
            skip: vec!["fake/ok-1".into()],
            ..Default::default()
        }),
        ["crash-1", "ok-2"]
    );
    assert!(ids(RunOptions {
        editions: vec!["cxa-1999".into()],
        ..Default::default()
    })
    .is_empty());
    assert!(runner::select(
        &s,
        &RunOptions {
            run: vec!["[".into()],
            ..Default::default()
        }
    )
    .is_err());
}

#[test]
fn uci_engine_answers_perft_and_legal_moves_in_both_rank_schemes() {
    for fairy in [false, true] {
        let moves = suite(&["moves-1"], "legal_moves", "{moves: [a0a1, e0e1, i9i8]}");
        let perft = suite(&["perft-1"], "perft", "{nodes: 3}");
        let cmd = format!(
            "env FAKE_UCI_FAIRY={} sh {FAKES}/uci-engine.sh",
            u8::from(fairy)
        );
        let mut e = engine(&cmd, Dialect::Uci, RankBase::Detect);
        assert_eq!(e.offset(), u8::from(fairy));
        assert_eq!(
            e.about().name(),
            if fairy { "FakeFairy" } else { "FakePika" }
        );
        let opts = RunOptions::default();
        for s in [&moves, &perft] {
            let r = results(s, &mut e, &opts);
            assert_eq!(r[0].status, Status::Pass, "fairy={fairy}: {r:?}");
        }
    }
}

#[test]
fn uci_engine_skips_what_it_cannot_answer_and_survives_a_hang() {
    let s = suite_of([
        case_file("a-status", "status", "{fen: x}", "{status: check}"),
        case_file(
            "b-reject",
            "legal_moves",
            "{fen: x, moves: [a0a9]}",
            "{reject: move.illegal}",
        ),
        case_file(
            "c-hang",
            "perft",
            "{fen: x, moves: [a0a1], depth: 2}",
            "{nodes: 42}",
        ),
        case_file("d-deep", "perft", "{fen: x, depth: 2}", "{nodes: 42}"),
    ]);
    let mut e = engine(
        &format!("sh {FAKES}/uci-engine.sh"),
        Dialect::Uci,
        RankBase::Zero,
    );
    let opts = answer_within(Duration::from_secs(2));
    let r = results(&s, &mut e, &opts);
    assert_eq!(
        statuses(&r).into_iter().map(|x| x.1).collect::<Vec<_>>(),
        [Status::Skip, Status::Skip, Status::Timeout, Status::Pass]
    );
    assert_eq!(e.starts, 2);
}

#[test]
fn ucci_engine_lists_legal_moves_with_banmoves_and_counts_perft() {
    let ucci = |deaf: bool| {
        engine(
            &format!(
                "env FAKE_UCCI_DEAF={} sh {FAKES}/ucci-engine.sh",
                u8::from(deaf)
            ),
            Dialect::Ucci,
            RankBase::One, // ignored: UCCI numbers ranks 0-9
        )
    };
    let mut e = ucci(false);
    assert_eq!((e.about().name(), e.about().version()), ("FakeEye", "3.3"));
    assert_eq!(e.offset(), 0);
    let opts = RunOptions::default();
    for s in [
        suite(&["moves-1"], "legal_moves", "{moves: [a0a1, e0e1, i9i8]}"),
        suite(&["perft-1"], "perft", "{nodes: 3}"),
    ] {
        let r = results(&s, &mut e, &opts);
        assert_eq!(r[0].status, Status::Pass, "{r:?}");
    }
    // depth 2: three moves, two replies each
    let deep = suite_of([case_file(
        "perft-2",
        "perft",
        "{fen: x, depth: 2}",
        "{nodes: 6}",
    )]);
    let r = results(&deep, &mut e, &opts);
    assert_eq!(r[0].status, Status::Pass, "{r:?}");
    // an engine that plays a banned move is caught, not listed forever
    let mut deaf = ucci(true);
    let s = suite(&["moves-1"], "legal_moves", "{moves: [a0a1, e0e1, i9i8]}");
    let r = results(&s, &mut deaf, &opts);
    assert_eq!(r[0].status, Status::Error, "{r:?}");
    assert_contains(&r[0].detail, "does not heed banmoves");
}

#[test]
fn a_run_stops_asking_an_engine_that_answers_nothing() {
    let s = suite(
        &["p-1", "p-2", "p-3", "p-4", "p-5", "p-6", "p-7"],
        "perft",
        "{nodes: 3}",
    );
    let mut e = silent_uci_engine();
    let opts = answer_within(Duration::from_millis(300));
    let t = std::time::Instant::now();
    let run = runner::run(&s, &mut e, &opts, &mut |_| {}).unwrap();
    let r = &run.results;
    assert!(t.elapsed() < Duration::from_secs(6), "{:?}", t.elapsed());
    assert!(
        r[..runner::STALL_AFTER]
            .iter()
            .all(|r| r.status == Status::Timeout),
        "{r:?}"
    );
    // the cases after the stop were never asked: neither passed nor failed
    assert!(
        r[runner::STALL_AFTER..]
            .iter()
            .all(|r| r.status == Status::NotAsked),
        "{r:?}"
    );
    assert_eq!(
        Summary::of(r).line(),
        "0 passed, 5 failed, 0 known failures, 0 skipped, 2 not asked"
    );
    // what the engine did is said: asked `go perft 1`, it printed nothing
    assert_eq!(
        r[0].detail,
        "no answer to `go perft 1` in time: the engine printed nothing"
    );
    assert_eq!(
        e.starts,
        runner::STALL_AFTER as u32,
        "one start per case asked, none after the stall"
    );
    let stall = run.stall.as_ref().expect("the run stopped");
    assert_eq!(
        (
            stall.unasked,
            stall.last.as_str(),
            stall.printed.as_str(),
            stall.timeout
        ),
        (
            7 - runner::STALL_AFTER,
            "p-5@cxa-2020",
            r[runner::STALL_AFTER - 1].detail.as_str(),
            opts.timeout
        )
    );
    assert_eq!(
        stall.reason(),
        "the implementation answered none of the last 5 requests within 0.3 s (the last, p-5@cxa-2020: no answer to `go perft 1` in time: the engine printed nothing)"
    );
    assert!(
        r[runner::STALL_AFTER..]
            .iter()
            .all(|x| x.detail == stall.detail()),
        "{r:?}"
    );
    assert!(r[..runner::STALL_AFTER]
        .iter()
        .all(|x| x.detail != stall.detail()));
    // stalled on the last case: nothing left unasked, no stall
    let five = suite(&["p-1", "p-2", "p-3", "p-4", "p-5"], "perft", "{nodes: 3}");
    let run = runner::run(&five, &mut e, &opts, &mut |_| {}).unwrap();
    assert_eq!((run.results.len(), run.stall), (5, None));
}

#[test]
fn the_hello_tells_the_adapter_the_time_limit() {
    let s = suite(&["limit-1"], "perft", "{nodes: 2500}");
    let mut adapter = faulty_adapter(Duration::from_millis(2500));
    let r = results(&s, &mut adapter, &RunOptions::default());
    assert_eq!(r[0].status, Status::Pass, "{r:?}");
}

/// After a stop, the cases the implementation declares are not asked, and those it does not
/// declare are skipped as in any run: neither counts as failed.
#[test]
fn a_stopped_run_skips_what_is_undeclared_and_does_not_ask_the_rest() {
    let mut cases: Vec<(String, String)> = (1..=6)
        .map(|i| {
            case_file(
                &format!("p-{i}"),
                "perft",
                "{fen: x, depth: 1}",
                "{nodes: 3}",
            )
        })
        .collect();
    cases.push(case_file(
        "q-status",
        "status",
        "{fen: x}",
        "{status: check}",
    ));
    cases.push(case_file(
        "r-moves",
        "legal_moves",
        "{fen: x}",
        "{moves: [a0a1]}",
    ));
    let s = suite_of(cases);
    let mut e = silent_uci_engine();
    let opts = answer_within(Duration::from_millis(200));
    let run = runner::run(&s, &mut e, &opts, &mut |_| {}).unwrap();
    let got: Vec<(&str, Status)> = run
        .results
        .iter()
        .map(|r| (r.id.as_str(), r.status))
        .collect();
    use Status::*;
    assert_eq!(
        got,
        [
            ("p-1", Timeout),
            ("p-2", Timeout),
            ("p-3", Timeout),
            ("p-4", Timeout),
            ("p-5", Timeout),
            ("p-6", NotAsked),
            ("q-status", Skip),
            ("r-moves", NotAsked),
        ]
    );
    assert_eq!(run.stall.as_ref().map(|s| s.unasked), Some(2));
    let sum = Summary::of(&run.results);
    assert_eq!(
        (sum.failed, sum.skipped, sum.not_asked, sum.passed),
        (5, 1, 2, 0)
    );
    assert_eq!(run.results[6].detail, "query status not supported");
}
