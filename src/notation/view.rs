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
    /// Whether `mv`, one of the moves [`BoardView::candidate_moves_from`]
    /// gave, is legal. By default [`BoardView::is_legal`]; a view may answer
    /// faster knowing the piece's program allows the move.
    fn is_legal_candidate(&self, mv: Move) -> bool {
        self.is_legal(mv)
    }
    /// Call `out` with the points of `side`'s pieces of `kind` on board file
    /// `file`, rank 0 (Red's back rank) first.
    fn pieces_on_file(&self, side: Side, kind: PieceKind, file: u8, out: &mut dyn FnMut(Square)) {
        for sq in (0..crate::board::RANKS as i32).filter_map(|r| Square::new(file as i32, r)) {
            if self.piece_at(sq) == Some((side, kind)) {
                out(sq);
            }
        }
    }
    /// The file numerals of each side (`board.file_numbering`), with which Chinese
    /// numerals are read.
    fn file_numerals(&self) -> &crate::vm::record::FileNumerals;
    /// How moves are recorded (the characters and forms of article 7.5), when the rules say.
    fn record(&self) -> Option<&Record> {
        None
    }
    /// The record characters of `side`'s pieces of `kind`, when the rules say.
    fn piece_chars(&self, side: Side, kind: PieceKind) -> Option<&Word> {
        let _ = (side, kind);
        None
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
use crate::vm::record::{Record, Word};
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
        let by_id: Vec<Option<PieceKind>> = rules
            .kinds()
            .iter()
            .map(|k| PieceKind::from_spec_name(&k.name))
            .collect();
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

/// A position with its rules, seen through [`BoardView`]. Legality is the
/// core's (`Position::is_legal`, `Position::legal_moves`); the moves the
/// pieces' programs allow, which the resolver filters by the written motion
/// before testing legality, are generated for the named pieces only.
pub struct RulesBoard<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    kinds: &'a KindMap,
}

impl<'a> RulesBoard<'a> {
    /// View `pos` under `rules`.
    pub fn new(rules: &'a Rules, pos: &'a Position, kinds: &'a KindMap) -> RulesBoard<'a> {
        RulesBoard { rules, pos, kinds }
    }

    /// The legal moves, in the core's generation order.
    pub fn legal(&self) -> Vec<Move> {
        self.pos.legal_moves(self.rules)
    }
}

impl BoardView for RulesBoard<'_> {
    fn file_numerals(&self) -> &crate::vm::record::FileNumerals {
        self.rules.file_numerals()
    }

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
        self.pos.is_legal(self.rules, mv)
    }

    #[inline]
    fn is_legal_candidate(&self, mv: Move) -> bool {
        self.pos.is_legal_pseudo(self.rules, mv)
    }

    #[inline]
    fn pieces_on_file(&self, side: Side, kind: PieceKind, file: u8, out: &mut dyn FnMut(Square)) {
        if let Some(id) = self.kinds.id(kind) {
            // Points come in index order, which is rank order.
            for sq in self.pos.points_of(side, id).filter(|sq| sq.file() == file) {
                out(sq);
            }
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal()
    }

    #[inline]
    fn record(&self) -> Option<&Record> {
        self.rules.record()
    }

    #[inline]
    fn piece_chars(&self, side: Side, kind: PieceKind) -> Option<&Word> {
        Some(&self.rules.record()?.pieces[self.kinds.id(kind)? as usize][side.index()])
    }

    fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        self.pos.legal_moves_from(self.rules, from)
    }

    #[inline]
    fn candidate_moves_from(&self, from: Square, f: &mut dyn FnMut(Move)) {
        // Only the piece on `from` is generated: resolution looks at one or
        // two pieces, never at the whole side.
        let mut buf = MoveBuf::new();
        self.pos.pseudo_moves_from(self.rules, from, &mut buf);
        for &m in buf.as_slice() {
            f(m);
        }
    }
}
