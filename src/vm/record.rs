//! How a game is written down (记录, article 7.5), compiled from the clauses: the piece
//! names of `pieces.kinds`, their traditional forms and print variants
//! (`notation.characters`), the file numerals of `board.file_numbering`, the full and
//! abbreviated forms with their action words (`notation.record`) and the words for
//! tandem pieces (`notation.tandem`).
//!
//! The notation code (`src/notation`) writes and reads moves from this table; the pest
//! grammar keeps the character classes it needs, and `tests/it/notation_spec.rs` checks that
//! grammar and table agree character by character. No record character is written in
//! Rust outside the grammar.

use std::collections::BTreeMap;

use super::compile::{err, kind_id, require, typed};
use super::KindInfo;
use crate::board::{BySide, Side};
use crate::spec::{Edition, SpecError};

/// One word of a record (an action, a tandem word, or the character of a piece kind of one
/// side) in each script, and the other spellings read (for a piece: its print variants).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// Written in simplified script (and in the abbreviated form).
    pub write: String,
    /// Written in traditional script (the same as `write` when the data gives none).
    pub(crate) traditional: String,
    /// Further spellings a reader accepts.
    pub(crate) also: Vec<String>,
}

impl Word {
    /// Every spelling: written, traditional, and the others.
    pub fn spellings(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.write.as_str())
            .chain(std::iter::once(self.traditional.as_str()))
            .chain(self.also.iter().map(String::as_str))
    }
}

/// One recording form (full or abbreviated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The numeral set (of `board.file_numbering`, by side) each side writes, `[red, black]`.
    pub numerals: [Side; 2],
    /// Advance, retreat, traverse.
    pub actions: [Word; 3],
}

/// The words that tell tandem pieces apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tandem {
    /// A group of two, front first.
    pub(crate) two: [Word; 2],
    /// A group of three, front first.
    pub(crate) three: [Word; 3],
    /// Larger groups are counted from the front with this side's numerals.
    pub more: Side,
    /// Every named word (front, middle, rear …) by its data name.
    pub words: BTreeMap<String, Word>,
}

/// How moves are recorded under an edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Per kind (the VM's kind order), `[red, black]`: the piece's character, written as
    /// the name of `pieces.kinds`.
    pub pieces: Vec<[Word; 2]>,
    /// The file numerals of each side, 1 to 9, `[red, black]` (`board.file_numbering`).
    pub numerals: [Vec<String>; 2],
    /// The full form of 7.5 (`炮二平五`): numerals and action words.
    pub full: Form,
    /// The abbreviated form (`炮2平5`): numerals and action words.
    pub abbreviated: Form,
    /// The tandem words (前, 中, 后) and how groups of tandem pieces are named.
    pub tandem: Tandem,
}

impl Record {
    /// Every character the record table names: pieces in every spelling, numerals,
    /// action and tandem words. Sorted, without duplicates.
    pub(crate) fn characters(&self) -> Vec<char> {
        let words = self
            .full
            .actions
            .iter()
            .chain(&self.abbreviated.actions)
            .chain(self.tandem.words.values());
        let mut out: Vec<char> = self
            .pieces
            .iter()
            .flatten()
            .flat_map(Word::spellings)
            .chain(words.flat_map(Word::spellings))
            .chain(self.numerals.iter().flatten().map(String::as_str))
            .flat_map(str::chars)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The numeral `n` (1–9) of `set`.
    pub fn numeral(&self, set: Side, n: u8) -> &str {
        &self.numerals[set.index()][(n.clamp(1, 9) - 1) as usize]
    }
}

/// The file numerals of `board.file_numbering` (1.1): each side's nine numerals, 1 to 9
/// from its own right. Reading a written numeral is a look-up here, never a table in Rust.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileNumerals {
    /// `[red, black]`, each 1 to 9 (empty when the edition has no `board.file_numbering`).
    pub(crate) sets: [Vec<String>; 2],
}

impl FileNumerals {
    /// The value (1–9) of the written numeral `s` and the side whose set it belongs to
    /// (`None` when both sets have it). A full-width digit (`１`–`９`) is read as its ASCII
    /// digit: the width is the record's typography, not another numeral. `None` when no
    /// set has it.
    pub(crate) fn value(&self, s: &str) -> Option<(u8, Option<Side>)> {
        let mut buf = [0u8; 4];
        let mut chars = s.chars();
        let s = match (chars.next(), chars.next()) {
            (Some(c), None) => &*half_width(c).encode_utf8(&mut buf),
            _ => s,
        };
        let find = |side: Side| self.sets[side.index()].iter().position(|n| n == s);
        match (find(Side::Red), find(Side::Black)) {
            (Some(r), Some(b)) if r == b => Some((r as u8 + 1, None)),
            (Some(r), _) => Some((r as u8 + 1, Some(Side::Red))),
            (None, Some(b)) => Some((b as u8 + 1, Some(Side::Black))),
            (None, None) => None,
        }
    }
}

/// A full-width ASCII form (`１`, `＋`) as its ASCII character; any other character as it is.
pub(crate) fn half_width(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFF01 + 0x21).unwrap_or(c),
        _ => c,
    }
}

/// The file numerals of `ed` (`board.file_numbering`), empty without the clause.
pub(super) fn file_numerals(ed: &Edition) -> Result<FileNumerals, SpecError> {
    let Some(c) = ed.clause("board.file_numbering") else {
        return Ok(FileNumerals::default());
    };
    let numbering: FileNumbering = typed(c)?;
    for (side, list) in [
        ("red", &numbering.numerals.red),
        ("black", &numbering.numerals.black),
    ] {
        if list.len() != 9 {
            return Err(err(
                c,
                format!(
                    "{side} has {} numerals; files are numbered 1 to 9",
                    list.len()
                ),
            ));
        }
    }
    Ok(FileNumerals {
        sets: numbering.numerals.into(),
    })
}

shapes! {
    struct FileNumbering {
        #[allow(dead_code)]
        counted_from: String,
        numerals: BySide<Vec<String>>,
    }

    #[derive(Default)]
    #[serde(default)]
    struct RawChars {
        traditional: Option<String>,
        variants: Vec<String>,
    }

    #[derive(Default)]
    #[serde(default)]
    struct RawKindChars {
        red: RawChars,
        black: RawChars,
    }

    struct RawCharacters {
        kinds: BTreeMap<String, RawKindChars>,
    }

    struct RawWord {
        write: String,
        traditional: Option<String>,
        #[serde(default)]
        also: Vec<String>,
    }

    struct RawActions {
        advance: RawWord,
        retreat: RawWord,
        traverse: RawWord,
    }

    #[derive(Copy)]
    #[serde(rename_all = "snake_case")]
    enum NumeralSet {
        Red,
        Black,
    }
}

impl NumeralSet {
    fn side(self) -> Side {
        match self {
            NumeralSet::Red => Side::Red,
            NumeralSet::Black => Side::Black,
        }
    }
}

shapes! {
    struct RawForm {
        numerals: BySide<NumeralSet>,
        actions: RawActions,
    }

    struct RawForms {
        full: RawForm,
        abbreviated: RawForm,
    }

    struct RawRecord {
        forms: RawForms,
    }

    struct RawGroups {
        two: Vec<String>,
        three: Vec<String>,
    }

    struct RawTandem {
        words: BTreeMap<String, RawWord>,
        groups: RawGroups,
        more: NumeralSet,
    }
}

fn word(w: RawWord) -> Word {
    Word {
        traditional: w.traditional.unwrap_or_else(|| w.write.clone()),
        write: w.write,
        also: w.also,
    }
}

fn form(f: RawForm) -> Form {
    let RawActions {
        advance,
        retreat,
        traverse,
    } = f.actions;
    Form {
        numerals: [f.numerals.red.side(), f.numerals.black.side()],
        actions: [word(advance), word(retreat), word(traverse)],
    }
}

/// The record table of `ed`, or `None` when the edition has no `notation.record` clause;
/// every error of its clauses (the forms, the characters, the tandem words), each located.
pub(super) fn compile(
    ed: &Edition,
    kinds: &[KindInfo],
    numerals: &FileNumerals,
) -> Result<Option<Record>, Vec<SpecError>> {
    let Some(record_clause) = ed.clause("notation.record") else {
        return Ok(None);
    };
    let mut errors = Vec::new();
    let raw: Option<RawRecord> = typed(record_clause).map_err(|e| errors.push(e)).ok();
    if let Err(e) = require(ed, "board.file_numbering") {
        errors.push(e);
    }
    let pieces = characters(ed, kinds)
        .map_err(|mut e| errors.append(&mut e))
        .ok();
    let tandem = tandem(ed).map_err(|e| errors.push(e)).ok();
    match (raw, pieces, tandem) {
        (Some(raw), Some(pieces), Some(tandem)) if errors.is_empty() => Ok(Some(Record {
            pieces,
            numerals: numerals.sets.clone(),
            full: form(raw.forms.full),
            abbreviated: form(raw.forms.abbreviated),
            tandem,
        })),
        _ => Err(errors),
    }
}

/// The characters of every kind (`notation.characters`, else the kinds' own names): every
/// kind's errors.
fn characters(ed: &Edition, kinds: &[KindInfo]) -> Result<Vec<[Word; 2]>, Vec<SpecError>> {
    let mut pieces: Vec<[Word; 2]> = kinds
        .iter()
        .map(|k| {
            let chars = |s: Side| Word {
                write: k.names[s.index()].clone(),
                traditional: k.names[s.index()].clone(),
                also: Vec::new(),
            };
            [chars(Side::Red), chars(Side::Black)]
        })
        .collect();
    let Some(c) = ed.clause("notation.characters") else {
        return Ok(pieces);
    };
    let raw: RawCharacters = typed(c).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    for (kind, sides) in raw.kinds {
        let i = match kind_id(kinds, c, &kind) {
            Ok(i) => usize::from(i),
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        for (side, chars) in [(Side::Red, sides.red), (Side::Black, sides.black)] {
            let p = &mut pieces[i][side.index()];
            if let Some(t) = chars.traditional {
                p.traditional = t;
            }
            p.also = chars.variants;
            // Records are read character by character: every spelling is one character.
            if let Some(bad) = p.spellings().find(|s| s.chars().count() != 1) {
                errors.push(err(
                    c,
                    format!("kind `{kind}`: `{bad}` is not one character"),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(pieces)
    } else {
        Err(errors)
    }
}

/// The words of several pieces on one file (`notation.tandem`).
fn tandem(ed: &Edition) -> Result<Tandem, SpecError> {
    let tandem_clause = require(ed, "notation.tandem")?;
    let raw_tandem: RawTandem = typed(tandem_clause)?;
    let words: BTreeMap<String, Word> = raw_tandem
        .words
        .into_iter()
        .map(|(k, w)| (k, word(w)))
        .collect();
    let group = |names: &[String], n: usize| -> Result<Vec<Word>, SpecError> {
        if names.len() != n {
            return Err(err(
                tandem_clause,
                format!("a group of {n} needs {n} words, not {}", names.len()),
            ));
        }
        names
            .iter()
            .map(|n| {
                words.get(n).cloned().ok_or_else(|| {
                    err(
                        tandem_clause,
                        format!("group word `{n}` is not among `words`"),
                    )
                })
            })
            .collect()
    };
    let two: [Word; 2] = group(&raw_tandem.groups.two, 2)?
        .try_into()
        .map_err(|_| err(tandem_clause, "two words"))?;
    let three: [Word; 3] = group(&raw_tandem.groups.three, 3)?
        .try_into()
        .map_err(|_| err(tandem_clause, "three words"))?;
    Ok(Tandem {
        two,
        three,
        more: raw_tandem.more.side(),
        words,
    })
}
