//! Xiangqi FEN: parse (as written in the field), validate, and write (one canonical form).
//!
//! Accepted: upper case for Red, lower case for Black; any FEN letter a kind lists in
//! `pieces.kinds` (`n` or `h` for the horse, `b` or `e` for the elephant); side to move
//! `w` or `r` (Red) or `b` (Black); then optionally the two placeholders `- -` and the two
//! counters (halfmove clock, move number). `startpos` stands for the initial setup.
//!
//! Written (canonical): the first letter of each kind (`K A B N R C P`), side `w` or `b`,
//! `- -`, and both counters: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! Errors (the position is rejected): malformed text (wrong number of ranks, a rank of
//! more or fewer than nine points, an unknown letter, a bad field); a side without its
//! general; more pieces of a kind than the setup has; a piece on a point its moves can
//! never reach from its setup point (a general outside its palace, an elephant across the
//! river, a soldier behind its start…); the side not to move in check or the generals
//! facing (the last move would have been a self-kill).
//! Warnings (accepted, reported): alternative letters (`h`, `e`), `r` for Red, missing
//! counters.

use std::fmt;

use crate::board::{Piece, Side, Square, FILES, RANKS};
use crate::vm::{Position, Rules};

codes! {
    /// What is wrong with a FEN; the codes are stable snake_case names (used by
    /// conformance cases and in messages).
    pub enum FenProblemKind {
        /// The text is empty.
        Empty => "empty",
        /// Not ten ranks.
        RankCount => "rank_count",
        /// A rank of other than nine points.
        RankWidth => "rank_width",
        /// A letter that is no kind's.
        UnknownLetter => "unknown_letter",
        /// The side to move is missing or not `w`, `r` or `b`.
        BadSide => "bad_side",
        /// A counter that is not a number, or a field too many.
        BadField => "bad_field",
        /// A side without its general.
        MissingGeneral => "missing_general",
        /// More pieces of a kind than the setup has.
        TooManyPieces => "too_many_pieces",
        /// A piece on a point its moves never reach.
        UnreachablePoint => "unreachable_point",
        /// The side not to move is in check.
        SideNotToMoveInCheck => "side_not_to_move_in_check",
        /// The generals face each other.
        GeneralsFacing => "generals_facing",
    }
}

codes! {
    /// What a FEN has that is accepted but not canonical.
    pub enum FenWarningKind {
        /// A kind's second letter (`h` for the horse).
        AlternateLetter => "alternate_letter",
        /// `r` for Red.
        RedAsR => "red_as_r",
        /// Move number 0.
        MoveNumberZero => "move_number_zero",
        /// Counters left out.
        MissingCounters => "missing_counters",
    }
}

/// One thing wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenProblem {
    /// What is wrong (its code is used by conformance cases).
    pub kind: FenProblemKind,
    /// 1-based character column in the FEN text, when the problem has a place.
    pub(crate) column: Option<usize>,
    /// What is wrong, in words.
    pub(crate) message: String,
}

impl FenProblem {
    /// The 1-based character column in the FEN text, when the problem has a place.
    pub fn column(&self) -> Option<usize> {
        self.column
    }

    /// What is wrong, in words.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A text that is not a FEN (the reading of [`parse`]): the first thing wrong stops the reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenSyntaxError(pub FenProblem);

/// A FEN that reads but whose position cannot arise under the rules ([`validate`]): every
/// problem found, in the order of the checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenPositionError(pub Vec<FenProblem>);

/// A rejected FEN: a syntax error (not a FEN at all) or a position error (a FEN of a
/// position that cannot arise). The two stages are two types; this is either.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text could not be read.
    Syntax(FenSyntaxError),
    /// The text reads, but the position cannot arise under the rules.
    Position(FenPositionError),
}

wraps!(FenError {
    Syntax(FenSyntaxError),
    Position(FenPositionError),
});

impl FenSyntaxError {
    fn new(
        kind: FenProblemKind,
        column: Option<usize>,
        message: impl Into<String>,
    ) -> FenSyntaxError {
        FenSyntaxError(FenProblem {
            kind,
            column,
            message: message.into(),
        })
    }
}

impl FenError {
    /// Every problem found (a syntax error has one).
    pub fn problems(&self) -> &[FenProblem] {
        match self {
            FenError::Syntax(e) => std::slice::from_ref(&e.0),
            FenError::Position(e) => &e.0,
        }
    }

    /// The code of the first problem's kind (`invalid` when there is none).
    pub fn kind(&self) -> &'static str {
        self.problems().first().map_or("invalid", |p| p.kind.code())
    }

    /// The protocol's reject kind (`conformance/vocabulary.yaml`) of this error.
    pub fn reject_kind(&self) -> &'static str {
        use FenProblemKind as K;
        match self.problems().first().map(|p| p.kind) {
            Some(K::RankCount | K::RankWidth) => "fen.board_shape",
            Some(K::BadSide) => "fen.side_to_move",
            Some(K::BadField) => "fen.counters",
            Some(K::MissingGeneral | K::TooManyPieces) => "fen.piece_count",
            Some(K::UnreachablePoint) => "fen.piece_placement",
            Some(K::SideNotToMoveInCheck | K::GeneralsFacing) => "fen.opponent_in_check",
            Some(K::Empty | K::UnknownLetter) | None => "fen.syntax",
        }
    }

    /// Whether the text could not even be read (as opposed to an impossible position).
    #[cfg(test)]
    pub(crate) fn is_syntax(&self) -> bool {
        matches!(self, FenError::Syntax(_))
    }
}

fn write_problems(f: &mut fmt::Formatter<'_>, problems: &[FenProblem]) -> fmt::Result {
    for (i, p) in problems.iter().enumerate() {
        if i > 0 {
            f.write_str("; ")?;
        }
        match p.column {
            Some(c) => write!(f, "column {c}: {} ({})", p.message, p.kind)?,
            None => write!(f, "{} ({})", p.message, p.kind)?,
        }
    }
    Ok(())
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_problems(f, self.problems())
    }
}

impl fmt::Display for FenSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_problems(f, std::slice::from_ref(&self.0))
    }
}

impl fmt::Display for FenPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_problems(f, &self.0)
    }
}

impl std::error::Error for FenError {}
impl std::error::Error for FenSyntaxError {}
impl std::error::Error for FenPositionError {}

/// Something accepted but not canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenWarning {
    /// What was not canonical.
    pub kind: FenWarningKind,
    /// 1-based character column in the FEN text, when the warning has a place.
    pub(crate) column: Option<usize>,
    /// What was accepted, in words.
    pub(crate) message: String,
}

/// The FEN of the initial setup is also accepted as this word.
pub(crate) const STARTPOS: &str = "startpos";

/// A FEN read but not judged: the pieces, the side to move and the counters as written.
/// It becomes a [`Position`] only through [`Position::from_setup`], which checks it against
/// the rule set (as shakmaty's `Setup` → `Position::from_setup`): [`read`] refuses text that
/// is not a FEN ([`FenSyntaxError`]), `from_setup` a position that cannot arise under the
/// rules ([`FenPositionError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Setup {
    pos: Position,
}

/// Parse and validate a FEN: `read`, then `Position::from_setup` (`startpos` is the
/// rule set's start position).
pub fn parse(rules: &Rules, text: &str) -> Result<(Position, Vec<FenWarning>), FenError> {
    let text_trim = text.trim();
    if text_trim == STARTPOS {
        return Ok((rules.start_position(), Vec::new()));
    }
    let (setup, warnings) = read(rules, text)?;
    Ok((Position::from_setup(rules, setup)?, warnings))
}

/// Read the text into a [`Setup`] without judging whether the position can arise (the
/// rule set gives the piece letters).
pub(crate) fn read(rules: &Rules, text: &str) -> Result<(Setup, Vec<FenWarning>), FenSyntaxError> {
    let mut warnings = Vec::new();
    let fields = fields_with_columns(text);
    let Some(&(board_col, board)) = fields.first() else {
        return Err(FenSyntaxError::new(
            FenProblemKind::Empty,
            None,
            "empty FEN",
        ));
    };
    let mut pos = Position::empty(rules.first_to_move());
    read_board(rules, board_col, board, &mut pos, &mut warnings)?;
    let side = read_side_to_move(fields.get(1).copied(), &mut warnings)?;
    pos.set_side_to_move(side);
    read_counters(&fields[2..], &mut pos, &mut warnings)?;
    Ok((Setup { pos }, warnings))
}

/// The whitespace-separated fields of the text with their 1-based starting columns (in
/// characters).
fn fields_with_columns(text: &str) -> Vec<(usize, &str)> {
    let mut fields: Vec<(usize, &str)> = Vec::new();
    let mut col = 0usize;
    let mut start: Option<(usize, usize)> = None; // (column, byte offset)
    for (b, ch) in text.char_indices() {
        col += 1;
        if ch.is_whitespace() {
            if let Some((c, s)) = start.take() {
                fields.push((c, &text[s..b]));
            }
        } else if start.is_none() {
            start = Some((col, b));
        }
    }
    if let Some((c, s)) = start {
        fields.push((c, &text[s..]));
    }
    fields
}

/// The board field (starting at column `board_col`): ten ranks of nine points each, from
/// Black's back rank down, their pieces put on `pos`; alternative letters warned of.
fn read_board(
    rules: &Rules,
    board_col: usize,
    board: &str,
    pos: &mut Position,
    warnings: &mut Vec<FenWarning>,
) -> Result<(), FenSyntaxError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(FenSyntaxError::new(
            FenProblemKind::RankCount,
            Some(board_col),
            format!(
                "the board has {} ranks separated by '/', not {RANKS}",
                ranks.len()
            ),
        ));
    }
    let mut c = board_col;
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = RANKS as usize - 1 - i;
        let mut file = 0usize;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 {
                    return Err(FenSyntaxError::new(
                        FenProblemKind::RankWidth,
                        Some(c),
                        "0 is not a count of empty points",
                    ));
                }
                file += d as usize;
            } else {
                read_piece(rules, ch, c, file, rank, pos, warnings)?;
                file += 1;
            }
            if file > FILES as usize {
                return Err(FenSyntaxError::new(
                    FenProblemKind::RankWidth,
                    Some(c),
                    format!("rank {rank} has more than {FILES} points"),
                ));
            }
            c += 1;
        }
        if file != FILES as usize {
            return Err(FenSyntaxError::new(
                FenProblemKind::RankWidth,
                Some(c),
                format!("rank {rank} has {file} points, not {FILES}"),
            ));
        }
        c += 1; // the '/'
    }
    Ok(())
}

/// One piece letter at column `c`: its kind from the rule set, its side from the letter's
/// case, put on (`file`, `rank`) when that is on the board (a rank too wide is refused by
/// the caller); a letter other than the kind's first is warned of.
fn read_piece(
    rules: &Rules,
    ch: char,
    c: usize,
    file: usize,
    rank: usize,
    pos: &mut Position,
    warnings: &mut Vec<FenWarning>,
) -> Result<(), FenSyntaxError> {
    let Some(kind) = rules.kind_by_fen(ch) else {
        return Err(FenSyntaxError::new(
            FenProblemKind::UnknownLetter,
            Some(c),
            format!("`{ch}` is not a piece letter"),
        ));
    };
    if file < FILES as usize {
        let side = if ch.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        let sq = Square::new(file as i32, rank as i32).expect("on board");
        pos.put(Piece { side, kind }, sq);
        if rules.kinds()[kind as usize].fen[0] != ch.to_ascii_lowercase() {
            warnings.push(FenWarning {
                kind: FenWarningKind::AlternateLetter,
                column: Some(c),
                message: format!(
                    "`{ch}` is accepted; the canonical letter is `{}`",
                    rules.kinds()[kind as usize].fen[0]
                ),
            });
        }
    }
    Ok(())
}

/// The side-to-move field: `w` or `r` (warned of) for Red, `b` for Black.
fn read_side_to_move(
    field: Option<(usize, &str)>,
    warnings: &mut Vec<FenWarning>,
) -> Result<Side, FenSyntaxError> {
    let Some((col, s)) = field else {
        return Err(FenSyntaxError::new(
            FenProblemKind::BadSide,
            None,
            "the side to move is missing (w, r or b)",
        ));
    };
    match s {
        "w" => Ok(Side::Red),
        "r" => {
            warnings.push(FenWarning {
                kind: FenWarningKind::RedAsR,
                column: Some(col),
                message: "`r` for Red is accepted; the canonical letter is `w`".into(),
            });
            Ok(Side::Red)
        }
        "b" => Ok(Side::Black),
        _ => Err(FenSyntaxError::new(
            FenProblemKind::BadSide,
            Some(col),
            format!("`{s}` is not a side to move (w, r or b)"),
        )),
    }
}

/// The fields after the side to move: up to two `-` placeholders, then up to two counters
/// (halfmove clock, move number) set on `pos`; missing ones assumed and warned of.
fn read_counters(
    fields: &[(usize, &str)],
    pos: &mut Position,
    warnings: &mut Vec<FenWarning>,
) -> Result<(), FenSyntaxError> {
    let mut rest = fields.iter().peekable();
    let mut dashes = 0;
    while let Some(&&(_, "-")) = rest.peek() {
        if dashes == 2 {
            break;
        }
        dashes += 1;
        rest.next();
    }
    let mut counters = Vec::new();
    for &(col, s) in rest {
        if counters.len() == 2 {
            return Err(FenSyntaxError::new(
                FenProblemKind::BadField,
                Some(col),
                format!("unexpected field `{s}` after the move counters"),
            ));
        }
        match s.parse::<u32>() {
            Ok(n) => counters.push(n),
            Err(_) => {
                return Err(FenSyntaxError::new(
                    FenProblemKind::BadField,
                    Some(col),
                    format!("`{s}` is not a move counter"),
                ))
            }
        }
    }
    match counters.as_slice() {
        [h, f] => {
            if *f == 0 {
                warnings.push(FenWarning {
                    kind: FenWarningKind::MoveNumberZero,
                    column: None,
                    message: "move number 0 read as 1".into(),
                });
            }
            pos.set_counters(*h, *f)
        }
        [h] => {
            pos.set_counters(*h, 1);
            warnings.push(FenWarning {
                kind: FenWarningKind::MissingCounters,
                column: None,
                message: "move number missing; 1 assumed".into(),
            });
        }
        _ => {
            warnings.push(FenWarning {
                kind: FenWarningKind::MissingCounters,
                column: None,
                message: "move counters missing; 0 and 1 assumed".into(),
            });
        }
    }
    Ok(())
}

/// Judge whether a position can arise under the rules. Reports every problem.
pub fn validate(rules: &Rules, pos: &Position) -> Result<(), FenPositionError> {
    let mut problems = Vec::new();
    for side in Side::BOTH {
        for (k, info) in rules.kinds().iter().enumerate() {
            let k = k as u8;
            let n = pos.count(side, k);
            if info.royal && n == 0 {
                problems.push(FenProblem {
                    kind: FenProblemKind::MissingGeneral,
                    column: None,
                    message: format!("{side} has no {}", info.gloss),
                });
            }
            if n > info.count as u32 {
                problems.push(FenProblem {
                    kind: FenProblemKind::TooManyPieces,
                    column: None,
                    message: format!(
                        "{side} has {n} of {}, the setup has {}",
                        info.gloss, info.count
                    ),
                });
            }
            for sq in pos.points_of(side, k) {
                if !rules.can_stand(side, k, sq) {
                    problems.push(FenProblem {
                        kind: FenProblemKind::UnreachablePoint,
                        column: None,
                        message: format!(
                            "{side} {} on {sq}: its moves ({}) never reach that point",
                            info.gloss,
                            rules.kind_clause(k)
                        ),
                    });
                }
            }
        }
    }
    if problems.is_empty() {
        let waiting = pos.side_to_move().opponent();
        if let Some(k) = pos.royal_point(rules, waiting) {
            if pos.is_attacked(rules, k, waiting.opponent()) {
                problems.push(FenProblem {
                    kind: FenProblemKind::SideNotToMoveInCheck,
                    column: None,
                    message: format!("{waiting} is not to move but its general on {k} is attacked"),
                });
            } else if pos.is_self_kill_for(rules, waiting) {
                problems.push(FenProblem {
                    kind: FenProblemKind::GeneralsFacing,
                    column: None,
                    message: "the generals face each other on an open line".into(),
                });
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(FenPositionError(problems))
    }
}

impl Position {
    /// The position a setup describes, when it can arise under the rules ([`validate`]).
    pub(crate) fn from_setup(rules: &Rules, setup: Setup) -> Result<Position, FenPositionError> {
        validate(rules, &setup.pos)?;
        Ok(setup.pos)
    }

    /// Parse and validate a FEN (warnings dropped; use [`parse`] to see them).
    pub fn from_fen(rules: &Rules, text: &str) -> Result<Position, FenError> {
        parse(rules, text).map(|(p, _)| p)
    }

    /// The canonical FEN of this position.
    pub fn to_fen(&self, rules: &Rules) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::new(file as i32, rank as i32).expect("on board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let l = rules.kinds()[p.kind as usize].fen[0];
                        s.push(if p.side == Side::Red {
                            l.to_ascii_uppercase()
                        } else {
                            l
                        });
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side_to_move() == Side::Red {
            'w'
        } else {
            'b'
        };
        format!(
            "{s} {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules::builtin("cxa-2020").unwrap()
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn start_round_trip() {
        let r = rules();
        let p = Position::from_fen(&r, START).unwrap();
        assert_eq!(p, r.start_position());
        assert_eq!(p.to_fen(&r), START);
        assert_eq!(
            Position::from_fen(&r, "startpos").unwrap().to_fen(&r),
            START
        );
    }

    #[test]
    fn alternates_and_warnings() {
        let r = rules();
        let (p, w) = parse(
            &r,
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
        )
        .unwrap();
        assert_eq!(p.to_fen(&r), START);
        let kinds: Vec<_> = w.iter().map(|w| w.kind.code()).collect();
        assert!(kinds.contains(&"alternate_letter"));
        assert!(kinds.contains(&"red_as_r"));
        assert!(kinds.contains(&"missing_counters"));
    }

    #[test]
    fn syntax_errors_say_where() {
        let r = rules();
        let e = Position::from_fen(&r, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w")
            .unwrap_err();
        assert_eq!(e.kind(), "rank_count");
        for (fen, kind, column) in [
            (
                "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                "unknown_letter",
                9,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                "bad_side",
                61,
            ),
        ] {
            let e = Position::from_fen(&r, fen).unwrap_err();
            assert_eq!(e.kind(), kind);
            assert_eq!(e.problems()[0].column, Some(column));
            assert!(e.is_syntax());
        }
    }

    #[test]
    fn impossible_positions() {
        let r = rules();
        // Red elephant across the river.
        let e = Position::from_fen(&r, "4k4/9/9/9/2B6/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(e.kind(), "unreachable_point");
        // Generals facing.
        let e = Position::from_fen(&r, "4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(e.kind(), "generals_facing");
        // Black, not to move, in check from a red chariot.
        let e = Position::from_fen(&r, "3k5/9/9/9/9/9/9/9/9/3RK4 w").unwrap_err();
        assert_eq!(e.kind(), "side_not_to_move_in_check");
        let e = Position::from_fen(&r, "9/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(e.kind(), "missing_general");
        assert!(!e.is_syntax());
    }
}
