//! Running the `xqspec` binary from the tests.

use std::process::{Command, Output};

/// Runs `cmd` to its end, which must succeed (a failure shows its stderr): its output.
pub fn succeeded(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
