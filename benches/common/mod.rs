//! What the benches share: their settings from the environment, and the dump of every
//! result in full that shows a change made for speed changes no answer (`diff` two dumps).
#![allow(dead_code)] // each bench uses a part

use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::Instant;

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

/// Times `f` on each of `n` items, over the whole list `passes` times (at least once): the
/// results of the first pass, and each item's best time in milliseconds. The work is the same
/// every time (nothing is kept between runs), so the best run is its cost; a shared machine's
/// noise only ever adds to it, and by passes rather than runs back to back a stretch of it
/// (seconds long) spoils one run of an item, not all of them.
pub fn best_times<T>(n: usize, passes: usize, mut f: impl FnMut(usize) -> T) -> (Vec<T>, Vec<f64>) {
    let mut first = Vec::with_capacity(n);
    let mut best = vec![f64::MAX; n];
    for pass in 0..passes.max(1) {
        for (i, b) in best.iter_mut().enumerate() {
            let t = Instant::now();
            let r = f(i);
            *b = b.min(t.elapsed().as_secs_f64() * 1e3);
            if pass == 0 {
                first.push(r);
            }
        }
    }
    (first, best)
}
