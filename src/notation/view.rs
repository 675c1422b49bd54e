//! The notation code's window on a position.

use super::ast::PieceKind;
use crate::board::{Move, Side, Square};

/// What notation needs to know about a position: whose turn it is, what
/// stands where, and which moves are legal. The core's `Position` with its
/// `Rules` provides this through [`RulesBoard`](super::RulesBoard); tests may
/// provide their own.
pub trait BoardView {
    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// The piece on `sq`, by side and kind.
    fn piece_at(&self, sq: Square) -> Option<(Side, PieceKind)>;
    /// Whether `mv` is legal for the side to move.
    fn is_legal(&self, mv: Move) -> bool;
    /// Every legal move of the side to move.
    fn legal_moves(&self) -> Vec<Move>;
    /// The legal moves of the piece on `from`.
    fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        let mut v = self.legal_moves();
        v.retain(|m| m.from == from);
        v
    }
}
