//! Competition rules (比赛通则, arts. 10–14 and 18.5 of 2020; 11–15, 18.4 and 20 of 1999):
//! scoring tables, tiebreak orders per format, byes, sanctions, withdrawals, N+1 and team
//! line-ups, as clauses; and the standings of a tournament computed from them.
//!
//! - [`data`]: typed shapes of the clauses' data.
//! - [`compile`]: clauses → [`CompetitionRules`] (errors at the clause's location).
//! - `criteria`: the tiebreak criteria, primitives defined once and named in the rules'
//!   own terms (积分, 小分, 直胜 …). The orders are data.
//! - [`tournament`]: the tournament file (YAML, or the `standings` query's JSON object)
//!   read into raw records, then validated into a [`Tournament`]; syntax errors and rule
//!   errors are different types and every error names its record (and line and column in
//!   a file).
//! - [`standings()`]: the ranking with every criterion's value and, for each pair of
//!   neighbours, the criterion that separated them.
//! - `render` (feature `cli`): the crosstable and ranking tables of `xqspec standings`.
//!
//! Pairings are input, never output: the round-robin order tables, the Swiss pairing
//! method (定位编排法) and the knockout tables (appendices 2–5) are not available.
//!
//! Scores are exact: `data::Points` are whole sixteenths within `MAX_POINTS`, read into
//! `f64`s that hold them and their sums exactly. Validation, ranking and the tables are
//! linear in the records (`benches/standings.rs` measures the growth); at most
//! `MAX_REPORTED_ERRORS` errors are listed, a crosstable has at most
//! `MAX_CROSSTABLE_COLUMNS` columns and `MAX_CROSSTABLE_CELLS` cells. The command is
//! `src/cli/competition.rs`.
//!
//! Depends on `spec` and `vm::compile` helpers; nothing here depends on `conform`.

pub mod compile;
pub(crate) mod criteria;
pub mod data;
#[cfg(feature = "cli")]
pub mod render;
pub mod standings;
pub mod tournament;

use crate::answer::ToAnswer;
use std::collections::BTreeMap;

use serde::Serialize;

pub use criteria::{Criterion, Value};
pub use standings::{standings, Standings};
pub use tournament::{
    RawTournament, ReadError, Tournament, TournamentError, TournamentErrorKind, TournamentErrors,
    MAX_REPORTED_ERRORS,
};

/// The competition clauses of one rule set, compiled.
#[derive(Clone, Debug)]
pub struct CompetitionRules {
    /// The rule set's id (`cxa-2020`, `cxa-2020+some-overlay`).
    pub ruleset: String,
    /// Game points in force (`scoring.game`, the table named by `use`).
    pub game: data::GameTable,
    /// The name of the game-points table in force (`use` of `scoring.game`).
    pub game_table: String,
    /// Match points from game points (`scoring.match`).
    pub(crate) match_scoring: data::MatchScoring,
    /// Formats by name (`round_robin` for `tiebreak.round_robin`).
    pub formats: BTreeMap<String, Format>,
    /// The `tiebreak.*` clause with `places` (1999 15.6 `tiebreak.champion`): places no tie may share.
    pub champion: Option<data::Champion>,
    /// `bye.score`: the result a bye scores, when the rules score byes.
    pub(crate) bye_score: Option<data::ByeResult>,
    /// `bye.team_score`: the result a team's bye scores.
    pub(crate) bye_team_score: Option<data::ByeResult>,
    pub(crate) bye_opponent: Option<data::ByeOpponent>,
    /// `sanction.ranking`: kinds, heaviest first.
    pub(crate) sanctions: Option<Vec<data::SanctionKind>>,
    /// `sanction.ranking.after`: where the sanctions step stands in the ranking chain.
    pub(crate) sanctions_after: data::SanctionPlace,
    pub(crate) withdrawal: BTreeMap<data::System, data::Withdrawal>,
    pub(crate) n_plus_one: Option<data::NPlusOne>,
    /// `lineup.<name>` by name.
    pub lineups: BTreeMap<String, data::Lineup>,
}

impl CompetitionRules {
    /// Compiles the competition clauses of `ed`: `None` when it has none; every error, each at its clause.
    pub fn compile(
        ed: &crate::spec::Edition,
    ) -> Result<Option<CompetitionRules>, Vec<crate::spec::SpecError>> {
        compile::compile(ed)
    }
}

/// One format's ranking rules (a `tiebreak.*` clause).
#[derive(Clone, Debug)]
pub struct Format {
    /// The format's name (`round_robin` for `tiebreak.round_robin`).
    pub name: String,
    /// The clause id (`tiebreak.<name>`).
    pub clause: String,
    /// The article the clause encodes, when it names one.
    pub(crate) article: Option<String>,
    pub(crate) entrants: data::Entrants,
    pub(crate) system: Option<data::System>,
    pub(crate) unit: data::Unit,
    pub(crate) rank_by: Criterion,
    pub(crate) cycles: u32,
    /// The order applied when the tournament names none.
    pub default_order: String,
    /// Every tiebreak order of the format by name: its criteria, in order.
    pub(crate) orders: BTreeMap<String, Vec<Criterion>>,
    pub(crate) byes: data::Byes,
    pub(crate) unresolved: data::Unresolved,
}

shapes! {
    /// The `standings` query: a tournament in, the ranking out.
    #[derive(PartialEq, Eq, Serialize)]
    pub struct StandingsQuery {
        /// The tournament, in the shape of a tournament file
        /// (`conformance/tournament-example.yaml`).
        pub tournament: serde_json::Value,
    }
}

/// Answers the `standings` query under `rules`: the answer object, or why the tournament
/// is refused. A tournament naming another edition or overlay than the rule set's is
/// refused (`tournament.edition`).
pub(crate) fn answer(
    rules: &CompetitionRules,
    q: &StandingsQuery,
) -> Result<serde_json::Value, ReadError> {
    let raw = RawTournament::from_json(&q.tournament).map_err(ReadError::Syntax)?;
    let (edition, overlay) = match rules.ruleset.split_once('+') {
        Some((e, o)) => (e, Some(o)),
        None => (rules.ruleset.as_str(), None),
    };
    let mismatch = raw.edition.as_deref().is_some_and(|e| e != edition)
        || raw.overlay.as_deref().is_some_and(|o| Some(o) != overlay);
    if mismatch {
        return Err(ReadError::Invalid(TournamentErrors::from(
            TournamentError {
                kind: TournamentErrorKind::Edition,
                place: tournament::Place {
                    record: "edition".into(),
                    ..Default::default()
                },
                message: format!(
                    "the tournament is for {}{}, the question is asked under {}",
                    raw.edition.as_deref().unwrap_or(edition),
                    raw.overlay
                        .as_deref()
                        .map(|o| format!("+{o}"))
                        .unwrap_or_default(),
                    rules.ruleset
                ),
            },
        )));
    }
    let t = Tournament::validate(&raw, rules).map_err(ReadError::Invalid)?;
    Ok(standings(&t, rules).to_json())
}

/// Number of ways to field `boards` players out of `registered` in registration order
/// (11.2: board order may not be reversed): C(registered, boards).
pub fn ordered_lineups(registered: u32, boards: u32) -> u64 {
    if boards > registered {
        return 0;
    }
    let k = boards.min(registered - boards) as u64;
    (0..k).fold(1u64, |acc, i| acc * (registered as u64 - i) / (i + 1))
}
