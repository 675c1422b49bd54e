//! Move notation (Chinese, WXF, ICCS) and game records (PGN).
//!
//! The work is split in three steps, each with its own error type:
//!
//! 1. **Parsing** ([`syntax`]): text to a syntax tree ([`MoveSyntax`]) with
//!    the pest grammars in `grammar/`. Failure: [`SyntaxError`], with the column.
//! 2. **Resolution** (`resolve`): a syntax tree plus a position to a board
//!    `Move`. Failure: `ResolveError` (no such piece, no such legal move,
//!    ambiguous), carrying the candidate moves.
//! 3. **Formatting** (`format`): a legal move to its canonical text in any
//!    notation and [`Style`].
//!
//! Game records: [`pgn`] reads PGN files (several games, comments,
//! variations, any notation), [`encoding`] decodes UTF-8, GBK/GB18030, Big5
//! and UTF-16, and [`replay`] replays and converts them (`xqspec replay`,
//! [`replay::Replayer`]); [`records`] is the one path by which the commands read record
//! files (what is a game, what is text that is no game, how games are numbered).
//!
//! Entry points: [`parse_move`], [`format_move`] (and [`parse_move_any`],
//! which detects the notation); for the conformance protocol,
//! `answer_parse_move` and `answer_format_move` under the notation ids of
//! `NOTATION_IDS`, and `replay::answer_replay_pgn` for the proposed
//! `replay_pgn` query.
//!
//! The code reaches the board only through the [`BoardView`] trait; the
//! core's `Position` with its `Rules` provides it as [`RulesBoard`].
//!
//! Nothing here holds a record character: a Chinese numeral's value and side are looked up
//! in `board.file_numbering` (`vm::record::FileNumerals`), and `format` writes from the
//! record table the VM compiles from `pieces.kinds`, `board.file_numbering` and
//! `notation.*` (`vm::record::Record`: piece names with their traditional forms and
//! variants, the full and abbreviated forms of 7.5, the tandem words). Only the grammars
//! (`grammar/base.pest`, shared, one file per notation, `pgn.pest`) repeat the characters
//! they need, and `tests/it/notation_spec.rs` checks them against the spec character by
//! character.
//!
//! [`stream`] is the records path for databases: the same games, places and remarks as
//! [`records`], on every core and in bounded memory (`tests/it/stream.rs` checks that pieces
//! of 64 bytes on three threads give exactly what the whole file gives on one).
//!
//! Depends on `vm`, `input` and `output`.
//!
//! Terms: 进 (jìn, advance), 退 (tuì, retreat), 平 (píng, traverse); 前/中/后
//! (front/middle/rear) for tandem pieces; 纵线 (files) counted from each
//! player's right.

pub(crate) mod ast;
pub mod encoding;
pub(crate) mod format;
pub mod pgn;
pub mod records;
pub mod replay;
pub(crate) mod resolve;
pub mod stream;
pub mod syntax;
mod view;

use std::fmt;

pub use ast::{MoveSyntax, PieceKind};
pub use format::format_with;
pub(crate) use resolve::{resolve_with, ResolveError};
pub use syntax::{detect, parse_syntax, SyntaxError};
pub use view::{BoardView, KindMap, RulesBoard};

use crate::board::Move;

/// A move notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Chinese file notation, article 7.5 full form: `炮二平五`, `马８进７`.
    Chinese,
    /// The abbreviated form of article 7.5: digits for both sides and `+ - .`
    /// for the actions: `炮2.5`, `马8+7`, `车9-8`. Parsed by the same grammar
    /// as [`Notation::Chinese`].
    ChineseAbbreviated,
    /// WXF: `C2.5`, `H8+7`, `+P.6`.
    Wxf,
    /// ICCS coordinates: `h2e2`.
    Iccs,
}

impl Notation {
    /// All notations.
    pub const ALL: [Notation; 4] = [
        Notation::Chinese,
        Notation::ChineseAbbreviated,
        Notation::Wxf,
        Notation::Iccs,
    ];

    /// Name used on the command line and in cases: `chinese`,
    /// `chinese-abbreviated`, `wxf`, `iccs`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Chinese => "chinese",
            Notation::ChineseAbbreviated => "chinese-abbreviated",
            Notation::Wxf => "wxf",
            Notation::Iccs => "iccs",
        }
    }

    /// The notation with the given name (case-insensitive; `abbreviated`
    /// and `coordinates` are accepted too).
    pub fn from_name(name: &str) -> Option<Notation> {
        match name.trim().to_ascii_lowercase().as_str() {
            "chinese" | "cn" | "zh" => Some(Notation::Chinese),
            "chinese-abbreviated" | "abbreviated" | "chinese_abbreviated" => {
                Some(Notation::ChineseAbbreviated)
            }
            "wxf" => Some(Notation::Wxf),
            "iccs" | "coordinates" | "ucci" | "uci" => Some(Notation::Iccs),
            _ => None,
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Character set of the Chinese characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Script {
    /// 简体: 帅 仕 相 马 车 炮 兵 / 将 士 象 马 车 炮 卒, 进 退 平, 前 中 后.
    #[default]
    Simplified,
    /// 繁體: 帥 仕 相 傌 俥 炮 兵 / 將 士 象 馬 車 砲 卒, 進 退 平, 前 中 後.
    Traditional,
}

/// Width of digits, letters and symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Width {
    /// Half-width (ASCII): `马8进7`, `C2.5`.
    #[default]
    Half,
    /// Full-width (U+FF01–U+FF5E): `马８进７`, `Ｃ２＝５`.
    Full,
}

/// Letter case for ICCS output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Case {
    /// `h2e2`.
    #[default]
    Lower,
    /// `H2-E2`, as the ICCS server writes it.
    Upper,
}

/// How formatted text is written. Parsing accepts every style.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Style {
    /// Simplified or traditional characters (Chinese notation).
    pub script: Script,
    /// Half-width (ASCII) or full-width digits and signs.
    pub width: Width,
    /// Lower or upper case ICCS (`h2e2`, `H2-E2`).
    pub case: Case,
}

impl Style {
    /// Parse a style name: words joined by `+`, `-`, `_` or `,` from
    /// `simplified`, `traditional`, `halfwidth`/`half`, `fullwidth`/`full`,
    /// `lower`, `upper`; `default` or the empty string for the default.
    /// For example `traditional+fullwidth`.
    pub fn from_name(name: &str) -> Option<Style> {
        let mut s = Style::default();
        for w in name
            .split(['+', ',', ' '])
            .map(str::trim)
            .filter(|w| !w.is_empty())
        {
            match w.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
                "default" | "canonical" => {}
                "simplified" | "simp" | "zhhans" => s.script = Script::Simplified,
                "traditional" | "trad" | "zhhant" => s.script = Script::Traditional,
                "half" | "halfwidth" | "ascii" => s.width = Width::Half,
                "full" | "fullwidth" => s.width = Width::Full,
                "lower" | "lowercase" => s.case = Case::Lower,
                "upper" | "uppercase" => s.case = Case::Upper,
                _ => return None,
            }
        }
        Some(s)
    }

    /// The name [`Style::from_name`] reads back.
    pub fn name(&self) -> String {
        let mut parts = vec![match self.script {
            Script::Simplified => "simplified",
            Script::Traditional => "traditional",
        }];
        parts.push(match self.width {
            Width::Half => "halfwidth",
            Width::Full => "fullwidth",
        });
        parts.push(match self.case {
            Case::Lower => "lower",
            Case::Upper => "upper",
        });
        parts.join("+")
    }
}

/// Either kind of failure when reading a move against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text does not parse.
    Syntax(SyntaxError),
    /// The text parses but names no single legal move.
    Resolve(ResolveError),
}

impl NotationError {
    /// What went wrong: `syntax`, `no_such_piece`, `no_legal_move`, `ambiguous`,
    /// `illegal_move`.
    pub fn kind(&self) -> ErrorKind {
        match self {
            NotationError::Syntax(_) => ErrorKind::Syntax,
            NotationError::Resolve(e) => e.kind(),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax(e) => e.fmt(f),
            NotationError::Resolve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NotationError {}

wraps!(NotationError {
    Syntax(SyntaxError),
    Resolve(ResolveError),
});

/// Parse and resolve one move on any [`BoardView`].
pub fn parse_move_with<B: BoardView>(
    board: &B,
    notation: Notation,
    text: &str,
) -> Result<Move, NotationError> {
    let syntax = parse_syntax(board.file_numerals(), notation, text)?;
    Ok(resolve_with(board, &syntax)?)
}

pub(crate) use format::FormatError;

use crate::vm::{Position, Rules};

/// Parse `text` in `notation` and resolve it to a legal move of `pos`.
///
/// ```
/// use xqspec::{parse_move, Notation};
/// use xqspec::Rules;
/// let rules = Rules::builtin("cxa-2020").unwrap();
/// let pos = rules.start_position();
/// let m = parse_move(&rules, &pos, Notation::Chinese, "炮二平五").unwrap();
/// assert_eq!(m.iccs(), "h2e2");
/// ```
pub fn parse_move(
    rules: &Rules,
    pos: &Position,
    notation: Notation,
    text: &str,
) -> Result<Move, NotationError> {
    let kinds = KindMap::new(rules);
    let board = RulesBoard::new(rules, pos, &kinds);
    parse_move_with(&board, notation, text)
}

/// Like [`parse_move`], with the notation detected from the text's shape.
pub fn parse_move_any(rules: &Rules, pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_move(rules, pos, detect(text), text)
}

/// The canonical text of the legal move `mv` of `pos` in `notation` and `style`.
///
/// ```
/// use xqspec::Move;
/// use xqspec::{format_move, Notation, Style};
/// use xqspec::Rules;
/// let rules = Rules::builtin("cxa-2020").unwrap();
/// let pos = rules.start_position();
/// let m = Move::parse_iccs("h2e2").unwrap();
/// assert_eq!(format_move(&rules, &pos, m, Notation::Wxf, Style::default()).unwrap(), "C2.5");
/// ```
pub fn format_move(
    rules: &Rules,
    pos: &Position,
    mv: Move,
    notation: Notation,
    style: Style,
) -> Result<String, FormatError> {
    let kinds = KindMap::new(rules);
    let board = RulesBoard::new(rules, pos, &kinds);
    format_with(&board, mv, notation, style)
}

/// The notation ids of the conformance protocol, each naming a notation and
/// the style `format_move` writes in it. `parse_move` under any id of a
/// notation reads every spelling of that notation.
pub(crate) const NOTATION_IDS: [&str; 10] = [
    "iccs",
    "iccs-upper",
    "wxf",
    "wxf-fullwidth",
    "chinese",
    "chinese-fullwidth",
    "chinese-traditional",
    "chinese-traditional-fullwidth",
    "chinese-abbreviated",
    "chinese-abbreviated-fullwidth",
];

/// The notation and style of a protocol notation id (`conformance/vocabulary.yaml`'s `notations`).
pub fn notation_by_id(id: &str) -> Option<(Notation, Style)> {
    if !NOTATION_IDS.contains(&id) {
        return None;
    }
    let (base, rest) = match id.split_once('-') {
        Some(("chinese", rest)) if rest.starts_with("abbreviated") => (
            "chinese-abbreviated",
            rest.trim_start_matches("abbreviated")
                .trim_start_matches('-'),
        ),
        Some((b, rest)) => (b, rest),
        None => (id, ""),
    };
    let notation = Notation::from_name(base)?;
    let style = Style::from_name(&rest.replace('-', "+"))?;
    Some((notation, style))
}

codes! {
    /// What went wrong reading or writing a move or replaying a game record; the codes are
    /// stable snake_case names (messages and tests use them).
    pub enum ErrorKind {
        /// The game's text is not valid PGN.
        Pgn => "pgn",
        /// The `FEN` tag does not give a valid position.
        Fen => "fen",
        /// The move text does not parse.
        Syntax => "syntax",
        /// No piece of the side to move fits the piece-and-file (or tandem) part.
        NoSuchPiece => "no_such_piece",
        /// The pieces named have no legal move reading as the text.
        NoLegalMove => "no_legal_move",
        /// More than one legal move reads as the text.
        Ambiguous => "ambiguous",
        /// The move is not legal in the position.
        IllegalMove => "illegal_move",
        /// No piece on the move's starting point.
        NoPiece => "no_piece",
        /// The rule set does not say how records are written (no `notation.*` clauses).
        NoRecordForms => "no_record_forms",
    }
}

codes! {
    /// The refusals of the notation queries (`parse_move`, `format_move`) and of the
    /// proposed `replay_pgn`; the codes are the protocol's reject kinds
    /// (`conformance/vocabulary.yaml`).
    pub enum RejectKind {
        /// A game record that is not valid PGN.
        PgnSyntax => "pgn.syntax",
        /// A `FEN` tag that does not give a valid position.
        Fen => "fen",
        /// Move text that does not parse in the notation.
        NotationSyntax => "notation.syntax",
        /// Move text that parses but names no legal move.
        NotationNoMatch => "notation.no_match",
        /// Move text that names more than one legal move.
        NotationAmbiguous => "notation.ambiguous",
        /// A move that is not canonical ICCS text.
        MoveSyntax => "move.syntax",
        /// A move that is not legal in the position.
        MoveIllegal => "move.illegal",
        /// An unknown notation id, or a rule set that does not say how records are written.
        Unsupported => "unsupported",
    }
}

/// A refusal in protocol terms: a reject kind from the suite's vocabulary and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reject {
    /// What is refused.
    pub kind: RejectKind,
    /// What is wrong, in words.
    pub(crate) message: String,
}

impl NotationError {
    /// The suite's reject kind for this error.
    pub fn reject_kind(&self) -> RejectKind {
        match self {
            NotationError::Syntax(_) => RejectKind::NotationSyntax,
            NotationError::Resolve(ResolveError::Ambiguous { .. }) => RejectKind::NotationAmbiguous,
            NotationError::Resolve(_) => RejectKind::NotationNoMatch,
        }
    }
}

/// The notation and style a query names by its protocol id, or its refusal as unsupported.
fn notation_asked(notation_id: &str) -> Result<(Notation, Style), Reject> {
    notation_by_id(notation_id).ok_or_else(|| Reject {
        kind: RejectKind::Unsupported,
        message: format!("unknown notation `{notation_id}`"),
    })
}

/// The move a notation query asks about: one to read (`parse_move`: the text as written)
/// or to write (`format_move`: canonical ICCS).
#[derive(Clone, Copy, Debug)]
pub(crate) enum NotationAsk<'q> {
    /// `parse_move`: the move as written (`炮二平五`).
    Parse(&'q str),
    /// `format_move`: the move in canonical ICCS.
    Format(&'q str),
}

/// The `parse_move` and `format_move` queries in the notation named by `notation_id`: the
/// ICCS text of the move a text denotes, or the canonical text of an ICCS move.
pub(crate) fn answer_notation(
    rules: &Rules,
    pos: &Position,
    notation_id: &str,
    ask: NotationAsk<'_>,
) -> Result<String, Reject> {
    let (notation, style) = notation_asked(notation_id)?;
    match ask {
        NotationAsk::Parse(text) => parse_move(rules, pos, notation, text)
            .map(|m| m.iccs())
            .map_err(|e| Reject {
                kind: e.reject_kind(),
                message: e.to_string(),
            }),
        NotationAsk::Format(mv) => {
            let m = Move::parse_iccs(mv).ok_or_else(|| Reject {
                kind: RejectKind::MoveSyntax,
                message: format!("`{mv}` is not an ICCS move such as h2e2"),
            })?;
            format_move(rules, pos, m, notation, style).map_err(|e| match e {
                // The rule set says nothing of how records are written (no notation.* clauses).
                FormatError::NoRecordForms { .. } => Reject {
                    kind: RejectKind::Unsupported,
                    message: e.to_string(),
                },
                _ => Reject {
                    kind: RejectKind::MoveIllegal,
                    message: e.to_string(),
                },
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_id_names_a_notation_and_style() {
        for id in NOTATION_IDS {
            assert!(notation_by_id(id).is_some(), "{id}");
        }
        assert_eq!(
            notation_by_id("chinese"),
            Some((Notation::Chinese, Style::default()))
        );
        let (n, s) = notation_by_id("chinese-abbreviated-fullwidth").unwrap();
        assert_eq!(
            (n, s.width, s.script),
            (
                Notation::ChineseAbbreviated,
                Width::Full,
                Script::Simplified
            )
        );
        let (n, s) = notation_by_id("chinese-traditional-fullwidth").unwrap();
        assert_eq!(
            (n, s.width, s.script),
            (Notation::Chinese, Width::Full, Script::Traditional)
        );
        assert_eq!(notation_by_id("iccs-upper").unwrap().1.case, Case::Upper);
        assert_eq!(notation_by_id("klingon"), None);
        assert_eq!(notation_by_id("wxf-traditional"), None);
    }
}
