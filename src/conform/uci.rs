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
//!
//! Either kind answers `ruling` when it judges repetitions in its search
//! ([`EngineRuling`]): the cycle is played from its first position until the
//! engine's search sees the deciding repetition, the engine searches only the
//! move that completes it, and its score is read as the verdict — a loss for
//! the side that plays it, a win for it, or a draw (PROTOCOL.md §7.1).

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use serde_json::json;

use super::process::Process;

use super::protocol::{About, Ask};
use super::subject::{Reply, Subject};
use crate::board::Side;
use crate::query::{Answer, Query};
use crate::repetition::RulingQuery;
use crate::spec::Spec;
use crate::vm::Rules;

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

/// Whether the runner asks an engine's search for 棋例 rulings (the `ruling` query).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineRuling {
    /// As `SEARCHERS` says of the engine's `id name`: an engine listed there answers
    /// `ruling` under the rule set it follows; any other does not.
    Known,
    /// Never (`--engine-ruling none`).
    Off,
    /// The engine judges repetitions in its search by this rule set's rules (`--engine-ruling
    /// RULESET[:N]`), its verdict shown when the completing move makes the position stand
    /// `occurrences` times (default 3), its scores read as [`Score::Mate`] (UCI) or
    /// [`Score::Plain`] with a draw of 0 and a decisive score of 9000 (UCCI).
    As {
        /// The rule set whose `ruling` cases it is measured under (`axf`).
        rule_set: String,
        /// How many times the completing move makes the cycle's position stand.
        occurrences: Option<usize>,
    },
}

/// How an engine's score shows a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// UCI: `score mate N` is decisive (N > 0 a win for the side to move, N ≤ 0 a loss);
    /// `score cp 0` a draw.
    Mate,
    /// UCCI: `score N`; at least `decisive` in size a win or a loss, `draw` a draw.
    Plain {
        /// The smallest decisive score.
        decisive: i64,
        /// The score of a drawn move, as the engine reports it at depth 1.
        draw: i64,
    },
}

/// An engine known to judge repetitions in its search: what it names itself (the start of
/// its `id name`), its protocol, the rule set it follows, how many times a position must
/// stand for its search to rule, how its score reads, and the first release with the rules
/// (`None`: every release).
#[derive(Clone, Copy, Debug)]
pub struct Searcher {
    /// The start of the engine's `id name`.
    pub name: &'static str,
    /// Its protocol.
    pub dialect: Dialect,
    /// The rule set its search follows.
    pub rule_set: &'static str,
    /// Times the completing move makes the cycle's position stand for the search to rule.
    pub occurrences: usize,
    /// How its score shows the verdict.
    pub score: Score,
    /// The first major release that judges chases (an older release, named by its version
    /// number, is not asked); a development build, named by its build date, is.
    pub since_release: Option<u32>,
}

/// The engines whose search applies repetition rules, as each names itself. What each
/// applies (PROTOCOL.md §7.1): Fairy-Stockfish's `xiangqi` variant the AXF chasing rules
/// (`chasingRule = axf`, since its release 14; one-sided perpetual check or chase of one
/// piece loses, judged at the third occurrence); ElephantEye the rules of its UCCI league
/// (`LEAGUE/RULE.TXT` 5.1–5.7: the Asian rules simplified, judged in search at the second
/// occurrence, its draw score its contempt of 20); Pikafish its own AXF-like rules (at the
/// third occurrence; it searches only with its network file).
pub const SEARCHERS: &[Searcher] = &[
    Searcher {
        name: "Fairy-Stockfish",
        dialect: Dialect::Uci,
        rule_set: "axf",
        occurrences: 3,
        score: Score::Mate,
        since_release: Some(14),
    },
    Searcher {
        name: "Pikafish",
        dialect: Dialect::Uci,
        rule_set: "axf",
        occurrences: 3,
        score: Score::Mate,
        since_release: None,
    },
    Searcher {
        name: "ElephantEye",
        dialect: Dialect::Ucci,
        rule_set: "axf",
        occurrences: 2,
        score: Score::Plain {
            decisive: 9000,
            draw: -20,
        },
        since_release: None,
    },
];

impl Searcher {
    /// The entry for an engine named `name` (its `id name`) speaking `dialect`.
    pub fn of(name: &str, dialect: Dialect) -> Option<&'static Searcher> {
        SEARCHERS.iter().find(|s| {
            s.dialect == dialect
                && name.starts_with(s.name)
                && s.since_release.is_none_or(|since| {
                    // `Fairy-Stockfish 11.1 LB`: a release; `Fairy-Stockfish 061226 LB`: a build date.
                    let v = name[s.name.len()..].split_whitespace().next().unwrap_or("");
                    let date = v.len() == 6 && v.bytes().all(|b| b.is_ascii_digit());
                    let major = v.split('.').next().and_then(|m| m.parse::<u32>().ok());
                    date || major.is_some_and(|m| m >= since)
                })
        })
    }
}

/// The `ruling` query of an engine: the rule set it is asked under, its reading, and the
/// movement rules the runner plays the cycle with.
struct Ruling {
    rule_set: String,
    occurrences: usize,
    score: Score,
    rules: Rules,
}

/// The depth of the search that shows the verdict: the completing move's own node.
const RULING_DEPTH: u32 = 1;

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
    /// What is declared of its search's rulings, and (once started) the query's set-up.
    wants_ruling: EngineRuling,
    ruling: Option<Ruling>,
    /// The engine's `id name`, as it gave it.
    id_name: String,
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
        Engine::start_ruling(
            command,
            dialect,
            rank_base,
            editions,
            start_timeout,
            EngineRuling::Off,
            None,
        )
    }

    /// [`Engine::start`], asking the engine's search for rulings as `ruling` says; the rule
    /// set it follows is compiled from `spec` (the built-in one when `None`).
    pub fn start_ruling(
        command: &str,
        dialect: Dialect,
        rank_base: RankBase,
        editions: Vec<String>,
        start_timeout: Duration,
        ruling: EngineRuling,
        spec: Option<&Spec>,
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
                editions,
                queries: vec!["legal_moves".into(), "perft".into()],
                limits,
                ..About::default()
            },
            rank_base,
            offset: 0,
            start_timeout,
            failed_starts: 0,
            starts: 0,
            wants_ruling: ruling,
            ruling: None,
            id_name: String::new(),
        };
        let e = u.launch()?;
        u.engine = Some(e);
        u.set_up_ruling(spec)?;
        Ok(u)
    }

    /// Declares `ruling` when the engine's search judges repetitions ([`EngineRuling`]), under
    /// the rule set it follows, and only when the engine searches at all (one `go depth 1` from
    /// the start position: Pikafish without its network file does not).
    fn set_up_ruling(&mut self, spec: Option<&Spec>) -> Result<(), String> {
        let (rule_set, occurrences, score) = match &self.wants_ruling {
            EngineRuling::Off => return Ok(()),
            EngineRuling::Known => match Searcher::of(&self.id_name, self.dialect) {
                None => return Ok(()),
                Some(s) => (s.rule_set.to_string(), s.occurrences, s.score),
            },
            EngineRuling::As {
                rule_set,
                occurrences,
            } => (
                rule_set.clone(),
                occurrences.unwrap_or(3),
                match self.dialect {
                    Dialect::Uci => Score::Mate,
                    Dialect::Ucci => Score::Plain {
                        decisive: 9000,
                        draw: 0,
                    },
                },
            ),
        };
        if !self.about.editions.contains(&rule_set) {
            return Err(format!(
                "--engine-ruling: `{rule_set}` is not a rule set the engine is run under ({})",
                self.about.editions.join(", ")
            ));
        }
        if occurrences < 2 {
            return Err("--engine-ruling: a repetition stands at least 2 times".into());
        }
        let built;
        let spec = match spec {
            Some(s) => s,
            None => {
                built = Spec::builtin().map_err(|e| e.to_string())?;
                &built
            }
        };
        let rules = spec
            .ruleset(&rule_set)
            .and_then(|ed| Rules::of_edition(&ed))
            .map_err(|e| e.to_string())?;
        if !self.searches() {
            return Ok(());
        }
        self.ruling = Some(Ruling {
            rule_set,
            occurrences,
            score,
            rules,
        });
        self.about.queries.push("ruling".into());
        Ok(())
    }

    /// Whether the engine answers a search (`go depth 1` from the start position) with a move;
    /// an engine that cannot (it quits, or prints no `bestmove` in time) is restarted.
    fn searches(&mut self) -> bool {
        let deadline = Instant::now() + self.start_timeout;
        let e = self.engine.as_mut().expect("started");
        let asked = send(e, "position startpos").and_then(|()| send(e, "go depth 1"));
        let ok = asked
            .and_then(|()| {
                read_until(e, deadline, "go depth 1", |l| {
                    l.starts_with("bestmove") || l.starts_with("nobestmove")
                })
            })
            .is_ok_and(|lines| lines.last().is_some_and(|l| l.starts_with("bestmove")));
        if !ok {
            if let Some(e) = self.engine.take() {
                e.kill();
            }
            if let Ok(e) = self.launch() {
                self.engine = Some(e);
            }
        }
        ok
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
            self.id_name = name.clone();
            self.about.implementation.name = n;
            self.about.implementation.version = v;
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

    /// `ruling`: the verdict the engine's search shows on the input's last repetition. The
    /// cycle is played from its first position (the moves before it do not matter to the
    /// engine's rules) until the completing move would make that position stand as many times
    /// as the engine's search needs; the engine then searches that move alone (UCI
    /// `searchmoves`, UCCI `banmoves` with every other legal move) and its score is read.
    fn rule(&mut self, q: &RulingQuery, deadline: Instant) -> Result<Answer, Reply> {
        let unsupported = |m: String| Reply::Answer(Answer::unsupported(m));
        let r = self.ruling.as_ref().expect("declared with the query");
        let line = crate::line::line(&r.rules, &q.fen, &q.moves)
            .map_err(|e| unsupported(format!("not a line of play: {e}")))?;
        let Some((i, k)) = crate::repetition::last_repetition(&line.positions) else {
            return Err(unsupported(
                "no position repeats: an engine's score shows a ruling only on a repetition".into(),
            ));
        };
        let start = line.positions[i].to_fen(&r.rules);
        let cycle: Vec<String> = line.moves[i..k].iter().map(|m| m.iccs()).collect();
        let mut played: Vec<String> = cycle
            .iter()
            .cycle()
            .take(cycle.len() * (r.occurrences - 1))
            .cloned()
            .collect();
        let last = played.pop().expect("a cycle has moves");
        let root = &line.positions[k - 1];
        let mover = root.side_to_move();
        let banned: Vec<String> = root
            .legal_moves(&r.rules)
            .into_iter()
            .map(|m| m.iccs())
            .filter(|m| *m != last)
            .collect();
        let score = r.score;
        let pos = self.position(&start, &played)?;
        let wanted = self
            .iccs_to_engine(&last)
            .ok_or_else(|| unsupported(format!("`{last}` is not ICCS")))?;
        let go = match self.dialect {
            Dialect::Uci => format!("go depth {RULING_DEPTH} searchmoves {wanted}"),
            Dialect::Ucci => format!("go depth {RULING_DEPTH}"),
        };
        let mut ban = Vec::with_capacity(banned.len());
        for m in &banned {
            ban.push(
                self.iccs_to_engine(m)
                    .ok_or_else(|| unsupported(format!("`{m}` is not ICCS")))?,
            );
        }
        let e = self.engine.as_mut().expect("started");
        send(e, &pos)?;
        if self.dialect == Dialect::Ucci && !ban.is_empty() {
            send(e, &format!("banmoves {}", ban.join(" ")))?;
        }
        send(e, &go)?;
        let lines = read_until(e, deadline, &go, |l| {
            l.starts_with("bestmove") || l.starts_with("nobestmove")
        })?;
        let last_line = lines.last().map(String::as_str).unwrap_or_default();
        let played_move = last_line.split_whitespace().nth(1).unwrap_or_default();
        if played_move != wanted {
            return Err(Reply::Garbage(format!(
                "`{last_line}` after searching only `{wanted}` (the move that completes the cycle)"
            )));
        }
        let text = lines
            .iter()
            .rev()
            .find_map(|l| l.split_once(" score ").map(|(_, rest)| rest))
            .ok_or_else(|| {
                Reply::Garbage(format!("no `info … score` line before `{last_line}`"))
            })?;
        let outcome = read_score(score, text)
            .ok_or_else(|| Reply::Garbage(format!("unreadable score `{text}`")))?;
        let mover_changes = match mover {
            Side::Red => "red_must_change",
            Side::Black => "black_must_change",
        };
        let other_changes = match mover {
            Side::Red => "black_must_change",
            Side::Black => "red_must_change",
        };
        let verdict = match outcome {
            Some(Ordering::Less) => mover_changes,
            Some(Ordering::Greater) => other_changes,
            Some(Ordering::Equal) => "draw",
            None => "none",
        };
        let shown: String = text
            .split_whitespace()
            .take(if score == Score::Mate { 2 } else { 1 })
            .collect::<Vec<_>>()
            .join(" ");
        Ok(Answer::one(
            "ruling",
            json!({
                "verdict": verdict,
                "verdict_only": true,
                "judged": "repetition",
                "cycle": [i + 1, k],
                "score": format!("{shown} after {last}, searched alone"),
            }),
        ))
    }
}

/// What an engine's score after `score ` says for the side to move: `Some(Less)` it loses,
/// `Some(Greater)` it wins, `Some(Equal)` a draw, `None` an evaluation (no ruling); `None`
/// outside when it is not a score.
fn read_score(how: Score, text: &str) -> Option<Option<Ordering>> {
    let mut words = text.split_whitespace();
    match how {
        Score::Mate => {
            let kind = words.next()?;
            let n: i64 = words.next()?.parse().ok()?;
            match kind {
                "mate" => Some(Some(if n > 0 {
                    Ordering::Greater
                } else {
                    Ordering::Less
                })),
                "cp" => Some((n == 0).then_some(Ordering::Equal)),
                _ => None,
            }
        }
        Score::Plain { decisive, draw } => {
            let n: i64 = words.next()?.parse().ok()?;
            Some(if n >= decisive {
                Some(Ordering::Greater)
            } else if n <= -decisive {
                Some(Ordering::Less)
            } else {
                (n == draw).then_some(Ordering::Equal)
            })
        }
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
            (_, Query::Ruling(q))
                if self
                    .ruling
                    .as_ref()
                    .is_some_and(|r| r.rule_set == ask.edition) =>
            {
                self.rule(q, deadline)
            }
            (_, Query::Ruling(_)) if self.ruling.is_some() => {
                let r = self.ruling.as_ref().expect("checked");
                return Reply::Answer(Answer::unsupported(format!(
                    "the engine's search follows the {} rules: its rulings are measured under {} only",
                    r.rule_set, r.rule_set
                )));
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
            wants_ruling: EngineRuling::Off,
            ruling: None,
            id_name: String::new(),
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
