//! Classing one move: the classes of the edition are tried heaviest first (26.4), each by
//! its predicate; then the special cases that hold for the move alone are applied.
//!
//! Newness (从捉到捉) compares the wins after the move with the same search on the position
//! before it (a win is new when the move makes it possible or larger: the gain before and
//! after, each capture judged by the whole exchange it opens), per target and taker, with the
//! other answers to a check and the position before the check; the clause's `parried` says how
//! a capture the move parries bears on it (a flight's, `counts`; AXF's `adds_nothing`). A
//! check's own chases (AXF `with_checks`) are the wins that stand whichever way the general
//! steps out of it (as they stand when it cannot step).
//!
//! A win is joint (联合, `Analyst::joint`) when two pieces take part: a root of the target
//! pinned, or a second piece bearing on the target or guarding the capturer (the moved piece,
//! where it is not the capturer); a screen alone never is. A new win the chase test leaves out
//! as a mutual attack that is an exchange by the rule set's `offers_exchange` (`of`, `taken`:
//! the counter-capture legal, and neither mated nor losing at once) is kept apart
//! (`PlyFacts::offered`) and makes the move an exchange (兑). With `joint_counts` (26.1.1), a
//! general's or soldier's capture of a protected piece another piece bears on too, or one that
//! uncovers another piece's check (26.8), is no longer its own.

use crate::board::{KindId, Move, Side, Square};
use crate::vm::position_internals::MoveBuf;
use crate::vm::Position;

use super::analysis::{Analyst, Val, Win, WinParams};
use super::forcing::Bounds;
use super::readings::Part;
use super::{Exception, RuleRef, Test};

/// The facts about one move that the classes, special cases and verdicts read.
#[derive(Clone, Debug)]
pub struct PlyFacts {
    /// The move.
    pub mv: Move,
    /// The side that made it.
    pub side: Side,
    pub(crate) mover: KindId,
    /// The mover was in check before the move (the move answers a check).
    pub(crate) answered_check: bool,
    /// Index of the class in `RepetitionRules::classes` after the special cases.
    pub class: usize,
    /// The class before any special case.
    pub base_class: usize,
    /// New targets the move lets the mover win (for a chase), by their points.
    pub(crate) wins: Vec<Win>,
    /// New targets only an exempt first capturer could win (26.1).
    pub(crate) latent: Vec<Win>,
    /// New wins left out of the chase as mutual attacks of two pieces of one kind: exchanges
    /// offered (兑).
    pub(crate) offered: Vec<Win>,
    /// Pieces of its own side the move attacks or offers, for exchange, sacrifice and follow.
    pub(crate) partners: Vec<Square>,
    /// A line piece whose threat the move blocks.
    pub(crate) blocked: Option<Square>,
    /// Special cases applied, in order.
    pub(crate) exceptions: Vec<RuleRef>,
    /// The mover's own general is under a mate threat after the move, by depth asked.
    pub own_general_threatened: Vec<(u8, bool)>,
}

/// A move as played, for its class's tests: the position before it, after it, and after it
/// with the mover to move again (what it threatens); the opponent's move before it, with the
/// position it was played from; whether it answers a check, whether it gives one.
#[derive(Clone, Copy)]
struct Played<'p> {
    before: &'p Position,
    after: &'p Position,
    passed: &'p Position,
    mv: Move,
    prev: Option<(&'p Position, Move)>,
    answered_check: bool,
    check: bool,
}

impl Analyst<'_> {
    /// Classes the move `mv` played from `before` (the side to move plays it); `prev` is the
    /// opponent's move before it, with the position it was played from.
    pub(crate) fn classify(
        &self,
        before: &Position,
        mv: Move,
        prev: Option<(&Position, Move)>,
    ) -> PlyFacts {
        let rep = self.rep;
        let side = before.side_to_move();
        let mut after = before.clone();
        after.make(self.vm, mv);
        let check = after.in_check(self.vm);
        let passed = Analyst::with_mover(&after, side);
        let played = Played {
            before,
            after: &after,
            passed: &passed,
            mv,
            prev,
            answered_check: before.in_check(self.vm),
            check,
        };
        let mut facts = PlyFacts {
            mv,
            side,
            mover: before.piece_at(mv.from).map_or(0, |p| p.kind),
            answered_check: played.answered_check,
            class: rep.classes.len() - 1,
            base_class: rep.classes.len() - 1,
            wins: Vec::new(),
            latent: Vec::new(),
            offered: Vec::new(),
            partners: Vec::new(),
            blocked: None,
            exceptions: Vec::new(),
            own_general_threatened: Vec::new(),
        };
        if let Some(i) = rep
            .classes
            .iter()
            .position(|c| self.passes(&c.test, played, &mut facts))
        {
            facts.class = i;
            facts.base_class = i;
        }
        if check {
            facts.wins = self.chases_of_check(played);
        }
        for x in rep.exceptions.iter().filter(|x| !x.needs_cycle()) {
            if self.holds(x, &facts, &after) {
                facts.class = x.becomes;
                facts.exceptions.push(x.rule.clone());
            }
        }
        facts
    }

    /// Whether the move passes a class's test (the classes are tried heaviest first); the
    /// test records in `facts` what it found (wins, partners, the piece blocked).
    fn passes(&self, test: &Test, m: Played, facts: &mut PlyFacts) -> bool {
        let (before, after, passed, mv, check) = (m.before, m.after, m.passed, m.mv, m.check);
        match test {
            Test::GivesCheck => check,
            Test::MateThreat { depth } => {
                !check
                    && self.mates_by_checks(passed, *depth)
                    && !self.threat_rests_on_offered_piece(passed, after, mv.to, *depth)
            }
            Test::WinsMaterial { .. } => {
                if check {
                    false
                } else {
                    (facts.latent, facts.wins, facts.offered) = self.material_wins(test, m);
                    !facts.wins.is_empty()
                }
            }
            Test::OffersExchange { of, taken } => {
                // A new win the chase test left out as a mutual attack of two pieces of one
                // kind is that exchange offered.
                if !check {
                    facts
                        .partners
                        .extend(facts.offered.iter().map(|w| w.target));
                }
                !check
                    && (self.offers_exchange(after, mv.to, *of, *taken, true, &mut facts.partners)
                        || !facts.partners.is_empty())
            }
            Test::OffersSacrifice { taker, result } => {
                !check && self.offers_sacrifice(after, mv.to, *taker, *result, &mut facts.partners)
            }
            Test::Blocks {
                mate_depth,
                material,
            } => {
                !check
                    && self
                        .blocks(before, after, mv.to, *mate_depth, *material)
                        .inspect(|&l| facts.blocked = Some(l))
                        .is_some()
            }
            Test::Follows => {
                !check
                    && m.prev.is_some_and(|(_, p)| {
                        self.follows(passed, mv.to, p.to, &mut facts.partners)
                    })
            }
            Test::Otherwise => true,
        }
    }

    /// A check's own chases (`with_checks`): the wins that stand whichever way the general
    /// steps out of it, where a chase test of the edition counts them; none where none does.
    fn chases_of_check(&self, m: Played) -> Vec<Win> {
        match self.rep.classes.iter().find(|c| {
            matches!(
                c.test,
                Test::WinsMaterial {
                    with_checks: true,
                    ..
                }
            )
        }) {
            Some(c) => {
                // Without it (a variant's), a check chases nothing.
                let wins = self.wins_past_the_check(&c.test, m);
                if !wins.is_empty() {
                    self.consult(Part::CheckChases);
                }
                wins
            }
            None => Vec::new(),
        }
    }

    /// The material the move lets the mover win (the wins of a chase test, 捉), new ones only
    /// where `repetition.chase_to_chase` asks: those only an exempt first capturer could
    /// take (latent), then the others.
    fn material_wins(&self, test: &Test, m: Played) -> (Vec<Win>, Vec<Win>, Vec<Win>) {
        let (passed, mv) = (m.passed, m.mv);
        let Test::WinsMaterial {
            checks: budget,
            kinds,
            higher_value_always,
            ..
        } = test
        else {
            return (Vec::new(), Vec::new(), Vec::new());
        };
        let rep = self.rep;
        let p = WinParams {
            bounds: Bounds {
                checks: budget.unwrap_or(rep.forcing.checks),
                ..rep.forcing
            },
            kinds: kinds.as_ref().map_or(7, |ks| {
                ks.iter()
                    .filter_map(|k| super::ChaseKind::parse(k))
                    .fold(0, |m, k| m | k.bit())
            }),
            higher_value_always: *higher_value_always,
        };
        let mut now = self.joint_wins(passed, p, Some(mv.to), m.before);
        if rep.new_only.is_some() && !now.is_empty() {
            now = self.new_wins(m, now, p);
        }
        let mut now = Self::best_per_target(now);
        if rep.own_attack_joint {
            // A general's or soldier's capture of a protected piece that another piece of its
            // side bears on too (it takes the target as well, or guards the capturer on its
            // point) is a joint one (26.1.1), and counts; so does one that uncovers a check by
            // another piece (26.8). Another piece's capture later in their line (a recapture)
            // does not make it joint (ch8 图14); their captures later in another piece's line
            // are that piece's chase, made with their help (1999 27.1: 借帅力), and count.
            let counts = |k: KindId| !rep.exempt_first_capturer(k);
            for w in now.iter_mut().filter(|w| w.latent) {
                if (self.rooted(passed, w) && self.borne_by_another(passed, w, &counts, None))
                    || self.uncovers_check(passed, w)
                {
                    w.latent = false;
                }
            }
        }
        let (offered, now): (Vec<Win>, Vec<Win>) = now.into_iter().partition(|w| w.offered);
        let (latent, open) = now.into_iter().partition(|w| w.latent);
        (latent, open, offered)
    }

    /// The wins of `now` (after `mv`, played from `before`) that are new (从捉到捉,
    /// `repetition.chase_to_chase`). A win is new when the move makes it possible or larger:
    /// the same piece could not win the same target before the move, or only less. Before the
    /// move is the position it was played from, the mover to move, every capture judged by the
    /// whole exchange it opens (26.5: a capture that draws a root away lays bare the piece it
    /// guarded). A move that answers a check is also compared with what the mover could win
    /// before the check (the check only interrupted it) and with what any other answer wins
    /// (the check laid that open). How a capture of the opponent's that the move parries bears
    /// on it is the clause's `parried`: `counts` (a flight: before the move, the opponent could
    /// take the moved piece where it stood, against a win that piece takes part in),
    /// `adds_nothing` (what a parrying move adds to a win whose first capture the same piece
    /// could already make is nothing new).
    fn new_wins(&self, m: Played, now: Vec<Win>, p: WinParams) -> Vec<Win> {
        let (before, after, mv) = (m.before, m.after, m.mv);
        let mut old = self.all_wins(before, p);
        // A win whose line starts with this very move (a check) is the move's own.
        old.retain(|o| o.after_check != Some(mv));
        let not_stood = |now: Vec<Win>| -> Vec<Win> {
            now.into_iter()
                .filter(|w| !stood(w, &old, Some(mv)))
                .collect()
        };
        let parried = self.rep.newness.parried;
        // Without `parried` (a variant's), every win that did not stand is new: where `parried`
        // finds otherwise, it steers the move.
        let without = parried.map(|_| not_stood(now.clone()));
        let mut now = match parried {
            Some(super::data::Parried::Counts)
                if !now.is_empty() && self.saves(before, after, mv) =>
            {
                self.new_wins_of_flight(m, now, &old, p)
            }
            Some(super::data::Parried::AddsNothing) if !now.is_empty() => {
                self.new_wins_of_parrying(m, now, &old)
            }
            _ => not_stood(now),
        };
        if without.is_some_and(|w| w != now) {
            self.consult(Part::Newness);
        }
        if m.answered_check {
            self.drop_wins_laid_open_by_check(m, &mut now, p);
        }
        now
    }

    /// [`Analyst::new_wins`] where the move is the flight of the moved piece (`parried:
    /// counts`): before it, the opponent could win that piece where it stood, so the wins it
    /// takes part in did not stand. A win that stands without it on the board (its gain as
    /// large) gains nothing by it, and its own captures are new only where it could not make
    /// them before.
    fn new_wins_of_flight(&self, m: Played, now: Vec<Win>, old: &[Win], p: WinParams) -> Vec<Win> {
        let (passed, mv) = (m.passed, m.mv);
        let mut without = passed.clone();
        let gone = match without.remove(mv.to) {
            Some(q) if q.kind != self.vm.royal_kind() => self.all_wins(&without, p),
            _ => Vec::new(),
        };
        now.into_iter()
            .filter(|w| {
                !stood(w, old, Some(mv))
                    || (w.attacker != mv.to
                        && (!won(w, &gone, None, w.gain) || self.joint(passed, w, Some(mv.to))))
            })
            .collect()
    }

    /// [`Analyst::new_wins`] where a parrying move adds nothing (`parried: adds_nothing`): a
    /// win whose first capture the same piece could already make before the move is new only
    /// where the move took a root away from its target, and parried no threat of the
    /// opponent's by it: a move that saves, guards or shields a piece of its side adds nothing
    /// new to a capture that stood.
    fn new_wins_of_parrying(&self, m: Played, now: Vec<Win>, old: &[Win]) -> Vec<Win> {
        let (before, after, passed, mv) = (m.before, m.after, m.passed, m.mv);
        let roots = |pos: &Position, m: Move| {
            let mut t = pos.clone();
            t.make(self.vm, m);
            t.legal_moves_to(self.vm, m.to).len()
        };
        let mut parries = None;
        now.into_iter()
            .filter(|w| {
                if stood(w, old, Some(mv)) {
                    return false;
                }
                let then = Move::new(origin(mv, w.attacker), w.target);
                if w.after_check.is_some() || !before.is_legal(self.vm, then) {
                    return true;
                }
                roots(passed, Move::new(w.attacker, w.target)) < roots(before, then)
                    && !*parries.get_or_insert_with(|| self.parries(before, after, mv))
            })
            .collect()
    }

    /// [`Analyst::new_wins`] for a move that answers a check: what the mover could win before
    /// the check was given (the check only interrupted it), and what another answer would
    /// win as well (the check laid it open), the move did not make.
    fn drop_wins_laid_open_by_check(&self, m: Played, now: &mut Vec<Win>, p: WinParams) {
        let (before, mv) = (m.before, m.mv);
        let side = before.side_to_move();
        if let Some((before_check, _)) = m.prev.filter(|_| !now.is_empty()) {
            let then = self.all_wins(&Analyst::with_mover(before_check, side), p);
            now.retain(|w| !stood(w, &then, Some(mv)));
        }
        for m2 in before
            .legal_moves(self.vm)
            .into_iter()
            .filter(|&m2| m2 != mv)
        {
            if now.is_empty() {
                break;
            }
            let mut a2 = before.clone();
            a2.make(self.vm, m2);
            let other = self.all_wins(&Analyst::with_mover(&a2, side), p);
            now.retain(|w| !stood(w, &other, None));
        }
    }

    /// Whether the move `mv` (from `before`, giving `after`) saves the piece it moves: before
    /// the move the opponent had a capture that won it where it stood, after it none wins it
    /// where it stands (the move is its flight).
    fn saves(&self, before: &Position, after: &Position, mv: Move) -> bool {
        let theirs = Analyst::with_mover(before, before.side_to_move().opponent());
        let wins_it = |pos: &Position, at: Square| {
            pos.legal_moves_to(self.vm, at)
                .into_iter()
                .any(|m| self.capture_wins(pos, m))
        };
        wins_it(&theirs, mv.from) && !wins_it(after, mv.to)
    }

    /// Whether the move `mv` (from `before`, giving `after`) parries a threat of the
    /// opponent's: before the move the opponent (were it to move) won material by a forcing
    /// line that it no longer wins, or only less, after it.
    fn parries(&self, before: &Position, after: &Position, mv: Move) -> bool {
        let b = self.rep.forcing;
        let theirs = Analyst::with_mover(before, before.side_to_move().opponent());
        let now = self.forcing_lines(after, b);
        self.forcing_lines(&theirs, b).iter().any(|l| {
            let t = if l.target == mv.from { mv.to } else { l.target };
            !now.iter().any(|a| a.target == t && a.gain >= l.gain)
        })
    }

    /// What a check `mv` (played from `before`, giving `after`) would win, newly, whichever
    /// way the general steps out of it: its chases besides the check (`with_checks`). When
    /// the general cannot step, what the check wins as it stands.
    fn wins_past_the_check(&self, test: &Test, m: Played) -> Vec<Win> {
        let after = m.after;
        let Some(general) = after.royal_point(self.vm, after.side_to_move()) else {
            return Vec::new();
        };
        let mut out: Option<Vec<Win>> = None;
        for step in after.legal_moves_from(self.vm, general) {
            let mut answered = after.clone();
            answered.make(self.vm, step);
            let (_, open, _) = self.material_wins(
                test,
                Played {
                    passed: &answered,
                    ..m
                },
            );
            let won = |t: Square| open.iter().any(|w| w.target == t);
            match &mut out {
                None => out = Some(open.clone()),
                Some(o) => o.retain(|w| won(w.target)),
            }
            if out.as_ref().is_some_and(Vec::is_empty) {
                break;
            }
        }
        match out {
            Some(o) => o,
            None => {
                // The general cannot step: what the check wins as it stands.
                let passed = Analyst::with_mover(after, after.side_to_move().opponent());
                self.material_wins(
                    test,
                    Played {
                        passed: &passed,
                        ..m
                    },
                )
                .1
            }
        }
    }

    /// Whether a special case's move-level conditions hold for `f` (played, giving `after`).
    pub(crate) fn holds(&self, x: &Exception, f: &PlyFacts, after: &Position) -> bool {
        let rep = self.rep;
        let kinds_of = |ws: &[Win]| -> Vec<KindId> {
            ws.iter()
                .filter_map(|w| after.piece_at(w.target).map(|p| p.kind))
                .collect()
        };
        x.mover.is_none_or(|m| m >> f.mover & 1 == 1)
            && x.answers_check.is_none_or(|a| a == f.answered_check)
            && x.class.as_ref().is_none_or(|cs| cs.contains(&f.class))
            && x.targets_only.is_none_or(|m| {
                let ks = kinds_of(&f.wins);
                !ks.is_empty() && ks.iter().all(|&k| m >> k & 1 == 1)
            })
            && x.attacking_at_most.is_none_or(|(n, m)| {
                let count: u32 = (0..rep.kind_names.len() as KindId)
                    .filter(|k| m >> k & 1 == 1)
                    .map(|k| after.count(f.side, k))
                    .sum();
                count <= n
            })
            && x.latent_by.is_none_or(|m| {
                f.wins.is_empty()
                    && !f.latent.is_empty()
                    && f.latent.iter().all(|w| {
                        after
                            .piece_at(w.attacker)
                            .is_some_and(|p| m >> p.kind & 1 == 1)
                    })
            })
            && x.own_general_threatened
                .is_none_or(|d| self.mates_by_checks(after, d))
    }

    /// Whether the mate threat of `passed` is gone with the moved piece (on `at`) off the
    /// board, and the move offers that piece for exchange (兑, 24.4): the opponent may take it
    /// at no loss, and the threat with it.
    fn threat_rests_on_offered_piece(
        &self,
        passed: &Position,
        after: &Position,
        at: Square,
        depth: u8,
    ) -> bool {
        let mut without = passed.clone();
        without.remove(at);
        !self.mates_by_checks(&without, depth)
            && self.offers_exchange(
                after,
                at,
                super::data::Exchangeable::SameKind,
                self.rep.exchange_taken,
                false,
                &mut Vec::new(),
            )
    }

    /// Whether the piece on `guard` could take back on `sq`, where a piece of its own side
    /// stands: with an opposing piece of that kind there, it could take it.
    fn guards(&self, pos: &Position, guard: Square, sq: Square) -> bool {
        let (Some(g), Some(q)) = (pos.piece_at(guard), pos.piece_at(sq)) else {
            return false;
        };
        if q.kind == self.vm.royal_kind() {
            return false;
        }
        let mut p = pos.clone();
        p.remove(sq);
        p.put(
            crate::board::Piece {
                side: q.side.opponent(),
                kind: q.kind,
            },
            sq,
        );
        p.set_side_to_move(g.side);
        p.is_legal(self.vm, Move::new(guard, sq))
    }

    /// Every way the side to move wins material were its opponent to pass
    /// ([`Analyst::all_wins`]), a win another piece takes part in counted joint (联合,
    /// [`Analyst::joint`]); `moved`, the point of the piece the move put there; `prior`, the
    /// position the move was made from (what the move laid open counts against its wins).
    fn joint_wins(
        &self,
        pos: &Position,
        p: WinParams,
        moved: Option<Square>,
        prior: &Position,
    ) -> Vec<Win> {
        let mut wins = self.all_wins_after(pos, p, Some(prior));
        for w in wins.iter_mut() {
            if w.kind != super::ChaseKind::Joint && self.joint(pos, w, moved) {
                w.kind = super::ChaseKind::Joint;
            }
        }
        wins
    }

    /// Whether the win `w` (in `passed`, the winner to move) is joint (联合, 24.3
    /// 与其他子联合吃子): two pieces of the winner's take part in it, as the book's joint
    /// chases have them (ch8 图10, 11, 25, 27, 28, ch9 参考图38, 39, 40). A root of the target
    /// is held from taking back (a pin: 图11); or the target has a root and a second piece
    /// bears on it, taking it too or guarding the capturer on its point (图10, 25, 27, 28,
    /// 参考图38) — where the move put another piece than the capturer (`moved`), that piece
    /// must be the one that bears; or the moved piece guards the capturer, or a screen of the
    /// capture, where the target itself could take it and lose by it (the target's own way
    /// out: 参考图39). A screen alone never makes a chase joint: each screen of the book's joint
    /// chases also bears on the target, or is guarded by the moved piece; a guard that did
    /// not move, of a screen the capturer's own move uses, does not either (图26: 黑方长捉车).
    fn joint(&self, passed: &Position, w: &Win, moved: Option<Square>) -> bool {
        let vm = self.vm;
        let Some(taken) = self.first_capture_made(passed, w) else {
            return false;
        };
        let winner = passed.side_to_move();
        let roots = self.roots(&taken, w.target);
        let legal_roots: Vec<Square> = taken
            .legal_moves_to(vm, w.target)
            .iter()
            .map(|x| x.from)
            .collect();
        let partner = moved.filter(|&p| p != w.attacker);
        let pinned = |r: &Square| {
            !legal_roots.contains(r)
                && partner.is_none_or(|p| {
                    let mut without = taken.clone();
                    without.remove(p);
                    without
                        .legal_moves_to(vm, w.target)
                        .iter()
                        .any(|x| x.from == *r)
                })
        };
        if roots.iter().any(pinned) {
            return true;
        }
        if !roots.is_empty() && self.borne_by_another(passed, w, &|_| true, partner) {
            return true;
        }
        let Some(guard) = partner else {
            return false;
        };
        let mut theirs = passed.clone();
        theirs.set_side_to_move(winner.opponent());
        let worth = |sq: Square| self.value(passed, sq);
        std::iter::once(w.attacker)
            .chain(Square::between(w.attacker, w.target))
            .filter(|&sq| sq != guard && passed.piece_at(sq).is_some_and(|q| q.side == winner))
            .filter(|&sq| worth(sq) < worth(w.target))
            .filter(|&sq| theirs.is_legal(vm, Move::new(w.target, sq)))
            .any(|sq| self.guards(passed, guard, sq))
    }

    /// Whether the first capture of `w` (won in `passed`) gives a check by another piece than
    /// the capturer (a discovered check).
    fn uncovers_check(&self, passed: &Position, w: &Win) -> bool {
        let vm = self.vm;
        let Some(mut taken) = self.first_capture_made(passed, w) else {
            return false;
        };
        if !taken.in_check(vm) {
            return false;
        }
        taken.remove(w.target);
        taken.in_check(vm)
    }

    /// The position after the first capture of `w` (won in `passed`), when that capture is
    /// the line's own (not made after a check) and legal there.
    fn first_capture_made(&self, passed: &Position, w: &Win) -> Option<Position> {
        let m = Move::new(w.attacker, w.target);
        if w.after_check.is_some() || !passed.is_legal(self.vm, m) {
            return None;
        }
        let mut taken = passed.clone();
        taken.make(self.vm, m);
        Some(taken)
    }

    /// The roots of the piece just taken on `target` in `taken` (its capturer's opponent
    /// to move): the pieces of its side that reach its point, pins aside.
    fn roots(&self, taken: &Position, target: Square) -> Vec<Square> {
        let loser = taken.side_to_move();
        taken
            .pieces()
            .filter(|(r, q)| {
                q.side == loser && {
                    let mut buf = MoveBuf::new();
                    taken.pseudo_moves_from(self.vm, *r, &mut buf);
                    buf.as_slice().iter().any(|x| x.to == target)
                }
            })
            .map(|(r, _)| r)
            .collect()
    }

    /// Whether the target of `w` (won in `passed`) has a root: a piece of its side that
    /// reaches its point once the capture is made, pins aside.
    fn rooted(&self, passed: &Position, w: &Win) -> bool {
        let m = Move::new(w.attacker, w.target);
        if !passed.is_legal(self.vm, m) {
            return false;
        }
        let mut taken = passed.clone();
        taken.make(self.vm, m);
        !self.roots(&taken, w.target).is_empty()
    }

    /// Whether another piece of the winner's (`only` that one, if given), of the kinds
    /// `counts` allows, bears on the target of `w` (won in `passed`): it can take it too, or
    /// it guards the capturer on its point.
    fn borne_by_another(
        &self,
        passed: &Position,
        w: &Win,
        counts: &dyn Fn(KindId) -> bool,
        only: Option<Square>,
    ) -> bool {
        let vm = self.vm;
        let Some(taken) = self.first_capture_made(passed, w) else {
            return false;
        };
        let winner = passed.side_to_move();
        let takers: Vec<Square> = passed
            .legal_moves_to(vm, w.target)
            .iter()
            .map(|x| x.from)
            .collect();
        passed
            .pieces()
            .filter(|(sq, q)| {
                q.side == winner
                    && *sq != w.attacker
                    && counts(q.kind)
                    && only.is_none_or(|o| o == *sq)
            })
            .any(|(q, _)| takers.contains(&q) || self.guards(&taken, q, w.target))
    }

    /// 兑 (24.4): an opposing piece of the kind `of` asks (the moved piece's own kind, or one
    /// of equal worth: 1999 28.5) may take it, legally, and is neither mated at once nor loses
    /// material by the forcing line after it; or the moved piece may so take such a piece.
    /// With `across`, the same holds for two such pieces that attack each other over the
    /// moved piece, the screen the move put between them (ch8 图13).
    fn offers_exchange(
        &self,
        after: &Position,
        at: Square,
        of: super::data::Exchangeable,
        taken: super::data::Taken,
        across: bool,
        partners: &mut Vec<Square>,
    ) -> bool {
        let b = self.rep.forcing;
        let safely = taken == super::data::Taken::Safely;
        let matched = |pos: &Position, a: Square, c: Square| match of {
            super::data::Exchangeable::SameKind => {
                pos.piece_at(a).map(|p| p.kind) == pos.piece_at(c).map(|p| p.kind)
            }
            super::data::Exchangeable::EqualWorth => {
                self.material(pos, a).is_some() && self.material(pos, a) == self.material(pos, c)
            }
        };
        let over_moved = |m: &Move| Square::between(m.from, m.to).any(|sq| sq == at);
        // The opponent's captures of a piece of the mover by a matching piece.
        let offered =
            |m: &Move| matched(after, m.from, m.to) && (m.to == at || (across && over_moved(m)));
        if self.material(after, at).is_some() || across {
            let takes = if across {
                after.legal_captures(self.vm)
            } else {
                after.legal_moves_to(self.vm, at)
            };
            for m in takes.into_iter().filter(offered) {
                if self.capture_result(after, m, b) == Val::ZERO
                    && !(safely && self.mated_after(after, m))
                {
                    partners.push(m.from);
                }
            }
        }
        // The mover's captures of a matching piece, the moved piece's or over it.
        let passed = Analyst::with_mover(after, after.side_to_move().opponent());
        let own = |m: &Move| m.from == at || (across && over_moved(m));
        for m in passed.legal_captures(self.vm).into_iter().filter(own) {
            if matched(&passed, m.from, m.to) && self.capture_result(&passed, m, b) == Val::ZERO {
                partners.push(m.to);
            }
        }
        partners.sort();
        partners.dedup();
        !partners.is_empty()
    }

    /// 献 (24.5): the moved piece is offered to capture: an opposing piece (of its kind, where
    /// `taker` asks: 1999 28.6) may take it, legally, without being mated at once, and without
    /// losing material by the forcing line after it (or, where `result` asks, winning by it:
    /// 1999's 无根子送吃).
    fn offers_sacrifice(
        &self,
        after: &Position,
        at: Square,
        taker: super::data::Taker,
        result: super::data::Outcome,
        partners: &mut Vec<Square>,
    ) -> bool {
        if self.material(after, at).is_none() {
            return false;
        }
        let kind = |sq: Square| after.piece_at(sq).map(|p| p.kind);
        for m in after.legal_moves_to(self.vm, at) {
            if taker == super::data::Taker::SameKind && kind(m.from) != kind(at) {
                continue;
            }
            let v = self.capture_result(after, m, self.rep.forcing);
            let good = match result {
                super::data::Outcome::NoLoss => v >= Val::ZERO,
                super::data::Outcome::Gain => self.gains(v),
            };
            if good && !self.mated_after(after, m) {
                partners.push(m.from);
            }
        }
        !partners.is_empty()
    }

    /// Whether, after the capture `m`, its maker is mated by consecutive checks within the
    /// forcing bound's `mate_after_gain` moves.
    fn mated_after(&self, pos: &Position, m: Move) -> bool {
        let d = self.rep.forcing.mate_after_gain;
        let mut next = pos.clone();
        next.make(self.vm, m);
        d > 0 && self.mates_by_checks(&next, d)
    }

    /// 跟: the moved piece (on `at`) attacks the opposing piece that has just moved (to
    /// `moved`), which is material, without winning it (a heavier class would have held).
    fn follows(
        &self,
        passed: &Position,
        at: Square,
        moved: Square,
        partners: &mut Vec<Square>,
    ) -> bool {
        let hit = self.material(passed, moved).is_some()
            && passed.is_legal(self.vm, Move::new(at, moved));
        if hit {
            partners.push(moved);
        }
        hit
    }

    /// 拦: before the move the opponent threatened mate by consecutive checks; after it the
    /// threat is gone, and the moved piece stands in the line of an opposing line piece (a
    /// piece with slides or hops) with nothing between. Returns that piece.
    fn blocks(
        &self,
        before: &Position,
        after: &Position,
        at: Square,
        mate_depth: u8,
        material: bool,
    ) -> Option<Square> {
        let opp = after.side_to_move();
        // First where it stands: in the line of an opposing line piece, nothing between.
        let line_piece = |sq: Square| {
            after
                .piece_at(sq)
                .is_some_and(|p| p.side == opp && self.vm.has_line_moves(opp, p.kind))
        };
        let mut blocked = None;
        'dirs: for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let (mut f, mut r) = (at.file() as i32 + df, at.rank() as i32 + dr);
            while let Some(sq) = Square::new(f, r) {
                if after.piece_at(sq).is_some() {
                    if line_piece(sq) {
                        blocked = Some(sq);
                        break 'dirs;
                    }
                    break;
                }
                f += df;
                r += dr;
            }
        }
        blocked?;
        // Then what it takes away.
        let threatened = Analyst::with_mover(before, opp);
        let mut parried = self.mates_by_checks(&threatened, mate_depth)
            && !self.mates_by_checks(after, mate_depth);
        if !parried && material {
            // Or a win of material the opponent had is gone (24.6: 阻拦对方棋子).
            let won_after = self.forcing_lines(after, self.rep.forcing);
            parried = self
                .forcing_lines(&threatened, self.rep.forcing)
                .iter()
                .any(|l| l.target != at && !won_after.iter().any(|w| w.target == l.target));
        }
        parried.then_some(blocked).flatten()
    }
}

/// The same piece before the move `mv`: where the moved piece stood, it is the piece now on
/// its point.
fn origin(mv: Move, sq: Square) -> Square {
    if sq == mv.to {
        mv.from
    } else {
        sq
    }
}

/// Whether the same piece could win the same target in `old` for at least `least` (the
/// attacker followed back through `moved`, the move played, if any); an old latent win or
/// exchange offer stands only for a latent one or an offer.
fn won(w: &Win, old: &[Win], moved: Option<Move>, least: Val) -> bool {
    let attacker = moved.map_or(w.attacker, |mv| origin(mv, w.attacker));
    old.iter().any(|o| {
        o.target == w.target
            && attacker == o.attacker
            && o.gain >= least
            && (!o.latent || w.latent)
            && (!o.offered || w.offered)
    })
}

/// Whether a win stood in `old`: the same piece could win the same target without losing
/// material, or at least as much as now (a result that is no loss only by the floating
/// measure, a floating piece for a piece, stands for as much).
fn stood(w: &Win, old: &[Win], moved: Option<Move>) -> bool {
    won(w, old, moved, w.gain.min(Val::ZERO))
}
