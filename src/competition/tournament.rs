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
//!
//! Here the validated model; `raw` the records as written and where they are in a file,
//! `errors` the errors, `validate` the checks (`validate/games.rs` those of the games).

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::Serialize;

use super::data::{Byes, Entrants, System, Unit};
use super::{CompetitionRules, Format};
use crate::board::GameResult;

mod errors;
mod raw;
mod validate;

pub use errors::{
    Place, ReadError, SyntaxError, TournamentError, TournamentErrorKind, TournamentErrors,
    MAX_REPORTED_ERRORS,
};
pub(crate) use raw::RawMatch;
pub use raw::{locate, read_file, RawGame, RawTournament};

/// The most rounds an event may have. The ranking keeps a running score per round and
/// entrant, and progressive orders rank again after every round, so the count is bounded
/// before anything is allocated for it; no real event comes near it.
pub const MAX_ROUNDS: u32 = 1000;

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
}
