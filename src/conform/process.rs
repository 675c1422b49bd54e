//! A child process speaking a line protocol on stdin/stdout (an adapter or
//! a UCI engine): started through `sh` in a process group of its own, read by a thread so
//! that every read can time out, stderr's last lines kept for crash reports.
//!
//! Bounds (issue 45): a line from the program is at most [`MAX_LINE_BYTES`] (a longer one is
//! read to its end without being kept, and is a fault naming the bound); what the program
//! prints in answer to one request (or during its start) is at most [`MAX_OUTPUT_BYTES`];
//! the reader thread hands lines over through a channel of [`QUEUED_LINES`] places, so a
//! program that floods its output waits for the runner instead of filling memory. Ending
//! the process ends its whole process group: an engine started by a wrapper script without
//! `exec` goes with the wrapper.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::subject::Reply;
use crate::input::read_line_capped;

/// The longest line read from a program, in bytes (the line break not counted): the
/// protocol's own line bound ([`super::protocol::MAX_LINE_BYTES`], 16 MiB).
pub const MAX_LINE_BYTES: usize = super::protocol::MAX_LINE_BYTES;

/// The most a program may print in answer to one request, or while it starts (the
/// handshake): 64 MiB, and [`MAX_OUTPUT_LINES`] lines. An engine's `go perft` prints a
/// line per legal move, an adapter one line; past this the program is flooding, and the
/// request is a fault.
pub const MAX_OUTPUT_BYTES: usize = 64 << 20;

/// The most lines a program may print in answer to one request (see [`MAX_OUTPUT_BYTES`]).
pub const MAX_OUTPUT_LINES: usize = 100_000;

/// Lines read but not yet taken by the runner: the reader thread waits when they are all
/// taken up, so memory holds at most this many lines of [`MAX_LINE_BYTES`].
const QUEUED_LINES: usize = 8;

/// What the reader thread hands over.
enum Output {
    /// A line, without its line break.
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`]: its length when it was given up on (at once).
    TooLong(usize),
    /// Output that could not be read (not UTF-8, a read error).
    Unreadable(String),
}

/// A running child process.
pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The thread draining stderr; it ends when every writer has closed stderr.
    stderr_reader: std::thread::JoinHandle<()>,
    /// Bytes and lines read since the last line sent (or since the start).
    printed: (usize, usize),
    /// Whether the process has been waited for (its process group ended).
    reaped: bool,
}

/// The program's command line is empty or blank: a clear error instead of a shell that runs
/// nothing and exits with status 0.
fn check_command(command: &str) -> Result<(), String> {
    if command.trim().is_empty() {
        Err("the command line is empty: give the program to run (a path, or a command line such as `python3 adapter.py`)".into())
    } else {
        Ok(())
    }
}

impl Process {
    /// Starts `command` with `sh -c "exec …"`, with piped stdin, stdout and stderr, in a
    /// process group of its own.
    pub(crate) fn spawn(command: &str) -> Result<Process, String> {
        check_command(command)?;
        // `exec` so that killing the child kills the implementation, not only the shell.
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(child.id()) {
            groups::add(pid);
        }
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        std::thread::spawn(move || {
            let mut input = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                let read = match read_line_capped(&mut input, &mut buf, MAX_LINE_BYTES, false) {
                    Ok(None) => break,
                    Err(e) => Output::Unreadable(format!("unreadable output: {e}")),
                    Ok(Some(l)) if l.too_long(MAX_LINE_BYTES) => Output::TooLong(l.len),
                    Ok(Some(_)) => match String::from_utf8(std::mem::take(&mut buf)) {
                        Ok(s) => {
                            Output::Line(s.strip_suffix('\r').map(str::to_string).unwrap_or(s))
                        }
                        Err(e) => Output::Unreadable(format!(
                            "unreadable output: a line that is not UTF-8 (byte {} of the line)",
                            e.utf8_error().valid_up_to()
                        )),
                    },
                };
                // Past a line that cannot be read, nothing more is: the runner ends the program.
                let stop = !matches!(read, Output::Line(_));
                if tx.send(read).is_err() || stop {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut input = BufReader::new(stderr_pipe);
            let mut buf = Vec::new();
            // Lines past the bound are kept cut at it: only the last ten are kept at all.
            while let Ok(Some(_)) = read_line_capped(&mut input, &mut buf, 4096, true) {
                let line = String::from_utf8_lossy(&buf[..buf.len().min(4096)]).into_owned();
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == 10 {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stderr,
            stderr_reader,
            printed: (0, 0),
            reaped: false,
        })
    }

    /// Writes one line and flushes; what the program prints next counts against
    /// [`MAX_OUTPUT_BYTES`] afresh.
    pub(crate) fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        transcript_push(true, line);
        self.printed = (0, 0);
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Next non-empty line, or the fault that prevented it.
    pub(crate) fn recv(&mut self, timeout: Duration) -> Result<String, Reply> {
        loop {
            match self.lines.recv_timeout(timeout) {
                Ok(Output::Line(line)) => {
                    self.printed.0 += line.len() + 1;
                    self.printed.1 += 1;
                    if self.printed.0 > MAX_OUTPUT_BYTES || self.printed.1 > MAX_OUTPUT_LINES {
                        return Err(Reply::Garbage(format!(
                            "the program printed more than {MAX_OUTPUT_LINES} lines or {MAX_OUTPUT_BYTES} bytes in answer to one request (the bound on a program's output per request): not read further"
                        )));
                    }
                    if line.trim().is_empty() {
                        continue;
                    }
                    transcript_push(false, &line);
                    return Ok(line);
                }
                Ok(Output::TooLong(n)) => {
                    return Err(Reply::Garbage(format!(
                        "a line of more than {MAX_LINE_BYTES} bytes (the bound on one line from a program; given up on after {n}): not read"
                    )))
                }
                Ok(Output::Unreadable(m)) => return Err(Reply::Garbage(m)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Reply::Timeout(format!(
                        "no answer within {:.1} s",
                        timeout.as_secs_f64()
                    )))
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Reply::Crash(self.death())),
            }
        }
    }

    /// Describes how the process ended (waiting briefly for it).
    pub(crate) fn death(&mut self) -> String {
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let status = match status {
            Some(s) => s.to_string(),
            None => "closed its output".to_string(),
        };
        // Let the stderr thread read what the process wrote before it ended.
        for _ in 0..50 {
            if self.stderr_reader.is_finished() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let tail: Vec<String> = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect();
        if tail.is_empty() {
            status
        } else {
            format!("{status}; stderr: {}", tail.join(" | "))
        }
    }

    /// Kills the process and its process group, and reaps it.
    pub(crate) fn kill(mut self) {
        self.end();
    }

    /// Whether the process has exited, waiting up to half a second. Whatever else of its
    /// process group is still running is ended when the `Process` is dropped.
    pub(crate) fn exited_soon(&mut self) -> bool {
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    /// Ends the process group (every process the program started that did not leave it),
    /// then the process itself, and reaps it.
    fn end(&mut self) {
        if self.reaped {
            return;
        }
        #[cfg(unix)]
        {
            // The group's id is the child's pid (`process_group(0)`); the group outlives its
            // leader while a member runs, and its id is not reused meanwhile.
            if let Ok(pid) = i32::try_from(self.child.id()) {
                // SAFETY: kill(2) with a negative pid signals a process group; no memory is
                // touched.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            groups::remove(pid);
        }
        self.reaped = true;
    }
}

/// The process groups of the programs running, for [`end_programs_on_interrupt`]: a fixed
/// table of atomics, which a signal handler may read.
#[cfg(unix)]
mod groups {
    use std::sync::atomic::{AtomicI32, Ordering};

    static LIVE: [AtomicI32; 64] = [const { AtomicI32::new(0) }; 64];

    pub(super) fn add(pgid: i32) {
        for slot in &LIVE {
            if slot
                .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    pub(super) fn remove(pgid: i32) {
        for slot in &LIVE {
            let _ = slot.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }

    extern "C" fn on_signal(sig: libc::c_int) {
        for slot in &LIVE {
            let g = slot.load(Ordering::SeqCst);
            if g > 0 {
                // SAFETY: kill(2) is async-signal-safe and touches no memory.
                unsafe {
                    libc::kill(-g, libc::SIGKILL);
                }
            }
        }
        // SAFETY: signal(2) and raise(3) are async-signal-safe: the default action (the end
        // of this process) follows.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    pub(super) fn install() {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: `on_signal` only does what a signal handler may.
            unsafe {
                libc::signal(sig, on_signal as *const () as libc::sighandler_t);
            }
        }
    }
}

/// Makes an interrupt (Ctrl-C, SIGTERM, SIGHUP) of this process end the programs it runs
/// first: each runs in a process group of its own, which the terminal's Ctrl-C no longer
/// reaches. For a command line that runs programs (`xqspec conform`); a library leaves the
/// process's signals alone unless asked.
pub fn end_programs_on_interrupt() {
    #[cfg(unix)]
    groups::install();
}

impl Drop for Process {
    fn drop(&mut self) {
        self.end();
    }
}

/// One line of a transcript: sent to the program, or printed by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptLine {
    /// `true` for a line sent to the program, `false` for one it printed.
    pub sent: bool,
    /// The line, cut at 2,000 characters.
    pub text: String,
}

/// The most lines a transcript keeps (the first ones), and the most characters of each.
pub const TRANSCRIPT_LINES: usize = 400;
/// See [`TRANSCRIPT_LINES`].
pub const TRANSCRIPT_LINE_CHARS: usize = 2000;

thread_local! {
    static TRANSCRIPT: RefCell<Option<Vec<TranscriptLine>>> = const { RefCell::new(None) };
}

fn transcript_push(sent: bool, line: &str) {
    TRANSCRIPT.with(|t| {
        if let Some(lines) = t.borrow_mut().as_mut() {
            if lines.len() < TRANSCRIPT_LINES {
                let mut text: String = line.chars().take(TRANSCRIPT_LINE_CHARS).collect();
                if text.len() < line.len() {
                    text.push('…');
                }
                lines.push(TranscriptLine { sent, text });
            }
        }
    });
}

/// Runs `f`, recording every line this thread sends to a program or receives from it
/// (bounded: the first 400, each cut at 2,000 characters): what a bug report shows of the
/// exchange.
pub fn with_transcript<R>(f: impl FnOnce() -> R) -> (R, Vec<TranscriptLine>) {
    let before = TRANSCRIPT.with(|t| t.borrow_mut().replace(Vec::new()));
    let r = f();
    let lines = TRANSCRIPT.with(|t| std::mem::replace(&mut *t.borrow_mut(), before));
    (r, lines.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_within_their_bound() {
        let text = b"short\r\nexactly8\nmuch too long a line\n\nlast";
        let mut input = &text[..];
        let mut buf = Vec::new();
        let mut got = Vec::new();
        while let Some(l) = read_line_capped(&mut input, &mut buf, 8, true).unwrap() {
            got.push((
                l.len,
                l.too_long(8),
                String::from_utf8_lossy(&buf).into_owned(),
            ));
        }
        assert_eq!(
            got,
            [
                (6, false, "short\r".to_string()),
                (8, false, "exactly8".to_string()),
                (20, true, "much too ".to_string()),
                (0, false, String::new()),
                (4, false, "last".to_string()),
            ]
        );
        // Not `whole`: an over-long line is given up on at once, the rest left unread.
        let mut input = std::io::BufReader::with_capacity(4, &b"much too long a line\nnext"[..]);
        let l = read_line_capped(&mut input, &mut buf, 8, false)
            .unwrap()
            .unwrap();
        assert!(l.too_long(8) && l.len < 20, "{l:?}");
        assert_eq!(buf.len(), 9);
    }

    #[test]
    fn an_empty_command_is_refused_with_a_reason() {
        for blank in ["", "  ", "\t"] {
            let e = Process::spawn(blank).err().unwrap();
            assert!(e.starts_with("the command line is empty"), "{e}");
        }
    }
}
