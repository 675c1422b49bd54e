//! The errors of a tournament: syntax ([`SyntaxError`]), validation ([`TournamentError`],
//! at most [`MAX_REPORTED_ERRORS`] of them) and reading a file ([`ReadError`]).

use super::*;

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
