//! Driving a UCI engine (Pikafish, Fairy-Stockfish, …) for the queries it
//! can answer: `perft` and `legal_moves`, both through `go perft N`, whose
//! output is one `move: count` line per legal move and `Nodes searched: N`.
//!
//! Fairy-Stockfish plays xiangqi after `setoption name UCI_Variant value
//! xiangqi` and numbers ranks 1–10 in UCI mode, where Pikafish (and ICCS) use
//! 0–9. The rank base is detected from the `UCI_Variant` option, or given.

use std::time::{Duration, Instant};

use super::process::Process;

use super::protocol::{About, Ask};
use crate::query::{Answer, Query};
use super::subject::{Reply, Subject};

/// Reads lines until `done` says stop, within `deadline`; returns them all.
fn read_until(
    p: &mut Process,
    deadline: Instant,
    done: impl Fn(&str) -> bool,
) -> Result<Vec<String>, Reply> {
    let mut out = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = p.recv(left).map_err(|fault| match fault {
            Reply::Timeout(_) => Reply::Timeout("the engine did not finish in time".into()),
            other => other,
        })?;
        let line = line.trim().to_string();
        let stop = done(&line);
        out.push(line);
        if stop {
            return Ok(out);
        }
    }
}

fn send(p: &mut Process, line: &str) -> Result<(), Reply> {
    p.send_line(line)
        .map_err(|e| Reply::Crash(format!("cannot write to the engine: {e}")))
}

/// How the engine numbers ranks in move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankBase {
    /// Detect: 1 when the engine has a `UCI_Variant` option (Fairy-Stockfish), else 0.
    Detect,
    /// Ranks `0`–`9`, as ICCS writes them.
    Zero,
    /// Ranks `1`–`10` (Fairy-Stockfish's xiangqi).
    One,
}

/// A UCI engine as a subject of the runner.
pub struct UciEngine {
    command: String,
    engine: Option<Process>,
    about: About,
    rank_base: RankBase,
    /// 0 or 1, fixed after the first start.
    offset: u8,
    start_timeout: Duration,
    failed_starts: u32,
    /// How many times the engine was started (a crash or time-out restarts it).
    pub starts: u32,
}

impl UciEngine {
    /// Starts the engine and sets it up; `editions` are the editions to claim
    /// (a UCI engine knows no editions; the movement rules are the same in all).
    pub fn start(
        command: &str,
        rank_base: RankBase,
        editions: Vec<String>,
        start_timeout: Duration,
    ) -> Result<Self, String> {
        let mut u = UciEngine {
            command: command.to_string(),
            engine: None,
            about: About {
                name: String::new(),
                version: String::new(),
                language: None,
                homepage: None,
                editions,
                queries: vec!["legal_moves".into(), "perft".into()],
                overlays: false,
                limits: Default::default(),
            },
            rank_base,
            offset: 0,
            start_timeout,
            failed_starts: 0,
            starts: 0,
        };
        let e = u.launch()?;
        u.engine = Some(e);
        Ok(u)
    }

    /// The rank base in use (0 or 1).
    pub fn offset(&self) -> u8 {
        self.offset
    }

    fn launch(&mut self) -> Result<Process, String> {
        self.starts += 1;
        let mut e = Process::spawn(&self.command)?;
        let deadline = Instant::now() + self.start_timeout;
        let setup = (|| -> Result<(), Reply> {
            send(&mut e, "uci")?;
            let lines = read_until(&mut e, deadline, |l| l == "uciok")?;
            let name = lines
                .iter()
                .find_map(|l| l.strip_prefix("id name "))
                .unwrap_or("unnamed UCI engine")
                .to_string();
            let variant = lines
                .iter()
                .any(|l| l.starts_with("option name UCI_Variant "));
            if variant {
                send(&mut e, "setoption name UCI_Variant value xiangqi")?;
            }
            self.offset = match self.rank_base {
                RankBase::Zero => 0,
                RankBase::One => 1,
                RankBase::Detect => u8::from(variant),
            };
            let (n, v) = match name.rsplit_once(' ') {
                Some((n, v)) if v.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
                    (n.to_string(), v.to_string())
                }
                _ => (name.clone(), String::new()),
            };
            self.about.name = n;
            self.about.version = v;
            send(&mut e, "isready")?;
            read_until(&mut e, deadline, |l| l == "readyok")?;
            Ok(())
        })();
        match setup {
            Ok(()) => Ok(e),
            Err(r) => {
                e.kill();
                Err(match r {
                    Reply::Crash(m) | Reply::Timeout(m) | Reply::Garbage(m) => {
                        format!("UCI set-up failed: {m}")
                    }
                    Reply::Answer(a) => a.to_string(),
                })
            }
        }
    }

    fn iccs_to_engine(&self, iccs: &str) -> Option<String> {
        let b = iccs.as_bytes();
        if !crate::board::Move::is_iccs(iccs) {
            return None;
        }
        let r = |c: u8| (c - b'0' + self.offset).to_string();
        Some(format!(
            "{}{}{}{}",
            b[0] as char,
            r(b[1]),
            b[2] as char,
            r(b[3])
        ))
    }

    fn engine_to_iccs(&self, text: &str) -> Option<String> {
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut out = String::new();
        for _ in 0..2 {
            let f = *bytes.get(i)?;
            if !(b'a'..=b'i').contains(&f) {
                return None;
            }
            i += 1;
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let rank: u8 = text.get(start..i)?.parse().ok()?;
            let rank = rank.checked_sub(self.offset).filter(|&r| r <= 9)?;
            out.push(f as char);
            out.push((b'0' + rank) as char);
        }
        (i == bytes.len()).then_some(out)
    }

    /// `go perft depth` from the position; returns the divide lines and the total.
    fn perft(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
        timeout: Duration,
    ) -> Result<(Vec<(String, u64)>, u64), Reply> {
        let mut pos = format!("position fen {fen}");
        if !moves.is_empty() {
            pos.push_str(" moves");
            for m in moves {
                let em = self.iccs_to_engine(m).ok_or_else(|| {
                    Reply::Answer(Answer::unsupported(format!("`{m}` is not ICCS")))
                })?;
                pos.push(' ');
                pos.push_str(&em);
            }
        }
        let e = self.engine.as_mut().expect("started");
        send(e, &pos)?;
        send(e, &format!("go perft {depth}"))?;
        let lines = read_until(e, Instant::now() + timeout, |l| {
            l.starts_with("Nodes searched")
        })?;
        let mut divide = Vec::new();
        let mut total = None;
        for l in &lines {
            if let Some(n) = l.strip_prefix("Nodes searched:") {
                total = n.trim().parse::<u64>().ok();
            } else if let Some((m, n)) = l.split_once(':') {
                if let (Some(m), Ok(n)) = (self.engine_to_iccs(m.trim()), n.trim().parse::<u64>()) {
                    divide.push((m, n));
                }
            }
        }
        let total =
            total.ok_or_else(|| Reply::Garbage("`Nodes searched` line without a number".into()))?;
        Ok((divide, total))
    }
}

impl Subject for UciEngine {
    fn about(&self) -> &About {
        &self.about
    }

    fn can_reject(&self) -> bool {
        false
    }

    fn ask(&mut self, _id: &str, ask: &Ask, timeout: Duration) -> Reply {
        let query = ask.query;
        if self.engine.is_none() {
            if self.failed_starts >= 3 {
                return Reply::Crash("not restarted after 3 failed starts".into());
            }
            match self.launch() {
                Ok(e) => {
                    self.engine = Some(e);
                    self.failed_starts = 0;
                }
                Err(m) => {
                    self.failed_starts += 1;
                    return Reply::Crash(format!("restart failed: {m}"));
                }
            }
        }
        let result = match query {
            Query::Perft { depth: 0, .. } => {
                return Reply::Answer(Answer::unsupported("`go perft 0` is not meaningful in UCI"))
            }
            Query::Perft { fen, moves, depth } => self
                .perft(fen, moves, *depth, timeout)
                .map(|(_, n)| Answer::nodes(n)),
            Query::LegalMoves { fen, moves } => self
                .perft(fen, moves, 1, timeout)
                .map(|(d, _)| Answer::moves(d.into_iter().map(|(m, _)| m))),
            other => {
                return Reply::Answer(Answer::unsupported(format!(
                    "a UCI engine does not answer `{}`",
                    other.name()
                )))
            }
        };
        match result {
            Ok(a) => Reply::Answer(a),
            Err(Reply::Answer(a)) => Reply::Answer(a),
            Err(fault) => {
                if let Some(e) = self.engine.take() {
                    e.kill();
                }
                fault
            }
        }
    }

    fn stop(&mut self) {
        if let Some(mut e) = self.engine.take() {
            let _ = e.send_line("quit");
            if !e.exited_soon() {
                e.kill();
            }
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_offset(offset: u8) -> UciEngine {
        UciEngine {
            command: String::new(),
            engine: None,
            about: About::default(),
            rank_base: RankBase::Detect,
            offset,
            start_timeout: Duration::from_secs(1),
            failed_starts: 0,
            starts: 0,
        }
    }

    #[test]
    fn ranks_convert_both_ways() {
        let fairy = with_offset(1);
        assert_eq!(fairy.iccs_to_engine("a9a8").as_deref(), Some("a10a9"));
        assert_eq!(fairy.engine_to_iccs("a10a9").as_deref(), Some("a9a8"));
        assert_eq!(fairy.engine_to_iccs("a0a1"), None);
        let pika = with_offset(0);
        assert_eq!(pika.iccs_to_engine("h2e2").as_deref(), Some("h2e2"));
        assert_eq!(pika.engine_to_iccs("h2e2").as_deref(), Some("h2e2"));
        assert_eq!(pika.engine_to_iccs("h2e2x"), None);
        assert_eq!(pika.engine_to_iccs("j2e2"), None);
    }
}
