//! Typed shapes of the `repetition.*` clause data (棋例). Unknown keys are errors.

use std::collections::BTreeMap;

use serde::Deserialize;

shapes! {
    /// `repetition.material`: what counts as material (子力) and what it is worth (子力价值).
    pub(crate) struct MaterialData {
        /// Kind → value, in units of the clause (the rulebook gives ratios only).
        pub(crate) values: BTreeMap<String, i32>,
        /// Kinds whose value floats (过河兵): counted apart, below every piece of `values`, so
        /// that trading them for pieces is never a gain; material only inside their region.
        #[serde(default)]
        pub(crate) floating: Vec<FloatingData>,
        /// A floating piece is worth less than this many units: giving one up for at least
        /// that much is a gain (2011 26.6: below a chariot). Absent: giving one up for pieces
        /// is never a gain.
        pub(crate) floating_worth_below: Option<i32>,
    }

    pub(crate) struct FloatingData {
        pub kind: String,
        /// Region (a `board.*` region, as its side sees it) inside which the kind is material.
        pub(crate) region: String,
        pub(crate) value: i32,
    }

    /// A move class (将, 杀, 捉, 兑, 献, 拦, 跟, 闲): `repetition.check`, `repetition.chase` …
    pub(crate) struct ClassData {
        /// The class name used in answers (`chase`).
        pub(crate) class: String,
        /// The rulebook's term (`捉`).
        pub(crate) zh: String,
        /// `attack` (打: 将, 杀, 捉) or `idle` (闲 and its kinds 兑, 献, 拦, 跟).
        pub(crate) family: Family,
        /// The VM predicate that decides whether a move has this effect: a name
        /// (`gives_check`), or a one-key mapping of the name to its parameters
        /// (`{mate_threat: {depth: 3}}`).
        #[serde(deserialize_with = "one_key_enum")]
        pub(crate) test: Test,
    }
}

/// Reads an enum written as a name or as a one-key mapping `{name: fields}` (the plain YAML
/// form; serde_yaml itself expects a YAML tag for the second).
fn one_key_enum<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    use serde::de::Error;
    use serde_yaml::value::{Tag, TaggedValue};
    let v = serde_yaml::Value::deserialize(d)?;
    let v = match v {
        serde_yaml::Value::Mapping(m) if m.len() == 1 => {
            let (k, inner) = m.into_iter().next().expect("one entry");
            let name = k
                .as_str()
                .ok_or_else(|| D::Error::custom("the predicate's name is a string"))?
                .to_string();
            serde_yaml::Value::Tagged(Box::new(TaggedValue {
                tag: Tag::new(name),
                value: inner,
            }))
        }
        other => other,
    };
    serde_yaml::from_value(v).map_err(D::Error::custom)
}

shapes! {
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Family {
        Attack,
        Idle,
    }

    /// The predicates a class is defined by (the VM's primitives).
    #[derive(PartialEq)]
    #[serde(rename_all = "snake_case", deny_unknown_fields)]
    pub(crate) enum Test {
        /// The move attacks the opposing general (将).
        GivesCheck,
        /// Were the opponent to pass, the mover would mate by consecutive checks within
        /// `depth` of its own moves (杀). A threat that is gone with the moved piece, which the move
        /// offers for exchange (兑, 24.4), makes the move an exchange, not a kill.
        MateThreat { depth: u8 },
        /// Were the opponent to pass, the mover would win material by a forcing line
        /// (`repetition.forcing`): a direct capture, a capture another piece is let make, a
        /// joint capture, captures after checks, or a whole exchange, with a net gain and
        /// without being mated at once for it (捉).
        WinsMaterial {
            /// The checks that capture nothing a line may hold (overrides the bound).
            checks: Option<u8>,
            /// The kinds of win that count (`unprotected`, `higher_value`, `joint`); all when
            /// omitted.
            kinds: Option<Vec<String>>,
            /// A legal capture of a piece worth more than its capturer counts whatever the
            /// exchange after it.
            #[serde(default)]
            higher_value_always: bool,
            /// A move that gives check chases too what it would win whichever way the general
            /// steps out of the check, or, when it cannot step, what the check wins as it stands
            /// (every way the general steps, of none); its class stays the heavier 将, and a
            /// pattern of chases of one target (`same_target`) whose `every` lists 将 counts such
            /// a check among the chases.
            #[serde(default)]
            with_checks: bool,
        },
        /// The moved piece may be taken by an opposing piece it matches (`of`) that neither loses
        /// material by the forcing line after it nor is mated; or it may itself take such a piece
        /// so; or two matching pieces attack each other over it; or a new win the chase test left
        /// out as a mutual attack of two matching pieces (兑, 24.4).
        OffersExchange {
            #[serde(default)]
            of: Exchangeable,
            /// What the opponent's capture of the offered piece must be for the offer to be one
            /// (and for a mutual attack of two matching pieces to be an exchange, not a chase).
            #[serde(default)]
            taken: Taken,
        },
        /// The moved piece may be taken by an opposing piece (`taker`) without the taker's being
        /// mated at once, and with the `result` the taker has by the forcing line after it (献).
        OffersSacrifice {
            #[serde(default)]
            taker: Taker,
            #[serde(default)]
            result: Outcome,
        },
        /// The move stands in the line of an opposing line piece and so takes away the mate by
        /// checks within `mate_depth` moves the opponent threatened (拦).
        Blocks {
            mate_depth: u8,
            /// A win of material the opponent had, gone after the move, is parried too.
            #[serde(default)]
            material: bool,
        },
        /// The moved piece goes after the opposing piece that has just moved, attacking it
        /// again without winning it (跟).
        Follows,
        /// Any move (闲).
        Otherwise,
    }
}

shapes! {
    /// Which pieces an exchange (兑) is offered between.
    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Exchangeable {
        /// Pieces of one kind (2020 24.4: 同兵种邀兑).
        #[default]
        SameKind,
        /// Pieces of equal worth (1999 28.5: 等子力互换).
        EqualWorth,
    }

    /// What the opponent's capture of a piece offered for exchange must be (兑).
    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Taken {
        /// Legal, and neither mated at once nor losing material at once for it (2020 24.4:
        /// 不致立即被将死或立即在子力价值上遭受损失).
        #[default]
        Safely,
        /// Legal (AXF rule 40: an exchange offered, perpetually too, is allowed).
        Legally,
    }

    /// Which opposing pieces a sacrifice (献) is offered to.
    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Taker {
        /// Any (2020 24.5: 凡走子送吃).
        #[default]
        Any,
        /// A piece of the offered piece's kind (1999 28.6: 同兵种子).
        SameKind,
    }

    /// What the taker of an offered piece has by the line after the capture (献).
    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Outcome {
        /// It loses nothing (2020 24.5: 不致…在子力价值上遭受损失).
        #[default]
        NoLoss,
        /// It wins material: the piece offered is unprotected (1999 28.6: 无根子送吃).
        Gain,
    }
}

/// `repetition.forcing`: the bounds of the forcing-line search every material test uses.
pub(crate) use super::forcing::Bounds as ForcingData;

shapes! {
    /// `repetition.multiple_effects`: a move with several effects takes the heaviest class.
    pub(crate) struct OrderData {
        /// Class names, heaviest first.
        pub(crate) heaviest_first: Vec<String>,
    }

    /// `repetition.own_attack`: kinds that may themselves attack without it counting (26.1).
    pub(crate) struct OwnAttackData {
        /// Kinds whose own captures (as the first capturer) do not make a chase.
        pub(crate) first_capturer_not: Vec<String>,
        /// Their capture counts where another piece takes part in it (a joint win: more
        /// attackers than roots, or the root held by a pin).
        #[serde(default)]
        pub(crate) joint_counts: bool,
    }

    /// `repetition.chase_to_chase`: only new wins make a chase (从捉到捉). A win is new when the
    /// move makes it possible or larger: the same piece could not win the same target before the
    /// move, or only less (the gain before and after the move, each capture judged by the whole
    /// exchange it opens). The clause's presence asks for it; its data says how a capture of the
    /// opponent's that the move parries bears on it.
    #[derive(Default, PartialEq)]
    pub(crate) struct NewOnlyData {
        /// How a capture the move parries bears on newness; absent: not at all.
        pub(crate) parried: Option<Parried>,
    }

    /// How a capture of the opponent's that the move parries (it won before the move and wins no
    /// more after it) bears on whether a win is new.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Parried {
        /// The move is the flight of the piece it moves: before the move, the opponent could take
        /// that piece where it stood. Against a win the piece takes part in where it now stands
        /// (without it the win is gone, or smaller), the gain before is measured with that capture
        /// open to the opponent.
        Counts,
        /// What a move that parries a capture of the opponent's adds to a win whose first capture
        /// the same piece could already make before the move is nothing new: the attack stood.
        AddsNothing,
    }

    /// A special case that changes the class of a move: `when` all its conditions hold,
    /// the move's class `becomes` another.
    pub(crate) struct ExceptionData {
        pub(crate) when: ConditionData,
        pub(crate) becomes: String,
    }

    #[derive(Default)]
    pub(crate) struct ConditionData {
        /// The moved piece is of one of these kinds.
        pub(crate) mover: Option<Vec<String>>,
        /// The move answers a check (the mover was in check before it).
        pub(crate) answers_check: Option<bool>,
        /// The move's class (before this exception) is one of these.
        pub(crate) class: Option<Vec<String>>,
        /// Every piece the move chases is of one of these kinds.
        pub(crate) targets_only: Option<Vec<String>>,
        /// The mover's side has at most `count` pieces of these kinds (its attacking force).
        pub(crate) attacking_pieces_at_most: Option<PieceCount>,
        /// The move wins material only through these kinds as first capturer (which
        /// `repetition.own_attack` exempts), and wins nothing otherwise.
        pub(crate) latent_by: Option<Vec<String>>,
        /// The other side's pattern over the cycle is forbidden (长打 on both sides: 互打).
        pub(crate) opponent_forbidden: Option<bool>,
        /// The next ply (the opponent's answer) is made by a piece other than the general.
        pub(crate) answered_by_non_general: Option<bool>,
        /// The next ply's family is idle (the answer is not itself an attack).
        pub(crate) answer_idle: Option<bool>,
        /// After the move, the mover's own general is under a mate threat (被杀) within this
        /// many of the opponent's moves by consecutive checks.
        pub(crate) own_general_threatened: Option<u8>,
    }

    pub(crate) struct PieceCount {
        pub(crate) count: u32,
        pub kinds: Vec<String>,
    }

    /// `repetition.patterns`: how a side's cycle of classes is named and judged (25.2).
    pub(crate) struct PatternsData {
        /// First match wins.
        pub(crate) patterns: Vec<PatternData>,
        /// How the rulebook names a side's cycle (长捉, 一将一捉, 两闲 …).
        pub(crate) cycle_names: CycleNames,
        /// How the rulebook writes a pattern's status (禁止, 允许).
        pub(crate) status_names: StatusNames,
        /// How the rulebook names the sides before a cycle's name (红方长捉).
        pub(crate) side_names: SideNames,
    }

    /// The rulebook's words for a pattern's status, as a ruling writes it (红方长捉，禁止).
    #[derive(PartialEq, Eq)]
    pub(crate) struct StatusNames {
        pub(crate) forbidden: String,
        pub(crate) allowed: String,
    }
}

/// The rulebook's words for the sides, as a ruling writes them before a cycle's name.
pub(crate) use crate::vm::data::SideNames;

shapes! {
    /// The rulebook's names of cycles: a class repeated on every move of a side is
    /// `perpetual` followed by the class (长捉), unless it is idle or played once; otherwise
    /// each class is counted with `numerals[n]` (一将一捉, 两闲), and `many` for a count
    /// beyond the numerals.
    #[derive(PartialEq, Eq)]
    pub(crate) struct CycleNames {
        pub(crate) perpetual: String,
        /// Numerals by count, from zero.
        pub(crate) numerals: Vec<String>,
        pub(crate) many: String,
        /// The same words in English (`perpetual chase`, `one check one chase`, `two idle`),
        /// the class named by its id: one English name of a cycle whatever the rule set.
        pub(crate) en: Option<CycleWords>,
    }

    /// The words of [`CycleNames`] in another language.
    #[derive(PartialEq, Eq)]
    pub(crate) struct CycleWords {
        pub(crate) perpetual: String,
        pub(crate) numerals: Vec<String>,
        pub(crate) many: String,
    }

    pub(crate) struct PatternData {
        pub(crate) pattern: String,
        /// The pattern's name in the rulebook (长捉): read so that the data is checked; nothing
        /// prints it.
        #[allow(dead_code)]
        pub(crate) zh: String,
        pub status: PatternStatus,
        /// Every move of the side is of one of these classes (omitted: any).
        pub(crate) every: Option<Vec<String>>,
        /// Every move of the side is of this family (omitted: any).
        pub(crate) every_family: Option<Family>,
        /// One and the same opposing piece is chased by every move.
        #[serde(default)]
        pub(crate) same_target: bool,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    /// Whether a pattern is forbidden (禁止着法) or allowed (允许着法).
    pub enum PatternStatus {
        /// 禁止着法
        Forbidden,
        /// 允许着法
        Allowed,
    }

    /// A verdict rule (`repetition.verdict.*`): when its condition holds, the verdict.
    pub(crate) struct VerdictData {
        /// Rules are tried in this order, lowest first.
        pub(crate) order: u32,
        pub(crate) when: VerdictWhen,
        /// `draw`, or what happens to the side the condition names (`one`): `must_change`,
        /// `loses`.
        pub(crate) verdict: VerdictKind,
    }

    #[derive(Default, PartialEq)]
    pub(crate) struct VerdictWhen {
        /// The side the verdict is about has one of these patterns (names or statuses).
        pub(crate) one: Option<Vec<String>>,
        /// The other side has one of these.
        pub(crate) other: Option<Vec<String>>,
        /// The other side has none of these.
        pub(crate) other_not: Option<Vec<String>>,
        /// Both sides have one of these.
        pub(crate) both: Option<Vec<String>>,
        /// The other side's cycle holds a chase of one of these kinds (`joint`, `unprotected`,
        /// `higher_value`).
        pub(crate) other_has_chase: Option<Vec<String>>,
        /// Every move of the one side is a chase of only these kinds.
        pub(crate) one_every_chase: Option<Vec<String>>,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum VerdictKind {
        Draw,
        MustChange,
        Loses,
    }

    /// `repetition.cycle`: what the ruling judges (a repetition, or a repeating shuffle).
    pub(crate) struct CycleData {
        /// Judge moves without an exact repetition when each side moves one and the same piece
        /// throughout, at least this many times.
        pub(crate) shuffle_min_moves_per_side: Option<u32>,
        /// A position is pending (待判局面) and ruled on when it has come back this many times
        /// (the cycle played this many times); without it nobody watches the board.
        pub(crate) pending_after_cycles: Option<u32>,
        /// After a ruling, the cycles played again before the position is ruled on anew (a side
        /// ordered to change that plays them has not changed).
        pub(crate) cycles_after_ruling: Option<u32>,
        /// Which moves form the judged cycle when a position has come back (absent: `shortest`).
        pub(crate) judged: Option<Judged>,
    }

    /// Which moves form the judged cycle when a position has come back.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Judged {
        /// The moves since the last position that came back last stood before: one cycle.
        Shortest,
        /// The moves since the position that came back last first stood: every cycle played.
        SinceFirst,
    }
}
