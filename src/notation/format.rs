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
use super::{Case, ErrorKind, Notation, Script, Style, Width};
use crate::board::{Move, Side, FILES};
use crate::vm::record::{Record, Word};

/// A move that cannot be written: not legal in the position, or the rules say nothing
/// of how records write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// No piece of the side to move stands on the from-point.
    NoPiece { mv: Move },
    /// The move is not legal.
    IllegalMove { mv: Move },
    /// The rule set has no `notation.*` clauses (article 7.5), so Chinese text cannot be written.
    NoRecordForms { mv: Move },
}

impl FormatError {
    /// What went wrong: `no_piece`, `illegal_move` or `no_record_forms`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            FormatError::NoPiece { .. } => ErrorKind::NoPiece,
            FormatError::IllegalMove { .. } => ErrorKind::IllegalMove,
            FormatError::NoRecordForms { .. } => ErrorKind::NoRecordForms,
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::NoPiece { mv } => write!(
                f,
                "cannot write {mv}: no piece of the side to move on {}",
                mv.from
            ),
            FormatError::IllegalMove { mv } => write!(f, "cannot write {mv}: not a legal move"),
            FormatError::NoRecordForms { mv } => {
                write!(f, "cannot write {mv} in Chinese: the rule set has no notation.* clauses (how records are written, 7.5)")
            }
        }
    }
}

impl std::error::Error for FormatError {}

/// The WXF letter of a kind.
pub(crate) fn wxf_letter(kind: PieceKind) -> char {
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

/// An ASCII character in the requested width.
fn widen(c: char, width: Width) -> char {
    match width {
        Width::Half => c,
        Width::Full if ('!'..='~').contains(&c) => {
            char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c)
        }
        Width::Full => c,
    }
}

fn digit(n: u8, width: Width) -> char {
    widen((b'0' + n) as char, width)
}

/// Append `text` in the requested width (ASCII widened, anything else as it is).
fn push_wide(out: &mut String, text: &str, width: Width) {
    out.extend(text.chars().map(|c| widen(c, width)));
}

/// The spelling of a record word in a script.
fn in_script(w: &Word, script: Script) -> &str {
    match script {
        Script::Simplified => &w.write,
        Script::Traditional => &w.traditional,
    }
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
        group
            .iter()
            .position(|&s| s == mv.from)
            .map(|i| (i, group.len()))
    } else {
        None
    };
    let several_files = tandem.is_some()
        && (0..FILES).any(|f| f != mv.from.file() && file_group(b, side, kind, f).len() >= 2);
    let shared_file = several_files
        && PieceKind::ALL
            .into_iter()
            .any(|k| k != kind && file_group(b, side, k, mv.from.file()).len() >= 2);
    Designation {
        tandem,
        several_files,
        shared_file,
    }
}

/// The tandem word of the `i`-th of `len` pieces (front first): the words of a group of
/// two or three, or the numerals of larger groups (`notation.tandem`).
fn tandem_word(record: &Record, i: usize, len: usize, script: Script) -> &str {
    match len {
        2 => in_script(&record.tandem.two[i.min(1)], script),
        3 => in_script(&record.tandem.three[i.min(2)], script),
        _ => record.numeral(record.tandem.more, i as u8 + 1),
    }
}

/// Write a legal move of the side to move.
pub fn format_with<B: BoardView + ?Sized>(
    b: &B,
    mv: Move,
    notation: Notation,
    style: Style,
) -> Result<String, FormatError> {
    let side = b.side_to_move();
    let kind = match b.piece_at(mv.from) {
        Some((s, k)) if s == side => k,
        _ => return Err(FormatError::NoPiece { mv }),
    };
    if !b.is_legal(mv) {
        return Err(FormatError::IllegalMove { mv });
    }
    format_unchecked(b, mv, side, kind, notation, style)
}

/// Write a move already known to be legal, of a piece of `kind` of `side`.
pub(crate) fn format_unchecked<B: BoardView + ?Sized>(
    b: &B,
    mv: Move,
    side: Side,
    kind: PieceKind,
    notation: Notation,
    style: Style,
) -> Result<String, FormatError> {
    if notation == Notation::Iccs {
        return Ok(write_iccs(mv, style));
    }
    let (action, number) = motion(side, mv.from, mv.to);
    let said = Said {
        mv,
        side,
        kind,
        d: designation(b, side, kind, mv),
        file: file_number(side, mv.from.file()),
        action,
        number,
    };
    match notation {
        Notation::Chinese | Notation::ChineseAbbreviated => {
            write_chinese(b, notation, style, &said)
        }
        Notation::Wxf => Ok(write_wxf(style.width, &said)),
        Notation::Iccs => unreachable!("handled above"),
    }
}

/// What a Chinese or WXF record says of a move (`mv`, of a piece of `kind` of `side`):
/// where the piece stands among its tandem pieces, its file's number, how it moves, and the
/// number after the action (a file, or the points advanced or retreated).
struct Said {
    mv: Move,
    side: Side,
    kind: PieceKind,
    d: Designation,
    file: u8,
    action: Action,
    number: u8,
}

/// A move in ICCS coordinates (`h2e2`, or `H2-E2` in upper case).
fn write_iccs(mv: Move, style: Style) -> String {
    let mut out = String::with_capacity(16);
    match style.case {
        Case::Lower => out.push_str(&mv.iccs()),
        Case::Upper => {
            out.push_str(&mv.from.to_string().to_ascii_uppercase());
            out.push('-');
            out.push_str(&mv.to.to_string().to_ascii_uppercase());
        }
    }
    out
}

/// A move in Chinese notation (full or abbreviated, by `notation`), in the edition's record
/// forms: the piece and its file (or its tandem word), the action word, the number.
fn write_chinese<B: BoardView + ?Sized>(
    b: &B,
    notation: Notation,
    style: Style,
    said: &Said,
) -> Result<String, FormatError> {
    let mut out = String::with_capacity(16);
    let (side, width) = (said.side, style.width);
    let (Some(record), Some(chars)) = (b.record(), b.piece_chars(side, said.kind)) else {
        return Err(FormatError::NoRecordForms { mv: said.mv });
    };
    let form = if notation == Notation::ChineseAbbreviated {
        &record.abbreviated
    } else {
        &record.full
    };
    let numerals = form.numerals[side.index()];
    let numeral = |out: &mut String, n: u8| push_wide(out, record.numeral(numerals, n), width);
    let piece = in_script(chars, style.script);
    push_designation(
        &mut out,
        said,
        |out| out.push_str(piece),
        |out, i, len| out.push_str(tandem_word(record, i, len, style.script)),
        numeral,
    );
    let word = &form.actions[match said.action {
        Action::Advance => 0,
        Action::Retreat => 1,
        Action::Traverse => 2,
    }];
    push_wide(&mut out, in_script(word, style.script), width);
    numeral(&mut out, said.number);
    Ok(out)
}

/// The part of a Chinese or WXF move before its action, each notation writing the piece,
/// a tandem word (or sign) and a file number its own way: the piece and its file; for one
/// of a tandem, its word, then the piece unless tandems stand on several files (and no
/// other kind shares the file), then the file when they do.
fn push_designation(
    out: &mut String,
    said: &Said,
    piece: impl Fn(&mut String),
    tandem: impl Fn(&mut String, usize, usize),
    file: impl Fn(&mut String, u8),
) {
    let d = &said.d;
    match d.tandem {
        None => {
            piece(out);
            file(out, said.file);
        }
        Some((i, len)) => {
            tandem(out, i, len);
            if !d.several_files || d.shared_file {
                piece(out);
            }
            if d.several_files {
                file(out, said.file);
            }
        }
    }
}

/// A move in WXF notation: the piece letter and its file (or its tandem sign), the action
/// sign, the number.
fn write_wxf(width: Width, said: &Said) -> String {
    let mut out = String::with_capacity(16);
    let letter = widen(wxf_letter(said.kind), width);
    push_designation(
        &mut out,
        said,
        |out| out.push(letter),
        |out, i, len| {
            out.push(match (len, i) {
                (2, 0) => widen('+', width),
                (2, _) => widen('-', width),
                _ => digit(i as u8 + 1, width),
            })
        },
        |out, file| out.push(digit(file, width)),
    );
    out.push(widen(
        match said.action {
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
    out.push(digit(said.number, width));
    out
}
