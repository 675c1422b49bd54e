//! Hostile uses of the commands that write files (issue 45): no command writes over a file
//! it reads, writes two outputs to one file, follows a symbolic link out of the folder it
//! writes into, or removes a file it did not write; every refusal names the file and comes
//! before anything is written. Each case checks that the user's files are byte-identical
//! afterwards (and, for contrast, that the same command writes when nothing is at risk).
//! Everything happens in folders of the system's temporary folder.

use crate::assert::assert_contains;
use crate::snapshot::snapshot;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder for one test.
pub(crate) fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xqspec-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What a command did: success, stdout, stderr.
pub(crate) struct Ran {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `xqspec` with `args` in the folder `dir`.
pub(crate) fn xqspec_in<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Ran {
    let out = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    Ran {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A copy of the repository's `spec/` at `to`.
pub(crate) fn copy_spec(to: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let mut folders = vec![PathBuf::new()];
    while let Some(f) = folders.pop() {
        std::fs::create_dir_all(to.join(&f)).unwrap();
        for e in std::fs::read_dir(root.join(&f)).unwrap().flatten() {
            let rel = f.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                folders.push(rel);
            } else {
                std::fs::copy(e.path(), to.join(&rel)).unwrap();
            }
        }
    }
}

/// Runs `args` in `dir` and checks that it is refused with a message naming `names`, and
/// that every file of `dir` is as it was.
fn refused(dir: &Path, args: &[&str], names: &[&str]) -> String {
    let before = snapshot(dir);
    let r = xqspec_in(dir, args);
    assert!(!r.ok, "{args:?} was not refused: {}{}", r.stdout, r.stderr);
    for n in names {
        assert!(
            r.stderr.contains(n),
            "{args:?}: the refusal does not name {n}: {}",
            r.stderr
        );
    }
    assert_eq!(
        snapshot(dir),
        before,
        "{args:?} changed the files: {}",
        r.stderr
    );
    r.stderr
}

const GAME: &str = "[Event \"a\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n";
const GAME_B: &str = "[Event \"b\"]\n\n1. c3c4 *\n";

#[test]
fn replay_never_writes_over_a_record_it_reads() {
    let d = temp("replay-input");
    std::fs::write(d.join("two.pgn"), GAME).unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("two.pgn", d.join("link.pgn")).unwrap();
        std::fs::hard_link(d.join("two.pgn"), d.join("hard.pgn")).unwrap();
    }
    for out in ["two.pgn", "./sub/../two.pgn", "link.pgn", "hard.pgn"] {
        if !d.join(out).exists() {
            continue;
        }
        let e = refused(
            &d,
            &["replay", "--to", "wxf", "--out", out, "two.pgn"],
            &[out],
        );
        assert_contains(&e, "which this command reads");
    }
    // The record given twice into a folder, and one of two records as the output file.
    refused(
        &d,
        &[
            "replay",
            "--to",
            "wxf",
            "--out",
            "sub",
            "two.pgn",
            "./two.pgn",
        ],
        &["two outputs with one name"],
    );
    // Nothing at risk: written, and no temporary file is left beside it.
    let r = xqspec_in(
        &d,
        &["replay", "--to", "wxf", "--out", "two.wxf.pgn", "two.pgn"],
    );
    assert!(r.ok, "{}", r.stderr);
    assert!(std::fs::read_to_string(d.join("two.wxf.pgn"))
        .unwrap()
        .contains("C2.5"));
    assert_eq!(std::fs::read_to_string(d.join("two.pgn")).unwrap(), GAME);
    assert!(!snapshot(&d)
        .keys()
        .any(|k| k.to_string_lossy().contains("tmp")));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn replay_refuses_two_records_converted_to_one_name() {
    let d = temp("replay-two");
    for (dir, text) in [("a", GAME), ("b", GAME_B)] {
        std::fs::create_dir(d.join(dir)).unwrap();
        std::fs::write(d.join(dir).join("g.pgn"), text).unwrap();
    }
    let e = refused(
        &d,
        &[
            "replay", "--to", "wxf", "--out", "OUT", "a/g.pgn", "b/g.pgn",
        ],
        &[
            "OUT/g.wxf.pgn",
            "a/g.pgn",
            "b/g.pgn",
            "two outputs with one name",
        ],
    );
    assert_contains(&e, "nothing written");
    assert!(!d.join("OUT").exists());
    // Two names: both written.
    std::fs::rename(d.join("b/g.pgn"), d.join("b/h.pgn")).unwrap();
    let r = xqspec_in(
        &d,
        &[
            "replay", "--to", "wxf", "--out", "OUT", "a/g.pgn", "b/h.pgn",
        ],
    );
    assert!(r.ok, "{}", r.stderr);
    assert!(d.join("OUT/g.wxf.pgn").exists() && d.join("OUT/h.wxf.pgn").exists());
    std::fs::remove_dir_all(&d).ok();
}

#[cfg(unix)]
#[test]
fn replay_follows_no_symbolic_link_out_of_its_folder() {
    let d = temp("replay-link");
    std::fs::write(d.join("g.pgn"), GAME).unwrap();
    std::fs::write(d.join("h.pgn"), GAME_B).unwrap();
    std::fs::create_dir(d.join("OUT")).unwrap();
    std::fs::create_dir(d.join("elsewhere")).unwrap();
    std::fs::write(d.join("elsewhere/victim.txt"), "mine").unwrap();
    std::os::unix::fs::symlink(d.join("elsewhere/victim.txt"), d.join("OUT/g.wxf.pgn")).unwrap();
    refused(
        &d,
        &["replay", "--to", "wxf", "--out", "OUT", "g.pgn", "h.pgn"],
        &["OUT/g.wxf.pgn", "leads out of the folder OUT"],
    );
    // A link that leads nowhere is not followed either.
    std::fs::remove_file(d.join("OUT/g.wxf.pgn")).unwrap();
    std::os::unix::fs::symlink(d.join("nowhere/x"), d.join("OUT/g.wxf.pgn")).unwrap();
    refused(
        &d,
        &["replay", "--to", "wxf", "--out", "OUT", "g.pgn", "h.pgn"],
        &["leads nowhere"],
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn standings_ruling_and_board_never_write_over_what_they_read() {
    let d = temp("inputs");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("conformance/tournament-example.yaml"),
        d.join("t.yaml"),
    )
    .unwrap();
    std::fs::copy(
        root.join("spec/overlays/provincial-2012-open.yaml"),
        d.join("o.yaml"),
    )
    .unwrap();
    std::fs::write(d.join("g.pgn"), GAME).unwrap();
    refused(
        &d,
        &["standings", "t.yaml", "--report", "t.yaml"],
        &["t.yaml", "tournament file"],
    );
    refused(
        &d,
        &["ruling", "--pgn", "g.pgn", "--svg", "g.pgn"],
        &["g.pgn", "--svg"],
    );
    refused(
        &d,
        &[
            "board",
            "--edition",
            "cxa-2011",
            "--overlay",
            "o.yaml",
            "--svg",
            "o.yaml",
        ],
        &["o.yaml", "overlay"],
    );
    refused(
        &d,
        &[
            "standings",
            "t.yaml",
            "--overlay",
            "o.yaml",
            "--edition",
            "cxa-2011",
            "--report",
            "o.yaml",
        ],
        &["o.yaml"],
    );
    // Nothing at risk: written.
    let r = xqspec_in(&d, &["standings", "t.yaml", "--report", "t.md"]);
    assert!(r.ok && d.join("t.md").exists(), "{}", r.stderr);
    let r = xqspec_in(&d, &["board", "--svg", "b.svg"]);
    assert!(r.ok && d.join("b.svg").exists(), "{}", r.stderr);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_spec_folder_given_is_never_written_over() {
    let d = temp("spec-input");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = d.join("spec");
    let mut folders = vec![PathBuf::new()];
    while let Some(f) = folders.pop() {
        std::fs::create_dir_all(spec.join(&f)).unwrap();
        for e in std::fs::read_dir(root.join("spec").join(&f))
            .unwrap()
            .flatten()
        {
            let rel = f.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                folders.push(rel);
            } else {
                std::fs::copy(e.path(), spec.join(&rel)).unwrap();
            }
        }
    }
    refused(
        &d,
        &[
            "--spec",
            "spec",
            "board",
            "--svg",
            "spec/cxa-2020/board.yaml",
        ],
        &["spec/cxa-2020/board.yaml", "a file of the spec"],
    );
    refused(
        &d,
        &[
            "--spec",
            "spec",
            "diff",
            "cxa-2011",
            "cxa-2020",
            "--write",
            "spec/sources.yaml",
        ],
        &["spec/sources.yaml"],
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn conform_claims_its_files_before_it_runs() {
    let d = temp("conform");
    std::fs::write(d.join("known.yaml"), "[]\n").unwrap();
    refused(
        &d,
        &[
            "conform",
            "--known-failures",
            "known.yaml",
            "--report",
            "known.yaml",
        ],
        &["known.yaml", "--report"],
    );
    refused(
        &d,
        &[
            "conform",
            "--report",
            "r.md",
            "--write-known-failures",
            "r.md",
        ],
        &["r.md", "two outputs with one name"],
    );
    refused(
        &d,
        &[
            "conform",
            "--update-known-failures",
            "known.yaml",
            "--report",
            "known.yaml",
        ],
        &["known.yaml", "two outputs with one name"],
    );
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn report_write_refuses_a_folder_holding_files_it_did_not_write() {
    let d = temp("report-foreign");
    let dir = d.join("reports");
    std::fs::create_dir_all(dir.join("diagrams")).unwrap();
    // Names the reports use: the old `report --write` removed such files unasked.
    let theirs = [
        ("notes.md", "my notes"),
        ("diff-mine-yours.md", "my diff"),
        ("diagrams/mine.svg", "<svg>mine</svg>"),
    ];
    for (name, text) in theirs {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let e = refused(
        &d,
        &["report", "--write", "--dir", "reports"],
        &[
            "reports",
            "did not write",
            "notes.md",
            "diagrams/mine.svg",
            "--force",
        ],
    );
    assert_contains(&e, "nothing written");
    // Run inside another project: its `reports/` is refused alike.
    refused(&d, &["report", "--write"], &["reports", "did not write"]);
    std::fs::remove_dir_all(&d).ok();
}
