//! The rule VM: compiles an edition's clauses into tables once, then answers questions
//! about positions (legal moves, check, checkmate, stalemate) from those tables.
//!
//! Nothing here knows a piece by name. Piece kinds, their move programs, regions, the
//! facing rule and the self-kill conditions all come from `spec/`; this module knows
//! only the primitives (step, leap with a blocking point, slide, hop over screens,
//! region guards) and how to run them fast.
//!
//! - [`data`]: typed shapes of the clause data the VM interprets.
//! - `compile`: clauses → [`Rules`], per side, kind and point: leap lists with blocking
//!   points, four line rays with slide and hop modes, reverse leap tables for attack tests,
//!   the kinds that attack along each direction, regions as bitboards, the reachability of
//!   each kind for FEN validation. `clause_data` re-exports its helpers for every rule
//!   domain's compile step (an error at a clause, a missing clause, typed data or the error
//!   recorded).
//! - `meaning`: the meaning checks the compile step runs once the tables are built.
//! - [`record`]: the record table (how moves are written, 7.5), `None` without the
//!   `notation.*` clauses ([`Rules::record`]).
//! - `position`: [`Position`] (mailbox, bitboards per side and kind, occupancy bit-vectors per
//!   rank and file), make and unmake, pseudo-legal generation through a `Sink`, the self-kill
//!   filter, attack and check tests, status.
//! - [`fen`]: FEN read, validated and written. `fen::read` gives a `Setup`, never a
//!   `Position`: a setup becomes a position only through `Position::from_setup`, which
//!   validates it against the rule set (a [`fen::FenSyntaxError`] from `read`, a
//!   [`fen::FenPositionError`] from `from_setup`; [`fen::FenError`] is either).
//!
//! Depends on `board` and `spec`.

pub(crate) mod compile;
pub mod data;
pub mod fen;
mod meaning;
mod position;
pub mod record;

use std::fmt;

pub use position::{IllegalMove, IllegalReason, Position, Undo};
pub(crate) use position::{Placement, PlacementMap};

/// The clause helpers of the compile step, shared with the other rule domains: a
/// [`SpecError`] at a clause's location or for a missing clause, a clause's data read into
/// a typed shape (or the error recorded), whether its data has a key.
pub(crate) mod clause_data {
    pub(crate) use super::compile::{
        err, err_at, has_key, missing, positive, read, require, typed,
    };
}

/// Internals shared with `perft` and the 棋例 searches (not part of the public API).
pub(crate) mod position_internals {
    pub(crate) use super::position::{BitIter, Legality, MoveBuf, MAX_MOVES};
}

use crate::board::{KindId, Side, Square};
use crate::spec::{Edition, Spec, SpecError, SpecErrors};

/// Facts about one piece kind, from `pieces.kinds`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// Name used in data (`horse`).
    pub name: String,
    /// English gloss with the Chinese names (`horse (马)`).
    pub(crate) gloss: String,
    /// Whether capturing it ends the game (the general).
    pub(crate) royal: bool,
    /// How many each side has at the start (from `pieces.setup`).
    pub count: u8,
    /// FEN letters, lower case, canonical first.
    pub(crate) fen: Vec<char>,
    /// The kind's name for each side (`[red, black]`), one character (`pieces.kinds`).
    pub(crate) names: [String; 2],
}

/// The state of the side to move, as named by `check.*` clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Neither in check nor without a move.
    Ongoing,
    /// In check (将), with a way out.
    Check,
    /// In check with no legal move: checkmated (将死).
    Checkmate,
    /// Not in check, but no legal move: stalemated (困毙).
    Stalemate,
}

impl Status {
    /// Every status, in declaration order.
    pub const ALL: [Status; 4] = [
        Status::Ongoing,
        Status::Check,
        Status::Checkmate,
        Status::Stalemate,
    ];

    /// The status as the protocol writes it (`ongoing`, `check`, `checkmate`, `stalemate`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Check => "check",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
        }
    }

    /// Reads a status name written by [`Status::name`].
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|x| x.name() == s)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Quiet (non-capturing) moves allowed.
pub(crate) const QUIET: u8 = 1;
/// Captures allowed.
pub(crate) const CAPTURE: u8 = 2;
/// No blocking point.
pub(crate) const NO_BLOCK: u8 = 0xFF;

/// One precompiled leap or step: target point, blocking point, allowed modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Leap {
    pub(crate) to: u8,
    pub(crate) block: u8,
    pub(crate) modes: u8,
}

/// What a piece may do along one direction of a line from one point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ray {
    /// Slide modes (QUIET / CAPTURE), 0 if none.
    pub(crate) slide: u8,
    /// Longest slide in points.
    pub(crate) max: u8,
    /// Hop modes, 0 if none.
    pub(crate) hop: u8,
    /// Pieces jumped by a hop.
    pub(crate) screens: u8,
    /// Index into `Rules::masks` of the points a move along this ray may end on (0 = any).
    pub(crate) to_mask: u8,
}

impl Ray {
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.slide == 0 && self.hop == 0
    }
}

/// A reversed leap: a piece of a kind in `kinds` on `from` attacks the indexing point
/// while `block` is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReverseLeap {
    pub(crate) from: u8,
    pub(crate) block: u8,
    pub kinds: u8,
}

/// Absolute line directions: north (+rank), south, east (+file), west.
pub(crate) const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// Index of the opposite direction.
#[inline]
pub(crate) const fn opposite(d: usize) -> usize {
    d ^ 1
}

/// A status rule of `check.*`: the first whose conditions hold names the status.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StatusRule {
    pub in_check: Option<bool>,
    pub(crate) has_legal_move: Option<bool>,
    pub status: Status,
}

/// An edition compiled for play.
#[derive(Clone, Debug)]
pub struct Rules {
    pub(crate) edition_id: String,
    /// How moves are recorded (7.5), when the edition has `notation.*` clauses.
    pub(crate) record: Option<record::Record>,
    /// The file numerals of `board.file_numbering` (1.1).
    pub(crate) file_numerals: record::FileNumerals,
    pub(crate) kinds: Vec<KindInfo>,
    pub(crate) royal: KindId,
    pub(crate) first_to_move: Side,
    pub(crate) moves_per_round: u8,
    /// Setup as (kind, point) per side.
    pub(crate) setup: [Vec<(KindId, Square)>; 2],
    /// `leap_index[side][kind][sq]` = range in `leaps`.
    pub(crate) leap_index: Vec<(u16, u16)>,
    /// `leap_to[side][kind][sq]`: every point the leaps in `leap_index` end on.
    pub(crate) leap_to: Vec<u128>,
    pub(crate) leaps: Vec<Leap>,
    /// `rays[(side*K + kind)*90 + sq][dir]`.
    pub(crate) rays: Vec<[Ray; 4]>,
    /// Whether a kind has any line move at all, per side: `has_rays[side][kind]`.
    pub(crate) has_rays: [[bool; 8]; 2],
    pub(crate) masks: Vec<u128>,
    /// `reverse_index[attacker side][sq]` = range in `reverse`.
    pub(crate) reverse_index: Vec<(u16, u16)>,
    pub(crate) reverse: Vec<ReverseLeap>,
    /// `reverse_from[attacker side * 90 + sq]`: every `from` point of `reverse_of(side, sq)`.
    pub(crate) reverse_from: Vec<u128>,
    /// `check_zone[attacker side * 90 + sq]`: every point whose contents can decide whether
    /// that side attacks `sq` (the four lines from `sq`, the points its leaps start from and
    /// their blocking points). A move that neither leaves nor enters the zone of the
    /// opposing general cannot give check.
    pub(crate) check_zone: Vec<u128>,
    /// `check_arrival[attacker side * 90 + sq][kind]`: the points a piece of `kind` may
    /// arrive on to attack `sq` (its leaps' starts, and the lines along which it captures).
    pub(crate) check_arrival: Vec<[u128; compile::MAX_KINDS]>,
    /// Kinds of each side with a line capture in any direction.
    pub(crate) any_line_attackers: [u8; 2],
    /// Kinds of `side` that can capture travelling in absolute direction `dir`: `line_attackers[side][dir]`.
    pub(crate) line_attackers: [[u8; 4]; 2],
    /// Most screens any hop uses (bounds the attack scan along a line).
    pub(crate) max_screens: u8,
    /// Facing rule: kind and the directions it applies along.
    pub(crate) facing: Option<(KindId, [bool; 4])>,
    pub(crate) forbid_attacked: bool,
    pub(crate) forbid_facing: bool,
    pub(crate) status_rules: Vec<StatusRule>,
    pub(crate) in_check_status: Status,
    /// Points each kind of each side can ever stand on, from its setup and program.
    pub(crate) reachable: [[u128; 8]; 2],
    /// `ray_mask[sq][dir]`: every point from `sq` (exclusive) to the edge.
    pub(crate) ray_mask: Vec<[u128; 4]>,
    /// `lines_through[sq]`: the four lines from `sq` (`ray_mask[sq]` in every direction).
    pub(crate) lines_through: Vec<u128>,
    /// Clause that gave each kind its moves (for messages).
    pub(crate) kind_clause: Vec<String>,
    /// The board's named regions (`board.*` clauses), as Red sees its own side.
    pub(crate) regions: std::collections::BTreeMap<String, u128>,
}

/// The error for an edition without movement and check clauses, which every rule set needs.
pub(crate) fn no_movement_rules(ed: &Edition) -> SpecError {
    compile::missing(
        ed,
        "board.grid",
        "the VM needs (the edition has no board, pieces, play, movement or check clause)",
    )
}

impl Rules {
    /// Compiles the movement and check clauses of `edition`: `None` when it has none,
    /// else the rules or every error, each at its clause, file and line.
    pub fn compile(edition: &Edition) -> Result<Option<Rules>, Vec<SpecError>> {
        compile::compile(edition)
    }

    /// The rules of `edition`, which must have them: [`Rules::compile`] with an edition
    /// without movement clauses an error too.
    pub fn of_edition(edition: &Edition) -> Result<Rules, SpecErrors> {
        match Rules::compile(edition) {
            Ok(Some(rules)) => Ok(rules),
            Ok(None) => Err(SpecErrors(vec![no_movement_rules(edition)])),
            Err(e) => Err(SpecErrors(e)),
        }
    }

    /// Compile a built-in edition by id (`cxa-2020`).
    pub fn builtin(edition: &str) -> Result<Rules, SpecErrors> {
        // The process's one reading of the embedded spec, borrowed: only this edition is
        // compiled.
        let spec = Spec::builtin_read().as_ref().map_err(Clone::clone)?;
        let ed = spec
            .edition_named(edition)
            .map_err(|m| SpecErrors(vec![SpecError::new(Default::default(), None, m)]))?;
        Rules::of_edition(ed)
    }

    /// The id of the edition (rule set) these rules were compiled from.
    pub fn edition_id(&self) -> &str {
        &self.edition_id
    }

    /// How moves are recorded under this edition (`notation.*`, 7.5), if it says.
    pub fn record(&self) -> Option<&record::Record> {
        self.record.as_ref()
    }

    /// The file numerals of each side (`board.file_numbering`, 1.1).
    pub fn file_numerals(&self) -> &record::FileNumerals {
        &self.file_numerals
    }

    /// The piece kinds, by id (`pieces.kinds`).
    pub fn kinds(&self) -> &[KindInfo] {
        &self.kinds
    }

    /// The id of the kind of this name (`horse`).
    pub fn kind_by_name(&self, name: &str) -> Option<KindId> {
        self.kinds
            .iter()
            .position(|k| k.name == name)
            .map(|i| i as KindId)
    }

    /// Kind whose FEN letter (either case) is `c`.
    pub(crate) fn kind_by_fen(&self, c: char) -> Option<KindId> {
        let c = c.to_ascii_lowercase();
        self.kinds
            .iter()
            .position(|k| k.fen.contains(&c))
            .map(|i| i as KindId)
    }

    /// The royal kind (the general).
    pub(crate) fn royal_kind(&self) -> KindId {
        self.royal
    }

    pub(crate) fn first_to_move(&self) -> Side {
        self.first_to_move
    }

    /// Moves that make one round (回合).
    pub fn moves_per_round(&self) -> u8 {
        self.moves_per_round
    }

    /// The initial position of `pieces.setup`.
    pub fn start_position(&self) -> Position {
        let mut pos = Position::empty(self.first_to_move);
        for side in Side::BOTH {
            for &(kind, sq) in &self.setup[side.index()] {
                pos.put(crate::board::Piece { side, kind }, sq);
            }
        }
        pos
    }

    /// Whether a piece of `kind` of `side` can ever stand on `sq` under this edition.
    pub fn can_stand(&self, side: Side, kind: KindId, sq: Square) -> bool {
        self.reachable[side.index()][kind as usize] >> sq.index() & 1 == 1
    }

    /// The points of the region `name` (a `board.*` clause) as seen by `side`, as a bitboard
    /// (bit `sq.index()`), or `None` when no board clause defines it.
    pub(crate) fn region(&self, side: Side, name: &str) -> Option<u128> {
        self.regions.get(name).map(|&m| compile::to_side(m, side))
    }

    /// Whether `kind` of `side` has any line move (a slide or a hop).
    pub(crate) fn has_line_moves(&self, side: Side, kind: KindId) -> bool {
        self.has_rays[side.index()][kind as usize]
    }

    /// The clause id that defines how `kind` moves.
    pub(crate) fn kind_clause(&self, kind: KindId) -> &str {
        &self.kind_clause[kind as usize]
    }

    #[inline]
    pub(crate) fn leaps_of(&self, side: Side, kind: KindId, sq: usize) -> &[Leap] {
        let (a, b) = self.leap_index[compile::piece_slot(side, kind, sq)];
        &self.leaps[a as usize..b as usize]
    }

    /// Every point a leap of `kind` from `sq` may end on.
    #[inline]
    pub(crate) fn leap_targets(&self, side: Side, kind: KindId, sq: usize) -> u128 {
        self.leap_to[compile::piece_slot(side, kind, sq)]
    }

    #[inline]
    pub(crate) fn rays_of(&self, side: Side, kind: KindId, sq: usize) -> &[Ray; 4] {
        &self.rays[compile::piece_slot(side, kind, sq)]
    }

    #[inline]
    pub(crate) fn reverse_of(&self, attacker: Side, sq: usize) -> &[ReverseLeap] {
        let (a, b) = self.reverse_index[compile::side_point(attacker, sq)];
        &self.reverse[a as usize..b as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_built_in_edition_compiles_by_id_and_an_unknown_id_is_named_with_the_known_ones() {
        assert_eq!(Rules::builtin("cxa-2011").unwrap().edition_id(), "cxa-2011");
        let e = Rules::builtin("cxa-1066").unwrap_err().to_string();
        assert!(
            e.contains("unknown edition `cxa-1066` (known: ") && e.contains("cxa-2020"),
            "{e}"
        );
    }
}
