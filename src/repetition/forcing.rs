//! The forcing-line primitive of the 棋例 (24.3 得子): what a side wins by force were its
//! opponent to pass, over a bounded search of the side's captures and checks.
//!
//! The attacker (the side to move at the root) may stop at any point, capture any piece
//! that is material, or — while its check budget lasts — give a check that captures
//! nothing. The defender answers a check with every legal move; otherwise it may stand
//! still or capture, but only on the point just taken (a recapture) or where the last
//! capture laid something open (a capture it did not have before it, or one that lost then
//! and wins now: the capture drew a root away): captures it had anyway are no part of the
//! exchange (26.5, 互吃交换). Protection is nothing but a legal recapture, so pins, cannon
//! screens, the facing generals and false roots (假根) follow from the move generator. A
//! line on which the attacker, once ahead, could be mated at once (`mate_after_gain` moves
//! of consecutive checks) is worth nothing to it; a mate of the defender ends a line and is
//! no material. Every bound (plies, checks, nodes) is clause data: the search never looks
//! at a clock.
//!
//! Equal moves are tried in the order the side to move sees the board from its own corner
//! (`seen_by`), so that the board turned round with the colours exchanged is searched in the
//! same order and a node bound cuts the same lines (the forcing proptest checks it). A line
//! that only counts if it gains is searched from the least gain up (a reply that holds the
//! winner to nothing refutes at once); only where an even capture may still win (`laid_open`:
//! what it lays open elsewhere may make it even) does the window start below zero. A node that
//! standing still already settles (the winner ahead of the window, or the other side holding
//! it below) returns before any move is generated.
//!
//! With `laid_open` (the whole exchange), after a first capture the winner's further captures
//! are the ones the line lays open (not possible at the root, or a loss there and winning
//! now; a win it had anyway is a line of its own); a line that starts with a check is not so
//! restricted. The winner goes on only for more by `Analyst::gains` (the material clause's
//! own measure, floating pieces included), never for a larger number the rule does not count
//! as a gain.
//!
//! Whether a capture wins by itself is the exchange on its point (`Analyst::capture_wins`):
//! both sides take only there, the other side may answer by checks (a hidden root, 暗根).
//! Only its sign is asked, so it is searched with a null window; its checks are generated
//! only where no capture settles a node, and the mate asked last looks only at the checks
//! not searched. Its positions are spent from the same budget as the lines' (`ply_nodes`):
//! every search made to class a move is bounded together.
//!
//! Each line names its first move, the piece won (the first taken; for a check that captures
//! nothing, each piece the line takes, first or after others: ch8 图3; with `laid_open`, for a
//! capture that loses by itself, the piece it opens the way to on another point: 图26), its
//! capturer, the net gain, the kind (unprotected, worth more than the capturer, joint) and the
//! pieces that took part.

use crate::board::{Move, Side, Square, FILES, RANKS};
use crate::vm::position_internals::{BitIter, MoveBuf};
use crate::vm::{Position, Undo};

use super::analysis::{Analyst, ChaseKind, Val};

/// The bounds of a forcing-line search: the data of `repetition.forcing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// Plies of a line, both sides counted.
    pub plies: u8,
    /// Plies of a line that starts with a check that captures nothing (`plies` when absent):
    /// consecutive checks that win material reach further than a capture and its exchange.
    #[serde(default)]
    pub check_plies: Option<u8>,
    /// Checks that capture nothing the attacker may give on one line.
    pub checks: u8,
    /// Positions one search may visit.
    pub nodes: u32,
    /// Positions all the searches made to class one move may visit together, the exchanges
    /// on one point included (none: each search has `nodes`, and nothing bounds their
    /// number). Where the bound is reached the searches of that move stop as at `nodes`, in
    /// the same order every time.
    #[serde(default)]
    pub ply_nodes: Option<u32>,
    /// Positions the searches of all the moves of one judged cycle may visit together,
    /// shared out equally: each move gets the smaller of `ply_nodes` and this divided by the
    /// moves judged (none: `ply_nodes` alone). A long cycle then costs no more than a short
    /// one, each move searched alike whatever its place in the cycle.
    #[serde(default)]
    pub cycle_nodes: Option<u32>,
    /// Once ahead, the attacker must not be mated by consecutive checks within this many
    /// of the defender's moves (0: not asked).
    pub mate_after_gain: u8,
    /// A capture is judged by the whole exchange it opens (26.5; 24.3's 完整互吃交换): the
    /// defender may take what a capture lays open, not only take back on its point; the
    /// attacker's later captures are those the line lays open; a capture that comes out
    /// even only by what it lays open elsewhere (the capturer a root or pinned, an uncovered
    /// check) still wins; and a capture that loses by itself chases the piece the line then
    /// wins by it. Without it, a capture is judged on its point alone.
    pub laid_open: bool,
    /// Checks that capture nothing the defender may give on one line (a hidden root, 暗根:
    /// a capture answered by checks that win material back).
    pub answer_checks: u8,
}

/// The first capture of a line: what it takes and with what, where both stand at the root.
#[derive(Clone, Copy, Debug)]
struct Capture {
    target: Square,
    capturer: Square,
    kind: ChaseKind,
    /// The capturer is a kind `repetition.own_attack` exempts.
    exempt: bool,
    /// The point the capture is made on.
    at: Square,
}

/// The other side's captures at an attacker's node were the attacker to pass (that position,
/// and the captures): what a defender's capture after the attacker's move is judged against.
/// Worked out only when a defender's node needs it, once for all its siblings; whether such a
/// capture won by itself there is asked only of a capture the search reaches.
type Before = std::cell::OnceCell<(Option<Position>, Vec<Move>)>;

/// The least material that is a gain: one floating piece.
const LEAST_GAIN: Val = Val {
    pieces: 0,
    floating: 1,
};

/// Larger than any material.
const MATE: Val = Val {
    pieces: 1 << 20,
    floating: 0,
};

/// The moves a node searches ([`Search::candidates`]).
struct Candidates {
    /// The moves, in the order they are searched, with what each takes.
    moves: Vec<(Val, Move)>,
    /// Every check of the side to move, where the checks were generated.
    checks: Option<Vec<Move>>,
    /// On one point: the checks are wanted, and generated once the captures are searched.
    deferred: bool,
}

/// One way the attacker wins material: the line's first move, the opposing piece it wins
/// (the first it takes, or the one a losing first capture opens the way to; for a check that
/// captures nothing, each piece the line takes), and the net result of the whole line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The attacker's first move (a capture, or a check that captures nothing).
    pub first: Move,
    /// The opposing piece won, where it stands at the root.
    pub target: Square,
    /// The attacking piece that takes it, where it stands at the root.
    pub capturer: Square,
    /// Net material over the line.
    pub gain: Val,
    /// Whether the defender could take back on the target's point (有根), and whether
    /// the target is worth more than its capturer.
    pub kind: ChaseKind,
    /// The attacking pieces that move on the line, where they stand at the root.
    pub pieces: Vec<Square>,
}

/// What a node of the search resolved.
#[derive(Clone, Copy, Debug)]
struct Out {
    v: Val,
    /// The first capture below this node (of the one target, when the lines are searched
    /// for one).
    first: Option<Capture>,
    /// The attacking pieces that move below this node (bits of root points).
    pieces: u128,
    /// Set by a defender node: it could take back on the point of the last capture.
    recapture: bool,
}

impl Out {
    const ZERO: Out = Out {
        v: Val::ZERO,
        first: None,
        pieces: 0,
        recapture: false,
    };
    fn val(v: Val) -> Out {
        Out { v, ..Out::ZERO }
    }
}

struct Search<'s, 'a> {
    an: &'s Analyst<'a>,
    b: Bounds,
    nodes: u32,
    /// Plies of the lines now searched (`plies`, or `check_plies` for a line that starts
    /// with a check).
    plies: u8,
    /// The moves of the line so far, to trace a piece back to its root point.
    line: Vec<Move>,
    /// The side the lines are searched for.
    attacker: Side,
    /// When set, a line wins only if the attacker takes, somewhere on it, the piece that
    /// stands on this point at the root (the lines that win one given target: a check may
    /// take other pieces on the way to it, 图3's chariot won by consecutive checks).
    only_target: Option<Square>,
    /// Whether the attacker has taken that target on the line so far.
    taken: bool,
    /// The attacker's captures at the root that nothing can take back: each is a line of its
    /// own, never a step in another one.
    free: Vec<Move>,
    /// The attacker's captures at the root, and whether each won by itself there (a line's
    /// later captures are those it lays open: `laid_open`).
    root_captures: Vec<(Move, bool)>,
    /// The defender may take what a capture lays open (`laid_open`); off where an even line is
    /// judged over the whole sequence on the capture's point.
    takes_laid_open: bool,
    /// When set, both sides capture only on this point (the exchange on one point, checks
    /// aside: whether a capture wins by itself, [`Analyst::capture_wins`]).
    on_point: Option<Square>,
    /// Set while the attacker answers the defender's check: the point the checking move
    /// went to, and the points the moved piece could take before it moved.
    check_move: Option<(Square, u128)>,
    /// Set for the defender's node just after the attacker answered its check: the same.
    /// What the piece that gave the check (directly or by discovery) now takes and could not
    /// take before that move is laid open by the check (the fork, 24.15's hidden root 暗根).
    checker: Option<(Square, u128)>,
}

impl Analyst<'_> {
    /// Every way the side to move wins material by force, best first: one line per first
    /// capture, and per check that captures nothing one line for each target it wins. A net
    /// gain above zero wins; so does an even result that only what the capture lays open
    /// elsewhere makes even (`laid_open`).
    pub fn forcing_lines(&self, pos: &Position, b: Bounds) -> Vec<Line> {
        let key = (pos.placement(), b);
        if let Some(lines) = self.lines().borrow().get(&key) {
            return lines.clone();
        }
        let out = self.search_lines(pos, b);
        self.lines().borrow_mut().insert(key, out.clone());
        out
    }

    /// The lines.
    fn search_lines(&self, pos: &Position, b: Bounds) -> Vec<Line> {
        let mut s = Search::new(self, b, pos.side_to_move());
        let mut pos = pos.clone();
        let mut out = Vec::new();
        let budgets = s.budgets();
        let before = Before::new();
        let root_check = pos.in_check(self.vm);
        let first_moves = s
            .candidates(&pos, root_check, 0, budgets, None, false)
            .moves;
        s.free = first_moves
            .iter()
            .filter(|(_, m)| pos.piece_at(m.to).is_some())
            .filter(|&&(_, m)| s.no_recapture(&pos, m))
            .map(|&(_, m)| m)
            .collect();
        let root_captures: Vec<(Move, bool)> = if !b.laid_open {
            Vec::new()
        } else {
            first_moves
                .iter()
                .filter(|(_, m)| self.material(&pos, m.to).is_some())
                .map(|&(_, m)| (m, s.good_capture(&pos, m)))
                .collect()
        };
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
                // Even only because of what the capture lays open elsewhere (the capturer was a
                // root, or pinned): judged over the whole sequence, still a win (26.5).
                let mut s2 = Search {
                    free: s.free.clone(),
                    root_captures: s.root_captures.clone(),
                    takes_laid_open: false,
                    ..Search::new(self, b, s.attacker)
                };
                let o2 = s2.play(
                    &mut pos,
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
                    // Its gain is what the whole exchange nets: no loss by the material
                    // clause's measure (a floating piece for a piece, 1999 25.3), or even.
                    out.extend(Self::line(m, Out { v: o.v, ..o2 }));
                } else if s.free.contains(&m) && self.gives_check(&pos, m) {
                    // An unrooted target (nothing can take back on its point), even only
                    // because the capture lays open a check whose answer wins back as much.
                    // A capture that gives no check and comes out even keeps its verdict: a
                    // hidden root (暗根) answered it.
                    out.extend(Self::line(m, o));
                }
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
            // A check that wins: every target it wins, each by the lines that take it, first or
            // after other pieces (whichever of equal lines the search met first does not
            // decide which).
            let mut theirs: Vec<Square> = pos
                .pieces()
                .filter(|(sq, p)| p.side != s.attacker && self.material(&pos, *sq).is_some())
                .map(|(sq, _)| sq)
                .collect();
            theirs.sort_by_key(|&sq| seen_by(s.attacker, sq));
            for t in theirs {
                s.only_target = Some(t);
                // Only a line that gains counts, so the window starts at the least gain: a
                // reply that holds the attacker to nothing refutes at once.
                let o = s.play(
                    &mut pos,
                    root_check,
                    m,
                    gain,
                    0,
                    budgets,
                    Val::ZERO,
                    LEAST_GAIN,
                    MATE,
                    &before,
                );
                s.only_target = None;
                if self.gains(o.v) {
                    out.extend(Self::line(m, o));
                }
            }
        }
        out.sort_by_key(|l| std::cmp::Reverse(l.gain));
        out
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

/// Where `sq` lies as `side` sees the board (from its own corner): the order in which the
/// search tries equal moves, so that the board turned round with the colours exchanged is
/// searched in the same order and a bound on positions cuts the same lines.
fn seen_by(side: Side, sq: Square) -> u8 {
    match side {
        Side::Red => sq.rank() * FILES + sq.file(),
        Side::Black => (RANKS - 1 - sq.rank()) * FILES + (FILES - 1 - sq.file()),
    }
}

impl<'s, 'a> Search<'s, 'a> {
    fn new(an: &'s Analyst<'a>, b: Bounds, attacker: Side) -> Search<'s, 'a> {
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
        }
    }

    /// Between lines of equal worth the kind of the first capture decides, never the order
    /// the moves were generated in (which follows the board's orientation); a capture by a
    /// piece `repetition.own_attack` exempts ranks after any other. Lower ranks first.
    fn rank(o: &Out) -> u8 {
        o.first.map_or(8, |f| u8::from(f.exempt) * 4 + f.kind as u8)
    }

    /// Check budgets: the attacker's, then the defender's.
    fn budgets(&self) -> [u8; 2] {
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
    fn captures_before(&self, pos: &Position) -> (Option<Position>, Vec<Move>) {
        if pos.side_to_move() != self.attacker || !self.takes_laid_open {
            return (None, Vec::new());
        }
        let theirs = Analyst::with_mover(pos, pos.side_to_move().opponent());
        let moves = theirs.legal_captures(self.an.vm);
        (Some(theirs), moves)
    }

    /// Whether the defender's capture `m` (not on the last capture's point) is one the line
    /// laid open: not possible before the attacker's last move, or a loss then and winning now
    /// (the attacker's capture took away the target's root). Asked only of the captures the
    /// search reaches, so that a cut-off spares the exchange searches of the others. The
    /// exchange before the move is asked first: it is the same for every move of the
    /// attacker's node (memoised), and where the capture won then, the one after the move
    /// need not be searched.
    fn laid_open_to(&self, pos: &Position, m: Move, before: Option<(&Before, Move, Undo)>) -> bool {
        let Some((cell, played, undo)) = before else {
            return true;
        };
        let had = cell.get_or_init(|| {
            let mut parent = pos.clone();
            parent.unmake(self.an.vm, played, undo);
            self.captures_before(&parent)
        });
        match had {
            (Some(theirs), moves) if moves.contains(&m) => {
                !self.good_capture(theirs, m) && self.good_capture(pos, m)
            }
            _ => true,
        }
    }

    /// Whether the capture `m` of the side to move wins by itself ([`Analyst::capture_wins`]).
    fn good_capture(&self, pos: &Position, m: Move) -> bool {
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
    fn no_recapture(&self, pos: &Position, m: Move) -> bool {
        let vm = self.an.vm;
        let mut next = pos.clone();
        next.make(vm, m);
        next.legal_moves_to(vm, m.to).is_empty()
    }

    /// The moves worth searching for the side to move, with what each takes (from the
    /// attacker's side: positive for the attacker's captures): every legal move in check;
    /// otherwise captures of material (the defender's only on `last` or where the last move
    /// laid them open), dearest first, then, budget left, checks that capture nothing (on
    /// one point, deferred until the captures are searched).
    #[allow(clippy::too_many_arguments)]
    fn candidates(
        &self,
        pos: &Position,
        in_check: bool,
        ply: u8,
        budgets: [u8; 2],
        last: Option<Square>,
        ahead: bool,
    ) -> Candidates {
        let an = self.an;
        let vm = an.vm;
        let attacking = pos.side_to_move() == self.attacker;
        let sign = |v: Val| if attacking { v } else { -v };
        if in_check {
            let side = pos.side_to_move();
            let mut all: Vec<(Val, Move)> = an
                .evasions(pos)
                .iter()
                .map(|&m| (sign(an.value(pos, m.to)), m))
                .collect();
            all.sort_by_key(|&(v, m)| {
                (
                    std::cmp::Reverse(if attacking { v } else { -v }),
                    seen_by(side, m.from),
                    seen_by(side, m.to),
                )
            });
            return Candidates {
                moves: all,
                checks: None,
                deferred: false,
            };
        }
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
        // On one point the captures are the moves onto it; the checks, searched after them,
        // are generated only where no capture settles the node (`deferred`).
        let (captures, checks) = match self.on_point {
            Some(p)
                if pos
                    .piece_at(p)
                    .is_some_and(|q| q.side != pos.side_to_move()) =>
            {
                (pos.legal_moves_to(vm, p), Vec::new())
            }
            Some(_) => (Vec::new(), Vec::new()),
            None => pos.captures_and_checks(vm, true, want_checks),
        };
        // A defender's capture other than on the last capture's point is searched only where
        // the line may lay it open (`takes_laid_open`); whether it does is asked only of the
        // captures the search reaches ([`Search::laid_open_to`]).
        let mut moves: Vec<(Val, Move)> = captures
            .into_iter()
            .filter(|m| self.on_point.is_none_or(|p| m.to == p))
            .filter(|&m| attacking || Some(m.to) == last || self.takes_laid_open)
            .filter_map(|m| an.material(pos, m.to).map(|v| (v, m)))
            .collect();
        let side = pos.side_to_move();
        moves.sort_by_key(|&(v, m)| {
            (
                std::cmp::Reverse(v),
                seen_by(side, m.from),
                seen_by(side, m.to),
            )
        });
        if attacking && !self.line.is_empty() {
            moves.retain(|(_, m)| !self.free.contains(m));
            if self.b.laid_open {
                moves.retain(|&(_, m)| Some(m.to) == last || self.laid_open(pos, m));
            }
        }
        let mut moves: Vec<(Val, Move)> = moves.into_iter().map(|(v, m)| (sign(v), m)).collect();
        if self.on_point.is_some() {
            return Candidates {
                moves,
                checks: None,
                deferred: want_checks,
            };
        }
        moves.extend(self.quiet_checks(pos, &checks));
        Candidates {
            moves,
            checks: want_checks.then_some(checks),
            deferred: false,
        }
    }

    /// The checks among `checks` (moves of the side to move) that capture no material, as
    /// they are searched: after the captures, in the order the side to move sees the board.
    fn quiet_checks(&self, pos: &Position, checks: &[Move]) -> Vec<(Val, Move)> {
        let side = pos.side_to_move();
        let mut quiet: Vec<Move> = checks
            .iter()
            .copied()
            .filter(|m| self.an.material(pos, m.to).is_none())
            .collect();
        quiet.sort_by_key(|m| (seen_by(side, m.from), seen_by(side, m.to)));
        quiet.into_iter().map(|m| (Val::ZERO, m)).collect()
    }

    /// Plays `m` (taking `gain`, from the attacker's side) and searches on.
    #[allow(clippy::too_many_arguments)]
    fn play(
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
        if !capture && !was_in_check && gives_check {
            budgets[i] = budgets[i].saturating_sub(1);
        } else if !gives_check && !was_in_check {
            // Checks that win material are consecutive (连续将军): a move that gives no
            // check ends the side's run of them.
            budgets[i] = 0;
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
            // A capture that loses by itself wins only by what it opens (`laid_open`):
            // the piece won after it on another point, by a capture that wins by itself.
            let opens = self.b.laid_open
                && kind == ChaseKind::Joint
                && tv < av
                && child
                    .first
                    .is_some_and(|f| f.kind != ChaseKind::Joint && f.at != m.to);
            if !opens {
                o.first = Some(Capture {
                    target: t,
                    capturer: mover,
                    kind,
                    exempt,
                    at: m.to,
                });
            }
        }
        o
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
        let vm = an.vm;
        let attacking = pos.side_to_move() == self.attacker;
        let checker = self.checker.take();
        self.nodes += 1;
        // Where the lines must win one given target, a line that ends before taking it wins
        // nothing, whatever else it took.
        let end = if self.only_target.is_some() && !self.taken {
            Out::val(-acc.max(Val::ZERO))
        } else {
            Out::ZERO
        };
        // Every search of the ply spends its budget, the exchanges on one point too.
        let capped = an.spend() >= an.ply_cap();
        let bounded = ply >= self.plies || self.nodes >= self.b.nodes || capped;
        if !in_check
            && !bounded
            && (if attacking {
                end.v > beta
            } else {
                end.v < alpha
            })
        {
            // Standing still settles the node: no move need be generated. A defender node still
            // says whether it could take back on the point of the last capture.
            let recapture = !attacking
                && an.material(pos, last).is_some()
                && !pos.legal_moves_to(vm, last).is_empty();
            return Out { recapture, ..end };
        }
        let Candidates {
            moves,
            mut checks,
            mut deferred,
        } = if bounded {
            Candidates {
                moves: Vec::new(),
                checks: None,
                deferred: false,
            }
        } else {
            self.candidates(pos, in_check, ply, budgets, Some(last), acc.is_positive())
        };
        let recapture = moves.iter().any(|(_, r)| r.to == last);
        if attacking && in_check && moves.is_empty() && !pos.has_legal_move(vm) {
            // Mated: the attacker's line is refuted.
            return Out::val(-MATE);
        }
        if !attacking
            && in_check
            && !bounded
            && moves.is_empty()
            && (self.only_target.is_none() || self.taken)
        {
            // The defender mated: the reply that led here is no refutation (it would rather
            // stand still), so the line is worth more to the attacker than any material.
            return Out {
                recapture,
                ..Out::val(MATE)
            };
        }
        // Standing still (or, in check, an answer past the bounds) ends the line.
        let mut best = if in_check && !moves.is_empty() {
            Out::val(if attacking { -MATE } else { MATE })
        } else {
            end
        };
        if attacking {
            alpha = alpha.max(best.v);
        } else {
            beta = beta.min(best.v);
        }
        if alpha > beta {
            return Out { recapture, ..best };
        }
        let before_here = Before::new();
        // Where the checks are deferred: the captures searched before them.
        let mut first: Vec<(Val, Move)> = Vec::new();
        let mut moves = moves;
        loop {
            for &(gain, m) in &moves {
                if !attacking
                    && !in_check
                    && m.to != last
                    && !checker
                        .is_some_and(|(at, had)| m.from == at && had >> m.to.index() & 1 == 0)
                    && an.material(pos, m.to).is_some()
                    && !self.laid_open_to(pos, m, before)
                {
                    continue;
                }
                let o = self.play(
                    pos,
                    in_check,
                    m,
                    gain,
                    ply,
                    budgets,
                    acc,
                    alpha,
                    beta,
                    &before_here,
                );
                let rank = Self::rank;
                if attacking {
                    // The attacker goes on only for more by the rule's own measure (`gains`): a
                    // trade of a floating piece for less than it is worth is no better than
                    // stopping.
                    if (o.v > best.v && an.gains(o.v - best.v))
                        || (o.v == best.v && rank(&o) < rank(&best))
                    {
                        best = o;
                        alpha = alpha.max(o.v);
                    }
                } else if o.v < best.v || (o.v == best.v && rank(&o) > rank(&best)) {
                    best = o;
                    beta = beta.min(o.v);
                }
                if alpha > beta {
                    return Out { recapture, ..best };
                }
            }
            if !deferred {
                break;
            }
            // No capture settled the node: now the checks.
            deferred = false;
            let all = pos.checking_moves(vm);
            first = std::mem::replace(&mut moves, self.quiet_checks(pos, &all));
            checks = Some(all);
        }
        // Once ahead, a line on which the defender mates by consecutive checks is lost. Asked
        // last, and only while the line still comes out even or better: where the defender's
        // other answers already make it a loss, a mate changes nothing.
        if !attacking
            && !in_check
            && acc.is_positive()
            && acc + best.v >= Val::ZERO
            && self.b.mate_after_gain > 0
            && match checks.as_deref() {
                // On one point the checks were searched after the captures (every one that
                // takes no material, and the captures listed), and one that mated would have
                // settled the node: only the others are asked.
                Some(all) if self.on_point.is_some() && self.b.mate_after_gain == 1 => an
                    .mates_at_once_by(
                        pos,
                        all.iter().filter(|m| {
                            an.material(pos, m.to).is_some()
                                && !first.iter().any(|&(_, f)| f == **m)
                        }),
                    ),
                checks => an.mates_by_checks_among(pos, self.b.mate_after_gain, checks),
            }
        {
            return Out {
                recapture,
                ..Out::val(-MATE)
            };
        }
        Out { recapture, ..best }
    }
}

/// The points the piece on `from` (of the side to move) could take on in `pos`, one bit each.
fn capturable_from(vm: &crate::vm::Rules, pos: &Position, from: Square) -> u128 {
    let mut buf = MoveBuf::new();
    pos.pseudo_moves_from(vm, from, &mut buf);
    buf.as_slice()
        .iter()
        .filter(|m| pos.piece_at(m.to).is_some())
        .fold(0, |bits, m| bits | 1u128 << m.to.index())
}
