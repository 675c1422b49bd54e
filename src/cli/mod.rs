//! The commands of `xqspec`, one file per command group: their clap arguments and the glue
//! from arguments to the library (reading files, printing tables, exit messages).
//!
//! The groups: `arbiter` (outcome, touch), `adjudicate` (adjudicate, status), `clock`,
//! `competition` (standings), `conform` (conform, serve, cases), `diagram` (board),
//! `repetition` (ruling), `report` (report, diff) and `web`; `app.rs` holds the command enum
//! and the small commands (`perft`, `moves`, `replay`, `spec check`). Thin: arguments are
//! parsed, files read, library functions called, the results printed. `progress` is the one
//! progress line of long commands.

mod adjudicate;
mod app;
mod arbiter;
mod clock;
mod competition;
mod conform;
pub(crate) mod diagram;
mod progress;
pub(crate) mod repetition;
mod replay;
mod report;
mod web;

pub use app::main;
#[cfg(test)]
pub(crate) use app::{load_ruleset, GlobalOptions};
use std::path::Path;
/// The web desk and its answer, for the binary's server (`src/bin/xqspec/server.rs`).
pub use web::{Desk, Reply};

use crate::output::Outputs;

/// A game in progress on the command line: the rule set, the position it started from and
/// the moves played since (`touch`, `status`).
#[derive(clap::Args)]
pub(crate) struct GameArgs {
    #[arg(long, default_value = crate::ruleset::DEFAULT)]
    pub edition: String,
    /// Position in FEN, or `startpos` (the default).
    #[arg(long, allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// The moves played from the position (ICCS).
    #[arg(long, num_args = 0..)]
    pub moves: Vec<String>,
}

/// The start position when `--fen` is not given.
pub(crate) const STARTPOS: &str = "startpos";

impl GameArgs {
    /// The starting position as a FEN (`startpos` written out under the rule set).
    pub fn fen_text(&self, rs: &crate::ruleset::RuleSet) -> String {
        fen_text(rs, self.fen.as_deref().unwrap_or(STARTPOS))
    }
}

/// A `--fen` argument as a FEN: `startpos` written out under the rule set.
pub(crate) fn fen_text(rs: &crate::ruleset::RuleSet, fen: &str) -> String {
    crate::line::fen_text(&rs.vm, fen)
}

/// `--fen` and `--moves` as a FEN and ICCS moves: the moves read in any notation the
/// grammar reads (Chinese, WXF, ICCS; move numbers allowed), as a record's movetext is, by
/// [`crate::line::given`] (the Python package reads `moves=` with it too); an error names
/// the argument as given (1-based) and the ply, not a place in a record.
pub(crate) fn iccs_line(
    rs: &crate::ruleset::RuleSet,
    fen: &str,
    moves: &[String],
) -> Result<(String, Vec<String>), String> {
    use crate::line::GivenError;
    match crate::line::given(&rs.vm, fen, moves) {
        Ok(g) => Ok((g.fen, g.moves)),
        Err(GivenError::Fen(e)) => Err(format!("--fen: {e}")),
        Err(e) => Err(format!(
            "--moves: {}",
            e.told(|i| format!("argument {}", i + 1))
        )),
    }
}

/// A real game record on the command line: `--pgn FILE` and `--game N` (`outcome`, `status`).
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct RecordArgs {
    /// A game record (PGN, or movetext in any notation and any encoding `replay` reads).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<std::path::PathBuf>,
    /// Which game of the file (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
}

/// A record's start position (when it gives one) and its main line as ICCS.
pub(crate) type RecordLine = (Option<String>, Vec<String>);

impl RecordArgs {
    /// The game of a command that takes a record or a position and moves (`status`,
    /// `ruling`): the record's start and main line with `--pgn`, else `--fen` (or the
    /// start position) and `--moves` as ICCS ([`iccs_line`]). `--pgn` with `--fen` or
    /// `--moves` is refused: the record gives both.
    pub fn or_line(
        &self,
        rs: &crate::ruleset::RuleSet,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<(String, Vec<String>), String> {
        if let Some(p) = &self.pgn {
            if fen.is_some() {
                return Err(format!(
                    "--fen with --pgn {}: the record gives the position its moves start from (its FEN tag, else the start position); give one of them",
                    p.display()
                ));
            }
            if !moves.is_empty() {
                return Err("give the moves with --moves or --pgn, not both".into());
            }
        }
        match self.read(rs)? {
            Some((start, moves)) => Ok((start.unwrap_or_else(|| fen_text(rs, STARTPOS)), moves)),
            None => iccs_line(rs, fen.unwrap_or(STARTPOS), moves),
        }
    }

    /// The record's start position and main line, if `--pgn` was given. The file is read
    /// by the records path of `replay` and `adjudicate`: game N is the game they number N.
    pub fn read(&self, rs: &crate::ruleset::RuleSet) -> Result<Option<RecordLine>, String> {
        use crate::notation::records::{self, Entry};
        let Some(p) = &self.pgn else { return Ok(None) };
        let file = records::read(p, None).map_err(|e| e.to_string())?;
        let mut replayer = crate::notation::replay::Replayer::new(&rs.vm);
        let games: Vec<_> = records::games(&file, &mut replayer, |_| ((), None))
            .into_iter()
            .filter_map(|e| match e {
                Entry::Game(g) => Some(g.replay),
                Entry::NotAGame(_) => None,
            })
            .collect();
        nth_line(rs, games, self.game)
            .map(Some)
            .map_err(|e| format!("{}: {e}", p.display()))
    }
}

/// Game `n` (1-based) of replayed games: its start position and its main line as ICCS.
fn nth_line(
    rs: &crate::ruleset::RuleSet,
    games: Vec<crate::notation::replay::GameReplay>,
    n: usize,
) -> Result<RecordLine, String> {
    let count = games.len();
    let g = games
        .into_iter()
        .nth(n.wrapping_sub(1))
        .ok_or_else(|| format!("there is no game {n} (the record has {count})"))?;
    if let Some(e) = &g.error {
        return Err(format!("game {n}: {e}"));
    }
    Ok((
        g.start.as_ref().map(|s| s.to_fen(&rs.vm)),
        g.moves.iter().map(|m| m.iccs()).collect(),
    ))
}

/// `--threads N` of `replay` and `adjudicate`: a number from 1 to the bound of
/// [`crate::notation::stream::max_threads`], refused beyond it with the reason.
pub(crate) fn threads_arg(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of threads"))?;
    crate::notation::stream::check_threads(n)
}

/// The files a command reads besides its own (`--spec DIR`, `--overlay FILE`), for the
/// checks of every file it writes ([`crate::output`]): no output is one of them.
pub(crate) fn outputs(spec: Option<&Path>, overlay: Option<&Path>) -> Outputs {
    let mut o = Outputs::new();
    if let Some(d) = spec {
        o.input_dir(d, "a file of the spec (--spec)", &[".yaml", ".yml"]);
    }
    if let Some(f) = overlay {
        o.input(f, "the overlay (--overlay)");
    }
    o
}

/// The language of the commands' text output (`--lang`): the rule words come from
/// `spec/words.yaml` (and the rule set's 棋例 data) in that language, as on the page; the
/// command line's own sentences are written here in both. JSON output is the same in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Lang {
    /// English.
    #[default]
    En,
    /// Chinese (简体中文).
    Zh,
}

impl Lang {
    /// The text of `b` in this language.
    pub fn of(self, b: &crate::spec::Both) -> String {
        match self {
            Lang::En => b.en.clone(),
            Lang::Zh => b.zh.clone(),
        }
    }

    /// The words of `code` in `group` (`spec/words.yaml`) in this language.
    pub fn word(self, words: &crate::spec::Words, group: &str, code: &str) -> String {
        self.of(&words.word(group, code))
    }

    /// A sentence of the command line's own, given in both languages.
    pub fn say(self, en: impl Into<String>, zh: impl Into<String>) -> String {
        match self {
            Lang::En => en.into(),
            Lang::Zh => zh.into(),
        }
    }

    /// A clause cited: `result.time, art. 4.1.6` or `result.time，第 4.1.6 条`.
    pub fn cite(self, c: &crate::arbiter::RuleRef) -> String {
        let art = c.article.as_deref().unwrap_or("—");
        self.say(
            format!("{}, art. {art}", c.clause),
            format!("{}，第 {art} 条", c.clause),
        )
    }
}

/// How a record that goes on after the end of the game is said, in `lang`: how many it has
/// left (`units`: the singular and the plural, in that language) and which, each named by
/// `name` (`events[82]`, `ply 83`).
pub(crate) fn goes_on(
    lang: Lang,
    c: &crate::arbiter::Continues,
    units: [&str; 2],
    name: impl Fn(usize) -> String,
) -> String {
    let last = c.from + c.left - 1;
    let which = match (c.left, lang) {
        (1, _) => name(c.from),
        (_, Lang::En) => format!("{} to {}", name(c.from), name(last)),
        (_, Lang::Zh) => format!("{}至{}", name(c.from), name(last)),
    };
    let unit = units[usize::from(c.left != 1)];
    lang.say(
        format!(
            "the record goes on for {} more {unit} after the end ({which}): not judged",
            c.left
        ),
        format!("棋谱在终局后还有 {} {unit}（{which}），不予裁定", c.left),
    )
}
