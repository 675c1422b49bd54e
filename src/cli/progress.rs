//! Progress of a long command on stderr: nothing for the first few seconds; then, on a
//! terminal, one line rewritten in place; elsewhere (a log file, a pipe), a line now and
//! then. `--quiet` turns it off.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long a command runs before it shows progress.
const QUIET_FOR: Duration = Duration::from_secs(3);

/// A progress line on stderr.
pub struct Progress {
    started: Instant,
    last: Option<Instant>,
    terminal: bool,
    every: Duration,
    on: bool,
    /// Whether a line is on the terminal, to be cleared before other output.
    shown: bool,
}

impl Progress {
    /// Progress for a command started now; `on` is false for `--quiet`.
    pub fn new(on: bool) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress {
            started: Instant::now(),
            last: None,
            terminal,
            every: if terminal {
                Duration::from_millis(250)
            } else {
                Duration::from_secs(15)
            },
            on,
            shown: false,
        }
    }

    /// Progress shown only when stderr is a terminal (`replay`, `adjudicate`: their
    /// output is often a log or a pipe, where nothing is shown).
    pub fn on_terminal(on: bool) -> Progress {
        let mut p = Progress::new(on);
        p.on &= p.terminal;
        p
    }

    /// Time since the command started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Shows `line()` if it is time to.
    pub fn tick(&mut self, line: impl FnOnce() -> String) {
        if !self.on || self.started.elapsed() < QUIET_FOR {
            return;
        }
        let now = Instant::now();
        if self.last.is_some_and(|t| now - t < self.every) {
            return;
        }
        self.last = Some(now);
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[K{}", line());
            self.shown = true;
        } else {
            let _ = writeln!(err, "{}", line());
        }
        let _ = err.flush();
    }

    /// Clears the terminal's progress line.
    pub fn finish(&mut self) {
        if self.shown {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `1,204 of 3,000 files, 58,468 games, 7,120,003 moves, 8,120 games/s`.
pub fn rate_line(files_done: usize, files: usize, games: usize, moves: usize, secs: f64) -> String {
    let per_s = if secs > 0.0 { games as f64 / secs } else { 0.0 };
    format!("{files_done} of {files} files, {games} games, {moves} moves, {per_s:.0} games/s")
}
