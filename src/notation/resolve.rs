//! Resolution: a parsed move plus a position gives a board move.
//!
//! For a described move (Chinese, WXF) the resolver finds the pieces the
//! text can mean (by kind and file, or by tandem designator), then keeps
//! those legal moves of theirs whose motion reads as the written action and
//! number. Reading a motion is [`motion`]: after 进/退 the number is the
//! step count when the move stays on its file and the destination file when
//! it changes file. That is geometry, not a list of pieces, so the same code
//! serves 车 and 马 alike, and formatting uses the same function.

use std::fmt;

use super::ast::{Action, MoveSyntax, MoveText, Origin, PieceKind, Tandem};
use super::view::BoardView;
use super::ErrorKind;
use crate::board::{Move, Side, Square, FILES, SQUARES};

/// A parsed move that names no single legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// No piece of the side to move fits the piece-and-file (or tandem) part.
    NoSuchPiece {
        /// What was looked for, in words.
        wanted: String,
    },
    /// The pieces named have no legal move reading as the text. `candidates`
    /// are the legal moves of those pieces.
    NoLegalMove {
        wanted: String,
        candidates: Vec<Move>,
    },
    /// More than one legal move reads as the text; `candidates` are all of them.
    Ambiguous {
        wanted: String,
        candidates: Vec<Move>,
    },
    /// An ICCS move that is not legal in the position.
    IllegalMove { mv: Move },
}

impl ResolveError {
    /// What went wrong: `no_such_piece`, `no_legal_move`, `ambiguous`, `illegal_move`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ResolveError::NoSuchPiece { .. } => ErrorKind::NoSuchPiece,
            ResolveError::NoLegalMove { .. } => ErrorKind::NoLegalMove,
            ResolveError::Ambiguous { .. } => ErrorKind::Ambiguous,
            ResolveError::IllegalMove { .. } => ErrorKind::IllegalMove,
        }
    }

    /// The candidate moves the error carries (empty for `no_such_piece` and
    /// `illegal_move`).
    pub fn candidates(&self) -> &[Move] {
        match self {
            ResolveError::NoLegalMove { candidates, .. }
            | ResolveError::Ambiguous { candidates, .. } => candidates,
            _ => &[],
        }
    }
}

fn list(moves: &[Move]) -> String {
    if moves.is_empty() {
        return "none".into();
    }
    moves.iter().map(|m| m.iccs()).collect::<Vec<_>>().join(" ")
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NoSuchPiece { wanted } => write!(f, "no such piece: {wanted}"),
            ResolveError::NoLegalMove { wanted, candidates } => {
                write!(
                    f,
                    "no legal move for {wanted}; that piece's legal moves: {}",
                    list(candidates)
                )
            }
            ResolveError::Ambiguous { wanted, candidates } => {
                write!(f, "ambiguous: {wanted} could be {}", list(candidates))
            }
            ResolveError::IllegalMove { mv } => write!(f, "{mv} is not a legal move"),
        }
    }
}

impl std::error::Error for ResolveError {}

/// Board file (0 = `a`) of file number `n` (1–9) counted from `side`'s right.
#[inline]
pub(crate) fn board_file(side: Side, n: u8) -> Option<u8> {
    if !(1..=FILES).contains(&n) {
        return None;
    }
    Some(match side {
        Side::Red => FILES - n,
        Side::Black => n - 1,
    })
}

/// File number (1–9) counted from `side`'s right of board file `f`.
#[inline]
pub(crate) fn file_number(side: Side, f: u8) -> u8 {
    match side {
        Side::Red => FILES - f,
        Side::Black => f + 1,
    }
}

/// How a move from `from` to `to` by `side` reads: the action, and the
/// number written after it (destination file after 平 or after a
/// file-changing 进/退; step count after a 进/退 along the file).
#[inline]
pub(crate) fn motion(side: Side, from: Square, to: Square) -> (Action, u8) {
    if from.rank() == to.rank() {
        return (Action::Traverse, file_number(side, to.file()));
    }
    let towards_black = to.rank() > from.rank();
    let action = if towards_black == (side == Side::Red) {
        Action::Advance
    } else {
        Action::Retreat
    };
    if from.file() == to.file() {
        (action, from.rank().abs_diff(to.rank()))
    } else {
        (action, file_number(side, to.file()))
    }
}

/// The points of `side`'s pieces of `kind` on board file `f`, front first
/// (the front is the end nearer the opponent).
pub(crate) fn file_group<B: BoardView + ?Sized>(
    b: &B,
    side: Side,
    kind: PieceKind,
    f: u8,
) -> Vec<Square> {
    let mut v = Vec::new();
    b.pieces_on_file(side, kind, f, &mut |sq| v.push(sq));
    if side == Side::Red {
        v.reverse();
    }
    v
}

/// Index into a front-first group of `len` pieces picked by a designator.
pub(crate) fn tandem_index(t: Tandem, len: usize) -> Option<usize> {
    if len < 2 {
        return None;
    }
    match t {
        Tandem::Front => Some(0),
        Tandem::Rear => Some(len - 1),
        Tandem::Middle if len == 3 => Some(1),
        Tandem::Middle => None,
        Tandem::Nth(n) if (1..=len).contains(&(n as usize)) => Some(n as usize - 1),
        Tandem::Nth(_) => None,
    }
}

fn describe(t: &MoveText, side: Side) -> String {
    let piece = t.piece.map(|k| k.spec_name()).unwrap_or("piece");
    match t.origin {
        Origin::File(n) => format!("{} {piece} on file {n}", side.name()),
        Origin::Tandem { position, file } => {
            let pos = match position {
                Tandem::Front => "front".to_string(),
                Tandem::Middle => "middle".to_string(),
                Tandem::Rear => "rear".to_string(),
                Tandem::Nth(n) => format!("tandem no. {n}"),
            };
            match file {
                Some(n) => format!("{} {pos} {piece} on file {n}", side.name()),
                None => format!("{} {pos} {piece}", side.name()),
            }
        }
    }
}

/// Distinct points, kept without allocating (there are at most
/// `SQUARES` of them).
struct Points {
    points: [Square; SQUARES],
    len: usize,
}

impl Points {
    fn new() -> Points {
        Points {
            points: [Square::from_index_unchecked(0); SQUARES],
            len: 0,
        }
    }

    fn push(&mut self, sq: Square) {
        // Distinct points never overflow; a repeated one is dropped rather
        // than written past the end.
        if self.len < SQUARES {
            self.points[self.len] = sq;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Points {
    type Target = [Square];
    fn deref(&self) -> &[Square] {
        &self.points[..self.len]
    }
}

/// The pieces a described move can mean.
fn origins<B: BoardView + ?Sized>(b: &B, side: Side, t: &MoveText) -> Points {
    let kinds: &[PieceKind] = match &t.piece {
        Some(k) => std::slice::from_ref(k),
        None => &PieceKind::ALL,
    };
    match t.origin {
        Origin::File(n) => {
            let mut out = Points::new();
            let Some(f) = board_file(side, n) else {
                return out;
            };
            // The groups are written straight into `out` (front first, as
            // `file_group` gives them), without a vector per group.
            for &k in kinds {
                let start = out.len;
                b.pieces_on_file(side, k, f, &mut |sq| out.push(sq));
                if side == Side::Red {
                    let end = out.len;
                    out.points[start..end].reverse();
                }
            }
            out
        }
        Origin::Tandem { position, file } => {
            let files: Vec<u8> = match file {
                Some(n) => board_file(side, n).into_iter().collect(),
                None => (0..FILES).collect(),
            };
            let mut out = Points::new();
            for f in files {
                for &k in kinds {
                    let g = file_group(b, side, k, f);
                    if let Some(i) = tandem_index(position, g.len()) {
                        out.push(g[i]);
                    }
                }
            }
            out
        }
    }
}

/// Resolve a described move (Chinese or WXF) in the position.
pub(crate) fn resolve_text<B: BoardView + ?Sized>(
    b: &B,
    t: &MoveText,
) -> Result<Move, ResolveError> {
    let side = b.side_to_move();
    let from = origins(b, side, t);
    if from.is_empty() {
        return Err(ResolveError::NoSuchPiece {
            wanted: describe(t, side),
        });
    }
    let mut found: Option<Move> = None;
    let mut extra: Vec<Move> = Vec::new();
    for &o in from.iter() {
        b.candidate_moves_from(o, &mut |m| {
            if motion(side, m.from, m.to) == (t.action, t.number) && b.is_legal_candidate(m) {
                if found.is_none() {
                    found = Some(m);
                } else {
                    extra.push(m);
                }
            }
        });
    }
    match found {
        Some(m) if extra.is_empty() => Ok(m),
        Some(m) => {
            let mut candidates = vec![m];
            candidates.extend(extra);
            Err(ResolveError::Ambiguous {
                wanted: describe(t, side),
                candidates,
            })
        }
        None => {
            let candidates = from.iter().flat_map(|&o| b.legal_moves_from(o)).collect();
            Err(ResolveError::NoLegalMove {
                wanted: describe(t, side),
                candidates,
            })
        }
    }
}

/// Resolve any parsed move in the position.
pub(crate) fn resolve_with<B: BoardView + ?Sized>(
    b: &B,
    s: &MoveSyntax,
) -> Result<Move, ResolveError> {
    match s {
        MoveSyntax::Coordinates(mv) => {
            if b.is_legal(*mv) {
                Ok(*mv)
            } else {
                Err(ResolveError::IllegalMove { mv: *mv })
            }
        }
        MoveSyntax::Described(t) => resolve_text(b, t),
    }
}
