//! `xqspec adjudicate RECORDS…` and `xqspec status`: the arbiter watching the board.
//!
//! `adjudicate` replays every game of every record (PGN in any notation and encoding, many
//! games a file, through the one replayer of `xqspec replay`) and gives the result the
//! rules give from its moves alone (`ArbiterRules::adjudicate`): mate, stalemate (困毙),
//! perpetual check, a forbidden cycle not changed, the natural move limit, or `undecided`;
//! with the ply, the clause and the article, the recorded result beside it and a flag where
//! they disagree. Files are read by the records path `replay` reads them by
//! (`notation::records`): the same games, numbered alike, the same remarks (a recorded
//! result the adjudication contradicts among them), text that is no game and files not
//! read reported with their place and never counted as games. A record that cannot be
//! replayed is reported with its place and the batch goes on. `--bench` times plain replay and replay with adjudication of the same files.
//!
//! `status` is the `game_status` query on the command line.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::{json, Value};

use xqspec::arbiter::{Adjudication, AfterEnd, ArbiterRules, GameResult, StatusQuery};
use xqspec::notation::records::{self, Ending, Entry, FileError, NotAGame};
use xqspec::notation::encoding;
use xqspec::notation::replay::{GameReplay, Remark, Replayer};
use xqspec::ruleset::RuleSet;
use xqspec::vm::Status;

#[derive(clap::Args)]
pub struct AdjudicateArgs {
    /// PGN record files; each may hold several games, in any notation.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Text encoding of the files (utf-8, gbk, gb18030, big5, utf-16le, utf-16be); detected when absent.
    #[arg(long)]
    pub encoding: Option<String>,
    #[arg(long, default_value = xqspec::ruleset::DEFAULT)]
    pub edition: String,
    /// One JSON object a game (and one for the summary) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also time plain replay against replay with adjudication, and print games per second.
    #[arg(long)]
    pub bench: bool,
}

#[derive(clap::Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
    /// The moves of a game record instead of `--moves` (judged up to the end of the game,
    /// when the record goes on after it).
    #[command(flatten)]
    pub record: super::RecordArgs,
    /// Print the answer object of the protocol's `game_status` query.
    #[arg(long)]
    pub json: bool,
}

/// One game of a batch: where it is, and what was found.
struct Row {
    place: String,
    title: String,
    recorded: Option<String>,
    found: Result<Adjudication, String>,
    /// The recorded result is not the one the moves end in (the records path decides).
    disagrees: bool,
    remarks: Vec<Remark>,
}

/// What a batch holds, in file order: games, and the problems that are no game.
enum Item {
    Game(Row),
    /// Text that is no game (`FILE: line L, column C (byte B): skipped text that is no game: …`).
    NotAGame { file: String, problem: NotAGame },
    /// A file that could not be read.
    Unread(FileError),
}

impl Row {
    /// What the summary counts it under: the observation that ended it, `undecided` or `error`.
    fn how(&self) -> &'static str {
        match &self.found {
            Ok(a) => a.how.unwrap_or(if a.result_name() == "undecided" { "undecided" } else { "other" }),
            Err(_) => "error",
        }
    }

    fn to_json(&self) -> Value {
        let mut v = match &self.found {
            Ok(a) => a.to_json(),
            Err(e) => json!({ "error": e }),
        };
        if let Value::Object(m) = &mut v {
            m.insert("place".into(), json!(self.place));
            m.insert("title".into(), json!(self.title));
            m.insert("recorded".into(), self.recorded.as_ref().map_or(Value::Null, |r| json!(r)));
            m.insert("disagrees".into(), json!(self.disagrees));
            let remarks: Vec<Value> = self.remarks.iter().map(|r| json!({ "line": r.line, "column": r.column, "remark": r.message })).collect();
            m.insert("remarks".into(), Value::Array(remarks));
        }
        v
    }

    /// ` (Red – Black)`, or nothing for a game without those tags.
    fn titled(&self) -> String {
        if self.title.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.title)
        }
    }

    /// The game's line, then a line for each remark.
    fn lines(&self) -> Vec<String> {
        let recorded = self.recorded.as_deref().unwrap_or("none");
        let first = match &self.found {
            Err(e) => format!("{}{}: error: {e}", self.place, self.titled()),
            Ok(a) => {
                let how = match (&a.clause, a.ply) {
                    (Some(c), Some(p)) => format!(
                        " by {} (art. {}) after ply {p} [{}]",
                        c.clause,
                        c.article.as_deref().unwrap_or("—"),
                        a.how.unwrap_or("?")
                    ),
                    _ => String::new(),
                };
                let flag = if self.disagrees { " — DISAGREES" } else { "" };
                format!("{}{}: {}{how}; recorded {recorded}{flag}", self.place, self.titled(), a.result_name())
            }
        };
        let mut lines = vec![first];
        lines.extend(self.remarks.iter().map(|r| format!("{}{}: remark: {r}", self.place, self.titled())));
        lines
    }
}

impl Item {
    fn lines(&self) -> Vec<String> {
        match self {
            Item::Game(r) => r.lines(),
            Item::NotAGame { file, problem } => vec![format!("{file}: {problem}")],
            Item::Unread(e) => vec![e.to_string()],
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Item::Game(r) => r.to_json(),
            Item::NotAGame { file, problem } => json!({
                "place": format!("{file} line {}", problem.place.line),
                "line": problem.place.line,
                "column": problem.place.column,
                "byte": problem.place.byte,
                "not_a_game": problem.message,
            }),
            Item::Unread(e) => json!({ "place": e.path.display().to_string(), "file_error": e.message }),
        }
    }
}

/// The end an adjudication found, to compare with the recorded result (`None`: undecided).
fn ending(a: &Adjudication) -> Option<Ending> {
    if a.result == GameResult::Ongoing {
        return None;
    }
    let how = a.how.unwrap_or("?");
    let why = match &a.clause {
        Some(c) => format!("{how}, {}, art. {}", c.clause, c.article.as_deref().unwrap_or("—")),
        None => how.to_string(),
    };
    Some(Ending { result: a.result_name(), ply: a.ply, why })
}

/// The judge of `xqspec replay`: a game whose moves reach a position where the side to
/// move has no legal move (mate, stalemate) is adjudicated from its moves (the arbiter's
/// result clauses, without watching for repetitions), so that a recorded result it
/// contradicts is remarked on; a record that stops before the end says nothing.
pub fn final_position(rs: &RuleSet) -> impl FnMut(&GameReplay) -> Option<Ending> + '_ {
    move |r| {
        let arbiter = rs.arbiter.as_ref()?;
        let last = r.last.as_ref()?;
        if !matches!(last.status(&rs.vm), Status::Checkmate | Status::Stalemate) {
            return None;
        }
        let a = arbiter.adjudicate(&rs.vm, None, r.start.as_ref()?, &r.moves).ok()?;
        ending(&a)
    }
}

/// Every game of every file, read by the records path `replay` reads by, replayed and
/// (with `adjudicate`) adjudicated; the text that is no game and the files not read.
fn run_batch(rs: &RuleSet, arbiter: &ArbiterRules, files: &[PathBuf], enc: Option<&'static encoding_rs::Encoding>, adjudicate: bool) -> Vec<Item> {
    let mut items = Vec::new();
    let mut replayer = Replayer::new(&rs.vm);
    for path in files {
        let file = match records::read(path, enc) {
            Ok(f) => f,
            Err(e) => {
                items.push(Item::Unread(e));
                continue;
            }
        };
        let judge = |r: &GameReplay| {
            let start = r.start.as_ref().expect("judged games have a start");
            let found = if adjudicate {
                arbiter.adjudicate(&rs.vm, rs.repetition.as_ref(), start, &r.moves).map_err(|e| e.to_string())
            } else {
                Ok(Adjudication::undecided())
            };
            let end = found.as_ref().ok().and_then(ending);
            (found, end)
        };
        for entry in records::games(&file, &mut replayer, judge) {
            let g = match entry {
                Entry::Game(g) => g,
                Entry::NotAGame(problem) => {
                    items.push(Item::NotAGame { file: path.display().to_string(), problem });
                    continue;
                }
            };
            let found = match (g.failure(), g.verdict.clone()) {
                (Some(e), _) if g.replay.error.is_some() => Err(e.to_string()),
                (Some(e), _) => Err(format!("in a variation: {e}")),
                (None, Some(v)) => v,
                (None, None) => Err("no start position".to_string()),
            };
            items.push(Item::Game(Row {
                place: format!("{} game {}", path.display(), g.number),
                title: g.replay.title.clone(),
                recorded: g.recorded().map(str::to_string),
                found,
                disagrees: g.disagrees,
                remarks: g.remarks,
            }));
        }
    }
    items
}

/// The games of a batch.
fn rows(items: &[Item]) -> impl Iterator<Item = &Row> {
    items.iter().filter_map(|i| match i {
        Item::Game(r) => Some(r),
        _ => None,
    })
}

/// The summary: games by how they ended, disagreements and errors; the remarks, the text
/// that is no game and the files not read, when there are any.
fn summary(items: &[Item]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for r in rows(items) {
        let how = r.how().to_string();
        match counts.iter_mut().find(|(h, _)| *h == how) {
            Some(c) => c.1 += 1,
            None => counts.push((how, 1)),
        }
    }
    counts.sort();
    counts.push(("disagree with the record".into(), rows(items).filter(|r| r.disagrees).count()));
    counts.push(("games".into(), rows(items).count()));
    let remarks = rows(items).map(|r| r.remarks.len()).sum();
    let not_games = items.iter().filter(|i| matches!(i, Item::NotAGame { .. })).count();
    let unread = items.iter().filter(|i| matches!(i, Item::Unread(_))).count();
    for (what, n) in [("remarks", remarks), ("text that is no game (skipped)", not_games), ("files not read", unread)] {
        if n > 0 {
            counts.push((what.into(), n));
        }
    }
    counts
}

/// `xqspec adjudicate`.
pub fn adjudicate(args: &AdjudicateArgs, rs: &RuleSet) -> Result<(), String> {
    let arbiter = rs.arbiter.as_ref().ok_or_else(|| format!("rule set {} has no arbiter's clauses", rs.id()))?;
    let enc = match &args.encoding {
        Some(n) => Some(encoding::by_name(n).map_err(|e| e.to_string())?),
        None => None,
    };
    let t0 = Instant::now();
    let items = run_batch(rs, arbiter, &args.files, enc, true);
    let adjudicated = t0.elapsed().as_secs_f64();
    let counts = summary(&items);
    if args.json {
        for i in &items {
            println!("{}", i.to_json());
        }
        let m: serde_json::Map<String, Value> = counts.iter().map(|(k, n)| (k.clone(), json!(n))).collect();
        println!("{}", json!({ "summary": m }));
    } else {
        for i in &items {
            for l in i.lines() {
                println!("{l}");
            }
        }
        let mut b = tabled::builder::Builder::default();
        b.push_record(["ended by", "games"]);
        for (k, n) in &counts {
            b.push_record([k.clone(), n.to_string()]);
        }
        println!("\n{}: adjudicated from the moves alone\n{}", rs.id(), xqspec::markdown::table_text(b, true));
    }
    let games = rows(&items).count();
    if args.bench {
        // Both passes run in turn, five times each, and the best time of each is kept: the
        // machine's noise then weighs on both alike.
        let (mut adjudicated, mut replayed) = (adjudicated, f64::MAX);
        for round in 0..5 {
            if round > 0 {
                let t = Instant::now();
                run_batch(rs, arbiter, &args.files, enc, true);
                adjudicated = adjudicated.min(t.elapsed().as_secs_f64());
            }
            let t = Instant::now();
            run_batch(rs, arbiter, &args.files, enc, false);
            replayed = replayed.min(t.elapsed().as_secs_f64());
        }
        let rate = |n: usize, s: f64| if s > 0.0 { n as f64 / s } else { f64::INFINITY };
        let line = format!(
            "bench (best of 5): plain replay {games} games in {replayed:.3} s ({:.0} games/s); with adjudication {games} games in {adjudicated:.3} s ({:.0} games/s); {:.2}× the replay",
            rate(games, replayed),
            rate(games, adjudicated),
            if replayed > 0.0 { adjudicated / replayed } else { 0.0 }
        );
        eprintln!("{line}");
    }
    let failed = rows(&items).filter(|r| r.found.is_err()).count();
    let not_games = items.iter().filter(|i| matches!(i, Item::NotAGame { .. })).count();
    let unread = items.iter().filter(|i| matches!(i, Item::Unread(_))).count();
    let mut said = Vec::new();
    if failed > 0 {
        said.push(format!("{failed} of {games} games could not be adjudicated"));
    }
    if not_games > 0 {
        said.push(format!("{not_games} {} no game", if not_games == 1 { "run of text is" } else { "runs of text are" }));
    }
    if unread > 0 {
        said.push(format!("{unread} of {} files could not be read", args.files.len()));
    }
    if said.is_empty() {
        Ok(())
    } else {
        Err(format!("{} (see above)", said.join(", ")))
    }
}

/// `xqspec status`.
pub fn status(args: &StatusArgs, rs: &RuleSet) -> Result<(), String> {
    let arbiter = rs.arbiter.as_ref().ok_or_else(|| format!("rule set {} has no arbiter's clauses", rs.id()))?;
    let (fen, moves) = match args.record.read(rs)? {
        Some(_) if !args.game.moves.is_empty() => return Err("give the moves with --moves or --pgn, not both".into()),
        Some((start, moves)) => (start.unwrap_or_else(|| args.game.fen_text(rs)), moves),
        None => args.game.line(rs)?,
    };
    let q = StatusQuery { fen, moves };
    let s = arbiter.game_status_of(&rs.vm, rs.repetition.as_ref(), &q, AfterEnd::Stop).map_err(|e| e.to_string())?;
    if args.json {
        println!("{}", s.to_json());
        return Ok(());
    }
    let e = &s.end;
    match (&e.clause, e.ply) {
        (Some(c), Some(p)) => println!(
            "{}: ended after ply {p}: {} by {} (art. {}) [{}]",
            rs.id(),
            e.result.name(),
            c.clause,
            c.article.as_deref().unwrap_or("—"),
            e.how.unwrap_or("?")
        ),
        _ => println!("{}: ongoing ({})", rs.id(), s.position),
    }
    for r in &s.repeated {
        println!("  repeated: {} stood {} times (first after ply {})", r.fen, r.times, r.ply);
    }
    for (side, o) in ["red", "black"].iter().zip(&s.orders) {
        if let Some(c) = o {
            println!("  {side} is ordered to change ({}, art. {})", c.clause, c.article.as_deref().unwrap_or("—"));
        }
    }
    if let Some((rounds, limit)) = s.natural_limit {
        println!("  natural move limit: {rounds} of {limit} rounds counted, {} to go", limit.saturating_sub(rounds));
    }
    if let Some(c) = &s.continues {
        println!("  {}", super::goes_on(c, ["ply", "plies"], |i| format!("ply {}", i + 1)));
    }
    Ok(())
}
