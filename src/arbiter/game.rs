//! The `outcome` query: a game's events, one after another, as the arbiter sees them.
//!
//! Each event is checked against the position and the state of the game (a move must be
//! legal and keep a touch-move obligation; a claim must come from the side to move; nothing
//! may follow the end of the game …) and turned into observations ([`Trigger`]s). Every
//! observation is matched against the foul clauses (which charge fouls) and the result
//! clauses (which end the game once the observation has occurred as often as they say, in
//! the game or in the current phase of the natural move limit). When several clauses end
//! the game at one event, the one of the lowest article decides.

use serde_json::{json, Map, Value};

use super::data::{
    ChecksOf, Chooser, ClaimBy, IllegalClass, KnockEffect, KnockRuling, Remedy, Requirement,
    ResultKind, Span, Trigger,
};
use super::events::{self, Event, Finding, Verdict};
use super::touch::{self, Touched};
use super::{
    cite, parse_iccs, AfterEnd, ArbiterError, ArbiterRules, Continues, FoulCount, RejectKind,
    RuleRef,
};
use crate::board::{GameResult, Move, Side, Square};
use crate::repetition::readings::Basis;
use crate::repetition::RepetitionRules;
use crate::vm::{IllegalReason, Placement, Position, Rules, Status};

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

/// The events of a forecast (`Game::forecast`) are numbered from here.
const FORECAST_EVENTS: usize = usize::MAX / 2;

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
    fn new(
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

    fn note(mut self, n: impl Into<String>) -> Ruling {
        self.note = Some(n.into());
        self
    }

    /// The ruling as the protocol's JSON object.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("event".into(), json!(self.event));
        m.insert("decision".into(), json!(self.decision.name()));
        cite(&mut m, self.clause.as_ref());
        if let Some(s) = self.side {
            m.insert("side".into(), json!(s.name()));
        }
        for (k, v) in [
            ("seconds", self.seconds),
            ("count", self.count),
            ("rounds", self.rounds),
        ] {
            if let Some(v) = v {
                m.insert(k.into(), json!(v));
            }
        }
        if let Some(s) = &self.step {
            m.insert("step".into(), json!(s));
        }
        if let Some(l) = &self.moves {
            m.insert("moves".into(), json!(l));
        }
        if let Some(n) = &self.note {
            m.insert("note".into(), json!(n));
        }
        if let Some(b) = self.by {
            m.insert("by".into(), json!(b.name()));
        }
        insert_basis(&mut m, self.basis.as_ref());
        Value::Object(m)
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

impl Outcome {
    /// The protocol's answer object (field `outcome`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("result".into(), json!(self.result.name()));
        cite(&mut m, self.clause.as_ref());
        m.insert("event".into(), self.event.map_or(Value::Null, |e| json!(e)));
        m.insert(
            "fouls".into(),
            json!({"red": self.fouls[0], "black": self.fouls[1]}),
        );
        m.insert(
            "rulings".into(),
            Value::Array(self.rulings.iter().map(Ruling::to_json).collect()),
        );
        m.insert("fen".into(), json!(self.fen));
        if let Some(c) = self.continues {
            m.insert("continues".into(), json!({"from": c.from, "left": c.left}));
        }
        if let Some(b) = self.by {
            m.insert("by".into(), json!(b.name()));
        }
        insert_basis(&mut m, self.basis.as_ref());
        Value::Object(m)
    }
}

/// Something observed, kept to count later occurrences.
#[derive(Clone, Debug)]
struct Occurrence {
    trigger: Trigger,
    side: Option<Side>,
    classes: Vec<IllegalClass>,
    phase: u32,
}

/// Facts an observation brings for the foul clauses that count in their own way.
#[derive(Clone, Copy, Debug, Default)]
struct Detail {
    /// Draw offers: the offerer's offers minus the opponent's, and whether its last offer was refused.
    excess: u32,
    was_refused: bool,
    /// Unrecorded moves: how many, what kind of fault, time left.
    moves: u32,
    fault: Option<super::data::RecordFault>,
    remaining_seconds: Option<u32>,
}

/// A clause that would end the game at the current event.
#[derive(Clone, Debug)]
struct Candidate {
    clause: RuleRef,
    result: ResultKind,
    side: Option<Side>,
}

#[derive(Clone, Debug)]
pub(crate) struct End {
    pub result: GameResult,
    pub clause: RuleRef,
    pub event: usize,
    pub by: Option<By>,
    pub basis: Option<Basis>,
}

/// The positions since the last capture (a position before a capture cannot come back
/// after it): the first, where the phase began, in full; after it only the placement and key
/// of each, and the moves between (the positions themselves are replayed when a ruling needs
/// them).
#[derive(Clone, Debug)]
pub(crate) struct History {
    start: Position,
    placements: Vec<Placement>,
    keys: Vec<u64>,
    pub moves: Vec<Move>,
    /// Plies of the game before the first position.
    pub ply0: usize,
    /// Index of the last position ruled on as pending.
    ruled_at: Option<usize>,
}

impl History {
    fn new(pos: &Position, ply0: usize) -> History {
        History {
            start: pos.clone(),
            placements: vec![pos.placement()],
            keys: vec![pos.placement_key()],
            moves: Vec::new(),
            ply0,
            ruled_at: None,
        }
    }

    fn push(&mut self, m: Move, pos: &Position) {
        self.moves.push(m);
        self.placements.push(pos.placement());
        self.keys.push(pos.placement_key());
    }

    fn pop(&mut self) {
        if self.moves.pop().is_some() {
            self.placements.pop();
            self.keys.pop();
        }
    }

    /// How many positions the history holds.
    fn len(&self) -> usize {
        self.placements.len()
    }

    /// Every position of the history, replayed from the first.
    pub fn positions(&self, vm: &Rules) -> Vec<Position> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.len());
        out.push(pos.clone());
        for &m in &self.moves {
            pos.make(vm, m);
            out.push(pos.clone());
        }
        out
    }

    /// Whether the positions after plies `a` and `b` are the same (the key first, cheap).
    fn same(&self, a: usize, b: usize) -> bool {
        self.keys[a] == self.keys[b] && self.placements[a] == self.placements[b]
    }

    /// How often the last position stood before, from index `from` on.
    fn returns(&self, from: usize) -> usize {
        let k = self.len() - 1;
        (from..k).filter(|&j| self.same(j, k)).count()
    }

    /// The length in plies of the cycle the last position closes: the plies since it last
    /// stood (`None`: it stands for the first time).
    fn cycle(&self) -> Option<usize> {
        let k = self.len() - 1;
        (0..k).rev().find(|&j| self.same(j, k)).map(|j| k - j)
    }

    /// Whether the position at index `j` stands where it stood a cycle of `cycle` plies
    /// before: the repetition goes on.
    fn goes_on(&self, j: usize, cycle: usize) -> bool {
        j >= cycle && self.same(j, j - cycle)
    }

    /// Every position that has stood more than once: its index of first standing and how
    /// many times.
    pub fn repeated(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for j in 0..self.len() {
            let first = (0..j).find(|&f| self.same(f, j));
            match first.and_then(|f| out.iter_mut().find(|(g, _)| *g == f)) {
                Some(e) => e.1 += 1,
                None if first.is_none() => out.push((j, 1)),
                None => {}
            }
        }
        out.retain(|&(_, n)| n > 1);
        out
    }
}

/// A 棋例 ruling waiting for its rounds to change (`rounds_to_change` of
/// `result.change_refused` or `result.repetition_draw`): when the repetition goes on to the
/// end of them, the ruling takes effect; a position off the cycle before lifts it.
#[derive(Clone, Debug)]
struct Deadline {
    /// History index at which the rounds are up.
    at: usize,
    /// The cycle's length in plies.
    cycle: usize,
    /// The side ordered to change and the clause of the order; `None`: a draw, either side
    /// may change.
    order: Option<(Side, RuleRef)>,
    /// Who found the repetition, and what the board's verdict rests on.
    by: By,
    basis: Option<Basis>,
}

#[derive(Clone)]
pub(crate) struct Game<'a> {
    rules: &'a ArbiterRules,
    vm: &'a Rules,
    pos: Position,
    /// Phase of the natural move limit (increments at each capture), and per side the moves
    /// and the checks given since the last capture.
    phase: u32,
    since_capture: [u32; 2],
    checks: [u32; 2],
    occurrences: Vec<Occurrence>,
    fouls: [u32; 2],
    /// Fouls charged at the last event: (event, side, count).
    last_fouls: Option<(usize, Side, u32)>,
    offers: [u32; 2],
    pending_offer: Option<Side>,
    /// The side's last offer was refused and the opponent has not offered since.
    refused: [bool; 2],
    /// A side ordered to change its moves, and the clause that ordered it.
    orders: [Option<RuleRef>; 2],
    /// A ruling waiting for its rounds to change.
    deadline: Option<Deadline>,
    /// Pieces touched by each side since its last move, whether at once, and touches whose
    /// foul is judged when the side is next to move.
    touches: [Vec<Square>; 2],
    simultaneous: [bool; 2],
    deferred_touches: [Vec<Square>; 2],
    late_seen: bool,
    moved: [bool; 2],
    end: Option<End>,
    candidates: Vec<Candidate>,
    rulings: Vec<Ruling>,
    /// The 棋例 rules the board is watched with (`None`: repetitions come only as
    /// `repetition` events).
    rep: Option<&'a RepetitionRules>,
    pub(crate) history: History,
    /// Plies played.
    plies: usize,
    /// Declare the natural move limit as soon as it is reached (adjudicating a record).
    declare_limit: bool,
    /// Who found the repetition ruled on at an event, and, when the board ruled a cycle,
    /// what its verdict rests on.
    by: Option<(usize, By, Option<Basis>)>,
}

fn classes_match(rule: &[IllegalClass], seen: &[IllegalClass]) -> bool {
    rule.is_empty() || seen.iter().any(|c| rule.contains(c))
}

impl<'a> Game<'a> {
    pub fn new(rules: &'a ArbiterRules, vm: &'a Rules, pos: Position) -> Game<'a> {
        // The FEN's halfmove counter: plies without a capture before the first event, the
        // last of them by the side not to move; none of them is known to be a check.
        let h = pos.halfmove_clock();
        let stm = pos.side_to_move().index();
        let mut since_capture = [0; 2];
        since_capture[stm] = h / 2;
        since_capture[1 - stm] = h - h / 2;
        let history = History::new(&pos, 0);
        Game {
            rules,
            vm,
            pos,
            phase: 0,
            since_capture,
            checks: [0; 2],
            occurrences: Vec::new(),
            fouls: [0; 2],
            last_fouls: None,
            offers: [0; 2],
            pending_offer: None,
            refused: [false; 2],
            orders: [None, None],
            deadline: None,
            touches: [Vec::new(), Vec::new()],
            simultaneous: [false; 2],
            deferred_touches: [Vec::new(), Vec::new()],
            late_seen: false,
            moved: [false; 2],
            end: None,
            candidates: Vec::new(),
            rulings: Vec::new(),
            rep: None,
            history,
            plies: 0,
            declare_limit: false,
            by: None,
        }
    }

    /// Watches the board with these 棋例 rules: a position that comes back as often as
    /// `repetition.cycle` says is ruled on.
    pub fn watching(mut self, rep: Option<&'a RepetitionRules>) -> Game<'a> {
        self.rep = rep;
        self
    }

    /// Declares the natural move limit once it is reached, as a claim of the side to move
    /// would find it (a record adjudicated from its moves alone).
    pub fn declaring_limit(mut self) -> Game<'a> {
        self.declare_limit = true;
        self
    }

    /// Plays one move of a record and decides; `Ok(true)` once the game is over. A move
    /// `known_legal` (a replayed record's, checked by the replay) is not checked again.
    pub fn record_move(
        &mut self,
        i: usize,
        m: Move,
        known_legal: bool,
    ) -> Result<bool, ArbiterError> {
        // A move said to be legal is still refused, never played, when no piece of the side
        // to move stands on its first point.
        if known_legal
            && self
                .pos
                .piece_at(m.from)
                .is_some_and(|p| p.side == self.stm())
        {
            self.advance(i, m);
        } else {
            self.play(i, m)?;
        }
        self.decide(i);
        Ok(self.end.is_some())
    }

    /// How the game ended, if it did.
    pub(crate) fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// The position now.
    pub(crate) fn position(&self) -> &Position {
        &self.pos
    }

    /// The sides under an order to change, with the clause that ordered it.
    pub(crate) fn orders(&self) -> &[Option<RuleRef>; 2] {
        &self.orders
    }

    /// The rounds counted for the natural move limit, were the side to move to claim, and
    /// the limit, if the rules have one.
    pub(crate) fn limit_count(&self) -> Option<(u32, u32)> {
        let (_, nl) = self.rules.natural_limit.as_ref()?;
        Some((self.limit_rounds(Some(self.stm())), nl.rounds))
    }

    pub fn run(mut self, evs: &[Event], after_end: AfterEnd) -> Result<Outcome, ArbiterError> {
        let continues = self.run_events(evs, after_end)?;
        Ok(self.outcome(continues))
    }

    /// Judges the events one after another; with [`AfterEnd::Stop`] the events after the
    /// end are left unjudged and counted. A refusal names the event.
    pub(crate) fn run_events(
        &mut self,
        evs: &[Event],
        after_end: AfterEnd,
    ) -> Result<Option<Continues>, ArbiterError> {
        for (i, ev) in evs.iter().enumerate() {
            match self.event(i, ev) {
                Err(ArbiterError::Reject {
                    kind: RejectKind::EventsAfterEnd,
                    ..
                }) if after_end == AfterEnd::Stop => {
                    return Ok(Some(Continues {
                        from: i,
                        left: evs.len() - i,
                    }));
                }
                r => r.map_err(|e| e.at(&format!("events[{i}] ({})", ev.name())))?,
            }
            self.decide(i);
        }
        Ok(None)
    }

    /// The outcome of the events judged so far.
    pub(crate) fn outcome(&self, continues: Option<Continues>) -> Outcome {
        let (result, clause, event, by, basis) = match &self.end {
            Some(e) => (
                e.result,
                Some(e.clause.clone()),
                Some(e.event),
                e.by,
                e.basis.clone(),
            ),
            None => (GameResult::Ongoing, None, None, None, None),
        };
        Outcome {
            result,
            clause,
            event,
            fouls: self.fouls,
            rulings: self.rulings.clone(),
            fen: self.pos.to_fen(self.vm),
            by,
            basis,
            continues,
        }
    }

    /// The point of the general of the side to move when it is in check.
    pub(crate) fn checked_general(&self) -> Option<Square> {
        if self.pos.in_check(self.vm) {
            self.pos.royal_point(self.vm, self.stm())
        } else {
            None
        }
    }

    /// What the board would decide if the moves that brought the current position back
    /// (since it last stood) were played again and again, up to the first decision: the
    /// game is copied and the cycle replayed on the copy, so the answer is the board's own
    /// (`repetition.cycle`'s counts, the 棋例 verdict, the orders and what breaking one
    /// costs). `None` when the position has not stood before since the last capture, the
    /// game is over, or the rules watch no board.
    pub(crate) fn forecast(&self) -> Option<super::adjudicate::Next> {
        let rep = self.rep?;
        let pending = rep.pending()?;
        if self.end.is_some() {
            return None;
        }
        let h = &self.history;
        let k = h.len() - 1;
        let j = (0..k).rev().find(|&j| h.same(j, k))?;
        let cycle = h.moves[j..k].to_vec();
        let mut g = self.clone();
        let before = g.rulings.len();
        // However the counts fall, a decision comes within this many cycles.
        let most = (pending.cycles.max(pending.after_ruling) as usize + 1) * cycle.len();
        for (played, &m) in (1..=most).zip(cycle.iter().cycle()) {
            // Far beyond any event of the game: the copy's rulings are not the game's.
            let event = FORECAST_EVENTS + played;
            g.record_move(event, m, true).ok()?;
            if g.rulings.len() > before || g.end.is_some() {
                let gh = &g.history;
                let last = gh.len() - 1;
                let times = (0..=last).filter(|&x| gh.same(x, last)).count();
                return Some(super::adjudicate::Next {
                    cycle: cycle.len(),
                    plies: played,
                    ply: self.plies + played,
                    times,
                    rule: pending.rule.clone(),
                    rulings: g.rulings[before..].to_vec(),
                    result: g.end.as_ref().map_or(GameResult::Ongoing, |e| e.result),
                    clause: g.end.as_ref().map(|e| e.clause.clone()),
                });
            }
        }
        None
    }

    fn stm(&self) -> Side {
        self.pos.side_to_move()
    }

    fn rule(&mut self, mut r: Ruling) {
        if let Some((e, by, basis)) = &self.by {
            if *e == r.event {
                r.by = Some(*by);
                r.basis = basis.clone();
            }
        }
        self.rulings.push(r);
    }

    fn event(&mut self, i: usize, ev: &Event) -> Result<(), ArbiterError> {
        let waiving = matches!(ev, Event::Resign(s) if self.rules.waiver.is_some()
            && self.last_fouls.is_some_and(|(e, side, _)| e + 1 == i && side == (*s).into()));
        if let Some(end) = &self.end {
            if !waiving {
                return Err(ArbiterError::reject(
                    RejectKind::EventsAfterEnd,
                    format!(
                        "the game ended at events[{}] ({})",
                        end.event, end.clause.clause
                    ),
                ));
            }
        }
        self.judge_deferred_touches(i);
        match ev {
            Event::Move(text) => {
                let m = parse_iccs(text)?;
                self.play(i, m)
            }
            Event::IllegalMove(e) => self.illegal_move(i, &e.mv, e.found_after_rounds),
            Event::Touch(t) => self.touch(i, t.side.into(), &t.points, t.simultaneous),
            Event::Adjust(a) => self.adjust(i, a),
            Event::OfferDraw(s) => {
                self.offer(i, (*s).into());
                Ok(())
            }
            Event::AcceptDraw(s) | Event::DeclineDraw(s) => {
                let s: Side = (*s).into();
                if self.pending_offer != Some(s.opponent()) {
                    return Err(ArbiterError::reject(
                        RejectKind::EventsNoPendingOffer,
                        format!("{} has no draw offer to answer", s.name()),
                    ));
                }
                self.pending_offer = None;
                if matches!(ev, Event::AcceptDraw(_)) {
                    self.fire(i, Trigger::DrawAgreed, None, &[], Detail::default());
                } else {
                    self.refused[s.opponent().index()] = true;
                }
                Ok(())
            }
            Event::ClaimNaturalLimit(s) => self.natural_limit(i, Some((*s).into())),
            Event::Arbiter(Finding::NaturalLimit) => self.natural_limit(i, None),
            Event::Arbiter(Finding::SimplePosition) => {
                self.fire(i, Trigger::SimplePosition, None, &[], Detail::default());
                Ok(())
            }
            Event::Repetition(v) => {
                self.by = Some((i, By::Arbiter, None));
                self.repetition(i, *v);
                Ok(())
            }
            Event::PressWithoutMove(s) => {
                let s: Side = (*s).into();
                if s != self.stm() {
                    return Err(not_on_move(s, "press the clock without moving"));
                }
                self.fire(
                    i,
                    Trigger::PressWithoutMove,
                    Some(s),
                    &[],
                    Detail::default(),
                );
                Ok(())
            }
            Event::Flag(s) => self.simple(i, Trigger::FlagFall, *s),
            Event::StopClock(s) => self.simple(i, Trigger::ClockTampering, *s),
            Event::Disturb(s) => self.simple(i, Trigger::Disturbing, *s),
            Event::PlayerRules(s) => self.simple(i, Trigger::PlayerRules, *s),
            Event::RefuseRules(s) => self.simple(i, Trigger::RefusingRules, *s),
            Event::Resign(s) => {
                if waiving {
                    self.waive(i, (*s).into());
                }
                self.simple(i, Trigger::Resignation, *s)
            }
            Event::Late(l) => self.late(i, [l.red, l.black]),
            Event::Unrecorded(u) => {
                let d = Detail {
                    moves: u.moves,
                    fault: Some(u.kind),
                    remaining_seconds: u.remaining_seconds,
                    ..Detail::default()
                };
                self.fire(i, Trigger::UnrecordedMoves, Some(u.side.into()), &[], d);
                Ok(())
            }
            Event::ColoursReversed(c) => {
                self.colours(i, c.found_after_seconds);
                Ok(())
            }
            Event::Displaced(d) => self.displaced(i, &d.from, &d.to, d.found_after_rounds),
            Event::KnockOver(k) => self.knock_over(i, k),
            Event::BetweenPoints(b) => self.between(i, b),
        }
    }

    fn simple(
        &mut self,
        i: usize,
        t: Trigger,
        s: super::data::SideName,
    ) -> Result<(), ArbiterError> {
        self.fire(i, t, Some(s.into()), &[], Detail::default());
        Ok(())
    }

    // ------------------------------------------------------------ rules applied

    /// Records an observation, charges the fouls it is, and lists the result clauses it
    /// completes. An observation no clause speaks of is ruled `not_regulated`.
    fn fire(
        &mut self,
        i: usize,
        t: Trigger,
        side: Option<Side>,
        classes: &[IllegalClass],
        d: Detail,
    ) {
        self.occurrences.push(Occurrence {
            trigger: t,
            side,
            classes: classes.to_vec(),
            phase: self.phase,
        });
        let rules = self.rules;
        let mut regulated = false;
        for f in rules
            .fouls
            .iter()
            .filter(|f| f.when == t && classes_match(&f.classes, classes))
        {
            regulated = true;
            let n = match &f.count {
                FoulCount::Each => 1,
                FoulCount::OfferExcess(e) => u32::from(d.excess >= *e),
                FoulCount::OfferRepeatedAfterDecline => u32::from(d.was_refused),
                FoulCount::Unrecorded {
                    every,
                    max,
                    counts,
                    deferred_below_seconds,
                } => {
                    if !d.fault.is_some_and(|k| counts.contains(&k)) {
                        self.rule(
                            Ruling::new(i, Decision::NotRegulated, Some(&f.clause), side)
                                .note("this kind of record fault is not counted as unrecorded"),
                        );
                        0
                    } else if let (Some(below), Some(left)) =
                        (deferred_below_seconds, d.remaining_seconds)
                    {
                        if left < *below {
                            self.rule(
                                Ruling::new(i, Decision::Deferred, Some(&f.clause), side)
                                    .note("little time left: the record may be completed later"),
                            );
                            0
                        } else {
                            (d.moves / every).min(max.unwrap_or(u32::MAX))
                        }
                    } else {
                        (d.moves / every).min(max.unwrap_or(u32::MAX))
                    }
                }
            };
            if let (Some(s), true) = (side, n > 0) {
                self.charge_foul(i, s, &f.clause, n);
            }
        }
        for r in rules.results.iter().filter(|r| r.when == t) {
            regulated = true;
            if t == Trigger::LateArrival && r.limit_minutes.is_none() {
                continue;
            }
            self.check_result(r, side);
        }
        if !regulated {
            self.rule(
                Ruling::new(i, Decision::NotRegulated, None, side).note(format!(
                    "no clause of this rule set deals with `{}`",
                    t.name()
                )),
            );
        }
    }

    /// Whether result clause `r` is met for `side` by the occurrences so far.
    fn check_result(&mut self, r: &super::ResultRuleC, side: Option<Side>) {
        let n = self
            .occurrences
            .iter()
            .filter(|o| {
                o.trigger == r.when && o.side == side && classes_match(&r.classes, &o.classes)
            })
            .filter(|o| r.span == Span::Game || o.phase == self.phase)
            .count() as u32;
        if n >= r.times {
            self.candidates.push(Candidate {
                clause: r.clause.clone(),
                result: r.result,
                side,
            });
        }
    }

    fn charge_foul(&mut self, i: usize, s: Side, clause: &RuleRef, n: u32) {
        self.fouls[s.index()] += n;
        let mut r = Ruling::new(i, Decision::Foul, Some(clause), Some(s));
        r.count = Some(n);
        self.rule(r);
        self.last_fouls = match self.last_fouls {
            Some((e, side, m)) if e == i && side == s => Some((i, s, m + n)),
            _ => Some((i, s, n)),
        };
        for _ in 0..n {
            self.occurrences.push(Occurrence {
                trigger: Trigger::Foul,
                side: Some(s),
                classes: Vec::new(),
                phase: self.phase,
            });
        }
        let rules = self.rules;
        for r in rules.results.iter().filter(|r| r.when == Trigger::Foul) {
            self.check_result(r, Some(s));
        }
    }

    /// 8.2: the fouls charged at the previous event are waived by an immediate resignation.
    fn waive(&mut self, i: usize, s: Side) {
        let Some((_, _, n)) = self.last_fouls.take() else {
            return;
        };
        self.fouls[s.index()] -= n;
        let mut left = n;
        self.occurrences.retain(|o| {
            let drop = left > 0 && o.trigger == Trigger::Foul && o.side == Some(s);
            left -= u32::from(drop);
            !drop
        });
        let mut r = Ruling::new(i, Decision::FoulWaived, self.rules.waiver.as_ref(), Some(s));
        r.count = Some(n);
        self.rule(r);
        self.end = None;
    }

    /// Ends the game by the candidate of the lowest article, if any.
    fn decide(&mut self, i: usize) {
        if self.candidates.is_empty() || self.end.is_some() {
            self.candidates.clear();
            return;
        }
        let cands = std::mem::take(&mut self.candidates);
        let losers = |s: Side| {
            cands
                .iter()
                .any(|c| c.result == ResultKind::Loss && c.side == Some(s))
        };
        let both = cands.iter().find(|c| c.result == ResultKind::BothLose);
        let first = cands
            .iter()
            .min_by(|a, b| a.clause.article_order().cmp(&b.clause.article_order()))
            .expect("not empty");
        let (result, clause, side) = if both.is_some() || (losers(Side::Red) && losers(Side::Black))
        {
            let c = both.unwrap_or(first);
            (GameResult::BothLose, c.clause.clone(), None)
        } else {
            match first.result {
                ResultKind::Draw => (GameResult::Draw, first.clause.clone(), None),
                ResultKind::BothLose => (GameResult::BothLose, first.clause.clone(), None),
                ResultKind::Loss => match first.side {
                    Some(s) => (
                        GameResult::win_for(s.opponent()),
                        first.clause.clone(),
                        Some(s),
                    ),
                    None => (GameResult::BothLose, first.clause.clone(), None),
                },
            }
        };
        let decision = match result {
            GameResult::Draw => Decision::Draw,
            GameResult::BothLose => Decision::BothLose,
            GameResult::Replay => Decision::Replay,
            _ => Decision::Loss,
        };
        self.rule(Ruling::new(i, decision, Some(&clause), side));
        let (by, basis) = match &self.by {
            Some((e, by, basis)) if *e == i => (Some(*by), basis.clone()),
            _ => (None, None),
        };
        self.end = Some(End {
            result,
            clause,
            event: i,
            by,
            basis,
        });
    }

    /// Ends the game at once by a clause that is not a `result.*` clause (5.8.1, 5.9, 4.3).
    fn end_by(&mut self, clause: &RuleRef, result: ResultKind, side: Option<Side>) {
        self.candidates.push(Candidate {
            clause: clause.clone(),
            result,
            side,
        });
    }

    // ------------------------------------------------------------ moves

    /// Plays a legal move of the side to move, keeping its touch-move obligation.
    fn play(&mut self, i: usize, m: Move) -> Result<(), ArbiterError> {
        let mover = self.stm();
        self.pos.check_move(self.vm, m).map_err(|e| {
            ArbiterError::reject(
                RejectKind::MoveIllegal,
                format!(
                    "{e} (an illegal move the arbiter must rule on is an `illegal_move` event)"
                ),
            )
        })?;
        if !self.touches[mover.index()].is_empty() {
            let touched = self.current_touches(mover);
            if !touched.is_empty() {
                let ob = touch::obligation(
                    self.rules,
                    self.vm,
                    &self.pos,
                    &touched,
                    self.simultaneous[mover.index()],
                )?;
                if !ob.permits(m) {
                    return Err(ArbiterError::reject(
                        RejectKind::EventsTouchObligation,
                        format!(
                            "{m} breaks the touch-move obligation of {} ({}): allowed {}",
                            ob.step,
                            ob.clause.clause,
                            ob.moves_iccs().join(" ")
                        ),
                    ));
                }
            }
        }
        self.advance(i, m);
        Ok(())
    }

    /// The touches of `side` still standing on their pieces, with their roles.
    fn current_touches(&self, side: Side) -> Vec<Touched> {
        self.touches[side.index()]
            .iter()
            .filter_map(|&p| touch::touched(&self.pos, p).ok())
            .filter(|t| side == self.stm() || t.role == super::data::Role::Own)
            .collect()
    }

    /// Makes a move that stands (checked or not) and updates the counts that follow moves.
    fn advance(&mut self, i: usize, m: Move) {
        let mover = self.stm();
        let undo = self.pos.make(self.vm, m);
        self.touches[mover.index()].clear();
        self.simultaneous[mover.index()] = false;
        self.moved[mover.index()] = true;
        if self.pending_offer == Some(mover.opponent())
            && self
                .rules
                .offer
                .as_ref()
                .is_some_and(|(_, o)| o.declined_by_move)
        {
            self.pending_offer = None;
            self.refused[mover.opponent().index()] = true;
        }
        self.plies += 1;
        if undo.captured().is_some() {
            self.phase += 1;
            self.since_capture = [0; 2];
            self.checks = [0; 2];
            self.orders = [None, None];
            self.deadline = None;
            self.history = History::new(&self.pos, self.plies);
        }
        let in_check = self.pos.in_check(self.vm);
        if undo.captured().is_none() {
            self.history.push(m, &self.pos);
            self.since_capture[mover.index()] += 1;
            if in_check {
                self.checks[mover.index()] += 1;
            }
        }
        let stm = self.stm();
        match self.pos.status_in_check(self.vm, in_check) {
            Status::Checkmate => {
                self.fire(i, Trigger::Checkmated, Some(stm), &[], Detail::default())
            }
            Status::Stalemate => {
                self.fire(i, Trigger::Stalemated, Some(stm), &[], Detail::default())
            }
            _ => {
                if self.deadline.is_some() {
                    self.watch_deadline(i);
                } else {
                    self.watch_board(i);
                }
                if self.declare_limit && self.candidates.is_empty() && self.end.is_none() {
                    self.declare_natural_limit(i);
                }
            }
        }
    }

    /// A position that has come back as often as `repetition.cycle` says (after a ruling:
    /// as often again as it says) is pending (待判局面): the 棋例 rule on the last cycle, and
    /// the verdict is applied as a `repetition` event's would be.
    fn watch_board(&mut self, i: usize) {
        let Some(rep) = self.rep else { return };
        let Some(p) = rep.pending() else { return };
        if self.end.is_some() || !self.candidates.is_empty() {
            return;
        }
        let h = &self.history;
        let (from, need) = match h.ruled_at {
            Some(r) => (r, p.after_ruling),
            None => (0, p.cycles),
        };
        if h.returns(from) < need as usize {
            return;
        }
        let positions = h.positions(self.vm);
        let ruling = crate::repetition::rule_line(self.vm, rep, &positions, &h.moves);
        self.history.ruled_at = Some(self.history.len() - 1);
        let cycle = ruling
            .cycle
            .map(|(a, b)| format!("plies {}–{}", a + self.history.ply0, b + self.history.ply0))
            .unwrap_or_default();
        let sides = ruling
            .patterns
            .as_ref()
            .map(|ps| {
                Side::BOTH
                    .iter()
                    .map(|s| {
                        let p = &ps[s.index()];
                        format!(
                            "{} {} ({})",
                            s.name(),
                            p.zh,
                            crate::repetition::ruling::status_name(p.status)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        let verdict_rule = if ruling.verdict == Verdict::None {
            None
        } else {
            ruling.clauses.last()
        };
        let note = format!(
            "{cycle} repeat ({}): {sides}; verdict {}",
            p.rule.clause,
            ruling.verdict.name()
        );
        self.by = Some((i, By::Board, Some(ruling.basis.clone())));
        self.rule(Ruling::new(i, Decision::PendingPosition, verdict_rule, None).note(note));
        self.repetition(i, ruling.verdict);
    }

    /// A ruling waiting for its rounds to change: a position off the cycle lifts it (a side
    /// changed); the repetition gone on to the end of the rounds, the ruling takes effect.
    fn watch_deadline(&mut self, i: usize) {
        let Some(d) = self.deadline.clone() else {
            return;
        };
        let j = self.history.len() - 1;
        if !self.history.goes_on(j, d.cycle) {
            self.deadline = None;
            return;
        }
        if j < d.at {
            return;
        }
        self.deadline = None;
        self.by = Some((i, d.by, d.basis));
        match d.order {
            Some((s, clause)) => self.refused(i, s, &clause),
            None => self.fire(i, Trigger::RepetitionDraw, None, &[], Detail::default()),
        }
    }

    /// The rounds to change of the result clause observing `when`, and its clause, when the
    /// rule set gives them.
    fn rounds_to_change(&self, when: Trigger) -> Option<(u32, RuleRef)> {
        self.rules
            .results
            .iter()
            .find(|r| r.when == when)
            .and_then(|r| r.rounds_to_change.map(|n| (n, r.clause.clone())))
    }

    /// Waits `rounds` rounds for a change before the ruling takes effect, when the last
    /// position closes a cycle on the board; `false` when none does (the ruling of an
    /// arbiter's `repetition` event on moves that do not repeat).
    fn wait(&mut self, i: usize, rounds: u32, order: Option<(Side, RuleRef)>) -> bool {
        let Some(cycle) = self.history.cycle() else {
            return false;
        };
        let (by, basis) = match &self.by {
            Some((e, by, basis)) if *e == i => (*by, basis.clone()),
            _ => (By::Arbiter, None),
        };
        self.deadline = Some(Deadline {
            at: self.history.len() - 1 + 2 * rounds as usize,
            cycle,
            order,
            by,
            basis,
        });
        true
    }

    /// The natural move limit reached: declared as a claim of the side to move would find it.
    fn declare_natural_limit(&mut self, i: usize) {
        let Some((c, nl)) = self.rules.natural_limit.as_ref() else {
            return;
        };
        let rounds = self.limit_rounds(Some(self.stm()));
        if rounds < nl.rounds {
            return;
        }
        let mut r = Ruling::new(i, Decision::LimitReached, Some(c), None)
            .note(format!("{rounds} of {} rounds counted", nl.rounds));
        r.rounds = Some(rounds);
        self.rule(r);
        self.fire(i, Trigger::NaturalLimit, None, &[], Detail::default());
    }

    /// The rounds counted for the natural move limit on a claim by `claimant` (or the
    /// arbiter's count, `None`): the fewer of the two sides' moves since the last capture,
    /// less the checks beyond those counted.
    fn limit_rounds(&self, claimant: Option<Side>) -> u32 {
        let Some((_, nl)) = self.rules.natural_limit.as_ref() else {
            return 0;
        };
        let capped = |s: Side| match (claimant, nl.checks_of) {
            (Some(cl), ChecksOf::Claimant) => cl == s,
            _ => true,
        };
        Side::BOTH
            .iter()
            .map(|&s| {
                self.since_capture[s.index()]
                    - if capped(s) {
                        self.checks[s.index()].saturating_sub(nl.checks_counted)
                    } else {
                        0
                    }
            })
            .min()
            .unwrap_or(0)
    }

    fn illegal_move(&mut self, i: usize, text: &str, found_after: u32) -> Result<(), ArbiterError> {
        let m = parse_iccs(text)?;
        let mover = self.stm();
        let classes: Vec<IllegalClass> = match self.pos.check_move(self.vm, m) {
            Ok(()) => {
                return Err(ArbiterError::reject(
                    RejectKind::EventsNotIllegal,
                    format!("{m} is a legal move; give it as a `move` event"),
                ));
            }
            Err(e) => match e.reason {
                IllegalReason::NoPiece => {
                    return Err(ArbiterError::reject(
                        RejectKind::EventsImpossible,
                        format!("no piece stands on {}", m.from),
                    ));
                }
                IllegalReason::NotYourPiece | IllegalReason::NotAMove => {
                    vec![IllegalClass::NotAMove]
                }
                IllegalReason::SelfKill => {
                    let mut after = self.pos.clone();
                    after.make(self.vm, m);
                    let (attacked, facing) = after.self_kill_conditions(self.vm, mover);
                    [
                        (attacked, IllegalClass::OwnRoyalAttacked),
                        (facing, IllegalClass::RoyalsFacing),
                    ]
                    .into_iter()
                    .filter_map(|(b, c)| b.then_some(c))
                    .collect()
                }
            },
        };
        let finding = self
            .rules
            .illegal
            .as_ref()
            .filter(|(_, f)| classes_match(&f.classes, &classes));
        if let Some((c, f)) = finding {
            if f.within_rounds.is_some_and(|w| found_after > w) {
                let c = c.clone();
                self.rule(
                    Ruling::new(i, Decision::ResultStands, Some(&c), Some(mover)).note(format!(
                        "found after {found_after} rounds: too late, the move stands"
                    )),
                );
                return self.stand(i, m);
            }
        }
        self.fire(
            i,
            Trigger::IllegalMove,
            Some(mover),
            &classes,
            Detail::default(),
        );
        if let Some((c, f)) = finding {
            if f.touched_after && self.candidates.is_empty() {
                let c = c.clone();
                self.touches[mover.index()].push(m.from);
                let mut r =
                    Ruling::new(i, Decision::MustMove, Some(&c), Some(mover)).note(format!(
                        "the move is taken back; the piece on {} counts as touched",
                        m.from
                    ));
                r.moves = Some(
                    self.pos
                        .legal_moves_from(self.vm, m.from)
                        .iter()
                        .map(|m| m.iccs())
                        .collect(),
                );
                self.rule(r);
            }
        }
        Ok(())
    }

    /// An irregular change of the board that stands: the position must still be one the
    /// rules allow.
    fn stand(&mut self, i: usize, m: Move) -> Result<(), ArbiterError> {
        let before = self.pos.clone();
        if self
            .pos
            .piece_at(m.to)
            .is_some_and(|p| p.kind == self.vm.royal_kind())
        {
            return Err(ArbiterError::reject(
                RejectKind::EventsImpossible,
                format!("{m} would take a general"),
            ));
        }
        self.advance(i, m);
        if let Err(e) = crate::vm::fen::validate(self.vm, &self.pos) {
            self.pos = before;
            self.history.pop();
            return Err(ArbiterError::reject(
                RejectKind::EventsImpossible,
                format!("after {m} the position cannot stand under the rules ({e})"),
            ));
        }
        Ok(())
    }

    fn between(&mut self, i: usize, b: &events::BetweenEvent) -> Result<(), ArbiterError> {
        let from = events::point(&b.from)?;
        let chosen = events::point(&b.chosen)?;
        let points = [events::point(&b.points[0])?, events::point(&b.points[1])?];
        if !points.contains(&chosen) {
            return Err(ArbiterError::reject(
                RejectKind::EventsSyntax,
                format!("`chosen` ({chosen}) is not one of the two points"),
            ));
        }
        let by: Side = b.chosen_by.into();
        let mover = self.stm();
        match self.rules.between.as_ref() {
            Some((c, rule)) => {
                let want = match rule.chooser {
                    Chooser::Opponent => mover.opponent(),
                    Chooser::Mover => mover,
                };
                if by != want {
                    return Err(ArbiterError::reject(
                        RejectKind::EventsWrongSide,
                        format!(
                            "{} chooses the point ({}), not {}",
                            want.name(),
                            c.clause,
                            by.name()
                        ),
                    ));
                }
                let c = c.clone();
                self.rule(
                    Ruling::new(i, Decision::Chosen, Some(&c), Some(by))
                        .note(format!("the piece stands on {chosen}")),
                );
            }
            None => self.rule(
                Ruling::new(i, Decision::NotRegulated, None, Some(by))
                    .note(format!("the piece is taken to stand on {chosen}")),
            ),
        }
        self.play(i, Move::new(from, chosen))
    }

    // ------------------------------------------------------------ touching

    fn touch(
        &mut self,
        i: usize,
        side: Side,
        points: &[String],
        simultaneous: bool,
    ) -> Result<(), ArbiterError> {
        if side != self.stm() {
            return Err(not_on_move(side, "touch pieces to move them"));
        }
        let mut new = Vec::new();
        for p in points {
            let sq = events::point(p)?;
            new.push(touch::touched(&self.pos, sq)?);
        }
        let mut all = self.current_touches(side);
        all.extend(new.iter().copied());
        let simultaneous = self.simultaneous[side.index()] || (simultaneous && new.len() > 1);
        touch::chain(self.rules, &all, simultaneous)?;
        self.simultaneous[side.index()] = simultaneous;
        self.touches[side.index()].extend(new.iter().map(|t| t.point));
        self.judge_touches(i, side, &new);
        Ok(())
    }

    /// The fouls of touching these pieces (8.1.5), the side being on move.
    fn judge_touches(&mut self, i: usize, side: Side, touched: &[Touched]) {
        for &t in touched {
            if let Some(tr) = touch::touch_trigger(self.vm, &self.pos, t) {
                self.fire(i, tr, Some(side), &[], Detail::default());
            }
        }
    }

    /// Touches made out of turn are judged when their side is next on move.
    fn judge_deferred_touches(&mut self, i: usize) {
        let s = self.stm();
        if self.deferred_touches[s.index()].is_empty() {
            return;
        }
        let points = std::mem::take(&mut self.deferred_touches[s.index()]);
        let touched: Vec<Touched> = points
            .iter()
            .filter_map(|&p| touch::touched(&self.pos, p).ok())
            .filter(|t| t.role == super::data::Role::Own)
            .collect();
        self.judge_touches(i, s, &touched);
    }

    fn adjust(&mut self, i: usize, a: &events::AdjustEvent) -> Result<(), ArbiterError> {
        let side: Side = a.side.into();
        let mut points = Vec::new();
        for p in &a.points {
            let sq = events::point(p)?;
            if self.pos.piece_at(sq).is_none() {
                return Err(ArbiterError::reject(
                    RejectKind::TouchEmptyPoint,
                    format!("no piece stands on {sq}"),
                ));
            }
            points.push(sq);
        }
        let Some((c, rule)) = self.rules.adjusting.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, Some(side)));
            return Ok(());
        };
        let c = c.clone();
        if a.accidental && rule.accidental_exempt {
            self.rule(
                Ruling::new(i, Decision::NoPenalty, Some(&c), Some(side))
                    .note("an obvious accidental touch does not count"),
            );
            return Ok(());
        }
        let in_time = !rule.own_time_only || side == self.stm();
        let met = rule.requires.iter().all(|r| match r {
            Requirement::Announced => a.announced,
            Requirement::OpponentConsent => a.consent,
        });
        if in_time && met {
            self.rule(Ruling::new(i, Decision::Adjusted, Some(&c), Some(side)));
            return Ok(());
        }
        self.rule(Ruling::new(
            i,
            Decision::CountsAsTouch,
            Some(&c),
            Some(side),
        ));
        if side == self.stm() {
            let mut all = self.current_touches(side);
            let new: Vec<Touched> = points
                .iter()
                .filter_map(|&p| touch::touched(&self.pos, p).ok())
                .collect();
            all.extend(new.iter().copied());
            touch::chain(self.rules, &all, self.simultaneous[side.index()])?;
            self.touches[side.index()].extend(&points);
            self.judge_touches(i, side, &new);
        } else {
            // Out of turn only own pieces bind (the opponent's may be gone by then).
            let own: Vec<Square> = points
                .into_iter()
                .filter(|&p| self.pos.piece_at(p).is_some_and(|x| x.side == side))
                .collect();
            self.touches[side.index()].extend(&own);
            self.deferred_touches[side.index()].extend(own);
        }
        Ok(())
    }

    // ------------------------------------------------------------ draws

    fn offer(&mut self, i: usize, s: Side) {
        if let Some((c, rounds)) = self.rules.early_offer.clone() {
            if self.pos.fullmove_number() <= rounds {
                self.rule(
                    Ruling::new(i, Decision::OfferVoid, Some(&c), Some(s)).note(format!(
                        "round {} is within the first {rounds}",
                        self.pos.fullmove_number()
                    )),
                );
                return;
            }
        }
        self.offers[s.index()] += 1;
        let was_refused = self.refused[s.index()];
        self.refused = [false; 2];
        self.pending_offer = Some(s);
        let excess = self.offers[s.index()].saturating_sub(self.offers[s.opponent().index()]);
        self.fire(
            i,
            Trigger::DrawOffer,
            Some(s),
            &[],
            Detail {
                excess,
                was_refused,
                ..Detail::default()
            },
        );
    }

    /// A natural-move-limit claim by `claimant`, or the arbiter's own count (`None`).
    fn natural_limit(&mut self, i: usize, claimant: Option<Side>) -> Result<(), ArbiterError> {
        let Some((c, nl)) = self.rules.natural_limit.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, claimant));
            return Ok(());
        };
        let c = c.clone();
        match claimant {
            Some(s) if nl.claim_by == ClaimBy::SideToMove && s != self.stm() => {
                return Err(not_on_move(s, "claim the natural move limit"));
            }
            None if !nl.arbiter_may_declare => {
                self.rule(Ruling::new(i, Decision::NotRegulated, Some(&c), None).note("the arbiter does not declare the natural move limit unclaimed in this rule set"));
                return Ok(());
            }
            _ => {}
        }
        let rounds = self.limit_rounds(claimant);
        if rounds >= nl.rounds {
            let mut r = Ruling::new(i, Decision::LimitReached, Some(&c), claimant)
                .note(format!("{rounds} of {} rounds counted", nl.rounds));
            r.rounds = Some(rounds);
            self.rule(r);
            self.fire(i, Trigger::NaturalLimit, None, &[], Detail::default());
            return Ok(());
        }
        let mut r = Ruling::new(
            i,
            if claimant.is_some() {
                Decision::ClaimUntrue
            } else {
                Decision::LimitNotReached
            },
            Some(&c),
            claimant,
        )
        .note(format!("{rounds} of {} rounds counted", nl.rounds));
        r.rounds = Some(rounds);
        self.rule(r);
        if let Some(s) = claimant {
            if let Some(minutes) = nl.false_claim_penalty_minutes {
                let mut r = Ruling::new(i, Decision::DeductTime, Some(&c), Some(s));
                r.seconds = Some(minutes * 60);
                self.rule(r);
            }
            self.fire(
                i,
                Trigger::FalseNaturalLimitClaim,
                Some(s),
                &[],
                Detail::default(),
            );
        }
        Ok(())
    }

    /// A 棋例 ruling: what happens next under this rule set.
    fn repetition(&mut self, i: usize, v: Verdict) {
        match v {
            Verdict::RedLoses | Verdict::BlackLoses => {
                let s = if v == Verdict::RedLoses {
                    Side::Red
                } else {
                    Side::Black
                };
                self.fire(i, Trigger::PerpetualCheck, Some(s), &[], Detail::default());
            }
            Verdict::RedMustChange | Verdict::BlackMustChange => {
                let s = if v == Verdict::RedMustChange {
                    Side::Red
                } else {
                    Side::Black
                };
                let c = self
                    .rules
                    .results
                    .iter()
                    .find(|r| r.when == Trigger::ChangeRefused)
                    .map(|r| r.clause.clone());
                self.order(i, s, c);
            }
            // No repetition was found to rule on: nothing follows.
            Verdict::None => {}
            Verdict::Draw => {
                // The round of the move that completed the cycle.
                let round = self.pos.fullmove_number() - u32::from(self.stm() == Side::Red);
                match self.rules.early_repetition.clone() {
                    Some((c, rounds, s)) if round <= rounds => self.order(i, s, Some(c)),
                    _ => match self.rounds_to_change(Trigger::RepetitionDraw) {
                        Some((n, c)) if self.wait(i, n, None) => {
                            let mut r = Ruling::new(i, Decision::Deferred, Some(&c), None).note(
                                format!("a draw if the repetition goes on {n} more rounds: either side may change"),
                            );
                            r.rounds = Some(n);
                            self.rule(r);
                        }
                        _ => self.fire(i, Trigger::RepetitionDraw, None, &[], Detail::default()),
                    },
                }
            }
        }
    }

    /// `s`, under an order to change by `by`, has not changed: a loss by the order's own
    /// clause (4.3), else by the clause observing a refused change.
    fn refused(&mut self, i: usize, s: Side, by: &RuleRef) {
        if self
            .rules
            .early_repetition
            .as_ref()
            .is_some_and(|(c, _, _)| c.clause == by.clause)
        {
            self.end_by(by, ResultKind::Loss, Some(s));
        } else {
            self.fire(i, Trigger::ChangeRefused, Some(s), &[], Detail::default());
        }
    }

    /// Orders `s` to change; a side already ordered (since the last capture) did not change.
    fn order(&mut self, i: usize, s: Side, clause: Option<RuleRef>) {
        match self.orders[s.index()].clone() {
            Some(by) => self.refused(i, s, &by),
            None => {
                let by = clause.unwrap_or(RuleRef {
                    clause: String::new(),
                    article: None,
                });
                let mut r = Ruling::new(i, Decision::MustChange, Some(&by), Some(s));
                if let Some((n, c)) = self.rounds_to_change(Trigger::ChangeRefused) {
                    if self.wait(i, n, Some((s, by.clone()))) {
                        r.rounds = Some(n);
                        r = r.note(format!("{n} rounds to change ({})", c.clause));
                    }
                }
                if by.clause.is_empty() {
                    r.clause = None;
                }
                self.rule(r);
                self.orders[s.index()] = Some(by);
            }
        }
    }

    // ------------------------------------------------------------ time and irregularities

    fn late(&mut self, i: usize, seconds: [u32; 2]) -> Result<(), ArbiterError> {
        if self.late_seen {
            return Err(ArbiterError::reject(
                RejectKind::EventsOutOfOrder,
                "the lateness of both sides is one event, given once",
            ));
        }
        if let Some(s) = Side::BOTH
            .into_iter()
            .find(|s| seconds[s.index()] > 0 && self.moved[s.index()])
        {
            return Err(ArbiterError::reject(
                RejectKind::EventsOutOfOrder,
                format!("{} is late but has already moved", s.name()),
            ));
        }
        self.late_seen = true;
        let late: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| seconds[s.index()] > 0)
            .collect();
        if let Some(c) = self.rules.clock_runs.clone() {
            for &s in &late {
                let mut r = Ruling::new(i, Decision::DeductTime, Some(&c), Some(s));
                r.seconds = Some(seconds[s.index()]);
                self.rule(r);
            }
        }
        let Some(limit) = self.rules.late_limit else {
            let c = self
                .rules
                .results
                .iter()
                .find(|r| r.when == Trigger::LateArrival)
                .map(|r| r.clause.clone());
            for &s in &late {
                let d = if c.is_some() {
                    Decision::Undecided
                } else {
                    Decision::NotRegulated
                };
                self.rule(
                    Ruling::new(i, d, c.as_ref(), Some(s))
                        .note("the lateness limit is the event's; apply an overlay that sets it"),
                );
            }
            return Ok(());
        };
        let over: Vec<Side> = late
            .into_iter()
            .filter(|s| seconds[s.index()] > limit * 60)
            .collect();
        for &s in &over {
            self.fire(i, Trigger::LateArrival, Some(s), &[], Detail::default());
        }
        if over.len() == 2 {
            self.fire(i, Trigger::BothLate, None, &[], Detail::default());
        }
        Ok(())
    }

    fn colours(&mut self, i: usize, found_after_seconds: u32) {
        let Some((c, rule)) = self.rules.colours.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, None));
            return;
        };
        let c = c.clone();
        if rule
            .within_minutes
            .is_some_and(|m| found_after_seconds > m * 60)
        {
            self.rule(
                Ruling::new(i, Decision::ResultStands, Some(&c), None)
                    .note("found too late: the game goes on and its result stands"),
            );
            return;
        }
        match rule.remedy {
            Remedy::Replay => self.end_replay(i, &c),
            Remedy::Restore => self.rule(Ruling::new(i, Decision::Restore, Some(&c), None)),
        }
    }

    fn end_replay(&mut self, i: usize, c: &RuleRef) {
        self.rule(Ruling::new(i, Decision::Replay, Some(c), None));
        self.end = Some(End {
            result: GameResult::Replay,
            clause: c.clone(),
            event: i,
            by: None,
            basis: None,
        });
    }

    fn displaced(
        &mut self,
        i: usize,
        from: &str,
        to: &str,
        found_after: u32,
    ) -> Result<(), ArbiterError> {
        let (from, to) = (events::point(from)?, events::point(to)?);
        if self.pos.piece_at(from).is_none() {
            return Err(ArbiterError::reject(
                RejectKind::EventsImpossible,
                format!("no piece stands on {from}"),
            ));
        }
        let Some((c, rule)) = self.rules.displaced.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, None));
            return Ok(());
        };
        let c = c.clone();
        if rule.within_rounds.is_some_and(|w| found_after > w) {
            self.rule(
                Ruling::new(i, Decision::ResultStands, Some(&c), None).note(format!(
                    "found after {found_after} rounds: too late, the piece stays on {to}"
                )),
            );
            if self.pos.piece_at(to).is_some() {
                return Err(ArbiterError::reject(
                    RejectKind::EventsImpossible,
                    format!("{to} is occupied"),
                ));
            }
            let before = self.pos.clone();
            let piece = self.pos.remove(from).expect("checked above");
            self.pos.put(piece, to);
            if let Err(e) = crate::vm::fen::validate(self.vm, &self.pos) {
                self.pos = before;
                return Err(ArbiterError::reject(
                    RejectKind::EventsImpossible,
                    format!("the piece cannot stand on {to} ({e})"),
                ));
            }
            // The board changed without a move: the positions before cannot come back as a cycle.
            self.history = History::new(&self.pos, self.plies);
            return Ok(());
        }
        match rule.remedy {
            Remedy::Restore => {
                self.rule(Ruling::new(i, Decision::Restore, Some(&c), None));
                if rule.free_choice {
                    let s = self.stm();
                    self.touches[s.index()].clear();
                    self.simultaneous[s.index()] = false;
                }
            }
            Remedy::Replay => self.end_replay(i, &c),
        }
        Ok(())
    }

    fn knock_over(&mut self, i: usize, k: &events::KnockEvent) -> Result<(), ArbiterError> {
        let side: Side = k.side.into();
        let Some((c, rule)) = self.rules.knocked.as_ref() else {
            self.rule(Ruling::new(i, Decision::NotRegulated, None, Some(side)));
            return Ok(());
        };
        let c = c.clone();
        let left_ms = k.opponent_remaining_seconds.map(|s| i64::from(s) * 1000);
        let ruling = rule
            .ruling(Some(k.pieces), k.off_board, k.after_press, left_ms)
            .ok_or_else(|| {
                ArbiterError::reject(
                    RejectKind::EventsSyntax,
                    "a knock-over after the clock press needs `opponent_remaining_seconds`",
                )
            })?;
        match ruling {
            KnockRuling::TooFew => {
                self.rule(
                    Ruling::new(i, Decision::NoPenalty, Some(&c), Some(side))
                        .note("fewer pieces than a knock-over (碰乱) needs"),
                );
            }
            KnockRuling::OwnTime => {
                self.rule(
                    Ruling::new(i, Decision::NoPenalty, Some(&c), Some(side))
                        .note("put right in the knocker's own time"),
                );
            }
            KnockRuling::Penalty(KnockEffect::Loss) => {
                self.end_by(&c, ResultKind::Loss, Some(side))
            }
            KnockRuling::Penalty(KnockEffect::TimeAdded(ms)) => {
                let mut r = Ruling::new(i, Decision::AddTime, Some(&c), Some(side.opponent()));
                r.seconds = Some(u32::try_from(ms / 1000).unwrap_or(u32::MAX));
                self.rule(r);
            }
        }
        Ok(())
    }
}

fn not_on_move(s: Side, what: &str) -> ArbiterError {
    ArbiterError::reject(
        RejectKind::EventsNotOnMove,
        format!("{} is not on move and cannot {what}", s.name()),
    )
}
