//! Typed shapes of the arbiter's clause data (`result.*`, `draw.*`, `event.level`,
//! `touch.*`, `irregularity.*`, `foul.*`, `lateness.*`).
//!
//! Every shape rejects unknown fields. The vocabularies here (`Trigger`, `IllegalClass`,
//! `Role` …) are the arbiter's primitives: what it can observe and do. Which of them a rule
//! uses, in what order and with what numbers, is the YAML's.

use std::collections::BTreeMap;

use serde::Deserialize;

codes! {
    /// Something the arbiter observes, named by `when:` in result and foul clauses.
    #[derive(PartialOrd, Ord, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Trigger {
        /// The side to move is checkmated.
        Checkmated => "checkmated",
        /// The side to move has no legal move and is not in check.
        Stalemated => "stalemated",
        /// A move that is not legal was made (with its classes).
        IllegalMove => "illegal_move",
        /// A repetition ruling: the side checks perpetually on its own.
        PerpetualCheck => "perpetual_check",
        /// A repetition ruling orders a side to change that is already under that order.
        ChangeRefused => "change_refused",
        /// The side's flag fell.
        FlagFall => "flag_fall",
        /// The side arrived later than the lateness limit.
        LateArrival => "late_arrival",
        /// Both sides arrived later than the lateness limit.
        BothLate => "both_late",
        /// The side pressed its clock without having moved.
        PressWithoutMove => "press_without_move",
        /// The side was charged with a foul (the tally of the foul clauses).
        Foul => "foul",
        /// The side's natural-move-limit claim was found untrue.
        FalseNaturalLimitClaim => "false_natural_limit_claim",
        /// The side resigned.
        Resignation => "resignation",
        /// The side refused to follow the rules or seriously broke discipline.
        RefusingRules => "refusing_rules",
        /// A draw offer was accepted.
        DrawAgreed => "draw_agreed",
        /// The arbiter found a simple position neither side can win.
        SimplePosition => "simple_position",
        /// A repetition ruling: drawn with neither side changing.
        RepetitionDraw => "repetition_draw",
        /// The natural move limit was found reached.
        NaturalLimit => "natural_limit",
        /// The side disturbed the opponent.
        Disturbing => "disturbing",
        /// The side stopped or started the clocks without leave.
        ClockTampering => "clock_tampering",
        /// The side offered a draw.
        DrawOffer => "draw_offer",
        /// The side touched an own piece that has no legal move.
        TouchImmovable => "touch_immovable",
        /// The side touched an opponent's piece that no own piece can capture.
        TouchUncapturable => "touch_uncapturable",
        /// Moves of the side were found unrecorded.
        UnrecordedMoves => "unrecorded_moves",
        /// The side broke the players' rules (not seriously).
        PlayerRules => "player_rules",
    }
}

impl Trigger {
    /// The observation as the data writes it (`flag_fall` …).
    pub fn name(self) -> &'static str {
        self.code()
    }
}

shapes! {
    /// Why a move is not legal, in the terms of `check.self_kill` and the move programs.
    #[derive(Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    #[serde(rename_all = "snake_case")]
    pub enum IllegalClass {
        /// The piece cannot go there (or it is not the mover's piece).
        NotAMove,
        /// After the move the mover's general is attacked.
        OwnRoyalAttacked,
        /// After the move the generals face each other.
        RoyalsFacing,
    }

    /// What a result clause gives the side concerned.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum ResultKind {
        Loss,
        Draw,
        BothLose,
    }

    /// Over what span occurrences are counted.
    #[derive(Copy, PartialEq, Eq, Default)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Span {
        /// The whole game.
        #[default]
        Game,
        /// The current phase of the natural move limit (since the last capture).
        Phase,
    }

    /// `result.*`: one way a game ends.
    pub(crate) struct ResultRule {
        pub(crate) when: Trigger,
        pub(crate) result: ResultKind,
        /// Only illegal moves of these classes count (`when: illegal_move`).
        pub(crate) classes: Option<Vec<IllegalClass>>,
        /// Occurrences needed (default 1).
        pub(crate) times: Option<u32>,
        /// Occurrences needed, by level of the event (`event.level`).
        pub(crate) times_by_level: Option<BTreeMap<String, u32>>,
        pub(crate) counted: Option<Span>,
        /// Lateness limit in minutes (`when: late_arrival`); null: set by the event.
        pub(crate) limit_minutes: Option<u32>,
        /// Rounds the sides have to change after a 棋例 ruling before it takes effect
        /// (`when: change_refused`: the side ordered to change; `when: repetition_draw`: either
        /// side, before the draw); null: the next ruling of the board decides
        /// (`repetition.cycle`), and a draw is drawn at once.
        pub(crate) rounds_to_change: Option<u32>,
    }

    /// How draw offers are counted for the draw-offer foul.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum OfferCount {
        /// A foul when one's offers exceed the opponent's by `excess` or more.
        ExcessOverOpponent,
        /// A foul when one offers again after one's offer was refused, the opponent not having
        /// offered since.
        RepeatedAfterDecline,
    }

    /// What makes a record count as unrecorded.
    #[derive(Copy, PartialEq, Eq, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum RecordFault {
        Missing,
        Illegible,
        Identical,
    }

    /// `foul.*`: one kind of foul.
    pub(crate) struct FoulRule {
        pub(crate) when: Trigger,
        /// Only illegal moves of these classes (`when: illegal_move`).
        pub(crate) classes: Option<Vec<IllegalClass>>,
        /// Only at these levels of event (`event.level`).
        pub(crate) levels: Option<Vec<String>>,
        /// `when: draw_offer`: which offers are fouls.
        pub(crate) count: Option<OfferCount>,
        pub(crate) excess: Option<u32>,
        /// `when: unrecorded_moves`: one foul per this many moves …
        pub(crate) every_moves: Option<u32>,
        /// … and at most this many fouls at a time (null: no cap).
        pub(crate) max_fouls: Option<u32>,
        /// What counts as unrecorded.
        pub(crate) counts: Option<Vec<RecordFault>>,
        /// A player with less than this left may defer the record (null: never).
        pub(crate) deferred_below_minutes: Option<u32>,
    }

    /// `foul.waived_by_resignation`.
    pub struct Waiver {
        /// What waives the foul: read so that the data is checked; no primitive reads it yet.
        #[allow(dead_code)]
        pub waived_by: WaivedBy,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    /// What waives a foul (`foul.waived_by_resignation`).
    pub enum WaivedBy {
        /// A resignation by the fouling side as the very next event.
        ImmediateResignation,
    }

    /// `event.level`.
    pub(crate) struct EventLevel {
        pub level: String,
        pub(crate) levels: Vec<String>,
    }

    /// Whose checks are limited when the natural move limit is counted.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum ChecksOf {
        Claimant,
        EachSide,
    }

    /// Who may claim the natural move limit.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum ClaimBy {
        SideToMove,
        EitherSide,
    }

    /// `draw.natural_limit`.
    pub(crate) struct NaturalLimit {
        pub(crate) rounds: u32,
        pub(crate) checks_counted: u32,
        pub(crate) checks_of: ChecksOf,
        pub(crate) claim_by: ClaimBy,
        pub(crate) arbiter_may_declare: bool,
        pub(crate) false_claim_penalty_minutes: Option<u32>,
    }

    /// `draw.offer`.
    pub(crate) struct DrawOffer {
        pub(crate) declined_by_move: bool,
    }

    /// `draw.no_early_offer`.
    pub(crate) struct EarlyOffer {
        pub(crate) rounds: u32,
    }

    /// A side named in data.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum SideName {
        Red,
        Black,
    }
}

impl SideName {
    pub(crate) fn side(self) -> crate::board::Side {
        match self {
            SideName::Red => crate::board::Side::Red,
            SideName::Black => crate::board::Side::Black,
        }
    }
}

shapes! {
    /// `draw.early_repetition`.
    pub(crate) struct EarlyRepetition {
        pub(crate) rounds: u32,
        pub(crate) must_change: SideName,
    }

    /// A touched piece's role.
    #[derive(Copy, PartialEq, Eq, PartialOrd, Ord)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Role {
        Own,
        Opponent,
    }

    /// Which piece must capture in a `capture` step.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum With {
        /// The touched own piece.
        Own,
        /// Any own piece but the touched one.
        Other,
    }

    /// One step of a touch-move chain.
    pub(crate) struct Step {
        /// The article that decides when this step does.
        pub(crate) step: String,
        #[serde(default, rename = "move")]
        pub(crate) move_piece: Option<Role>,
        pub capture: Option<Role>,
        pub(crate) with: Option<With>,
        #[serde(default)]
        pub(crate) free: bool,
    }

    /// A touch-move chain (`touch.*` but `touch.adjusting`, `touch.completed_move`).
    pub(crate) struct TouchChain {
        pub(crate) touched: Vec<Role>,
        #[serde(default)]
        pub(crate) simultaneous: bool,
        pub(crate) steps: Option<Vec<Step>>,
        /// Use the steps of another chain clause.
        pub(crate) steps_of: Option<String>,
    }

    /// A condition for putting pieces right without it counting as touching.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Requirement {
        /// The player said so first.
        Announced,
        /// The opponent agreed first.
        OpponentConsent,
    }

    /// `touch.adjusting`.
    pub(crate) struct Adjusting {
        pub(crate) own_time_only: bool,
        pub(crate) requires: Vec<Requirement>,
        pub(crate) accidental_exempt: bool,
    }

    /// `touch.completed_move`.
    pub struct CompletedMove {
        /// When a move counts as made: read so that the data is checked; no primitive reads it
        /// yet.
        #[allow(dead_code)]
        pub completed_when: CompletedWhen,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    /// When a move counts as made (`touch.completed_move`).
    pub enum CompletedWhen {
        /// When the hand lets go of the piece (落子).
        HandReleased,
    }

    /// What is done about an error found in time.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Remedy {
        /// The game is replayed from the start (with the right colours).
        Replay,
        /// The position before the error is restored.
        Restore,
    }

    /// `irregularity.colours_reversed`.
    pub(crate) struct ColoursReversed {
        /// Found within this many minutes (inclusive); null: any time during the game.
        pub(crate) within_minutes: Option<u32>,
        pub(crate) remedy: Remedy,
    }

    /// `irregularity.displaced_piece`.
    pub(crate) struct DisplacedPiece {
        /// Found within this many rounds (inclusive); null: any time during the game.
        pub(crate) within_rounds: Option<u32>,
        pub(crate) remedy: Remedy,
        /// After the restore the side to move may move any piece.
        pub(crate) free_choice: bool,
    }

    /// `irregularity.illegal_move`.
    pub(crate) struct IllegalMoveFinding {
        /// Found within this many rounds (inclusive); null: any time during the game.
        pub(crate) within_rounds: Option<u32>,
        /// The illegal moves this time limit applies to.
        pub(crate) classes: Vec<IllegalClass>,
        /// After a foul the move is replayed and the moved piece counts as touched.
        pub(crate) touched_after: bool,
    }

    /// `irregularity.knocked_over` (2020 5.9). The one place its rule is decided: the
    /// arbiter's `outcome` and the clock simulator both ask [`KnockedOver::ruling`].
    pub(crate) struct KnockedOver {
        /// Pieces off their points that make a knock-over (碰乱).
        pub(crate) min_pieces: u32,
        /// Whether one piece knocked off the board is a knock-over too.
        pub(crate) off_board_counts: bool,
        /// After the press, an opponent with less than this left wins.
        pub(crate) opponent_under_minutes: u32,
        /// Otherwise the opponent gets this much more time.
        pub(crate) add_minutes: u32,
    }
}

/// 5.9's decision on pieces knocked over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KnockRuling {
    /// Too few pieces (and none off the board where that counts): no knock-over.
    TooFew,
    /// Before the clock press: the knocker puts them right in its own time, no penalty.
    OwnTime,
    /// After the press: the penalty.
    Penalty(KnockEffect),
}

/// What 5.9 does to a knock-over after pressing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KnockEffect {
    /// The opponent gets this many milliseconds more.
    TimeAdded(u64),
    /// The knocker loses (the opponent had less than the limit left).
    Loss,
}

impl KnockedOver {
    /// The ruling on `pieces` knocked over (`None`: not counted, taken as enough),
    /// `off_board` when one left the board, `after_press` when the knocker had pressed.
    /// After the press the ruling needs the opponent's time left (`opponent_left_ms`):
    /// `None` when it is not known.
    pub fn ruling(
        &self,
        pieces: Option<u32>,
        off_board: bool,
        after_press: bool,
        opponent_left_ms: Option<i64>,
    ) -> Option<KnockRuling> {
        if pieces.is_some_and(|p| p < self.min_pieces) && !(off_board && self.off_board_counts) {
            return Some(KnockRuling::TooFew);
        }
        if !after_press {
            return Some(KnockRuling::OwnTime);
        }
        let left = opponent_left_ms?;
        Some(KnockRuling::Penalty(
            if left < i64::from(self.opponent_under_minutes) * 60_000 {
                KnockEffect::Loss
            } else {
                KnockEffect::TimeAdded(u64::from(self.add_minutes) * 60_000)
            },
        ))
    }
}

shapes! {
    /// Who chooses the point of a piece left between two points.
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub(crate) enum Chooser {
        Opponent,
        Mover,
    }

    /// `irregularity.between_points`.
    pub(crate) struct BetweenPoints {
        pub(crate) chooser: Chooser,
    }

    /// `lateness.clock_runs`.
    pub(crate) struct ClockRuns {
        pub(crate) charge_late_time: bool,
    }
}
