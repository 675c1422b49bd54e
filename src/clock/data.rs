//! Typed shapes of the `clock.*` and `playoff.*` clause data (spec/README.md § Time).
//!
//! Each shape rejects unknown fields, so a misspelt key in `spec/` is an error at the
//! clause's location. `null` in a scheme marks a number the rulebook leaves to the event.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

/// The largest time the clock handles: 2^53 − 1 ms (exact in every JSON reader).
pub(crate) const MAX_MS: u64 = (1 << 53) - 1;

/// A duration in whole milliseconds, written `90m`, `10s`, `1h30m`, `250ms` or as an
/// integer number of milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Ms(pub u64);

impl Ms {
    /// Reads `1h30m`, `90m`, `10s`, `250ms`, `0s` (units in that order, each once).
    pub fn parse(s: &str) -> Result<Ms, String> {
        Ms::parse_checked(s).map_err(|e| e.to_string())
    }

    /// [`Ms::parse`], telling a duration too long for the clock from one that does not read.
    pub(crate) fn parse_checked(s: &str) -> Result<Ms, DurationError> {
        const UNITS: [(&str, u64); 4] = [("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)];
        let bad = || DurationError::Syntax(s.to_string());
        let mut rest = s.trim();
        if rest.is_empty() {
            return Err(bad());
        }
        let mut total: u64 = 0;
        let mut next_unit = 0;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return Err(bad());
            }
            let n: u64 = rest[..digits].parse().map_err(|_| bad())?;
            rest = &rest[digits..];
            let letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
            let unit = &rest[..letters];
            rest = &rest[letters..];
            let Some(k) = UNITS.iter().skip(next_unit).position(|(u, _)| *u == unit) else {
                return Err(bad());
            };
            next_unit += k + 1;
            total = n
                .checked_mul(UNITS[next_unit - 1].1)
                .and_then(|v| total.checked_add(v))
                .filter(|&v| v <= MAX_MS)
                .ok_or_else(|| DurationError::TooLong(s.to_string()))?;
        }
        Ok(Ms(total))
    }
}

/// Why a duration string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DurationError {
    Syntax(String),
    TooLong(String),
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::Syntax(s) => {
                write!(f, "`{s}` is not a duration like 90m, 10s, 1h30m or 250ms")
            }
            DurationError::TooLong(s) => {
                write!(f, "`{s}` is longer than the clock handles (2^53 − 1 ms)")
            }
        }
    }
}

impl fmt::Display for Ms {
    /// `1h30m`, `90m`, `10s`, `1m30s`, `250ms`, `0s`: the shortest exact spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut v = self.0;
        if v == 0 {
            return f.write_str("0s");
        }
        for (unit, size) in [("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)] {
            if v >= size {
                write!(f, "{}{unit}", v / size)?;
                v %= size;
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Ms {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Ms, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Ms;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a duration (`90m`, `10s`, `250ms`) or whole milliseconds")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Ms, E> {
                if v <= MAX_MS {
                    Ok(Ms(v))
                } else {
                    Err(E::custom("a duration above 2^53 − 1 ms"))
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Ms, E> {
                u64::try_from(v)
                    .map_err(|_| E::custom("a negative duration"))
                    .and_then(|v| self.visit_u64(v))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Ms, E> {
                Ms::parse(s).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A period's time: the same for both colours, or one per colour (贴时). `None` is set by
/// the event.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TimeData {
    Both(Option<Ms>),
    ByColour { red: Option<Ms>, black: Option<Ms> },
}

impl<'de> Deserialize<'de> for TimeData {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TimeData, D::Error> {
        shapes! {
            struct ByColour {
                red: Option<Ms>,
                black: Option<Ms>,
            }
        }
        let v = serde_yaml::Value::deserialize(d)?;
        if v.is_mapping() {
            let b: ByColour = serde_yaml::from_value(v).map_err(de::Error::custom)?;
            Ok(TimeData::ByColour {
                red: b.red,
                black: b.black,
            })
        } else {
            Option::<Ms>::deserialize(v)
                .map(TimeData::Both)
                .map_err(de::Error::custom)
        }
    }
}

shapes! {
    /// One period of a scheme (时限): a time, the moves to be made in it (none: the game must
    /// end in it), and whether it repeats until the game ends.
    pub(crate) struct PeriodData {
        pub(crate) time: TimeData,
        pub(crate) moves: Option<u32>,
        #[serde(default)]
        pub(crate) repeat: bool,
    }

    /// A clock scheme (`clock.scheme.*`).
    pub(crate) struct SchemeData {
        /// The rulebook's name, with an English gloss.
        pub name: String,
        /// The rulebook's own label for the scheme (`rapid`: 适用于快棋赛), which the
        /// classification does not override.
        pub(crate) class: Option<String>,
        /// Absent when every alternative gives them.
        pub(crate) periods: Option<Vec<PeriodData>>,
        /// Added per move (`clock.increment` says when); `null`: set by the event.
        pub(crate) increment: Option<Ms>,
        /// Which of `alternatives` the edition uses.
        #[serde(default, rename = "use")]
        pub(crate) use_: Option<String>,
        /// Named readings of the scheme, each with its source (1999 scheme 3: 50 or 30 moves).
        #[serde(default)]
        pub(crate) alternatives: BTreeMap<String, serde_yaml::Value>,
    }
}

/// The keys an alternative may give besides its source (those of [`SchemeData`]).
pub(crate) const ALTERNATIVE_KEYS: [&str; 2] = ["periods", "increment"];

shapes! {
    /// `clock.classification`.
    pub(crate) struct ClassificationData {
        pub(crate) classes: Vec<ClassData>,
        pub(crate) otherwise: String,
    }

    pub(crate) struct ClassData {
        pub(crate) class: String,
        pub name: String,
        pub(crate) at_most: Ms,
    }

    /// `clock.flag`.
    #[derive(Copy)]
    pub(crate) struct FlagData {
        pub(crate) exhausted_when: Exhausted,
    }

    /// When a side's time has run out.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Exhausted {
        /// Less than 0 ms left: a move completed with 0 ms left is in time.
        BelowZero,
        /// 0 ms left or less.
        AtZero,
    }

    /// `clock.increment`.
    #[derive(Copy)]
    pub(crate) struct IncrementData {
        pub(crate) added: IncrementTiming,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum IncrementTiming {
        /// When the side presses its running clock after moving (Fischer).
        AfterMove,
        /// When the side's clock starts.
        BeforeMove,
    }

    /// `clock.quota`.
    #[derive(Copy)]
    pub(crate) struct QuotaData {
        #[allow(
            dead_code,
            reason = "the clause's shape is checked; the simulator does not act on it"
        )]
        pub(crate) missed: QuotaMissed,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum QuotaMissed {
        /// The side has run out of time (超时).
        TimeOut,
    }

    /// `clock.quota_carry_over`.
    #[derive(Copy)]
    pub(crate) struct CarryOverData {
        pub(crate) unused_time: UnusedTime,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum UnusedTime {
        /// The next period's time is added to what is left.
        CarriesOver,
        /// What is left is replaced by the next period's time.
        Forfeited,
    }

    /// A use of the clock that may be a foul: `clock.press_without_move`, `clock.stop_start`.
    pub(crate) struct ClockFoulData {
        /// The clause (of the arbiter's fouls) that makes it a foul, or `null` when it is none.
        pub(crate) foul: Option<String>,
    }

    /// A knockout play-off chain (`playoff.*`).
    pub(crate) struct ChainData {
        pub(crate) stages: Vec<StageData>,
    }

    pub(crate) struct StageData {
        pub(crate) stage: String,
        pub(crate) games: u32,
        /// A `clock.scheme.*` id without the prefix; `null`: the event's own control.
        pub scheme: Option<String>,
        pub(crate) colours: StageColours,
        pub(crate) draw: Option<DrawRule>,
        pub(crate) repeat: Option<RepeatData>,
    }

    pub(crate) struct StageColours {
        pub(crate) first: ColourRule,
        pub(crate) then: Option<ColourRule>,
    }

    pub(crate) struct RepeatData {
        pub(crate) colours: ColourRule,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum DrawRule {
        /// A drawn game is won by Black (和棋黑胜).
        BlackWins,
    }
}

/// How the colours of a game are given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ColourRule {
    /// Drawn by lot (抽签).
    Lot,
    /// Each player takes the other colour than in the previous game.
    Swap,
    /// The source does not say.
    NotStated,
    /// A player chooses; the first chooser rule that applies names them.
    Choice(Vec<ChooserRule>),
}

/// Who chooses colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChooserRule {
    /// The player who did not choose colours in that stage.
    NotChooserOf(String),
    /// The player who had Black in that stage's last game.
    BlackOf(String),
    /// The player placed better in the event's preceding stage.
    BetterRanked,
    /// A lot decides who chooses.
    Lot,
}

/// A rule written as a bare name (`lot`) or as a mapping of one name to its argument
/// (`{choice: [...]}`): the name and the argument.
fn named<'de, D: Deserializer<'de>>(
    d: D,
    what: &str,
) -> Result<(String, Option<serde_yaml::Value>), D::Error> {
    match serde_yaml::Value::deserialize(d)? {
        serde_yaml::Value::String(s) => Ok((s, None)),
        serde_yaml::Value::Mapping(m) if m.len() == 1 => {
            let (k, v) = m.into_iter().next().expect("one entry");
            match k {
                serde_yaml::Value::String(k) => Ok((k, Some(v))),
                other => Err(de::Error::custom(format!(
                    "{what}: `{other:?}` is not a name"
                ))),
            }
        }
        other => Err(de::Error::custom(format!(
            "{what}: a name or a mapping of one name to its argument, not {other:?}"
        ))),
    }
}

fn argument<T: serde::de::DeserializeOwned, E: de::Error>(
    name: &str,
    v: Option<serde_yaml::Value>,
) -> Result<T, E> {
    let v = v.ok_or_else(|| E::custom(format!("`{name}` takes an argument: `{{{name}: …}}`")))?;
    serde_yaml::from_value(v).map_err(|e| E::custom(format!("`{name}`: {e}")))
}

impl<'de> Deserialize<'de> for ColourRule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ColourRule, D::Error> {
        match named(d, "a colour rule")? {
            (n, None) if n == "lot" => Ok(ColourRule::Lot),
            (n, None) if n == "swap" => Ok(ColourRule::Swap),
            (n, None) if n == "not_stated" => Ok(ColourRule::NotStated),
            (n, v) if n == "choice" => argument(&n, v).map(ColourRule::Choice),
            (n, _) => Err(de::Error::custom(format!(
                "`{n}` is not a colour rule (lot, swap, not_stated, choice)"
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for ChooserRule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ChooserRule, D::Error> {
        match named(d, "a chooser rule")? {
            (n, None) if n == "better_ranked" => Ok(ChooserRule::BetterRanked),
            (n, None) if n == "lot" => Ok(ChooserRule::Lot),
            (n, v) if n == "not_chooser_of" => argument(&n, v).map(ChooserRule::NotChooserOf),
            (n, v) if n == "black_of" => argument(&n, v).map(ChooserRule::BlackOf),
            (n, _) => Err(de::Error::custom(format!(
                "`{n}` is not a chooser rule (not_chooser_of, black_of, better_ranked, lot)"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_and_print() {
        for (text, ms) in [
            ("90m", 5_400_000),
            ("1h30m", 5_400_000),
            ("10s", 10_000),
            ("1m30s", 90_000),
            ("250ms", 250),
            ("0s", 0),
            ("2s5ms", 2005),
        ] {
            assert_eq!(Ms::parse(text), Ok(Ms(ms)), "{text}");
        }
        assert_eq!(Ms(5_400_000).to_string(), "1h30m");
        assert_eq!(Ms(90_000).to_string(), "1m30s");
        assert_eq!(Ms(0).to_string(), "0s");
        assert_eq!(Ms(2005).to_string(), "2s5ms");
        for bad in ["", "90", "m", "5 m", "30s1m", "1m1m", "1.5s", "-1s", "10x"] {
            assert!(
                matches!(Ms::parse_checked(bad), Err(DurationError::Syntax(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            Ms::parse_checked("9999999999999h"),
            Err(DurationError::TooLong(_))
        ));
        assert!(matches!(
            Ms::parse_checked("99999999999999999999s"),
            Err(DurationError::Syntax(_))
        ));
    }

    #[test]
    fn rules_read_as_names_or_one_entry_mappings() {
        let r: ColourRule =
            serde_yaml::from_str("{choice: [{not_chooser_of: slow}, better_ranked]}").unwrap();
        assert_eq!(
            r,
            ColourRule::Choice(vec![
                ChooserRule::NotChooserOf("slow".into()),
                ChooserRule::BetterRanked
            ])
        );
        assert_eq!(
            serde_yaml::from_str::<ColourRule>("swap").unwrap(),
            ColourRule::Swap
        );
        assert!(serde_yaml::from_str::<ColourRule>("choice")
            .unwrap_err()
            .to_string()
            .contains("takes an argument"));
        assert!(serde_yaml::from_str::<ColourRule>("coin")
            .unwrap_err()
            .to_string()
            .contains("not a colour rule"));
        assert!(serde_yaml::from_str::<ChooserRule>("{a: 1, b: 2}").is_err());
    }
}
