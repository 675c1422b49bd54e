//! What the runner talks to: an implementation in this process, or an
//! adapter process speaking the protocol. Process faults (crash, hang,
//! garbage, wrong id) cost one case: the process is restarted for the next.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use serde_json::Value;

use super::process::Process;
use super::protocol::{self, About, Ask, Implementation, Request};
use crate::query::{Answer, Query};
use crate::reference::{Reference, MAX_RULING_PLIES, PERFT_NODE_BUDGET};

/// The reference implementation as an [`Implementation`]: its hello declares every
/// edition of its spec, every query of this version, overlays and its limits.
impl Implementation for Reference {
    fn about(&self) -> About {
        About {
            protocol: protocol::PROTOCOL_VERSION,
            implementation: protocol::Identity {
                name: "xqspec".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                language: Some("Rust".into()),
                homepage: None,
            },
            editions: self.editions().to_vec(),
            queries: crate::query::KNOWN_QUERIES
                .iter()
                .map(|s| s.to_string())
                .collect(),
            overlays: true,
            limits: protocol::Limits {
                perft_nodes: Some(PERFT_NODE_BUDGET),
                ruling_plies: Some(MAX_RULING_PLIES as u64),
                game_moves: Some(crate::reference::MAX_GAME_MOVES as u64),
                line_bytes: None,
            },
        }
    }

    fn answer(&mut self, edition: &str, query: &Query) -> Answer {
        Reference::answer_query(self, edition, None, query)
    }

    fn answer_ask(&mut self, ask: &Ask) -> Answer {
        Reference::answer_query(self, ask.edition, ask.overlay, ask.query)
    }
}

/// A shared reference (the harness keeps one for every case).
impl Implementation for &Reference {
    fn about(&self) -> About {
        Implementation::about(*self)
    }
    fn answer(&mut self, edition: &str, query: &Query) -> Answer {
        Reference::answer_query(self, edition, None, query)
    }
    fn answer_ask(&mut self, ask: &Ask) -> Answer {
        Reference::answer_query(self, ask.edition, ask.overlay, ask.query)
    }
}

/// What came back for one request.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The implementation answered (possibly with a rejection, `unsupported` or `error`).
    Answer(Answer),
    /// The implementation died (or panicked) before answering.
    Crash(String),
    /// No answer within the time limit.
    Timeout(String),
    /// An answer that breaks the protocol: not JSON, malformed, or for another id.
    Garbage(String),
}

/// Something the runner can put cases to.
pub trait Subject {
    /// What the subject said about itself in the handshake.
    fn about(&self) -> &About;
    /// Asks one query; `id` is the opaque request id.
    fn ask(&mut self, id: &str, ask: &Ask, timeout: Duration) -> Reply;
    /// Whether the subject can refuse input at all (a UCI engine cannot: cases
    /// expecting a rejection are skipped for it).
    fn can_reject(&self) -> bool {
        true
    }
    /// Ends the implementation (sends `stop`, reaps the process).
    fn stop(&mut self) {}
}

/// An [`Implementation`] in this process. A panic is reported as a crash;
/// there is no time limit (a call in this process cannot be interrupted).
pub struct InProcess<I> {
    imp: I,
    about: About,
}

impl<I: Implementation> InProcess<I> {
    /// Wraps `imp`, asking it once for its [`About`].
    pub fn new(imp: I) -> Self {
        let about = imp.about();
        InProcess { imp, about }
    }
}

impl<I: Implementation> Subject for InProcess<I> {
    fn about(&self) -> &About {
        &self.about
    }
    fn ask(&mut self, _id: &str, ask: &Ask, _timeout: Duration) -> Reply {
        let imp = &mut self.imp;
        match catch_unwind(AssertUnwindSafe(|| imp.answer_ask(ask))) {
            Ok(a) => Reply::Answer(a),
            Err(p) => Reply::Crash(format!("panicked: {}", panic_message(p.as_ref()))),
        }
    }
}

/// An implementation in another process, started from a shell command line,
/// speaking `conformance/PROTOCOL.md` on its standard input and output.
pub struct Adapter {
    command: String,
    running: Option<Process>,
    about: About,
    /// Limit for the handshake after a (re)start.
    start_timeout: Duration,
    /// The limit for each answer, told to the adapter in the hello (`limits.timeout_ms`).
    answer_timeout: Duration,
    /// Starts in a row that failed; past [`Adapter::MAX_FAILED_STARTS`] the adapter gives up.
    failed_starts: u32,
    /// How many times the process was started.
    pub starts: u32,
}

impl Adapter {
    pub(crate) const MAX_FAILED_STARTS: u32 = 3;

    /// Starts `command` and performs the handshake (within `start_timeout`), telling the
    /// adapter the time it has for each answer (`answer_timeout`, the runner's `--timeout`).
    pub fn start(
        command: &str,
        start_timeout: Duration,
        answer_timeout: Duration,
    ) -> Result<Adapter, String> {
        let mut a = Adapter {
            command: command.to_string(),
            running: None,
            about: About::default(),
            start_timeout,
            answer_timeout,
            failed_starts: 0,
            starts: 0,
        };
        let (running, about) = a.launch()?;
        a.running = Some(running);
        a.about = about;
        Ok(a)
    }

    fn launch(&mut self) -> Result<(Process, About), String> {
        self.starts += 1;
        let mut r = Process::spawn(&self.command)?;
        // A process that dies at once may do so before or after the hello is
        // written; either way the report is how it ended.
        let line = match r.send_line(&json_line(&protocol::hello_request(self.answer_timeout))) {
            Ok(()) => r.recv(self.start_timeout),
            Err(_) => Err(Reply::Crash(r.death())),
        };
        let result = match line {
            Ok(line) => protocol::parse_hello(&line),
            Err(Reply::Crash(m)) => Err(format!("exited during the handshake: {m}")),
            Err(Reply::Timeout(m)) => Err(format!("no hello reply: {m}")),
            Err(Reply::Garbage(m)) | Err(Reply::Answer(Answer::Error { message: m })) => Err(m),
            Err(Reply::Answer(_)) => Err("unexpected answer".into()),
        };
        match result {
            Ok(about) => Ok((r, about)),
            Err(e) => {
                r.kill();
                Err(e)
            }
        }
    }

    fn fault(&mut self, reply: Reply) -> Reply {
        if let Some(r) = self.running.take() {
            r.kill();
        }
        reply
    }
}

impl Subject for Adapter {
    fn about(&self) -> &About {
        &self.about
    }

    fn ask(&mut self, id: &str, ask: &Ask, timeout: Duration) -> Reply {
        if self.running.is_none() {
            if self.failed_starts >= Self::MAX_FAILED_STARTS {
                return Reply::Crash(format!(
                    "not restarted after {} failed starts",
                    self.failed_starts
                ));
            }
            match self.launch() {
                Ok((r, _)) => {
                    self.running = Some(r);
                    self.failed_starts = 0;
                }
                Err(e) => {
                    self.failed_starts += 1;
                    return Reply::Crash(format!("restart failed: {e}"));
                }
            }
        }
        let r = self.running.as_mut().expect("started above");
        let req = Request::Ask {
            id: Value::String(id.to_string()),
            edition: ask.edition.to_string(),
            overlay: ask.overlay.cloned(),
            query: ask.query.name().to_string(),
            input: ask.query.input(),
        };
        if let Err(e) = r.send_line(&json_line(&req)) {
            let death = r.death();
            return self.fault(Reply::Crash(format!(
                "cannot write the request ({e}): {death}"
            )));
        }
        let line = match r.recv(timeout) {
            Ok(l) => l,
            Err(fault) => return self.fault(fault),
        };
        match protocol::decode_answer(&line) {
            Ok((got, answer)) if got == Value::String(id.to_string()) => Reply::Answer(answer),
            Ok((got, _)) => {
                self.fault(Reply::Garbage(format!("answered id {got} to request {id}")))
            }
            Err(e) => self.fault(Reply::Garbage(e)),
        }
    }

    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = r.send_line(&json_line(&Request::Stop {}));
            if !r.exited_soon() {
                r.kill();
            }
        }
    }
}

fn json_line(req: &Request) -> String {
    serde_json::to_string(req).expect("requests serialize")
}

impl Drop for Adapter {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The message a panic carried (`panic!("…")`), or `panic` when it carried none: for
/// callers that turn a caught panic into an answer or an exception.
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}
