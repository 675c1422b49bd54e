//! What the benches share: their settings from the environment, and the dump of every
//! result in full that shows a change made for speed changes no answer (`diff` two dumps).
#![allow(dead_code)] // each bench uses a part

use std::fs::File;
use std::io::{BufWriter, Write};

/// The value of the environment variable `name`, or `default` where it is unset or does not
/// parse.
pub fn setting<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The file that the environment variable `var` names, written one result a line; nothing
/// where the variable is unset.
pub struct Dump {
    var: &'static str,
    out: Option<BufWriter<File>>,
}

impl Dump {
    pub fn from_env(var: &'static str) -> Dump {
        let out = std::env::var(var).ok().map(|f| {
            BufWriter::new(
                File::create(f).unwrap_or_else(|e| panic!("{var}: a file to write: {e}")),
            )
        });
        Dump { var, out }
    }

    /// Writes the line `line` makes (made only where there is a file).
    pub fn line(&mut self, line: impl FnOnce() -> String) {
        if let Some(out) = self.out.as_mut() {
            writeln!(out, "{}", line()).unwrap_or_else(|e| panic!("{}: writable: {e}", self.var));
        }
    }
}
