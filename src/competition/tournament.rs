//! The tournament file: raw records (YAML file or JSON object) → a validated
//! [`Tournament`].
//!
//! Two kinds of error: a [`SyntaxError`] when the text is not YAML or a record does not
//! have the documented shape (`conformance/tournament.schema.json`), and
//! [`TournamentError`]s when the records contradict each other or the rules (a game
//! between a player and themselves, a result in a round the event does not have, a player
//! in two games of one round, an unknown format, a line-up out of order …). Every error
//! names its record (`games[3]`, round 2, 甲 – 乙) and, when read from a file, its line and
//! column. Validation goes on after an error: it reports the first
//! [`MAX_REPORTED_ERRORS`] and counts the others. Every check is a lookup in a hash map
//! (ids, bookings per round, withdrawals), so validation is linear in the records.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::data::{Byes, Entrants, System, Unit};
use super::{CompetitionRules, Format};
use crate::board::GameResult;

// ---------------------------------------------------------------------------------------
// Raw records

/// A tournament as written (the file, or the `standings` query's `tournament` object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTournament {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The event's name.
    pub name: Option<String>,
    /// The rule set the file is meant for (the CLI's default; the query checks it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edition: Option<String>,
    /// An event overlay (id of `spec/overlays/<id>.yaml`) the file is meant for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlay: Option<String>,
    /// A format name: `round_robin` for the clause `tiebreak.round_robin`.
    pub(crate) format: String,
    /// A named order of the format's clause, when not the one in force (14.3.1 / 14.3.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) order: Option<String>,
    /// 队员总分制: the format of the individual event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) individual_format: Option<String>,
    /// Number of rounds of the event.
    pub(crate) rounds: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) players: Vec<RawPlayer>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) teams: Vec<RawTeam>,
    /// Team events: boards per match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) boards: Option<u32>,
    /// Team events: the line-up system, a `lineup.*` clause name (`boards_with_reserves`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lineup: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// Individual games: every game of an individual event.
    pub games: Vec<RawGame>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) matches: Vec<RawMatch>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) byes: Vec<RawBye>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) sanctions: Vec<RawSanction>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) withdrawals: Vec<RawWithdrawal>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPlayer {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTeam {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Player ids in registration (board) order, reserves last.
    pub(crate) players: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
/// One game as written.
pub struct RawGame {
    /// Individual events: the round. Inside a team match: omitted (the match's round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) round: Option<u32>,
    /// Inside a team match: the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) board: Option<u32>,
    pub(crate) red: String,
    pub(crate) black: String,
    /// `red`, `black`, `draw`; without play: `+-` (Red wins), `-+` (Black wins), `--`.
    pub(crate) result: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Fouls (犯规) charged in the game, per side.
    pub(crate) fouls: Option<RawFouls>,
    /// N+1: the final between the two leaders (10.4.3.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub r#final: bool,
    /// N+1: who won the play-off games when the final's slow game was drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) play_off_winner: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
/// Fouls charged in one game, Red's and Black's.
pub(crate) struct RawFouls {
    #[serde(default)]
    pub(crate) red: u32,
    #[serde(default)]
    pub(crate) black: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMatch {
    pub(crate) round: u32,
    pub(crate) teams: [String; 2],
    pub games: Vec<RawGame>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBye {
    pub(crate) round: u32,
    pub(crate) entrant: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSanction {
    pub(crate) entrant: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) round: Option<u32>,
    /// A kind of `sanction.ranking` (`warning`, `game_disqualification`).
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWithdrawal {
    pub(crate) entrant: String,
    /// The last round the entrant played (0: withdrew before round 1).
    pub(crate) after_round: u32,
}

// ---------------------------------------------------------------------------------------
// Errors

/// Where an error is: the record (`games[3]`) and, in a file, line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize)]
pub struct Place {
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The file, when read from one.
    pub(crate) file: Option<String>,
    /// The record's path (`games[3]`, `matches[1].games[0]`), empty for the whole file.
    pub record: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The line, from 1.
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The column, from 1.
    pub column: Option<usize>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(fl) = &self.file {
            parts.push(fl.clone());
        }
        if let Some(l) = self.line {
            parts.push(l.to_string());
            if let Some(c) = self.column {
                parts.push(c.to_string());
            }
        }
        let at = parts.join(":");
        match (at.is_empty(), self.record.is_empty()) {
            (true, true) => Ok(()),
            (true, false) => write!(f, "{}", self.record),
            (false, true) => write!(f, "{at}"),
            (false, false) => write!(f, "{at}: {}", self.record),
        }
    }
}

/// The text is not YAML (JSON), or a record does not have the documented shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where.
    pub place: Place,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// What is wrong with a well-formed record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentErrorKind {
    /// An id listed twice.
    Duplicate,
    /// A player or team id that is empty or only blanks: it names no one.
    EmptyId,
    /// A record names a player or team the file does not list.
    UnknownEntrant,
    /// A game between a player and themselves (or a match of a team against itself).
    SelfGame,
    /// A round outside 1..=rounds.
    UnknownRound,
    /// An entrant in two games (matches, byes) of one round.
    DoubleBooking,
    /// A format the rule set has no `tiebreak.*` clause for, or used with the wrong entrants.
    UnknownFormat,
    /// An order the format's clause does not name.
    UnknownOrder,
    /// A result that is not one of the documented spellings, or a sanction kind unknown.
    UnknownValue,
    /// A team line-up the line-up clause forbids (11.1–11.3), or a board out of range.
    Lineup,
    /// The rule set has no rule for what the file records (a bye in 1999, an N+1 final …).
    NoRule,
    /// A game recorded after its player's withdrawal, or a withdrawal listed twice.
    Withdrawal,
    /// The file names another rule set than the one asked.
    Edition,
}

impl TournamentErrorKind {
    /// The protocol's reject kind (`tournament.self_game`).
    pub fn reject_kind(self) -> &'static str {
        match self {
            TournamentErrorKind::Duplicate => "tournament.duplicate",
            TournamentErrorKind::EmptyId => "tournament.empty_id",
            TournamentErrorKind::UnknownEntrant => "tournament.unknown_entrant",
            TournamentErrorKind::SelfGame => "tournament.self_game",
            TournamentErrorKind::UnknownRound => "tournament.unknown_round",
            TournamentErrorKind::DoubleBooking => "tournament.double_booking",
            TournamentErrorKind::UnknownFormat => "tournament.unknown_format",
            TournamentErrorKind::UnknownOrder => "tournament.unknown_order",
            TournamentErrorKind::UnknownValue => "tournament.unknown_value",
            TournamentErrorKind::Lineup => "tournament.lineup",
            TournamentErrorKind::NoRule => "tournament.no_rule",
            TournamentErrorKind::Withdrawal => "tournament.withdrawal",
            TournamentErrorKind::Edition => "tournament.edition",
        }
    }
}

/// A rule error in a well-formed tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentError {
    /// Which rule the tournament breaks.
    pub kind: TournamentErrorKind,
    /// Where.
    pub place: Place,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// At most this many rule errors of one tournament are reported (each with its place);
/// the others are counted (`and N more`). A file with an error in every record is
/// refused as fast as one with a single error.
pub const MAX_REPORTED_ERRORS: usize = 100;

/// The most rounds an event may have. The ranking keeps a running score per round and
/// entrant, and progressive orders rank again after every round, so the count is bounded
/// before anything is allocated for it; no real event comes near it.
pub const MAX_ROUNDS: u32 = 1000;

/// The rule errors of a tournament: the first [`MAX_REPORTED_ERRORS`] found, in the
/// order of the records, and how many more there are.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TournamentErrors {
    /// The errors reported, in the order of the records.
    pub errors: Vec<TournamentError>,
    /// Errors found beyond the first [`MAX_REPORTED_ERRORS`], not reported one by one.
    pub omitted: usize,
}

impl TournamentErrors {
    /// Records an error: kept while fewer than [`MAX_REPORTED_ERRORS`] are, else counted.
    pub(crate) fn push(&mut self, e: TournamentError) {
        if self.errors.len() < MAX_REPORTED_ERRORS {
            self.errors.push(e);
        } else {
            self.omitted += 1;
        }
    }

    /// Whether no error was found.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The first error found.
    pub fn first(&self) -> Option<&TournamentError> {
        self.errors.first()
    }
}

impl From<TournamentError> for TournamentErrors {
    fn from(e: TournamentError) -> TournamentErrors {
        TournamentErrors {
            errors: vec![e],
            omitted: 0,
        }
    }
}

impl IntoIterator for TournamentErrors {
    type Item = TournamentError;
    type IntoIter = std::vec::IntoIter<TournamentError>;
    fn into_iter(self) -> Self::IntoIter {
        self.errors.into_iter()
    }
}

impl fmt::Display for TournamentErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        if self.omitted > 0 {
            write!(
                f,
                "\nand {} more errors (only the first {MAX_REPORTED_ERRORS} are reported)",
                self.omitted
            )?;
        }
        Ok(())
    }
}

/// Why a tournament could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The text or a record is malformed.
    Syntax(SyntaxError),
    /// The rule errors found (the first [`MAX_REPORTED_ERRORS`], and how many more).
    Invalid(TournamentErrors),
}

impl ReadError {
    /// The protocol reject kind of the first error.
    pub fn reject_kind(&self) -> &'static str {
        match self {
            ReadError::Syntax(_) => "tournament.shape",
            ReadError::Invalid(v) => v
                .first()
                .map(|e| e.kind.reject_kind())
                .unwrap_or("tournament.shape"),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Syntax(e) => write!(f, "{e}"),
            ReadError::Invalid(v) => write!(f, "{v}"),
        }
    }
}

impl std::error::Error for ReadError {}

// ---------------------------------------------------------------------------------------
// Reading

impl RawTournament {
    /// Reads a tournament file's YAML text; errors carry `file`, line and column.
    pub fn from_yaml(file: &str, text: &str) -> Result<RawTournament, SyntaxError> {
        crate::input::yaml(text, &crate::input::Origin::named(file)).map_err(|e| {
            let (line, column) = if e.line == 0 {
                (None, None)
            } else {
                (Some(e.line), Some(e.column))
            };
            SyntaxError {
                place: Place {
                    file: Some(e.origin),
                    record: String::new(),
                    line,
                    column,
                },
                message: e.what,
            }
        })
    }

    /// Reads the `standings` query's tournament object.
    pub fn from_json(v: &serde_json::Value) -> Result<RawTournament, SyntaxError> {
        serde_json::from_value(v.clone()).map_err(|e| SyntaxError {
            place: Place::default(),
            message: format!("tournament: {e}"),
        })
    }
}

/// Reads and validates a tournament file under `rules`; errors carry file, line, column.
pub fn read_file(
    file: &str,
    text: &str,
    rules: &CompetitionRules,
) -> Result<Tournament, ReadError> {
    let raw = RawTournament::from_yaml(file, text).map_err(ReadError::Syntax)?;
    Tournament::validate(&raw, rules).map_err(|mut errs| {
        let lines = Lines::of(text);
        for e in &mut errs.errors {
            e.place.file = Some(file.to_string());
            if let Some((l, c)) = lines.locate(&e.place.record) {
                e.place.line = Some(l);
                e.place.column = Some(c);
            }
        }
        ReadError::Invalid(errs)
    })
}

/// Line and column (1-based) of a record path (`games[3]`, `matches[1].games[0]`,
/// `teams[2].players`) in block-style YAML. A record inside a flow collection (`[…]`,
/// `{…}`) is located at the line of the collection. `None` when the path is not found.
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    Lines::of(text).locate(path)
}

/// A line of block-style YAML: (1-based number, indentation of the content, content),
/// list markers split off: "  - red: a" gives an item marker at 2 and the content
/// "red: a" at 4.
#[derive(Clone, Copy)]
struct L<'a> {
    no: usize,
    ind: usize,
    item: bool,
    text: &'a str,
}

/// A text split into [`L`]ines once, to locate many record paths in it (each error of a
/// file: the split is linear in the text, each path linear in the lines it walks).
struct Lines<'a>(Vec<L<'a>>);

impl<'a> Lines<'a> {
    fn of(text: &'a str) -> Lines<'a> {
        let mut lines: Vec<L> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let t = raw.trim_start();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let ind = raw.len() - t.len();
            if let Some(rest) = t.strip_prefix("- ").or_else(|| (t == "-").then_some("")) {
                lines.push(L {
                    no: i + 1,
                    ind,
                    item: true,
                    text: rest,
                });
                let r = rest.trim_start();
                if !r.is_empty() {
                    lines.push(L {
                        no: i + 1,
                        ind: ind + 2 + (rest.len() - r.len()),
                        item: false,
                        text: r,
                    });
                }
            } else {
                lines.push(L {
                    no: i + 1,
                    ind,
                    item: false,
                    text: t,
                });
            }
        }
        Lines(lines)
    }

    fn locate(&self, path: &str) -> Option<(usize, usize)> {
        let lines = &self.0;
        let mut segs: Vec<Result<&str, usize>> = Vec::new();
        for part in path.split('.').filter(|p| !p.is_empty()) {
            let (key, rest) = part.split_once('[').unwrap_or((part, ""));
            if !key.is_empty() {
                segs.push(Ok(key));
            }
            for idx in rest.split('[') {
                if let Ok(n) = idx.trim_end_matches(']').parse::<usize>() {
                    segs.push(Err(n));
                }
            }
        }
        let (mut lo, mut hi) = (0usize, lines.len());
        let mut found: Option<(usize, usize)> = None;
        let mut min_ind = 0usize;
        for seg in segs {
            let window = &lines[lo..hi];
            match seg {
                Ok(key) => {
                    let k = window.iter().position(|l| {
                        !l.item
                            && l.ind >= min_ind
                            && l.text
                                .strip_prefix(key)
                                .is_some_and(|r| r.trim_start().starts_with(':'))
                    })?;
                    let l = window[k];
                    found = Some((l.no, l.ind + 1));
                    let after = l.text[key.len()..].trim_start()[1..].trim();
                    if after.starts_with('[') || after.starts_with('{') {
                        return found; // a flow collection: its records are on this line
                    }
                    let start = lo + k + 1;
                    let end = lines[start..hi]
                        .iter()
                        .position(|x| x.ind <= l.ind && !(x.item && x.ind == l.ind))
                        .map(|p| start + p)
                        .unwrap_or(hi);
                    lo = start;
                    hi = end;
                    min_ind = l.ind;
                }
                Err(n) => {
                    let item_ind = window.iter().find(|l| l.item)?.ind;
                    let items: Vec<usize> = window
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| l.item && l.ind == item_ind)
                        .map(|(i, _)| lo + i)
                        .collect();
                    let &s = items.get(n)?;
                    let l = lines[s];
                    found = Some((l.no, l.ind + 1));
                    let end = items.get(n + 1).copied().unwrap_or(hi);
                    lo = s + 1;
                    hi = end;
                    min_ind = item_ind + 1;
                }
            }
        }
        found
    }
}

// ---------------------------------------------------------------------------------------
// Validated model

/// A result as a tournament file writes it (`red`, `black`, `draw`; `+-`, `-+`, `--` for
/// games not played: a win without play, or both sides losing), with whether it was played.
fn parse_result(s: &str) -> Option<(GameResult, bool)> {
    Some(match s {
        "red" => (GameResult::RedWins, true),
        "black" => (GameResult::BlackWins, true),
        "draw" => (GameResult::Draw, true),
        "+-" => (GameResult::RedWins, false),
        "-+" => (GameResult::BlackWins, false),
        "--" => (GameResult::BothLose, false),
        _ => return None,
    })
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Player {
    pub id: String,
    pub name: Option<String>,
    /// Index in [`Tournament::teams`].
    pub(crate) team: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Team {
    pub id: String,
    pub name: Option<String>,
    /// Indices in [`Tournament::players`], registration order.
    pub(crate) players: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
/// One validated game.
pub struct Game {
    pub(crate) round: u32,
    /// Player indices.
    pub(crate) red: usize,
    pub(crate) black: usize,
    /// How it ended: a decided result (never `ongoing` or `replay`).
    pub(crate) result: GameResult,
    /// Whether it was played (`+-`, `-+`, `--` were not).
    pub(crate) played: bool,
    /// Fouls charged, Red's and Black's.
    pub(crate) fouls: [u32; 2],
    pub(crate) board: Option<u32>,
    /// Index in [`Tournament::matches`].
    pub(crate) in_match: Option<usize>,
    pub(crate) is_final: bool,
    pub(crate) play_off_winner: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Match {
    pub(crate) round: u32,
    /// Team indices.
    pub(crate) teams: [usize; 2],
    /// Indices in [`Tournament::games`].
    pub games: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sanction {
    /// Entrant index (player in individual events, team in team events).
    pub(crate) entrant: usize,
    /// Index of the kind in `sanction.ranking` (0 heaviest).
    pub kind: usize,
}

/// A validated tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// The event's name.
    pub name: Option<String>,
    pub(crate) format: Format,
    /// The order in force (its name in the format's clause).
    pub(crate) order: String,
    /// 队员总分制: the individual event's format.
    pub(crate) individual_format: Option<Format>,
    /// Rounds played.
    pub(crate) rounds: u32,
    pub(crate) players: Vec<Player>,
    pub(crate) teams: Vec<Team>,
    /// Every game, of individual events and inside team matches.
    pub games: Vec<Game>,
    pub(crate) matches: Vec<Match>,
    /// (round, entrant index).
    pub(crate) byes: Vec<(u32, usize)>,
    pub(crate) sanctions: Vec<Sanction>,
    /// (entrant index, after round).
    pub(crate) withdrawals: Vec<(usize, u32)>,
}

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        self.clause == other.clause
    }
}

impl Tournament {
    /// Whether the ranked entrants are teams (matches are team matches).
    pub(crate) fn team_event(&self) -> bool {
        self.format.entrants == Entrants::Teams
    }

    /// The format whose games are individual (the individual event of 队员总分制).
    pub(crate) fn game_format(&self) -> &Format {
        self.individual_format.as_ref().unwrap_or(&self.format)
    }

    /// Entrant ids (players or teams).
    pub(crate) fn entrant_ids(&self) -> Vec<&str> {
        if self.team_event() {
            self.teams.iter().map(|t| t.id.as_str()).collect()
        } else {
            self.players.iter().map(|p| p.id.as_str()).collect()
        }
    }

    /// Validates raw records under `rules`; every error found is returned.
    pub fn validate(
        raw: &RawTournament,
        rules: &CompetitionRules,
    ) -> Result<Tournament, TournamentErrors> {
        Validator {
            rules,
            errors: TournamentErrors::default(),
        }
        .run(raw)
    }
}

struct Validator<'a> {
    rules: &'a CompetitionRules,
    errors: TournamentErrors,
}

/// Whether an id is empty or only blanks (names no one).
fn blank(id: &str) -> bool {
    id.trim().is_empty()
}

fn at(record: impl Into<String>) -> Place {
    Place {
        record: record.into(),
        ..Place::default()
    }
}

/// The players and teams of an event, with their ids.
struct Roster {
    team_event: bool,
    players: Vec<Player>,
    pidx: HashMap<String, usize>,
    teams: Vec<Team>,
    tidx: HashMap<String, usize>,
}

impl Roster {
    /// The entrant (team or player, as the format ranks) an id names.
    fn entrant_index(&self, id: &str) -> Option<usize> {
        if self.team_event {
            self.tidx.get(id).copied()
        } else {
            self.pidx.get(id).copied()
        }
    }

    /// The id of entrant `i`.
    fn entrant_name(&self, i: usize) -> &str {
        if self.team_event {
            &self.teams[i].id
        } else {
            &self.players[i].id
        }
    }
}

/// A team event's line-up rule, its number of boards and its name.
type LineupRule = (super::data::Lineup, u32, String);

/// (round, entrant) → the record that booked it.
type Booked = HashMap<(u32, usize), String>;

impl Validator<'_> {
    fn push(
        &mut self,
        kind: TournamentErrorKind,
        record: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.errors.push(TournamentError {
            kind,
            place: at(record),
            message: message.into(),
        });
    }

    fn format(&mut self, name: &str, record: &str) -> Option<Format> {
        match self.rules.formats.get(name) {
            Some(f) => Some(f.clone()),
            None => {
                let known: Vec<&str> = self.rules.formats.keys().map(String::as_str).collect();
                self.push(
                    TournamentErrorKind::UnknownFormat,
                    record,
                    format!(
                        "`{name}` is not a format of {} (it has: {})",
                        self.rules.ruleset,
                        known.join(", ")
                    ),
                );
                None
            }
        }
    }

    /// Validates the records in the rules' order: format and rounds, entrants, line-up, games, byes, sanctions, withdrawals, the N+1 final.
    fn run(mut self, raw: &RawTournament) -> Result<Tournament, TournamentErrors> {
        let Some((format, individual_format, order)) = self.format_and_rounds(raw) else {
            return Err(self.errors);
        };
        let team_event = format.entrants == Entrants::Teams;
        let game_format = individual_format.clone().unwrap_or_else(|| format.clone());
        let roster = self.entrants(raw, &format);
        let lineup = self.lineup(raw, &roster);
        // Rounds in which each entrant is booked, to catch double bookings.
        let mut booked: Booked = HashMap::new();
        let (games, matches) = if team_event {
            self.team_matches(raw, &roster, &lineup, &mut booked)
        } else {
            (
                self.individual_games(raw, &roster, &game_format, &mut booked),
                Vec::new(),
            )
        };
        let byes = self.byes(raw, &roster, &game_format, &mut booked);
        let sanctions = self.sanctions(raw, &roster);
        let withdrawals = self.withdrawals(raw, &roster, &game_format, &games, &matches, &byes);
        self.n_plus_one_final(raw, &games, &game_format, team_event);

        if self.errors.is_empty() {
            Ok(Tournament {
                name: raw.name.clone(),
                format,
                order,
                individual_format,
                rounds: raw.rounds,
                players: roster.players,
                teams: roster.teams,
                games,
                matches,
                byes,
                sanctions,
                withdrawals,
            })
        } else {
            Err(self.errors)
        }
    }

    /// The format, the individual format of a 队员总分制 event, the order and the number of rounds; `None` stops the validation.
    fn format_and_rounds(
        &mut self,
        raw: &RawTournament,
    ) -> Option<(Format, Option<Format>, String)> {
        use TournamentErrorKind::*;
        let format = self.format(&raw.format, "format");
        let individual_format = match (&format, &raw.individual_format) {
            (Some(f), Some(n)) if f.entrants == Entrants::TeamsByPlayerPlaces => {
                let inf = self.format(n, "individual_format");
                if let Some(i) = &inf {
                    if i.entrants != Entrants::Players {
                        self.push(
                            UnknownFormat,
                            "individual_format",
                            format!("`{n}` does not rank individual players"),
                        );
                    }
                }
                inf
            }
            (Some(f), None) if f.entrants == Entrants::TeamsByPlayerPlaces => {
                self.push(UnknownFormat, "individual_format", format!("format `{}` (队员总分制) needs `individual_format`, the format of the individual event", raw.format));
                None
            }
            (Some(_), Some(_)) => {
                self.push(
                    UnknownFormat,
                    "individual_format",
                    "only 队员总分制 formats take `individual_format`",
                );
                None
            }
            _ => None,
        };
        let order = match (&format, &raw.order) {
            (Some(f), Some(o)) if !f.orders.contains_key(o) => {
                let names: Vec<&str> = f.orders.keys().map(String::as_str).collect();
                self.push(
                    UnknownOrder,
                    "order",
                    format!(
                        "`{}` names no order of {} (it has: {})",
                        o,
                        f.clause,
                        names.join(", ")
                    ),
                );
                o.clone()
            }
            (Some(_), Some(o)) => o.clone(),
            (Some(f), None) => f.default_order.clone(),
            (None, _) => String::new(),
        };
        if raw.rounds == 0 {
            self.push(UnknownRound, "rounds", "an event has at least one round");
        } else if raw.rounds > MAX_ROUNDS {
            self.push(
                UnknownRound,
                "rounds",
                format!(
                    "{} rounds: an event has at most {MAX_ROUNDS} (MAX_ROUNDS)",
                    raw.rounds
                ),
            );
            return None;
        }
        let format = format?;
        if format.cycles > 1 && !raw.rounds.is_multiple_of(format.cycles) {
            self.push(
                UnknownRound,
                "rounds",
                format!(
                    "{} rounds cannot be split into {} cycles",
                    raw.rounds, format.cycles
                ),
            );
        }
        Some((format, individual_format, order))
    }

    /// The players and teams: ids, registrations, and the entrants the format ranks.
    fn entrants(&mut self, raw: &RawTournament, format: &Format) -> Roster {
        use TournamentErrorKind::*;
        let team_event = format.entrants == Entrants::Teams;
        let by_places = format.entrants == Entrants::TeamsByPlayerPlaces;
        let mut players: Vec<Player> = Vec::new();
        let mut pidx: HashMap<String, usize> = HashMap::new();
        for (i, p) in raw.players.iter().enumerate() {
            if blank(&p.id) {
                self.push(
                    EmptyId,
                    format!("players[{i}]"),
                    format!("player id `{}` is empty: an id names the player", p.id),
                );
                continue;
            }
            if pidx.insert(p.id.clone(), players.len()).is_some() {
                self.push(
                    Duplicate,
                    format!("players[{i}]"),
                    format!("player `{}` is listed twice", p.id),
                );
                continue;
            }
            players.push(Player {
                id: p.id.clone(),
                name: p.name.clone(),
                team: None,
            });
        }
        let mut teams: Vec<Team> = Vec::new();
        let mut tidx: HashMap<String, usize> = HashMap::new();
        for (i, t) in raw.teams.iter().enumerate() {
            if blank(&t.id) {
                self.push(
                    EmptyId,
                    format!("teams[{i}]"),
                    format!("team id `{}` is empty: an id names the team", t.id),
                );
                continue;
            }
            if tidx.contains_key(&t.id) {
                self.push(
                    Duplicate,
                    format!("teams[{i}]"),
                    format!("team `{}` is listed twice", t.id),
                );
                continue;
            }
            let ti = teams.len();
            tidx.insert(t.id.clone(), ti);
            let mut list = Vec::new();
            for (j, p) in t.players.iter().enumerate() {
                if blank(p) {
                    self.push(
                        EmptyId,
                        format!("teams[{i}].players[{j}]"),
                        format!(
                            "player id `{p}` of team `{}` is empty: an id names the player",
                            t.id
                        ),
                    );
                    continue;
                }
                let k = match pidx.get(p) {
                    Some(&k) => k,
                    None => {
                        pidx.insert(p.clone(), players.len());
                        players.push(Player {
                            id: p.clone(),
                            name: None,
                            team: None,
                        });
                        players.len() - 1
                    }
                };
                if let Some(other) = players[k].team {
                    let o = teams
                        .get(other)
                        .map(|t| t.id.clone())
                        .unwrap_or_else(|| t.id.clone());
                    self.push(
                        Duplicate,
                        format!("teams[{i}].players"),
                        format!("player `{p}` is registered for `{o}` and `{}`", t.id),
                    );
                    continue;
                }
                players[k].team = Some(ti);
                list.push(k);
            }
            teams.push(Team {
                id: t.id.clone(),
                name: t.name.clone(),
                players: list,
            });
        }
        if (team_event || by_places) && teams.is_empty() {
            self.push(
                UnknownEntrant,
                "teams",
                format!(
                    "format `{}` ranks teams: list them under `teams`",
                    raw.format
                ),
            );
        }
        if !team_event && !by_places && !raw.teams.is_empty() {
            self.push(
                UnknownFormat,
                "teams",
                format!(
                    "format `{}` ranks players; `teams` belong to team formats",
                    raw.format
                ),
            );
        }
        if by_places {
            if let Some((i, p)) = players.iter().enumerate().find(|(_, p)| p.team.is_none()) {
                self.push(
                    UnknownEntrant,
                    format!("players[{i}]"),
                    format!("player `{}` belongs to no team (队员总分制)", p.id),
                );
            }
        }
        Roster {
            team_event,
            players,
            pidx,
            teams,
            tidx,
        }
    }

    /// The line-up rule of a team event and each team's registration against its boards.
    fn lineup(&mut self, raw: &RawTournament, roster: &Roster) -> Option<LineupRule> {
        use TournamentErrorKind::*;
        let lineup = if roster.team_event {
            match (&raw.lineup, raw.boards) {
                (Some(l), Some(b)) if b > 0 => match self.rules.lineups.get(l) {
                    Some(rule) => Some((rule.clone(), b, l.clone())),
                    None => {
                        let known: Vec<&str> =
                            self.rules.lineups.keys().map(String::as_str).collect();
                        self.push(
                            NoRule,
                            "lineup",
                            format!(
                                "`{l}` is not a line-up system of {} (it has: {})",
                                self.rules.ruleset,
                                known.join(", ")
                            ),
                        );
                        None
                    }
                },
                _ => {
                    self.push(
                        Lineup,
                        "boards",
                        "a team event gives `boards` (at least 1) and `lineup`",
                    );
                    None
                }
            }
        } else {
            None
        };
        if let Some((rule, boards, name)) = &lineup {
            for (i, t) in roster.teams.iter().enumerate() {
                if (t.players.len() as u32) < *boards {
                    self.push(
                        Lineup,
                        format!("teams[{i}].players"),
                        format!(
                            "team `{}` registers {} players for {boards} boards",
                            t.id,
                            t.players.len()
                        ),
                    );
                } else if !rule.reserves && t.players.len() as u32 > *boards {
                    self.push(
                        Lineup,
                        format!("teams[{i}].players"),
                        format!(
                            "team `{}` registers reserves, which `{name}` does not allow",
                            t.id
                        ),
                    );
                }
            }
        }
        lineup
    }

    /// Books an entrant in a round; a second booking in the same round is an error.
    fn book(&mut self, booked: &mut Booked, round: u32, who: usize, who_name: &str, record: &str) {
        if let Some(prev) = booked.insert((round, who), record.to_string()) {
            self.push(
                TournamentErrorKind::DoubleBooking,
                record,
                format!("`{who_name}` is already in {prev} in round {round}"),
            );
        }
    }

    /// Whether `round` is a round of the event; an error at `record` if not.
    fn round_ok(&mut self, raw: &RawTournament, round: u32, record: &str) -> bool {
        if round == 0 || round > raw.rounds {
            self.push(
                TournamentErrorKind::UnknownRound,
                record,
                format!(
                    "round {round} is not a round of this event (1–{})",
                    raw.rounds
                ),
            );
            false
        } else {
            true
        }
    }

    /// One game: its result, its two listed players, and the play-off winner.
    fn game(
        &mut self,
        roster: &Roster,
        g: &RawGame,
        round: u32,
        record: &str,
        in_match: Option<usize>,
    ) -> Option<Game> {
        use TournamentErrorKind::*;
        let result = parse_result(&g.result);
        if result.is_none() {
            self.push(
                UnknownValue,
                record,
                format!(
                    "result `{}` is none of red, black, draw, +-, -+, --",
                    g.result
                ),
            );
        }
        let red = roster.pidx.get(&g.red).copied();
        let black = roster.pidx.get(&g.black).copied();
        for (side, id, k) in [("red", &g.red, red), ("black", &g.black, black)] {
            if k.is_none() {
                self.push(
                    UnknownEntrant,
                    record,
                    format!("{side} player `{id}` is not listed"),
                );
            }
        }
        if g.red == g.black {
            self.push(
                SelfGame,
                record,
                format!("`{}` plays against themselves", g.red),
            );
            return None;
        }
        let (red, black, (result, played)) = (red?, black?, result?);
        let play_off_winner = match &g.play_off_winner {
            None => None,
            Some(w) if *w == g.red => Some(red),
            Some(w) if *w == g.black => Some(black),
            Some(w) => {
                self.push(
                    UnknownEntrant,
                    record,
                    format!("play-off winner `{w}` did not play this game"),
                );
                None
            }
        };
        let f = g.fouls.unwrap_or_default();
        Some(Game {
            round,
            red,
            black,
            result,
            played,
            fouls: [f.red, f.black],
            board: g.board,
            in_match,
            is_final: g.r#final,
            play_off_winner,
        })
    }

    /// The matches of a team event: the two teams, their round, their board games and line-ups.
    fn team_matches(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        lineup: &Option<LineupRule>,
        booked: &mut Booked,
    ) -> (Vec<Game>, Vec<Match>) {
        use TournamentErrorKind::*;
        let mut games: Vec<Game> = Vec::new();
        let mut matches: Vec<Match> = Vec::new();
        if !raw.games.is_empty() {
            self.push(
                UnknownFormat,
                "games",
                "a team event records its games inside `matches`",
            );
        }
        for (mi, m) in raw.matches.iter().enumerate() {
            let rec = format!("matches[{mi}]");
            let ok_round = self.round_ok(raw, m.round, &rec);
            let t: Vec<Option<usize>> = m
                .teams
                .iter()
                .map(|id| roster.tidx.get(id).copied())
                .collect();
            for (id, k) in m.teams.iter().zip(&t) {
                if k.is_none() {
                    self.push(UnknownEntrant, &rec, format!("team `{id}` is not listed"));
                }
            }
            if m.teams[0] == m.teams[1] {
                self.push(
                    SelfGame,
                    &rec,
                    format!("team `{}` plays against itself", m.teams[0]),
                );
                continue;
            }
            let (Some(a), Some(b)) = (t[0], t[1]) else {
                continue;
            };
            if ok_round {
                self.book(booked, m.round, a, &m.teams[0], &rec);
                self.book(booked, m.round, b, &m.teams[1], &rec);
            }
            let match_index = matches.len();
            let (list, on_board) =
                self.board_games(roster, lineup, mi, m, [a, b], match_index, &mut games);
            if let Some(rule) = lineup {
                self.fielded_lineup(roster, rule, &rec, [a, b], &on_board);
            }
            matches.push(Match {
                round: m.round,
                teams: [a, b],
                games: list,
            });
        }
        (games, matches)
    }

    /// The board games of one match: each between the two teams, on its own board, each player on one board.
    #[allow(clippy::too_many_arguments)]
    fn board_games(
        &mut self,
        roster: &Roster,
        lineup: &Option<LineupRule>,
        mi: usize,
        m: &RawMatch,
        [a, b]: [usize; 2],
        match_index: usize,
        games: &mut Vec<Game>,
    ) -> (Vec<usize>, [BTreeMap<u32, usize>; 2]) {
        use TournamentErrorKind::*;
        let players = &roster.players;
        let mut list = Vec::new();
        let mut on_board: [BTreeMap<u32, usize>; 2] = [BTreeMap::new(), BTreeMap::new()];
        for (gi, g) in m.games.iter().enumerate() {
            let grec = format!("matches[{mi}].games[{gi}]");
            if g.round.is_some_and(|r| r != m.round) {
                self.push(
                    UnknownRound,
                    &grec,
                    "a board game is in its match's round (leave `round` out)",
                );
            }
            let Some(gm) = self.game(roster, g, m.round, &grec, Some(match_index)) else {
                continue;
            };
            let side_of = |p: usize| {
                players[p].team.and_then(|t| {
                    if t == a {
                        Some(0)
                    } else if t == b {
                        Some(1)
                    } else {
                        None
                    }
                })
            };
            let (sr, sb) = (side_of(gm.red), side_of(gm.black));
            if sr.is_none() || sb.is_none() || sr == sb {
                self.push(
                    Lineup,
                    &grec,
                    format!(
                        "a board game is between a player of `{}` and one of `{}`",
                        m.teams[0], m.teams[1]
                    ),
                );
                continue;
            }
            let Some(board) = g.board else {
                self.push(Lineup, &grec, "a board game gives its `board`");
                continue;
            };
            if let Some((_, boards, _)) = lineup {
                if board == 0 || board > *boards {
                    self.push(
                        Lineup,
                        &grec,
                        format!("board {board} is not one of 1–{boards}"),
                    );
                    continue;
                }
            }
            for (side, p) in [(sr, gm.red), (sb, gm.black)] {
                let s = side.unwrap_or(0);
                if on_board[s].values().any(|&q| q == p) {
                    self.push(
                        DoubleBooking,
                        &grec,
                        format!("`{}` plays two boards of one match", players[p].id),
                    );
                }
                if on_board[s].insert(board, p).is_some() {
                    self.push(
                        Lineup,
                        &grec,
                        format!("board {board} of `{}` is played twice", m.teams[s]),
                    );
                }
            }
            list.push(games.len());
            games.push(gm);
        }
        (list, on_board)
    }

    /// The players each team fields in one match, against the line-up rule: every board, in registration order, reserves.
    fn fielded_lineup(
        &mut self,
        roster: &Roster,
        (rule, boards, name): &LineupRule,
        rec: &str,
        teams: [usize; 2],
        on_board: &[BTreeMap<u32, usize>; 2],
    ) {
        let players = &roster.players;
        for (s, team) in teams.into_iter().enumerate() {
            let team = &roster.teams[team];
            let fielded: Vec<usize> = on_board[s].values().copied().collect();
            if fielded.len() as u32 != *boards {
                self.push(
                    TournamentErrorKind::Lineup,
                    rec,
                    format!("`{}` fields {} of {boards} boards", team.id, fielded.len()),
                );
                continue;
            }
            let pos: Vec<usize> = fielded
                .iter()
                .map(|p| {
                    team.players
                        .iter()
                        .position(|q| q == p)
                        .unwrap_or(usize::MAX)
                })
                .collect();
            if rule.keeps_registration_order && pos.windows(2).any(|w| w[0] >= w[1]) {
                self.push(TournamentErrorKind::Lineup, rec, format!("`{}` fields its players out of registration order ({}), which `{name}` forbids", team.id, fielded.iter().map(|&p| players[p].id.as_str()).collect::<Vec<_>>().join("-")));
            } else if !rule.reserves && pos.iter().any(|&k| k as u32 >= *boards) {
                self.push(
                    TournamentErrorKind::Lineup,
                    rec,
                    format!(
                        "`{}` fields a player beyond its first {boards}, which `{name}` forbids",
                        team.id
                    ),
                );
            }
        }
    }

    /// The games of an individual event: each in a round, each player once a round (a mini-match may play several).
    fn individual_games(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        game_format: &Format,
        booked: &mut Booked,
    ) -> Vec<Game> {
        use TournamentErrorKind::*;
        let mut games: Vec<Game> = Vec::new();
        if !raw.matches.is_empty() {
            self.push(
                UnknownFormat,
                "matches",
                format!(
                    "format `{}` ranks players: record `games`, not `matches`",
                    raw.format
                ),
            );
        }
        // Individual mini-matches (unit: match): a pairing may play several games in a round.
        let mini_matches = game_format.unit == Unit::Match;
        let mut opponent_in_round: HashMap<(u32, usize), usize> = HashMap::new();
        for (gi, g) in raw.games.iter().enumerate() {
            let rec = format!("games[{gi}]");
            let Some(round) = g.round else {
                self.push(UnknownRound, &rec, "a game gives its `round`");
                continue;
            };
            let ok_round = self.round_ok(raw, round, &rec);
            if g.board.is_some() {
                self.push(Lineup, &rec, "`board` belongs to games inside team matches");
            }
            let Some(gm) = self.game(roster, g, round, &rec, None) else {
                continue;
            };
            if ok_round {
                for (p, o) in [(gm.red, gm.black), (gm.black, gm.red)] {
                    match opponent_in_round.get(&(round, p)) {
                        Some(&q) if mini_matches && q == o => {}
                        Some(_) => {
                            let prev = booked.get(&(round, p)).cloned().unwrap_or_default();
                            self.push(
                                DoubleBooking,
                                &rec,
                                format!(
                                    "`{}` is already in {prev} in round {round}",
                                    roster.players[p].id
                                ),
                            );
                        }
                        None => {
                            opponent_in_round.insert((round, p), o);
                            booked.insert((round, p), rec.clone());
                        }
                    }
                }
            }
            games.push(gm);
        }
        games
    }

    /// The byes: each for a listed entrant, under a bye rule of the format.
    fn byes(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        game_format: &Format,
        booked: &mut Booked,
    ) -> Vec<(u32, usize)> {
        use TournamentErrorKind::*;
        let team_event = roster.team_event;
        let mut byes = Vec::new();
        for (i, b) in raw.byes.iter().enumerate() {
            let rec = format!("byes[{i}]");
            let ok_round = self.round_ok(raw, b.round, &rec);
            let Some(e) = roster.entrant_index(&b.entrant) else {
                self.push(
                    UnknownEntrant,
                    &rec,
                    format!("`{}` is not listed", b.entrant),
                );
                continue;
            };
            let scored_rule = if team_event {
                self.rules.bye_team_score
            } else {
                self.rules.bye_score
            };
            match game_format.byes {
                Byes::Unstated => {
                    self.push(
                        NoRule,
                        &rec,
                        format!(
                            "{} has no rule on byes for `{}`",
                            self.rules.ruleset, game_format.name
                        ),
                    );
                    continue;
                }
                Byes::Scored if scored_rule.is_none() => {
                    let id = if team_event {
                        "bye.team_score"
                    } else {
                        "bye.score"
                    };
                    self.push(
                        NoRule,
                        &rec,
                        format!(
                            "{} has no `{id}` clause: a bye cannot be scored",
                            self.rules.ruleset
                        ),
                    );
                    continue;
                }
                _ => {}
            }
            if ok_round {
                self.book(booked, b.round, e, roster.entrant_name(e), &rec);
            }
            byes.push((b.round, e));
        }
        byes
    }

    /// The sanctions: each for a listed entrant (a player's counts for the team), of a kind `sanction.ranking` names.
    fn sanctions(&mut self, raw: &RawTournament, roster: &Roster) -> Vec<Sanction> {
        use TournamentErrorKind::*;
        let mut sanctions = Vec::new();
        for (i, s) in raw.sanctions.iter().enumerate() {
            let rec = format!("sanctions[{i}]");
            if let Some(r) = s.round {
                self.round_ok(raw, r, &rec);
            }
            // In a team event a player's sanction counts for the team.
            let e = roster.entrant_index(&s.entrant).or_else(|| {
                if roster.team_event {
                    roster
                        .pidx
                        .get(&s.entrant)
                        .and_then(|&p| roster.players[p].team)
                } else {
                    None
                }
            });
            let Some(e) = e else {
                self.push(
                    UnknownEntrant,
                    &rec,
                    format!("`{}` is not listed", s.entrant),
                );
                continue;
            };
            let Some(kinds) = &self.rules.sanctions else {
                self.push(
                    NoRule,
                    &rec,
                    format!("{} has no `sanction.ranking` clause", self.rules.ruleset),
                );
                continue;
            };
            match kinds.iter().position(|k| k.kind == s.kind) {
                Some(kind) => sanctions.push(Sanction { entrant: e, kind }),
                None => {
                    let known: Vec<&str> = kinds.iter().map(|k| k.kind.as_str()).collect();
                    self.push(
                        UnknownValue,
                        &rec,
                        format!("sanction kind `{}` is none of {}", s.kind, known.join(", ")),
                    );
                }
            }
        }
        sanctions
    }

    /// The withdrawals: each once, under a withdrawal rule, with no result after it.
    fn withdrawals(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        game_format: &Format,
        games: &[Game],
        matches: &[Match],
        byes: &[(u32, usize)],
    ) -> Vec<(usize, u32)> {
        use TournamentErrorKind::*;
        let mut withdrawals: Vec<(usize, u32)> = Vec::new();
        // Entrant → (after round, index of its withdrawal record).
        let mut withdrawn: HashMap<usize, (u32, usize)> = HashMap::new();
        for (i, w) in raw.withdrawals.iter().enumerate() {
            let rec = format!("withdrawals[{i}]");
            if w.after_round > raw.rounds {
                self.push(
                    UnknownRound,
                    &rec,
                    format!(
                        "round {} is not a round of this event (1–{})",
                        w.after_round, raw.rounds
                    ),
                );
            }
            let Some(e) = roster.entrant_index(&w.entrant) else {
                self.push(
                    UnknownEntrant,
                    &rec,
                    format!("`{}` is not listed", w.entrant),
                );
                continue;
            };
            let system = game_format.system;
            if system.is_none_or(|s| !self.rules.withdrawal.contains_key(&s)) {
                self.push(
                    NoRule,
                    &rec,
                    format!(
                        "{} has no withdrawal rule for `{}`",
                        self.rules.ruleset, game_format.name
                    ),
                );
                continue;
            }
            if withdrawn.contains_key(&e) {
                self.push(Withdrawal, &rec, format!("`{}` withdraws twice", w.entrant));
                continue;
            }
            withdrawn.insert(e, (w.after_round, i));
            withdrawals.push((e, w.after_round));
        }
        // The first result of each withdrawn entrant after its withdrawal: games (matches)
        // in their order, then byes; one pass over the records.
        let mut late: HashMap<usize, u32> = HashMap::new();
        let results: Box<dyn Iterator<Item = (u32, usize)> + '_> = if roster.team_event {
            Box::new(matches.iter().flat_map(|m| m.teams.map(|t| (m.round, t))))
        } else {
            Box::new(
                games
                    .iter()
                    .flat_map(|g| [(g.round, g.red), (g.round, g.black)])
                    .chain(byes.iter().copied()),
            )
        };
        for (round, e) in results {
            if withdrawn.get(&e).is_some_and(|&(after, _)| round > after) {
                late.entry(e).or_insert(round);
            }
        }
        for &(e, after) in &withdrawals {
            if let (Some(r), Some(&(_, i))) = (late.get(&e), withdrawn.get(&e)) {
                self.push(
                    Withdrawal,
                    format!("withdrawals[{i}]"),
                    format!(
                        "`{}` withdrew after round {after} but has a result in round {r}",
                        roster.entrant_name(e)
                    ),
                );
            }
        }
        withdrawals
    }

    /// The N+1 final: one, in the last round of an individual Swiss event, a drawn one decided by play-off.
    fn n_plus_one_final(
        &mut self,
        raw: &RawTournament,
        games: &[Game],
        game_format: &Format,
        team_event: bool,
    ) {
        use TournamentErrorKind::*;
        let finals: Vec<usize> = games
            .iter()
            .enumerate()
            .filter(|(_, g)| g.is_final)
            .map(|(i, _)| i)
            .collect();
        if !finals.is_empty() {
            let rec = raw
                .games
                .iter()
                .position(|g| g.r#final)
                .map(|i| format!("games[{i}]"))
                .unwrap_or_default();
            if self.rules.n_plus_one.is_none() {
                self.push(
                    NoRule,
                    &rec,
                    format!(
                        "{} has no N+1 format (`format.n_plus_one`)",
                        self.rules.ruleset
                    ),
                );
            } else if finals.len() > 1 {
                self.push(DoubleBooking, &rec, "an N+1 event has one final");
            } else if game_format.system != Some(System::Swiss) || team_event {
                self.push(NoRule, &rec, "an N+1 final ends an individual Swiss event");
            } else {
                let g = &games[finals[0]];
                if g.round != raw.rounds {
                    self.push(
                        UnknownRound,
                        &rec,
                        format!("the final is played in the last round ({})", raw.rounds),
                    );
                }
                if g.result == GameResult::Draw && g.play_off_winner.is_none() {
                    self.push(NoRule, &rec, "a drawn final gives `play_off_winner` (the play-off decides places 1 and 2)");
                }
            }
        }
    }
}
