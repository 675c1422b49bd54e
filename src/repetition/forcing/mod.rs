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
//! of consecutive checks) is worth nothing to it; in the searches `mate_at_once_in` names (24.3:
//! the winner's lines) only such a mate at once counts, one that needs more of the defender's
//! checks after the attacker's last capture leaving the line on its material (下一着不予考虑);
//! a mate of the defender ends a line and is no material. Every bound (plies, checks, nodes)
//! is clause data: the search never looks at a clock.
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
use crate::vm::position_internals::{Legality, MoveBuf};
use crate::vm::Position;

use super::analysis::{Analyst, ChaseKind, Val};

mod lines;
mod search;

shapes! {
    /// The bounds of a forcing-line search: the data of `repetition.forcing`.
    #[derive(Copy, PartialEq, Eq, Hash)]
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
        /// The searches in which only a mate at once refutes a gain: one that comes within
        /// `mate_after_gain` of the defender's moves after the attacker's last capture, all
        /// checks (24.3's 立即(下一着不予考虑)). Elsewhere, or when absent, a mate by any run of
        /// checks the search sees refutes it.
        #[serde(default)]
        pub mate_at_once_in: Option<MateAtOnceIn>,
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

    /// Which searches of the forcing-line primitive count only a mate at once (`Bounds::
    /// mate_at_once_in`).
    #[derive(Copy, PartialEq, Eq, Hash)]
    #[serde(rename_all = "snake_case")]
    pub enum MateAtOnceIn {
        /// The winner's lines, those the material tests of the classes ask (24.3's 得子).
        Lines,
        /// Those, and the exchanges on one point too (whether a capture wins by itself, and
        /// the counter-capture that 24.4 and 24.5 weigh).
        AllSearches,
    }
}

impl MateAtOnceIn {
    /// Whether the searches of the winner's lines count only a mate at once.
    fn in_lines(scope: Option<MateAtOnceIn>) -> bool {
        scope.is_some()
    }

    /// Whether the exchanges on one point count only a mate at once.
    fn on_one_point(scope: Option<MateAtOnceIn>) -> bool {
        scope == Some(MateAtOnceIn::AllSearches)
    }
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
    /// Whether every check of the side to move was generated (into the buffer the node
    /// passed: a move buffer is not moved, that copies the whole of it).
    checks: bool,
    /// On one point: the checks are wanted, and generated once the captures are searched.
    deferred: bool,
    /// In check: the moves are not yet tested for self-kill; this tests each
    /// ([`Position::allows`]) as the search reaches it.
    untested: Option<Legality>,
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

impl Candidates {
    /// Nothing to search (the line is past its bounds).
    const NONE: Candidates = Candidates {
        moves: Vec::new(),
        checks: false,
        deferred: false,
        untested: None,
    };
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
    /// Whether a mate of the attacker refutes a gain only when it comes at once, by no more
    /// than `mate_after_gain` of the defender's moves after the attacker's last capture, all
    /// checks (立即(下一着不予考虑)被对方将死); off, a mate by any run of checks the search sees
    /// refutes it. Which searches it is set for is data (`Bounds::mate_at_once_in`).
    at_once: bool,
    /// The defender's moves since the attacker's last capture, all checks (0 when one gave
    /// none): where it passes `mate_after_gain`, a mate of the attacker is not at once.
    answer_run: u8,
    /// The other side's captures in the position the judged move was made from, were the
    /// mover to pass there (`Analyst::forcing_lines_after`): its answer to a line's first
    /// capture may also take what the judged move laid open (26.5, 各吃各子).
    prior: Option<(Option<Position>, Vec<Move>)>,
}

/// Where `sq` lies as `side` sees the board (from its own corner): the order in which the
/// search tries equal moves, so that the board turned round with the colours exchanged is
/// searched in the same order and a bound on positions cuts the same lines.
/// (A point's index is `rank * FILES + file`: Red sees the indices in order, Black from the
/// last back.)
#[inline]
fn seen_by(side: Side, sq: Square) -> u8 {
    let i = sq.index() as u8;
    match side {
        Side::Red => i,
        Side::Black => RANKS * FILES - 1 - i,
    }
}

/// The order in which the side to move searches moves of equal worth: by the point each
/// leaves, then the point it reaches, as that side sees the board ([`seen_by`]).
#[inline]
pub(super) fn board_order(side: Side, m: Move) -> (u8, u8) {
    (seen_by(side, m.from), seen_by(side, m.to))
}

/// Narrows the search window by a result `v` the side to move can reach: the attacker's
/// lower bound rises, the defender's upper bound falls.
fn narrow(attacking: bool, v: Val, (alpha, beta): (&mut Val, &mut Val)) {
    if attacking {
        *alpha = (*alpha).max(v);
    } else {
        *beta = (*beta).min(v);
    }
}

/// A side's budget of checks that capture nothing after its move, not made in check: a check
/// that captures nothing spends one; a move that gives no check ends the run (checks that win
/// material are consecutive, 连续将军).
fn spend_check(budget: u8, capture: bool, gives_check: bool) -> u8 {
    if !capture && gives_check {
        budget.saturating_sub(1)
    } else if !gives_check {
        0
    } else {
        budget
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
