//! The search itself: a node's candidate moves, playing a move, and a node (the attacker
//! maximises, the defender minimises, both may stand still unless in check).

use crate::board::{Move, Side, Square};

use crate::vm::position_internals::{Legality, MoveBuf};
use crate::vm::{Position, Undo};

use super::super::analysis::{Analyst, ChaseKind, Val};
use super::{
    board_order, capturable_from, narrow, spend_check, Before, Bounds, Candidates, Capture,
    MateAtOnceIn, Out, Search, MATE,
};

impl<'s, 'a> Search<'s, 'a> {
    pub(super) fn new(an: &'s Analyst<'a>, b: Bounds, attacker: Side) -> Search<'s, 'a> {
        Search {
            an,
            b,
            plies: b.plies,
            nodes: 0,
            line: Vec::new(),
            attacker,
            only_target: None,
            taken: false,
            free: Vec::new(),
            root_captures: Vec::new(),
            takes_laid_open: b.laid_open,
            on_point: None,
            check_move: None,
            checker: None,
            at_once: MateAtOnceIn::on_one_point(b.mate_at_once_in),
            answer_run: 0,
            prior: None,
        }
    }

    /// How many more of the defender's checks in a row may mate the attacker and refute its
    /// line: `mate_after_gain`, less, where only a mate at once counts (`at_once`), the
    /// checks given since the attacker's last capture.
    fn mate_moves_left(&self) -> u8 {
        if self.at_once {
            self.b.mate_after_gain.saturating_sub(self.answer_run)
        } else {
            self.b.mate_after_gain
        }
    }

    /// Between lines of equal worth the kind of the first capture decides, never the order
    /// the moves were generated in (which follows the board's orientation); a capture by a
    /// piece `repetition.own_attack` exempts ranks after any other. Lower ranks first.
    fn rank(o: &Out) -> u8 {
        o.first.map_or(8, |f| u8::from(f.exempt) * 4 + f.kind as u8)
    }

    /// Check budgets: the attacker's, then the defender's.
    pub(super) fn budgets(&self) -> [u8; 2] {
        [self.b.checks, self.b.answer_checks]
    }

    /// Where the piece now on `sq` stood at the root.
    fn origin(&self, mut sq: Square) -> Square {
        for m in self.line.iter().rev() {
            if m.to == sq {
                sq = m.from;
            }
        }
        sq
    }

    /// The captures the other side has here were the side to move to pass: the ones the
    /// side to move's next capture does not create.
    pub(super) fn captures_before(&self, pos: &Position) -> (Option<Position>, Vec<Move>) {
        if pos.side_to_move() != self.attacker || !self.takes_laid_open {
            return (None, Vec::new());
        }
        let theirs = Analyst::with_mover(pos, pos.side_to_move().opponent());
        let moves = self.an.legal_captures(&theirs);
        (Some(theirs), moves)
    }

    /// Whether the defender's capture `m` (not on the last capture's point) is one the line
    /// laid open: not possible before the attacker's last move, or a loss then and winning now
    /// (the attacker's capture took away the target's root). Asked only of the captures the
    /// search reaches, so that a cut-off spares the exchange searches of the others. The
    /// exchange before the move is asked first: it is the same for every move of the
    /// attacker's node (memoised), and where the capture won then, the one after the move
    /// need not be searched. The answer to a line's first capture is also judged against the
    /// position the judged move was made from (`prior`): what that move laid open counts.
    fn laid_open_to(&self, pos: &Position, m: Move, before: Option<(&Before, Move, Undo)>) -> bool {
        let Some((cell, played, undo)) = before else {
            return true;
        };
        let had = cell.get_or_init(|| {
            let mut parent = pos.clone();
            parent.unmake(self.an.vm, played, undo);
            self.captures_before(&parent)
        });
        let laid = |had: &(Option<Position>, Vec<Move>)| match had {
            (Some(theirs), moves) if moves.contains(&m) => {
                !self.good_capture(theirs, m) && self.good_capture(pos, m)
            }
            _ => true,
        };
        // The answer to a line's first capture may also take what the judged move laid open:
        // a capture it did not have, or that lost, before that move.
        laid(had) || (self.line.len() == 1 && self.prior.as_ref().is_some_and(laid))
    }

    /// Whether the capture `m` of the side to move wins by itself ([`Analyst::capture_wins`]).
    pub(super) fn good_capture(&self, pos: &Position, m: Move) -> bool {
        self.an.capture_wins(pos, m)
    }

    /// Whether the attacker's capture `m`, later in a line, is one the line laid open
    /// (`laid_open`): not possible at the root, or a loss there and winning now.
    /// A line that starts with a check (no root captures kept) takes whatever its checks win.
    fn laid_open(&self, pos: &Position, m: Move) -> bool {
        self.root_captures
            .iter()
            .find(|r| r.0 == m)
            .is_none_or(|&(_, good)| !good && self.good_capture(pos, m))
    }

    /// Whether, after the capture `m`, nothing can take back on its point.
    pub(super) fn no_recapture(&self, pos: &Position, m: Move) -> bool {
        let vm = self.an.vm;
        let mut next = pos.clone();
        next.make(vm, m);
        !next.has_legal_move_to(vm, m.to)
    }

    /// The moves worth searching for the side to move, with what each takes (from the
    /// attacker's side: positive for the attacker's captures): every legal move in check;
    /// otherwise captures of material (the defender's only on `last` or where the last move
    /// laid them open), dearest first, then, budget left, checks that capture nothing (on
    /// one point, deferred until the captures are searched). Every check of the side to
    /// move, where they are generated, goes to `checks` (empty).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn candidates(
        &self,
        pos: &Position,
        in_check: bool,
        ply: u8,
        budgets: [u8; 2],
        last: Option<Square>,
        ahead: bool,
        checks: &mut MoveBuf,
    ) -> Candidates {
        if in_check {
            return self.answers_to_check(pos);
        }
        let attacking = pos.side_to_move() == self.attacker;
        // The defender checks back only to win back what the attacker is ahead by; on the
        // line's last ply a check can win nothing back, and whether it mates is asked once the
        // captures are searched (`mate_after_gain`). The attacker's check that takes nothing
        // serves only a capture two plies on, so none is tried where that would lie past the
        // bound.
        let want_checks = budgets[usize::from(!attacking)] > 0
            && if attacking {
                ply + 2 < self.plies
            } else {
                ahead && (ply + 1 < self.plies || self.b.mate_after_gain == 0)
            };
        let mut moves = self.captures(pos, want_checks, last, checks);
        if self.on_point.is_some() {
            return Candidates {
                moves,
                checks: false,
                deferred: want_checks,
                untested: None,
            };
        }
        self.quiet_checks(pos, checks.as_slice(), &mut moves);
        Candidates {
            moves,
            checks: want_checks,
            deferred: false,
            untested: None,
        }
    }

    /// In check: every answer to the check, tested for self-kill only as the search reaches
    /// it (`untested`): a node cut off early tests none of the others. The answers come from
    /// the ruling's memo of moves (`Analyst::evasions_into`).
    fn answers_to_check(&self, pos: &Position) -> Candidates {
        let an = self.an;
        let mut all = an.move_list();
        let legality = an.evasions_into(pos, &mut all);
        self.signed(pos, &mut all);
        Candidates {
            moves: all,
            checks: false,
            deferred: false,
            untested: Some(legality),
        }
    }

    /// The captures of material worth searching, with what each takes (signed from the
    /// attacker's side), dearest first (see [`Search::candidates`]); the checks of the side to
    /// move go to `checks` where they are generated.
    fn captures(
        &self,
        pos: &Position,
        want_checks: bool,
        last: Option<Square>,
        checks: &mut MoveBuf,
    ) -> Vec<(Val, Move)> {
        let an = self.an;
        let vm = an.vm;
        let attacking = pos.side_to_move() == self.attacker;
        // On one point the captures are the moves onto it; the checks, searched after them,
        // are generated only where no capture settles the node (`deferred`).
        let mut captures = MoveBuf::new();
        match self.on_point {
            Some(p)
                if pos
                    .piece_at(p)
                    .is_some_and(|q| q.side != pos.side_to_move()) =>
            {
                pos.legal_moves_to_into(vm, p, &mut captures)
            }
            Some(_) => {}
            None => an.captures_and_checks_into(pos, want_checks, &mut captures, checks),
        }
        // A defender's capture other than on the last capture's point is searched only where
        // the line may lay it open (`takes_laid_open`); whether it does is asked only of the
        // captures the search reaches ([`Search::laid_open_to`]).
        let mut moves = an.move_list();
        moves.extend(
            captures
                .as_slice()
                .iter()
                .copied()
                .filter(|m| self.on_point.is_none_or(|p| m.to == p))
                .filter(|&m| attacking || Some(m.to) == last || self.takes_laid_open)
                .filter_map(|m| an.material(pos, m.to).map(|v| (v, m))),
        );
        let side = pos.side_to_move();
        moves.sort_by_key(|&(v, m)| (std::cmp::Reverse(v), board_order(side, m)));
        if attacking && !self.line.is_empty() {
            moves.retain(|(_, m)| !self.free.contains(m));
            if self.b.laid_open {
                moves.retain(|&(_, m)| Some(m.to) == last || self.laid_open(pos, m));
            }
        }
        self.signed(pos, &mut moves);
        moves
    }

    /// Values taken from the attacker's side: the defender's captures count against it.
    fn signed(&self, pos: &Position, moves: &mut [(Val, Move)]) {
        if pos.side_to_move() != self.attacker {
            for (v, _) in moves {
                *v = -*v;
            }
        }
    }

    /// Appends to `out` the checks among `checks` (moves of the side to move) that capture no
    /// material, as they are searched: after the captures, in the order the side to move sees
    /// the board.
    fn quiet_checks(&self, pos: &Position, checks: &[Move], out: &mut Vec<(Val, Move)>) {
        let side = pos.side_to_move();
        let start = out.len();
        out.extend(
            checks
                .iter()
                .filter(|m| self.an.material(pos, m.to).is_none())
                .map(|&m| (Val::ZERO, m)),
        );
        out[start..].sort_by_key(|&(_, m)| board_order(side, m));
    }

    /// Plays `m` (taking `gain`, from the attacker's side) and searches on.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn play(
        &mut self,
        pos: &mut Position,
        was_in_check: bool,
        m: Move,
        gain: Val,
        ply: u8,
        budgets: [u8; 2],
        acc: Val,
        alpha: Val,
        beta: Val,
        before: &Before,
    ) -> Out {
        let vm = self.an.vm;
        let attacking = pos.side_to_move() == self.attacker;
        // A check that takes no material (an uncrossed soldier) uses the budget of checks.
        let capture = self.an.material(pos, m.to).is_some();
        let target =
            (attacking && self.an.material(pos, m.to).is_some()).then(|| self.origin(m.to));
        let mover = self.origin(m.from);
        let (tv, av) = (self.an.value(pos, m.to), self.an.value(pos, m.from));
        let mut budgets = budgets;
        let mut u = pos.make(vm, m);
        let gives_check = pos.in_check(vm);
        // What the defender's checking piece could take before it moved (asked of checks only).
        let could_take = if !attacking && gives_check {
            pos.unmake(vm, m, u);
            let bits = capturable_from(vm, pos, m.from);
            u = pos.make(vm, m);
            bits
        } else {
            0
        };
        let i = usize::from(!attacking);
        if !was_in_check {
            budgets[i] = spend_check(budgets[i], capture, gives_check);
        }
        self.line.push(m);
        let took_before = self.taken;
        self.taken |= attacking && target.is_some() && target == self.only_target;
        // The defender's captures are judged against what it had before this move; the
        // attacker's are not restricted. Where this move answers the defender's check, the
        // piece that gave it may take what its move laid open.
        let outer = self.check_move;
        self.checker = if attacking && was_in_check {
            self.check_move
        } else {
            None
        };
        self.check_move = (!attacking && gives_check).then_some((m.to, could_take));
        let run = self.answer_run;
        self.answer_run = match (attacking, capture, gives_check) {
            (true, true, _) | (false, _, false) => 0,
            (true, false, _) => run,
            (false, _, true) => run.saturating_add(1),
        };
        let child = self.node(
            pos,
            gives_check,
            ply + 1,
            budgets,
            acc + gain,
            alpha - gain,
            beta - gain,
            m.to,
            attacking.then_some((before, m, u)),
        );
        self.check_move = outer;
        self.answer_run = run;
        self.taken = took_before;
        self.line.pop();
        pos.unmake(vm, m, u);
        let mut o = Out {
            v: gain + child.v,
            first: child.first,
            pieces: child.pieces,
            recapture: false,
        };
        if attacking {
            o.pieces |= 1u128 << mover.index();
        }
        if let Some(t) = target.filter(|&t| self.only_target.is_none_or(|o| o == t)) {
            if let Some(c) = self.first_capture(pos, m, t, mover, (tv, av), &child) {
                o.first = Some(c);
            }
        }
        o
    }

    /// The attacker's capture `m` of `target` (worth `tv`, by a piece worth `av`) as the first
    /// capture of its line, of the kind the line after it (`child`) makes it: none where a
    /// capture that loses by itself wins only by what it opens (`laid_open`: the piece won
    /// after it on another point, by a capture that wins by itself).
    fn first_capture(
        &self,
        pos: &Position,
        m: Move,
        target: Square,
        capturer: Square,
        (tv, av): (Val, Val),
        child: &Out,
    ) -> Option<Capture> {
        let kind = if !child.recapture {
            ChaseKind::Unprotected
        } else if tv > av {
            ChaseKind::HigherValue
        } else {
            ChaseKind::Joint
        };
        let exempt = pos
            .piece_at(m.from)
            .is_some_and(|p| self.an.rep.exempt_first_capturer(p.kind));
        let opens = self.b.laid_open
            && kind == ChaseKind::Joint
            && tv < av
            && child
                .first
                .is_some_and(|f| f.kind != ChaseKind::Joint && f.at != m.to);
        (!opens).then_some(Capture {
            target,
            capturer,
            kind,
            exempt,
            at: m.to,
        })
    }

    /// A node that standing still settles: no move need be generated. A defender node still
    /// says whether it could take back on the point of the last capture.
    fn stand_still(&self, pos: &Position, attacking: bool, last: Square, end: Out) -> Out {
        let recapture = !attacking
            && self.an.material(pos, last).is_some()
            && pos.has_legal_move_to(self.an.vm, last);
        Out { recapture, ..end }
    }

    /// In check with no move to search: the attacker mated refutes its line, unless in a
    /// chase's lines the mate does not come at once (then the line ends on its material,
    /// `end`: 24.3's 下一着不予考虑); the defender mated makes the reply that led here no
    /// refutation (it would rather stand still), so the line is worth more to the attacker
    /// than any material.
    fn mated(
        &self,
        pos: &Position,
        attacking: bool,
        (bounded, recapture): (bool, bool),
        end: Out,
    ) -> Option<Out> {
        if attacking && !pos.has_legal_move(self.an.vm) {
            let at_once = !self.at_once || self.answer_run <= self.b.mate_after_gain;
            return Some(if at_once { Out::val(-MATE) } else { end });
        }
        if !attacking && !bounded && (self.only_target.is_none() || self.taken) {
            return Some(Out {
                recapture,
                ..Out::val(MATE)
            });
        }
        None
    }

    /// Whether the defender, not in check, may play `m`: a recapture on the point just taken,
    /// anything but a capture of material, a capture by the piece whose check was just answered
    /// of what its move laid open, or a capture the attacker's last move laid open.
    fn defender_may_take(
        &self,
        pos: &Position,
        m: Move,
        last: Square,
        checker: Option<(Square, u128)>,
        before: Option<(&Before, Move, Undo)>,
    ) -> bool {
        m.to == last
            || checker.is_some_and(|(at, had)| m.from == at && had >> m.to.index() & 1 == 0)
            || self.an.material(pos, m.to).is_none()
            || self.laid_open_to(pos, m, before)
    }

    /// Whether `o` is better than `best` for the side to move. The attacker goes on only for
    /// more by the rule's own measure (`gains`): a trade of a floating piece for less than it
    /// is worth is no better than stopping. Between equal results the kind decides (`rank`).
    fn improves(&self, attacking: bool, o: &Out, best: &Out) -> bool {
        let rank = Self::rank;
        if attacking {
            (o.v > best.v && self.an.gains(o.v - best.v)) || (o.v == best.v && rank(o) < rank(best))
        } else {
            o.v < best.v || (o.v == best.v && rank(o) > rank(best))
        }
    }

    /// Whether the defender, to move, mates the attacker by consecutive checks within
    /// `mate_after_gain` moves (in a chase's lines, counting the checks it gave since the
    /// attacker's last capture: `mate_moves_left`). On one point the checks were searched after the captures
    /// (every one that takes no material, and the captures in `first`), and one that mated
    /// would have settled the node: only the others are asked.
    fn mated_once_ahead(
        &self,
        pos: &Position,
        checks: Option<&[Move]>,
        first: &[(Val, Move)],
    ) -> bool {
        let an = self.an;
        let left = self.mate_moves_left();
        left > 0
            && match checks {
                Some(all) if self.on_point.is_some() && left == 1 => an.mates_at_once_by(
                    pos,
                    all.iter().filter(|m| {
                        an.material(pos, m.to).is_some() && !first.iter().any(|&(_, f)| f == **m)
                    }),
                ),
                checks => an.mates_by_checks_among(pos, left, checks),
            }
    }

    /// A position inside a line: the attacker maximises, the defender minimises, both may
    /// stand still unless in check.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &mut Position,
        in_check: bool,
        ply: u8,
        budgets: [u8; 2],
        acc: Val,
        mut alpha: Val,
        mut beta: Val,
        last: Square,
        before: Option<(&Before, Move, Undo)>,
    ) -> Out {
        let an = self.an;
        let attacking = pos.side_to_move() == self.attacker;
        let checker = self.checker.take();
        self.nodes += 1;
        let end = self.end(acc);
        // Every search of the ply spends its budget, the exchanges on one point too.
        let capped = an.spend() >= an.ply_cap();
        let bounded = ply >= self.plies || self.nodes >= self.b.nodes || capped;
        let settled = (attacking && end.v > beta) || (!attacking && end.v < alpha);
        if !in_check && !bounded && settled {
            return self.stand_still(pos, attacking, last, end);
        }
        let mut all = MoveBuf::new();
        let Candidates {
            mut moves,
            mut checks,
            mut deferred,
            untested,
        } = if bounded {
            Candidates::NONE
        } else {
            self.candidates(
                pos,
                in_check,
                ply,
                budgets,
                Some(last),
                acc.is_positive(),
                &mut all,
            )
        };
        // Where the checks are deferred: the captures searched before them.
        let mut first: Vec<(Val, Move)> = Vec::new();
        // Where the moves are not tested yet (in check), the first legal one is found here,
        // and those that take back on `last`; the others are tested as the search reaches them.
        let legal =
            |pos: &Position, m: Move| untested.as_ref().is_none_or(|l| pos.allows(an.vm, l, m));
        let first_legal = moves
            .iter()
            .position(|&(_, m)| legal(pos, m))
            .unwrap_or(moves.len());
        let none_legal = first_legal == moves.len();
        let o = 'node: {
            let recapture = moves
                .iter()
                .enumerate()
                .skip(first_legal)
                .any(|(i, &(_, r))| r.to == last && (i == first_legal || legal(pos, r)));
            let mut best = match self.start(pos, in_check, none_legal, (bounded, recapture), end) {
                Ok(best) => best,
                Err(mated) => break 'node mated,
            };
            narrow(attacking, best.v, (&mut alpha, &mut beta));
            if alpha > beta {
                break 'node Out { recapture, ..best };
            }
            let at = At {
                in_check,
                ply,
                budgets,
                acc,
                last,
                checker,
                before,
                here: Before::new(),
            };
            loop {
                let tested = (first_legal, untested.as_ref());
                if self.search_moves(pos, &moves, tested, &at, &mut best, (&mut alpha, &mut beta)) {
                    break 'node Out { recapture, ..best };
                }
                if !deferred {
                    break;
                }
                // No capture settled the node: now the checks (on one point, none were
                // generated before).
                first = self.checks_after_captures(pos, &mut all, &mut moves);
                (deferred, checks) = (false, true);
            }
            let best = self.unless_mated(pos, &at, best, checks.then(|| all.as_slice()), &first);
            Out { recapture, ..best }
        };
        an.give_back(moves);
        an.give_back(first);
        o
    }

    /// Where a node's search starts: in check with no legal answer, the mate (`Err`, where
    /// [`Search::mated`] says the line ends there); otherwise the worth of standing still (or,
    /// in check, of an answer past the bounds), which ends the line.
    fn start(
        &self,
        pos: &Position,
        in_check: bool,
        none_legal: bool,
        (bounded, recapture): (bool, bool),
        end: Out,
    ) -> Result<Out, Out> {
        let attacking = pos.side_to_move() == self.attacker;
        if in_check && none_legal {
            if let Some(o) = self.mated(pos, attacking, (bounded, recapture), end) {
                return Err(o);
            }
        }
        Ok(if in_check && !none_legal {
            Out::val(if attacking { -MATE } else { MATE })
        } else {
            end
        })
    }

    /// Once ahead, a line on which the defender mates by consecutive checks is lost. Asked
    /// last, and only while the line still comes out even or better: where the defender's
    /// other answers already make it a loss, a mate changes nothing.
    fn unless_mated(
        &self,
        pos: &Position,
        at: &At,
        best: Out,
        checks: Option<&[Move]>,
        first: &[(Val, Move)],
    ) -> Out {
        let lost = pos.side_to_move() != self.attacker
            && !at.in_check
            && at.acc.is_positive()
            && at.acc + best.v >= Val::ZERO
            && self.mated_once_ahead(pos, checks, first);
        if lost {
            Out::val(-MATE)
        } else {
            best
        }
    }

    /// The checks of the side to move into `all`, and those that capture no material into
    /// `moves`, in the order they are searched; the captures `moves` held are returned.
    fn checks_after_captures(
        &self,
        pos: &Position,
        all: &mut MoveBuf,
        moves: &mut Vec<(Val, Move)>,
    ) -> Vec<(Val, Move)> {
        self.an.checking_moves_into(pos, all);
        let first = std::mem::replace(moves, self.an.move_list());
        self.quiet_checks(pos, all.as_slice(), moves);
        first
    }

    /// Searches a node's `moves` in order, from the first legal one (`tested`: its index,
    /// and, where the moves are not tested yet, the test), keeping the best outcome and
    /// narrowing the window; true where the window closes (the node is cut off).
    fn search_moves(
        &mut self,
        pos: &mut Position,
        moves: &[(Val, Move)],
        (first_legal, untested): (usize, Option<&Legality>),
        at: &At,
        best: &mut Out,
        (alpha, beta): (&mut Val, &mut Val),
    ) -> bool {
        let vm = self.an.vm;
        let attacking = pos.side_to_move() == self.attacker;
        for (i, &(gain, m)) in moves.iter().enumerate() {
            if i < first_legal
                || (i > first_legal && untested.is_some_and(|l| !pos.allows(vm, l, m)))
            {
                continue;
            }
            if !attacking
                && !at.in_check
                && !self.defender_may_take(pos, m, at.last, at.checker, at.before)
            {
                continue;
            }
            let o = self.play(
                pos,
                at.in_check,
                m,
                gain,
                at.ply,
                at.budgets,
                at.acc,
                *alpha,
                *beta,
                &at.here,
            );
            if self.improves(attacking, &o, best) {
                *best = o;
                narrow(attacking, o.v, (&mut *alpha, &mut *beta));
            }
            if *alpha > *beta {
                return true;
            }
        }
        false
    }

    /// What a line that stops here is worth beyond what it took: where the lines must win one
    /// given target, a line that ends before taking it wins nothing, whatever else it took.
    fn end(&self, acc: Val) -> Out {
        if self.only_target.is_some() && !self.taken {
            Out::val(-acc.max(Val::ZERO))
        } else {
            Out::ZERO
        }
    }
}

/// What a node's moves are searched with (see [`Search::node`]): the same for each of them.
struct At<'b> {
    in_check: bool,
    ply: u8,
    budgets: [u8; 2],
    acc: Val,
    last: Square,
    /// The defender's checking piece and what it could take before it moved.
    checker: Option<(Square, u128)>,
    /// The attacker's position before the move that led here, the move and its undo.
    before: Option<(&'b Before, Move, Undo)>,
    /// What this node's own moves are judged against.
    here: Before,
}
