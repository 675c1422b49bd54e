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
    /// Call `f` with every move of the piece on `from` that may be legal: a
    /// superset of its legal moves (the resolver tests each with
    /// [`BoardView::is_legal`]). By default, exactly its legal moves.
    fn candidate_moves_from(&self, from: Square, f: &mut dyn FnMut(Move)) {
        for m in self.legal_moves_from(from) {
            f(m);
        }
    }
}

use crate::board::KindId;
use crate::vm::position_internals::MoveBuf;
use crate::vm::{Position, Rules};

/// The correspondence between an edition's kind table and [`PieceKind`],
/// by the kinds' spec names. Build once per `Rules` and reuse.
#[derive(Clone, Debug)]
pub struct KindMap {
    by_id: Vec<Option<PieceKind>>,
    ids: [Option<KindId>; 7],
}

impl KindMap {
    /// Map the kinds of `rules` by name (`general`, `horse`, ...). Kinds the
    /// notations do not name map to `None` and cannot be written.
    pub fn new(rules: &Rules) -> KindMap {
        let by_id: Vec<Option<PieceKind>> = rules.kinds().iter().map(|k| PieceKind::from_spec_name(&k.name)).collect();
        let mut ids = [None; 7];
        for k in PieceKind::ALL {
            ids[k.index()] = rules.kind_by_name(k.spec_name());
        }
        KindMap { by_id, ids }
    }

    /// The notation kind of an edition kind.
    #[inline]
    pub fn kind(&self, id: KindId) -> Option<PieceKind> {
        self.by_id.get(id as usize).copied().flatten()
    }

    /// The edition kind of a notation kind.
    #[inline]
    pub fn id(&self, kind: PieceKind) -> Option<KindId> {
        self.ids[kind.index()]
    }
}

/// A position with its rules, seen through [`BoardView`]. The moves the
/// pieces' programs allow (before the self-kill test) are generated once,
/// when the view is made; legality of a single move is then the core's
/// self-kill test on that move alone.
pub struct RulesBoard<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    kinds: &'a KindMap,
    pseudo: MoveBuf,
}

impl<'a> RulesBoard<'a> {
    /// View `pos` under `rules`.
    pub fn new(rules: &'a Rules, pos: &'a Position, kinds: &'a KindMap) -> RulesBoard<'a> {
        let mut pseudo = MoveBuf::new();
        pos.pseudo_moves(rules, &mut pseudo);
        RulesBoard { rules, pos, kinds, pseudo }
    }

    /// The legal moves, in generation order.
    pub fn legal(&self) -> Vec<Move> {
        self.pseudo.as_slice().iter().copied().filter(|&m| self.passes(m)).collect()
    }

    /// Whether the mover's general is safe after the generated move `m`.
    #[inline]
    fn passes(&self, m: Move) -> bool {
        let mover = self.pos.side_to_move();
        let mut p = self.pos.clone();
        p.make(self.rules, m);
        !p.is_self_kill_for(self.rules, mover)
    }
}

impl BoardView for RulesBoard<'_> {
    #[inline]
    fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    #[inline]
    fn piece_at(&self, sq: Square) -> Option<(Side, PieceKind)> {
        let p = self.pos.piece_at(sq)?;
        Some((p.side, self.kinds.kind(p.kind)?))
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        self.pseudo.as_slice().contains(&mv) && self.passes(mv)
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal()
    }

    #[inline]
    fn candidate_moves_from(&self, from: Square, f: &mut dyn FnMut(Move)) {
        for &m in self.pseudo.as_slice() {
            if m.from == from {
                f(m);
            }
        }
    }
}
