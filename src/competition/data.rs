//! Typed shapes of the competition clauses' `data` (`scoring.*`, `tiebreak.*`, `bye.*`,
//! `sanction.ranking`, `withdrawal.*`, `format.n_plus_one`, `lineup.*`). Unknown fields
//! are refused, so a misspelt key is an error at the clause's location.

use std::collections::BTreeMap;

use serde::Deserialize;

/// Scores and shares are exact: a whole number of `1/POINT_DENOMINATOR` units.
pub(crate) const POINT_DENOMINATOR: i64 = 16;
/// The largest score (in points) a scoring value may give; beyond it a value is refused.
pub(crate) const MAX_POINTS: i64 = 1000;

/// An exact score or share: `units / POINT_DENOMINATOR`, at most [`MAX_POINTS`] either way.
/// Written as an integer (`3`), a decimal that is a whole number of sixteenths (`0.5`,
/// `2.25`) or a fraction (`"1/2"`). Every such value, and every sum of fewer than
/// 2^53 / (16 · 1000) of them, is exact in an `f64`: the standings add them with no
/// rounding, so no float error can reorder a ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Points(pub i64);

impl Points {
    pub(crate) fn as_f64(self) -> f64 {
        self.0 as f64 / POINT_DENOMINATOR as f64
    }

    /// Reads a YAML value as an exact score; the message says why not.
    pub(crate) fn from_value(v: &serde_yaml::Value) -> Result<Points, String> {
        let bound = |units: i128| -> Result<Points, String> {
            if units.abs() > i128::from(MAX_POINTS * POINT_DENOMINATOR) {
                Err(format!(
                    "{} is beyond the bound of ±{MAX_POINTS} points a score may have",
                    v_text(v)
                ))
            } else {
                Ok(Points(units as i64))
            }
        };
        let inexact = || {
            format!("{} is not a whole number of 1/{POINT_DENOMINATOR} points (write an integer, a half `0.5`, or a fraction `\"1/2\"`)", v_text(v))
        };
        match v {
            serde_yaml::Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    bound(i128::from(i) * i128::from(POINT_DENOMINATOR))
                } else if let Some(u) = n.as_u64() {
                    bound(i128::from(u) * i128::from(POINT_DENOMINATOR))
                } else {
                    let x = n.as_f64().unwrap_or(f64::NAN);
                    if !x.is_finite() {
                        return Err(format!("{} is not a finite number", v_text(v)));
                    }
                    if x.abs() > MAX_POINTS as f64 {
                        return bound(i128::MAX);
                    }
                    let units = x * POINT_DENOMINATOR as f64;
                    if units.fract() != 0.0 {
                        return Err(inexact());
                    }
                    bound(units as i128)
                }
            }
            serde_yaml::Value::String(t) => {
                let (a, b) = t.split_once('/').unwrap_or((t.as_str(), "1"));
                let (Ok(a), Ok(b)) = (a.trim().parse::<i128>(), b.trim().parse::<i128>()) else {
                    return Err(format!("{} is not a number or a fraction `a/b`", v_text(v)));
                };
                if b <= 0 {
                    return Err(format!("{} has no positive denominator", v_text(v)));
                }
                let num = a
                    .checked_mul(i128::from(POINT_DENOMINATOR))
                    .ok_or_else(|| bound(i128::MAX).unwrap_err())?;
                if num % b != 0 {
                    return Err(inexact());
                }
                bound(num / b)
            }
            _ => Err(format!(
                "{} is not a score (a number or a fraction)",
                v_text(v)
            )),
        }
    }
}

fn v_text(v: &serde_yaml::Value) -> String {
    serde_yaml::to_string(v)
        .map(|t| format!("`{}`", t.trim()))
        .unwrap_or_else(|_| "the value".into())
}

/// Deserializes an exact score ([`Points`]) of the field `field` into the `f64` the
/// standings compute with (exactly: see [`Points`]).
fn exact_points<'de, D: serde::Deserializer<'de>>(d: D, field: &str) -> Result<f64, D::Error> {
    let v = serde_yaml::Value::deserialize(d)?;
    Points::from_value(&v)
        .map(Points::as_f64)
        .map_err(|m| serde::de::Error::custom(format!("`{field}`: {m}")))
}

/// One deserializer per exact field, so that its error names the field.
macro_rules! exact_fields {
    ($($name:ident: $field:literal),* $(,)?) => {
        $(fn $name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
            exact_points(d, $field)
        })*
    };
}

exact_fields!(exact_win: "win", exact_draw_red: "draw_red", exact_draw_black: "draw_black", exact_draw: "draw", exact_loss: "loss", exact_factor: "factor", exact_threshold: "threshold");

shapes! {
    /// `scoring.game`: named tables of game points and the one in force.
    pub(crate) struct GameScoring {
        #[serde(rename = "use")]
        pub(crate) use_: String,
        pub(crate) tables: BTreeMap<String, GameTable>,
    }

    /// Points of one game result. A draw may be worth more to Black (13.3).
    #[derive(Copy, PartialEq)]
    pub struct GameTable {
        #[serde(deserialize_with = "exact_win")]
        /// Points for a win.
        pub win: f64,
        #[serde(deserialize_with = "exact_draw_red")]
        /// Points for a draw to Red.
        pub draw_red: f64,
        #[serde(deserialize_with = "exact_draw_black")]
        /// Points for a draw to Black (more than Red's where 13.3 says so).
        pub draw_black: f64,
        #[serde(deserialize_with = "exact_loss")]
        pub(crate) loss: f64,
    }

    /// `scoring.match`: match points (场分) from game points (局分).
    #[derive(PartialEq)]
    pub(crate) struct MatchScoring {
        /// What decides the match: more `局分` (game points) or more `胜局` (games won).
        pub(crate) decided_by: MatchDecider,
        #[serde(deserialize_with = "exact_win")]
        pub win: f64,
        #[serde(deserialize_with = "exact_draw")]
        pub(crate) draw: f64,
        #[serde(deserialize_with = "exact_loss")]
        pub(crate) loss: f64,
    }

    /// What decides a match (`scoring.match.decided_by`): the side with more of it wins.
    #[derive(Copy, PartialEq, Eq)]
    pub(crate) enum MatchDecider {
        /// 局分: the game points of the match's games (2020 13.2).
        #[serde(rename = "局分")]
        GamePoints,
        /// 胜局: the games won.
        #[serde(rename = "胜局")]
        GamesWon,
    }

    /// `tiebreak.<format>`: how one format ranks its entrants.
    pub(crate) struct Order {
        pub(crate) entrants: Entrants,
        /// Round robin or Swiss: which `withdrawal.*` clause applies (none for 队员总分制, whose
        /// individual event has its own format).
        pub(crate) system: Option<System>,
        #[serde(default)]
        pub(crate) unit: Unit,
        /// The ranking score: a criterion name (`积分`, `场分`, `全队总局分`, `名次总和`).
        pub(crate) rank_by: String,
        /// Number of cycles of a round robin (`2` for a double round robin).
        #[serde(default = "one")]
        pub(crate) cycles: u32,
        /// The named order in force; a tournament file may name another.
        #[serde(rename = "use")]
        pub(crate) use_: String,
        pub orders: BTreeMap<String, Vec<CriterionEntry>>,
        #[serde(default)]
        pub(crate) byes: Byes,
        pub(crate) unresolved: Unresolved,
    }
}

fn one() -> u32 {
    1
}

shapes! {
    /// Who is ranked.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Entrants {
        Players,
        Teams,
        /// 队员总分制: teams ranked on the places of their players in an individual event.
        TeamsByPlayerPlaces,
    }

    /// What one pairing of a round is: one game, or a match of several games (a team match,
    /// an individual mini-match).
    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Unit {
        #[default]
        Game,
        Match,
    }

    /// How a bye counts in this format.
    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Byes {
        /// Neither score nor colours (2020 14.1, 14.5).
        NotCounted,
        /// As `bye.score` / `bye.team_score` say (14.4).
        #[default]
        Scored,
        /// The edition's text has no rule: a bye is refused.
        Unstated,
    }

    /// What a tie that survives every criterion becomes.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Unresolved {
        SharedPlace,
        PlayOff,
    }

    /// A criterion in an order: its name, or its name and the rounds it looks at.
    #[serde(untagged)]
    pub(crate) enum CriterionEntry {
        Name(String),
        Scoped {
            criterion: String,
            #[serde(default)]
            scope: Scope,
        },
    }

    /// Which rounds a criterion looks at.
    #[derive(Copy, Default, PartialEq, Eq, Hash, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Scope {
        #[default]
        All,
        /// The rounds of the first cycle of a double round robin.
        FirstCycle,
        /// The criterion computed in each cycle on its own, then added.
        CyclesSummed,
    }

    /// `tiebreak.champion`: places that may not be shared.
    pub struct Champion {
        pub(crate) places: Vec<u32>,
        pub(crate) unresolved: Unresolved,
    }

    /// `bye.score`, `bye.team_score`.
    pub(crate) struct ByeScore {
        /// The result a bye scores: `win` (what the rules give, 14.4), `draw` or `loss`.
        pub(crate) result: ByeResult,
    }

    /// The result a bye counts as (`bye.score`, `bye.team_score`).
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum ByeResult {
        Win,
        /// A drawn game (the game table's draw must score alike for both colours: a bye has none).
        Draw,
        Loss,
    }
}

impl ByeResult {
    /// What the bye scores in a table that gives `win`, `draw` and `loss`.
    pub(crate) fn score<T>(self, win: T, draw: T, loss: T) -> T {
        match self {
            ByeResult::Win => win,
            ByeResult::Draw => draw,
            ByeResult::Loss => loss,
        }
    }
}

shapes! {
    /// `bye.opponent_score`.
    pub(crate) struct ByeOpponent {
        /// Which score: `lowest_nonzero_score` (what the rules give, 14.4) or `lowest_score`.
        pub(crate) value: ByeOpponentValue,
        #[serde(deserialize_with = "exact_factor")]
        pub(crate) factor: f64,
        pub(crate) reduced: Option<ByeReduced>,
    }

    /// The score a bye counts as in 对手分, before the factor.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum ByeOpponentValue {
        /// The lowest score above zero of any entrant ranked.
        LowestNonzeroScore,
        /// The lowest score of any entrant ranked, zero included.
        LowestScore,
    }

    #[derive(Copy)]
    pub(crate) struct ByeReduced {
        #[serde(deserialize_with = "exact_factor")]
        pub(crate) factor: f64,
        pub(crate) rounds_below: u32,
        pub(crate) entrants_below: u32,
    }

    /// `sanction.ranking`.
    pub(crate) struct SanctionRanking {
        /// Where sanctioned entrants are placed among equals: `rank_by` (right after the
        /// ranking score, before every tiebreak) or `tiebreaks` (after the whole order).
        pub after: SanctionPlace,
        /// Heaviest first.
        pub kinds: Vec<SanctionKind>,
    }

    /// Where the sanctions step stands in the ranking chain (`sanction.ranking.after`).
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum SanctionPlace {
        /// Right after the ranking score (`rank_by`), before every tiebreak.
        RankBy,
        /// After the last tiebreak of the order in force.
        Tiebreaks,
    }

    #[derive(serde::Serialize, PartialEq)]
    pub(crate) struct SanctionKind {
        pub kind: String,
        pub(crate) term: String,
        pub(crate) article: String,
    }

    /// `withdrawal.before_start` (pairings are input: documented, not computed).
    #[allow(
        dead_code,
        reason = "the clause's shape is checked; standings do not act on it"
    )]
    pub(crate) struct WithdrawalBeforeStart {
        pub(crate) round_robin: String,
        pub(crate) swiss: String,
    }

    /// `withdrawal.round_robin`, `withdrawal.swiss`.
    #[derive(Copy, PartialEq)]
    pub(crate) struct Withdrawal {
        /// Share of the entrant's games that decides which branch applies.
        #[serde(deserialize_with = "exact_threshold")]
        pub(crate) threshold: f64,
        pub(crate) fewer_than_threshold: WithdrawalEffect,
        pub(crate) otherwise: WithdrawalEffect,
    }

    #[derive(Copy, PartialEq, Eq, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum WithdrawalEffect {
        /// Every result of the entrant is removed; the entrant is not ranked.
        AnnulResults,
        /// The results stand; the games not played are lost by forfeit.
        ForfeitRemaining,
    }

    /// `format.n_plus_one`.
    #[derive(Copy)]
    pub(crate) struct NPlusOne {
        pub(crate) finalists: u32,
        pub(crate) final_counts_in_opponent_scores: bool,
    }

    /// `lineup.*`.
    pub struct Lineup {
        /// Board order may not reverse the registration order.
        pub(crate) keeps_registration_order: bool,
        /// Players beyond the number of boards may be fielded.
        pub reserves: bool,
        /// The rule's own worked example (11.2), checked against the primitive by a test.
        pub example: Option<LineupExample>,
    }

    #[derive(Copy)]
    /// The worked example of a line-up rule (11.2): boards, reserves and the orders it admits.
    pub struct LineupExample {
        /// Boards of a match.
        pub boards: u32,
        /// Reserves a team may register.
        pub reserves: u32,
        /// Board orders the rule admits, as the text counts them.
        pub orders: u64,
    }

    /// The pairing system of a format.
    #[derive(Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum System {
        RoundRobin,
        Swiss,
    }
}
