//! `xqspec adjudicate RECORDS…` and `xqspec status`: the arbiter watching the board.
//!
//! `adjudicate` replays every game of every record (PGN in any notation and encoding, many
//! games a file, through the one replayer of `xqspec replay`) and gives the result the
//! rules give from its moves alone (`ArbiterRules::adjudicate`): mate, stalemate (困毙),
//! perpetual check, a forbidden cycle not changed, the natural move limit, or `undecided`;
//! with the ply, the clause and the article, the recorded result beside it and a flag where
//! they disagree. A record that cannot be replayed is reported with its place and the batch
//! goes on. `--bench` times plain replay and replay with adjudication of the same files.
//!
//! `status` is the `game_status` query on the command line.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};

use xqspec::arbiter::{Adjudication, AfterEnd, ArbiterRules, StatusQuery};
use xqspec::notation::{encoding, pgn, replay::Replayer};
use xqspec::ruleset::RuleSet;

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
}

impl Row {
    /// The adjudicated result differs from a recorded one (an undecided game never does).
    fn disagrees(&self) -> bool {
        match (&self.found, self.recorded.as_deref().and_then(pgn::result_of_token)) {
            (Ok(a), Some(r)) => a.result_name() != "undecided" && a.result_name() != r,
            _ => false,
        }
    }

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
            m.insert("disagrees".into(), json!(self.disagrees()));
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

    fn line(&self) -> String {
        let recorded = self.recorded.as_deref().unwrap_or("none");
        match &self.found {
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
                let flag = if self.disagrees() { " — DISAGREES" } else { "" };
                format!("{}{}: {}{how}; recorded {recorded}{flag}", self.place, self.titled(), a.result_name())
            }
        }
    }
}

/// Reads one record file (its encoding detected unless given).
fn read_record(path: &Path, enc: Option<&'static encoding_rs::Encoding>) -> Result<String, String> {
    let bytes = xqspec::input::read_bytes(path).map_err(|e| e.to_string())?;
    Ok(encoding::decode(&bytes, enc).0)
}

/// Every game of every file, replayed and (with `adjudicate`) adjudicated.
fn run_batch(rs: &RuleSet, arbiter: &ArbiterRules, files: &[PathBuf], enc: Option<&'static encoding_rs::Encoding>, adjudicate: bool) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut replayer = Replayer::new(&rs.vm);
    for path in files {
        let text = match read_record(path, enc) {
            Ok(t) => t,
            Err(e) => {
                rows.push(Row { place: path.display().to_string(), title: String::new(), recorded: None, found: Err(e) });
                continue;
            }
        };
        for g in pgn::parse(&text) {
            let r = replayer.replay(&text, &g);
            let place = format!("{} game {}", path.display(), g.number);
            let recorded = g.tag("Result").or(g.result).map(str::to_string);
            let found = match (&r.error, &r.start) {
                (Some(e), _) => Err(e.to_string()),
                (None, None) => Err("no start position".to_string()),
                (None, Some(start)) if adjudicate => {
                    arbiter.adjudicate(&rs.vm, rs.repetition.as_ref(), start, &r.moves).map_err(|e| e.to_string())
                }
                (None, Some(_)) => Ok(Adjudication::undecided()),
            };
            rows.push(Row { place, title: r.title, recorded, found });
        }
    }
    rows
}

/// The summary: games by how they ended, disagreements and errors.
fn summary(rows: &[Row]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for r in rows {
        let how = r.how().to_string();
        match counts.iter_mut().find(|(h, _)| *h == how) {
            Some(c) => c.1 += 1,
            None => counts.push((how, 1)),
        }
    }
    counts.sort();
    counts.push(("disagree with the record".into(), rows.iter().filter(|r| r.disagrees()).count()));
    counts.push(("games".into(), rows.len()));
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
    let rows = run_batch(rs, arbiter, &args.files, enc, true);
    let adjudicated = t0.elapsed().as_secs_f64();
    let counts = summary(&rows);
    if args.json {
        for r in &rows {
            println!("{}", r.to_json());
        }
        let m: serde_json::Map<String, Value> = counts.iter().map(|(k, n)| (k.clone(), json!(n))).collect();
        println!("{}", json!({ "summary": m }));
    } else {
        for r in &rows {
            println!("{}", r.line());
        }
        let mut b = tabled::builder::Builder::default();
        b.push_record(["ended by", "games"]);
        for (k, n) in &counts {
            b.push_record([k.clone(), n.to_string()]);
        }
        println!("\n{}: adjudicated from the moves alone\n{}", rs.id(), xqspec::markdown::table_text(b, true));
    }
    if args.bench {
        // Both passes run in turn, five times each, and the best time of each is kept: the
        // machine's noise then weighs on both alike.
        let (mut adjudicated, mut replayed, mut games) = (adjudicated, f64::MAX, 0);
        for round in 0..5 {
            if round > 0 {
                let t = Instant::now();
                run_batch(rs, arbiter, &args.files, enc, true);
                adjudicated = adjudicated.min(t.elapsed().as_secs_f64());
            }
            let t = Instant::now();
            games = run_batch(rs, arbiter, &args.files, enc, false).len();
            replayed = replayed.min(t.elapsed().as_secs_f64());
        }
        let rate = |n: usize, s: f64| if s > 0.0 { n as f64 / s } else { f64::INFINITY };
        let line = format!(
            "bench (best of 5): plain replay {games} games in {replayed:.3} s ({:.0} games/s); with adjudication {} games in {adjudicated:.3} s ({:.0} games/s); {:.2}× the replay",
            rate(games, replayed),
            rows.len(),
            rate(rows.len(), adjudicated),
            if replayed > 0.0 { adjudicated / replayed } else { 0.0 }
        );
        eprintln!("{line}");
    }
    match rows.iter().filter(|r| r.found.is_err()).count() {
        0 => Ok(()),
        n => Err(format!("{n} of {} games could not be adjudicated (see above)", rows.len())),
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
