//! The position and its moves, run from the compiled tables of [`Rules`].
//!
//! Board state: a 90-point mailbox, a bitboard per side and per (side, kind), and one
//! occupancy bit-vector per rank and per file, so that the pieces along a line from any
//! point are found with a few bit operations. History is not kept here: a game record
//! (and the repetition rules) keep the moves outside the position.

use std::fmt;

use super::compile::{side_point, MAX_KINDS};
use super::{opposite, Ray, Rules, Status, CAPTURE, NO_BLOCK, QUIET};
use crate::board::{KindId, Move, Piece, Side, Square, FILES, RANKS, SQUARES};

/// Piece code in the mailbox: 0 = empty, else `OCCUPIED | side << 3 | kind`.
const OCCUPIED: u8 = 0x10;

#[inline]
fn code(side: Side, kind: KindId) -> u8 {
    OCCUPIED | (side as u8) << 3 | kind
}
#[inline]
fn code_side(c: u8) -> usize {
    (c >> 3 & 1) as usize
}
#[inline]
fn code_kind(c: u8) -> usize {
    (c & 7) as usize
}

/// Index step of one point in each absolute direction (north, south, east, west).
const STEP: [isize; 4] = [FILES as isize, -(FILES as isize), 1, -1];

/// A position: pieces, side to move and the two move counters of FEN.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [u8; SQUARES],
    occ: [u128; 2],
    kind_bb: [[u128; 8]; 2],
    rank_occ: [u16; RANKS as usize],
    file_occ: [u16; FILES as usize],
    side: Side,
    /// Moves since the last capture (FEN's halfmove clock).
    pub(crate) halfmove: u32,
    /// Move number, starting at 1 and incremented after Black moves.
    pub(crate) fullmove: u32,
}

/// Hashes the points and the side to move, from which every other field but the counters
/// follows (positions that are equal hash alike).
impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.board.hash(h);
        self.side.hash(h);
    }
}

/// The pieces and the side to move of a position, without the counters: what a repetition
/// compares, and the key of the 棋例 searches' memos (nothing they find depends on the
/// counters).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Placement {
    board: [u8; SQUARES],
    side: Side,
}

/// A map keyed by placements (and small data beside them), hashed a machine word at a time:
/// the memos of the 棋例 searches look a position up at every node, where the standard
/// hasher's cost per byte is felt. Keys are compared in full, so a collision costs time only.
pub(crate) type PlacementMap<K, V> =
    std::collections::HashMap<K, V, std::hash::BuildHasherDefault<WordHasher>>;

/// A multiplicative hash over machine words (the multiplier of Firefox's FxHash); not for
/// keys an adversary chooses to collide, which the memos never see.
#[derive(Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What `make` changed that `unmake` cannot recompute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    halfmove: u32,
}

impl Undo {
    /// The piece taken by the move, if any.
    pub(crate) fn captured(&self) -> Option<Piece> {
        (self.captured != 0).then(|| Piece {
            side: Side::from_index(code_side(self.captured)),
            kind: code_kind(self.captured) as KindId,
        })
    }
}

/// A move that is not legal in the position where it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub(crate) mv: Move,
    /// Why it is not legal.
    pub reason: IllegalReason,
}

/// Why a move is not legal, in the rules' terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// No piece on the starting point.
    NoPiece,
    /// The piece on the starting point belongs to the side not to move.
    NotYourPiece,
    /// The piece cannot go there under its move program (or the point holds an own piece).
    NotAMove,
    /// The move would be a self-kill (自杀): own general attacked or generals facing.
    SelfKill,
}

impl IllegalReason {
    /// The reason as the protocol's messages write it (`no_piece`, `self_kill` …).
    pub fn name(self) -> &'static str {
        match self {
            IllegalReason::NoPiece => "no_piece",
            IllegalReason::NotYourPiece => "not_your_piece",
            IllegalReason::NotAMove => "not_a_move",
            IllegalReason::SelfKill => "self_kill",
        }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::NoPiece => "there is no piece on the starting point",
            IllegalReason::NotYourPiece => {
                "the piece on the starting point belongs to the other side"
            }
            IllegalReason::NotAMove => "the piece cannot move there",
            IllegalReason::SelfKill => {
                "it would leave the own general capturable or the generals facing (self-kill, 自杀)"
            }
        };
        write!(f, "illegal move {}: {why}", self.mv)
    }
}

impl std::error::Error for IllegalMove {}

/// A fixed-capacity move buffer (no allocation in the search loop).
pub(crate) struct MoveBuf {
    moves: [std::mem::MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

/// Capacity of a move buffer; `Rules::compile` rejects editions whose pieces could exceed it.
pub(crate) const MAX_MOVES: usize = 256;

impl MoveBuf {
    #[inline]
    pub(crate) fn new() -> MoveBuf {
        MoveBuf {
            moves: [std::mem::MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, from: usize, to: usize) {
        if self.len < MAX_MOVES {
            self.moves[self.len].write(Move::new(
                Square::from_index_unchecked(from as u8),
                Square::from_index_unchecked(to as u8),
            ));
            self.len += 1;
        }
    }
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`; `Move` is `Copy` with no
        // invalid bit patterns among written values.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
}

/// Where generated moves go: a buffer, or a counter for perft's last ply.
pub(crate) trait Sink {
    /// One move.
    fn one(&mut self, from: usize, to: usize);
    /// Whether the sink may keep a quiet move at all (a sink of captures only does not:
    /// the generator then skips every quiet move unseen).
    #[inline]
    fn quiet(&self) -> bool {
        true
    }
    /// Whether the sink keeps every move from `from` (then [`Sink::may_keep`] is not asked).
    #[inline]
    fn keeps_from(&self, _from: usize) -> bool {
        true
    }
    /// Whether the sink may keep some move onto one of the points `to`, from a point it does
    /// not keep whole (where it may not, the generator skips a piece's leaps, or a line,
    /// unseen).
    #[inline]
    fn may_keep(&self, _to: u128) -> bool {
        true
    }
    /// The quiet moves from `from` along direction `d` to distances `first..=last`, every
    /// target allowed (no region guard).
    #[inline]
    fn run(&mut self, from: usize, d: usize, first: u32, last: u32) {
        for dist in first..=last {
            self.one(from, Position::along(from, d, dist));
        }
    }
}

impl Sink for MoveBuf {
    #[inline]
    fn one(&mut self, from: usize, to: usize) {
        self.push(from, to);
    }
}

/// Keeps the moves onto `targets` or from `sources`, and drops the rest unseen (the quiet
/// runs that touch neither are skipped whole).
struct Filter<'a> {
    rules: &'a Rules,
    targets: u128,
    sources: u128,
    /// Some target is an empty point, or some source is kept whole: quiet moves may be kept.
    quiet: bool,
    kept: MoveBuf,
}

impl<'a> Filter<'a> {
    fn new(rules: &'a Rules, pos: &Position, targets: u128, sources: u128) -> Filter<'a> {
        let empty = !(pos.occ[0] | pos.occ[1]);
        Filter {
            rules,
            targets,
            sources,
            quiet: sources != 0 || targets & empty != 0,
            kept: MoveBuf::new(),
        }
    }
}

impl Sink for Filter<'_> {
    #[inline]
    fn quiet(&self) -> bool {
        self.quiet
    }

    #[inline]
    fn keeps_from(&self, from: usize) -> bool {
        self.sources >> from & 1 != 0
    }

    #[inline]
    fn may_keep(&self, to: u128) -> bool {
        to & self.targets != 0
    }

    #[inline]
    fn one(&mut self, from: usize, to: usize) {
        if ((self.sources >> from) | (self.targets >> to)) & 1 != 0 {
            self.kept.push(from, to);
        }
    }

    #[inline]
    fn run(&mut self, from: usize, d: usize, first: u32, last: u32) {
        if first > last {
            return;
        }
        let all = self.keeps_from(from);
        let end = Position::along(from, d, last);
        if !all && !self.may_keep(self.rules.ray_mask[from][d] & !self.rules.ray_mask[end][d]) {
            return;
        }
        for dist in first..=last {
            let to = Position::along(from, d, dist);
            if all || self.targets >> to & 1 != 0 {
                self.kept.push(from, to);
            }
        }
    }
}

/// Counts moves that cannot be self-kills and keeps the others for a full test.
struct Counter<'a> {
    rules: &'a Rules,
    /// Points whose change could expose the general; every point when in check or for the
    /// general's own moves.
    sensitive: u128,
    royal: usize,
    in_check: bool,
    safe: u64,
    doubtful: &'a mut MoveBuf,
}

impl Counter<'_> {
    #[inline]
    fn doubtful(&self, from: usize, to: usize) -> bool {
        from == self.royal
            || self.in_check
            || ((1u128 << from) | (1u128 << to)) & self.sensitive != 0
    }
}

impl Sink for Counter<'_> {
    #[inline]
    fn one(&mut self, from: usize, to: usize) {
        if self.doubtful(from, to) {
            self.doubtful.push(from, to);
        } else {
            self.safe += 1;
        }
    }

    #[inline]
    fn run(&mut self, from: usize, d: usize, first: u32, last: u32) {
        if first > last {
            return;
        }
        let end = Position::along(from, d, last);
        let segment =
            (self.rules.ray_mask[from][d] & !self.rules.ray_mask[end][d]) | (1u128 << from);
        if from == self.royal || self.in_check || segment & self.sensitive != 0 {
            for dist in first..=last {
                self.one(from, Position::along(from, d, dist));
            }
        } else {
            self.safe += (last - first + 1) as u64;
        }
    }
}

/// Per-node facts that decide which moves need a full self-kill test.
struct Guard {
    royal: usize,
    in_check: bool,
    /// Points whose change of occupancy could expose the own general.
    sensitive: u128,
    /// In check, the lines of the checks: every checking piece's point, the points between
    /// it and the general (a line's screens among them) and a leap's blocking point. A move
    /// of another piece that neither leaves nor enters one of them leaves a check standing.
    checks: u128,
}

/// Which moves of the side to move could give check, so that only those are played and
/// tested: a move that vacates or fills a point between the opposing general and a piece
/// that attacks it once that point changes (the points [`Position::guard`] finds for that
/// general), or that brings a piece to a point from which its kind could attack the general
/// (its leaps' starts and the general's lines). A position whose opposing general is
/// already attacked, or that has none, falls back to the general's whole check zone.
struct CheckFilter {
    /// Points a move may leave or enter to give check by uncovering or screening.
    sensitive: u128,
    /// Per kind: points the moved piece may arrive on to give check itself.
    direct: [u128; MAX_KINDS],
    /// Where a checking move may end (for the generator's filter; it may start on
    /// `sensitive`).
    targets: u128,
}

impl CheckFilter {
    const NONE: CheckFilter = CheckFilter {
        sensitive: 0,
        direct: [0; MAX_KINDS],
        targets: 0,
    };

    fn new(pos: &Position, rules: &Rules) -> CheckFilter {
        let mover = pos.side;
        let their = mover.opponent();
        let royal = pos.kind_bb[their.index()][rules.royal as usize];
        if royal == 0 {
            return CheckFilter::NONE;
        }
        let k = royal.trailing_zeros() as usize;
        let zone = rules.check_zone[side_point(mover, k)];
        let Some(g) = pos.guard_of(rules, their).filter(|g| !g.in_check) else {
            return CheckFilter {
                sensitive: zone,
                direct: [zone; MAX_KINDS],
                targets: zone,
            };
        };
        let direct = rules.check_arrival[side_point(mover, k)];
        let arrive = direct.iter().fold(0, |a, d| a | d);
        CheckFilter {
            sensitive: g.sensitive,
            direct,
            targets: g.sensitive | arrive,
        }
    }

    /// Whether the pseudo-legal move `m` of `pos` gives check.
    #[inline]
    fn gives(&self, pos: &Position, rules: &Rules, m: Move) -> bool {
        self.may_give(pos, m) && pos.gives_check_after(rules, m)
    }

    /// Whether the pseudo-legal move `m` of `pos` may give check (if not, it does not).
    #[inline]
    fn may_give(&self, pos: &Position, m: Move) -> bool {
        let (f, t) = (m.from.index(), m.to.index());
        ((1u128 << f) | (1u128 << t)) & self.sensitive != 0
            || self.direct[code_kind(pos.board[f])] >> t & 1 != 0
    }
}

/// A move looked at without playing it: the board as it would stand once the piece on
/// `from` has gone to `to`, taking what stood there. `NONE` is the board as it is.
#[derive(Clone, Copy)]
struct After {
    from: usize,
    to: usize,
    /// The moving piece's code.
    moved: u8,
}

impl After {
    /// No move (points off the board, never met).
    const NONE: After = After {
        from: SQUARES,
        to: SQUARES,
        moved: 0,
    };

    #[inline(always)]
    fn of(pos: &Position, m: Move) -> After {
        let from = m.from.index();
        After {
            from,
            to: m.to.index(),
            moved: pos.board[from],
        }
    }
}

/// The pieces met along a line from a point, nearest first, as distances.
#[derive(Clone, Copy)]
struct LineScan {
    bits: u32,
    positive: bool,
    pos: u32,
}

impl Iterator for LineScan {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.bits == 0 {
            return None;
        }
        if self.positive {
            let t = self.bits.trailing_zeros();
            self.bits &= self.bits - 1;
            Some(t + 1)
        } else {
            let h = 31 - self.bits.leading_zeros();
            self.bits ^= 1 << h;
            Some(self.pos - h)
        }
    }
}

impl Position {
    /// An empty board with `side` to move.
    pub fn empty(side: Side) -> Position {
        Position {
            board: [0; SQUARES],
            occ: [0; 2],
            kind_bb: [[0; 8]; 2],
            rank_occ: [0; RANKS as usize],
            file_occ: [0; FILES as usize],
            side,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Put a piece on an empty point (set-up; replaces whatever stood there).
    pub fn put(&mut self, piece: Piece, sq: Square) {
        self.remove(sq);
        let i = sq.index();
        self.board[i] = code(piece.side, piece.kind);
        self.occ[piece.side.index()] |= 1u128 << i;
        self.kind_bb[piece.side.index()][piece.kind as usize] |= 1u128 << i;
        self.rank_occ[sq.rank() as usize] |= 1 << sq.file();
        self.file_occ[sq.file() as usize] |= 1 << sq.rank();
    }

    /// Take the piece off a point, if any.
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let i = sq.index();
        let c = self.board[i];
        if c == 0 {
            return None;
        }
        let (s, k) = (code_side(c), code_kind(c));
        self.board[i] = 0;
        self.occ[s] &= !(1u128 << i);
        self.kind_bb[s][k] &= !(1u128 << i);
        self.rank_occ[sq.rank() as usize] &= !(1 << sq.file());
        self.file_occ[sq.file() as usize] &= !(1 << sq.rank());
        Some(Piece {
            side: Side::from_index(s),
            kind: k as KindId,
        })
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != 0).then(|| Piece {
            side: Side::from_index(code_side(c)),
            kind: code_kind(c) as KindId,
        })
    }

    /// A hash of what `same_placement` compares (the pieces and the side to
    /// move): equal for the same placement, so a repetition is looked for among equal keys.
    pub fn placement_key(&self) -> u64 {
        // FNV-1a over the 90 points and the side to move.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in self.board.iter().chain(std::iter::once(&(self.side as u8))) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }

    /// The pieces and the side to move, as a key.
    pub(crate) fn placement(&self) -> Placement {
        Placement {
            board: self.board,
            side: self.side,
        }
    }

    /// Whether both positions have the same pieces on the same points and the same side to
    /// move (the move counters aside): the sense in which a position repeats.
    pub(crate) fn same_placement(&self, other: &Position) -> bool {
        self.side == other.side && self.board == other.board
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Sets the side to move (the pieces stay as they are).
    pub fn set_side_to_move(&mut self, side: Side) {
        self.side = side;
    }

    /// Plies since the last capture (the FEN's halfmove counter).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, from 1, counted up after Black's move (the FEN's fullmove field).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    pub(crate) fn set_counters(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove.max(1);
    }

    /// Every piece with its point, `a0` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// Points holding pieces of `side` and `kind`.
    pub(crate) fn points_of(&self, side: Side, kind: KindId) -> impl Iterator<Item = Square> {
        BitIter(self.kind_bb[side.index()][kind as usize])
            .map(|i| Square::from_index_unchecked(i as u8))
    }

    /// Number of pieces of `side` and `kind`.
    pub(crate) fn count(&self, side: Side, kind: KindId) -> u32 {
        self.kind_bb[side.index()][kind as usize].count_ones()
    }

    /// The general's point of `side`, if it has one.
    pub(crate) fn royal_point(&self, rules: &Rules, side: Side) -> Option<Square> {
        let bb = self.kind_bb[side.index()][rules.royal as usize];
        (bb != 0).then(|| Square::from_index_unchecked(bb.trailing_zeros() as u8))
    }

    // ------------------------------------------------------------------ make / unmake

    /// Play a move without checking it. Pair with [`Position::unmake`].
    #[inline]
    pub fn make(&mut self, _rules: &Rules, m: Move) -> Undo {
        let (from, to) = (m.from.index(), m.to.index());
        let p = self.board[from];
        let cap = self.board[to];
        let undo = Undo {
            captured: cap,
            halfmove: self.halfmove,
        };
        let s = code_side(p);
        let k = code_kind(p);
        let (bf, bt) = (1u128 << from, 1u128 << to);
        self.board[to] = p;
        self.board[from] = 0;
        self.occ[s] ^= bf | bt;
        self.kind_bb[s][k] ^= bf | bt;
        let (ff, rf) = (from % FILES as usize, from / FILES as usize);
        self.rank_occ[rf] &= !(1 << ff);
        self.file_occ[ff] &= !(1 << rf);
        if cap != 0 {
            self.occ[code_side(cap)] ^= bt;
            self.kind_bb[code_side(cap)][code_kind(cap)] ^= bt;
            self.halfmove = 0;
        } else {
            let (ft, rt) = (to % FILES as usize, to / FILES as usize);
            self.rank_occ[rt] |= 1 << ft;
            self.file_occ[ft] |= 1 << rt;
            self.halfmove += 1;
        }
        if self.side == Side::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opponent();
        undo
    }

    /// Take back a move played with [`Position::make`].
    #[inline]
    pub fn unmake(&mut self, _rules: &Rules, m: Move, undo: Undo) {
        let (from, to) = (m.from.index(), m.to.index());
        self.side = self.side.opponent();
        if self.side == Side::Black {
            self.fullmove -= 1;
        }
        let p = self.board[to];
        let s = code_side(p);
        let k = code_kind(p);
        let (bf, bt) = (1u128 << from, 1u128 << to);
        self.board[from] = p;
        self.board[to] = undo.captured;
        self.occ[s] ^= bf | bt;
        self.kind_bb[s][k] ^= bf | bt;
        let (ff, rf) = (from % FILES as usize, from / FILES as usize);
        self.rank_occ[rf] |= 1 << ff;
        self.file_occ[ff] |= 1 << rf;
        let cap = undo.captured;
        if cap != 0 {
            self.occ[code_side(cap)] ^= bt;
            self.kind_bb[code_side(cap)][code_kind(cap)] ^= bt;
        } else {
            let (ft, rt) = (to % FILES as usize, to / FILES as usize);
            self.rank_occ[rt] &= !(1 << ft);
            self.file_occ[ft] &= !(1 << rt);
        }
        self.halfmove = undo.halfmove;
    }

    // ------------------------------------------------------------------ lines

    /// The pieces along absolute direction `d` from point `sq`, nearest first, as distances.
    #[inline]
    fn scan(&self, sq: usize, d: usize) -> LineScan {
        self.scan_in::<false>(&After::NONE, sq, d)
    }

    /// [`Position::scan`] on the board as it is or after the move `a`.
    #[inline(always)]
    fn scan_in<const AFTER: bool>(&self, a: &After, sq: usize, d: usize) -> LineScan {
        // A point's line (its file, or its rank) and its place along that line.
        let along_file = d < 2;
        let split = |p: usize| {
            if along_file {
                (p % FILES as usize, p / FILES as usize)
            } else {
                (p / FILES as usize, p % FILES as usize)
            }
        };
        let (line, place) = split(sq);
        let mut bits = u32::from(if along_file {
            self.file_occ[line]
        } else {
            self.rank_occ[line]
        });
        if AFTER {
            let (from_line, from_place) = split(a.from);
            if from_line == line {
                bits &= !(1 << from_place);
            }
            let (to_line, to_place) = split(a.to);
            if to_line == line {
                bits |= 1 << to_place;
            }
        }
        let place = place as u32;
        if d.is_multiple_of(2) {
            LineScan {
                bits: bits >> (place + 1),
                positive: true,
                pos: place,
            }
        } else {
            LineScan {
                bits: bits & ((1 << place) - 1),
                positive: false,
                pos: place,
            }
        }
    }

    #[inline]
    fn along(sq: usize, d: usize, dist: u32) -> usize {
        (sq as isize + STEP[d] * dist as isize) as usize
    }

    // ------------------------------------------------------------------ attacks

    /// Whether a piece of `by` has a capture onto `sq` under the move programs.
    pub(crate) fn is_attacked(&self, rules: &Rules, sq: Square, by: Side) -> bool {
        self.attacked(rules, sq.index(), by)
    }

    #[inline]
    fn attacked(&self, rules: &Rules, sq: usize, by: Side) -> bool {
        self.attacked_in::<false>(rules, sq, by, &After::NONE)
    }

    /// [`Position::attacked`] on the board as it is (`AFTER` false) or as it would be after
    /// the move `a` (`AFTER` true), which is not played.
    #[inline(always)]
    fn attacked_in<const AFTER: bool>(
        &self,
        rules: &Rules,
        sq: usize,
        by: Side,
        a: &After,
    ) -> bool {
        let bi = by.index();
        if self.occ_in::<AFTER>(a, bi) & rules.reverse_from[side_point(by, sq)] != 0 {
            for r in rules.reverse_of(by, sq) {
                let p = self.at::<AFTER>(a, r.from as usize);
                if p != 0
                    && code_side(p) == bi
                    && r.kinds >> code_kind(p) & 1 != 0
                    && (r.block == NO_BLOCK || self.at::<AFTER>(a, r.block as usize) == 0)
                {
                    return true;
                }
            }
        }
        let attackers = self.kinds_in::<AFTER>(a, bi, rules.any_line_attackers[bi]);
        if attackers & rules.lines_through[sq] == 0 {
            return false;
        }
        for d in 0..4 {
            let od = opposite(d);
            if rules.line_attackers[bi][od] == 0 || attackers & rules.ray_mask[sq][d] == 0 {
                continue;
            }
            for (i, dist) in self
                .scan_in::<AFTER>(a, sq, d)
                .take(rules.max_screens as usize + 1)
                .enumerate()
            {
                let s = Self::along(sq, d, dist);
                let p = self.at::<AFTER>(a, s);
                if code_side(p) != bi {
                    continue;
                }
                let ray = &rules.rays_of(by, code_kind(p) as KindId, s)[od];
                if rules.masks[ray.to_mask as usize] >> sq & 1 == 0 {
                    continue;
                }
                if i == 0 {
                    if ray.slide & CAPTURE != 0 && dist <= ray.max as u32 {
                        return true;
                    }
                } else if ray.hop & CAPTURE != 0 && ray.screens as usize == i {
                    return true;
                }
            }
        }
        false
    }

    /// The piece on `x`, on the board as it is or after the move `a`.
    #[inline(always)]
    fn at<const AFTER: bool>(&self, a: &After, x: usize) -> u8 {
        if AFTER {
            if x == a.from {
                return 0;
            }
            if x == a.to {
                return a.moved;
            }
        }
        self.board[x]
    }

    /// The points of side `si`, on the board as it is or after the move `a`.
    #[inline(always)]
    fn occ_in<const AFTER: bool>(&self, a: &After, si: usize) -> u128 {
        let mut o = self.occ[si];
        if AFTER {
            if code_side(a.moved) == si {
                o ^= 1u128 << a.from | 1u128 << a.to;
            } else {
                o &= !(1u128 << a.to);
            }
        }
        o
    }

    /// The points of side `si`'s pieces of the kinds in the set `kinds`, on the board as it
    /// is or after the move `a`.
    #[inline(always)]
    fn kinds_in<const AFTER: bool>(&self, a: &After, si: usize, mut kinds: u8) -> u128 {
        let set = kinds;
        let mut o = 0u128;
        while kinds != 0 {
            o |= self.kind_bb[si][kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        if AFTER {
            if code_side(a.moved) == si {
                if set >> code_kind(a.moved) & 1 != 0 {
                    o ^= 1u128 << a.from | 1u128 << a.to;
                }
            } else {
                o &= !(1u128 << a.to);
            }
        }
        o
    }

    /// Whether the general on `sq` sees the other general along a facing line.
    #[inline]
    fn facing(&self, rules: &Rules, sq: usize) -> bool {
        self.facing_in::<false>(rules, sq, &After::NONE)
    }

    /// [`Position::facing`] on the board as it is or after the move `a`.
    #[inline(always)]
    fn facing_in<const AFTER: bool>(&self, rules: &Rules, sq: usize, a: &After) -> bool {
        let Some((kind, dirs)) = rules.facing else {
            return false;
        };
        let own = code_side(self.at::<AFTER>(a, sq));
        for (d, &on) in dirs.iter().enumerate() {
            if on {
                if let Some(dist) = self.scan_in::<AFTER>(a, sq, d).next() {
                    let p = self.at::<AFTER>(a, Self::along(sq, d, dist));
                    if code_kind(p) == kind as usize && code_side(p) != own {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the move `m` of the side to move, a pseudo-legal one, would leave it in
    /// self-kill (its general attacked, or the generals facing): the test of
    /// [`Position::is_self_kill_for`] on the board after `m`, without playing it.
    #[inline]
    fn self_kill_after(&self, rules: &Rules, m: Move) -> bool {
        let side = self.side;
        let royal = self.kind_bb[side.index()][rules.royal as usize];
        if royal == 0 {
            return false;
        }
        let a = After::of(self, m);
        let k = if royal >> a.from & 1 != 0 {
            a.to
        } else {
            royal.trailing_zeros() as usize
        };
        self.self_kill_in::<true>(rules, k, side, &a)
    }

    /// Whether the general of `side` on `k` is attacked or faces the other general, where
    /// the edition forbids it: on the board as it is or after the move `a`.
    #[inline(always)]
    fn self_kill_in<const AFTER: bool>(
        &self,
        rules: &Rules,
        k: usize,
        side: Side,
        a: &After,
    ) -> bool {
        (rules.forbid_attacked && self.attacked_in::<AFTER>(rules, k, side.opponent(), a))
            || (rules.forbid_facing && self.facing_in::<AFTER>(rules, k, a))
    }

    /// Whether the move `m` of the side to move, a pseudo-legal one, would give check,
    /// without playing it.
    #[inline]
    fn gives_check_after(&self, rules: &Rules, m: Move) -> bool {
        let their = self.side.opponent();
        let royal = self.kind_bb[their.index()][rules.royal as usize];
        if royal == 0 || royal >> m.to.index() & 1 != 0 {
            return false;
        }
        self.attacked_in::<true>(
            rules,
            royal.trailing_zeros() as usize,
            self.side,
            &After::of(self, m),
        )
    }

    /// Whether the position breaks a self-kill condition for `side` (the side that just
    /// moved): its general attacked, or the generals facing.
    pub fn is_self_kill_for(&self, rules: &Rules, side: Side) -> bool {
        let bb = self.kind_bb[side.index()][rules.royal as usize];
        if bb == 0 {
            return false;
        }
        self.self_kill_in::<false>(rules, bb.trailing_zeros() as usize, side, &After::NONE)
    }

    /// Which self-kill conditions of `check.self_kill` the position breaks for `side` (the
    /// side that just moved): `(own general attacked, generals facing)`, each only where
    /// the edition forbids it. The arbiter's rules tell the two apart (1999 4.1.2); legality
    /// uses the short-circuiting [`Position::is_self_kill_for`].
    pub(crate) fn self_kill_conditions(&self, rules: &Rules, side: Side) -> (bool, bool) {
        let Some(k) = self.royal_point(rules, side).map(Square::index) else {
            return (false, false);
        };
        (
            rules.forbid_attacked && self.attacked(rules, k, side.opponent()),
            rules.forbid_facing && self.facing(rules, k),
        )
    }

    /// Whether the side to move is in check (将).
    pub fn in_check(&self, rules: &Rules) -> bool {
        match self.royal_point(rules, self.side) {
            Some(k) => self.attacked(rules, k.index(), self.side.opponent()),
            None => false,
        }
    }

    // ------------------------------------------------------------------ generation

    /// Every move the programs allow, before the self-kill test.
    pub(crate) fn pseudo_moves<S: Sink>(&self, rules: &Rules, out: &mut S) {
        let mut own = self.occ[self.side.index()];
        while own != 0 {
            let sq = own.trailing_zeros() as usize;
            own &= own - 1;
            self.piece_moves(rules, sq, out);
        }
    }

    /// The moves the program of the piece on `from` allows, before the
    /// self-kill test; none unless the piece belongs to the side to move.
    pub(crate) fn pseudo_moves_from<S: Sink>(&self, rules: &Rules, from: Square, out: &mut S) {
        let c = self.board[from.index()];
        if c == 0 || code_side(c) != self.side.index() {
            return;
        }
        self.piece_moves(rules, from.index(), out);
    }

    /// Whether `m`, one of the moves [`Position::pseudo_moves_from`] gives
    /// here, is legal: the same answer as [`Position::is_legal`] without
    /// generating the piece's moves again.
    pub(crate) fn is_legal_pseudo(&self, rules: &Rules, m: Move) -> bool {
        let mut pos = self.clone();
        pos.try_make(rules, m).is_ok()
    }

    /// The moves the program of the piece on `sq` (of the side to move) allows.
    #[inline]
    fn piece_moves<S: Sink>(&self, rules: &Rules, sq: usize, out: &mut S) {
        let s = self.side;
        let si = s.index();
        let b = &self.board;
        let kind = code_kind(b[sq]) as KindId;
        let all = out.keeps_from(sq);
        if all || out.may_keep(rules.leap_targets(s, kind, sq)) {
            for l in rules.leaps_of(s, kind, sq) {
                if l.block != NO_BLOCK && b[l.block as usize] != 0 {
                    continue;
                }
                let t = b[l.to as usize];
                if t == 0 {
                    if l.modes & QUIET != 0 && out.quiet() {
                        out.one(sq, l.to as usize);
                    }
                } else if code_side(t) != si && l.modes & CAPTURE != 0 {
                    out.one(sq, l.to as usize);
                }
            }
        }
        if rules.has_rays[si][kind as usize] {
            let rays = rules.rays_of(s, kind, sq);
            for (d, ray) in rays.iter().enumerate() {
                if !ray.is_empty() && (all || out.may_keep(rules.ray_mask[sq][d])) {
                    self.line_moves(rules, sq, d, ray, out);
                }
            }
        }
    }

    #[inline]
    fn line_moves<S: Sink>(&self, rules: &Rules, sq: usize, d: usize, ray: &Ray, out: &mut S) {
        let si = self.side.index();
        let mask = rules.masks[ray.to_mask as usize];
        let edge = self.edge_distance(sq, d);
        let mut scan = self.scan(sq, d);
        let first = scan.next();
        if ray.slide != 0 {
            let reach = first.map_or(edge, |f| f - 1).min(ray.max as u32);
            if ray.slide & QUIET != 0 && out.quiet() {
                Self::quiet_run(sq, d, 1, reach, ray.to_mask, mask, out);
            }
            if ray.slide & CAPTURE != 0 {
                if let Some(f) = first.filter(|&f| f <= ray.max as u32) {
                    self.capture_at(sq, d, f, si, mask, out);
                }
            }
        }
        if ray.hop != 0 {
            // The screens-th piece met is the last screen; the next one is the target.
            let mut last_screen = first;
            for _ in 1..ray.screens {
                last_screen = last_screen.and_then(|_| scan.next());
            }
            let Some(ls) = last_screen else { return };
            let target = scan.next();
            if ray.hop & QUIET != 0 && out.quiet() {
                Self::quiet_run(
                    sq,
                    d,
                    ls + 1,
                    target.map_or(edge, |t| t - 1),
                    ray.to_mask,
                    mask,
                    out,
                );
            }
            if ray.hop & CAPTURE != 0 {
                if let Some(tg) = target {
                    self.capture_at(sq, d, tg, si, mask, out);
                }
            }
        }
    }

    /// Quiet moves to distances `first..=last` along a line, within the `to` region.
    #[inline(always)]
    fn quiet_run<S: Sink>(
        sq: usize,
        d: usize,
        first: u32,
        last: u32,
        mask_id: u8,
        mask: u128,
        out: &mut S,
    ) {
        if mask_id == 0 {
            out.run(sq, d, first, last);
        } else {
            for dist in first..=last {
                let t = Self::along(sq, d, dist);
                if mask >> t & 1 != 0 {
                    out.one(sq, t);
                }
            }
        }
    }

    /// A capture of the piece at distance `dist` along a line, if it is the opponent's and
    /// its point is within the `to` region.
    #[inline]
    fn capture_at<S: Sink>(
        &self,
        sq: usize,
        d: usize,
        dist: u32,
        si: usize,
        mask: u128,
        out: &mut S,
    ) {
        let t = Self::along(sq, d, dist);
        if code_side(self.board[t]) != si && mask >> t & 1 != 0 {
            out.one(sq, t);
        }
    }

    #[inline]
    fn edge_distance(&self, sq: usize, d: usize) -> u32 {
        let (f, r) = ((sq % FILES as usize) as u32, (sq / FILES as usize) as u32);
        match d {
            0 => RANKS as u32 - 1 - r,
            1 => r,
            2 => FILES as u32 - 1 - f,
            _ => f,
        }
    }

    /// Per-node facts for the legality filter: whether the side to move is in check, and
    /// which points, if a move vacates or fills them, could expose its general.
    ///
    /// Along each line from the general, the first `max_screens + 2` pieces are examined.
    /// An opposing piece at index `j` matters if one vacated or filled point in front of it
    /// could bring it to an index where it captures: a slider (or the facing general) at
    /// index 0 or 1, a hopper of `s` screens at index `s - 1`, `s` or `s + 1`. Then every
    /// point between the general and that piece is sensitive. Leaps matter through their
    /// blocking points.
    #[inline]
    fn guard(&self, rules: &Rules) -> Option<Guard> {
        self.guard_of(rules, self.side)
    }

    /// [`Position::guard`] for the general of `s`, whichever side is to move.
    #[inline]
    fn guard_of(&self, rules: &Rules, s: Side) -> Option<Guard> {
        let e = s.opponent();
        let ei = e.index();
        let bb = self.kind_bb[s.index()][rules.royal as usize];
        if bb == 0 {
            return None;
        }
        let k = bb.trailing_zeros() as usize;
        let mut in_check = false;
        let mut sensitive = 0u128;
        let mut checks = 0u128;
        // No opposing piece on a leap's start: no leap attacks or is blocked.
        if self.occ[ei] & rules.reverse_from[side_point(e, k)] != 0 {
            for r in rules.reverse_of(e, k) {
                let p = self.board[r.from as usize];
                if p != 0 && code_side(p) == ei && r.kinds >> code_kind(p) & 1 != 0 {
                    if r.block == NO_BLOCK || self.board[r.block as usize] == 0 {
                        in_check = true;
                        checks |= 1u128 << r.from
                            | if r.block == NO_BLOCK {
                                0
                            } else {
                                1u128 << r.block
                            };
                    } else {
                        sensitive |= 1u128 << r.block;
                    }
                }
            }
        }
        let ms = rules.max_screens as usize;
        // The opposing pieces that attack along some line, or face: a line none of them
        // stands on is not scanned (on the others, a piece of a kind that does not attack
        // along that line changes nothing below but the count of pieces met).
        let mut kinds = rules.any_line_attackers[ei];
        if rules.forbid_facing && rules.facing.is_some() {
            kinds |= 1 << rules.royal;
        }
        let attackers = self.kinds_in::<false>(&After::NONE, ei, kinds);
        for d in 0..4 {
            if attackers & rules.ray_mask[k][d] == 0 {
                continue;
            }
            let od = opposite(d);
            let facing_here =
                rules.forbid_facing && matches!(rules.facing, Some((_, dirs)) if dirs[d]);
            for (j, dist) in self.scan(k, d).take(ms + 2).enumerate() {
                let sq = Self::along(k, d, dist);
                let p = self.board[sq];
                if code_side(p) != ei {
                    continue;
                }
                let kind = code_kind(p);
                let ray = &rules.rays_of(e, kind as KindId, sq)[od];
                let reaches = rules.masks[ray.to_mask as usize] >> k & 1 != 0;
                let slider = ray.slide & CAPTURE != 0 && reaches;
                let hopper = ray.hop & CAPTURE != 0 && reaches;
                let royal_facing = facing_here && kind == rules.royal as usize;
                if (j == 0 && ((slider && dist <= ray.max as u32) || royal_facing))
                    || (hopper && j == ray.screens as usize)
                {
                    in_check = true;
                    checks |= rules.ray_mask[k][d] & !rules.ray_mask[sq][d];
                }
                let matters = ((slider || royal_facing) && j <= 1)
                    || (hopper && j + 1 >= ray.screens as usize && j <= ray.screens as usize + 1);
                if matters {
                    sensitive |= rules.ray_mask[k][d] & !rules.ray_mask[sq][d] & !(1u128 << sq);
                }
            }
        }
        Some(Guard {
            royal: k,
            in_check,
            sensitive,
            checks,
        })
    }

    /// Whether playing the pseudo-legal move `m` keeps the mover out of self-kill.
    #[inline]
    fn passes(&self, rules: &Rules, g: &Option<Guard>, m: Move) -> bool {
        let Some(g) = g else {
            // No general: nothing to protect.
            return true;
        };
        let (f, t) = (m.from.index(), m.to.index());
        let touched = (1u128 << f) | (1u128 << t);
        if f != g.royal {
            if !g.in_check && touched & g.sensitive == 0 {
                return true;
            }
            if g.in_check && touched & g.checks == 0 {
                return false;
            }
        }
        !self.self_kill_after(rules, m)
    }

    pub(crate) fn legal_into(&self, rules: &Rules, out: &mut MoveBuf) {
        let g = self.guard(rules);
        let pseudo = match &g {
            // In check, only the general's moves and moves onto or off the checks' lines can
            // answer it: the generator keeps no others.
            Some(g) if g.in_check => {
                let mut f = Filter::new(rules, self, g.checks, g.checks | 1u128 << g.royal);
                self.pseudo_moves(rules, &mut f);
                f.kept
            }
            _ => {
                let mut all = MoveBuf::new();
                self.pseudo_moves(rules, &mut all);
                all
            }
        };
        for &m in pseudo.as_slice() {
            if self.passes(rules, &g, m) {
                out.push(m.from.index(), m.to.index());
            }
        }
    }

    /// Number of legal moves (bulk count for perft's last ply).
    pub(crate) fn count_legal(&self, rules: &Rules) -> u64 {
        let Some(g) = self.guard(rules) else {
            let mut all = MoveBuf::new();
            self.pseudo_moves(rules, &mut all);
            return all.len as u64;
        };
        let mut doubtful = MoveBuf::new();
        let mut counter = Counter {
            rules,
            sensitive: g.sensitive,
            royal: g.royal,
            in_check: g.in_check,
            safe: 0,
            doubtful: &mut doubtful,
        };
        self.pseudo_moves(rules, &mut counter);
        let mut n = counter.safe;
        let g = Some(g);
        for &m in doubtful.as_slice() {
            if self.passes(rules, &g, m) {
                n += 1;
            }
        }
        n
    }

    /// Whether the side to move has at least one legal move.
    pub(crate) fn has_legal_move(&self, rules: &Rules) -> bool {
        // Piece by piece, stopping at the first move that passes: in a mate search this is
        // asked after every check, and most positions answer with one of the first moves.
        // In check the general first (a step of the general is the likeliest answer), else
        // last (its steps are the ones always tested for self-kill).
        let g = self.guard(rules);
        let own = self.occ[self.side.index()];
        let royal = self.kind_bb[self.side.index()][rules.royal as usize];
        let in_check = g.as_ref().is_some_and(|g| g.in_check);
        let (first, last) = if in_check { (royal, 0) } else { (0, royal) };
        // In check, as in `legal_into`, only the general's moves and moves onto or off the
        // checks' lines are generated.
        let mut buf = match &g {
            Some(g) if g.in_check => {
                Filter::new(rules, self, g.checks, g.checks | 1u128 << g.royal)
            }
            _ => Filter::new(rules, self, 0, !0),
        };
        for sq in BitIter(first)
            .chain(BitIter(own & !royal))
            .chain(BitIter(last))
        {
            buf.kept.len = 0;
            self.piece_moves(rules, sq, &mut buf);
            for &m in buf.kept.as_slice() {
                if self.passes(rules, &g, m) {
                    return true;
                }
            }
        }
        false
    }

    /// The legal moves of the side to move, in generation order.
    pub fn legal_moves(&self, rules: &Rules) -> Vec<Move> {
        let mut out = MoveBuf::new();
        self.legal_into(rules, &mut out);
        out.as_slice().to_vec()
    }

    /// The legal moves of the side to move that give check: only the moves that could (see
    /// `CheckFilter`) are played, and only those that give check are tested for legality.
    pub(crate) fn checking_moves(&self, rules: &Rules) -> Vec<Move> {
        self.captures_and_checks(rules, false, true).1
    }

    /// In one pass over the pseudo-legal moves: the legal captures of the side to move (if
    /// `captures`), and its legal moves that give check, capturing or not (if `checks`).
    pub(crate) fn captures_and_checks(
        &self,
        rules: &Rules,
        captures: bool,
        checks: bool,
    ) -> (Vec<Move>, Vec<Move>) {
        let mover = self.side;
        let theirs = self.occ[mover.opponent().index()];
        let may_check = if checks {
            CheckFilter::new(self, rules)
        } else {
            CheckFilter::NONE
        };
        let mut pseudo = Filter::new(
            rules,
            self,
            may_check.targets | if captures { theirs } else { 0 },
            may_check.sensitive,
        );
        self.pseudo_moves(rules, &mut pseudo);
        let (mut caps, mut gives) = (Vec::new(), Vec::new());
        if pseudo.kept.len == 0 {
            return (caps, gives);
        }
        let g = self.guard(rules);
        for &m in pseudo.kept.as_slice() {
            let capture = captures && theirs >> m.to.index() & 1 == 1;
            let check = may_check.gives(self, rules, m);
            if (capture || check) && self.passes(rules, &g, m) {
                if capture {
                    caps.push(m);
                }
                if check {
                    gives.push(m);
                }
            }
        }
        (caps, gives)
    }

    /// The legal captures of the side to move.
    pub(crate) fn legal_captures(&self, rules: &Rules) -> Vec<Move> {
        self.captures_and_checks(rules, true, false).0
    }

    /// The legal moves of the side to move onto `to` (captures, when a piece stands there):
    /// only those are generated past the filter and tested for legality.
    pub(crate) fn legal_moves_to(&self, rules: &Rules, to: Square) -> Vec<Move> {
        // A piece of the opponent that nothing attacks cannot be taken: no move is generated.
        let c = self.board[to.index()];
        if c != 0
            && code_side(c) != self.side.index()
            && !self.attacked(rules, to.index(), self.side)
        {
            return Vec::new();
        }
        let mut onto = Filter::new(rules, self, 1u128 << to.index(), 0);
        self.pseudo_moves(rules, &mut onto);
        let g = self.guard(rules);
        onto.kept
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| self.passes(rules, &g, m))
            .collect()
    }

    /// The legal moves of the piece on `from`, if it belongs to the side to move.
    pub fn legal_moves_from(&self, rules: &Rules, from: Square) -> Vec<Move> {
        let c = self.board[from.index()];
        if c == 0 || code_side(c) != self.side.index() {
            return Vec::new();
        }
        let mut pseudo = MoveBuf::new();
        self.piece_moves(rules, from.index(), &mut pseudo);
        let g = self.guard(rules);
        pseudo
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| self.passes(rules, &g, m))
            .collect()
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, rules: &Rules, m: Move) -> bool {
        self.check_move(rules, m).is_ok()
    }

    /// Why `m` is not legal, or `Ok` if it is.
    pub fn check_move(&self, rules: &Rules, m: Move) -> Result<(), IllegalMove> {
        let mut pos = self.clone();
        pos.play(rules, m).map(|_| ())
    }

    /// Play `m` if the piece's program allows it, then take it back if it is a self-kill.
    fn try_make(&mut self, rules: &Rules, m: Move) -> Result<Undo, IllegalReason> {
        let mover = self.side;
        let u = self.make(rules, m);
        if self.is_self_kill_for(rules, mover) {
            self.unmake(rules, m, u);
            Err(IllegalReason::SelfKill)
        } else {
            Ok(u)
        }
    }

    /// Play a move after checking it is legal; on error the position is unchanged.
    pub fn play(&mut self, rules: &Rules, m: Move) -> Result<Undo, IllegalMove> {
        let fail = |reason| Err(IllegalMove { mv: m, reason });
        let c = self.board[m.from.index()];
        if c == 0 {
            return fail(IllegalReason::NoPiece);
        }
        if code_side(c) != self.side.index() {
            return fail(IllegalReason::NotYourPiece);
        }
        let mut pseudo = MoveBuf::new();
        self.piece_moves(rules, m.from.index(), &mut pseudo);
        if !pseudo.as_slice().contains(&m) {
            return fail(IllegalReason::NotAMove);
        }
        self.try_make(rules, m).or_else(fail)
    }

    /// The status named by the `check.*` clauses.
    pub fn status(&self, rules: &Rules) -> Status {
        self.status_in_check(rules, self.in_check(rules))
    }

    /// [`Position::status`] when whether the side to move is in check is known already.
    pub fn status_in_check(&self, rules: &Rules, in_check: bool) -> Status {
        let has_move = self.has_legal_move(rules);
        for r in &rules.status_rules {
            if r.in_check.is_none_or(|c| c == in_check)
                && r.has_legal_move.is_none_or(|h| h == has_move)
            {
                return r.status;
            }
        }
        if in_check {
            rules.in_check_status
        } else {
            Status::Ongoing
        }
    }
}

/// Iterator over the set bits of a bitboard.
/// The indices of the set bits of a bitboard, lowest first.
pub(crate) struct BitIter(pub(crate) u128);

impl Iterator for BitIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..RANKS).rev() {
            for fl in 0..FILES {
                let c = self.board[(r * FILES + fl) as usize];
                let ch = if c == 0 {
                    '.'
                } else {
                    let k = (b'0' + code_kind(c) as u8) as char;
                    if code_side(c) == 0 {
                        k
                    } else {
                        (b'a' + code_kind(c) as u8) as char
                    }
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move", self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filtered generation of legal moves (in check: only moves on the checks' lines),
    /// of checks and of captures gives exactly the moves that are legal, check or capture
    /// as playing every pseudo-legal move and asking says, over random walks from
    /// positions with many lines and screens (the rule sets' own move programs).
    #[test]
    fn checks_and_captures_match_playing_every_move() {
        let starts = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "C2k1ab2/4a4/4P4/2r1c1p2/8p/9/P3N1P1P/4n4/1R7/3AKA3 w - - 0 1",
            "4k4/4a4/4ba2b/5N3/2n5C/4p2p1/P4n3/4BA3/4A4/2B1K4 w - - 0 1",
            "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
            // Cannons and chariots on the generals' lines, screens in between.
            "3ak4/4a4/9/4C4/4c4/9/2C1R4/9/4c4/3K5 b - - 0 1",
            "2c1k4/9/4r4/9/2C1C4/9/9/4R4/9/4K4 b - - 0 1",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut checked, mut in_check) = (0, 0);
        for edition in ["cxa-2020", "axf"] {
            let rules = Rules::builtin(edition).unwrap();
            for fen in starts {
                for _ in 0..40 {
                    let mut pos = Position::from_fen(&rules, fen).unwrap();
                    for _ in 0..60 {
                        // Legal by definition: every pseudo-legal move that does not leave
                        // the mover in self-kill.
                        let mut pseudo = MoveBuf::new();
                        pos.pseudo_moves(&rules, &mut pseudo);
                        let legal: Vec<Move> = pseudo
                            .as_slice()
                            .iter()
                            .copied()
                            .filter(|&m| {
                                let mut p = pos.clone();
                                p.make(&rules, m);
                                // The tests that look at a move without playing it agree with
                                // playing it, move by move.
                                assert_eq!(
                                    pos.self_kill_after(&rules, m),
                                    p.is_self_kill_for(&rules, pos.side),
                                    "self-kill after {m:?} in {}",
                                    pos.to_fen(&rules)
                                );
                                assert_eq!(
                                    pos.gives_check_after(&rules, m),
                                    p.in_check(&rules),
                                    "check after {m:?} in {}",
                                    pos.to_fen(&rules)
                                );
                                !p.is_self_kill_for(&rules, pos.side)
                            })
                            .collect();
                        assert_eq!(
                            pos.legal_moves(&rules),
                            legal,
                            "legal moves of {}",
                            pos.to_fen(&rules)
                        );
                        assert_eq!(pos.has_legal_move(&rules), !legal.is_empty());
                        if legal.is_empty() {
                            break;
                        }
                        in_check += usize::from(pos.in_check(&rules));
                        let theirs = pos.occ[pos.side.opponent().index()];
                        let gives = |m: &Move| {
                            let mut p = pos.clone();
                            p.make(&rules, *m);
                            p.in_check(&rules)
                        };
                        let want_checks: Vec<Move> = legal.iter().copied().filter(gives).collect();
                        let want_caps: Vec<Move> = legal
                            .iter()
                            .copied()
                            .filter(|m| theirs >> m.to.index() & 1 == 1)
                            .collect();
                        let (caps, checks) = pos.captures_and_checks(&rules, true, true);
                        assert_eq!(checks, want_checks, "checks of {}", pos.to_fen(&rules));
                        assert_eq!(caps, want_caps, "captures of {}", pos.to_fen(&rules));
                        checked += 1;
                        let m = legal[next(legal.len())];
                        pos.make(&rules, m);
                    }
                }
            }
        }
        assert!(
            checked > 5000 && in_check > 200,
            "only {checked} positions, {in_check} in check"
        );
    }
}
