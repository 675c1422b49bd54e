//! The protocol's answers, typed: one struct per answer object of the rule domains
//! (`outcome`, `touch`, `game_status`, `clock`, `playoff`, `standings`, `ruling`), each field
//! as it goes on the wire (`conformance/PROTOCOL.md`). The reference builds its answers
//! from them, and the case schema (`conformance/case.schema.json`, [`WireSchema`]) describes
//! every field of every answer kind from the same declarations.
//!
//! A leaf, like [`crate::query`]: plain data, nothing of the rules.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Number, Value};

/// A type's JSON Schema (draft 2020-12) as a case's expectation uses it: an expectation
/// gives the part of an answer it checks, so an object's fields are all optional, and no
/// field outside the type is allowed (a misspelt field is caught).
pub trait WireSchema {
    /// The schema of the type's JSON form.
    fn wire_schema() -> Value;
}

fn schema_of(pairs: &[(&str, Value)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

fn typed(t: &str) -> Value {
    schema_of(&[("type", Value::from(t))])
}

impl WireSchema for String {
    fn wire_schema() -> Value {
        typed("string")
    }
}

impl WireSchema for bool {
    fn wire_schema() -> Value {
        typed("boolean")
    }
}

impl WireSchema for Number {
    fn wire_schema() -> Value {
        typed("number")
    }
}

macro_rules! integer_schema {
    ($($t:ty => $min:expr),*) => {$(
        impl WireSchema for $t {
            fn wire_schema() -> Value {
                match $min {
                    Some(m) => schema_of(&[("type", Value::from("integer")), ("minimum", Value::from(m))]),
                    None => typed("integer"),
                }
            }
        }
    )*};
}
integer_schema!(u32 => Some(0u32), u64 => Some(0u32), usize => Some(0u32), i64 => None::<u32>);

impl<T: WireSchema> WireSchema for Option<T> {
    /// The type, or `null` (once: an optional field that may also be `null` is not nested).
    fn wire_schema() -> Value {
        let inner = T::wire_schema();
        let null = typed("null");
        if inner
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|a| a.contains(&null))
        {
            return inner;
        }
        schema_of(&[("anyOf", Value::Array(vec![inner, null]))])
    }
}

impl<T: WireSchema> WireSchema for Vec<T> {
    fn wire_schema() -> Value {
        schema_of(&[("type", "array".into()), ("items", T::wire_schema())])
    }
}

impl<T: WireSchema> WireSchema for BTreeMap<String, T> {
    fn wire_schema() -> Value {
        schema_of(&[
            ("type", "object".into()),
            ("additionalProperties", T::wire_schema()),
        ])
    }
}

/// A field that is absent, `null`, or a value (`next` of a `playoff` answer: absent when
/// the chain is decided, `null` when no game can be scheduled).
pub type Nullable<T> = Option<Option<T>>;

/// Reads a [`Nullable`] field: present and `null` is `Some(None)`.
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Nullable<T>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// Declares a wire struct: the struct (serde, unknown fields refused) and its
/// [`WireSchema`], each property described by its field's doc comment. A struct of plain
/// values may also derive `Copy` (`#[derive(Copy)]` after its doc comment).
macro_rules! wire {
    ($(#[doc = $doc:literal])* $(#[derive($($extra:ident),+)])? pub struct $name:ident {
        $( $(#[doc = $fdoc:literal])+ $(#[serde($($sa:tt)*)])* pub $f:ident : $t:ty, )*
    }) => {
        $(#[doc = $doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize $($(, $extra)+)?)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $( $(#[doc = $fdoc])+ $(#[serde($($sa)*)])* pub $f: $t, )*
        }
        impl WireSchema for $name {
            fn wire_schema() -> Value {
                let mut props = Map::new();
                $(
                    let mut s = <$t as WireSchema>::wire_schema();
                    let d = [$($fdoc.trim()),+].join(" ");
                    if let Value::Object(m) = &mut s {
                        m.insert("description".into(), d.into());
                    }
                    props.insert(stringify!($f).trim_start_matches("r#").into(), s);
                )*
                let d = [$($doc.trim()),*].join(" ");
                schema_of(&[
                    ("type", "object".into()),
                    ("title", stringify!($name).into()),
                    ("description", d.into()),
                    ("additionalProperties", false.into()),
                    ("properties", Value::Object(props)),
                ])
            }
        }
    };
}

/// The value of a tiebreak criterion in a standings row: a number, a list of numbers, or
/// `null`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CriterionValue(pub Value);

impl WireSchema for CriterionValue {
    fn wire_schema() -> Value {
        schema_of(&[(
            "anyOf",
            Value::Array(vec![
                typed("number"),
                schema_of(&[("type", "array".into()), ("items", typed("number"))]),
                typed("null"),
            ]),
        )])
    }
}

wire! {
    /// A clause and its article, either `null` when there is none.
    pub struct Cited {
        /// The clause id (`repetition.cycle`).
        pub clause: Option<String>,
        /// The article of the rules the clause encodes (`第二十五条`).
        pub article: Option<String>,
    }
}

wire! {
    /// A count per side.
    pub struct PerSide {
        /// Red's.
        pub red: i64,
        /// Black's.
        pub black: i64,
    }
}

wire! {
    /// Where a record goes on after the game ended by the rules (`xqspec outcome`,
    /// `xqspec status`: judged up to the end).
    #[derive(Copy)]
    pub struct Continues {
        /// The index of the first event (move) after the end.
        pub from: usize,
        /// How many events (moves) the record has from there.
        pub left: usize,
    }
}

wire! {
    /// One decision of the arbiter (an item of `outcome.rulings`, of `game_status.next.rulings`).
    pub struct Decision {
        /// The index of the event decided (absent in a forecast).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub event: Option<u64>,
        /// What was decided (`foul`, `loss`, `draw`, `order_change` …).
        pub decision: String,
        /// The clause that decided, or `null`.
        pub clause: Option<String>,
        /// Its article, or `null`.
        pub article: Option<String>,
        /// The side the decision falls on (`red`, `black`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub side: Option<String>,
        /// Seconds added or charged.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub seconds: Option<u64>,
        /// A count (fouls, warnings).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub count: Option<u64>,
        /// Rounds counted (the natural move limit).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub rounds: Option<u64>,
        /// The step of a chain clause that decided.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub step: Option<String>,
        /// Moves the decision names (ICCS).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub moves: Option<Vec<String>>,
        /// A note in words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
        /// Who found a repetition (`board`, `claim`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub by: Option<String>,
        /// What a decision on a 棋例 ruling rests on: `text` or `inferred`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub basis: Option<String>,
        /// The readings an inferred decision rests on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub rests_on: Option<Vec<String>>,
    }
}

wire! {
    /// The answer to `outcome` (field `outcome`): the result of a game given as events.
    pub struct OutcomeAnswer {
        /// `red_wins`, `black_wins`, `draw` or `ongoing`.
        pub result: String,
        /// The clause that ended the game, or `null`.
        pub clause: Option<String>,
        /// Its article, or `null`.
        pub article: Option<String>,
        /// The index of the event at which the game ended, or `null`.
        pub event: Option<u64>,
        /// Fouls charged to each side (waived ones not counted).
        pub fouls: PerSide,
        /// Every decision, in the order of the events.
        pub rulings: Vec<Decision>,
        /// The position after the events (FEN).
        pub fen: String,
        /// The events after the end, left unjudged (game records only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub continues: Option<Continues>,
        /// Who found the repetition that ended the game (`board`, `claim`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub by: Option<String>,
        /// What an end on a 棋例 ruling rests on: `text` or `inferred`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub basis: Option<String>,
        /// The readings an inferred end rests on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub rests_on: Option<Vec<String>>,
    }
}

wire! {
    /// The answer to `touch_move` (field `touch`): the moves allowed after touching pieces.
    pub struct TouchAnswer {
        /// The moves allowed, sorted ICCS (absent when the player may move freely).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub allowed: Option<Vec<String>>,
        /// `true` when the player may move freely (no `allowed` then).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub free: Option<bool>,
        /// The step of the touch-move chain that decided.
        pub step: String,
        /// The chain's clause.
        pub clause: String,
        /// Its article, or `null`.
        pub article: Option<String>,
        /// Whether touching was itself a foul.
        pub foul: bool,
        /// The clauses the touching breaks.
        pub foul_clauses: Vec<String>,
    }
}

wire! {
    /// A position that has stood more than once since the last capture.
    pub struct Repeated {
        /// The position as it first stood (FEN).
        pub fen: String,
        /// The ply after which it first stood (0: the start).
        pub ply: usize,
        /// How many times it has stood.
        pub times: usize,
    }
}

wire! {
    /// Per side, the clause under which it is ordered to change (`null`: no order).
    pub struct Orders {
        /// Red's order.
        pub red: Option<Cited>,
        /// Black's order.
        pub black: Option<Cited>,
    }
}

wire! {
    /// The natural move limit: the rounds counted and the limit.
    pub struct NaturalLimit {
        /// Rounds counted (on a claim of the side to move).
        pub rounds: u64,
        /// The limit.
        pub limit: u64,
        /// Rounds left before the limit.
        pub remaining: u64,
    }
}

wire! {
    /// What the board would decide if the cycle that brought the position back were
    /// played again, up to its first decision.
    pub struct NextAnswer {
        /// The plies of the cycle.
        pub cycle: u64,
        /// The plies to play from now until the board decides.
        pub plies: u64,
        /// The ply of the game after which it decides.
        pub ply: u64,
        /// How often the position then on the board will have stood.
        pub times: u64,
        /// The clause that makes a position pending (`repetition.cycle`).
        pub clause: Option<String>,
        /// Its article.
        pub article: Option<String>,
        /// The decisions the board then makes (without event numbers).
        pub rulings: Vec<Decision>,
        /// The result then (`ongoing` when the game goes on).
        pub result: String,
        /// The clause that would end the game.
        pub end: Cited,
    }
}

wire! {
    /// The answer to `game_status` (field `game_status`): how a game in progress stands.
    pub struct GameStatusAnswer {
        /// `ended` or `ongoing`.
        pub state: String,
        /// `red_wins`, `black_wins`, `draw` or `ongoing`.
        pub result: String,
        /// The clause that ended the game, or `null`.
        pub clause: Option<String>,
        /// Its article, or `null`.
        pub article: Option<String>,
        /// The ply after which the game ended, or `null`.
        pub ply: Option<u64>,
        /// What the arbiter observed (`checkmated`, `perpetual_check` …), or `null`.
        pub how: Option<String>,
        /// The position's own status: `ongoing`, `check`, `checkmate`, `stalemate`.
        pub position: String,
        /// The positions that have stood more than once since the last capture.
        pub repeated: Vec<Repeated>,
        /// The orders to change, per side.
        pub orders: Orders,
        /// The natural move limit, or `null` when the rules have none.
        pub natural_limit: Option<NaturalLimit>,
        /// The moves after the end, left unjudged (game records only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub continues: Option<Continues>,
        /// The point of the general of the side to move when it is in check, or `null`.
        pub check: Option<String>,
        /// What repeating the last cycle would bring, or `null`.
        pub next: Option<NextAnswer>,
    }
}

wire! {
    /// One period of a time control.
    pub struct Period {
        /// Its time, in ms.
        pub time: u64,
        /// The moves to make in it, or `null` (the rest of the game).
        pub moves: Option<u64>,
        /// Whether it repeats.
        pub repeat: bool,
    }
}

wire! {
    /// A time control: each side's periods and the increment, in ms.
    pub struct Control {
        /// Red's periods.
        pub red: Vec<Period>,
        /// Black's periods.
        pub black: Vec<Period>,
        /// The increment per move, in ms.
        pub increment: u64,
    }
}

wire! {
    /// A move on the clock.
    pub struct ClockMove {
        /// The index of its event.
        pub event: u64,
        /// The side that moved.
        pub side: String,
        /// The side's move number.
        pub number: u64,
        /// The time it took, in ms.
        pub took: u64,
        /// The time added after it, in ms.
        pub added: u64,
        /// Red's time left after it, in ms.
        pub red: i64,
        /// Black's time left after it, in ms.
        pub black: i64,
    }
}

wire! {
    /// A breach of the timing rules.
    pub struct Violation {
        /// The index of its event.
        pub event: u64,
        /// The side in breach.
        pub side: String,
        /// What was breached.
        pub kind: String,
        /// The clause, or `null`.
        pub clause: Option<String>,
        /// Its article, or `null`.
        pub article: Option<String>,
        /// Whether it counts as a foul.
        pub foul: bool,
        /// How many of its kind so far.
        pub count: u64,
        /// Its effect: `loss` or `time_added`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub effect: Option<String>,
        /// The time added, in ms (with `time_added`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub added: Option<i64>,
    }
}

wire! {
    /// A change of a side's time.
    pub struct Adjustment {
        /// The index of its event.
        pub event: u64,
        /// The side whose time changed.
        pub side: String,
        /// The change, in ms.
        pub ms: i64,
        /// The rule that made it (a violation kind) or `arbiter`.
        pub by: String,
    }
}

wire! {
    /// The fall of a flag.
    pub struct Flag {
        /// The side whose flag fell.
        pub side: String,
        /// The index of the event.
        pub event: u64,
        /// The side's move number.
        pub r#move: u64,
        /// `time` or `quota`.
        pub kind: String,
        /// The clause.
        pub clause: String,
        /// Its article, or `null`.
        pub article: Option<String>,
        /// The time left, in ms.
        pub left: i64,
        /// The time over, in ms.
        pub over: u64,
        /// The moves made in the period.
        pub moves_made: u64,
        /// The moves the period asks (with `quota`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub moves_required: Option<u64>,
    }
}

wire! {
    /// The answer to `clock` (field `clock`): a game's clock events under a scheme.
    pub struct ClockAnswer {
        /// The scheme's id.
        pub scheme: String,
        /// The scheme's clause.
        pub clause: String,
        /// Its article, or `null`.
        pub article: Option<String>,
        /// The class of the control (`rapid`, `blitz` …), or `null`.
        pub class: Option<String>,
        /// The reading the scheme rests on, where the text leaves a choice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub reading: Option<String>,
        /// The control.
        pub control: Control,
        /// Each side's time at the start, in ms.
        pub start: PerSide,
        /// The moves.
        pub moves: Vec<ClockMove>,
        /// The breaches of the timing rules.
        pub violations: Vec<Violation>,
        /// The changes of time.
        pub adjustments: Vec<Adjustment>,
        /// The fall of a flag, or `null`.
        pub flag: Option<Flag>,
        /// Each side's time at the end, in ms.
        pub r#final: PerSide,
        /// The side whose clock runs, or `null`.
        pub running: Option<String>,
        /// The event at which the clock stopped, or `null`.
        pub ended_at: Option<u64>,
    }
}

wire! {
    /// How the next game's colours are given.
    pub struct Colours {
        /// `lot`, `not_stated`, `swap` or `choice`.
        pub rule: String,
        /// Who takes red (`A`, `B`; with `swap`), or `null`.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "nullable"
        )]
        pub red: Nullable<String>,
        /// What decides who chooses (with `choice`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub by: Option<String>,
        /// Who chooses (with `choice`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub chooser: Option<String>,
    }
}

wire! {
    /// The next game of a play-off.
    pub struct PlayoffNext {
        /// The stage's name.
        pub stage: String,
        /// The round within the stage.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub round: Option<u64>,
        /// The game number within the stage.
        pub game: u64,
        /// The clock scheme, or `null`.
        pub scheme: Option<String>,
        /// The scheme's control, or `null`.
        pub control: Option<Control>,
        /// How colours are given.
        pub colours: Colours,
        /// What a draw counts as (`black_wins`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub draw: Option<String>,
    }
}

wire! {
    /// The stage that decided a play-off.
    pub struct DecidedBy {
        /// The stage's name.
        pub stage: String,
        /// How it decided.
        pub how: String,
        /// The round within the stage.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub round: Option<u64>,
        /// Games won by each player (`A`, `B`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub wins: Option<BTreeMap<String, u64>>,
    }
}

wire! {
    /// The answer to `playoff` (field `playoff`): a knockout play-off chain so far.
    pub struct PlayoffAnswer {
        /// The chain's id.
        pub chain: String,
        /// The winner (`A`, `B`), or `null`.
        pub winner: Option<String>,
        /// The games played so far.
        pub games_played: u64,
        /// The next game: absent when decided, `null` when none can be scheduled.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "nullable"
        )]
        pub next: Nullable<PlayoffNext>,
        /// What decided the chain.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub decided_by: Option<DecidedBy>,
    }
}

wire! {
    /// One row of a ranking.
    pub struct Row {
        /// The place (shared places repeat).
        pub place: u64,
        /// The entrant.
        pub entrant: String,
        /// The ranking score (积分, 场分 …; `null` if not a finite number).
        pub score: Option<Number>,
        /// The tiebreak criteria's values, by name.
        pub values: BTreeMap<String, CriterionValue>,
        /// The criterion that separated the row from the one above.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub separated_by: Option<String>,
        /// `true` when the entrant withdrew.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub withdrawn: Option<bool>,
    }
}

wire! {
    /// The individual standings a team event was ranked from (队员总分制).
    pub struct IndividualStandings {
        /// The rule set.
        pub ruleset: String,
        /// The tournament format.
        pub format: String,
        /// The ranking clause.
        pub clause: String,
        /// The order's name.
        pub order: String,
        /// The criteria in order.
        pub criteria: Vec<String>,
        /// The ranking.
        pub ranking: Vec<Row>,
        /// Entrants whose results were annulled by a withdrawal.
        pub annulled: Vec<String>,
    }
}

wire! {
    /// The answer to `standings` (field `standings`): the ranking of a tournament.
    pub struct StandingsAnswer {
        /// The rule set.
        pub ruleset: String,
        /// The tournament format.
        pub format: String,
        /// The ranking clause.
        pub clause: String,
        /// The order's name.
        pub order: String,
        /// The criteria in order.
        pub criteria: Vec<String>,
        /// The ranking.
        pub ranking: Vec<Row>,
        /// Entrants whose results were annulled by a withdrawal.
        pub annulled: Vec<String>,
        /// The individual standings the teams were ranked from (队员总分制).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub individual: Option<IndividualStandings>,
    }
}

wire! {
    /// One ply of a 棋例 ruling.
    pub struct Ply {
        /// The ply (1-based).
        pub ply: u64,
        /// The move (ICCS).
        pub r#move: String,
        /// The side that played it.
        pub side: String,
        /// The move's class (`chase`, `check`, `idle` …).
        pub class: String,
        /// The class as the rulebook names it (捉, 将, 闲 …).
        pub zh: String,
        /// `attack` or `idle`.
        pub family: String,
        /// The points attacked.
        pub targets: Vec<String>,
        /// The kinds of chase.
        pub chase: Vec<String>,
        /// Why, in words.
        pub reason: String,
        /// Why, in Chinese.
        pub reason_zh: String,
        /// The class's clause.
        pub clause: String,
        /// Its article, or `null`.
        pub article: Option<String>,
    }
}

wire! {
    /// A side's pattern in a cycle.
    pub struct SidePattern {
        /// The pattern's id.
        pub pattern: String,
        /// `forbidden` or `allowed`.
        pub status: String,
        /// The rulebook's name of the cycle (长捉, 一将一捉 …).
        pub zh: String,
        /// The side as the rulebook writes it (红方, 黑方).
        pub side_zh: String,
        /// The status as the rulebook writes it (禁止, 允许).
        pub status_zh: String,
        /// The cycle's name in English, where the data words it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub en: Option<String>,
    }
}

wire! {
    /// Each side's pattern.
    pub struct Patterns {
        /// Red's.
        pub red: SidePattern,
        /// Black's.
        pub black: SidePattern,
    }
}

wire! {
    /// The answer to `ruling` (field `ruling`): a 棋例 ruling on a cycle of moves.
    pub struct RulingAnswer {
        /// The verdict (`draw`, `red_loses`, `black_must_change` …).
        pub verdict: String,
        /// `repetition`, `shuffle` or `none`.
        pub judged: String,
        /// The plies judged (1-based, inclusive), or `null`.
        pub cycle: Option<Vec<u64>>,
        /// Each ply judged.
        pub plies: Vec<Ply>,
        /// Each side's pattern, or `null`.
        pub patterns: Option<Patterns>,
        /// The clauses the verdict applies.
        pub clauses: Vec<Cited>,
        /// What the verdict rests on: `text` or `inferred`.
        pub basis: String,
        /// The readings an inferred verdict rests on.
        pub rests_on: Vec<String>,
        /// `true` in an answer that shows the verdict alone, as an engine's score does
        /// (no `plies`, no `patterns`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub verdict_only: Option<bool>,
    }
}

/// The rule domains' answer fields, each with its type: the list of fields, the schema of
/// each and the round trip through its type, written from one table.
macro_rules! domain_answers {
    ($($field:literal => $ty:ty),* $(,)?) => {
        /// The answer fields of the rule domains' queries: each holds an object typed here,
        /// which the judge compares field by field (an expectation may give only part of it).
        pub const DOMAIN_ANSWER_FIELDS: &[&str] = &[$($field),*];

        /// The schema of the object of a rule domain's answer field (`ruling` …), or `None`
        /// for another field.
        pub fn domain_answer_schema(field: &str) -> Option<Value> {
            match field {
                $($field => Some(<$ty>::wire_schema()),)*
                _ => None,
            }
        }

        /// Reads a rule domain's answer object as its type and writes it back: `Err` when the
        /// object has a field the type does not know, lacks one it requires, or is written
        /// differently from the type's JSON form (the test that the types are the wire form).
        pub fn round_trip(field: &str, v: &Value) -> Result<Value, String> {
            fn go<T: Serialize + for<'de> Deserialize<'de>>(v: &Value) -> Result<Value, String> {
                let t: T =
                    serde_path_to_error::deserialize(v.clone()).map_err(|e| e.to_string())?;
                serde_json::to_value(t).map_err(|e| e.to_string())
            }
            match field {
                $($field => go::<$ty>(v),)*
                other => Err(format!("`{other}` is not a rule domain's answer field")),
            }
        }
    };
}

domain_answers! {
    "outcome" => OutcomeAnswer,
    "touch" => TouchAnswer,
    "game_status" => GameStatusAnswer,
    "clock" => ClockAnswer,
    "playoff" => PlayoffAnswer,
    "standings" => StandingsAnswer,
    "ruling" => RulingAnswer,
}

/// A result of a rule domain whose protocol answer is the wire struct `W` of this module
/// (as `Into<W>`, one `W` per result type): the one way every result is written out.
pub trait ToAnswer<W: Serialize> {
    /// The protocol's answer, typed.
    fn answer(&self) -> W;

    /// The protocol's answer object: [`Self::answer`] as JSON.
    fn to_json(&self) -> Value {
        to_value(&self.answer())
    }
}

/// A wire struct is its own answer (`touch_move` gives one as it is).
impl<W: WireSchema + Serialize + Clone> ToAnswer<W> for W {
    fn answer(&self) -> W {
        self.clone()
    }
}

/// A wire struct as a JSON value (its fields in the order of `serde_json`'s maps).
pub fn to_value<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).expect("a wire struct is plain data: strings, numbers, maps")
}
