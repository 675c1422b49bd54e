//! The events of a game (the `outcome` query's input), read from JSON into typed events.
//!
//! An event is an object with exactly one key naming what happened (`{"move": "h2e2"}`,
//! `{"resign": "red"}`, `{"knock_over": {…}}`); `conformance/PROTOCOL.md` lists them. A
//! malformed event is refused as `events.syntax` with its index; the other events are not
//! read further.

use serde_json::Value;

use super::data::{RecordFault, SideName};
use super::{ArbiterError, RejectKind};
use crate::board::{Side, SideCounts, Square};

/// A repetition ruling (棋例), as `crate::repetition` gives it.
pub(crate) use crate::repetition::Verdict;

shapes! {
    /// What the arbiter finds on its own.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Finding {
        /// A simple position neither side can win (简单和势).
        SimplePosition,
        /// The arbiter counts the natural move limit without a claim.
        NaturalLimit,
    }

    pub(crate) struct IllegalMoveEvent {
        #[serde(rename = "move")]
        pub(crate) mv: String,
        #[serde(default)]
        pub(crate) found_after_rounds: u32,
    }

    pub(crate) struct TouchEvent {
        pub(crate) side: SideName,
        pub(crate) points: Vec<String>,
        #[serde(default)]
        pub(crate) simultaneous: bool,
    }

    pub(crate) struct AdjustEvent {
        pub(crate) side: SideName,
        pub(crate) points: Vec<String>,
        #[serde(default)]
        pub(crate) announced: bool,
        #[serde(default)]
        pub(crate) consent: bool,
        #[serde(default)]
        pub(crate) accidental: bool,
    }

    pub(crate) struct UnrecordedEvent {
        pub(crate) side: SideName,
        pub(crate) moves: u32,
        #[serde(default = "missing")]
        pub kind: RecordFault,
        pub(crate) remaining_seconds: Option<u32>,
    }
}

fn missing() -> RecordFault {
    RecordFault::Missing
}

shapes! {
    pub(crate) struct ColoursEvent {
        pub(crate) found_after_seconds: u32,
    }

    pub(crate) struct DisplacedEvent {
        pub(crate) from: String,
        pub(crate) to: String,
        #[serde(default)]
        pub(crate) found_after_rounds: u32,
    }

    pub(crate) struct KnockEvent {
        pub(crate) side: SideName,
        pub pieces: u32,
        #[serde(default)]
        pub(crate) off_board: bool,
        pub(crate) after_press: bool,
        pub(crate) opponent_remaining_seconds: Option<u32>,
    }

    pub(crate) struct BetweenEvent {
        pub(crate) from: String,
        pub(crate) points: [String; 2],
        pub(crate) chosen_by: SideName,
        pub(crate) chosen: String,
    }

    /// One event of a game.
    #[serde(rename_all = "snake_case", deny_unknown_fields)]
    pub(crate) enum Event {
        /// The side to move plays a move (checked legal).
        Move(String),
        /// The side to move makes a move that is not legal, found after some rounds.
        IllegalMove(IllegalMoveEvent),
        /// The side to move touches pieces.
        Touch(TouchEvent),
        /// A player puts pieces right (摆正).
        Adjust(AdjustEvent),
        OfferDraw(SideName),
        AcceptDraw(SideName),
        DeclineDraw(SideName),
        ClaimNaturalLimit(SideName),
        /// The arbiter's own finding.
        Arbiter(Finding),
        /// A 棋例 ruling on a pending position.
        Repetition(Verdict),
        /// The side's flag fell.
        Flag(SideName),
        PressWithoutMove(SideName),
        /// Stopping or starting the clocks without leave.
        StopClock(SideName),
        Disturb(SideName),
        /// A breach of the players' rules that is not serious.
        PlayerRules(SideName),
        /// Refusing to follow the rules, or a serious breach of discipline.
        RefuseRules(SideName),
        Resign(SideName),
        /// Seconds each side was late at the start of play.
        Late(SideCounts),
        Unrecorded(UnrecordedEvent),
        ColoursReversed(ColoursEvent),
        Displaced(DisplacedEvent),
        KnockOver(KnockEvent),
        BetweenPoints(BetweenEvent),
    }
}

/// The key of every kind of event of the `outcome` query, as the protocol writes it.
pub const EVENT_KINDS: [&str; 23] = [
    "move",
    "illegal_move",
    "touch",
    "adjust",
    "offer_draw",
    "accept_draw",
    "decline_draw",
    "claim_natural_limit",
    "arbiter",
    "repetition",
    "flag",
    "press_without_move",
    "stop_clock",
    "disturb",
    "player_rules",
    "refuse_rules",
    "resign",
    "late",
    "unrecorded",
    "colours_reversed",
    "displaced",
    "knock_over",
    "between_points",
];

impl Event {
    /// The event's key, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Move(_) => "move",
            Event::IllegalMove(_) => "illegal_move",
            Event::Touch(_) => "touch",
            Event::Adjust(_) => "adjust",
            Event::OfferDraw(_) => "offer_draw",
            Event::AcceptDraw(_) => "accept_draw",
            Event::DeclineDraw(_) => "decline_draw",
            Event::ClaimNaturalLimit(_) => "claim_natural_limit",
            Event::Arbiter(_) => "arbiter",
            Event::Repetition(_) => "repetition",
            Event::Flag(_) => "flag",
            Event::PressWithoutMove(_) => "press_without_move",
            Event::StopClock(_) => "stop_clock",
            Event::Disturb(_) => "disturb",
            Event::PlayerRules(_) => "player_rules",
            Event::RefuseRules(_) => "refuse_rules",
            Event::Resign(_) => "resign",
            Event::Late(_) => "late",
            Event::Unrecorded(_) => "unrecorded",
            Event::ColoursReversed(_) => "colours_reversed",
            Event::Displaced(_) => "displaced",
            Event::KnockOver(_) => "knock_over",
            Event::BetweenPoints(_) => "between_points",
        }
    }
}

/// Reads every event; the first malformed one is refused with its index.
pub(crate) fn parse_all(values: &[Value]) -> Result<Vec<Event>, ArbiterError> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            serde_json::from_value::<Event>(v.clone()).map_err(|e| {
                let e = e.to_string();
                let hint = if v.as_object().is_some_and(|m| m.len() != 1) {
                    " (an event is an object with exactly one key)"
                } else {
                    ""
                };
                ArbiterError::reject(RejectKind::EventsSyntax, format!("events[{i}]: {e}{hint}"))
            })
        })
        .collect()
}

/// A point named in an event (`events.syntax` if it is not one).
pub(crate) fn point(text: &str) -> Result<Square, ArbiterError> {
    Square::parse(text).ok_or_else(|| {
        ArbiterError::reject(
            RejectKind::EventsSyntax,
            format!("`{text}` is not a point (a0–i9)"),
        )
    })
}

impl From<SideName> for Side {
    fn from(s: SideName) -> Side {
        s.side()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`EVENT_KINDS`] is every kind the reader knows: serde names them all when a key is
    /// none of them.
    #[test]
    fn event_kinds_are_every_kind_read() {
        let e = serde_json::from_value::<Event>(serde_json::json!({"no_such_event": 1}))
            .unwrap_err()
            .to_string();
        let expected: Vec<&str> = e
            .split("expected one of ")
            .nth(1)
            .unwrap()
            .split(", ")
            .map(|k| k.trim_matches(|c: char| c == '`' || !c.is_ascii() || c == ' '))
            .map(|k| k.split('`').next().unwrap())
            .collect();
        assert_eq!(expected, EVENT_KINDS, "{e}");
    }
}
