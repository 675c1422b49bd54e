//! Engines and adapters under `conform` that misbehave on purpose (issue 45): an endless
//! line, a flood during the handshake, a wrapper script that starts the engine without
//! `exec`, an engine that dies at every request, an empty command. Each is answered within
//! its bound, in a few seconds, with bounded memory and no process left behind. The fakes
//! are shell scripts in `tests/fakes/`.

use crate::assert::assert_contains;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use xqspec::runner;
use xqspec::Adapter;
use xqspec::Suite;
use xqspec::{CaseStatus as Status, RunOptions};
use xqspec::{Dialect, RankBase};

use crate::conform_faults::{answer_within, start_engine, suite};

const BIN: &str = env!("CARGO_BIN_EXE_xqspec");
const FAKES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes");

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xqspec-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What a run of the binary gave: success, stdout, stderr, its peak resident memory in
/// bytes and its wall time.
struct Measured {
    ok: bool,
    out: String,
    err: String,
    peak_bytes: u64,
    took: Duration,
}

/// Runs `xqspec ARGS` with its output in files, and reads its peak memory: the high-water
/// mark of its resident set (`VmHWM` in `/proc/PID/status`), read until it exits. (Not
/// `wait4`'s `ru_maxrss`: a child spawned from this test binary starts with the binary's
/// memory in its count.)
fn measured(args: &[&str], dir: &Path) -> Measured {
    let (out_path, err_path) = (dir.join("stdout"), dir.join("stderr"));
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(kb) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak_kb = peak_kb.max(kb);
            }
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Measured {
        ok: status.success(),
        out: std::fs::read_to_string(out_path).unwrap(),
        err: std::fs::read_to_string(err_path).unwrap(),
        peak_bytes: peak_kb * 1024,
        took: start.elapsed(),
    }
}

/// The bounds every hostile run keeps: an answer within 10 s, under 300 MB.
fn within_bounds(m: &Measured) {
    assert!(m.took < Duration::from_secs(10), "took {:?}", m.took);
    assert!(
        m.peak_bytes < 300 << 20,
        "peak memory {} MB",
        m.peak_bytes >> 20
    );
}

/// Whether process `pid` is running (a zombie is not).
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

/// Waits up to two seconds for `pid` to be gone.
fn gone(pid: i32) -> bool {
    let end = Instant::now() + Duration::from_secs(2);
    while Instant::now() < end {
        if !running(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// `conform --uci ENGINE` on one case (perft-start-depth-1 under cxa-2020) with this time
/// limit, JSON lines out.
fn one_case<'a>(engine: &'a str, timeout: &'a str) -> [&'a str; 11] {
    [
        "conform",
        "--uci",
        engine,
        "--run",
        "perft-start-depth-1",
        "--edition",
        "cxa-2020",
        "--timeout",
        timeout,
        "--json",
        "--quiet",
    ]
}

fn case_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "case")
        .collect()
}

#[test]
fn an_endless_line_after_go_is_an_error_naming_the_bound() {
    let dir = scratch("endless");
    let engine = format!("env HOSTILE=endless sh {FAKES}/hostile-engine.sh");
    let m = measured(&one_case(&engine, "8"), &dir);
    within_bounds(&m);
    assert!(!m.ok);
    let cases = case_lines(&m.out);
    assert_eq!(cases.len(), 1, "{}", m.out);
    assert_eq!(cases[0]["status"], "error", "{}", m.out);
    let detail = cases[0]["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("a line of more than 16777216 bytes"),
        "{detail}"
    );
    assert_contains(detail, "the bound on one line from a program");
}

#[test]
fn a_flood_during_the_handshake_is_refused_within_its_bound() {
    let dir = scratch("flood");
    let engine = format!("env HOSTILE=flood sh {FAKES}/hostile-engine.sh");
    let m = measured(
        &[
            "conform",
            "--uci",
            &engine,
            "--run",
            "perft-start-depth-1",
            "--quiet",
        ],
        &dir,
    );
    within_bounds(&m);
    assert!(!m.ok);
    assert_contains(
        &m.err,
        "UCI set-up failed: the program printed more than 100000 lines",
    );
}

#[test]
fn an_engine_behind_a_wrapper_script_is_ended_with_the_run() {
    let (dir, pid_file, engine) = fake_engine(
        "wrapper",
        "HOSTILE=hang HOSTILE_PID",
        "pid",
        "wrapper-no-exec.sh",
    );
    // Through the command line: the engine sleeps through `go`, the case times out, the
    // engine is ended with its wrapper.
    let m = measured(&one_case(&engine, "1"), &dir);
    within_bounds(&m);
    let pid = pid_in(&pid_file);
    assert!(
        gone(pid),
        "the engine {pid} started by the wrapper is still running"
    );
    // Through the library: a run whose last case leaves the engine asleep; stopping the
    // subject (the end of the run) ends the engine too, though `quit` is never read.
    let _ = std::fs::remove_file(&pid_file);
    let mut e = crate::conform_faults::engine(&engine, Dialect::Uci, RankBase::Zero);
    let pid = pid_in(&pid_file);
    assert!(running(pid));
    runner::run(
        &perft_suite(&["p-1"]),
        &mut e,
        &answer_within(Duration::from_millis(300)),
        &mut |_| {},
    )
    .unwrap();
    let pid = pid_in(&pid_file);
    assert!(gone(pid), "the engine {pid} outlived the run");
}

/// A fake engine with a scratch folder `name` of its own: `sh tests/fakes/{script}` under
/// `env {vars}={file}`, where `file` (in that folder) is where the fake writes (its process
/// id, its starts): the folder, that file and the command line.
fn fake_engine(name: &str, vars: &str, file: &str, script: &str) -> (PathBuf, PathBuf, String) {
    let dir = scratch(name);
    let file = dir.join(file);
    let engine = format!("env {vars}={} sh {FAKES}/{script}", file.display());
    (dir, file, engine)
}

/// Perft cases expecting 3 nodes with these ids, and the real vocabularies.
fn perft_suite(ids: &[&str]) -> Suite {
    suite(ids, "perft", "{nodes: 3}")
}

/// The process id an engine wrote to `file`.
fn pid_in(file: &Path) -> i32 {
    std::fs::read_to_string(file)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn an_engine_that_dies_at_every_request_is_not_restarted_once_per_case() {
    let (_, starts, engine) = fake_engine(
        "dies",
        "HOSTILE=die-on-go HOSTILE_STARTS",
        "starts",
        "hostile-engine.sh",
    );
    let ids: Vec<String> = (1..=40).map(|i| format!("p-{i}")).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut e = crate::conform_faults::engine(&engine, Dialect::Uci, RankBase::Zero);
    let t = Instant::now();
    let run = runner::run(
        &perft_suite(&ids),
        &mut e,
        &RunOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let stall = run.stall.expect("the run stopped");
    assert_eq!(stall.after(), runner::FAULTS_AFTER);
    assert_eq!(stall.unasked, 40 - runner::FAULTS_AFTER);
    assert!(
        stall
            .reason()
            .starts_with("each of the last 20 requests ended the implementation"),
        "{}",
        stall.reason()
    );
    let statuses: Vec<Status> = run.results.iter().map(|r| r.status).collect();
    assert!(statuses[..runner::FAULTS_AFTER]
        .iter()
        .all(|s| *s == Status::Crash));
    assert!(statuses[runner::FAULTS_AFTER..]
        .iter()
        .all(|s| *s == Status::NotAsked));
    assert_contains(&run.results[0].detail, "hostile: dying on go");
    let started = std::fs::read_to_string(&starts).unwrap().lines().count();
    assert_eq!(
        started,
        runner::FAULTS_AFTER,
        "one start per case asked, none after the stop"
    );
}

#[test]
fn an_empty_command_is_refused_naming_the_option() {
    let dir = scratch("empty");
    for (flag, cmd) in [("--ucci", ""), ("--uci", "  "), ("--adapter", "")] {
        let m = measured(&["conform", flag, cmd, "--quiet"], &dir);
        within_bounds(&m);
        assert!(!m.ok);
        assert!(
            m.err
                .contains(&format!("{flag} is given an empty command line")),
            "{flag}: {}",
            m.err
        );
    }
    let e = start_engine("", Dialect::Ucci, RankBase::Zero)
        .err()
        .unwrap();
    assert_contains(&e, "the command line is empty");
    let e = Adapter::start(" ", Duration::from_secs(5), Duration::from_secs(5))
        .err()
        .unwrap();
    assert_contains(&e, "the command line is empty");
}

#[test]
fn an_adapter_s_endless_line_or_flood_costs_its_case_only() {
    let dir = scratch("adapter");
    let m = measured(
        &[
            "conform",
            "--adapter",
            &format!("sh {FAKES}/faulty-adapter.sh"),
            "--cases",
            &fake_cases(&dir, &["endless-1", "flood-1", "ok-1"]),
            "--timeout",
            "8",
            "--json",
            "--quiet",
        ],
        &dir,
    );
    within_bounds(&m);
    let cases = case_lines(&m.out);
    let got: Vec<(&str, &str)> = cases
        .iter()
        .map(|c| (c["id"].as_str().unwrap(), c["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            ("endless-1", "error"),
            ("flood-1", "error"),
            ("ok-1", "pass")
        ],
        "{}",
        m.out
    );
    assert!(
        cases[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("a line of more than 16777216 bytes"),
        "{}",
        cases[0]
    );
    assert!(
        cases[1]["detail"]
            .as_str()
            .unwrap()
            .starts_with("the program printed more than 100000 lines"),
        "{}",
        cases[1]
    );
}

/// A case folder under `dir` with perft cases (1 node, cxa-2020) of these ids; its path.
fn fake_cases(dir: &Path, ids: &[&str]) -> String {
    let root = dir.join("cases");
    std::fs::create_dir_all(root.join("fake")).unwrap();
    for n in ["vocabulary.yaml", "features.yaml"] {
        std::fs::copy(
            format!("{}/conformance/{n}", env!("CARGO_MANIFEST_DIR")),
            root.join(n),
        )
        .unwrap();
    }
    for id in ids {
        std::fs::write(
            root.join(format!("fake/{id}.yaml")),
            format!("id: {id}\ndescription: fake\nclauses: [movement.horse]\neditions: [cxa-2020]\nquery: perft\ninput: {{fen: x, depth: 1}}\nexpect: {{nodes: 1}}\n"),
        )
        .unwrap();
    }
    root.display().to_string()
}

/// Ctrl-C (SIGINT) of `xqspec conform` ends the engine it runs first: the engine is in a
/// process group of its own, which the terminal's Ctrl-C does not reach.
#[test]
fn an_interrupted_run_ends_its_engine() {
    let (_, pid_file, engine) = fake_engine(
        "interrupt",
        "HOSTILE=hang HOSTILE_PID",
        "pid",
        "wrapper-no-exec.sh",
    );
    let mut run = Command::new(BIN)
        .args(one_case(&engine, "30"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(5);
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
        {
            break pid;
        }
        assert!(Instant::now() < end, "the engine did not start");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Asleep in `go` by now.
    std::thread::sleep(Duration::from_millis(500));
    assert!(running(pid));
    // SAFETY: a signal to our own child.
    unsafe {
        libc::kill(run.id() as i32, libc::SIGINT);
    }
    let status = run.wait().unwrap();
    assert!(!status.success());
    assert!(gone(pid), "the engine {pid} outlived the interrupted run");
}
