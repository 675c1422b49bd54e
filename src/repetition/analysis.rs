//! The VM predicates of the repetition rules: material values, the whole exchange on
//! captures, mate by consecutive checks, and what a side could win were the opponent to
//! pass. Every number (values, depths) comes from the compiled clauses.
//!
//! Mate by consecutive checks is searched to a depth the data gives, and memoised. The wins a
//! side has were the opponent to pass are found every way, then one per target, from the
//! forcing lines (`forcing`), which are memoised per ruling by position and bounds.

use std::cmp::Ordering;
use std::ops::{Add, Neg, Sub};

use crate::board::{Move, Side, Square};
use crate::vm::position_internals::{Legality, MoveBuf, MAX_MOVES};
use crate::vm::{Placement, PlacementMap, Position, Rules};

use super::forcing::{board_order, Bounds, Line};
use super::readings::Part;
use super::RepetitionRules;

/// A material value: whole pieces first, floating pieces (过河兵) in a lower tier, so that
/// no number of floating pieces makes up for a piece (1999 25.3, 2020 1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Val {
    /// Whole pieces.
    pub pieces: i32,
    /// Floating pieces (过河兵), counted below any whole piece.
    pub floating: i32,
}

impl Val {
    /// Nothing.
    pub const ZERO: Val = Val {
        pieces: 0,
        floating: 0,
    };
    pub(crate) fn is_positive(self) -> bool {
        self > Val::ZERO
    }
}

impl Ord for Val {
    fn cmp(&self, o: &Val) -> Ordering {
        self.pieces
            .cmp(&o.pieces)
            .then(self.floating.cmp(&o.floating))
    }
}
impl PartialOrd for Val {
    fn partial_cmp(&self, o: &Val) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Add for Val {
    type Output = Val;
    fn add(self, o: Val) -> Val {
        Val {
            pieces: self.pieces + o.pieces,
            floating: self.floating + o.floating,
        }
    }
}
impl Sub for Val {
    type Output = Val;
    fn sub(self, o: Val) -> Val {
        self + -o
    }
}
impl Neg for Val {
    type Output = Val;
    fn neg(self) -> Val {
        Val {
            pieces: -self.pieces,
            floating: -self.floating,
        }
    }
}

/// Why a target can be won (the kinds of chase the verdicts distinguish).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChaseKind {
    /// No legal recapture: 无根子 (a false root, 假根, is no legal recapture either).
    Unprotected,
    /// Protected, but worth more than the piece that takes it (捉车 with a horse).
    HigherValue,
    /// Protected, won because the attackers outnumber the defenders (联合捉, 少根).
    Joint,
}

impl ChaseKind {
    /// The kind as the data and answers write it (`unprotected` …).
    pub fn name(self) -> &'static str {
        match self {
            ChaseKind::Unprotected => "unprotected",
            ChaseKind::HigherValue => "higher_value",
            ChaseKind::Joint => "joint",
        }
    }
    /// Reads a kind written by [`ChaseKind::name`].
    pub fn parse(s: &str) -> Option<ChaseKind> {
        Some(match s {
            "unprotected" => ChaseKind::Unprotected,
            "higher_value" => ChaseKind::HigherValue,
            "joint" => ChaseKind::Joint,
            _ => return None,
        })
    }
}

/// An opposing piece the side to move could win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Win {
    /// Where the target stands (in the position analysed).
    pub(crate) target: Square,
    /// The piece that takes it first.
    pub(crate) attacker: Square,
    pub(crate) gain: Val,
    pub kind: ChaseKind,
    /// The first move of the line when it is a check that captures nothing (将军得子).
    pub(crate) after_check: Option<Move>,
    /// Won only by a kind `repetition.own_attack` exempts as first capturer.
    pub(crate) latent: bool,
    /// The pieces of the winning side that move on the line (one, or several: joint).
    pub pieces: Vec<Square>,
    /// Left out of the chase as a mutual attack of two pieces of one kind: an exchange
    /// offered (兑), not a chase (24.4).
    pub(crate) offered: bool,
}

/// The predicates, over one compiled rule set.
pub struct Analyst<'a> {
    /// The movement and check rules.
    pub(crate) vm: &'a Rules,
    pub(crate) rep: &'a RepetitionRules,
    /// What the searches of this ruling found, shared with the analysts of its readings'
    /// variants ([`Analyst::sharing`]).
    memo: std::rc::Rc<Memo>,
    /// The parts of the rules that steered the judgement since [`Analyst::consulted`] was
    /// last asked (bits of [`Part`]): what a variant that switches them off judges again.
    consulted: std::cell::Cell<u8>,
}

/// Forcing lines by position and bounds.
pub(crate) type LinesMemo = PlacementMap<(Placement, Option<Placement>, Bounds), Vec<Line>>;

/// What the searches of one ruling found. None of it depends on a reading: mates on the
/// movement rules alone, forcing lines and the exchanges on one point on
/// the position and the search's bounds (which hold `laid_open`); the material values and
/// exempt kinds they read are no readings.
#[derive(Default)]
struct Memo {
    /// Mate searches: position → what is known of it.
    mates: std::cell::RefCell<PlacementMap<Placement, MateBounds>>,
    /// Forcing-line searches, by position and bounds.
    lines: std::cell::RefCell<LinesMemo>,
    /// Whether a capture wins by itself over the exchange on its point, by position and move.
    captures: std::cell::RefCell<PlacementMap<(Placement, Move), bool>>,
    /// Positions the forcing searches have visited since the current ply's classification
    /// began (`repetition.forcing`'s `ply_nodes` bounds it).
    spent: std::cell::Cell<u32>,
    /// What the searches of the current ply may spend (`Bounds::ply_nodes`, shared out by
    /// `Bounds::cycle_nodes`); unbounded outside a judged cycle.
    cap: std::cell::Cell<u32>,
    /// The moves the forcing searches generated in the positions they met (one position is
    /// met again by the other searches of a ruling: the lines of each target, the exchanges
    /// on one point, the tests of what a move laid open). A function of the placement alone,
    /// so a hit changes no search.
    generated: std::cell::RefCell<Generated>,
    /// Emptied move lists of the forcing searches' nodes, kept for the next node so that a
    /// node allocates none (scratch space, no cache: at most `SPARE_LISTS` are kept).
    spare: std::cell::RefCell<Vec<Vec<(Val, Move)>>>,
}

/// The moves the forcing searches generated, by placement: not in check, the legal captures
/// and, once asked for, the legal checks, in the order [`Position::captures_and_checks_into`]
/// gives them; in check, every answer before the self-kill test, with what each takes, in
/// the order the side to move searches them, and the test ([`Analyst::evasions_into`]). The
/// lists lie in two arenas (no allocation per position); at most `GENERATED_LIMIT` positions
/// and `ARENA_LIMIT` moves in each arena are kept, all emptied when one is full.
#[derive(Default)]
struct Generated {
    at: PlacementMap<Placement, Lists>,
    moves: Vec<Move>,
    answers: Vec<(Val, Move)>,
}

/// Where one position's lists lie in the arenas of [`Generated`].
#[derive(Clone, Copy)]
enum Lists {
    /// Not in check: the captures from `at` on, then, if generated, the checks.
    Free {
        at: u32,
        captures: u16,
        checks: Option<u16>,
    },
    /// In check: the answers, from `at` on.
    InCheck {
        at: u32,
        len: u16,
        legality: Legality,
    },
}

/// How many positions [`Generated`] keeps: a small table stays in the cache (8192 cost the
/// dense cycles of `cargo bench --bench dense` a fifth of their time in growing and missing).
const GENERATED_LIMIT: usize = 1 << 10;

/// How many moves each arena of [`Generated`] keeps.
const ARENA_LIMIT: usize = 1 << 18;

impl Generated {
    /// Room for one more position's lists: everything forgotten where a bound is reached.
    fn make_room(&mut self) {
        if self.at.len() >= GENERATED_LIMIT
            || self.moves.len() + 2 * MAX_MOVES > ARENA_LIMIT
            || self.answers.len() + MAX_MOVES > ARENA_LIMIT
        {
            self.at.clear();
            self.moves.clear();
            self.answers.clear();
        }
    }
}

/// How many emptied move lists [`Analyst::give_back`] keeps: more than a search's nodes
/// hold at once (one or two per node on the line searched, the nested searches included).
const SPARE_LISTS: usize = 64;

/// What the searches made so far know of one position: a mate within `within` moves (none
/// known: `u8::MAX`), and no mate within `not_within` (none known: 0). A mate within `d`
/// is one within any greater depth, and no mate within `d` none within a smaller one.
#[derive(Clone, Copy)]
struct MateBounds {
    within: u8,
    not_within: u8,
}

impl MateBounds {
    /// Nothing known yet.
    const UNKNOWN: MateBounds = MateBounds {
        within: u8::MAX,
        not_within: 0,
    };

    /// Whether there is a mate within `depth`, when the bounds tell (`None`: search).
    fn tells(self, depth: u8) -> Option<bool> {
        if self.within <= depth {
            Some(true)
        } else if self.not_within >= depth {
            Some(false)
        } else {
            None
        }
    }

    /// Takes in what a search found: a mate within `depth` (`found`), or none within it.
    fn learn(&mut self, depth: u8, found: bool) {
        if found {
            self.within = self.within.min(depth);
        } else {
            self.not_within = self.not_within.max(depth);
        }
    }
}

/// Parameters of the material test, from the chase class and `repetition.forcing`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WinParams {
    pub(crate) bounds: Bounds,
    /// Bit set of the [`ChaseKind`]s that count (bit = kind as u8).
    pub kinds: u8,
    pub(crate) higher_value_always: bool,
}

impl ChaseKind {
    /// Every kind, in declaration order.
    pub const ALL: [ChaseKind; 3] = [
        ChaseKind::Unprotected,
        ChaseKind::HigherValue,
        ChaseKind::Joint,
    ];
    pub(crate) fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl<'a> Analyst<'a> {
    /// The predicates over `vm` and `rep`, with empty memos.
    pub fn new(vm: &'a Rules, rep: &'a RepetitionRules) -> Analyst<'a> {
        let memo = Memo {
            cap: std::cell::Cell::new(u32::MAX),
            ..Default::default()
        };
        Analyst {
            vm,
            rep,
            memo: std::rc::Rc::new(memo),
            consulted: std::cell::Cell::new(0),
        }
    }

    /// The predicates over other repetition rules of the same movement rules (a variant
    /// with a reading switched off), sharing this analyst's memos.
    pub(crate) fn sharing<'b>(&'b self, rep: &'b RepetitionRules) -> Analyst<'b> {
        Analyst {
            vm: self.vm,
            rep,
            memo: self.memo.clone(),
            consulted: std::cell::Cell::new(0),
        }
    }

    /// A part of the rules steers the judgement otherwise than it would go with the part
    /// switched off ([`Part`]): every place where one does says so here.
    pub(crate) fn consult(&self, part: Part) {
        self.consulted.set(self.consulted.get() | part.bit());
    }

    /// The parts of the rules that steered the judgement since the last call (bits of
    /// [`Part`]).
    pub(crate) fn consulted(&self) -> u8 {
        self.consulted.replace(0)
    }

    /// A ply's classification begins, one of `plies` judged: its searches share afresh the
    /// smaller of `ply_nodes` and `cycle_nodes / plies`.
    pub(crate) fn start_ply(&self, plies: usize) {
        let b = self.rep.forcing;
        let share = b.cycle_nodes.map_or(u32::MAX, |c| {
            c / u32::try_from(plies.max(1)).unwrap_or(u32::MAX)
        });
        self.memo.spent.set(0);
        self.memo
            .cap
            .set(b.ply_nodes.unwrap_or(u32::MAX).min(share).max(1));
    }

    /// What the searches of the current ply may spend.
    pub(crate) fn ply_cap(&self) -> u32 {
        self.memo.cap.get()
    }

    /// One more position visited by a search of this ply; the count so far.
    pub(crate) fn spend(&self) -> u32 {
        let n = self.memo.spent.get().saturating_add(1);
        self.memo.spent.set(n);
        n
    }

    /// The forcing lines already searched, by position and bounds.
    pub(crate) fn lines(&self) -> &std::cell::RefCell<LinesMemo> {
        &self.memo.lines
    }

    /// Whether a capture wins by itself ([`Analyst::capture_wins`]), by position and move.
    pub(crate) fn capture_memo(
        &self,
    ) -> &std::cell::RefCell<PlacementMap<(Placement, Move), bool>> {
        &self.memo.captures
    }

    /// The legal captures of the side to move, and its legal checks where `checks` is set,
    /// appended to `caps` and `gives`: [`Position::captures_and_checks_into`], memoised by
    /// placement ([`Memo::generated`]).
    pub(crate) fn captures_and_checks_into(
        &self,
        pos: &Position,
        checks: bool,
        caps: &mut MoveBuf,
        gives: &mut MoveBuf,
    ) {
        let key = pos.placement();
        {
            let g = self.memo.generated.borrow();
            if let Some(&Lists::Free {
                at,
                captures,
                checks: found,
            }) = g.at.get(&key)
            {
                if !checks || found.is_some() {
                    let (at, c) = (at as usize, usize::from(captures));
                    g.moves[at..at + c].iter().for_each(|&m| caps.push_move(m));
                    if let Some(k) = found.filter(|_| checks) {
                        let k = usize::from(k);
                        g.moves[at + c..at + c + k]
                            .iter()
                            .for_each(|&m| gives.push_move(m));
                    }
                    return;
                }
            }
        }
        let (mut c, mut k) = (MoveBuf::new(), MoveBuf::new());
        pos.captures_and_checks_into(self.vm, true, checks, &mut c, &mut k);
        c.as_slice().iter().for_each(|&m| caps.push_move(m));
        k.as_slice().iter().for_each(|&m| gives.push_move(m));
        let mut g = self.memo.generated.borrow_mut();
        g.make_room();
        let at = g.moves.len() as u32;
        g.moves.extend_from_slice(c.as_slice());
        g.moves.extend_from_slice(k.as_slice());
        g.at.insert(
            key,
            Lists::Free {
                at,
                captures: c.as_slice().len() as u16,
                checks: checks.then_some(k.as_slice().len() as u16),
            },
        );
    }

    /// The legal checks of the side to move, appended to `out`: those a forcing search
    /// generated here already ([`Generated`]), or else generated anew (and not kept: most of
    /// the positions they are asked of are met once).
    pub(crate) fn checking_moves_into(&self, pos: &Position, out: &mut MoveBuf) {
        {
            let g = self.memo.generated.borrow();
            if let Some(&Lists::Free {
                at,
                captures,
                checks: Some(k),
            }) = g.at.get(&pos.placement())
            {
                let at = at as usize + usize::from(captures);
                g.moves[at..at + usize::from(k)]
                    .iter()
                    .for_each(|&m| out.push_move(m));
                return;
            }
        }
        pos.checking_moves_into(self.vm, out);
    }

    /// In check: every move of the side to move before the self-kill test, appended to `out`
    /// with the material each takes (from the side to move's side), dearest first, then in
    /// the order the side to move sees the board (`forcing::board_order`); and the test of
    /// each ([`Position::allows`]). Memoised by placement ([`Generated`]).
    pub(crate) fn evasions_into(&self, pos: &Position, out: &mut Vec<(Val, Move)>) -> Legality {
        let key = pos.placement();
        {
            let g = self.memo.generated.borrow();
            if let Some(&Lists::InCheck { at, len, legality }) = g.at.get(&key) {
                let at = at as usize;
                out.extend_from_slice(&g.answers[at..at + usize::from(len)]);
                return legality;
            }
        }
        let mut pseudo = MoveBuf::new();
        let legality = pos.pseudo_legal_into(self.vm, &mut pseudo);
        let start = out.len();
        out.extend(
            pseudo
                .as_slice()
                .iter()
                .map(|&m| (self.value(pos, m.to), m)),
        );
        let side = pos.side_to_move();
        out[start..].sort_by_key(|&(v, m)| (std::cmp::Reverse(v), board_order(side, m)));
        let mut g = self.memo.generated.borrow_mut();
        g.make_room();
        let at = g.answers.len() as u32;
        g.answers.extend_from_slice(&out[start..]);
        g.at.insert(
            key,
            Lists::InCheck {
                at,
                len: (out.len() - start) as u16,
                legality,
            },
        );
        legality
    }

    /// The legal captures of the side to move ([`Analyst::captures_and_checks_into`]).
    pub(crate) fn legal_captures(&self, pos: &Position) -> Vec<Move> {
        let mut caps = MoveBuf::new();
        self.captures_and_checks_into(pos, false, &mut caps, &mut MoveBuf::new());
        caps.as_slice().to_vec()
    }

    /// An empty move list for a node of a forcing search, one given back before if any.
    pub(crate) fn move_list(&self) -> Vec<(Val, Move)> {
        self.memo.spare.borrow_mut().pop().unwrap_or_default()
    }

    /// A node's move list, emptied and kept for the next node.
    pub(crate) fn give_back(&self, mut list: Vec<(Val, Move)>) {
        let mut spare = self.memo.spare.borrow_mut();
        if list.capacity() > 0 && spare.len() < SPARE_LISTS {
            list.clear();
            spare.push(list);
        }
    }

    /// Whether a net result is a gain (得子). Floating pieces only break ties between equal
    /// pieces; a result that gives floating pieces up for pieces is a gain only where
    /// `floating_worth_below` says they are worth less (2011 26.6), never otherwise (1999
    /// 25.3: 一兵换取数子不算得子).
    pub(crate) fn gains(&self, v: Val) -> bool {
        if v.floating >= 0 {
            return v.is_positive();
        }
        self.rep
            .floating_below
            .is_some_and(|b| v.pieces > 0 && v.pieces + v.floating * b >= 0)
    }

    /// Whether a net result is no loss by the material clause's measure: the other side does
    /// not gain by it (a floating piece taken for a piece it may be worth is none, 2011 26.6).
    #[cfg(test)]
    pub fn no_loss(&self, v: Val) -> bool {
        !self.gains(-v)
    }

    /// Value of the piece on `sq` (zero when empty or not material).
    pub(crate) fn value(&self, pos: &Position, sq: Square) -> Val {
        self.material(pos, sq).unwrap_or_default()
    }

    /// Value of the piece on `sq` if it is material (子力).
    pub fn material(&self, pos: &Position, sq: Square) -> Option<Val> {
        let p = pos.piece_at(sq)?;
        self.rep.value(p.side, p.kind, sq)
    }

    /// Whether the side to move mates by consecutive checks within `depth` of its moves.
    pub(crate) fn mates_by_checks(&self, pos: &Position, depth: u8) -> bool {
        if depth == 0 {
            return false;
        }
        if let Some(known) = self.known_mate(pos, depth) {
            return known;
        }
        let found = self.search_mate(pos, depth);
        self.learn_mate(pos, depth, found)
    }

    /// What the memo knows of a mate by checks within `depth` from `pos` (`None`: nothing).
    fn known_mate(&self, pos: &Position, depth: u8) -> Option<bool> {
        let memo = self.memo.mates.borrow();
        memo.get(&pos.placement())?.tells(depth)
    }

    /// Stores in the memo what a search found from `pos` within `depth`, and gives it back.
    fn learn_mate(&self, pos: &Position, depth: u8, found: bool) -> bool {
        let mut memo = self.memo.mates.borrow_mut();
        let bounds = memo.entry(pos.placement()).or_insert(MateBounds::UNKNOWN);
        bounds.learn(depth, found);
        found
    }

    /// [`Analyst::mates_by_checks`], given the checking moves of the side to move where they
    /// are known already (the forcing search generates them).
    pub(crate) fn mates_by_checks_among(
        &self,
        pos: &Position,
        depth: u8,
        checks: Option<&[Move]>,
    ) -> bool {
        match checks {
            Some(checks)
                if depth == 1 && !self.memo.mates.borrow().contains_key(&pos.placement()) =>
            {
                let found = self.mates_at_once_among(pos, checks);
                self.learn_mate(pos, 1, found)
            }
            _ => self.mates_by_checks(pos, depth),
        }
    }

    /// Whether one of `checks` (moves of the side to move that give check) mates at once. What
    /// the memo knows of the position answers first; a test of some of the checks is not
    /// stored.
    pub(crate) fn mates_at_once_by<'m>(
        &self,
        pos: &Position,
        checks: impl IntoIterator<Item = &'m Move>,
    ) -> bool {
        if let Some(known) = self.known_mate(pos, 1) {
            return known;
        }
        self.mates_at_once_among(pos, checks)
    }

    /// Whether one of `checks` (moves of the side to move that give check) leaves the other
    /// side no legal move.
    fn mates_at_once_among<'m>(
        &self,
        pos: &Position,
        checks: impl IntoIterator<Item = &'m Move>,
    ) -> bool {
        let mut after = pos.clone();
        checks.into_iter().any(|&m| {
            let u = after.make(self.vm, m);
            let mated = !after.has_legal_move(self.vm);
            after.unmake(self.vm, m, u);
            mated
        })
    }

    fn search_mate(&self, pos: &Position, depth: u8) -> bool {
        let vm = self.vm;
        let mut after = pos.clone();
        let mut checks = MoveBuf::new();
        self.checking_moves_into(pos, &mut checks);
        for &m in checks.as_slice() {
            let u = after.make(vm, m);
            let mated = if depth == 1 {
                // The last check: only whether it leaves a legal answer.
                !after.has_legal_move(vm)
            } else {
                let mut replies = MoveBuf::new();
                after.legal_into(vm, &mut replies);
                // Captures first, the dearest first: taking a checking piece is the likeliest
                // escape, and the first escape found ends the search of this check.
                replies
                    .as_mut_slice()
                    .sort_by_key(|r| std::cmp::Reverse(self.value(&after, r.to)));
                replies.as_slice().iter().all(|&r| {
                    let v = after.make(vm, r);
                    let mates = self.mates_by_checks(&after, depth - 1);
                    after.unmake(vm, r, v);
                    mates
                })
            };
            after.unmake(vm, m, u);
            if mated {
                return true;
            }
        }
        false
    }

    /// One win per target, the best way: an open win beats a latent one; then the larger
    /// gain; then the simpler way; then the kind (unprotected first): never the order of the
    /// lines.
    pub(crate) fn best_per_target(wins: Vec<Win>) -> Vec<Win> {
        let mut out: Vec<Win> = Vec::new();
        for w in wins {
            match out.iter_mut().find(|x| x.target == w.target) {
                Some(x) => {
                    let key = |w: &Win| {
                        (
                            !w.offered,
                            !w.latent,
                            w.gain,
                            w.after_check.is_none(),
                            std::cmp::Reverse(w.kind),
                        )
                    };
                    if key(&w) > key(x) {
                        *x = w;
                    }
                }
                None => out.push(w),
            }
        }
        out
    }

    /// Every way (target and the piece that takes it first) the side to move could win
    /// material were its opponent to pass.
    pub(crate) fn all_wins(&self, pos: &Position, p: WinParams) -> Vec<Win> {
        self.all_wins_after(pos, p, None)
    }

    /// The same, in the position a move made from `prior`: what that move laid open to the
    /// opponent counts in the exchanges (`Analyst::forcing_lines_after`).
    pub(crate) fn all_wins_after(
        &self,
        pos: &Position,
        p: WinParams,
        prior: Option<&Position>,
    ) -> Vec<Win> {
        let mut out: Vec<Win> = Vec::new();
        let mut lines = self.forcing_lines_after(pos, p.bounds, prior);
        if p.higher_value_always {
            for m in pos.legal_captures(self.vm) {
                let (Some(tv), av) = (self.material(pos, m.to), self.value(pos, m.from)) else {
                    continue;
                };
                if tv > av && !lines.iter().any(|l| l.first == m) {
                    let mut after = pos.clone();
                    after.make(self.vm, m);
                    let kind = if after.legal_moves_to(self.vm, m.to).is_empty() {
                        ChaseKind::Unprotected
                    } else {
                        ChaseKind::HigherValue
                    };
                    lines.push(Line {
                        first: m,
                        target: m.to,
                        capturer: m.from,
                        gain: tv - av,
                        kind,
                        pieces: vec![m.from],
                    });
                }
            }
        }
        for l in lines {
            if p.kinds & l.kind.bit() == 0 {
                continue;
            }
            let direct = l.first.to == l.target;
            // A mutual attack of equal pieces is an exchange (兑), not a chase: between the
            // target and its capturer, a piece of the winner that moves on the line, or (for a
            // protected target, won by numbers) one that stands ready to take on its point.
            let mutual = |from: &Square| {
                self.value(pos, *from) == self.value(pos, l.target)
                    && self.can_take_back(pos, Move::new(*from, l.target))
            };
            let mut pair: Vec<Square> = l.pieces.iter().copied().filter(mutual).collect();
            if l.kind == ChaseKind::Joint {
                pair.extend(
                    pos.legal_moves_to(self.vm, l.target)
                        .iter()
                        .map(|m| m.from)
                        .filter(mutual),
                );
            }
            let kind_of = |sq: Square| pos.piece_at(sq).map(|q| q.kind);
            let offered = !pair.is_empty();
            if offered && !pair.iter().any(|&q| kind_of(q) == kind_of(l.target)) {
                continue;
            }
            let latent = pos
                .piece_at(l.capturer)
                .is_some_and(|a| self.rep.exempt_first_capturer(a.kind));
            out.push(Win {
                target: l.target,
                attacker: l.capturer,
                gain: l.gain,
                kind: l.kind,
                after_check: (!direct && pos.piece_at(l.first.to).is_none()).then_some(l.first),
                latent,
                pieces: l.pieces,
                offered,
            });
        }
        out
    }

    /// Whether, in the real position (the opponent to move), the target of the capture `m`
    /// could take the attacker instead, as the exchange class's `taken` asks of an exchange
    /// offered: legally, and (24.4) without being mated at once for it or losing material by
    /// the line after it.
    fn can_take_back(&self, pos: &Position, m: Move) -> bool {
        let mut real = pos.clone();
        real.set_side_to_move(pos.side_to_move().opponent());
        let back = Move::new(m.to, m.from);
        if !real.is_legal(self.vm, back) {
            return false;
        }
        let d = self.rep.forcing.mate_after_gain;
        let mut next = real.clone();
        next.make(self.vm, back);
        self.rep.exchange_taken == super::data::Taken::Legally
            || (!(d > 0 && self.mates_by_checks(&next, d))
                && self.capture_result(&real, back, self.rep.forcing) >= Val::ZERO)
    }

    /// The position with `side` to move (a pass by the other side).
    pub fn with_mover(pos: &Position, side: Side) -> Position {
        let mut p = pos.clone();
        p.set_side_to_move(side);
        p
    }
}
