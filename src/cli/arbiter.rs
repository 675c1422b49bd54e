//! `xqspec outcome` and `xqspec touch`: the arbiter's two queries on the command line.
//!
//! A game for `outcome` is a YAML file:
//!
//! ```yaml
//! edition: cxa-2020          # optional (--edition wins; default cxa-2020)
//! fen: "…"                   # optional: the position before the first event
//! events:                    # the events of PROTOCOL.md § outcome
//!   - move: h2e2
//!   - offer_draw: red
//!   - pgn: 20                # with --pgn: the next 20 moves of the record
//! ```
//!
//! With `--pgn GAME.pgn` the record's main line is played as `move` events: where the
//! events file says (`pgn: N`, `pgn: rest`), or, when it says nowhere, before every event.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{json, Value};

use xqspec::arbiter::{ArbiterError, OutcomeQuery, TouchQuery};
use xqspec::ruleset::RuleSet;

#[derive(clap::Args)]
pub struct OutcomeArgs {
    /// The game as a YAML events file (`fen:` optional, `events:` a list; see README).
    pub file: PathBuf,
    /// A game record whose main-line moves are played as `move` events.
    #[arg(long, value_name = "PGN")]
    pub pgn: Option<PathBuf>,
    /// Which game of the PGN file (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// The edition (rule set); default: the file's `edition:`, else cxa-2020.
    #[arg(long)]
    pub edition: Option<String>,
    /// Print the answer object of the protocol's `outcome` query.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct TouchArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
    /// The point of a touched piece; repeat in the order touched.
    #[arg(long = "touch", required = true, value_name = "POINT")]
    pub touches: Vec<String>,
    /// The pieces were touched at the same time (5.5).
    #[arg(long)]
    pub both: bool,
    /// Print the answer object of the protocol's `touch_move` query.
    #[arg(long)]
    pub json: bool,
}

/// The YAML events file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    #[serde(default)]
    edition: Option<String>,
    #[serde(default)]
    fen: Option<String>,
    events: Vec<Value>,
}

fn read_game(path: &Path) -> Result<GameFile, String> {
    xqspec::input::yaml_file(path).map_err(|e| e.to_string())
}

/// Places the record's moves among the events (`pgn: N`, `pgn: rest`).
fn splice_record(events: Vec<Value>, moves: &[String]) -> Result<Vec<Value>, String> {
    let marker = |v: &Value| v.as_object().filter(|m| m.len() == 1).and_then(|m| m.get("pgn")).cloned();
    let mut next = 0;
    let mut out = Vec::new();
    let mut placed = false;
    for (i, ev) in events.into_iter().enumerate() {
        let Some(n) = marker(&ev) else {
            out.push(ev);
            continue;
        };
        placed = true;
        let take = match &n {
            Value::String(s) if s == "rest" => moves.len() - next,
            Value::Number(k) => k.as_u64().map(|k| k as usize).filter(|&k| next + k <= moves.len()).ok_or_else(|| {
                format!("events[{i}]: `pgn: {k}` asks for more moves than the record has left ({})", moves.len() - next)
            })?,
            other => return Err(format!("events[{i}]: `pgn:` takes a number of moves or `rest`, not {other}")),
        };
        out.extend(moves[next..next + take].iter().map(|m| json!({ "move": m })));
        next += take;
    }
    if !placed {
        let mut all: Vec<Value> = moves.iter().map(|m| json!({ "move": m })).collect();
        all.extend(out);
        return Ok(all);
    }
    if next < moves.len() {
        return Err(format!("the events place {next} of the record's {} moves; end with `- pgn: rest`", moves.len()));
    }
    Ok(out)
}

/// `xqspec outcome FILE`: the decision and its reasons.
pub fn outcome(args: &OutcomeArgs, load: impl Fn(&str) -> Result<RuleSet, String>) -> Result<(), String> {
    let file = read_game(&args.file)?;
    let edition = args.edition.clone().or(file.edition.clone()).unwrap_or_else(|| xqspec::ruleset::DEFAULT.into());
    let rs = match (&args.edition, &file.edition) {
        // The rule set named in the file: its errors name the file.
        (None, Some(_)) => load(&edition).map_err(|e| format!("{}: edition: {e}", args.file.display()))?,
        _ => load(&edition)?,
    };
    let arbiter = rs.arbiter.as_ref().ok_or_else(|| format!("rule set {} has no arbiter's clauses", rs.id()))?;
    let (fen, events) = match &args.pgn {
        None => (file.fen, file.events),
        Some(p) => {
            let text = xqspec::input::read_bytes(p).map_err(|e| e.to_string())?;
            let (text, _) = xqspec::notation::encoding::decode(&text, None);
            let games = xqspec::notation::replay::replay_text(&rs.vm, &text);
            let g = games.get(args.game.wrapping_sub(1)).ok_or_else(|| format!("{}: there is no game {}", p.display(), args.game))?;
            if let Some(e) = &g.error {
                return Err(format!("{}: game {}: {e}", p.display(), args.game));
            }
            if file.fen.is_some() {
                return Err(format!("{}: give the position in the record or in the events file, not both", args.file.display()));
            }
            let moves: Vec<String> = g.moves.iter().map(|m| m.iccs()).collect();
            let fen = g.start.as_ref().map(|s| s.to_fen(&rs.vm));
            (fen, splice_record(file.events, &moves).map_err(|e| format!("{}: {e}", args.file.display()))?)
        }
    };
    let names: Vec<String> =
        events.iter().map(|e| e.as_object().and_then(|m| m.keys().next().cloned()).unwrap_or_default()).collect();
    let q = OutcomeQuery { fen, events };
    let o = arbiter.outcome(&rs.vm, rs.repetition.as_ref(), &q).map_err(|e| format!("{}: {}", args.file.display(), show(&e)))?;
    if args.json {
        println!("{}", o.to_json());
        return Ok(());
    }
    let cite = |c: &Option<xqspec::arbiter::RuleRef>| match c {
        Some(c) => format!("{} (art. {})", c.clause, c.article.as_deref().unwrap_or("—")),
        None => "no clause".into(),
    };
    let headline = match &o.event {
        Some(e) => {
            let by = o.by.map(|b| format!(", found by the {}", b.name())).unwrap_or_default();
            format!("{} by {} at events[{e}] ({}){by}", o.result.name().replace('_', " "), cite(&o.clause), names[*e])
        }
        None => o.result.name().into(),
    };
    println!("{}: {headline}", rs.id());
    println!("fouls: red {}, black {}", o.fouls[0], o.fouls[1]);
    for r in &o.rulings {
        let side = r.side.map(|s| format!(" ({})", s.name())).unwrap_or_default();
        let mut extra = Vec::new();
        if let Some(s) = r.seconds {
            extra.push(format!("{}:{:02}", s / 60, s % 60));
        }
        if let Some(n) = r.count {
            extra.push(format!("×{n}"));
        }
        if let Some(n) = r.rounds {
            extra.push(format!("{n} rounds"));
        }
        if let Some(m) = &r.moves {
            extra.push(format!("moves {}", m.join(" ")));
        }
        if let Some(n) = &r.note {
            extra.push(n.clone());
        }
        if let Some(b) = r.by {
            extra.push(format!("by {}", b.name()));
        }
        let extra = if extra.is_empty() { String::new() } else { format!(": {}", extra.join("; ")) };
        println!("  events[{}] {}: {}{side} — {}{extra}", r.event, names[r.event], r.decision.name(), cite(&r.clause));
    }
    println!("position: {}", o.fen);
    Ok(())
}

fn show(e: &ArbiterError) -> String {
    match e {
        ArbiterError::Fen(f) => format!("invalid FEN: {f}"),
        ArbiterError::Reject { kind, message } => format!("{message} [{kind}]"),
    }
}

/// `xqspec touch`: the moves allowed after touching pieces, and the step that decided.
pub fn touch(args: &TouchArgs, rs: &RuleSet) -> Result<(), String> {
    let arbiter = rs.arbiter.as_ref().ok_or_else(|| format!("rule set {} has no arbiter's clauses", rs.id()))?;
    let q = TouchQuery { fen: args.game.fen_text(rs), moves: args.game.moves.clone(), touches: args.touches.clone(), simultaneous: args.both };
    let t = arbiter.touch_move(&rs.vm, &q).map_err(|e| show(&e))?;
    if args.json {
        println!("{}", t.to_json());
        return Ok(());
    }
    let article = t.article.as_deref().unwrap_or("—");
    match &t.allowed {
        Some(list) => println!("step {} ({}, art. {article}): must play {}", t.step, t.clause, list.join(" ")),
        None => println!("step {} ({}, art. {article}): free, any legal move", t.step, t.clause),
    }
    if t.foul {
        println!("foul: yes ({})", t.foul_clauses.join(", "));
    } else {
        println!("foul: no");
    }
    Ok(())
}
