//! Adjudication of record files in bulk (`xqspec adjudicate`, the Python package's batch
//! calls): every game of every file streamed over all cores ([`stream()`]), replayed and
//! adjudicated from its moves alone, given back in file order with its place; the text
//! that is no game and the files not read reported where they are, the rest processed.
//!
//! [`adjudicate_files`] gives one [`Item`] per game, per text that is no game and per file not
//! read, in input order; a [`Tally`] counts them as they pass; [`final_position`] is the judge
//! `replay` is given, to remark on a recorded result that a final mate or stalemate
//! contradicts. `xqspec adjudicate` prints the items as they come; the Python package's batch
//! calls take the same path, [`stream_items`], whose games keep whatever a call makes of them
//! (`Row`s here, the replay's JSON items in Python) with their place ([`Placed`]).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::arbiter::Adjudication;
use crate::board::GameResult;
use crate::notation::records::{Ending, FileError, GameEntry, NotAGame};
use crate::notation::replay::{GameReplay, Remark};
use crate::notation::stream::{self, stream, Found};
use crate::ruleset::RuleSet;
use crate::vm::Status;

/// One game of a batch: where it is, and what was found.
pub struct Row {
    /// `FILE game N`.
    pub place: String,
    /// `Red – Black`, or the event.
    pub title: String,
    /// The result recorded (the `Result` tag, else the result token).
    pub recorded: Option<String>,
    /// The adjudication, or why the game could not be adjudicated.
    pub found: Result<Adjudication, String>,
    /// The recorded result is not the one the moves end in (the records path decides).
    pub disagrees: bool,
    /// What is wrong without failing the game.
    pub remarks: Vec<Remark>,
    /// Main-line moves replayed.
    pub moves: usize,
}

/// What a batch holds, in file order: games (a `Row` each, or what another batch call
/// keeps of a game), and the problems that are no game.
pub enum Item<G = Row> {
    /// A game.
    Game(G),
    /// Text that is no game (`FILE: line L, column C (byte B): skipped text that is no game: …`).
    NotAGame {
        /// The file.
        file: String,
        /// Where and what.
        problem: NotAGame,
    },
    /// A file that could not be read.
    Unread(FileError),
    /// A file is done (not printed: for progress).
    FileDone,
}

impl Row {
    /// What the summary counts it under: the observation that ended it, `undecided` or `error`.
    pub fn how(&self) -> &'static str {
        match &self.found {
            Ok(a) => a.how.unwrap_or(if a.result_name() == "undecided" {
                "undecided"
            } else {
                "other"
            }),
            Err(_) => "error",
        }
    }

    /// The object `xqspec adjudicate --json` prints for the game.
    pub fn to_json(&self) -> Value {
        let mut v = match &self.found {
            Ok(a) => a.to_json(),
            Err(e) => json!({ "error": e }),
        };
        if let Value::Object(m) = &mut v {
            m.insert("place".into(), json!(self.place));
            m.insert("title".into(), json!(self.title));
            m.insert(
                "recorded".into(),
                self.recorded.as_ref().map_or(Value::Null, |r| json!(r)),
            );
            m.insert("disagrees".into(), json!(self.disagrees));
            let remarks = self.remarks.iter().map(Remark::to_json).collect();
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
    pub fn lines(&self) -> Vec<String> {
        self.lines_in(None)
    }

    /// [`Row::lines`] with the rule words in Chinese when `zh` gives the words
    /// (`spec/words.yaml`): `g.pgn game 1：黑胜，依 result.checkmate（第 4.1.1 条），第 41 个半回合后［被将死］；棋谱所记 0-1`.
    /// Errors and remarks (of the record, not of the rules) stay as `replay` says them.
    pub fn lines_in(&self, zh: Option<&crate::spec::Words>) -> Vec<String> {
        let recorded = self.recorded.as_deref().unwrap_or("none");
        let first = match (&self.found, zh) {
            (Err(e), _) => format!("{}{}: error: {e}", self.place, self.titled()),
            (Ok(a), None) => {
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
                format!(
                    "{}{}: {}{how}; recorded {recorded}{flag}",
                    self.place,
                    self.titled(),
                    a.result_name()
                )
            }
            (Ok(a), Some(w)) => {
                let how = match (&a.clause, a.ply) {
                    (Some(c), Some(p)) => format!(
                        "，依 {}（第 {} 条），第 {p} 个半回合后［{}］",
                        c.clause,
                        c.article.as_deref().unwrap_or("—"),
                        a.how.map_or_else(|| "?".into(), |h| w.word("how", h).zh)
                    ),
                    _ => String::new(),
                };
                let flag = if self.disagrees {
                    " — 与所记结果不符"
                } else {
                    ""
                };
                let recorded = self.recorded.as_deref().unwrap_or("无");
                format!(
                    "{}{}：{}{how}；棋谱所记 {recorded}{flag}",
                    self.place,
                    self.titled(),
                    w.word("result", a.result_name()).zh
                )
            }
        };
        let mut lines = vec![first];
        lines.extend(
            self.remarks
                .iter()
                .map(|r| format!("{}{}: remark: {r}", self.place, self.titled())),
        );
        lines
    }
}

/// A game of a batch where it stands: its file, its number among the file's games, and what
/// the batch's work kept of it.
pub struct Placed<'f, W> {
    /// The file.
    pub file: &'f Path,
    /// 1-based among the file's games.
    pub number: usize,
    /// What the work kept.
    pub work: W,
}

impl<W> Placed<'_, W> {
    /// `FILE game N`, the place every batch item gives.
    pub fn place(&self) -> String {
        place(self.file, self.number)
    }
}

/// `FILE game N`: where game `number` of `file` is.
pub fn place(file: &Path, number: usize) -> String {
    format!("{} game {number}", file.display())
}

impl<G> Item<G> {
    /// The item with its game made another thing by `f` (a problem stays as it is).
    pub fn map<H>(self, f: impl FnOnce(G) -> H) -> Item<H> {
        match self {
            Item::Game(g) => Item::Game(f(g)),
            Item::NotAGame { file, problem } => Item::NotAGame { file, problem },
            Item::Unread(e) => Item::Unread(e),
            Item::FileDone => Item::FileDone,
        }
    }

    /// The object `xqspec adjudicate --json` prints for text that is no game or a file not
    /// read; `None` for a game and for a file done.
    pub fn problem_json(&self) -> Option<Value> {
        match self {
            Item::Game(_) | Item::FileDone => None,
            Item::NotAGame { file, problem } => Some(json!({
                "place": format!("{file} line {}", problem.place.line),
                "line": problem.place.line,
                "column": problem.place.column,
                "byte": problem.place.byte,
                "not_a_game": problem.message,
            })),
            Item::Unread(e) => {
                Some(json!({ "place": e.path.display().to_string(), "file_error": e.message }))
            }
        }
    }
}

impl Item {
    /// The lines `xqspec adjudicate` prints.
    pub fn lines(&self) -> Vec<String> {
        self.lines_in(None)
    }

    /// The same, with the games' rule words in Chinese when `zh` gives the words.
    pub fn lines_in(&self, zh: Option<&crate::spec::Words>) -> Vec<String> {
        match self {
            Item::Game(r) => r.lines_in(zh),
            Item::NotAGame { file, problem } => vec![format!("{file}: {problem}")],
            Item::Unread(e) => vec![e.to_string()],
            Item::FileDone => Vec::new(),
        }
    }

    /// The object `xqspec adjudicate --json` prints (`null` for a file done).
    pub fn to_json(&self) -> Value {
        match self {
            Item::Game(r) => r.to_json(),
            other => other.problem_json().unwrap_or(Value::Null),
        }
    }
}

/// The end an adjudication found, to compare with the recorded result (`None`: undecided).
pub fn ending(a: &Adjudication) -> Option<Ending> {
    if a.result == GameResult::Ongoing {
        return None;
    }
    let how = a.how.unwrap_or("?");
    let why = match &a.clause {
        Some(c) => format!(
            "{how}, {}, art. {}",
            c.clause,
            c.article.as_deref().unwrap_or("—")
        ),
        None => how.to_string(),
    };
    Some(Ending {
        result: a.result_name(),
        ply: a.ply,
        why,
    })
}

/// The judge of `xqspec replay`: a game whose moves reach a position where the side to
/// move has no legal move (mate, stalemate) is adjudicated from its moves (the arbiter's
/// result clauses, without watching for repetitions), so that a recorded result it
/// contradicts is remarked on; a record that stops before the end says nothing.
pub fn final_position(rs: &RuleSet) -> impl Fn(&GameReplay) -> Option<Ending> + Sync + '_ {
    move |r| {
        let arbiter = rs.arbiter.as_ref()?;
        let last = r.last.as_ref()?;
        if !matches!(last.status(&rs.vm), Status::Checkmate | Status::Stalemate) {
            return None;
        }
        let a = arbiter
            .adjudicate(
                crate::arbiter::BoardRules {
                    repetition: None,
                    ..rs.board()
                },
                r.start.as_ref()?,
                &r.moves,
            )
            .ok()?;
        ending(&a)
    }
}

/// Every game of every file, streamed, replayed and (with `adjudicate`) adjudicated; the
/// text that is no game and the files not read, to `sink` in input order. Fails only when
/// the rule set has no arbiter's clauses.
pub fn adjudicate_files(
    rs: &RuleSet,
    files: &[PathBuf],
    opts: &stream::Options,
    adjudicate: bool,
    sink: &mut dyn FnMut(Item),
) -> Result<(), String> {
    let judge = judge(rs, adjudicate)?;
    let work = |g: GameEntry<'_, Verdict>| row(g, String::new());
    stream_items(rs, files, opts, &judge, &work, &mut |item| {
        sink(item.map(|g| Row {
            place: g.place(),
            ..g.work
        }))
    });
    Ok(())
}

/// Every game of every file streamed (over every core, memory bounded by the window), each
/// judged by `judge` and kept by `work` with its place, and the text that is no game, the
/// files not read and the files done, to `sink` in input order: the one path of the batch
/// calls ([`adjudicate_files`], the Python package's replay items).
pub fn stream_items<V: Send, W: Send>(
    rs: &RuleSet,
    files: &[PathBuf],
    opts: &stream::Options,
    judge: &(dyn Fn(&GameReplay) -> (V, Option<Ending>) + Sync),
    work: &(dyn Fn(GameEntry<'_, V>) -> W + Sync),
    sink: &mut dyn FnMut(Item<Placed<'_, W>>),
) {
    stream(&rs.vm, files, opts, judge, work, &mut |found| match found {
        Found::Game { file, number, work } => sink(Item::Game(Placed {
            file: &files[file],
            number,
            work,
        })),
        Found::NotAGame { file, problem } => sink(Item::NotAGame {
            file: files[file].display().to_string(),
            problem,
        }),
        Found::Unread { error, .. } => sink(Item::Unread(error)),
        Found::Done { .. } => sink(Item::FileDone),
        Found::Note { .. } => {}
    });
}

/// What the judge of a batch gives a game: its adjudication, or why there is none.
pub type Verdict = Result<Adjudication, String>;

/// The judge of a batch, as [`records::games`](crate::notation::records::games) takes it:
/// each replayed game adjudicated from its moves (or, without `adjudicate`, left
/// undecided), with the end it found. Fails when the rule set has no arbiter's clauses.
pub fn judge(
    rs: &RuleSet,
    adjudicate: bool,
) -> Result<impl Fn(&GameReplay) -> (Verdict, Option<Ending>) + Sync + '_, String> {
    let arbiter = rs.require_arbiter()?;
    Ok(move |r: &GameReplay| {
        let start = r.start.as_ref().expect("judged games have a start");
        let found = if adjudicate {
            arbiter
                .adjudicate(rs.board(), start, &r.moves)
                .map_err(|e| e.to_string())
        } else {
            Ok(Adjudication::undecided())
        };
        let end = found.as_ref().ok().and_then(ending);
        (found, end)
    })
}

/// A game of a record judged by [`judge`], as a batch row at `place`.
pub fn row(g: GameEntry<'_, Verdict>, place: String) -> Row {
    let found = match (g.failure(), g.verdict.clone()) {
        (Some(e), _) if g.replay.error.is_some() => Err(e.to_string()),
        (Some(e), _) => Err(format!("in a variation: {e}")),
        (None, Some(v)) => v,
        (None, None) => Err("no start position".to_string()),
    };
    Row {
        place,
        title: g.replay.title.clone(),
        recorded: g.recorded().map(str::to_string),
        found,
        disagrees: g.disagrees,
        moves: g.replay.moves.len(),
        remarks: g.remarks,
    }
}

/// The counts of a batch, kept as its items go by.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games by how they ended (`checkmate`, `undecided`, `error` …).
    pub by_how: std::collections::BTreeMap<String, usize>,
    /// Games.
    pub games: usize,
    /// Main-line moves replayed.
    pub moves: usize,
    /// Games whose recorded result the moves contradict.
    pub disagree: usize,
    /// Games that could not be adjudicated.
    pub failed: usize,
    /// Remarks.
    pub remarks: usize,
    /// Runs of text that are no game.
    pub not_games: usize,
    /// Files that could not be read.
    pub unread: usize,
    /// Files done (notes and ends of files).
    pub files: usize,
}

impl Tally {
    /// Counts an item.
    pub fn add(&mut self, item: &Item) {
        match item {
            Item::Game(r) => {
                *self.by_how.entry(r.how().to_string()).or_default() += 1;
                self.games += 1;
                self.moves += r.moves;
                self.disagree += r.disagrees as usize;
                self.failed += r.found.is_err() as usize;
                self.remarks += r.remarks.len();
            }
            Item::NotAGame { .. } => self.not_games += 1,
            Item::Unread(_) => self.unread += 1,
            Item::FileDone => self.files += 1,
        }
    }

    /// The summary: games by how they ended, disagreements and games; the remarks, the
    /// text that is no game and the files not read, when there are any.
    pub fn counts(&self) -> Vec<(String, usize)> {
        let mut counts: Vec<(String, usize)> =
            self.by_how.iter().map(|(k, n)| (k.clone(), *n)).collect();
        counts.push(("disagree with the record".into(), self.disagree));
        counts.push(("games".into(), self.games));
        for (what, n) in [
            ("remarks", self.remarks),
            ("text that is no game (skipped)", self.not_games),
            ("files not read", self.unread),
        ] {
            if n > 0 {
                counts.push((what.into(), n));
            }
        }
        counts
    }
}
