//! The forcing lines of a position (the wins of the side to move, one per first move) and
//! the exchange on one point (whether a capture wins by itself); both run the search of
//! `search.rs`.

use crate::board::{Move, Square};
use crate::vm::position_internals::{BitIter, MoveBuf};
use crate::vm::Position;

use super::super::analysis::{Analyst, Val};
use super::{
    seen_by, Before, Bounds, Candidates, Capture, Line, MateAtOnceIn, Out, Search, LEAST_GAIN, MATE,
};

impl Analyst<'_> {
    /// Every way the side to move wins material by force, best first: one line per first
    /// capture, and per check that captures nothing one line for each target it wins. A net
    /// gain above zero wins; so does an even result that only what the capture lays open
    /// elsewhere makes even (`laid_open`).
    pub fn forcing_lines(&self, pos: &Position, b: Bounds) -> Vec<Line> {
        self.forcing_lines_after(pos, b, None)
    }

    /// The same, in the position a move made from `prior` (the side to move here was to move
    /// there too): the defender's captures that stood in `prior` are the ones it had anyway
    /// (an old threat, which ch8 图3 does not count against a chase); one the move itself laid
    /// open (a root it drew away, a line or a leg it opened) is part of the exchange the
    /// move's captures open, and the defender may take it (26.5, 各吃各子: the whole exchange
    /// decides). Without `prior`, the defender's captures in `pos` are the ones it had.
    pub(crate) fn forcing_lines_after(
        &self,
        pos: &Position,
        b: Bounds,
        prior: Option<&Position>,
    ) -> Vec<Line> {
        let key = (pos.placement(), prior.map(Position::placement), b);
        if let Some(lines) = self.lines().borrow().get(&key) {
            return lines.clone();
        }
        let out = self.search_lines(pos, b, prior);
        self.lines().borrow_mut().insert(key, out.clone());
        out
    }

    /// The lines: a chase's (24.3), where only a mate at once refutes a gain when the data
    /// says so (`mate_at_once_in`).
    fn search_lines(&self, pos: &Position, b: Bounds, prior: Option<&Position>) -> Vec<Line> {
        let mut s = Search {
            at_once: MateAtOnceIn::in_lines(b.mate_at_once_in),
            ..Search::new(self, b, pos.side_to_move())
        };
        let mut pos = pos.clone();
        let mut out = Vec::new();
        let budgets = s.budgets();
        let before = Before::new();
        s.prior = prior
            .filter(|p0| p0.side_to_move() == s.attacker)
            .map(|p0| s.captures_before(p0));
        let Roots {
            in_check: root_check,
            moves: first_moves,
            captures: root_captures,
        } = self.first_moves(&mut s, &pos, b.laid_open);
        for (gain, m) in first_moves {
            // A capture of material is its own line; any other first move (a check, or a check
            // that takes a piece that is no material) is one line per target it wins.
            let takes_material = self.material(&pos, m.to).is_some();
            // A line that starts with a capture continues only with captures it lays open; one
            // that starts with a check may take whatever its checks win.
            s.root_captures = if takes_material {
                root_captures.clone()
            } else {
                Vec::new()
            };
            s.plies = if takes_material {
                b.plies
            } else {
                b.check_plies.unwrap_or(b.plies)
            };
            // Where an even capture may still win (`laid_open`), the window starts just
            // below zero, so that an even line is told from a losing one; otherwise only a gain
            // counts.
            let even_counts = b.laid_open && takes_material;
            let alpha = if even_counts {
                self.below_least_even()
            } else {
                LEAST_GAIN
            };
            let o = s.play(
                &mut pos,
                root_check,
                m,
                gain,
                0,
                budgets,
                Val::ZERO,
                alpha,
                MATE,
                &before,
            );
            if even_counts && !self.gains(o.v) && !self.gains(-o.v) {
                out.extend(self.even_line(&s, &mut pos, root_check, (m, gain), budgets, o));
                continue;
            }
            if !self.gains(o.v) {
                continue;
            }
            if o.first.is_none() {
                continue;
            }
            if takes_material {
                out.extend(Self::line(m, o));
                continue;
            }
            self.check_lines(
                &mut s,
                &mut pos,
                (root_check, &before),
                (m, gain),
                budgets,
                &mut out,
            );
        }
        out.sort_by_key(|l| std::cmp::Reverse(l.gain));
        out
    }

    /// A search's first moves at its root, with what each takes, the free captures among them
    /// set on `s` (nothing can take back); whether the side to move is in check; and, where
    /// the bounds say `laid_open`, the root's captures of material, each with whether it
    /// wins by itself.
    fn first_moves(&self, s: &mut Search, pos: &Position, laid_open: bool) -> Roots {
        let budgets = s.budgets();
        let root_check = pos.in_check(self.vm);
        let Candidates {
            moves: mut first_moves,
            untested,
            ..
        } = s.candidates(
            pos,
            root_check,
            0,
            budgets,
            None,
            false,
            &mut MoveBuf::new(),
        );
        if let Some(l) = &untested {
            first_moves.retain(|&(_, m)| pos.allows(self.vm, l, m));
        }
        s.free = first_moves
            .iter()
            .filter(|(_, m)| pos.piece_at(m.to).is_some())
            .filter(|&&(_, m)| s.no_recapture(pos, m))
            .map(|&(_, m)| m)
            .collect();
        let root_captures: Vec<(Move, bool)> = if !laid_open {
            Vec::new()
        } else {
            first_moves
                .iter()
                .filter(|(_, m)| self.material(pos, m.to).is_some())
                .map(|&(_, m)| (m, s.good_capture(pos, m)))
                .collect()
        };
        Roots {
            in_check: root_check,
            moves: first_moves,
            captures: root_captures,
        }
    }

    /// The line of a capture that comes out even only because of what it lays open elsewhere
    /// (the capturer was a root, or pinned): judged over the whole sequence, still a win
    /// (26.5). `o` is its result by the search of its own point.
    fn even_line(
        &self,
        s: &Search,
        pos: &mut Position,
        root_check: bool,
        (m, gain): (Move, Val),
        budgets: [u8; 2],
        o: Out,
    ) -> Option<Line> {
        let mut s2 = Search {
            free: s.free.clone(),
            root_captures: s.root_captures.clone(),
            takes_laid_open: false,
            at_once: s.at_once,
            ..Search::new(self, s.b, s.attacker)
        };
        let o2 = s2.play(
            pos,
            root_check,
            m,
            gain,
            0,
            budgets,
            Val::ZERO,
            Val::ZERO,
            MATE,
            &Before::from((None, Vec::new())),
        );
        if self.gains(o2.v) {
            // Its gain is what the whole exchange nets: no loss by the material clause's
            // measure (a floating piece for a piece, 1999 25.3), or even.
            Self::line(m, Out { v: o.v, ..o2 })
        } else if s.free.contains(&m) && self.gives_check(pos, m) {
            // An unrooted target (nothing can take back on its point), even only because the
            // capture lays open a check whose answer wins back as much. A capture that gives
            // no check and comes out even keeps its verdict: a hidden root (暗根) answered it.
            Self::line(m, o)
        } else {
            None
        }
    }

    /// The lines of a check `m` that wins: every target it wins, each by the lines that take
    /// it, first or after other pieces (whichever of equal lines the search met first does not
    /// decide which).
    fn check_lines(
        &self,
        s: &mut Search,
        pos: &mut Position,
        (root_check, before): (bool, &Before),
        (m, gain): (Move, Val),
        budgets: [u8; 2],
        out: &mut Vec<Line>,
    ) {
        let mut theirs: Vec<Square> = pos
            .pieces()
            .filter(|(sq, p)| p.side != s.attacker && self.material(pos, *sq).is_some())
            .map(|(sq, _)| sq)
            .collect();
        theirs.sort_by_key(|&sq| seen_by(s.attacker, sq));
        for t in theirs {
            s.only_target = Some(t);
            // Only a line that gains counts, so the window starts at the least gain: a reply
            // that holds the attacker to nothing refutes at once.
            let o = s.play(
                pos,
                root_check,
                m,
                gain,
                0,
                budgets,
                Val::ZERO,
                LEAST_GAIN,
                MATE,
                before,
            );
            s.only_target = None;
            if self.gains(o.v) {
                out.extend(Self::line(m, o));
            }
        }
    }

    /// Whether the move `m` of the side to move gives check.
    fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let mut next = pos.clone();
        next.make(self.vm, m);
        next.in_check(self.vm)
    }

    fn line(first: Move, o: Out) -> Option<Line> {
        let Capture {
            target,
            capturer,
            kind,
            ..
        } = o.first?;
        let pieces = BitIter(o.pieces).filter_map(Square::from_index).collect();
        Some(Line {
            first,
            target,
            capturer,
            gain: o.v,
            kind,
            pieces,
        })
    }

    /// The net result, for the side to move, of the capture `m` and the forcing line after it
    /// (the opponent takes back, or takes what the capture lays open, and so on).
    pub(crate) fn capture_result(&self, pos: &Position, m: Move, b: Bounds) -> Val {
        let mut s = Search::new(self, b, pos.side_to_move());
        let mut pos = pos.clone();
        let gain = self.value(&pos, m.to);
        let before = Before::new();
        let budgets = [0, b.answer_checks];
        let in_check = pos.in_check(self.vm);
        s.play(
            &mut pos,
            in_check,
            m,
            gain,
            0,
            budgets,
            Val::ZERO,
            -MATE,
            MATE,
            &before,
        )
        .v
    }
}

impl Analyst<'_> {
    /// Whether the capture `m` of the side to move wins by itself: over the exchange on its
    /// point (the other side taking back there, or answering by checks that win back: a
    /// hidden root, 暗根), the side to move comes out ahead by the worths of the pieces (a
    /// piece above any number of floating ones).
    /// What the capture lays open elsewhere is not asked here. Memoized per ruling. Only
    /// whether the result is above zero is asked, so the search's window is that single
    /// value (a null window): a line that settles it ends the search of its node.
    pub(crate) fn capture_wins(&self, pos: &Position, m: Move) -> bool {
        let key = (pos.placement(), m);
        if let Some(&w) = self.capture_memo().borrow().get(&key) {
            return w;
        }
        let b = self.rep.forcing;
        let mut s = Search {
            takes_laid_open: false,
            on_point: Some(m.to),
            ..Search::new(self, b, pos.side_to_move())
        };
        let mut p = pos.clone();
        let gain = self.value(&p, m.to);
        let in_check = p.in_check(self.vm);
        let v = s
            .play(
                &mut p,
                in_check,
                m,
                gain,
                0,
                [0, b.answer_checks],
                Val::ZERO,
                Val::ZERO,
                Val::ZERO,
                &Before::new(),
            )
            .v;
        let w = v > Val::ZERO;
        self.capture_memo().borrow_mut().insert(key, w);
        w
    }

    /// A value just below the least result that is no loss by the material clause's measure
    /// (a floating piece taken for less than it may be worth is even, 1999 25.3, 2011 26.6):
    /// the window of a capture line that may still win by coming out even.
    fn below_least_even(&self) -> Val {
        match self.rep.floating_below {
            Some(b) => Val {
                pieces: -(b - 1).max(0) - 1,
                floating: i32::MAX / 2,
            },
            None => -MATE,
        }
    }
}

/// A line search's root (see `Analyst::first_moves`).
struct Roots {
    /// Whether the side to move is in check.
    in_check: bool,
    /// The first moves, with what each takes.
    moves: Vec<(Val, Move)>,
    /// Where the bounds say `laid_open`: the root's captures of material, each with whether
    /// it wins by itself.
    captures: Vec<(Move, bool)>,
}
