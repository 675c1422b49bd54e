//! The board command run as the binary: a closed stdout ends it quietly, and the ruling
//! command prints its verdict while it writes the sheet (the drawings themselves are checked
//! pixel by pixel in `src/tests/diagram.rs`).

use crate::assert::assert_contains;
use std::process::Command;

use crate::cli::succeeded;

#[test]
fn a_closed_stdout_ends_a_command_quietly() {
    // `xqspec board | head -c0`: the reader is gone before the SVG is printed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(["board"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn the_ruling_command_prints_its_verdict_as_it_draws_the_sheet() {
    let dir = std::env::temp_dir().join(format!("xqspec-ruling-print-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ruling.svg");
    // The README's example: the red chariot chases the unprotected cannon on every move.
    let out = succeeded(
        Command::new(env!("CARGO_BIN_EXE_xqspec"))
            .args(["ruling", "--fen", "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1"])
            .args(["--moves", "a8a7", "c7c8", "a7a8", "c8c7", "--svg"])
            .arg(&file),
    );
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_contains(&printed, "verdict: Red must change");
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).ok();
}
