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
//!
//! The commands given a real record (`RecordArgs`: `--pgn FILE --game N`, in `src/cli/mod.rs`)
//! read it by `notation::records`, so game N is the game `replay` numbers N, in any notation.
//!
//! `--bench` on the 1,125-game file (release build, a loaded 2-core machine): replay runs at
//! 10–13k games/s, adjudication at 2.6–3.5k (3.1–4×; issue 19's bound is 3×); the board watch
//! alone (a spec without the pending counts) is 1.7–1.8×: the rest is the 26 rulings of the
//! 棋例 engine, one of which takes about 100 ms.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::{json, Value};

use std::io::Write as _;

use xqspec::arbiter::{AfterEnd, StatusQuery};
use xqspec::batch::{adjudicate_files, Item, Tally};
use xqspec::notation::encoding;
use xqspec::notation::stream;
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
    /// Threads to spread the games over (all cores when absent; at most 4 per core).
    #[arg(long, value_parser = super::threads_arg)]
    pub threads: Option<usize>,
    /// No progress line on stderr (it shows only on a terminal, after a few seconds).
    #[arg(long)]
    pub quiet: bool,
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

/// `xqspec adjudicate`: every item printed as it comes (games in input order), then the
/// summary.
pub fn adjudicate(args: &AdjudicateArgs, rs: &RuleSet) -> Result<(), String> {
    let enc = match &args.encoding {
        Some(n) => Some(encoding::by_name(n).map_err(|e| e.to_string())?),
        None => None,
    };
    let opts = stream::Options {
        encoding: enc,
        threads: args.threads,
        ..Default::default()
    };
    let mut tally = Tally::default();
    let mut progress = super::progress::Progress::on_terminal(!args.quiet);
    let t0 = Instant::now();
    let mut out = std::io::stdout().lock();
    adjudicate_files(rs, &args.files, &opts, true, &mut |item| {
        tally.add(&item);
        if !matches!(item, Item::FileDone) {
            progress.finish();
            if args.json {
                let _ = writeln!(out, "{}", item.to_json());
            } else {
                for l in item.lines() {
                    let _ = writeln!(out, "{l}");
                }
            }
        }
        progress.tick(|| rate_line(&tally, args.files.len(), t0.elapsed().as_secs_f64()));
    })?;
    progress.finish();
    let adjudicated = t0.elapsed().as_secs_f64();
    let counts = tally.counts();
    if args.json {
        let m: serde_json::Map<String, Value> =
            counts.iter().map(|(k, n)| (k.clone(), json!(n))).collect();
        let _ = writeln!(out, "{}", json!({ "summary": m }));
    } else {
        let mut b = tabled::builder::Builder::default();
        b.push_record(["ended by", "games"]);
        for (k, n) in &counts {
            b.push_record([k.clone(), n.to_string()]);
        }
        let _ = writeln!(
            out,
            "\n{}: adjudicated from the moves alone\n{}",
            rs.id(),
            xqspec::markdown::table_text(b, true)
        );
    }
    drop(out);
    let games = tally.games;
    if args.bench {
        // Both passes run in turn, five times each, and the best time of each is kept: the
        // machine's noise then weighs on both alike.
        let (mut adjudicated, mut replayed) = (adjudicated, f64::MAX);
        for round in 0..5 {
            if round > 0 {
                let t = Instant::now();
                adjudicate_files(rs, &args.files, &opts, true, &mut |_| {})?;
                adjudicated = adjudicated.min(t.elapsed().as_secs_f64());
            }
            let t = Instant::now();
            adjudicate_files(rs, &args.files, &opts, false, &mut |_| {})?;
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
    let mut said = Vec::new();
    if tally.failed > 0 {
        said.push(format!(
            "{} of {games} games could not be adjudicated",
            tally.failed
        ));
    }
    if tally.not_games > 0 {
        said.push(format!(
            "{} {}",
            tally.not_games,
            if tally.not_games == 1 {
                "run of text is no game"
            } else {
                "runs of text are no game"
            }
        ));
    }
    if tally.unread > 0 {
        said.push(format!(
            "{} of {} files could not be read",
            tally.unread,
            args.files.len()
        ));
    }
    if said.is_empty() {
        Ok(())
    } else {
        Err(format!("{} (see above)", said.join(", ")))
    }
}

/// The progress line of a batch: files, games, games per second.
fn rate_line(t: &Tally, files: usize, secs: f64) -> String {
    super::progress::rate_line(t.files, files, t.games, t.moves, secs)
}

/// The side to move after `plies` moves from `fen` (`startpos`: Red).
fn fen_side(fen: &str, plies: usize) -> &'static str {
    let first_black = fen.split_whitespace().nth(1) == Some("b");
    if first_black == plies.is_multiple_of(2) {
        "black"
    } else {
        "red"
    }
}

/// `4th`, `1st`, `22nd`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `xqspec status`.
pub fn status(args: &StatusArgs, rs: &RuleSet) -> Result<(), String> {
    let arbiter = rs
        .arbiter
        .as_ref()
        .ok_or_else(|| format!("rule set {} has no arbiter's clauses", rs.id()))?;
    let (fen, moves) = args
        .record
        .or_line(rs, args.game.fen.as_deref(), &args.game.moves)?;
    let q = StatusQuery { fen, moves };
    let s = arbiter
        .game_status_of(&rs.vm, rs.repetition.as_ref(), &q, AfterEnd::Stop)
        .map_err(|e| e.to_string())?;
    if args.json {
        println!("{}", s.to_json());
        return Ok(());
    }
    let words = rs.edition.words();
    let cite = |c: &xqspec::arbiter::RuleRef| {
        format!("{}, art. {}", c.clause, c.article.as_deref().unwrap_or("—"))
    };
    let e = &s.end;
    match (&e.clause, e.ply) {
        (Some(c), Some(p)) => println!(
            "{}: ended after ply {p}: {} ({}; {})",
            rs.id(),
            words.en("result", e.result.name()),
            e.how.map_or_else(String::new, |h| words.en("how", h)),
            cite(c)
        ),
        _ => {
            let side = fen_side(&q.fen, q.moves.len());
            println!(
                "{}: {} after ply {}; {} to move, {}",
                rs.id(),
                words.en("result", "ongoing"),
                q.moves.len(),
                words.en("side", side),
                words.en("position", s.position)
            )
        }
    }
    for r in &s.repeated {
        println!(
            "  repeated: {} stood {} times (first after ply {})",
            r.fen, r.times, r.ply
        );
    }
    for (side, o) in ["red", "black"].iter().zip(&s.orders) {
        if let Some(c) = o {
            println!(
                "  {} is ordered to change ({})",
                words.en("side", side),
                cite(c)
            );
        }
    }
    if let Some(n) = &s.next {
        let then: Vec<String> = n
            .rulings
            .iter()
            .map(|r| {
                let side = r
                    .side
                    .map(|x| format!("{}: ", words.en("side", x.name())))
                    .unwrap_or_default();
                let by = r.clause.as_ref().map(|c| format!(" ({})", cite(c)));
                format!(
                    "{side}{}{}",
                    words.en("decision", r.decision.name()),
                    by.unwrap_or_default()
                )
            })
            .collect();
        println!(
            "  next: if the last {} plies are played again, the board rules after ply {} (a position standing for the {} time, {}): {}",
            n.cycle,
            n.ply,
            ordinal(n.times),
            cite(&n.rule),
            then.join("; ")
        );
    }
    if let Some((rounds, limit)) = s.natural_limit {
        println!(
            "  natural move limit: {rounds} of {limit} rounds counted, {} to go",
            limit.saturating_sub(rounds)
        );
    }
    if let Some(c) = &s.continues {
        println!(
            "  {}",
            super::goes_on(c, ["ply", "plies"], |i| format!("ply {}", i + 1))
        );
    }
    Ok(())
}
