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

use crate::answer::ToAnswer;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::arbiter::{AfterEnd, ArbiterError, OutcomeQuery, TouchQuery};
use crate::ruleset::RuleSet;

#[derive(clap::Args)]
pub struct OutcomeArgs {
    /// The game as a YAML events file (`fen:` optional, `events:` a list; see README);
    /// optional with --pgn (the record's moves alone).
    #[arg(required_unless_present = "pgn")]
    pub file: Option<PathBuf>,
    /// A game record whose main-line moves are played as `move` events. A record that goes
    /// on after the game ended by the rules is judged up to that end.
    #[command(flatten)]
    pub record: super::RecordArgs,
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

shapes! {
    /// The YAML events file.
    struct GameFile {
        edition: Option<String>,
        fen: Option<String>,
        events: Vec<Value>,
    }
}

fn read_game(path: &Path) -> Result<GameFile, String> {
    crate::input::yaml_file(path).map_err(|e| e.to_string())
}

/// `xqspec outcome FILE`: the decision and its reasons.
pub fn outcome(
    args: &OutcomeArgs,
    load: impl Fn(&str) -> Result<RuleSet, String>,
    lang: super::Lang,
) -> Result<(), String> {
    let (rs, q, place) = outcome_query(args, load)?;
    let arbiter = rs.require_arbiter()?;
    let names: Vec<String> = q
        .events
        .iter()
        .map(|e| {
            e.as_object()
                .and_then(|m| m.keys().next().cloned())
                .unwrap_or_default()
        })
        .collect();
    let o = arbiter
        .outcome_of(rs.board(), &q, AfterEnd::Stop)
        .map_err(|e| format!("{place}: {}", show(&e)))?;
    if args.json {
        println!("{}", o.to_json());
        return Ok(());
    }
    let said = Said {
        lang,
        words: rs.edition.words(),
        names: &names,
    };
    println!("{}{}{}", rs.id(), lang.say(": ", "："), said.headline(&o));
    let (red, black) = (said.w("side", "red"), said.w("side", "black"));
    println!(
        "{}",
        lang.say(
            format!(
                "fouls: {} {}, {} {}",
                red.to_lowercase(),
                o.fouls[0],
                black.to_lowercase(),
                o.fouls[1]
            ),
            format!("犯规：{red} {} 次，{black} {} 次", o.fouls[0], o.fouls[1]),
        )
    );
    for r in &o.rulings {
        println!("{}", said.ruling(r));
    }
    println!("{}{}", lang.say("position: ", "局面："), o.fen);
    if let Some(c) = &o.continues {
        let units = match lang {
            super::Lang::En => ["event", "events"],
            super::Lang::Zh => ["项记录", "项记录"],
        };
        println!(
            "{}",
            super::goes_on(lang, c, units, |i| format!("events[{i}]"))
        );
    }
    Ok(())
}

/// The rule set, the query (the events file's events, the record's moves among them) and
/// the name of the file they come from, for the errors.
fn outcome_query(
    args: &OutcomeArgs,
    load: impl Fn(&str) -> Result<RuleSet, String>,
) -> Result<(RuleSet, OutcomeQuery, String), String> {
    let file = match &args.file {
        Some(f) => read_game(f)?,
        None => GameFile {
            edition: None,
            fen: None,
            events: Vec::new(),
        },
    };
    let place = args
        .file
        .as_ref()
        .or(args.record.pgn.as_ref())
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let edition = args
        .edition
        .clone()
        .or(file.edition.clone())
        .unwrap_or_else(|| crate::ruleset::DEFAULT.into());
    let rs = match (&args.edition, &file.edition) {
        // The rule set named in the file: its errors name the file.
        (None, Some(_)) => load(&edition).map_err(|e| format!("{place}: edition: {e}"))?,
        _ => load(&edition)?,
    };
    let (fen, events) = match args.record.read(&rs)? {
        None => (file.fen, file.events),
        Some(_) if file.fen.is_some() => {
            return Err(format!(
                "{place}: give the position in the record or in the events file, not both"
            ));
        }
        Some((fen, moves)) => (
            fen,
            OutcomeQuery::events_with_moves(file.events, &moves)
                .map_err(|e| format!("{place}: {}", show(&e)))?,
        ),
    };
    Ok((rs, OutcomeQuery { fen, events }, place))
}

/// An outcome's parts in words, in the language asked for.
struct Said<'a> {
    lang: super::Lang,
    words: &'a crate::spec::Words,
    /// The kind of every event, as the file writes it.
    names: &'a [String],
}

impl Said<'_> {
    fn w(&self, group: &str, code: &str) -> String {
        self.lang.word(self.words, group, code)
    }

    /// A clause with its article (`result.change_refused (art. 4.1.5)`).
    fn cite(&self, c: &Option<crate::arbiter::RuleRef>) -> String {
        match c {
            Some(c) => {
                let art = c.article.as_deref().unwrap_or("—");
                self.lang.say(
                    format!("{} (art. {art})", c.clause),
                    format!("{}（第 {art} 条）", c.clause),
                )
            }
            None => self.lang.say("no clause", "无条款"),
        }
    }

    /// An event by the words of its kind (`flag fall`), or as written when the spec has none.
    fn event(&self, i: usize) -> String {
        let k = self.names[i].as_str();
        match self
            .words
            .get("event", k)
            .or_else(|| self.words.get("note", k))
        {
            Some(_) => self.w("event", k),
            None => k.to_string(),
        }
    }

    /// The result, the clause and the event that decided it.
    fn headline(&self, o: &crate::arbiter::Outcome) -> String {
        let lang = self.lang;
        let result = self.w("result", o.result.name());
        match &o.event {
            Some(e) => {
                let (code, clause) = (o.result.name().replace('_', " "), self.cite(&o.clause));
                let by = |b: crate::arbiter::By| {
                    lang.say(
                        format!(", {}", b.words()),
                        format!("，{}", self.w("by", b.name())),
                    )
                };
                let by = o.by.map(by).unwrap_or_default();
                lang.say(
                    format!("{code} by {clause} at events[{e}] ({}){by}", self.names[*e]),
                    format!(
                        "{result}，依 {clause}，于 events[{e}]（{}）{by}",
                        self.event(*e)
                    ),
                )
            }
            None => lang.say(o.result.name(), result),
        }
    }

    /// One ruling of the arbiter's, on its line.
    fn ruling(&self, r: &crate::arbiter::Ruling) -> String {
        let lang = self.lang;
        let side = r
            .side
            .map(|s| {
                lang.say(
                    format!(" ({})", s.name()),
                    format!("（{}）", self.w("side", s.name())),
                )
            })
            .unwrap_or_default();
        let mut extra = Vec::new();
        if let Some(s) = r.seconds {
            extra.push(format!("{}:{:02}", s / 60, s % 60));
        }
        if let Some(n) = r.count {
            extra.push(format!("×{n}"));
        }
        if let Some(n) = r.rounds {
            extra.push(lang.say(format!("{n} rounds"), format!("{n} 回合")));
        }
        if let Some(m) = &r.moves {
            extra.push(lang.say(
                format!("moves {}", m.join(" ")),
                format!("着法 {}", m.join(" ")),
            ));
        }
        // The engine's notes are English: left out in Chinese.
        if let (Some(n), super::Lang::En) = (&r.note, lang) {
            extra.push(n.clone());
        }
        if let Some(b) = r.by {
            extra.push(lang.say(b.words().to_string(), self.w("by", b.name())));
        }
        let extra = if extra.is_empty() {
            String::new()
        } else {
            lang.say(
                format!(": {}", extra.join("; ")),
                format!("：{}", extra.join("；")),
            )
        };
        let decision = lang.say(
            r.decision.name().to_string(),
            self.w("decision", r.decision.name()),
        );
        format!(
            "  events[{}] {}{}{decision}{side} — {}{extra}",
            r.event,
            lang.say(self.names[r.event].clone(), self.event(r.event)),
            lang.say(": ", "："),
            self.cite(&r.clause)
        )
    }
}

fn show(e: &ArbiterError) -> String {
    match e {
        ArbiterError::Fen(f) => format!("invalid FEN: {f}"),
        ArbiterError::Reject { kind, message } => format!("{message} [{kind}]"),
    }
}

/// `xqspec touch`: the moves allowed after touching pieces, and the step that decided.
pub fn touch(args: &TouchArgs, rs: &RuleSet) -> Result<(), String> {
    let arbiter = rs.require_arbiter()?;
    let q = TouchQuery {
        fen: args.game.fen_text(rs),
        moves: args.game.moves.clone(),
        touches: args.touches.clone(),
        simultaneous: args.both,
    };
    let t = arbiter.touch_move(&rs.vm, &q).map_err(|e| show(&e))?;
    if args.json {
        println!("{}", t.to_json());
        return Ok(());
    }
    let article = t.article.as_deref().unwrap_or("—");
    match &t.allowed {
        Some(list) => println!(
            "step {} ({}, art. {article}): must play {}",
            t.step,
            t.clause,
            list.join(" ")
        ),
        None => println!(
            "step {} ({}, art. {article}): free, any legal move",
            t.step, t.clause
        ),
    }
    if t.foul {
        println!("foul: yes ({})", t.foul_clauses.join(", "));
    } else {
        println!("foul: no");
    }
    Ok(())
}
