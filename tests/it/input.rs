//! Bad input files given to the command line are refused with their place (the readers
//! themselves are tested in `src/tests/input.rs`).

use crate::assert::assert_contains;

fn xqspec(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_missing_overlay_file_is_an_error_naming_it() {
    let dir = tempdir("overlay");
    let missing = dir.join("no-such-overlay.yaml");
    let m = missing.to_str().unwrap();
    for args in [
        vec!["spec", "check", "--overlay", m],
        vec!["--overlay", m, "moves", "--edition", "cxa-2020"],
    ] {
        let (ok, err) = xqspec(&args);
        assert!(!ok, "{args:?}");
        assert!(
            err.contains(&format!("{m}: overlay: cannot read: ")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn an_empty_spec_folder_is_an_error() {
    let dir = tempdir("empty-spec");
    let (ok, err) = xqspec(&["--spec", dir.to_str().unwrap(), "spec", "check"]);
    assert!(!ok, "{err}");
    assert_contains(&err, &format!("{}: no edition here", dir.display()));
    // A folder with files but no edition.yaml is refused too.
    std::fs::create_dir_all(dir.join("x")).unwrap();
    std::fs::write(dir.join("x/board.yaml"), "clauses: []\n").unwrap();
    let (ok, err) = xqspec(&["--spec", dir.to_str().unwrap(), "spec", "check"]);
    assert!(!ok && err.contains("no edition"), "{err}");
}

/// `xqspec outcome` on an events file with this text: the file, success and stderr.
fn outcome(name: &str, text: &str) -> (std::path::PathBuf, bool, String) {
    let p = tempdir(name).join("game.yaml");
    std::fs::write(&p, text).unwrap();
    let (ok, err) = xqspec(&["outcome", p.to_str().unwrap()]);
    (p, ok, err)
}

#[test]
fn duplicate_keys_inside_an_outcome_event_are_refused_with_the_event() {
    let (p, ok, err) = outcome(
        "outcome-flow",
        "events:\n  - move: h2e2\n  - {resign: red, resign: black}\n",
    );
    assert!(!ok, "{err}");
    assert_contains(
        &err,
        &format!("{}:3:19: events[1]: duplicate key `resign`", p.display()),
    );
    // Block style, one level deeper.
    let (_, ok, err) = outcome(
        "outcome-block",
        "events:\n  - touch:\n      side: red\n      side: black\n",
    );
    assert!(
        !ok && err.contains(":4:7: events[0].touch: duplicate key `side`"),
        "{err}"
    );
}

#[test]
fn an_unknown_rule_set_names_where_it_was_given() {
    let (p, ok, err) = outcome("ruleset", "edition: cxa-3000\nevents: []\n");
    assert!(!ok, "{err}");
    assert_contains(
        &err,
        &format!("{}: edition: unknown rule set `cxa-3000`", p.display()),
    );
    assert!(!err.contains(":0:0"), "{err}");
    // Given on the command line, the option is the place.
    for args in [
        &["moves", "--edition", "cxa-3000"][..],
        &["touch", "--edition", "cxa-3000", "--touch", "e3"],
    ] {
        let (ok, err) = xqspec(args);
        assert!(
            !ok && err.contains("--edition: unknown rule set `cxa-3000` (known: axf, cxa-1999"),
            "{args:?}: {err}"
        );
    }
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("xqspec-input-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
