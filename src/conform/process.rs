//! A child process speaking a line protocol on stdin/stdout (an adapter or
//! a UCI engine): started through `sh`, read by a thread so that every read
//! can time out, stderr's last lines kept for crash reports.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::subject::Reply;

/// A running child process.
pub(crate) struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The thread draining stderr; it ends when every writer has closed stderr.
    stderr_reader: std::thread::JoinHandle<()>,
}

impl Process {
    /// Starts `command` with `sh -c "exec …"`, with piped stdin, stdout and stderr.
    pub(crate) fn spawn(command: &str) -> Result<Process, String> {
        // `exec` so that killing the child kills the implementation, not only the shell.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let stop = line.is_err();
                if tx.send(line).is_err() || stop {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
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
        })
    }

    /// Writes one line and flushes.
    pub(crate) fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// Next non-empty line, or the fault that prevented it.
    pub(crate) fn recv(&mut self, timeout: Duration) -> Result<String, Reply> {
        loop {
            match self.lines.recv_timeout(timeout) {
                Ok(Ok(line)) if line.trim().is_empty() => continue,
                Ok(Ok(line)) => return Ok(line),
                Ok(Err(e)) => return Err(Reply::Garbage(format!("unreadable output: {e}"))),
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

    /// Kills the process and reaps it.
    pub(crate) fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Whether the process has exited, waiting up to half a second.
    pub(crate) fn exited_soon(&mut self) -> bool {
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }
}
