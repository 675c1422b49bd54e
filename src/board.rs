//! Board vocabulary: sides, points (squares) and moves.
//!
//! Coordinates follow ICCS: files `a`–`i` from Red's left, ranks `0`–`9` from
//! Red's side, so `a0` is Red's left corner. A [`Square`] is `rank * 9 + file`.
//! The board's size itself (nine files, ten ranks) is a rule fact and lives in
//! `spec/…/board.yaml`; the loader rejects any edition that does not describe a
//! 9 × 10 grid, because these coordinate types are fixed-size.
//!
//! [`Move::parse_iccs`] is the one reader of a move given as input (every query's `moves`,
//! every command's `--moves`, the `move` events): canonical ICCS only ([`Move::is_iccs`]:
//! four characters, file `a`–`i` and rank `0`–`9` twice, lower case, no separator, nothing
//! around it, as `conformance/PROTOCOL.md` says). `H2-E2` and the other record spellings are
//! the ICCS *notation*, read by the notation module (PGN, `parse_move`).

use std::fmt;

use serde::Serialize;

/// Number of files of the grid the coordinate types support.
pub(crate) const FILES: u8 = 9;
/// Number of ranks of the grid the coordinate types support.
pub(crate) const RANKS: u8 = 10;
/// Number of points (交叉点) on the board.
pub(crate) const SQUARES: usize = (FILES as usize) * (RANKS as usize);

shapes! {
    /// A value for each side, as the files write it (`{red: …, black: …}`, both given): a piece
    /// kind's names (帅/将), the rulebook's words for the sides (红方, 黑方).
    #[derive(Copy, PartialEq, Eq, Serialize)]
    pub(crate) struct BySide<T> {
        /// Red's.
        pub(crate) red: T,
        /// Black's.
        pub(crate) black: T,
    }
}

impl<T> BySide<T> {
    /// The side's value.
    pub(crate) fn of(&self, side: Side) -> &T {
        match side {
            Side::Red => &self.red,
            Side::Black => &self.black,
        }
    }
}

impl<T> From<BySide<T>> for [T; 2] {
    /// Red's and Black's, in [`Side::index`] order.
    fn from(b: BySide<T>) -> Self {
        [b.red, b.black]
    }
}

shapes! {
    /// A count for each side, as the files write it: fouls charged in a game (a tournament's
    /// `fouls`), seconds late at the start of play (the `late` event). A side left out has none
    /// (`{red: 1}`), which [`BySide`] refuses: serde's default for a missing field cannot depend on
    /// the value's type, so the two are two types.
    #[derive(Copy, Default, PartialEq, Eq, Serialize)]
    #[serde(default)]
    pub(crate) struct SideCounts {
        /// Red's.
        pub(crate) red: u32,
        /// Black's.
        pub(crate) black: u32,
    }
}

impl From<SideCounts> for [u32; 2] {
    /// Red's and Black's, in [`Side::index`] order.
    fn from(c: SideCounts) -> Self {
        [c.red, c.black]
    }
}

/// A side: Red (红方, moves first) or Black (黑方).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red (红方), who moves first.
    Red = 0,
    /// Black (黑方).
    Black = 1,
}

impl Side {
    /// Both sides, Red first.
    pub const BOTH: [Side; 2] = [Side::Red, Side::Black];

    #[inline]
    /// 0 for Red, 1 for Black: the index of per-side tables.
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    pub(crate) fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::Red
        } else {
            Side::Black
        }
    }

    /// English name used in data and protocol values: `red` / `black`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

codes! {
    /// The result of a game (对局结果) as the arbiter, a play-off or a tournament file gives
    /// it: the side that wins (胜), a draw (和棋), both sides losing (双方判负), or no result
    /// yet. The codes are the protocol's (`red_wins` …).
    pub enum GameResult {
        /// Red wins (红胜).
        RedWins => "red_wins",
        /// Black wins (黑胜).
        BlackWins => "black_wins",
        /// A draw (和棋).
        Draw => "draw",
        /// The game goes on.
        Ongoing => "ongoing",
        /// The game is void and replayed (colours reversed found in time).
        Replay => "replay",
        /// Both sides lose (双方判负; both forfeit).
        BothLose => "both_lose",
    }
}

impl GameResult {
    /// The result as the protocol writes it (`red_wins` …).
    pub fn name(self) -> &'static str {
        self.code()
    }

    /// The win of `side`.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::Red => GameResult::RedWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The side that wins, if one does.
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::RedWins => Some(Side::Red),
            GameResult::BlackWins => Some(Side::Black),
            _ => None,
        }
    }
}

/// A point of the board (交叉点), `rank * 9 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The point at `file` (0 = `a`) and `rank` (0 = Red's back rank), if on the board.
    #[inline]
    pub fn new(file: i32, rank: i32) -> Option<Square> {
        if (0..FILES as i32).contains(&file) && (0..RANKS as i32).contains(&rank) {
            Some(Square((rank * FILES as i32 + file) as u8))
        } else {
            None
        }
    }

    /// The point with index `i` (`0..90`).
    #[inline]
    pub(crate) fn from_index(i: usize) -> Option<Square> {
        if i < SQUARES {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(i: u8) -> Square {
        Square(i)
    }

    #[inline]
    /// The point's index, `rank * 9 + file`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 from Red's left (`a` = 0).
    #[inline]
    pub fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank 0..10 from Red's side.
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// Rank counted from `side`'s own back rank (0 = own back rank).
    #[inline]
    #[cfg(test)]
    pub(crate) fn relative_rank(self, side: Side) -> u8 {
        match side {
            Side::Red => self.rank(),
            Side::Black => RANKS - 1 - self.rank(),
        }
    }

    /// This point as seen from `side`: the identity for Red, the 180° rotation for Black.
    #[inline]
    pub fn relative_to(self, side: Side) -> Square {
        match side {
            Side::Red => self,
            Side::Black => Square((SQUARES as u8) - 1 - self.0),
        }
    }

    /// Every point, `a0` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// The points strictly between `a` and `b` when they share a file or a rank (none
    /// otherwise).
    pub fn between(a: Square, b: Square) -> impl Iterator<Item = Square> {
        let (df, dr) = (
            i32::from(b.file()) - i32::from(a.file()),
            i32::from(b.rank()) - i32::from(a.rank()),
        );
        let n = if df == 0 || dr == 0 {
            df.abs().max(dr.abs())
        } else {
            0
        };
        let (sf, sr) = (df.signum(), dr.signum());
        (1..n.max(1)).filter_map(move |k| {
            Square::new(i32::from(a.file()) + k * sf, i32::from(a.rank()) + k * sr)
        })
    }

    /// Parse ICCS coordinates such as `h2` or `H2`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase();
        if !(b'a'..=b'i').contains(&file) || !b[1].is_ascii_digit() {
            return None;
        }
        Square::new((file - b'a') as i32, (b[1] - b'0') as i32)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// A move (一着): a piece goes from one point to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The point the piece leaves.
    pub from: Square,
    /// The point the piece goes to.
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to`.
    pub fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The one reader of a move given as input (`moves` of every query, `--moves` of every
    /// command, `move` events): `Some` exactly when `Move::is_iccs` holds (`h2e2`).
    pub fn parse_iccs(s: &str) -> Option<Move> {
        if !Move::is_iccs(s) {
            return None;
        }
        Some(Move::new(
            Square::parse(&s[0..2])?,
            Square::parse(&s[2..4])?,
        ))
    }

    /// Is `s` a move as every query and command reads one: canonical ICCS, four
    /// characters, a file letter `a`–`i` then a rank digit `0`–`9` for the from-point and
    /// the to-point, lower case, no separator and nothing around it (`h2e2`;
    /// `conformance/PROTOCOL.md`). Records in the ICCS notation (`H2-E2` in a PGN file,
    /// `parse_move` with `iccs-upper`) are read by `notation`, not here.
    pub fn is_iccs(s: &str) -> bool {
        let b = s.as_bytes();
        b.len() == 4
            && (b'a'..=b'i').contains(&b[0])
            && b[1].is_ascii_digit()
            && (b'a'..=b'i').contains(&b[2])
            && b[3].is_ascii_digit()
    }

    /// ICCS text in lower case, `h2e2`.
    pub fn iccs(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Index of a piece kind in the kind table of a compiled edition (`rules.kinds()`).
/// Kinds are data: which index means `horse` is decided by `spec/…/pieces.yaml`.
pub(crate) type KindId = u8;

/// A piece: a side and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// Its kind, an index into the rule set's `pieces.kinds`.
    pub kind: KindId,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trip() {
        let m = Move::parse_iccs("h2e2").unwrap();
        assert_eq!(m.from, Square::new(7, 2).unwrap());
        assert_eq!(m.to, Square::new(4, 2).unwrap());
        assert_eq!(m.iccs(), "h2e2");
        assert_eq!(Move::parse_iccs("H2-E2"), None);
        assert_eq!(Move::parse_iccs("H2E2"), None);
        assert_eq!(Move::parse_iccs(" h2e2"), None);
        assert_eq!(Move::parse_iccs("j2e2"), None);
        assert_eq!(Move::parse_iccs("h2e"), None);
    }

    #[test]
    fn relative_coordinates() {
        let a0 = Square::parse("a0").unwrap();
        assert_eq!(a0.relative_to(Side::Black), Square::parse("i9").unwrap());
        assert_eq!(Square::parse("e7").unwrap().relative_rank(Side::Black), 2);
    }
}
