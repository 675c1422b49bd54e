//! Time (计时): clock schemes, the clock rules of an edition, a clock simulator, and the
//! knockout play-offs of 2020 art. 30.
//!
//! - [`data`]: typed shapes of the `clock.*` and `playoff.*` clause data.
//! - [`compile`](mod@compile): clauses → [`ClockRules`] (schemes with their controls, the clock
//!   rules as [`sim::Timing`], the rapid classification, play-off chains), once per rule set.
//! - [`sim`]: clock events → [`sim::Timeline`] (both clocks after every move, the flag, the
//!   clock violations), in integer milliseconds.
//! - `playoff`: a chain and the games played → the winner, or the next game.
//! - `table` (feature `cli`): the tables of `xqspec clock` (a game's clocks, the schemes)
//!   and its event file; the command is `src/cli/clock.rs`.
//!
//! The clause data: durations as `90m` or milliseconds, periods with move quotas,
//! increments, per-colour times, named readings with `use:`, colour rules. A scheme compiles
//! to its control when the rules fix every number, else to the list of the numbers the event
//! sets. The simulator runs the clock events (move, press, stop, start, knock, add) through a
//! two-faced clock into a timeline of both clocks after each move and event, the flag, the
//! violations and the adjustments, and refuses a bad event with a typed `EventError` naming
//! its number. The query objects are `ClockQuery` and `PlayoffQuery`; their `settings` fill
//! only the scheme's `null`s, merged with `spec::merge_data`.
//!
//! No number of the rules is written here: periods, quotas, increments, the flag boundary,
//! the 5.9 limits, which clock actions are fouls and the play-off chains are clause data. A
//! number the rulebook leaves to the event (`null` in a scheme) comes from the query's
//! `settings` or from an event overlay. No floating point; no panic on any event list
//! (fuzzed in `tests/it/clock.rs`). Depends on `spec`, `board`, the `vm::compile` error
//! helpers and the arbiter's knock rule (5.9); the reference only carries the queries here.

pub mod compile;
pub mod data;
pub(crate) mod playoff;
pub mod sim;
#[cfg(feature = "cli")]
pub mod table;

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::board::Side;
use crate::spec::{Edition, ProvenanceStatus, SpecError};

pub use playoff::{Chain, PlayoffError, PlayoffErrorKind, PlayoffQuery};
pub(crate) use sim::{Control, EventError, RuleRef, Timeline, Timing};

use compile::Resolved;
use data::Ms;

/// A clock scheme of the edition (`clock.scheme.<id>`).
#[derive(Clone, Debug)]
pub struct Scheme {
    /// The id queries and the CLI use: the clause id without `clock.scheme.`.
    pub id: String,
    /// The clause id (`clock.scheme.<id>`).
    pub clause: String,
    /// The article the clause encodes, when it names one.
    pub article: Option<String>,
    /// The scheme's name in the rulebook's terms.
    pub name: String,
    /// The rulebook's own label (`rapid`), which classification does not override.
    pub(crate) label: Option<String>,
    /// How far the scheme's data rests on the text (read, secondary, unverified, inferred).
    pub(crate) provenance: ProvenanceStatus,
    /// The scheme's data with the reading in use applied: settings are merged into it.
    pub(crate) template: serde_yaml::Value,
    /// The reading in use and its source, for a scheme with alternatives.
    pub(crate) reading: Option<(String, String)>,
    /// The control, when the rules fix every number.
    pub control: Option<Control>,
    /// The numbers the event sets (paths into the data: `periods[0].time`, `increment`).
    pub(crate) event_sets: Vec<String>,
}

/// The rapid classification (2020 6.3): classes by the longest first-period time.
#[derive(Clone, Debug)]
pub(crate) struct Classification {
    /// (class, name, at most ms), in the clause's order.
    pub(crate) classes: Vec<(String, String, u64)>,
    pub(crate) otherwise: String,
    pub rule: RuleRef,
}

/// The time rules of a rule set.
#[derive(Clone, Debug)]
pub struct ClockRules {
    /// How a game's clock is run: who starts it, when a move counts, what a flag fall means.
    pub timing: Timing,
    pub(crate) classification: Option<Classification>,
    pub(crate) schemes: Vec<Scheme>,
    pub(crate) chains: Vec<Chain>,
}

shapes! {
    /// The `clock` query: a scheme, the event's settings for the numbers the scheme leaves
    /// open, and the clock events.
    #[derive(PartialEq, Eq, Serialize)]
    pub struct ClockQuery {
        /// The scheme id (`quota_90_40`: the clause `clock.scheme.quota_90_40`).
        pub scheme: String,
        /// Values for the scheme's `null` numbers, in the shape of its data
        /// (`{"periods": [{"time": "30m"}], "increment": "20s"}`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub settings: Option<Value>,
        /// The clock events, in order (see [`sim::parse_events`]).
        pub events: Vec<Value>,
    }
}

/// Why a clock query was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockError {
    /// No scheme of this id in the rule set (the message lists the known ones).
    UnknownScheme(String),
    /// The settings are missing, malformed, or change a number the rules fix.
    Settings(String),
    /// A clock event was refused.
    Event(EventError),
}

impl ClockError {
    /// The protocol's reject kind.
    pub fn reject_kind(&self) -> &'static str {
        match self {
            ClockError::UnknownScheme(_) => "clock.unknown_scheme",
            ClockError::Settings(_) => "clock.settings",
            ClockError::Event(e) => e.kind.reject_kind(),
        }
    }
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::UnknownScheme(m) | ClockError::Settings(m) => f.write_str(m),
            ClockError::Event(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ClockError {}

/// Where `merged` (scheme data with settings) changes a value `base` fixes.
fn fixed_changed(
    base: &serde_yaml::Value,
    merged: &serde_yaml::Value,
    path: &str,
) -> Option<String> {
    use serde_yaml::Value as Y;
    let same_duration = |a: &Y, b: &Y| {
        let ms = |v: &Y| serde_yaml::from_value::<Ms>(v.clone()).ok();
        ms(a).is_some() && ms(a) == ms(b)
    };
    match (base, merged) {
        (Y::Null, _) => None,
        (Y::Mapping(b), Y::Mapping(m)) => b.iter().find_map(|(k, bv)| {
            let key = k.as_str().unwrap_or("?");
            let here = if path.is_empty() {
                key.to_string()
            } else {
                format!("{path}.{key}")
            };
            fixed_changed(bv, m.get(k).unwrap_or(&Y::Null), &here)
        }),
        (Y::Sequence(b), Y::Sequence(m)) if b.len() == m.len() => b
            .iter()
            .zip(m)
            .enumerate()
            .find_map(|(i, (bv, mv))| fixed_changed(bv, mv, &format!("{path}[{i}]"))),
        (Y::Sequence(b), Y::Sequence(m)) => Some(format!(
            "`{path}` has {} items where the rules fix {}",
            m.len(),
            b.len()
        )),
        (Y::Sequence(b), _) => Some(format!("`{path}` is a list of {} items", b.len())),
        _ if base == merged || same_duration(base, merged) => None,
        _ => Some(format!("`{path}` is fixed by the rules")),
    }
}

impl ClockRules {
    /// Compiles the `clock.*` and `playoff.*` clauses of `ed`; `None` when it has none.
    pub fn compile(
        ed: &Edition,
        first_to_move: Side,
    ) -> Result<Option<ClockRules>, Vec<SpecError>> {
        compile::compile(ed, first_to_move)
    }

    /// The scheme of this id (`quota_90_40`), or the error naming the known ones.
    pub fn scheme(&self, id: &str) -> Result<&Scheme, ClockError> {
        self.schemes.iter().find(|s| s.id == id).ok_or_else(|| {
            let known: Vec<&str> = self.schemes.iter().map(|s| s.id.as_str()).collect();
            ClockError::UnknownScheme(format!(
                "no clock scheme `{id}` (known: {})",
                known.join(", ")
            ))
        })
    }

    /// The play-off chain of this id, or the error naming the known ones.
    pub(crate) fn chain(&self, id: &str) -> Result<&Chain, PlayoffError> {
        self.chains.iter().find(|c| c.id == id).ok_or_else(|| {
            let known: Vec<&str> = self.chains.iter().map(|c| c.id.as_str()).collect();
            PlayoffError {
                kind: PlayoffErrorKind::UnknownChain,
                message: if known.is_empty() {
                    format!("no play-off chain `{id}`: the rule set has no play-off chains")
                } else {
                    format!("no play-off chain `{id}` (known: {})", known.join(", "))
                },
            }
        })
    }

    /// The control of `scheme` with the event's `settings` filling the numbers it leaves
    /// open. Settings may not change a number the rules fix (an overlay does that).
    pub fn control(
        &self,
        scheme: &Scheme,
        settings: Option<&Value>,
    ) -> Result<Control, ClockError> {
        let Some(settings) = settings else {
            return scheme.control.clone().ok_or_else(|| {
                ClockError::Settings(format!(
                    "scheme `{}` leaves {} to the event: give them in `settings`",
                    scheme.id,
                    scheme.event_sets.join(", ")
                ))
            });
        };
        let s = |m: String| ClockError::Settings(m);
        if !settings.is_object() {
            return Err(s(format!(
                "`settings` is an object in the shape of the scheme's data, not {settings}"
            )));
        }
        let patch = serde_yaml::to_value(settings).map_err(|e| s(format!("settings: {e}")))?;
        let merged = crate::spec::merge_data(&scheme.template, &patch, "")
            .map_err(|(_, m)| s(format!("settings: {m}")))?;
        if let Some(p) = fixed_changed(&scheme.template, &merged, "") {
            return Err(s(format!(
                "settings: {p} (scheme `{}`; an event overlay changes what its rules fix)",
                scheme.id
            )));
        }
        match compile::resolve(&merged).map_err(|m| s(format!("settings: {m}")))? {
            Resolved::Fixed(ctl) => {
                compile::check_control(&ctl, &self.timing).map_err(s)?;
                Ok(ctl)
            }
            Resolved::EventSets(p) => Err(s(format!("settings leave {} unset", p.join(", ")))),
        }
    }

    /// The class of a control: the scheme's own label, else the classification's.
    pub fn class_of(&self, scheme: &Scheme, control: &Control) -> Option<String> {
        if let Some(l) = &scheme.label {
            return Some(l.clone());
        }
        let c = self.classification.as_ref()?;
        let longest = control.base(Side::Red).max(control.base(Side::Black));
        Some(
            c.classes
                .iter()
                .find(|(_, _, max)| longest <= *max)
                .map_or(&c.otherwise, |(k, _, _)| k)
                .clone(),
        )
    }

    /// Runs a `clock` query: the answer object of the field `clock`.
    pub fn answer_clock(&self, q: &ClockQuery) -> Result<Value, ClockError> {
        let scheme = self.scheme(&q.scheme)?;
        let control = self.control(scheme, q.settings.as_ref())?;
        let events = sim::parse_events(&q.events).map_err(ClockError::Event)?;
        let t = sim::simulate(&control, &self.timing, &events).map_err(ClockError::Event)?;
        Ok(self.timeline_json(scheme, &control, &t))
    }

    /// Runs a `playoff` query: the answer object of the field `playoff`.
    pub fn answer_playoff(&self, q: &PlayoffQuery) -> Result<Value, PlayoffError> {
        let chain = self.chain(&q.chain)?;
        playoff::evaluate(chain, q, |id| match self.scheme(id) {
            Ok(s) => s.control.as_ref().map(control_answer),
            Err(_) => None,
        })
        .map(|a| crate::answer::to_value(&a))
    }

    /// The answer object for a simulated game.
    pub fn timeline_json(&self, scheme: &Scheme, control: &Control, t: &Timeline) -> Value {
        crate::answer::to_value(&self.timeline_answer(scheme, control, t))
    }

    /// The answer for a simulated game, typed.
    pub fn timeline_answer(
        &self,
        scheme: &Scheme,
        control: &Control,
        t: &Timeline,
    ) -> crate::answer::ClockAnswer {
        use crate::answer as a;
        let both = |v: [i64; 2]| a::PerSide {
            red: v[0],
            black: v[1],
        };
        let moves = t
            .moves
            .iter()
            .map(|m| a::ClockMove {
                event: m.event as u64,
                side: m.side.name().into(),
                number: m.number.into(),
                took: m.took,
                added: m.added,
                red: m.left[0],
                black: m.left[1],
            })
            .collect();
        let violations = t
            .violations
            .iter()
            .map(|v| {
                let rule = self.timing.violation_rule(v.kind);
                let (effect, added) = match v.effect {
                    Some(sim::KnockEffect::Loss) => (Some("loss".into()), None),
                    Some(sim::KnockEffect::TimeAdded(ms)) => {
                        (Some("time_added".into()), Some(ms as i64))
                    }
                    None => (None, None),
                };
                a::Violation {
                    event: v.event as u64,
                    side: v.side.name().into(),
                    kind: v.kind.name().into(),
                    clause: rule.map(|r| r.clause.clone()),
                    article: rule.and_then(|r| r.article.clone()),
                    foul: v.foul,
                    count: v.count.into(),
                    effect,
                    added,
                }
            })
            .collect();
        let adjustments = t
            .adjustments
            .iter()
            .map(|x| a::Adjustment {
                event: x.event as u64,
                side: x.side.name().into(),
                ms: x.ms,
                by: x.by_rule.map_or("arbiter", sim::ViolationKind::name).into(),
            })
            .collect();
        let flag = t.flag.map(|f| {
            let rule = self.timing.flag_rule(f.kind);
            a::Flag {
                side: f.side.name().into(),
                event: f.event as u64,
                r#move: f.move_number.into(),
                kind: match f.kind {
                    sim::FlagKind::Time => "time",
                    sim::FlagKind::Quota => "quota",
                }
                .into(),
                clause: rule.clause.clone(),
                article: rule.article.clone(),
                left: f.left,
                over: f.over,
                moves_made: f.moves_made.into(),
                moves_required: f.moves_required,
            }
        });
        a::ClockAnswer {
            scheme: scheme.id.clone(),
            clause: scheme.clause.clone(),
            article: scheme.article.clone(),
            class: self.class_of(scheme, control),
            reading: scheme.reading.as_ref().map(|(r, _)| r.clone()),
            control: control_answer(control),
            start: both(t.start),
            moves,
            violations,
            adjustments,
            flag,
            r#final: both(t.left),
            running: t.running.map(|s| s.name().into()),
            ended_at: t.ended_at.map(|e| e as u64),
        }
    }
}

/// A control as the answers give it: each side's periods and the increment, in ms.
pub(crate) fn control_answer(c: &Control) -> crate::answer::Control {
    let side = |s: Side| {
        c.periods[s.index()]
            .iter()
            .map(|p| crate::answer::Period {
                time: p.time,
                moves: p.moves.map(u64::from),
                repeat: p.repeat,
            })
            .collect()
    };
    crate::answer::Control {
        red: side(Side::Red),
        black: side(Side::Black),
        increment: c.increment,
    }
}
