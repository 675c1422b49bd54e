//! The `outcome` query: a game's events, one after another, as the arbiter sees them.
//!
//! Each event is checked against the position and the state of the game (a move must be
//! legal and keep a touch-move obligation; a claim must come from the side to move; nothing
//! may follow the end of the game …) and turned into observations ([`Trigger`]s). Every
//! observation is matched against the foul clauses (which charge fouls) and the result
//! clauses (which end the game once the observation has occurred as often as they say, in
//! the game or in the current phase of the natural move limit). When several clauses end
//! the game at one event, the one of the lowest article decides.
//!
//! Here the game's state and its events in order; `decision` what is decided and answered,
//! `watch` the board watched (repetition, the natural move limit, draw offers),
//! `irregular` irregularities and time.

use serde_json::{Map, Value};

use super::data::{
    ChecksOf, Chooser, ClaimBy, IllegalClass, KnockEffect, KnockRuling, Remedy, Requirement,
    ResultKind, Span, Trigger,
};
use super::events::{self, Event, Finding, Verdict};
use super::touch::{self, Touched};
use super::{
    parse_iccs, AfterEnd, ArbiterError, ArbiterRules, Continues, FoulCount, RejectKind, RuleRef,
};
use crate::board::{GameResult, Move, Side, Square};
use crate::repetition::readings::Basis;
use crate::repetition::RepetitionRules;
use crate::vm::{IllegalReason, Placement, Position, Rules, Status};

mod decision;
mod irregular;
mod watch;

pub(crate) use decision::insert_basis;
pub use decision::{By, Decision, Outcome, Ruling};

/// The events of a forecast (`Game::forecast`) are numbered from here.
const FORECAST_EVENTS: usize = usize::MAX / 2;

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
    /// A game on `board`: [`Game::new`] watching the board with its 棋例, if any.
    pub(crate) fn on(
        rules: &'a ArbiterRules,
        board: super::BoardRules<'a>,
        pos: Position,
    ) -> Game<'a> {
        Game::new(rules, board.vm, pos).watching(board.repetition)
    }

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
}

fn not_on_move(s: Side, what: &str) -> ArbiterError {
    ArbiterError::reject(
        RejectKind::EventsNotOnMove,
        format!("{} is not on move and cannot {what}", s.name()),
    )
}
