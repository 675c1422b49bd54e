//! Driving a chess engine for the queries it can answer, in either of the
//! two engine protocols of xiangqi:
//!
//! - **UCI** (Pikafish, Fairy-Stockfish, …): `perft` and `legal_moves`, both
//!   through `go perft N`, whose output is one `move: count` line per legal
//!   move and `Nodes searched: N`. Fairy-Stockfish plays xiangqi after
//!   `setoption name UCI_Variant value xiangqi` and numbers ranks 1–10 in UCI
//!   mode, where Pikafish (and ICCS) use 0–9. The rank base is detected from
//!   the `UCI_Variant` option, or given.
//! - **UCCI** (ElephantEye and the engines Chinese GUIs load; xqbase's UCCI
//!   document): no perft and no move list, so `legal_moves` asks for a move
//!   at depth 1 again and again, each time with `banmoves` naming the moves
//!   found so far, until the engine answers `nobestmove`; `perft` counts those
//!   lists (a bounded number of positions, declared as `limits.perft_nodes`).
//!   Moves are ICCS, ranks 0–9.

use std::time::{Duration, Instant};

use super::process::Process;

use super::protocol::{About, Ask};
use super::subject::{Reply, Subject};
use crate::query::{Answer, Query};

/// Reads lines until `done` says stop, within `deadline`; returns them all. A time-out says
/// what was `asked` and what the engine printed meanwhile.
fn read_until(
    p: &mut Process,
    deadline: Instant,
    asked: &str,
    done: impl Fn(&str) -> bool,
) -> Result<Vec<String>, Reply> {
    let mut out: Vec<String> = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = p.recv(left).map_err(|fault| match fault {
            Reply::Timeout(_) => Reply::Timeout(match out.last() {
                None => format!("no answer to `{asked}` in time: the engine printed nothing"),
                Some(last) => format!(
                    "no answer to `{asked}` in time: the engine printed {} lines, the last `{last}`",
                    out.len()
                ),
            }),
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

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI, as Pikafish and Fairy-Stockfish speak it: `uci` … `uciok`, `go perft N`.
    Uci,
    /// UCCI, as ElephantEye speaks it: `ucci` … `ucciok`, `banmoves`, `nobestmove`.
    Ucci,
}

impl Dialect {
    /// The protocol's name, as engines and people write it.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Uci => "UCI",
            Dialect::Ucci => "UCCI",
        }
    }

    /// The opening command; the engine's last line of its answer is this with `ok`.
    fn hello(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ucci => "ucci",
        }
    }
}

/// The most positions one `perft` of a UCCI engine lists (each a search per legal move).
pub const UCCI_PERFT_NODES: u64 = 1_000;

/// More moves than any xiangqi position has: a listing that goes past it is an engine that
/// does not heed `banmoves`.
const MAX_LISTED: usize = 200;

/// A UCI or UCCI engine as a subject of the runner.
pub struct Engine {
    dialect: Dialect,
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

impl Engine {
    /// Starts the engine and sets it up; `editions` are the editions to claim
    /// (an engine knows no editions; the movement rules are the same in all).
    /// A UCCI engine's ranks are always 0–9.
    pub fn start(
        command: &str,
        dialect: Dialect,
        rank_base: RankBase,
        editions: Vec<String>,
        start_timeout: Duration,
    ) -> Result<Self, String> {
        let limits = match dialect {
            Dialect::Uci => Default::default(),
            Dialect::Ucci => super::protocol::Limits {
                perft_nodes: Some(UCCI_PERFT_NODES),
                ..Default::default()
            },
        };
        let rank_base = match dialect {
            Dialect::Uci => rank_base,
            Dialect::Ucci => RankBase::Zero,
        };
        let mut u = Engine {
            dialect,
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
                limits,
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
            let hello = self.dialect.hello();
            send(&mut e, hello)?;
            let ok = format!("{hello}ok");
            let lines = read_until(&mut e, deadline, hello, |l| l == ok)?;
            let name = lines
                .iter()
                .find_map(|l| l.strip_prefix("id name "))
                .map(str::to_string)
                .unwrap_or_else(|| format!("unnamed {} engine", self.dialect.name()));
            let version = lines.iter().find_map(|l| l.strip_prefix("id version "));
            let variant = self.dialect == Dialect::Uci
                && lines
                    .iter()
                    .any(|l| l.starts_with("option name UCI_Variant "));
            if variant {
                send(&mut e, "setoption name UCI_Variant value xiangqi")?;
            }
            // An opening book answers before `banmoves` is heeded (ElephantEye): off.
            if self.dialect == Dialect::Ucci
                && lines.iter().any(|l| l.starts_with("option usebook "))
            {
                send(&mut e, "setoption usebook false")?;
            }
            self.offset = match self.rank_base {
                RankBase::Zero => 0,
                RankBase::One => 1,
                RankBase::Detect => u8::from(variant),
            };
            let (n, v) = match (version, name.rsplit_once(' ')) {
                (Some(v), _) => (name.clone(), v.trim().to_string()),
                (None, Some((n, v))) if v.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
                    (n.to_string(), v.to_string())
                }
                _ => (name.clone(), String::new()),
            };
            self.about.name = n;
            self.about.version = v;
            send(&mut e, "isready")?;
            read_until(&mut e, deadline, "isready", |l| l == "readyok")?;
            Ok(())
        })();
        match setup {
            Ok(()) => Ok(e),
            Err(r) => {
                e.kill();
                Err(match r {
                    Reply::Crash(m) | Reply::Timeout(m) | Reply::Garbage(m) => {
                        format!("{} set-up failed: {m}", self.dialect.name())
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

    /// `position fen … [moves …]`, the moves in the engine's numbering.
    fn position(&self, fen: &str, moves: &[String]) -> Result<String, Reply> {
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
        Ok(pos)
    }

    /// UCI's `go perft depth` from the position; returns the divide lines and the total.
    fn perft(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
        deadline: Instant,
    ) -> Result<(Vec<(String, u64)>, u64), Reply> {
        let pos = self.position(fen, moves)?;
        let go = format!("go perft {depth}");
        let e = self.engine.as_mut().expect("started");
        send(e, &pos)?;
        send(e, &go)?;
        let lines = read_until(e, deadline, &go, |l| l.starts_with("Nodes searched"))?;
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

    /// UCCI: the legal moves, found one `go depth 1` at a time, each time banning the moves
    /// found so far, until the engine answers `nobestmove`.
    fn listing(
        &mut self,
        fen: &str,
        moves: &[String],
        deadline: Instant,
    ) -> Result<Vec<String>, Reply> {
        let pos = self.position(fen, moves)?;
        let mut found: Vec<String> = Vec::new();
        let mut banned: Vec<String> = Vec::new();
        loop {
            let e = self.engine.as_mut().expect("started");
            send(e, &pos)?;
            if !banned.is_empty() {
                send(e, &format!("banmoves {}", banned.join(" ")))?;
            }
            send(e, "go depth 1")?;
            let lines = read_until(e, deadline, "go depth 1", |l| {
                l.starts_with("bestmove") || l.starts_with("nobestmove")
            })?;
            let last = lines.last().map(String::as_str).unwrap_or_default();
            if last.starts_with("nobestmove") {
                return Ok(found);
            }
            let played = last.split_whitespace().nth(1).unwrap_or_default();
            let iccs = self
                .engine_to_iccs(played)
                .ok_or_else(|| Reply::Garbage(format!("`{last}`: not a move in ICCS")))?;
            if found.contains(&iccs) {
                return Err(Reply::Garbage(format!(
                    "`{last}` after `banmoves` named it: the engine does not heed banmoves"
                )));
            }
            if found.len() == MAX_LISTED {
                return Err(Reply::Garbage(format!(
                    "more than {MAX_LISTED} moves listed"
                )));
            }
            found.push(iccs);
            banned.push(played.to_string());
        }
    }

    /// UCCI: perft by listing the moves of every position short of the depth; `budget` is
    /// what is left of [`UCCI_PERFT_NODES`].
    fn listed_perft(
        &mut self,
        fen: &str,
        moves: &mut Vec<String>,
        depth: u32,
        deadline: Instant,
        budget: &mut u64,
    ) -> Result<u64, Reply> {
        let list = self.listing(fen, moves, deadline)?;
        *budget = budget.checked_sub(list.len() as u64).ok_or_else(|| {
            Reply::Answer(Answer::unsupported(format!(
                "beyond limits.perft_nodes ({UCCI_PERFT_NODES}): a UCCI engine has no perft, and this one is counted by listing moves"
            )))
        })?;
        if depth == 1 {
            return Ok(list.len() as u64);
        }
        let mut n = 0;
        for m in list {
            if Instant::now() >= deadline {
                return Err(Reply::Answer(Answer::unsupported(
                    "perft by listing moves did not finish within the time limit: a UCCI engine has no perft",
                )));
            }
            moves.push(m);
            let below = self.listed_perft(fen, moves, depth - 1, deadline, budget);
            moves.pop();
            n += below?;
        }
        Ok(n)
    }
}

impl Subject for Engine {
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
        let deadline = Instant::now() + timeout;
        let result = match (self.dialect, query) {
            (_, Query::Perft { depth: 0, .. }) => {
                return Reply::Answer(Answer::unsupported(
                    "perft 0 is not meaningful to an engine",
                ))
            }
            (Dialect::Uci, Query::Perft { fen, moves, depth }) => self
                .perft(fen, moves, *depth, deadline)
                .map(|(_, n)| Answer::nodes(n)),
            (Dialect::Uci, Query::LegalMoves { fen, moves }) => self
                .perft(fen, moves, 1, deadline)
                .map(|(d, _)| Answer::moves(d.into_iter().map(|(m, _)| m))),
            (Dialect::Ucci, Query::Perft { fen, moves, depth }) => {
                let mut budget = UCCI_PERFT_NODES;
                self.listed_perft(fen, &mut moves.clone(), *depth, deadline, &mut budget)
                    .map(Answer::nodes)
            }
            (Dialect::Ucci, Query::LegalMoves { fen, moves }) => {
                self.listing(fen, moves, deadline).map(Answer::moves)
            }
            (d, other) => {
                return Reply::Answer(Answer::unsupported(format!(
                    "a {} engine does not answer `{}`",
                    d.name(),
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

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_offset(offset: u8) -> Engine {
        Engine {
            dialect: Dialect::Uci,
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
