//! `xqspec conform`, `serve` and `cases` end to end, through the binary.

use crate::assert::assert_contains;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use xqspec::runner;
use xqspec::Reference;
use xqspec::Suite;
use xqspec::{Adapter, InProcess};
use xqspec::{CaseStatus as Status, RunOptions};

const BIN: &str = env!("CARGO_BIN_EXE_xqspec");

fn xqspec(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `xqspec conform --uci` against the fake UCI engine (`tests/fakes/uci-engine.sh`, run
/// with `env` before it: `""` or `"env NAME=VALUE "`), then `args`.
fn conform_fake_uci(env: &str, args: &[&str]) -> (bool, String, String) {
    let engine = format!(
        "{env}sh {}/tests/fakes/uci-engine.sh",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut all = vec!["conform", "--uci", &engine];
    all.extend_from_slice(args);
    xqspec(&all)
}

fn suite() -> Suite {
    Suite::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")).unwrap()
}

#[test]
fn serve_gives_the_same_results_as_in_process() {
    let s = suite();
    let opts = RunOptions {
        skip_features: vec!["slow".into()],
        timeout: Duration::from_secs(60),
        // Cases may apply the event overlays the spec ships.
        overlays: xqspec::Spec::builtin().unwrap().overlays().to_vec(),
        // The reference's own known failures (cases whose source ruling it does not reproduce).
        known: s.reference_known_failures().unwrap(),
        ..RunOptions::default()
    };
    let mut inproc = InProcess::new(Reference::builtin().unwrap());
    let a = runner::run(&s, &mut inproc, &opts, &mut |_| {})
        .unwrap()
        .results;
    let mut adapter = Adapter::start(
        &format!("{BIN} serve"),
        Duration::from_secs(10),
        Duration::from_secs(60),
    )
    .unwrap();
    let b = runner::run(&s, &mut adapter, &opts, &mut |_| {})
        .unwrap()
        .results;
    let key = |r: &runner::CaseResult| (r.id.clone(), r.edition.clone(), r.status, r.got.clone());
    assert_eq!(
        a.iter().map(key).collect::<Vec<_>>(),
        b.iter().map(key).collect::<Vec<_>>()
    );
    assert!(a.len() > 100);
    let not_passing: Vec<_> = a
        .iter()
        .filter(|r| r.status != Status::Pass && r.known.is_none())
        .collect();
    assert!(not_passing.is_empty(), "{not_passing:#?}");
    assert_eq!(adapter.starts, 1);
}

#[test]
fn conform_prints_tables_and_the_closing_line() {
    let (ok, out, err) = xqspec(&["conform", "--skip-feature", "slow", "--edition", "cxa-2020"]);
    assert!(ok, "{out}\n{err}");
    let last = out.lines().last().unwrap();
    let n: Vec<usize> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(
        last,
        format!(
            "{} passed, 0 failed, {} known failures, {} skipped",
            n[0], n[2], n[3]
        )
    );
    assert!(n[0] > 100);
    assert_contains(&out, "movement");
    assert_contains(&out, "perft");
    assert_contains(&out, "fen");
}

/// After a clean run, the reference's known failures are one short line each (the case,
/// the edition, what it answers), not the paragraphs of their reasons, which `--verbose`
/// prints.
#[test]
fn conform_prints_known_failures_one_line_each_and_their_reasons_with_verbose() {
    let known = suite().reference_known_failures().unwrap();
    // The cases of the known failures alone: a run of a second.
    let mut args = vec!["conform", "--quiet"];
    for k in &known.entries {
        args.extend(["--run", k.id.as_str()]);
    }
    let (ok, out, err) = xqspec(&args);
    assert!(ok, "{out}\n{err}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("known failure "))
        .collect();
    let last = out.lines().last().unwrap();
    let counted: usize = last
        .split(", ")
        .find_map(|p| p.strip_suffix(" known failures"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(counted >= 1 && lines.len() == counted, "{out}");
    for l in &lines {
        assert!(l.chars().count() <= 160, "too long for one line: {l}");
        assert!(
            l.contains(" [") && l.contains("expected"),
            "says the case and what it answers: {l}"
        );
    }
    for k in &known.entries {
        assert!(
            !out.contains(k.reason()),
            "a reason without --verbose: {out}"
        );
    }
    assert_contains(&out, "--verbose prints the reasons");
    // Nothing reads as a failure: no line but the closing one speaks of failing.
    assert!(!out.contains("known fail "), "{out}");

    args.push("--verbose");
    let (ok, out, err) = xqspec(&args);
    assert!(ok, "{out}\n{err}");
    for k in &known.entries {
        let first = k
            .reason()
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            out.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(&first),
            "the reason of {} with --verbose: {out}",
            k.id
        );
    }
    assert!(!out.contains("--verbose prints the reasons"), "{out}");
}

#[test]
fn conform_json_lines_and_known_failures_file() {
    let dir = scratch_dir("cli", "", &[]);
    let known = dir.join("known.yaml");
    std::fs::write(
        &known,
        "- id: horse-leg-blocked\n  reason: pretend we fail it\n  answer: {moves: [e1d3, e1f3]}\n",
    )
    .unwrap();
    let report = dir.join("report.md");
    let (ok, out, err) = xqspec(&[
        "conform",
        "--json",
        "--run",
        "movement/horse-*",
        "--known-failures",
        known.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--edition",
        "cxa-2020",
    ]);
    assert!(!ok, "a listed case that passes fails the run");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "header");
    assert_eq!(lines[0]["protocol"], 2);
    assert_eq!(lines[0]["implementation"]["name"], "xqspec");
    let cases: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "case").collect();
    let horse_files =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/movement"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with("horse-")
            })
            .count() as u64;
    assert_eq!(cases.len() as u64, horse_files, "{out}");
    assert!(cases
        .iter()
        .all(|c| c["status"] == "pass" && c["edition"] == "cxa-2020"));
    assert_eq!(
        cases
            .iter()
            .filter(|c| c["known_failure"].is_string())
            .count(),
        1
    );
    let summary = lines.last().unwrap();
    assert_eq!(
        (
            summary["passed"].as_u64(),
            summary["failed"].as_u64(),
            summary["unexpected_passes"].as_u64()
        ),
        (Some(horse_files - 1), Some(1), Some(1))
    );
    let closing = format!(
        "{} passed, 1 failed, 0 known failures, 0 skipped",
        horse_files - 1
    );
    assert_eq!(
        err.lines().find(|l| l.contains("passed,")),
        Some(closing.as_str())
    );
    let md = std::fs::read_to_string(&report).unwrap();
    assert_contains(&md, "| movement |");
    assert_contains(&md, "`horse-leg-blocked`");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn conform_drives_a_uci_engine_and_skips_the_rest() {
    let (ok, out, _) = conform_fake_uci(
        "",
        &[
            "--edition",
            "cxa-2020",
            "--run",
            "perft-start-*",
            "--run",
            "fen-*",
            "--timeout",
            "2",
        ],
    );
    assert!(!ok, "the fake engine's perft counts are wrong");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("0 passed, "), "{out}");
    assert_contains(&out, "FAIL perft-start-depth-1 [cxa-2020]");
    assert_contains(&out, "expected nodes 44, got 3");
    // validate_fen cases are skipped, not failed
    let fen_row = out.lines().find(|l| l.contains(" fen ")).unwrap();
    let cells: Vec<&str> = fen_row.split('│').map(str::trim).collect();
    assert_eq!((cells[2], cells[3]), ("0", "0"), "{fen_row}");
    assert_ne!(cells[4], "0", "{fen_row}");
}

#[test]
fn a_silent_engine_stops_the_run_with_progress_and_what_it_saw() {
    let silent = "env FAKE_UCI_SILENT=1 ";
    // seven runs: perft-p1-depth-1 … 4, perft-start-depth-1 … 3 (each once: its answer is
    // the same under every rule set)
    let args = [
        "--run",
        "perft-p1-*",
        "--run",
        "perft-start-*",
        "--timeout",
        "1",
    ];
    let (ok, out, err) = conform_fake_uci(silent, &args);
    assert!(!ok, "{out}{err}");
    // progress after a few seconds (a plain line: stderr is not a terminal here)
    let progress = err
        .lines()
        .find(|l| l.starts_with("conform: "))
        .unwrap_or_else(|| panic!("{err}"));
    let (done, failed) = progress["conform: ".len()..]
        .split_once("/7 cases, ")
        .and_then(|(d, rest)| Some((d, rest.split_once(" failed, ")?.0)))
        .unwrap();
    assert_eq!(
        done, failed,
        "every case asked so far timed out: {progress}"
    );
    assert_contains(progress, "slowest answer 1.");
    assert_contains(progress, "(perft-");
    let stop = err.lines().last().unwrap();
    assert!(
        stop.starts_with("error: the run stopped asking, 2 cases left unasked: "),
        "{err}"
    );
    assert_contains(stop, "none of the last 5 requests within 1.0 s");
    assert_contains(stop, "the engine printed nothing");
    // quiet, and in JSON: the summary line says where the run stopped
    let mut quiet = args.to_vec();
    quiet.extend(["--quiet", "--json"]);
    let (ok, out, err) = conform_fake_uci(silent, &quiet);
    assert!(!ok);
    assert!(!err.contains("conform: "), "{err}");
    let summary: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let stopped = &summary["stopped"];
    assert_eq!(
        (
            stopped["unasked"].as_u64(),
            stopped["after"].as_u64(),
            stopped["timeout_s"].as_f64()
        ),
        (Some(2), Some(5), Some(1.0)),
        "{summary}"
    );
    assert!(
        stopped["last"]
            .as_str()
            .is_some_and(|l| l.starts_with("perft-start-depth-"))
            && stopped["printed"]
                .as_str()
                .is_some_and(|p| p.contains("the engine printed nothing")),
        "{summary}"
    );
}

#[test]
fn a_written_known_failures_file_makes_the_next_run_pass() {
    let dir = scratch_dir("known", "", &[]);
    let known = dir.join("known.yaml");
    let args = ["--run", "perft-start-*", "--edition", "cxa-2020"];
    let mut first = args.to_vec();
    first.extend(["--write-known-failures", known.to_str().unwrap()]);
    let (ok, out, _) = conform_fake_uci("", &first);
    assert!(!ok, "{out}");
    let text = std::fs::read_to_string(&known).unwrap();
    // (it runs once for every rule set: its entry names none)
    assert_contains(&text, "- id: perft-start-depth-1\n  reason: \"fail: expected nodes 44, got 3\"\n  answer: {nodes: 3}\n");
    let mut second = args.to_vec();
    second.extend(["--known-failures", known.to_str().unwrap()]);
    let (ok, out, err) = conform_fake_uci("", &second);
    assert!(ok, "{out}{err}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("0 passed, 0 failed, "),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The suite's files every temporary suite needs.
const VOCABULARIES: [&str; 2] = ["vocabulary.yaml", "features.yaml"];

/// A fresh temporary folder `xqspec-NAME-PID` with the folder `sub` (none: "") and copies
/// of these files of `conformance/` (a suite's vocabularies, for one).
fn scratch_dir(name: &str, sub: &str, files: &[&str]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xqspec-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(sub)).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    for f in files {
        std::fs::copy(root.join(f), dir.join(f)).unwrap();
    }
    dir
}

/// `xqspec cases check --cases DIR` fails, printing each of `problems`; then DIR is removed.
fn cases_check_refuses(dir: &Path, problems: &[&str]) {
    let (ok, out, _) = xqspec(&["cases", "check", "--cases", dir.to_str().unwrap()]);
    assert!(!ok);
    for p in problems {
        assert!(out.contains(p), "{p}\n{out}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A temporary suite: the real vocabularies, a case the reference fails (it expects check
/// where there is none), one it passes, and the given files.
fn temp_suite(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = scratch_dir(&format!("cli-{name}"), "check", &VOCABULARIES);
    let case = |id: &str, status: &str| {
        format!("id: {id}\ndescription: d\nclauses: [check.definition]\neditions: [cxa-2020]\nquery: status\ninput: {{fen: \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"}}\nexpect: {{status: {status}}}\n")
    };
    std::fs::write(
        dir.join("check/status-wrong.yaml"),
        case("status-wrong", "check"),
    )
    .unwrap();
    std::fs::write(
        dir.join("check/status-right.yaml"),
        case("status-right", "ongoing"),
    )
    .unwrap();
    for (path, text) in files {
        std::fs::write(dir.join(path), text).unwrap();
    }
    dir
}

const LISTED: &str =
    "# The reference's known failures.\n- id: status-wrong\n  reason: we see no check\n";

#[test]
fn a_known_failure_must_give_its_listed_answer() {
    let same = format!("{LISTED}  answer: {{status: ongoing}}\n");
    let other = format!("{LISTED}  answer: {{status: stalemate}}\n");
    let changed = r#"KNOWN FAILURE CHANGED status-wrong [cxa-2020] check/status-wrong.yaml: the known failure changed: listed as answering {"status":"stalemate"}; now: {"status":"ongoing"} (expected status "stalemate", got "ongoing")"#;
    // In process, against the suite's own reference-known-failures.yaml.
    for (name, list, passes) in [("kf-same", &same, true), ("kf-other", &other, false)] {
        let dir = temp_suite(name, &[("reference-known-failures.yaml", list)]);
        let (ok, out, err) = xqspec(&["conform", "--cases", dir.to_str().unwrap()]);
        assert_eq!(ok, passes, "{out}{err}");
        if passes {
            assert!(
                out.ends_with("1 passed, 0 failed, 1 known failures, 0 skipped\n"),
                "{out}"
            );
        } else {
            assert_contains(&out, changed);
            let hint = format!(
                "the same options with `--update-known-failures {}`",
                dir.join("reference-known-failures.yaml").display()
            );
            assert_contains(&out, &hint);
            assert!(
                out.ends_with("1 passed, 1 failed, 0 known failures, 0 skipped\n"),
                "{out}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // Through an adapter with --known-failures.
    let dir = temp_suite(
        "kf-adapter",
        &[("same.yaml", &same), ("other.yaml", &other)],
    );
    let serve = format!("{BIN} serve");
    let run = |list: &str| {
        xqspec(&[
            "conform",
            "--cases",
            dir.to_str().unwrap(),
            "--adapter",
            &serve,
            "--known-failures",
            dir.join(list).to_str().unwrap(),
        ])
    };
    let (ok, out, err) = run("same.yaml");
    assert!(ok, "{out}{err}");
    let (ok, out, _) = run("other.yaml");
    assert!(!ok && out.contains(changed), "{out}");
    // An entry without `answer:` is an error with its place, and nothing runs.
    std::fs::write(dir.join("reference-known-failures.yaml"), LISTED).unwrap();
    let (ok, out, err) = xqspec(&["conform", "--cases", dir.to_str().unwrap()]);
    assert!(!ok && out.is_empty(), "{out}");
    assert_eq!(
        err,
        "error: reference-known-failures.yaml:2:1: entry 1 (`status-wrong`): a known failure needs an `answer:`: what is answered \
         instead of the case's `expect`, in the same shape (`--write-known-failures FILE` writes it)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn update_known_failures_rewrites_the_answers_and_keeps_the_reasons() {
    let list = format!(
        "{LISTED}  answer: {{status: stalemate}}\n- id: status-right\n  reason: \"it used to fail\"\n  answer: {{status: check}}\n"
    );
    let dir = temp_suite("kf-update", &[("reference-known-failures.yaml", &list)]);
    let file = dir.join("reference-known-failures.yaml");
    let cases = dir.to_str().unwrap();
    let (ok, out, err) = xqspec(&["conform", "--cases", cases]);
    assert!(!ok, "{out}{err}");
    let (ok, out, err) = xqspec(&[
        "conform",
        "--cases",
        cases,
        "--update-known-failures",
        file.to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    assert_contains(&err, "removed status-right (cxa-2020): it passes");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "# The reference's known failures.\n- id: status-wrong\n  reason: \"we see no check\"\n  answer: {status: ongoing}\n"
    );
    let (ok, out, err) = xqspec(&["conform", "--cases", cases]);
    assert!(ok, "{out}{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cases_check_and_coverage_pass_on_the_repository() {
    let (ok, out, err) = xqspec(&["cases", "check"]);
    assert!(ok, "{out}{err}");
    assert!(out.trim_end().ends_with(", 0 problems"), "{out}");
    let (ok, out, err) = xqspec(&["cases", "coverage", "--check"]);
    assert!(ok, "{out}{err}");
    let (ok, _, err) = xqspec(&["cases", "schema", "--check"]);
    assert!(ok, "{err}");
}

#[test]
fn cases_dump_gives_one_json_line_per_case_and_edition() {
    let (ok, out, err) = xqspec(&["cases", "dump", "--edition", "cxa-2011"]);
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        suite()
            .cases
            .iter()
            .filter(|c| c.editions.iter().any(|e| e == "cxa-2011"))
            .count()
    );
    let horse = lines
        .iter()
        .find(|l| l["id"] == "horse-leg-blocked")
        .unwrap();
    assert_eq!(horse["edition"], "cxa-2011");
    assert_eq!(
        horse["input"]["moves"],
        serde_json::json!([]),
        "inputs are sent as the protocol sends them"
    );
    assert_eq!(horse["expect"]["moves"][0], "e0f0");
    assert_eq!(horse["clauses"][0], "movement.horse");
    let article = xqspec::Spec::builtin()
        .unwrap()
        .edition("cxa-2011")
        .unwrap()
        .clause("movement.horse")
        .unwrap()
        .article
        .clone();
    assert!(article.is_some());
    assert_eq!(
        horse["articles"]["movement.horse"],
        serde_json::json!(article),
        "each clause's article in the edition"
    );
}

#[test]
fn cases_check_reports_a_broken_suite() {
    let dir = scratch_dir(
        "broken",
        "movement",
        &[
            "vocabulary.yaml",
            "features.yaml",
            "exemptions.yaml",
            "retired-ids.txt",
        ],
    );
    std::fs::write(dir.join("movement/a.yaml"), "id: b\ndescription: x\nclauses: [movement.nowhere]\neditions: [cxa-2020]\nquery: status\ninput: {fen: \"4k4/9/9/9/9/9/9/9/9/3K5 w\"}\nexpect: {status: ongoing}\n").unwrap();
    cases_check_refuses(
        &dir,
        &[
            "movement/a.yaml:1:1: id `b` differs from the file name `a.yaml`",
            "movement/a.yaml:3:11: clause `movement.nowhere` does not exist in cxa-2020",
            "the FEN is not canonical; write `4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1`",
        ],
    );
}

/// The exit status of `xqspec conform`, as PROTOCOL.md §8 gives it: 0 with no failure, 1 with
/// a failed case or a listed known failure that passes, 1 when the run cannot be made, 2 for
/// a wrong command line.
#[test]
fn conform_exit_status_is_as_documented() {
    let code = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
            .status
            .code()
    };
    let listed = format!("{LISTED}  answer: {{status: ongoing}}\n");
    let dir = temp_suite(
        "exit-status",
        &[
            ("listed.yaml", &listed),
            (
                "wrong-id.yaml",
                "- id: status-right\n  reason: r\n  answer: {status: ongoing}\n",
            ),
        ],
    );
    let cases = dir.to_str().unwrap();
    let serve = format!("{BIN} serve");
    let with = |list: &str| dir.join(list).to_str().unwrap().to_string();
    let (listed, wrong_id) = (with("listed.yaml"), with("wrong-id.yaml"));
    let on_cases = |rest: &[&str]| {
        let mut args = vec!["conform", "--cases", cases];
        args.extend_from_slice(rest);
        args.iter().map(|a| a.to_string()).collect::<Vec<String>>()
    };
    let rows = [
        (
            "the failing case listed with the answer it gives: a clean run",
            on_cases(&["--adapter", &serve, "--known-failures", &listed]),
            Some(0),
        ),
        (
            "not listed: a failed case",
            on_cases(&["--adapter", &serve]),
            Some(1),
        ),
        (
            "a listed case that passes fails the run too",
            on_cases(&["--adapter", &serve, "--known-failures", &wrong_id]),
            Some(1),
        ),
        (
            "an adapter that does not start",
            on_cases(&["--adapter", "/nonexistent/adapter"]),
            Some(1),
        ),
        (
            "a wrong command line",
            vec!["conform".to_string(), "--no-such-option".to_string()],
            Some(2),
        ),
    ];
    for (what, args, want) in rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(code(&args), want, "{what}: {args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_adapters_folder_is_not_read_as_cases() {
    let dir = scratch_dir("adapters", "adapters/rust-x", &VOCABULARIES);
    std::fs::write(dir.join("adapters/rust-x/config.yaml"), "not: [a case").unwrap();
    let s = Suite::load_dir(&dir).unwrap();
    assert!(
        s.problems.is_empty() && s.cases.is_empty(),
        "{:?}",
        s.problems
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let embedded = Suite::embedded();
    assert!(!embedded.cases.is_empty());
    assert!(
        embedded.texts.keys().all(|p| !p.starts_with("adapters/")),
        "the built-in suite leaves adapters/ out"
    );
}

/// PROTOCOL.md §4 is one table listing exactly the reject kinds of `vocabulary.yaml`, in its
/// order (the vocabulary is what `cases check` and the judge hold answers to).
#[test]
fn the_protocol_lists_the_reject_kinds_of_the_vocabulary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("conformance/PROTOCOL.md")).unwrap();
    let section = doc
        .split("\n## 4. Reject kinds\n")
        .nth(1)
        .unwrap()
        .split("\n## 5.")
        .next()
        .unwrap();
    let lines: Vec<&str> = section.lines().collect();
    let rows: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("| `"))
        .collect();
    assert!(
        rows.windows(2).all(|w| w[1] == w[0] + 1),
        "the table's rows are not interrupted"
    );
    assert!(
        lines[rows[0] - 1].starts_with("|---") && lines[rows[0] - 2].starts_with("| kind |"),
        "one header"
    );
    let kinds: Vec<&str> = rows
        .iter()
        .map(|&i| lines[i][3..].split('`').next().unwrap())
        .collect();
    let vocab: serde_yaml::Value = serde_yaml::from_str(
        &std::fs::read_to_string(root.join("conformance/vocabulary.yaml")).unwrap(),
    )
    .unwrap();
    let listed: Vec<&str> = vocab["reject_kinds"]
        .as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(kinds, listed);
}

/// `cases check` asks the reference: a reject case's `fixed:` input must be accepted (else
/// the case has a second fault), and `runs: once` must be given exactly where the answers
/// agree under every rule set.
#[test]
fn cases_check_finds_a_second_fault_and_a_wrong_runs_claim() {
    // The elephant is across the river, and the generals face on the open e-file.
    let two_faults = "id: two-faults\ndescription: d\nclauses: [movement.elephant]\neditions: [cxa-2020]\nquery: validate_fen\ninput: {fen: \"4k4/9/9/9/9/2b6/9/9/9/4K4 w - - 0 1\"}\nexpect: {reject: fen.piece_placement}\nfixed: {fen: \"4k4/9/9/9/2b6/9/9/9/9/4K4 w - - 0 1\"}\norigin: authored\nbasis: rule\nnote: art. 2.2\n";
    let no_fixed = "id: no-fixed\ndescription: d\nclauses: [movement.elephant]\neditions: [cxa-2020]\nquery: validate_fen\ninput: {fen: \"4k4/9/9/9/9/2b6/9/9/9/3K5 w - - 0 1\"}\nexpect: {reject: fen.piece_placement}\norigin: authored\nbasis: rule\nnote: art. 2.2\n";
    let agree = "id: agree\ndescription: d\nclauses: [check.definition]\neditions: [cxa-2011, cxa-2020]\nquery: status\ninput: {fen: \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"}\nexpect: {status: ongoing}\norigin: authored\nbasis: rule\nnote: art. 3\n";
    let dir = temp_suite(
        "faults",
        &[
            ("check/two-faults.yaml", two_faults),
            ("check/no-fixed.yaml", no_fixed),
            ("check/agree.yaml", agree),
        ],
    );
    cases_check_refuses(
        &dir,
        &[
            "check/two-faults.yaml:8:1: cxa-2020: the input with `fixed:` is still not accepted, so the case has another fault: reject fen.opponent_in_check",
            "check/no-fixed.yaml:7:1: a case expecting a rejection gives `fixed:`",
            "check/agree.yaml:4:1: the reference answers alike under every rule set of the case (cxa-2011, cxa-2020): add `runs: once`",
        ],
    );
}

/// `--issue CASE`: one case's bug report in the program's terms, with the lines exchanged,
/// "the rules say" and the article for a rule case, and a command to reproduce it.
#[test]
fn an_issue_report_shows_the_exchange_and_the_article() {
    let (ok, out, err) = conform_fake_uci("", &["--issue", "perft-start-depth-1"]);
    assert!(!ok, "a failing case fails the command");
    assert_contains(&err, "1 failed");
    for want in [
        "### xqspec conformance: `perft-start-depth-1` fails on FakePika 2.0",
        "- position: FEN `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`",
        "- expected: `{\"nodes\":44}`",
        "- answered: `{\"nodes\":3}`",
        "- why: the rules say so (cxa-2020): art. 2.2 (`movement.general`): ",
        "; art. 2.2 (`movement.horse`): The horse",
        "→ go perft 1\n← a0a1: 1\n",
        "← Nodes searched: 3\n",
        "Reproduce: `xqspec conform --uci 'sh ",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    // A convention is not called a rule.
    let (_, out, _) = conform_fake_uci("", &["--issue", "perft-refuses-short-board"]);
    assert!(!out.contains("the rules say"), "{out}");
    let (ok, _, err) = xqspec(&["conform", "--issue", "no-such-case"]);
    assert!(
        !ok && err.contains("--issue: no case has the id `no-such-case`"),
        "{err}"
    );
}

/// `--profile engine` and `--areas` select the engine areas, without the slow perfts.
#[test]
fn the_engine_profile_runs_the_engine_areas_in_seconds() {
    let t = std::time::Instant::now();
    let (ok, out, err) = xqspec(&["conform", "--profile", "engine", "--json", "--quiet"]);
    assert!(ok, "{err}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v["type"] == "case")
        .collect();
    let areas: std::collections::BTreeSet<&str> =
        lines.iter().map(|l| l["area"].as_str().unwrap()).collect();
    assert_eq!(
        areas.into_iter().collect::<Vec<_>>(),
        ["check", "games", "movement", "perft"]
    );
    let s = suite();
    assert!(lines.iter().all(|l| {
        let c = s.case(l["id"].as_str().unwrap()).unwrap();
        !c.features.iter().any(|f| f == "slow")
    }));
    let (ok, out2, _) = xqspec(&[
        "conform",
        "--areas",
        "movement,check,perft,games",
        "--skip-feature",
        "slow",
        "--json",
        "--quiet",
    ]);
    assert!(ok);
    assert_eq!(out.lines().count(), out2.lines().count());
    let (ok, _, err) = xqspec(&["conform", "--profile", "nope"]);
    assert!(
        !ok && err.contains("unknown profile `nope` (conformance/profiles.yaml has engine)"),
        "{err}"
    );
}
