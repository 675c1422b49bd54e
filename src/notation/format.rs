//! Formatting: the canonical text of a legal move in each notation and style.
//!
//! What is written for tandem pieces (accepted forms are wider, see
//! `grammar/chinese.pest` and `grammar/wxf.pest`):
//!
//! | pieces of the kind on the file | Chinese | abbreviated | WXF |
//! |---|---|---|---|
//! | one | `马二进三` | `马2+3` | `H2+3` |
//! | two | `前马进三` / `后马…` | `前马+3` | `+H+3` / `-H+3` |
//! | three | `前兵` / `中兵` / `后兵` | same | `1P` / `2P` / `3P` |
//! | four or five | `一兵` … `五兵` | same | `1P` … `5P` |
//!
//! When another file also holds two or more of the kind (only soldiers can),
//! the file replaces the piece: `前七进一`, `前7+1`, `+7+1`; if that file also
//! holds two or more of another kind, both are written: `前兵七进一`, `+P7+1`.

use std::fmt;

use super::ast::{Action, PieceKind};
use super::resolve::{file_group, file_number, motion};
use super::view::BoardView;
use super::{Case, Notation, Script, Style, Width};
use crate::board::{Move, Side, FILES};

/// A move that cannot be written because it is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// No piece of the side to move stands on the from-point.
    NoPiece { mv: Move },
    /// The move is not legal.
    IllegalMove { mv: Move },
}

impl FormatError {
    /// Snake-case kind: `no_piece` or `illegal_move`.
    pub fn kind(&self) -> &'static str {
        match self {
            FormatError::NoPiece { .. } => "no_piece",
            FormatError::IllegalMove { .. } => "illegal_move",
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NoPiece { mv } => write!(f, "cannot write {mv}: no piece of the side to move on {}", mv.from),
            FormatError::IllegalMove { mv } => write!(f, "cannot write {mv}: not a legal move"),
        }
    }
}

impl std::error::Error for FormatError {}

/// The Chinese character of a kind for a side.
pub fn piece_char(kind: PieceKind, side: Side, script: Script) -> char {
    use PieceKind::*;
    match (script, side, kind) {
        (Script::Simplified, Side::Red, General) => '帅',
        (Script::Simplified, Side::Black, General) => '将',
        (Script::Traditional, Side::Red, General) => '帥',
        (Script::Traditional, Side::Black, General) => '將',
        (_, Side::Red, Advisor) => '仕',
        (_, Side::Black, Advisor) => '士',
        (_, Side::Red, Elephant) => '相',
        (_, Side::Black, Elephant) => '象',
        (Script::Simplified, _, Horse) => '马',
        (Script::Traditional, Side::Red, Horse) => '傌',
        (Script::Traditional, Side::Black, Horse) => '馬',
        (Script::Simplified, _, Chariot) => '车',
        (Script::Traditional, Side::Red, Chariot) => '俥',
        (Script::Traditional, Side::Black, Chariot) => '車',
        (Script::Simplified, _, Cannon) => '炮',
        (Script::Traditional, Side::Red, Cannon) => '炮',
        (Script::Traditional, Side::Black, Cannon) => '砲',
        (_, Side::Red, Soldier) => '兵',
        (_, Side::Black, Soldier) => '卒',
    }
}

/// The WXF letter of a kind.
pub fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// An ASCII character in the requested width.
fn widen(c: char, width: Width) -> char {
    match width {
        Width::Half => c,
        Width::Full if ('!'..='~').contains(&c) => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c),
        Width::Full => c,
    }
}

fn digit(n: u8, width: Width) -> char {
    widen((b'0' + n) as char, width)
}

/// Where the moving piece stands among its tandem pieces.
struct Designation {
    /// Front-first index and group size, when the file holds two or more.
    tandem: Option<(usize, usize)>,
    /// Whether another file also holds two or more of the kind.
    several_files: bool,
    /// Whether this file also holds two or more of another kind, so the
    /// file alone does not say which kind is meant.
    shared_file: bool,
}

fn designation<B: BoardView + ?Sized>(b: &B, side: Side, kind: PieceKind, mv: Move) -> Designation {
    let group = file_group(b, side, kind, mv.from.file());
    let tandem = if group.len() >= 2 {
        group.iter().position(|&s| s == mv.from).map(|i| (i, group.len()))
    } else {
        None
    };
    let several_files = tandem.is_some()
        && (0..FILES).any(|f| f != mv.from.file() && file_group(b, side, kind, f).len() >= 2);
    let shared_file = several_files
        && PieceKind::ALL
            .into_iter()
            .any(|k| k != kind && file_group(b, side, k, mv.from.file()).len() >= 2);
    Designation { tandem, several_files, shared_file }
}

/// The tandem word: 前/中/后 for up to three, 一–五 for more.
fn tandem_word(i: usize, len: usize, script: Script) -> char {
    let rear = if script == Script::Traditional { '後' } else { '后' };
    match len {
        2 => ['前', rear][i],
        3 => ['前', '中', rear][i],
        _ => CHINESE_NUMERALS[i.min(8)],
    }
}

/// Write a legal move of the side to move.
pub fn format_with<B: BoardView + ?Sized>(b: &B, mv: Move, notation: Notation, style: Style) -> Result<String, FormatError> {
    let side = b.side_to_move();
    let kind = match b.piece_at(mv.from) {
        Some((s, k)) if s == side => k,
        _ => return Err(FormatError::NoPiece { mv }),
    };
    if !b.is_legal(mv) {
        return Err(FormatError::IllegalMove { mv });
    }
    Ok(format_unchecked(b, mv, side, kind, notation, style))
}

/// Write a move already known to be legal, of a piece of `kind` of `side`.
pub fn format_unchecked<B: BoardView + ?Sized>(
    b: &B,
    mv: Move,
    side: Side,
    kind: PieceKind,
    notation: Notation,
    style: Style,
) -> String {
    let mut out = String::with_capacity(16);
    if notation == Notation::Iccs {
        match style.case {
            Case::Lower => out.push_str(&mv.iccs()),
            Case::Upper => {
                out.push_str(&mv.from.to_string().to_ascii_uppercase());
                out.push('-');
                out.push_str(&mv.to.to_string().to_ascii_uppercase());
            }
        }
        return out;
    }
    let (action, number) = motion(side, mv.from, mv.to);
    let d = designation(b, side, kind, mv);
    let file = file_number(side, mv.from.file());
    let width = style.width;
    match notation {
        Notation::Chinese | Notation::ChineseAbbreviated => {
            let abbreviated = notation == Notation::ChineseAbbreviated;
            let numeral = |n: u8| -> char {
                if side == Side::Red && !abbreviated {
                    CHINESE_NUMERALS[(n - 1) as usize]
                } else {
                    digit(n, width)
                }
            };
            let piece = piece_char(kind, side, style.script);
            match d.tandem {
                None => {
                    out.push(piece);
                    out.push(numeral(file));
                }
                Some((i, len)) => {
                    out.push(tandem_word(i, len, style.script));
                    if !d.several_files || d.shared_file {
                        out.push(piece);
                    }
                    if d.several_files {
                        out.push(numeral(file));
                    }
                }
            }
            out.push(if abbreviated {
                widen(
                    match action {
                        Action::Advance => '+',
                        Action::Retreat => '-',
                        Action::Traverse => '.',
                    },
                    width,
                )
            } else {
                match (action, style.script) {
                    (Action::Advance, Script::Simplified) => '进',
                    (Action::Advance, Script::Traditional) => '進',
                    (Action::Retreat, _) => '退',
                    (Action::Traverse, _) => '平',
                }
            });
            out.push(numeral(number));
        }
        Notation::Wxf => {
            let letter = widen(wxf_letter(kind), width);
            match d.tandem {
                None => {
                    out.push(letter);
                    out.push(digit(file, width));
                }
                Some((i, len)) => {
                    out.push(match (len, i) {
                        (2, 0) => widen('+', width),
                        (2, _) => widen('-', width),
                        _ => digit(i as u8 + 1, width),
                    });
                    if !d.several_files || d.shared_file {
                        out.push(letter);
                    }
                    if d.several_files {
                        out.push(digit(file, width));
                    }
                }
            }
            out.push(widen(
                match action {
                    Action::Advance => '+',
                    Action::Retreat => '-',
                    Action::Traverse => {
                        if width == Width::Full {
                            '='
                        } else {
                            '.'
                        }
                    }
                },
                width,
            ));
            out.push(digit(number, width));
        }
        Notation::Iccs => unreachable!("handled above"),
    }
    out
}
