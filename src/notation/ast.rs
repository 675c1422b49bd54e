//! Syntax trees of move text, before any board is consulted.

use crate::board::{Move, Side};

/// The seven kinds of piece, as the notations name them. The spec names them
/// `general`, `advisor`, `elephant`, `horse`, `chariot`, `cannon`, `soldier`;
/// [`PieceKind::spec_name`] gives that name so the resolver can find the
/// kind in a compiled edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 帅/将, WXF `K`.
    General,
    /// 仕/士, WXF `A`.
    Advisor,
    /// 相/象, WXF `E` (also `B`).
    Elephant,
    /// 马, WXF `H` (also `N`).
    Horse,
    /// 车, WXF `R`.
    Chariot,
    /// 炮, WXF `C`.
    Cannon,
    /// 兵/卒, WXF `P`.
    Soldier,
}

impl PieceKind {
    /// All kinds, in the order above.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// The kind's name in the spec (`spec/…/pieces.yaml`).
    pub fn spec_name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }

    /// The kind with the given spec name.
    pub(crate) fn from_spec_name(name: &str) -> Option<PieceKind> {
        PieceKind::ALL.into_iter().find(|k| k.spec_name() == name)
    }

    /// Index `0..7` in [`PieceKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The action of a described move (动作).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// 进 (advance): towards the opponent's side; `+`.
    Advance,
    /// 退 (retreat): towards one's own side; `-`.
    Retreat,
    /// 平 (traverse): along the rank; `.` or `=`.
    Traverse,
}

/// Which of several same-kind pieces on one file (tandem pieces) is meant,
/// counted from the front, the end nearer the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tandem {
    /// 前, WXF `+`: the front piece.
    Front,
    /// 中: the middle one of three.
    Middle,
    /// 后/後, WXF `-`: the rear piece.
    Rear,
    /// 一–五, WXF `1`–`5`: the n-th from the front (1-based).
    Nth(u8),
}

/// How the moving piece is picked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The file (1–9, counted from the mover's right) the piece stands on.
    File(u8),
    /// A tandem designator, optionally with the file (1–9, from the mover's
    /// right) when several files hold tandem pieces.
    Tandem {
        /// Front, middle, rear … (前, 中, 后).
        position: Tandem,
        /// The file, when several files hold tandem pieces.
        file: Option<u8>,
    },
}

/// A move written in Chinese or WXF notation: piece, origin, action, number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The piece kind; `None` for the form `前七进一`, where the file stands
    /// in for the piece.
    pub(crate) piece: Option<PieceKind>,
    /// File or tandem designator.
    pub(crate) origin: Origin,
    /// 进, 退 or 平.
    pub(crate) action: Action,
    /// 1–9 as written: a destination file (from the mover's right) or a step count.
    pub(crate) number: u8,
    /// The side the characters belong to, when they say (帅 is Red, 将 is Black; a
    /// numeral is the side's whose set in `board.file_numbering` has it). Informational only: the
    /// resolver goes by the side to move.
    pub(crate) side_hint: Option<Side>,
}

/// A parsed move in any notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveSyntax {
    /// Chinese or WXF: described relative to the mover.
    Described(MoveText),
    /// ICCS: two board points.
    Coordinates(Move),
}
