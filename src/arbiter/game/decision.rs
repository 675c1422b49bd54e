//! What the arbiter decides at an event and the `outcome` answer: [`Decision`], [`By`], [`Ruling`],
//! [`Outcome`].

use super::*;

codes! {
    /// What the arbiter decides at one event.
    pub enum Decision {
        /// A foul (犯规) is charged.
        Foul => "foul",
        /// A foul is charged and waived (the fouling side resigned at once).
        FoulWaived => "foul_waived",
        /// The side loses (判负).
        Loss => "loss",
        /// The game is drawn.
        Draw => "draw",
        /// Both sides lose.
        BothLose => "both_lose",
        /// The game is void and replayed.
        Replay => "replay",
        /// The position is restored to where the error was made.
        Restore => "restore",
        /// The error was found too late: the game goes on from the position as it stands.
        ResultStands => "result_stands",
        /// Time is added to the side.
        AddTime => "add_time",
        /// Time is deducted from the side.
        DeductTime => "deduct_time",
        /// The side must change its moves (变着), on a 棋例 ruling.
        MustChange => "must_change",
        /// A touched piece (or the piece of an illegal move) binds the next move.
        MustMove => "must_move",
        /// A draw offer made too early is void.
        OfferVoid => "offer_void",
        /// A claim of the natural move limit (自然限着) that the count does not bear out.
        ClaimUntrue => "claim_untrue",
        /// The natural move limit is reached: the game is drawn.
        LimitReached => "limit_reached",
        /// The natural move limit is not reached.
        LimitNotReached => "limit_not_reached",
        /// No clause of the rule set deals with the event.
        NotRegulated => "not_regulated",
        /// The matter is left for later (a record completed when time allows).
        Deferred => "deferred",
        /// The rules leave the decision to a number the event sets and did not set.
        Undecided => "undecided",
        /// The piece is adjusted (摆正) without counting as touched.
        Adjusted => "adjusted",
        /// Adjusting the piece counts as touching it (摸子).
        CountsAsTouch => "counts_as_touch",
        /// No penalty (an accidental touch, too few pieces knocked over).
        NoPenalty => "no_penalty",
        /// A point is chosen for a piece, by the side the rules say chooses.
        Chosen => "chosen",
        /// A pending position (待判局面) ruled on: the verdict of the 棋例 and the cycle judged.
        PendingPosition => "pending_position",
    }
}

impl Decision {
    /// The decision as the protocol writes it (`foul`, `must_move` …).
    pub fn name(self) -> &'static str {
        self.code()
    }
}

/// Who found the repetition a decision rests on: the arbiter watching the board (the
/// positions of the moves played), or the arbiter's own ruling given as a `repetition` event
/// (an override).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// Found by watching the board.
    Board,
    /// Given by the arbiter (a `repetition` event).
    Arbiter,
}

impl By {
    /// `board` or `arbiter`.
    pub fn name(self) -> &'static str {
        match self {
            By::Board => "board",
            By::Arbiter => "arbiter",
        }
    }

    /// Who ruled, in an arbiter's words: `detected from the moves`, `ruled by the arbiter`.
    pub fn words(self) -> &'static str {
        match self {
            By::Board => "detected from the moves",
            By::Arbiter => "ruled by the arbiter",
        }
    }
}

/// One decision of the arbiter, at one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Index of the event in the list.
    pub event: usize,
    /// What the arbiter decides.
    pub decision: Decision,
    /// The clause that decides it.
    pub clause: Option<RuleRef>,
    /// The side it concerns.
    pub side: Option<Side>,
    /// Time added or deducted, or fouls charged (`count`).
    pub seconds: Option<u32>,
    /// Fouls counted for the side.
    pub count: Option<u32>,
    /// The touch-move step, or the rounds counted for the natural move limit.
    pub(crate) step: Option<String>,
    /// The rounds counted for the natural move limit.
    pub rounds: Option<u32>,
    /// The moves a touch-move obligation allows.
    pub moves: Option<Vec<String>>,
    /// A note in words (why, what was counted).
    pub note: Option<String>,
    /// For a decision that rests on a repetition: who found it.
    pub by: Option<By>,
    /// For a decision that rests on a 棋例 ruling of the board: what its verdict rests on.
    pub basis: Option<Basis>,
}

impl Ruling {
    pub(super) fn new(
        event: usize,
        decision: Decision,
        clause: Option<&RuleRef>,
        side: Option<Side>,
    ) -> Ruling {
        Ruling {
            event,
            decision,
            clause: clause.cloned(),
            side,
            seconds: None,
            count: None,
            step: None,
            rounds: None,
            moves: None,
            note: None,
            by: None,
            basis: None,
        }
    }

    pub(super) fn note(mut self, n: impl Into<String>) -> Ruling {
        self.note = Some(n.into());
        self
    }
}

impl crate::answer::ToAnswer<crate::answer::Decision> for Ruling {
    /// The ruling as the protocol's answer type (an item of `outcome.rulings`).
    fn answer(&self) -> crate::answer::Decision {
        let (basis, rests_on) = basis_fields(self.basis.as_ref());
        crate::answer::Decision {
            event: Some(self.event as u64),
            decision: self.decision.name().into(),
            clause: self.clause.as_ref().map(|c| c.clause.clone()),
            article: self.clause.as_ref().and_then(|c| c.article.clone()),
            side: self.side.map(|s| s.name().into()),
            seconds: self.seconds.map(u64::from),
            count: self.count.map(u64::from),
            rounds: self.rounds.map(u64::from),
            step: self.step.clone(),
            moves: self.moves.clone(),
            note: self.note.clone(),
            by: self.by.map(|b| b.name().into()),
            basis,
            rests_on,
        }
    }
}

/// `basis` and `rests_on` of an answer, where a decision rests on a 棋例 ruling.
pub(crate) fn basis_fields(basis: Option<&Basis>) -> (Option<String>, Option<Vec<String>>) {
    match basis {
        Some(b) => (Some(b.name().into()), Some(b.rests_on.clone())),
        None => (None, None),
    }
}

/// `basis` and `rests_on` of a decision that rests on a 棋例 ruling (PROTOCOL.md).
pub(crate) fn insert_basis(m: &mut Map<String, Value>, basis: Option<&Basis>) {
    if let Some(b) = basis {
        b.insert_into(m);
    }
}

/// The answer to `outcome`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How the game stands.
    pub result: GameResult,
    /// The clause that ended the game, and the index of the event at which it did.
    pub clause: Option<RuleRef>,
    /// The event at which the game ended.
    pub event: Option<usize>,
    /// Fouls charged to Red and Black (waived ones not counted).
    pub fouls: [u32; 2],
    /// Every ruling, in the order of the events.
    pub rulings: Vec<Ruling>,
    /// The position after the events.
    pub fen: String,
    /// When the game ended on a repetition: who found it.
    pub by: Option<By>,
    /// When the game ended on a 棋例 ruling of the board: what its verdict rests on.
    pub basis: Option<Basis>,
    /// With [`AfterEnd::Stop`]: the events after the end, left unjudged.
    pub continues: Option<Continues>,
}

impl crate::answer::ToAnswer<crate::answer::OutcomeAnswer> for Outcome {
    /// The protocol's answer, typed.
    fn answer(&self) -> crate::answer::OutcomeAnswer {
        let (basis, rests_on) = basis_fields(self.basis.as_ref());
        crate::answer::OutcomeAnswer {
            result: self.result.name().into(),
            clause: self.clause.as_ref().map(|c| c.clause.clone()),
            article: self.clause.as_ref().and_then(|c| c.article.clone()),
            event: self.event.map(|e| e as u64),
            fouls: crate::answer::PerSide {
                red: self.fouls[0].into(),
                black: self.fouls[1].into(),
            },
            rulings: self.rulings.iter().map(Ruling::answer).collect(),
            fen: self.fen.clone(),
            continues: self.continues,
            by: self.by.map(|b| b.name().into()),
            basis,
            rests_on,
        }
    }
}
