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

use super::Lang;
use crate::answer::ToAnswer;
use std::path::PathBuf;
use std::time::Instant;

use serde_json::{json, Value};

use std::io::Write as _;

use crate::arbiter::{AfterEnd, StatusQuery};
use crate::batch::{adjudicate_files, Item, Tally};
use crate::notation::encoding;
use crate::notation::stream;
use crate::ruleset::RuleSet;

#[derive(clap::Args)]
pub struct AdjudicateArgs {
    /// PGN record files; each may hold several games, in any notation.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Text encoding of the files (utf-8, gbk, gb18030, big5, utf-16le, utf-16be); detected when absent.
    #[arg(long)]
    pub encoding: Option<String>,
    #[arg(long, default_value = crate::ruleset::DEFAULT)]
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
pub fn adjudicate(args: &AdjudicateArgs, rs: &RuleSet, lang: Lang) -> Result<(), String> {
    let words = rs.edition.words();
    let zh = (lang == Lang::Zh).then_some(words);
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
                for l in item.lines_in(zh) {
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
        let _ = writeln!(out, "{}", summary_table(rs, &counts, lang));
    }
    drop(out);
    let games = tally.games;
    if args.bench {
        bench(rs, args, &opts, games, adjudicated)?;
    }
    problems(&tally, args.files.len())
}

/// The summary of a batch as a table (how the games ended, how many), under its title.
fn summary_table(rs: &RuleSet, counts: &[(String, usize)], lang: Lang) -> String {
    let words = rs.edition.words();
    let mut b = tabled::builder::Builder::default();
    b.push_record([lang.say("ended by", "终局方式"), lang.say("games", "局数")]);
    for (k, n) in counts {
        // An observation in words (`how`), else the summary's own keys.
        let said = match (lang, words.get("how", k)) {
            (Lang::Zh, Some(w)) => w.zh.clone(),
            (Lang::Zh, None) => match k.as_str() {
                "undecided" => lang.word(words, "result", "undecided"),
                "error" => "无法裁定".into(),
                "other" => "其他".into(),
                "disagree with the record" => "与所记结果不符".into(),
                "games" => "局数合计".into(),
                "text that is no game (skipped)" => "非对局文字（跳过）".into(),
                "remarks" => "附注".into(),
                "files not read" => "无法读取的文件".into(),
                _ => k.clone(),
            },
            (Lang::En, _) => k.clone(),
        };
        b.push_record([said, n.to_string()]);
    }
    let title = format!(
        "\n{}",
        lang.say(
            format!("{}: adjudicated from the moves alone", rs.id()),
            format!("{}：仅按着法裁定", rs.id()),
        )
    );
    format!("{title}\n{}", crate::markdown::table_text(b, true))
}

/// `--bench`: plain replay against replay with adjudication, both passes in turn, five
/// times each, the best time of each kept (the machine's noise then weighs on both alike);
/// printed on stderr.
fn bench(
    rs: &RuleSet,
    args: &AdjudicateArgs,
    opts: &stream::Options,
    games: usize,
    adjudicated: f64,
) -> Result<(), String> {
    let (mut adjudicated, mut replayed) = (adjudicated, f64::MAX);
    for round in 0..5 {
        if round > 0 {
            let t = Instant::now();
            adjudicate_files(rs, &args.files, opts, true, &mut |_| {})?;
            adjudicated = adjudicated.min(t.elapsed().as_secs_f64());
        }
        let t = Instant::now();
        adjudicate_files(rs, &args.files, opts, false, &mut |_| {})?;
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
    Ok(())
}

/// What went wrong in the batch, as the command's error (`Ok` when nothing did).
fn problems(tally: &Tally, files: usize) -> Result<(), String> {
    let games = tally.games;
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
            tally.unread, files
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

/// The status's first line: how the game ended (after which ply, by which clause), or
/// that it goes on and who is to move.
fn status_headline(
    rs: &RuleSet,
    s: &crate::arbiter::GameStatus,
    q: &StatusQuery,
    lang: Lang,
) -> String {
    let words = rs.edition.words();
    let w = |group: &str, code: &str| lang.word(words, group, code);
    let cite = |c: &crate::arbiter::RuleRef| lang.cite(c);
    let e = &s.end;
    match (&e.clause, e.ply) {
        (Some(c), Some(p)) => {
            let (result, how) = (
                w("result", e.result.name()),
                e.how.map_or_else(String::new, |h| w("how", h)),
            );
            lang.say(
                format!(
                    "{}: ended after ply {p}: {result} ({how}; {})",
                    rs.id(),
                    cite(c)
                ),
                format!(
                    "{}：第 {p} 个半回合后终局：{result}（{how}；{}）",
                    rs.id(),
                    cite(c)
                ),
            )
        }
        _ => {
            let side = fen_side(&q.fen, q.moves.len());
            let (goes_on, n, side, position) = (
                w("result", "ongoing"),
                q.moves.len(),
                w("side", side),
                w("position", s.position),
            );
            lang.say(
                format!(
                    "{}: {goes_on} after ply {n}; {side} to move, {position}",
                    rs.id()
                ),
                format!(
                    "{}：第 {n} 个半回合后{goes_on}；{side}走，{position}",
                    rs.id()
                ),
            )
        }
    }
}

/// What the board rules if the last cycle is played again (`next` of the status).
fn next_ruling(rs: &RuleSet, n: &crate::arbiter::Next, lang: Lang) -> String {
    let words = rs.edition.words();
    let w = |group: &str, code: &str| lang.word(words, group, code);
    let cite = |c: &crate::arbiter::RuleRef| lang.cite(c);
    let then: Vec<String> = n
        .rulings
        .iter()
        .map(|r| {
            let side = r
                .side
                .map(|x| format!("{}{}", w("side", x.name()), lang.say(": ", "：")))
                .unwrap_or_default();
            let by = r
                .clause
                .as_ref()
                .map(|c| lang.say(format!(" ({})", cite(c)), format!("（{}）", cite(c))));
            format!(
                "{side}{}{}",
                w("decision", r.decision.name()),
                by.unwrap_or_default()
            )
        })
        .collect();
    lang.say(
            format!(
                "  next: if the last {} plies are played again, the board rules after ply {} (a position standing for the {} time, {}): {}",
                n.cycle,
                n.ply,
                ordinal(n.times),
                cite(&n.rule),
                then.join("; ")
            ),
            format!(
                "  下次裁决：若重走最后 {} 个半回合，第 {} 个半回合后某局面第 {} 次出现，即按棋例裁决（{}）：{}",
                n.cycle,
                n.ply,
                n.times,
                cite(&n.rule),
                then.join("；")
            ),
    )
}

/// `xqspec status`.
pub fn status(args: &StatusArgs, rs: &RuleSet, lang: Lang) -> Result<(), String> {
    let arbiter = rs.require_arbiter()?;
    let (fen, moves) = args
        .record
        .or_line(rs, args.game.fen.as_deref(), &args.game.moves)?;
    let q = StatusQuery { fen, moves };
    let s = arbiter
        .game_status_of(rs.board(), &q, AfterEnd::Stop)
        .map_err(|e| e.to_string())?;
    if args.json {
        println!("{}", s.to_json());
        return Ok(());
    }
    let words = rs.edition.words();
    let w = |group: &str, code: &str| lang.word(words, group, code);
    let cite = |c: &crate::arbiter::RuleRef| lang.cite(c);
    println!("{}", status_headline(rs, &s, &q, lang));
    for r in &s.repeated {
        println!(
            "{}",
            lang.say(
                format!(
                    "  repeated: {} stood {} times (first after ply {})",
                    r.fen, r.times, r.ply
                ),
                format!(
                    "  重复局面：{} 出现 {} 次（首次在第 {} 个半回合后）",
                    r.fen, r.times, r.ply
                ),
            )
        );
    }
    for (side, o) in ["red", "black"].iter().zip(&s.orders) {
        if let Some(c) = o {
            let side = w("side", side);
            println!(
                "{}",
                lang.say(
                    format!("  {side} is ordered to change ({})", cite(c)),
                    format!("  {side}已被判须变着（{}）", cite(c)),
                )
            );
        }
    }
    if let Some(n) = &s.next {
        println!("{}", next_ruling(rs, n, lang));
    }
    if let Some((rounds, limit)) = s.natural_limit {
        let left = limit.saturating_sub(rounds);
        println!(
            "{}",
            lang.say(
                format!("  natural move limit: {rounds} of {limit} rounds counted, {left} to go"),
                format!("  自然限着：已计 {rounds} / {limit} 回合，尚余 {left} 回合"),
            )
        );
    }
    if let Some(c) = &s.continues {
        let units = match lang {
            Lang::En => ["ply", "plies"],
            Lang::Zh => ["个半回合", "个半回合"],
        };
        println!(
            "  {}",
            super::goes_on(lang, c, units, |i| lang
                .say(format!("ply {}", i + 1), format!("第 {} 个半回合", i + 1)))
        );
    }
    Ok(())
}
