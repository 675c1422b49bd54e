//! Hostile arguments and settings (issue 45): nothing given is silently ignored, every
//! refusal says which argument, file, item or key, and a bound is refused with its reason.

use crate::assert::assert_contains;
use std::path::Path;
use std::time::Instant;

use super::hostile_files::{copy_spec, temp, xqspec_in};

const GAME: &str = "[Event \"a\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n";

/// Runs `args` in `dir`: refused within a few seconds, the message holding every one of
/// `says`.
fn refused(dir: &Path, args: &[&str], says: &[&str]) -> String {
    let t = Instant::now();
    let r = xqspec_in(dir, args);
    assert!(!r.ok, "{args:?} was accepted: {}", r.stdout);
    for s in says {
        assert!(r.stderr.contains(s), "{args:?}: no `{s}` in: {}", r.stderr);
    }
    assert!(t.elapsed().as_secs() < 8, "{args:?} took {:?}", t.elapsed());
    r.stderr
}

#[test]
fn a_record_with_a_position_is_refused_not_played_from_the_start() {
    let d = temp("args-pgn-fen");
    std::fs::write(d.join("g.pgn"), GAME).unwrap();
    let fen = "3k5/9/9/9/9/9/9/9/R8/1R3K3 w - - 0 1";
    for cmd in ["status", "ruling"] {
        refused(
            &d,
            &[cmd, "--pgn", "g.pgn", "--fen", fen],
            &["--fen", "--pgn", "g.pgn"],
        );
        // `--fen startpos` given is given, too.
        refused(
            &d,
            &[cmd, "--pgn", "g.pgn", "--fen", "startpos"],
            &["--fen"],
        );
        refused(
            &d,
            &[cmd, "--pgn", "g.pgn", "--moves", "h2e2"],
            &["--moves", "--pgn"],
        );
    }
    // Each alone is fine.
    assert!(xqspec_in(&d, &["status", "--pgn", "g.pgn"]).ok);
    assert!(xqspec_in(&d, &["status", "--fen", fen, "--moves", "a1a8"]).ok);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn threads_are_bounded_with_the_reason() {
    let d = temp("args-threads");
    std::fs::write(d.join("g.pgn"), GAME).unwrap();
    let most = xqspec::max_threads().to_string();
    for cmd in ["replay", "adjudicate"] {
        let e = refused(
            &d,
            &[cmd, "--threads", "3000", "g.pgn"],
            &["--threads", &most, "per core"],
        );
        assert_contains(&e, "3000");
        refused(
            &d,
            &[cmd, "--threads", "0", "g.pgn"],
            &["--threads", "at least 1"],
        );
        assert!(xqspec_in(&d, &[cmd, "--threads", &most, "g.pgn"]).ok);
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn options_that_would_do_nothing_are_refused() {
    let d = temp("args-nothing");
    std::fs::write(d.join("g.pgn"), GAME).unwrap();
    refused(&d, &["replay", "--out", "x.pgn", "g.pgn"], &["--to"]);
    refused(
        &d,
        &["replay", "--style", "traditional", "g.pgn"],
        &["--to"],
    );
    // The global --overlay where the command takes its overlays from elsewhere.
    for cmd in [
        &["conform"][..],
        &["diff", "cxa-2011", "cxa-2020"],
        &["report"],
    ] {
        let args: Vec<&str> = ["--overlay", "o.yaml"].iter().chain(cmd).copied().collect();
        refused(&d, &args, &["--overlay o.yaml: not used by"]);
    }
    assert!(!d.join("x.pgn").exists());
    std::fs::remove_dir_all(&d).ok();
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"r\xffbakab");
    let d = temp("args-utf8");
    let run = |args: Vec<&std::ffi::OsStr>| {
        let r = xqspec_in(&d, &args);
        (r.ok, r.stderr)
    };
    let (ok, e) = run(vec!["moves".as_ref(), "--fen".as_ref(), bad]);
    assert!(
        !ok && e.contains("argument 3 (after --fen) is not UTF-8"),
        "{e}"
    );
    let (ok, e) = run(vec![
        "moves".as_ref(),
        "--moves".as_ref(),
        "h2e2".as_ref(),
        bad,
    ]);
    assert!(
        !ok && e.contains("argument 4 (after --moves) is not UTF-8"),
        "{e}"
    );
    let mut joined = b"--fen=".to_vec();
    joined.extend_from_slice(b"\xfe");
    let (ok, e) = run(vec!["moves".as_ref(), std::ffi::OsStr::from_bytes(&joined)]);
    assert!(!ok && e.contains("the value of --fen"), "{e}");
    // A path need not be UTF-8: it is read (here: it does not exist, and says so).
    let (ok, e) = run(vec![
        "replay".as_ref(),
        std::ffi::OsStr::from_bytes(b"\xff.pgn"),
    ]);
    assert!(!ok && e.contains("could not be read"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn clock_files_name_the_event_item_and_key_at_fault() {
    let d = temp("args-clock");
    std::fs::write(
        d.join("note.yaml"),
        "scheme: rapid_10m_10s\nevents:\n  - move: 1000\n  - move: 1000\n    note: 5\n",
    )
    .unwrap();
    refused(
        &d,
        &["clock", "note.yaml"],
        &["note.yaml", "event 2", "`note` is text"],
    );
    let mut many = String::from("scheme: increment\nsettings:\n  increment: 5s\n  periods:\n");
    for _ in 0..100_000 {
        many.push_str("    - {time: 10m}\n");
    }
    many.push_str("events:\n  - move: 1000\n");
    std::fs::write(d.join("many.yaml"), &many).unwrap();
    refused(
        &d,
        &["clock", "many.yaml"],
        &["many.yaml", "`periods` has 100000 items", "fix 1"],
    );
    let odd = many.replacen("    - {time: 10m}\n", "    - {time: 10m, moves: 40}\n", 1);
    std::fs::write(d.join("odd.yaml"), odd).unwrap();
    refused(&d, &["clock", "odd.yaml"], &["`periods[0].moves`"]);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_broken_spec_folder_is_blamed_for_its_true_cause() {
    let d = temp("args-spec");
    copy_spec(&d.join("a"));
    std::fs::remove_file(d.join("a/cxa-2020/movement.yaml")).unwrap();
    let e = refused(
        &d,
        &["--spec", "a", "spec", "check"],
        &["cxa-2020/movement.yaml: no such file"],
    );
    assert!(!e.contains("missing field"), "{e}");
    copy_spec(&d.join("b"));
    std::fs::write(d.join("b/cxa-2011/edition.yaml"), "# emptied\n").unwrap();
    let e = refused(
        &d,
        &["--spec", "b", "spec", "check"],
        &["cxa-2011/edition.yaml: the file is empty"],
    );
    assert!(!e.contains("has no edition.yaml"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}
