//! The tiebreak criteria: primitives defined once, named in the rules' own terms.
//!
//! Which criteria a format uses and in which order is data (`tiebreak.*` clauses); what
//! each term means is defined here, once. Several terms of the rules name one primitive
//! (积分 and 局分总和 are both a sum of game points; 全队胜局 is 胜局 of a team).

use super::data::Scope;

/// What a criterion computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// Sum of game points (积分, 局分总和, 全队总局分).
    GamePoints,
    /// Sum of match points (场分).
    MatchPoints,
    /// Games won (胜局, 全队胜局); a bye scored as a win counts (14.4 '按胜局计分').
    GamesWon,
    /// Matches won (胜场, 全队胜场); a team bye scored as a won match counts.
    MatchesWon,
    /// Fouls (犯规, 全队犯规): fewer first.
    Fouls,
    /// Games played with Black (后走局数): more first.
    BlackGames,
    /// Games won with Black (后走胜局, 后手胜局): more first.
    BlackWins,
    /// Between exactly two tied entrants, who had Black when they met (对局时后走).
    BlackAgainstTied,
    /// The ranking score in the encounters among the tied entrants only (直胜).
    DirectEncounter,
    /// Sum of the scores of the opponents beaten, plus half of those drawn (小分).
    BeatenOpponents,
    /// Sum of the scores of every opponent met, a bye counting as `bye.opponent_score`
    /// says (对手分, 团体对手分).
    OpponentScores,
    /// Sum of the running scores after each round (累进分).
    Progressive,
    /// 累进分 with the first round's running score dropped, then the second's … (compared
    /// one after the other: 去轮累进分).
    ProgressiveCut,
    /// The score after the previous round, then the round before … (前轮成绩).
    PreviousRoundScores,
    /// The place after the previous round under the same order, then the round before …
    /// (前轮名次): fewer first.
    PreviousRoundPlaces,
    /// Sum of the team's players' places in the individual event (名次总和): fewer first.
    PlaceSum,
    /// The team's best individual place (最高名次): fewer first.
    BestPlace,
    /// The team's second-best individual place (次高名次): fewer first.
    SecondBestPlace,
}

/// Which values rank first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Better {
    Higher,
    Lower,
}

/// The terms of the rules, grouped by the primitive they name, each with an English gloss.
pub(crate) const TERMS: &[(Primitive, &[(&str, &str)])] = &[
    (
        Primitive::GamePoints,
        &[
            ("积分", "score: sum of game points"),
            ("局分总和", "total game points"),
            ("全队总局分", "team's total game points"),
            ("总局分", "total game points"),
        ],
    ),
    (Primitive::MatchPoints, &[("场分", "match points")]),
    (
        Primitive::GamesWon,
        &[
            ("胜局", "games won"),
            ("全队胜局", "games won by the team's players"),
        ],
    ),
    (
        Primitive::MatchesWon,
        &[
            ("胜场", "matches won"),
            ("全队胜场", "matches won by the team"),
        ],
    ),
    (
        Primitive::Fouls,
        &[
            ("犯规", "fouls, fewer first"),
            ("全队犯规", "fouls of the team's players, fewer first"),
        ],
    ),
    (
        Primitive::BlackGames,
        &[("后走局数", "games played with Black")],
    ),
    (
        Primitive::BlackWins,
        &[
            ("后走胜局", "games won with Black"),
            ("后手胜局", "games won with Black"),
        ],
    ),
    (
        Primitive::BlackAgainstTied,
        &[("对局时后走", "had Black in the game between the two tied")],
    ),
    (
        Primitive::DirectEncounter,
        &[("直胜", "results among the tied")],
    ),
    (
        Primitive::BeatenOpponents,
        &[(
            "小分",
            "beaten opponents' scores plus half of drawn opponents'",
        )],
    ),
    (
        Primitive::OpponentScores,
        &[
            ("对手分", "sum of the opponents' scores"),
            ("团体对手分", "sum of the opposing teams' match points"),
        ],
    ),
    (
        Primitive::Progressive,
        &[("累进分", "sum of the running scores")],
    ),
    (
        Primitive::ProgressiveCut,
        &[(
            "去轮累进分",
            "progressive score with the first rounds dropped, one by one",
        )],
    ),
    (
        Primitive::PreviousRoundScores,
        &[(
            "前轮成绩",
            "score after the previous round, then the one before",
        )],
    ),
    (
        Primitive::PreviousRoundPlaces,
        &[(
            "前轮名次",
            "place after the previous round, then the one before",
        )],
    ),
    (
        Primitive::PlaceSum,
        &[(
            "名次总和",
            "sum of the players' individual places, fewer first",
        )],
    ),
    (
        Primitive::BestPlace,
        &[("最高名次", "best individual place")],
    ),
    (
        Primitive::SecondBestPlace,
        &[("次高名次", "second-best individual place")],
    ),
];

/// The label of the sanction criterion of `sanction.ranking` (18.5).
pub(crate) const SANCTIONS: &str = "处分";

impl Primitive {
    pub(crate) fn better(self) -> Better {
        match self {
            Primitive::Fouls
            | Primitive::PreviousRoundPlaces
            | Primitive::PlaceSum
            | Primitive::BestPlace
            | Primitive::SecondBestPlace => Better::Lower,
            _ => Better::Higher,
        }
    }

    /// Whether the value depends on which entrants are tied (computed per tied group).
    pub(crate) fn among_tied(self) -> bool {
        matches!(
            self,
            Primitive::DirectEncounter | Primitive::BlackAgainstTied
        )
    }

    /// Whether the primitive is about a team's players' places (队员总分制).
    pub(crate) fn counts_places(self) -> bool {
        matches!(
            self,
            Primitive::PlaceSum | Primitive::BestPlace | Primitive::SecondBestPlace
        )
    }
}

/// The terms of the rules in [`TERMS`]' order, each with the primitive it names.
pub(crate) fn terms() -> impl Iterator<Item = (&'static str, Primitive)> {
    TERMS
        .iter()
        .flat_map(|&(p, terms)| terms.iter().map(move |&(t, _)| (t, p)))
}

/// The primitive a term names.
pub(crate) fn primitive(term: &str) -> Option<Primitive> {
    terms().find(|&(t, _)| t == term).map(|(_, p)| p)
}

/// One criterion of a compiled order.
#[derive(Clone, Debug, PartialEq)]
pub struct Criterion {
    /// The term as the order writes it.
    pub(crate) term: String,
    pub(crate) primitive: Primitive,
    pub(crate) scope: Scope,
}

impl Criterion {
    /// The label in answers and tables: the term, with the scope when it is not all rounds.
    pub(crate) fn label(&self) -> String {
        match self.scope {
            Scope::All => self.term.clone(),
            Scope::FirstCycle => format!("{} (first cycle)", self.term),
            Scope::CyclesSummed => format!("{} (cycles summed)", self.term),
        }
    }
}

/// A criterion's value for one entrant.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A number (score, count, sum of places).
    Number(f64),
    /// Compared item by item (前轮成绩, 去轮累进分, 处分 counts).
    Sequence(Vec<f64>),
    /// Not applicable here (对局时后走 among more than two): separates nobody.
    None,
}

impl Value {
    /// `Less` when `self` ranks before `other`.
    pub(crate) fn rank_cmp(&self, other: &Value, better: Better) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        let by = |a: f64, b: f64| {
            let o = a.partial_cmp(&b).unwrap_or(Equal);
            match better {
                Better::Higher => o.reverse(),
                Better::Lower => o,
            }
        };
        match (self, other) {
            (Value::Number(a), Value::Number(b)) => by(*a, *b),
            (Value::Sequence(a), Value::Sequence(b)) => a
                .iter()
                .zip(b)
                .map(|(x, y)| by(*x, *y))
                .find(|o| *o != Equal)
                .unwrap_or(Equal),
            _ => Equal,
        }
    }

    /// The value as JSON: a number, a list of numbers, or `null`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Number(x) => number(*x),
            Value::Sequence(v) => serde_json::Value::Array(v.iter().map(|x| number(*x)).collect()),
            Value::None => serde_json::Value::Null,
        }
    }

    /// For tables: `12`, `10.5`, `[3, 2, 1]`, `—`.
    pub(crate) fn display(&self) -> String {
        match self {
            Value::Number(x) => fmt_number(*x),
            Value::Sequence(v) => format!(
                "[{}]",
                v.iter()
                    .map(|x| fmt_number(*x))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Value::None => "—".into(),
        }
    }
}

/// A number as JSON: an integer when it is whole, so that `2` in a case equals `2` here.
pub(crate) fn number(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        serde_json::Value::from(x as i64)
    } else {
        serde_json::Number::from_f64(x)
            .map(serde_json::Value::Number)
            .unwrap_or(serde_json::Value::Null)
    }
}

pub(crate) fn fmt_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}
