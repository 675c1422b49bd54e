//! Typed shapes of the clause `data` the VM interprets.
//!
//! Each shape rejects unknown fields, so a misspelt key in `spec/` is an error with the
//! clause's location rather than a silently ignored rule.

use std::collections::BTreeMap;

use serde::Deserialize;

shapes! {
    pub(crate) struct Grid {
        pub files: u8,
        pub ranks: u8,
    }

    /// A rectangle of points written as Red sees its own side: `{files: [d, f], ranks: [0, 2]}`.
    pub struct Region {
        /// The first and last file, `a`–`i`.
        pub files: [char; 2],
        /// The first and last rank, `0`–`9`.
        pub ranks: [u8; 2],
    }
}

/// Any clause that names regions (`board.river`, `board.palace`).
#[derive(Debug, Deserialize)]
pub struct Regions {
    #[serde(default)]
    /// Regions by name (`palace`, `own_half`).
    pub regions: BTreeMap<String, Region>,
}

shapes! {
    /// `pieces.kinds`: the piece kinds of the edition.
    pub struct Kinds {
        /// The kinds, in the order of their ids.
        pub kinds: Vec<Kind>,
    }

    /// One piece kind: its name, whether it is royal, its FEN letters and record names.
    pub struct Kind {
        /// The kind's name (`horse`), which move programs refer to.
        pub kind: String,
        pub(crate) gloss: String,
        #[serde(default)]
        /// Whether it is the royal piece (the general, 帅/将), the one check and checkmate are about.
        pub royal: bool,
        /// The kind's FEN letters, canonical first (upper case for Red, lower case for Black).
        pub(crate) fen: Vec<char>,
        pub(crate) names: SideNames,
    }
}

/// A word for each side: a piece kind's names (帅/将), or the rulebook's words for the sides
/// as a ruling writes them before a cycle's name (红方长捉).
pub(crate) type SideNames = crate::board::BySide<String>;

shapes! {
    pub(crate) struct Setup {
        pub(crate) points: BTreeMap<String, Vec<String>>,
    }

    pub(crate) struct Turns {
        pub(crate) first_to_move: String,
        pub(crate) moves_per_round: u8,
    }

    /// A piece's move program (`movement.<piece>`).
    pub struct Movement {
        /// The kind the program moves.
        pub piece: String,
        /// The primitives; a move is legal for the piece when one of them produces it.
        pub program: Vec<Instruction>,
    }

    /// One primitive of a move program, with its options.
    #[derive(Default)]
    #[serde(default)]
    pub struct Instruction {
        /// Go one offset `[df, dr]` if the point is empty or holds a capturable piece.
        pub step: Option<[i8; 2]>,
        /// Go to an offset `[df, dr]` while the blocking point is empty (蹩马腿, 塞象眼).
        pub leap: Option<[i8; 2]>,
        /// Travel in a direction over empty points.
        pub slide: Option<[i8; 2]>,
        /// Travel in a direction jumping exactly `screens` pieces (炮打隔子).
        pub hop: Option<[i8; 2]>,
        /// Blocking point of a leap, relative to the start, in the same frame as the leap.
        pub block: Option<[i8; 2]>,
        /// Pieces a hop jumps over (炮打隔子: one).
        pub screens: Option<u8>,
        /// Longest slide, in points.
        pub max: Option<u8>,
        /// The copies of the offset produced: none, mirrored left/right, rotated, all eight.
        pub symmetry: Symmetry,
        /// Whether the primitive moves, captures, or both.
        pub mode: Mode,
        /// A region the start point must lie in.
        pub from: Option<String>,
        /// A region the end point must lie in.
        pub to: Option<String>,
    }

    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    /// The copies of an offset a primitive produces.
    pub enum Symmetry {
        #[default]
        /// The offset as written.
        None,
        /// The offset and its mirror image left/right.
        Mirror,
        /// The offset turned by each quarter-turn.
        Rotate,
        /// All eight mirror images and rotations.
        All,
    }

    #[derive(Copy, Default, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    /// Whether a primitive moves to empty points, captures, or both.
    pub enum Mode {
        #[default]
        /// Moves and captures.
        Both,
        /// Moves to empty points only.
        Quiet,
        /// Captures only.
        Capture,
    }
}

impl Mode {
    /// Whether it moves to empty points.
    pub fn quiet(self) -> bool {
        matches!(self, Mode::Both | Mode::Quiet)
    }
    /// Whether it captures.
    pub fn capture(self) -> bool {
        matches!(self, Mode::Both | Mode::Capture)
    }
}

shapes! {
    pub(crate) struct Capture {
        pub capture: String,
        pub(crate) own_pieces: String,
    }

    /// Two pieces of this kind may not face each other on a line with nothing between.
    pub struct Facing {
        /// The kind that may not face its counterpart.
        pub piece: String,
        /// The lines on which facing counts.
        pub line: Line,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    /// Lines of the board.
    pub enum Line {
        /// A file (column).
        File,
        /// A rank (row).
        Rank,
        /// Files and ranks.
        Both,
    }

    pub(crate) struct CheckDefinition {
        pub target: String,
        pub status: String,
    }

    pub(crate) struct CheckResponse {
        pub(crate) must_answer: bool,
    }

    pub(crate) struct StatusRule {
        pub(crate) when: StatusWhen,
        pub status: String,
    }

    #[derive(Copy)]
    pub(crate) struct StatusWhen {
        pub in_check: Option<bool>,
        pub(crate) has_legal_move: Option<bool>,
    }

    /// `check.self_kill`: the conditions a move may not leave behind (送将).
    pub struct SelfKill {
        /// The conditions, each forbidden after a move of its side.
        pub forbidden_after_move: Vec<Forbidden>,
    }

    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    /// A condition a move may not leave behind.
    pub enum Forbidden {
        /// The mover's own general can be captured by an opposing move.
        OwnRoyalAttacked,
        /// The generals face each other (see `movement.generals_facing`).
        RoyalsFacing,
    }
}
