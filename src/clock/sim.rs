//! The clock simulator: a compiled time control and the clock rules of an edition, run
//! over a game's clock events, in integer milliseconds.
//!
//! The clock is modelled as the physical two-faced clock: at any moment one face runs (or
//! none, when stopped). A move event charges its time to the running face and, when the
//! mover's own face was running, switches it; pressing without a move switches it too
//! (so the mover's thinking then runs on the opponent's face, which is why 8.1.7 is a
//! foul). Which rules apply — when time has run out, when the increment is added, how
//! periods with move quotas follow one another, which clock actions are fouls, the 5.9
//! numbers — comes from [`Timing`], compiled from the edition's clauses.

use serde_json::{Map, Value};

use super::data::{DurationError, Exhausted, IncrementTiming, Ms, UnusedTime, MAX_MS};
use crate::board::Side;

/// One period of a compiled control, for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Period {
    pub(crate) time: u64,
    /// Moves to be made in the period; `None`: the game must end in it.
    pub moves: Option<u32>,
    pub(crate) repeat: bool,
}

/// A time control with every number known: the periods of each side (Red, Black) and the
/// increment per move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Control {
    pub(crate) periods: [Vec<Period>; 2],
    pub(crate) increment: u64,
}

impl Control {
    /// Checks the shape of the periods: at least one; only the last may repeat or lack a
    /// move quota; a repeating period has a quota; a quota is at least one move; the
    /// periods of a side with a quota end with a repeating one or one without a quota.
    pub fn validate(&self) -> Result<(), String> {
        for side in Side::BOTH {
            let ps = &self.periods[side.index()];
            let Some(last) = ps.last() else {
                return Err(format!("{side} has no period"));
            };
            for (i, p) in ps.iter().enumerate() {
                let is_last = i + 1 == ps.len();
                if p.moves == Some(0) {
                    return Err(format!("period {} requires 0 moves", i + 1));
                }
                if !is_last && p.moves.is_none() {
                    return Err(format!(
                        "period {} has no move quota, so no period can follow it",
                        i + 1
                    ));
                }
                if !is_last && p.repeat {
                    return Err(format!("period {} repeats, so it must be the last", i + 1));
                }
                if p.repeat && p.moves.is_none() {
                    return Err(format!("period {} repeats but requires no moves", i + 1));
                }
            }
            if last.moves.is_some() && !last.repeat {
                return Err("the last period has a move quota, so it must repeat (or a period without quota must follow)".into());
            }
        }
        Ok(())
    }

    /// The first period's time of `side`.
    pub(crate) fn base(&self, side: Side) -> u64 {
        self.periods[side.index()].first().map_or(0, |p| p.time)
    }

    /// Whether any period has a move quota.
    pub(crate) fn has_quota(&self) -> bool {
        self.periods.iter().flatten().any(|p| p.moves.is_some())
    }
}

pub(crate) use crate::spec::RuleRef;

pub(crate) use crate::arbiter::data::KnockEffect;
use crate::arbiter::data::{KnockRuling, KnockedOver};

/// Knocked-over pieces (5.9): the arbiter's clause, decided by [`KnockedOver::ruling`].
#[derive(Clone, Debug)]
pub(crate) struct KnockRule {
    pub data: KnockedOver,
    pub rule: RuleRef,
}

/// A clock action that is a violation: whether the edition calls it a foul.
#[derive(Clone, Debug)]
pub(crate) struct ViolationRule {
    pub(crate) foul: bool,
    pub rule: RuleRef,
}

/// The clock rules of an edition, compiled from its `clock.*` clauses.
#[derive(Clone, Debug)]
pub struct Timing {
    pub(crate) first_to_move: Side,
    pub(crate) exhausted: Exhausted,
    pub(crate) flag_rule: RuleRef,
    pub(crate) increment: Option<(IncrementTiming, RuleRef)>,
    /// Quota periods: how unused time passes to the next period, the quota rule and the
    /// carry-over rule.
    pub(crate) quota: Option<(UnusedTime, RuleRef, RuleRef)>,
    pub(crate) press_without_move: Option<ViolationRule>,
    pub(crate) stop_start: Option<ViolationRule>,
    pub(crate) knocked_over: Option<KnockRule>,
}

impl Timing {
    /// The clause a violation of `kind` comes from.
    pub(crate) fn violation_rule(&self, kind: ViolationKind) -> Option<&RuleRef> {
        match kind {
            ViolationKind::PressWithoutMove => self.press_without_move.as_ref().map(|r| &r.rule),
            ViolationKind::StopStart => self.stop_start.as_ref().map(|r| &r.rule),
            ViolationKind::KnockedOver => self.knocked_over.as_ref().map(|r| &r.rule),
        }
    }

    /// The clause a flag of `kind` comes from: the quota rule for a missed quota, else the
    /// flag rule.
    pub(crate) fn flag_rule(&self, kind: FlagKind) -> &RuleRef {
        match (kind, &self.quota) {
            (FlagKind::Quota, Some((_, q, _))) => q,
            _ => &self.flag_rule,
        }
    }
}

/// Who acts on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A player of this side.
    Player(Side),
    /// The arbiter.
    Arbiter,
}

/// One clock event of a game, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// After `ms` on the running face, the side to move moves and presses.
    Move {
        /// Time taken, in milliseconds.
        ms: u64,
        /// The side the event says moves, checked against the side to move.
        side: Option<Side>,
    },
    /// After `ms`, the side whose face runs presses without moving.
    Press {
        /// Time taken, in milliseconds.
        ms: u64,
        /// The side the event says presses, checked against the side whose face runs.
        side: Option<Side>,
    },
    /// After `ms`, someone stops the clock.
    Stop {
        /// Time run on the running face, in milliseconds.
        ms: u64,
        /// Who stops it.
        by: Actor,
    },
    /// Someone restarts the stopped clock.
    Start {
        /// Who starts it.
        by: Actor,
    },
    /// `side` knocks pieces over (`pieces` of them, when given; `off_board` when one
    /// left the board).
    Knock {
        /// The side that knocked them over.
        side: Side,
        /// How many pieces, when given.
        pieces: Option<u32>,
        /// Whether a piece left the board.
        off_board: bool,
    },
    /// The arbiter adds `ms` (negative: deducts) to `to`'s time.
    Add {
        /// Milliseconds added; negative: deducted.
        ms: i64,
        /// The side whose time changes.
        to: Side,
    },
}

/// Why an event was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventErrorKind {
    /// The event cannot be read.
    Syntax,
    /// A time is negative where only a duration makes sense.
    NegativeTime,
    /// A time or a sum of times is beyond what the simulator counts.
    Overflow,
    /// The event cannot happen in the clock's present state (e.g. a start while it runs).
    OutOfOrder,
    /// An event after the game ended (a flag fell).
    AfterEnd,
}

impl EventErrorKind {
    /// The protocol's reject kind.
    pub fn reject_kind(self) -> &'static str {
        match self {
            EventErrorKind::Syntax => "clock.event_syntax",
            EventErrorKind::NegativeTime => "clock.negative_time",
            EventErrorKind::Overflow => "clock.overflow",
            EventErrorKind::OutOfOrder => "clock.out_of_order",
            EventErrorKind::AfterEnd => "clock.after_end",
        }
    }
}

/// A refused event: its number (from 1), the kind of problem, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventError {
    /// The event's number, from 1.
    pub number: usize,
    /// The kind of problem.
    pub kind: EventErrorKind,
    /// What is wrong, in words.
    pub(crate) message: String,
}

impl std::fmt::Display for EventError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "event {}: {}", self.number, self.message)
    }
}

impl std::error::Error for EventError {}

fn side_of(v: &Value) -> Option<Side> {
    match v.as_str()? {
        "red" => Some(Side::Red),
        "black" => Some(Side::Black),
        _ => None,
    }
}

/// Parses the events of the protocol and of event files (1-based numbers in errors).
pub fn parse_events(values: &[Value]) -> Result<Vec<Event>, EventError> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| parse_event(i + 1, v))
        .collect()
}

const KINDS: [&str; 6] = ["move", "press", "stop", "start", "knock", "add"];

/// One event of the protocol or an event file, numbered `number` (from 1) for its errors.
fn parse_event(number: usize, v: &Value) -> Result<Event, EventError> {
    let Some(m) = v.as_object() else {
        return Err(syntax_error(
            number,
            format!("an event is a mapping like {{move: 12000}}, not {v}"),
        ));
    };
    let kind = event_kind(number, m)?;
    let f = EventFields { number, kind, m };
    let allowed: &[&str] = match kind {
        "move" | "press" => &["side"],
        "stop" => &["by"],
        "knock" => &["pieces", "off_board"],
        "add" => &["to"],
        _ => &[],
    };
    if let Some(k) = m
        .keys()
        .find(|k| k.as_str() != kind && k.as_str() != "note" && !allowed.contains(&k.as_str()))
    {
        return Err(f.syntax(format!("`{k}` is not a field of a `{kind}` event")));
    }
    if let Some(n) = m.get("note").filter(|n| !n.is_string()) {
        return Err(f.syntax(format!("`note` is text, not {n}")));
    }
    let unsigned = |v: i64| v as u64; // read_ms refused negatives for unsigned fields
    Ok(match kind {
        "move" => Event::Move {
            ms: unsigned(f.ms("move", false)?),
            side: f.side("side", false)?,
        },
        "press" => Event::Press {
            ms: unsigned(f.ms("press", false)?),
            side: f.side("side", false)?,
        },
        "stop" => Event::Stop {
            ms: unsigned(f.ms("stop", false)?),
            by: f.actor("by")?,
        },
        "start" => Event::Start {
            by: f.actor("start")?,
        },
        "knock" => Event::Knock {
            side: f.side("knock", true)?.unwrap_or(Side::Red),
            pieces: f.pieces()?,
            off_board: f.off_board()?,
        },
        _ => Event::Add {
            ms: f.ms("add", true)?,
            to: f.side("to", true)?.unwrap_or(Side::Red),
        },
    })
}

/// A syntax error of event `number`.
fn syntax_error(number: usize, message: String) -> EventError {
    EventError {
        number,
        kind: EventErrorKind::Syntax,
        message,
    }
}

/// The kind of an event: exactly one of the keys in [`KINDS`].
fn event_kind(number: usize, m: &Map<String, Value>) -> Result<&'static str, EventError> {
    let kinds: Vec<&str> = KINDS
        .iter()
        .copied()
        .filter(|k| m.contains_key(*k))
        .collect();
    match kinds.as_slice() {
        [k] => Ok(*k),
        [] => Err(syntax_error(
            number,
            format!("an event has one of the keys {}", KINDS.join(", ")),
        )),
        many => Err(syntax_error(
            number,
            format!("an event has one kind, this one has {}", many.join(" and ")),
        )),
    }
}

/// The fields of event `number`, of kind `kind`, read one at a time.
struct EventFields<'a> {
    number: usize,
    kind: &'a str,
    m: &'a Map<String, Value>,
}

impl EventFields<'_> {
    /// A syntax error of this event.
    fn syntax(&self, m: String) -> EventError {
        syntax_error(self.number, m)
    }

    /// A time field (present: the kind's own key), negative only where `signed`.
    fn ms(&self, key: &str, signed: bool) -> Result<i64, EventError> {
        read_ms(self.number, key, &self.m[key], signed)
    }

    /// A side field (`red` or `black`); a missing one is an error where `required`.
    fn side(&self, key: &str, required: bool) -> Result<Option<Side>, EventError> {
        let kind = self.kind;
        match self.m.get(key) {
            None if !required => Ok(None),
            None => Err(self.syntax(format!("a `{kind}` event names `{key}`: red or black"))),
            Some(s) => side_of(s)
                .map(Some)
                .ok_or_else(|| self.syntax(format!("`{key}` is red or black, not {s}"))),
        }
    }

    /// Who stops or starts the clock: a player's side or the arbiter.
    fn actor(&self, key: &str) -> Result<Actor, EventError> {
        let kind = self.kind;
        match self.m.get(key) {
            Some(Value::String(s)) if s == "arbiter" => Ok(Actor::Arbiter),
            Some(s) => side_of(s)
                .map(Actor::Player)
                .ok_or_else(|| self.syntax(format!("`{key}` is red, black or arbiter, not {s}"))),
            None => Err(self.syntax(format!(
                "a `{kind}` event names `{key}`: red, black or arbiter"
            ))),
        }
    }

    /// How many pieces were knocked over, if said.
    fn pieces(&self) -> Result<Option<u32>, EventError> {
        match self.m.get("pieces") {
            None => Ok(None),
            Some(p) => Ok(Some(
                p.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| self.syntax(format!("`pieces` is a count, not {p}")))?,
            )),
        }
    }

    /// Whether knocked-over pieces fell off the board (default: no).
    fn off_board(&self) -> Result<bool, EventError> {
        match self.m.get("off_board") {
            None => Ok(false),
            Some(b) => b
                .as_bool()
                .ok_or_else(|| self.syntax(format!("`off_board` is true or false, not {b}"))),
        }
    }
}

/// A time field: whole milliseconds, or a duration string (`1m30s`); a leading `-` only
/// where `signed`.
fn read_ms(number: usize, key: &str, v: &Value, signed: bool) -> Result<i64, EventError> {
    let fail = |kind, message: String| EventError {
        number,
        kind,
        message,
    };
    let (negative, magnitude) = match v {
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                (false, u)
            } else if let Some(i) = n.as_i64() {
                (true, i.unsigned_abs())
            } else if n
                .as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f.abs() > MAX_MS as f64)
            {
                return Err(fail(
                    EventErrorKind::Overflow,
                    format!("`{key}`: {n} ms is more than the clock handles (2^53 − 1 ms)"),
                ));
            } else {
                return Err(fail(
                    EventErrorKind::Syntax,
                    format!("`{key}`: {n} is not a whole number of milliseconds"),
                ));
            }
        }
        Value::String(s) => {
            let (neg, body) = match s.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, s.as_str()),
            };
            match Ms::parse_checked(body) {
                Ok(Ms(u)) => (neg, u),
                Err(e @ DurationError::TooLong(_)) => {
                    return Err(fail(EventErrorKind::Overflow, format!("`{key}`: {e}")))
                }
                Err(e) => return Err(fail(EventErrorKind::Syntax, format!("`{key}`: {e}"))),
            }
        }
        other => {
            return Err(fail(
                EventErrorKind::Syntax,
                format!("`{key}` is a time in milliseconds, not {other}"),
            ))
        }
    };
    if magnitude > MAX_MS {
        return Err(fail(
            EventErrorKind::Overflow,
            format!("`{key}`: {magnitude} ms is more than the clock handles (2^53 − 1 ms)"),
        ));
    }
    if negative && magnitude > 0 && !signed {
        return Err(fail(
            EventErrorKind::NegativeTime,
            format!("`{key}`: a time on the clock cannot be negative"),
        ));
    }
    let m = magnitude as i64;
    Ok(if negative { -m } else { m })
}

/// Why a flag fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagKind {
    /// Time ran out in a period without a move quota (包干, increment).
    Time,
    /// The period's time ran out before its moves were made (1999 22.1).
    Quota,
}

/// A side's time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The side whose time ran out.
    pub side: Side,
    /// The event during which it ran out (from 1).
    pub event: usize,
    /// The side's move it was making (its moves made + 1).
    pub(crate) move_number: u32,
    /// Whether the time ran out, or the period ended before its move quota was made.
    pub kind: FlagKind,
    /// Time the side had left when the event began.
    pub left: i64,
    /// How far past that the event went.
    pub(crate) over: u64,
    /// The side's moves made, and (quota) the moves required by the period's end.
    pub(crate) moves_made: u32,
    pub(crate) moves_required: Option<u64>,
}

/// A move, with both clocks after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// The event of the move (from 1).
    pub event: usize,
    /// The side that moved.
    pub side: Side,
    /// The side's own move number.
    pub number: u32,
    /// Time the move took on the running face.
    pub(crate) took: u64,
    /// Time added to the mover after the move (increment, next period).
    pub(crate) added: u64,
    /// Time left, Red and Black, after the move.
    pub left: [i64; 2],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ViolationKind {
    PressWithoutMove,
    StopStart,
    KnockedOver,
}

impl ViolationKind {
    pub fn name(self) -> &'static str {
        match self {
            ViolationKind::PressWithoutMove => "press_without_move",
            ViolationKind::StopStart => "stop_start",
            ViolationKind::KnockedOver => "knocked_over",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    pub event: usize,
    pub side: Side,
    pub kind: ViolationKind,
    pub(crate) foul: bool,
    /// The side's n-th violation of this kind.
    pub(crate) count: u32,
    pub(crate) effect: Option<KnockEffect>,
}

/// Time added to (or taken from) a side by the arbiter or by 5.9.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Adjustment {
    pub event: usize,
    pub side: Side,
    pub(crate) ms: i64,
    /// `None`: the arbiter; otherwise the rule that added it.
    pub(crate) by_rule: Option<ViolationKind>,
}

/// Everything a simulation found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Time each side starts with, Red and Black, in milliseconds.
    pub start: [i64; 2],
    /// Every move, with both clocks after it.
    pub moves: Vec<MoveRow>,
    pub(crate) violations: Vec<Violation>,
    pub(crate) adjustments: Vec<Adjustment>,
    /// The first flag to fall, if any.
    pub flag: Option<Flag>,
    /// Time left at the end (0 for a side whose flag fell).
    pub left: [i64; 2],
    /// Whose face runs at the end (`None`: stopped, or the game ended).
    pub(crate) running: Option<Side>,
    /// The event that ended the game on the clock (a flag, a loss by 5.9).
    pub ended_at: Option<usize>,
    /// Per event: both clocks after it, and the side that moved or pressed.
    pub after: Vec<AfterEvent>,
}

/// The state of the clock after one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AfterEvent {
    /// Time left, Red and Black (a flagged side's as it was when the event began).
    pub left: [i64; 2],
    /// The side that moved or pressed.
    pub(crate) actor: Option<Side>,
}

struct SideState {
    left: i64,
    moves: u32,
    period: usize,
    /// Cumulative moves required by the end of the current period.
    target: Option<u64>,
}

/// Runs `events` under `control` and the edition's `timing`.
pub fn simulate(
    control: &Control,
    timing: &Timing,
    events: &[Event],
) -> Result<Timeline, EventError> {
    let mut sim = Sim::start(control, timing, events.len());
    for (i, ev) in events.iter().enumerate() {
        sim.number = i + 1;
        if sim.t.ended_at.is_some() {
            return Err(sim.fail(
                EventErrorKind::AfterEnd,
                "the game already ended on the clock".into(),
            ));
        }
        let actor = sim.event(ev)?;
        sim.t.after.push(AfterEvent {
            left: [sim.st[0].left, sim.st[1].left],
            actor,
        });
    }
    Ok(sim.finish())
}

/// A game on the clock, event by event.
struct Sim<'a> {
    control: &'a Control,
    timing: &'a Timing,
    t: Timeline,
    st: [SideState; 2],
    to_move: Side,
    running: Option<Side>,
    paused: Side,
    stopped_by: Actor,
    inc: i64,
    before_move: bool,
    after_move: bool,
    /// Per side, violations of each kind so far.
    counts: [[u32; 3]; 2],
    /// The event being run (from 1).
    number: usize,
}

impl<'a> Sim<'a> {
    /// The clock set for the first period, the first mover's face running (its increment added before the move).
    fn start(control: &'a Control, timing: &'a Timing, n_events: usize) -> Sim<'a> {
        let mut t = Timeline {
            moves: Vec::with_capacity(n_events),
            after: Vec::with_capacity(n_events),
            ..Timeline::default()
        };
        let mut st: [SideState; 2] = Side::BOTH.map(|s| {
            let p = control.periods[s.index()][0];
            SideState {
                left: p.time as i64,
                moves: 0,
                period: 0,
                target: p.moves.map(u64::from),
            }
        });
        t.start = [st[0].left, st[1].left];
        let to_move = timing.first_to_move;
        let inc = control.increment as i64;
        let before_move = matches!(timing.increment, Some((IncrementTiming::BeforeMove, _)));
        let after_move = matches!(timing.increment, Some((IncrementTiming::AfterMove, _)));
        if before_move {
            st[to_move.index()].left += inc;
        }
        Sim {
            control,
            timing,
            t,
            st,
            to_move,
            running: Some(to_move),
            paused: to_move,
            stopped_by: Actor::Arbiter,
            inc,
            before_move,
            after_move,
            counts: [[0u32; 3]; 2],
            number: 0,
        }
    }

    /// Both clocks at the end (a flagged side's at 0) and whose face still runs.
    fn finish(mut self) -> Timeline {
        let st = &self.st;
        let t = &mut self.t;
        t.left = [st[0].left, st[1].left];
        if let Some(f) = &t.flag {
            t.left[f.side.index()] = 0;
        }
        t.running = if t.ended_at.is_some() {
            None
        } else {
            self.running
        };
        self.t
    }

    /// An error at the current event.
    fn fail(&self, kind: EventErrorKind, message: String) -> EventError {
        EventError {
            number: self.number,
            kind,
            message,
        }
    }

    /// An event out of order at the current event.
    fn out_of_order(&self, m: &str) -> EventError {
        self.fail(EventErrorKind::OutOfOrder, m.to_string())
    }

    /// A clock beyond what the clock handles.
    fn overflow(&self) -> EventError {
        self.fail(
            EventErrorKind::Overflow,
            "a clock would go beyond 2^53 − 1 ms".into(),
        )
    }

    /// Whether time left is exhausted (below zero or at zero, as `timing` says).
    fn exhausted(&self, left: i64) -> bool {
        match self.timing.exhausted {
            Exhausted::BelowZero => left < 0,
            Exhausted::AtZero => left <= 0,
        }
    }

    /// Time runs on the running face; returns false when that side's flag fell.
    fn charge(&mut self, side: Side, ms: u64) -> bool {
        let number = self.number;
        let s = &mut self.st[side.index()];
        let before = s.left;
        s.left = before - ms as i64; // |left| ≤ 2^53 and ms ≤ 2^53: no i64 overflow
        let left = s.left;
        if self.exhausted(left) {
            let s = &mut self.st[side.index()];
            self.t.flag = Some(Flag {
                side,
                event: number,
                move_number: s.moves + 1,
                kind: if s.target.is_some() {
                    FlagKind::Quota
                } else {
                    FlagKind::Time
                },
                left: before,
                over: ms - before.max(0) as u64,
                moves_made: s.moves,
                moves_required: s.target,
            });
            s.left = before;
            self.t.ended_at = Some(number);
            false
        } else {
            true
        }
    }

    /// A side's violation of a clock rule, counted.
    fn violation(
        &mut self,
        side: Side,
        kind: ViolationKind,
        foul: bool,
        effect: Option<KnockEffect>,
    ) {
        let c = &mut self.counts[side.index()][kind as usize];
        *c += 1;
        self.t.violations.push(Violation {
            event: self.number,
            side,
            kind,
            foul,
            count: *c,
            effect,
        });
    }

    /// One event; the side that moved or pressed.
    fn event(&mut self, ev: &Event) -> Result<Option<Side>, EventError> {
        match *ev {
            Event::Move { ms, side } => self.move_made(ms, side),
            Event::Press { ms, side } => self.press(ms, side),
            Event::Stop { ms, by } => self.stop(ms, by).map(|()| None),
            Event::Start { by } => self.restart(by).map(|()| None),
            Event::Knock {
                side,
                pieces,
                off_board,
            } => self.knock(side, pieces, off_board).map(|()| None),
            Event::Add { ms, to } => self.add(ms, to).map(|()| None),
        }
    }

    /// A move: its time charged, the clock pressed, the increment and the next period's time added.
    fn move_made(&mut self, ms: u64, side: Option<Side>) -> Result<Option<Side>, EventError> {
        let to_move = self.to_move;
        let Some(face) = self.running else {
            return Err(self.out_of_order(
                "a move while the clock is stopped: restart it first (a `start` event)",
            ));
        };
        if side.is_some_and(|s| s != to_move) {
            return Err(self.out_of_order(&format!(
                "a move by {} while {to_move} is to move",
                side.unwrap_or(to_move)
            )));
        }
        if !self.charge(face, ms) {
            return Ok(None);
        }
        let mover = to_move;
        let inc = self.inc;
        let st = &mut self.st;
        let s = &mut st[mover.index()];
        s.moves += 1;
        let mut added: i64 = 0;
        if face == mover {
            if self.after_move {
                added += inc;
            }
            self.running = Some(mover.opponent());
            if self.before_move {
                st[mover.opponent().index()].left += inc;
            }
        }
        let s = &mut st[mover.index()];
        if s.target == Some(u64::from(s.moves)) {
            let periods = &self.control.periods[mover.index()];
            if s.period + 1 < periods.len() {
                s.period += 1;
            }
            let next = periods[s.period];
            let carried = match self.timing.quota {
                Some((UnusedTime::Forfeited, ..)) => 0,
                _ => s.left + added,
            };
            added = carried + next.time as i64 - s.left;
            s.target = next.moves.map(|m| u64::from(s.moves) + u64::from(m));
        }
        s.left += added;
        if s.left.unsigned_abs() > MAX_MS {
            return Err(self.overflow());
        }
        let number = s.moves;
        self.t.moves.push(MoveRow {
            event: self.number,
            side: mover,
            number,
            took: ms,
            added: added.max(0) as u64,
            left: [self.st[0].left, self.st[1].left],
        });
        self.to_move = mover.opponent();
        Ok(Some(mover))
    }

    /// A press of the clock: its time charged; a press without a move is a violation.
    fn press(&mut self, ms: u64, side: Option<Side>) -> Result<Option<Side>, EventError> {
        let Some(face) = self.running else {
            return Err(self.out_of_order("a press while the clock is stopped"));
        };
        if side.is_some_and(|s| s != face) {
            return Err(
                self.out_of_order(&format!("only the side whose face runs ({face}) can press"))
            );
        }
        if !self.charge(face, ms) {
            return Ok(None);
        }
        if face == self.to_move {
            if let Some(r) = &self.timing.press_without_move {
                self.violation(face, ViolationKind::PressWithoutMove, r.foul, None);
            }
        }
        self.running = Some(face.opponent());
        Ok(Some(face))
    }

    /// The clock stopped: its time charged; a player's stop is a violation.
    fn stop(&mut self, ms: u64, by: Actor) -> Result<(), EventError> {
        let Some(face) = self.running else {
            return Err(self.out_of_order("the clock is already stopped"));
        };
        if !self.charge(face, ms) {
            return Ok(());
        }
        self.paused = face;
        self.running = None;
        self.stopped_by = by;
        if let (Actor::Player(p), Some(r)) = (by, &self.timing.stop_start) {
            self.violation(p, ViolationKind::StopStart, r.foul, None);
        }
        Ok(())
    }

    /// The clock restarted; a player's restart of another's stop is a violation.
    fn restart(&mut self, by: Actor) -> Result<(), EventError> {
        if self.running.is_some() {
            return Err(
                self.out_of_order("the clock is running: only a stopped clock can be restarted")
            );
        }
        self.running = Some(self.paused);
        // Restarting what one stopped oneself is the same incident as the stop.
        if let (Actor::Player(p), Some(r)) = (by, &self.timing.stop_start) {
            if self.stopped_by != by {
                self.violation(p, ViolationKind::StopStart, r.foul, None);
            }
        }
        Ok(())
    }

    /// Pieces knocked over (5.9): the loss, or time added to the opponent.
    fn knock(
        &mut self,
        side: Side,
        pieces: Option<u32>,
        off_board: bool,
    ) -> Result<(), EventError> {
        let Some(rule) = &self.timing.knocked_over else {
            return Ok(());
        };
        // The knocker has pressed when its own face no longer runs.
        let after_press = self.running.unwrap_or(self.paused) != side;
        let opp = side.opponent();
        let Some(KnockRuling::Penalty(effect)) = rule.data.ruling(
            pieces,
            off_board,
            after_press,
            Some(self.st[opp.index()].left),
        ) else {
            return Ok(());
        };
        if let KnockEffect::Loss = effect {
            self.violation(
                side,
                ViolationKind::KnockedOver,
                false,
                Some(KnockEffect::Loss),
            );
            self.t.ended_at = Some(self.number);
        } else if let KnockEffect::TimeAdded(added) = effect {
            self.st[opp.index()].left += added as i64;
            if self.st[opp.index()].left.unsigned_abs() > MAX_MS {
                return Err(self.overflow());
            }
            self.violation(side, ViolationKind::KnockedOver, false, Some(effect));
            self.t.adjustments.push(Adjustment {
                event: self.number,
                side: opp,
                ms: added as i64,
                by_rule: Some(ViolationKind::KnockedOver),
            });
        }
        Ok(())
    }

    /// Time the arbiter adds (or takes); a side taken to exhaustion loses on time.
    fn add(&mut self, ms: i64, to: Side) -> Result<(), EventError> {
        let s = &mut self.st[to.index()];
        let before = s.left;
        s.left += ms;
        if s.left.unsigned_abs() > MAX_MS {
            return Err(self.overflow());
        }
        self.t.adjustments.push(Adjustment {
            event: self.number,
            side: to,
            ms,
            by_rule: None,
        });
        if ms < 0 && self.exhausted(self.st[to.index()].left) {
            self.st[to.index()].left = before;
            self.charge(to, ms.unsigned_abs());
        }
        Ok(())
    }
}
