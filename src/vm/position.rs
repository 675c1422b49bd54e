//! The position and its moves, run from the compiled tables of [`Rules`].
//!
//! Board state: a 90-point mailbox, a bitboard per side and per (side, kind), and one
//! occupancy bit-vector per rank and per file, so that the pieces along a line from any
//! point are found with a few bit operations. History is not kept here: a game record
//! (and the repetition rules) keep the moves outside the position.
//!
//! Here the board, making and unmaking moves, the legal-move questions and the status;
//! `movegen` generates moves from the tables, `attack` answers attacks, the facing rule,
//! self-kill and check.

use std::fmt;

use super::compile::{side_point, MAX_KINDS};
use super::{opposite, Ray, Rules, Status, CAPTURE, NO_BLOCK, QUIET};
use crate::board::{KindId, Move, Piece, Side, Square, FILES, RANKS, SQUARES};

mod attack;
mod movegen;

use attack::{After, CheckFilter};
use movegen::Guard;
use movegen::{Counter, Filter};
pub(crate) use movegen::{MoveBuf, MAX_MOVES};

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

/// The self-kill test of one position, worked out once ([`Position::pseudo_legal_into`]) for
/// its moves to be tested one by one ([`Position::allows`]).
#[derive(Clone, Copy)]
pub(crate) struct Legality(Option<Guard>);

/// A position: pieces, side to move and the two move counters of FEN.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [u8; SQUARES],
    occ: [u128; 2],
    kind_bb: [[u128; 8]; 2],
    rank_occ: [u16; RANKS as usize],
    file_occ: [u16; FILES as usize],
    side: Side,
    /// A Zobrist hash of the points and the side to move, kept up by every change of them:
    /// the hash of [`Placement`] (a memo lookup hashes one word, not the board).
    zobrist: u64,
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    board: [u8; SQUARES],
    side: Side,
    /// The position's Zobrist hash: a function of the two fields above, so equal placements
    /// hash alike.
    zobrist: u64,
}

impl std::hash::Hash for Placement {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.zobrist);
    }
}

/// The Zobrist keys: one per piece code (its low four bits: side and kind) and point, from a
/// fixed seed (splitmix64), computed at compile time.
const ZOBRIST: [[u64; SQUARES]; 16] = {
    let mut t = [[0u64; SQUARES]; 16];
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut c = 0;
    while c < 16 {
        let mut sq = 0;
        while sq < SQUARES {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            t[c][sq] = z ^ (z >> 31);
            sq += 1;
        }
        c += 1;
    }
    t
};

/// The Zobrist key of Black to move.
const ZOBRIST_BLACK: u64 = 0xD1B5_4A32_D192_ED03;

/// The Zobrist key of the piece code `c` (not empty) on point `sq`.
#[inline(always)]
fn zobrist(c: u8, sq: usize) -> u64 {
    ZOBRIST[(c & 15) as usize][sq]
}

/// The Zobrist key of `side` to move.
#[inline(always)]
fn zobrist_side(side: Side) -> u64 {
    if side == Side::Black {
        ZOBRIST_BLACK
    } else {
        0
    }
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
            zobrist: zobrist_side(side),
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Put a piece on an empty point (set-up; replaces whatever stood there).
    pub fn put(&mut self, piece: Piece, sq: Square) {
        self.remove(sq);
        let i = sq.index();
        self.board[i] = code(piece.side, piece.kind);
        self.zobrist ^= zobrist(self.board[i], i);
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
        self.zobrist ^= zobrist(c, i);
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
            zobrist: self.zobrist,
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
        self.zobrist ^= zobrist_side(self.side) ^ zobrist_side(side);
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
        self.zobrist ^= zobrist(p, from) ^ zobrist(p, to) ^ ZOBRIST_BLACK;
        if cap != 0 {
            self.zobrist ^= zobrist(cap, to);
        }
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
        self.zobrist ^= zobrist(p, from) ^ zobrist(p, to) ^ ZOBRIST_BLACK;
        if undo.captured != 0 {
            self.zobrist ^= zobrist(undo.captured, to);
        }
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

    // ------------------------------------------------------------------ attacks

    // ------------------------------------------------------------------ generation

    pub(crate) fn legal_into(&self, rules: &Rules, out: &mut MoveBuf) {
        let mut pseudo = MoveBuf::new();
        let legality = self.pseudo_legal_into(rules, &mut pseudo);
        for &m in pseudo.as_slice() {
            if self.allows(rules, &legality, m) {
                out.push_move(m);
            }
        }
    }

    /// The moves of the side to move that may be legal, appended to `out` before the
    /// self-kill test, with that test worked out for this position ([`Position::allows`]
    /// answers it move by move): a caller that plays the moves one by one tests only the ones
    /// it reaches. In check, only the general's moves and moves onto or off the checks' lines
    /// can answer it: the generator keeps no others.
    pub(crate) fn pseudo_legal_into(&self, rules: &Rules, out: &mut MoveBuf) -> Legality {
        let g = self.guard(rules);
        match &g {
            Some(g) if g.in_check => {
                let mut f = Filter::new(rules, self, g.checks, g.checks | 1u128 << g.royal);
                self.pseudo_moves(rules, &mut f);
                for &m in f.kept.as_slice() {
                    out.push_move(m);
                }
            }
            _ => self.pseudo_moves(rules, out),
        }
        Legality(g)
    }

    /// Whether `m`, one of the moves [`Position::pseudo_legal_into`] gave with `legality`
    /// here, is legal (keeps the mover out of self-kill).
    #[inline]
    pub(crate) fn allows(&self, rules: &Rules, legality: &Legality, m: Move) -> bool {
        self.passes(rules, &legality.0, m)
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

    /// In one pass over the pseudo-legal moves: the legal captures of the side to move (if
    /// `captures`), and its legal moves that give check, capturing or not (if `checks`).
    pub(crate) fn captures_and_checks(
        &self,
        rules: &Rules,
        captures: bool,
        checks: bool,
    ) -> (Vec<Move>, Vec<Move>) {
        let (mut caps, mut gives) = (MoveBuf::new(), MoveBuf::new());
        self.captures_and_checks_into(rules, captures, checks, &mut caps, &mut gives);
        (caps.as_slice().to_vec(), gives.as_slice().to_vec())
    }

    /// [`Position::captures_and_checks`] into two buffers (nothing allocated), appended to.
    pub(crate) fn captures_and_checks_into(
        &self,
        rules: &Rules,
        captures: bool,
        checks: bool,
        caps: &mut MoveBuf,
        gives: &mut MoveBuf,
    ) {
        let mover = self.side;
        let theirs = self.occ[mover.opponent().index()];
        let may_check = if checks {
            CheckFilter::new(self, rules)
        } else {
            CheckFilter::NONE
        };
        // Per kind, only the points from which that kind could give check are targets.
        let mut pseudo = Filter::by_kind(
            rules,
            self,
            may_check.sensitive | if captures { theirs } else { 0 },
            &may_check.direct,
            may_check.sensitive,
        );
        self.pseudo_moves(rules, &mut pseudo);
        if pseudo.kept.len == 0 {
            return;
        }
        // The self-kill guard is worked out only once a move needs the test: most of the
        // moves a search for checks keeps give none.
        let mut g = None;
        for &m in pseudo.kept.as_slice() {
            let capture = captures && theirs >> m.to.index() & 1 == 1;
            let check = may_check.gives(self, rules, m);
            if (capture || check)
                && self.passes(rules, g.get_or_insert_with(|| self.guard(rules)), m)
            {
                if capture {
                    caps.push_move(m);
                }
                if check {
                    gives.push_move(m);
                }
            }
        }
    }

    /// The legal moves of the side to move that give check, appended to `out`: only the moves
    /// that could (see `CheckFilter`) are played, and only those that give check are tested
    /// for legality.
    pub(crate) fn checking_moves_into(&self, rules: &Rules, out: &mut MoveBuf) {
        self.captures_and_checks_into(rules, false, true, &mut MoveBuf::new(), out);
    }

    /// The legal captures of the side to move.
    pub(crate) fn legal_captures(&self, rules: &Rules) -> Vec<Move> {
        self.captures_and_checks(rules, true, false).0
    }

    /// The legal moves of the side to move onto `to` (captures, when a piece stands there):
    /// only those are generated past the filter and tested for legality.
    pub(crate) fn legal_moves_to(&self, rules: &Rules, to: Square) -> Vec<Move> {
        let mut out = MoveBuf::new();
        self.legal_moves_to_into(rules, to, &mut out);
        out.as_slice().to_vec()
    }

    /// [`Position::legal_moves_to`] into a buffer, appended to.
    pub(crate) fn legal_moves_to_into(&self, rules: &Rules, to: Square, out: &mut MoveBuf) {
        let mut onto = Filter::new(rules, self, 1u128 << to.index(), 0);
        self.pseudo_moves_to(rules, to, &mut onto);
        let onto = &onto.kept;
        if onto.len == 0 {
            return;
        }
        let g = self.guard(rules);
        for &m in onto.as_slice() {
            if self.passes(rules, &g, m) {
                out.push_move(m);
            }
        }
    }

    /// Whether the side to move has a legal move onto `to` ([`Position::legal_moves_to`] not
    /// empty): the first move that passes the self-kill test answers, nothing is collected.
    pub(crate) fn has_legal_move_to(&self, rules: &Rules, to: Square) -> bool {
        let mut onto = Filter::new(rules, self, 1u128 << to.index(), 0);
        self.pseudo_moves_to(rules, to, &mut onto);
        let onto = &onto.kept;
        if onto.len == 0 {
            return false;
        }
        let g = self.guard(rules);
        onto.as_slice().iter().any(|&m| self.passes(rules, &g, m))
    }

    /// The moves of the side to move onto `to` before the self-kill test, kept by `onto` (a
    /// filter of the one target `to`, made by the caller so that its buffer is not moved).
    fn pseudo_moves_to(&self, rules: &Rules, to: Square, onto: &mut Filter) {
        let i = to.index();
        let c = self.board[i];
        let mut from = self.occ[self.side.index()];
        if c != 0 && code_side(c) != self.side.index() {
            // A capture: only a piece on a start of the leaps that capture onto `to`, or on one
            // of its lines, can make it; and a piece that nothing attacks cannot be taken (no
            // move is generated).
            from &= rules.reverse_from[side_point(self.side, i)] | rules.lines_through[i];
            if from == 0 || !self.attacked(rules, i, self.side) {
                return;
            }
        }
        for sq in BitIter(from) {
            self.piece_moves(rules, sq, onto);
        }
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
mod tests;
