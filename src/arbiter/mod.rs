//! The arbiter's rules (裁判): how games end, the natural move limit (自然限着), draw offers,
//! touch-move (摸子走子), irregularities, fouls (犯规) and lateness, compiled from the
//! clauses `result.*`, `draw.*`, `event.level`, `touch.*`, `irregularity.*`, `foul.*` and
//! `lateness.*` of an edition (with its event overlay, if any).
//!
//! Rust knows the primitives only: what the arbiter can observe (a checkmate, a flag fall,
//! an illegal move and its kind, a touch of a piece that cannot move …, the
//! `data::Trigger` vocabulary), how to count occurrences, and the touch-move actions
//! (move a piece, capture a piece, capture it with a given piece, move freely). Which
//! observations lose or draw, after how many occurrences, which are fouls, the order of the
//! touch-move steps, and every number (60 rounds, 10 checks, 3 fouls, 5 minutes …) come from
//! the YAML.
//!
//! Two queries: [`ArbiterRules::outcome`] (a game as a list of events → the result, the
//! deciding clause and the foul tally) and [`ArbiterRules::touch_move`] (a position and the
//! pieces touched → the moves the player may make).
//!
//! The files: `data` (the clause shapes and the closed vocabularies: `Trigger`, `IllegalClass`,
//! the touch-move roles and steps; it also decides 5.9, `KnockedOver::ruling`, for the arbiter
//! and the clock simulator alike), `compile` (the clauses → [`ArbiterRules`]: counts resolved
//! for the event's level, chains with `steps_of` resolved, every inconsistency a `SpecError`
//! at its clause or overlay line), `events` (the `outcome` query's event list, read into typed
//! events), `game` (the `outcome` engine), `touch` (touch-move chains; when the side to move
//! is checkmated or stalemated the game is over and a touch is refused, `touch.game_over`) and
//! `adjudicate` (a record's moves through the same `Game` → [`Adjudication`], and the
//! `game_status` query). The clock is not simulated here: flag falls, clock presses and
//! remaining times are events.
//!
//! **The arbiter watches the board.** `Game` keeps the positions since the last capture
//! (`History`: the first in full, then each one's placement, `Position::placement_key` and
//! the move; the positions are replayed only for a ruling). When one has come back as often as
//! `repetition.cycle` says (`RepetitionRules::pending`: `pending_after_cycles`, then
//! `cycles_after_ruling` after each ruling), the 棋例 engine rules the last cycle
//! (`repetition::rule_line`) and the verdict goes the way of a `repetition` event (draw, 4.3,
//! order to change, loss), every decision marked `by: board`; a `repetition` event is the
//! arbiter's override (`by: arbiter`). Only a recurrence calls the engine, so watching costs
//! a hash per ply.
//!
//! [`AfterEnd`] is the one switch for input past the end of the game: the protocol's `outcome`
//! and `game_status` refuse it (`events.after_end`); the commands, given real records, judge
//! up to the end and report `Continues` (how far the record goes on). The commands are
//! `src/cli/arbiter.rs` (`outcome`, `touch`) and `src/cli/adjudicate.rs` (`adjudicate`,
//! `status`). Depends on `spec`, `board`, `vm`, `line` and `repetition`.

mod adjudicate;
mod compile;
pub mod data;
mod events;
mod game;
mod line;
mod touch;

use std::fmt;

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::board::{Move, Side};
use crate::line::LineError;
use crate::repetition::RepetitionRules;
use crate::spec::{Edition, SpecError};
use crate::vm::fen::FenError;
use crate::vm::{Position, Rules};

pub(crate) use crate::answer::TouchAnswer;
pub use adjudicate::{Adjudication, GameStatus, Next, StatusQuery};
pub use events::EVENT_KINDS;
pub use game::{By, Decision, Outcome, Ruling};
pub use line::{rule_line, LineRuling};

/// The clause-id families this module compiles.
pub(crate) const FAMILIES: [&str; 7] = [
    "result.",
    "draw.",
    "event.level",
    "touch.",
    "irregularity.",
    "foul.",
    "lateness.",
];

/// A clause as the arbiter cites it.
pub use crate::spec::RuleRef;

/// A `result.*` clause, compiled: the count is resolved for the event's level.
#[derive(Clone, Debug)]
pub(crate) struct ResultRuleC {
    pub clause: RuleRef,
    pub(crate) when: data::Trigger,
    pub(crate) result: data::ResultKind,
    pub(crate) classes: Vec<data::IllegalClass>,
    pub(crate) times: u32,
    pub(crate) span: data::Span,
    pub(crate) limit_minutes: Option<u32>,
    pub(crate) rounds_to_change: Option<u32>,
}

/// How many fouls one occurrence of a foul's trigger is.
#[derive(Clone, Debug)]
pub(crate) enum FoulCount {
    Each,
    OfferExcess(u32),
    OfferRepeatedAfterDecline,
    Unrecorded {
        every: u32,
        max: Option<u32>,
        counts: Vec<data::RecordFault>,
        deferred_below_seconds: Option<u32>,
    },
}

/// A `foul.*` clause that applies at the event's level.
#[derive(Clone, Debug)]
pub(crate) struct FoulRuleC {
    pub clause: RuleRef,
    pub(crate) when: data::Trigger,
    pub(crate) classes: Vec<data::IllegalClass>,
    pub(crate) count: FoulCount,
}

/// A touch-move chain: the pattern it answers and its steps.
#[derive(Clone, Debug)]
pub(crate) struct ChainRule {
    pub clause: RuleRef,
    pub(crate) touched: Vec<data::Role>,
    pub simultaneous: bool,
    pub(crate) steps: Vec<data::Step>,
}

/// The rules the board decides by, which the arbiter applies to the moves: movement,
/// check and mate (the VM) and, when the rule set has them, the 棋例 (a position that comes
/// back as often as `repetition.cycle` says is ruled on).
#[derive(Clone, Copy, Debug)]
pub struct BoardRules<'a> {
    /// Movement, check and mate.
    pub vm: &'a Rules,
    /// The 棋例; `None`: nobody watches the board for repetitions.
    pub repetition: Option<&'a RepetitionRules>,
}

impl<'a> BoardRules<'a> {
    /// The position a query's FEN gives, or the start position without one.
    fn start(self, fen: Option<&str>) -> Result<Position, ArbiterError> {
        match fen {
            Some(f) => crate::vm::fen::parse(self.vm, f)
                .map(|(pos, ..)| pos)
                .map_err(ArbiterError::Fen),
            None => Ok(self.vm.start_position()),
        }
    }
}

/// The arbiter's clauses of one rule set, compiled.
#[derive(Clone, Debug)]
pub struct ArbiterRules {
    pub(crate) level: Option<String>,
    pub(crate) results: Vec<ResultRuleC>,
    pub(crate) fouls: Vec<FoulRuleC>,
    pub(crate) waiver: Option<RuleRef>,
    pub(crate) natural_limit: Option<(RuleRef, data::NaturalLimit)>,
    pub(crate) offer: Option<(RuleRef, data::DrawOffer)>,
    pub(crate) early_offer: Option<(RuleRef, u32)>,
    pub(crate) early_repetition: Option<(RuleRef, u32, Side)>,
    pub(crate) chains: Vec<ChainRule>,
    pub(crate) adjusting: Option<(RuleRef, data::Adjusting)>,
    pub(crate) colours: Option<(RuleRef, data::ColoursReversed)>,
    pub(crate) displaced: Option<(RuleRef, data::DisplacedPiece)>,
    pub(crate) illegal: Option<(RuleRef, data::IllegalMoveFinding)>,
    pub(crate) knocked: Option<(RuleRef, data::KnockedOver)>,
    pub(crate) between: Option<(RuleRef, data::BetweenPoints)>,
    pub(crate) clock_runs: Option<RuleRef>,
    pub(crate) late_limit: Option<u32>,
}

impl ArbiterRules {
    /// Compiles the arbiter's clauses of `edition`; `Ok(None)` when it has none.
    pub fn compile(edition: &Edition) -> Result<Option<ArbiterRules>, Vec<SpecError>> {
        compile::compile(edition)
    }

    /// The first result clause observing `when`, if the rule set has one.
    pub(crate) fn result(&self, when: data::Trigger) -> Option<&ResultRuleC> {
        self.results.iter().find(|r| r.when == when)
    }

    /// The level of the event the rules are set for (`event.level`), if the edition has levels.
    pub fn level(&self) -> Option<&str> {
        self.level.as_deref()
    }

    /// The result of a game given as a list of events (see `conformance/PROTOCOL.md`,
    /// query `outcome`), the board decided by `board`.
    pub fn outcome(
        &self,
        board: BoardRules<'_>,
        q: &OutcomeQuery,
    ) -> Result<Outcome, ArbiterError> {
        self.outcome_of(board, q, AfterEnd::Refuse)
    }

    /// [`Self::outcome`], with events after the end of the game refused or, for a real
    /// record that goes on, left unjudged and counted in [`Outcome::continues`].
    pub fn outcome_of(
        &self,
        board: BoardRules<'_>,
        q: &OutcomeQuery,
        after_end: AfterEnd,
    ) -> Result<Outcome, ArbiterError> {
        let pos = board.start(q.fen.as_deref())?;
        let evs = events::parse_all(&q.events)?;
        game::Game::on(self, board, pos).run(&evs, after_end)
    }

    /// The moves a player may make after touching the pieces on `touches`, in order (query
    /// `touch_move`).
    pub fn touch_move(&self, vm: &Rules, q: &TouchQuery) -> Result<TouchAnswer, ArbiterError> {
        let (pos, _) = crate::line::after(vm, &q.fen, &q.moves).map_err(|e| match e {
            LineError::Fen(f) => ArbiterError::Fen(f),
            e @ LineError::MoveSyntax { .. } => {
                ArbiterError::reject(RejectKind::MoveSyntax, e.to_string())
            }
            e @ LineError::Illegal { .. } => {
                ArbiterError::reject(RejectKind::MoveIllegal, e.to_string())
            }
        })?;
        touch::answer(self, vm, &pos, &q.touches, q.simultaneous)
    }
}

/// What the arbiter does with events (or moves) that come after the game has ended by the
/// rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AfterEnd {
    /// Refuse the input (`events.after_end`), as the protocol's queries do.
    #[default]
    Refuse,
    /// Judge up to the end and say how far the record goes on: a real record, whose
    /// players went on after a perpetual check or an unheeded order, is the disputed one.
    Stop,
}

/// Where a record goes on after the end of the game: the first event (or move) left
/// unjudged, 0-based, and how many there are from it.
pub use crate::answer::Continues;

shapes! {
    /// Input of the `outcome` query.
    #[derive(PartialEq, Eq, Serialize)]
    pub struct OutcomeQuery {
        /// The position before the first event; the start position when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub fen: Option<String>,
        /// The events of the game, in order (each an object with one key; see PROTOCOL.md).
        pub events: Vec<Value>,
    }
}

impl OutcomeQuery {
    /// `events` with a record's `moves` (ICCS) played among them as `move` events: where an
    /// event `{pgn: N}` places the next N of them or `{pgn: rest}` the rest, else (no
    /// event places them) before every event. `xqspec outcome --pgn` and the Python
    /// package's `outcome(moves=…)` place them so; `events.syntax` for a marker asking for
    /// more moves than are left, or markers leaving some out.
    pub fn events_with_moves(
        events: Vec<Value>,
        moves: &[String],
    ) -> Result<Vec<Value>, ArbiterError> {
        let syntax = |m: String| ArbiterError::reject(RejectKind::EventsSyntax, m);
        let marker = |v: &Value| {
            v.as_object()
                .filter(|m| m.len() == 1)
                .and_then(|m| m.get("pgn"))
                .cloned()
        };
        let as_event = |m: &String| json!({ "move": m });
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
                Value::Number(k) => k
                    .as_u64()
                    .and_then(|k| usize::try_from(k).ok())
                    .filter(|&k| k <= moves.len() - next)
                    .ok_or_else(|| {
                        syntax(format!(
                            "events[{i}]: `pgn: {k}` asks for more moves than the record has left ({})",
                            moves.len() - next
                        ))
                    })?,
                other => {
                    return Err(syntax(format!(
                        "events[{i}]: `pgn:` takes a number of moves or `rest`, not {other}"
                    )))
                }
            };
            out.extend(moves[next..next + take].iter().map(as_event));
            next += take;
        }
        if !placed {
            let mut all: Vec<Value> = moves.iter().map(as_event).collect();
            all.extend(out);
            return Ok(all);
        }
        if next < moves.len() {
            return Err(syntax(format!(
                "the events place {next} of the record's {} moves; end with `- pgn: rest`",
                moves.len()
            )));
        }
        Ok(out)
    }
}

shapes! {
    /// Input of the `touch_move` query.
    #[derive(PartialEq, Eq, Serialize)]
    pub struct TouchQuery {
        /// The position, in FEN (or `startpos`).
        pub fen: String,
        #[serde(default)]
        /// Moves played from it first, in canonical ICCS.
        pub moves: Vec<String>,
        /// Points of the touched pieces, in the order touched.
        pub touches: Vec<String>,
        /// The pieces were touched at the same time.
        #[serde(default)]
        pub simultaneous: bool,
    }
}

codes! {
    /// The arbiter's refusals; the codes are the protocol's reject kinds
    /// (`conformance/vocabulary.yaml`).
    pub enum RejectKind {
        /// An event after the game ended.
        EventsAfterEnd => "events.after_end",
        /// An event that cannot happen in the game's state.
        EventsImpossible => "events.impossible",
        /// An answer to a draw offer nobody made.
        EventsNoPendingOffer => "events.no_pending_offer",
        /// An illegal-move event whose move is legal.
        EventsNotIllegal => "events.not_illegal",
        /// An action by the side not on move.
        EventsNotOnMove => "events.not_on_move",
        /// Events in an order the game does not allow.
        EventsOutOfOrder => "events.out_of_order",
        /// An event that does not read.
        EventsSyntax => "events.syntax",
        /// A move that breaks a touch-move obligation.
        EventsTouchObligation => "events.touch_obligation",
        /// An event naming the wrong side.
        EventsWrongSide => "events.wrong_side",
        /// An illegal move where a legal one is needed.
        MoveIllegal => "move.illegal",
        /// A move that is not ICCS.
        MoveSyntax => "move.syntax",
        /// A touch of an empty point.
        TouchEmptyPoint => "touch.empty_point",
        /// A touch when the game is over.
        TouchGameOver => "touch.game_over",
        /// Touches the touch-move rules have no pattern for.
        TouchPattern => "touch.pattern",
        /// A touch that does not read.
        TouchSyntax => "touch.syntax",
    }
}

/// Why the arbiter refuses an input.
#[derive(Clone, Debug, PartialEq)]
pub enum ArbiterError {
    /// The FEN does not describe a position.
    Fen(FenError),
    /// Any other refusal, with its reject kind (`events.after_end`, `move.illegal` …) and a
    /// message naming the event (`events[3]`).
    Reject {
        /// The reject kind.
        kind: RejectKind,
        /// Why, naming the event.
        message: String,
    },
}

impl ArbiterError {
    pub(crate) fn reject(kind: RejectKind, message: impl Into<String>) -> ArbiterError {
        ArbiterError::Reject {
            kind,
            message: message.into(),
        }
    }

    /// The same refusal, its message prefixed with where it happened.
    pub(crate) fn at(self, place: &str) -> ArbiterError {
        match self {
            ArbiterError::Reject { kind, message } => ArbiterError::Reject {
                kind,
                message: format!("{place}: {message}"),
            },
            other => other,
        }
    }

    /// The reject kind (`vocabulary.yaml`), `None` for a FEN error (its kind is the FEN's).
    pub fn kind(&self) -> Option<&'static str> {
        match self {
            ArbiterError::Fen(_) => None,
            ArbiterError::Reject { kind, .. } => Some(kind.code()),
        }
    }
}

impl fmt::Display for ArbiterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArbiterError::Fen(e) => write!(f, "invalid FEN: {e}"),
            ArbiterError::Reject { kind, message } => write!(f, "{kind}: {message}"),
        }
    }
}

impl std::error::Error for ArbiterError {}

/// Reads an ICCS move ([`Move::parse_iccs`]; `move.syntax` if it is not one).
pub(crate) fn parse_iccs(text: &str) -> Result<Move, ArbiterError> {
    Move::parse_iccs(text).ok_or_else(|| {
        ArbiterError::reject(
            RejectKind::MoveSyntax,
            format!("`{text}` is not an ICCS move like `h2e2`"),
        )
    })
}

/// A clause citation as JSON fields (`clause`, `article`).
pub(crate) fn cite(map: &mut Map<String, Value>, c: Option<&RuleRef>) {
    map.insert("clause".into(), c.map_or(Value::Null, |c| json!(c.clause)));
    map.insert(
        "article".into(),
        c.and_then(|c| c.article.clone())
            .map_or(Value::Null, Value::String),
    );
}
