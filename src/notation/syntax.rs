//! Parsing move text into syntax trees ([`MoveSyntax`]) with the pest grammars
//! in `grammar/`. Nothing here looks at a board: a move that parses may still
//! fail to resolve.

use std::fmt;

use pest::Parser as _;
use pest_derive::Parser;

use super::ast::{Action, MoveSyntax, MoveText, Origin, PieceKind, Tandem};
use super::Notation;
use crate::board::{Move, Side, Square};
use crate::vm::record::{half_width, FileNumerals};

/// The Chinese grammar (full and abbreviated forms): `grammar/chinese.pest`.
#[allow(
    missing_docs,
    reason = "pest derives `Rule`, one variant per rule of the grammar, which documents them"
)]
pub mod chinese {
    use super::Parser;
    /// Parser for Chinese notation.
    #[derive(Parser)]
    #[grammar = "grammar/chinese.pest"]
    #[grammar = "grammar/base.pest"]
    pub struct ChineseParser;
}

/// The WXF grammar: `grammar/wxf.pest`.
pub(crate) mod wxf {
    use super::Parser;
    /// Parser for WXF notation.
    #[derive(Parser)]
    #[grammar = "grammar/wxf.pest"]
    #[grammar = "grammar/base.pest"]
    pub(crate) struct WxfParser;
}

/// The ICCS grammar: `grammar/iccs.pest`.
pub(crate) mod iccs {
    use super::Parser;
    /// Parser for ICCS coordinates.
    #[derive(Parser)]
    #[grammar = "grammar/iccs.pest"]
    #[grammar = "grammar/base.pest"]
    pub(crate) struct IccsParser;
}

use chinese::ChineseParser;
use iccs::IccsParser;
use wxf::WxfParser;

/// Move text that does not parse in the notation it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// The notation the text was read as.
    pub(crate) notation: Notation,
    /// The text, as given.
    pub text: String,
    /// 1-based line of the failure within the text (1 for a single move).
    pub line: usize,
    /// 1-based column, in characters, of the failure within the text.
    pub column: usize,
    /// What the grammar expected there.
    pub expected: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot parse {:?} as {} notation: column {}: expected {}",
            self.text,
            self.notation.name(),
            self.column,
            self.expected
        )
    }
}

impl std::error::Error for SyntaxError {}

fn syntax_error<R: pest::RuleType>(
    notation: Notation,
    text: &str,
    e: pest::error::Error<R>,
) -> SyntaxError {
    let (line, column) = match e.line_col {
        pest::error::LineColLocation::Pos(p) => p,
        pest::error::LineColLocation::Span(p, _) => p,
    };
    let expected = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
            let names: Vec<String> = positives
                .iter()
                .map(|r| describe_rule(&format!("{r:?}")))
                .collect();
            let mut names = names;
            names.sort();
            names.dedup();
            names.join(" or ")
        }
        pest::error::ErrorVariant::ParsingError { .. } => "end of move".to_string(),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    SyntaxError {
        notation,
        text: text.to_string(),
        line,
        column,
        expected,
    }
}

/// Readable names for grammar rules in error messages.
fn describe_rule(rule: &str) -> String {
    let r = rule.trim_start_matches("wxf_").trim_start_matches("iccs_");
    match r {
        "EOI" => "end of move".into(),
        "piece" => "a piece".into(),
        "file" => "a file".into(),
        "number" => "a number".into(),
        "action" => "an action (进 退 平 or + - .)".into(),
        "tandem" => "a tandem designator".into(),
        "square" => "a point such as h2".into(),
        "rank" => "a rank digit 0-9".into(),
        other => other.replace('_', " "),
    }
}

fn empty_error(notation: Notation, text: &str) -> SyntaxError {
    SyntaxError {
        notation,
        text: text.to_string(),
        line: 1,
        column: 1,
        expected: "a move".into(),
    }
}

/// Value 1–9 of a file numeral of `board.file_numbering` and the side whose numeral it is
/// (0 for a character the edition's numerals do not have: it resolves to no move).
fn numeral_value(numerals: &FileNumerals, s: &str) -> (u8, Option<Side>) {
    numerals.value(s).unwrap_or((0, None))
}

/// Value 1–9 of a WXF digit of either width (WXF numbers files with digits for both sides).
fn wxf_digit(s: &str) -> u8 {
    s.chars()
        .next()
        .and_then(|c| half_width(c).to_digit(10))
        .map_or(0, |d| d as u8)
}

/// The kind a piece character of Chinese notation names (either side's character).
fn chinese_piece(rule: chinese::Rule) -> Option<PieceKind> {
    use chinese::Rule as R;
    match rule {
        R::general => Some(PieceKind::General),
        R::advisor => Some(PieceKind::Advisor),
        R::elephant => Some(PieceKind::Elephant),
        R::horse => Some(PieceKind::Horse),
        R::chariot => Some(PieceKind::Chariot),
        R::cannon => Some(PieceKind::Cannon),
        R::soldier => Some(PieceKind::Soldier),
        _ => None,
    }
}

/// The side whose piece a character of one side only names (帥 Red's, 將 Black's …): the
/// character says nothing more.
fn chinese_side_mark(rule: chinese::Rule) -> Option<Side> {
    use chinese::Rule as R;
    match rule {
        R::general_red
        | R::advisor_red
        | R::elephant_red
        | R::horse_red
        | R::chariot_red
        | R::soldier_red => Some(Side::Red),
        R::general_black | R::elephant_black | R::cannon_black | R::soldier_black => {
            Some(Side::Black)
        }
        _ => None,
    }
}

/// What a Chinese or WXF move says, node by node, before it is a [`MoveText`].
struct Parts {
    /// The origin is named by a tandem word (`前炮`), not by a file.
    tandem_form: bool,
    piece: Option<PieceKind>,
    file: Option<u8>,
    tandem: Option<Tandem>,
    action: Action,
    number: u8,
}

impl Default for Parts {
    /// Nothing said yet: a file form that advances.
    fn default() -> Parts {
        Parts {
            tandem_form: false,
            piece: None,
            file: None,
            tandem: None,
            action: Action::Advance,
            number: 0,
        }
    }
}

impl Parts {
    fn into_move(self, side_hint: Option<Side>) -> MoveText {
        let origin = if self.tandem_form {
            Origin::Tandem {
                position: self.tandem.unwrap_or(Tandem::Front),
                file: self.file,
            }
        } else {
            Origin::File(self.file.unwrap_or(0))
        };
        MoveText {
            piece: self.piece,
            origin,
            action: self.action,
            number: self.number,
            side_hint,
        }
    }
}

/// Parse one move in Chinese notation (full or abbreviated form), its numerals read with
/// the edition's `numerals`.
pub(crate) fn parse_chinese(numerals: &FileNumerals, text: &str) -> Result<MoveText, SyntaxError> {
    use chinese::Rule as R;
    let t = text.trim();
    if t.is_empty() {
        return Err(empty_error(Notation::Chinese, text));
    }
    let pairs = ChineseParser::parse(R::chinese_move, t)
        .map_err(|e| syntax_error(Notation::Chinese, t, e))?;
    let mut m = Parts::default();
    let mut side_hint = None;
    // One pass over every node of the tree, in text order.
    for p in pairs.flatten() {
        let rule = p.as_rule();
        if let Some(k) = chinese_piece(rule) {
            m.piece = Some(k);
            continue;
        }
        if let Some(s) = chinese_side_mark(rule) {
            side_hint = side_hint.or(Some(s));
            continue;
        }
        match rule {
            R::tandem_form => m.tandem_form = true,
            R::file => {
                let (v, s) = numeral_value(numerals, p.as_str());
                m.file = Some(v);
                side_hint = side_hint.or(s);
            }
            R::number => {
                let (v, s) = numeral_value(numerals, p.as_str());
                m.number = v;
                side_hint = side_hint.or(s);
            }
            R::front => m.tandem = Some(Tandem::Front),
            R::middle => m.tandem = Some(Tandem::Middle),
            R::rear => m.tandem = Some(Tandem::Rear),
            R::nth => m.tandem = Some(Tandem::Nth(numeral_value(numerals, p.as_str()).0)),
            R::advance => m.action = Action::Advance,
            R::retreat => m.action = Action::Retreat,
            R::traverse => m.action = Action::Traverse,
            _ => {}
        }
    }
    Ok(m.into_move(side_hint))
}

/// Parse one move in WXF notation.
pub(crate) fn parse_wxf(text: &str) -> Result<MoveText, SyntaxError> {
    use wxf::Rule as R;
    let t = text.trim();
    if t.is_empty() {
        return Err(empty_error(Notation::Wxf, text));
    }
    let pairs = WxfParser::parse(R::wxf_move, t).map_err(|e| syntax_error(Notation::Wxf, t, e))?;
    // A WXF move names its origin by a tandem word unless it is plain (`C2.5`).
    let mut m = Parts {
        tandem_form: true,
        ..Parts::default()
    };
    // One pass over every node of the tree, in text order.
    for p in pairs.flatten() {
        match p.as_rule() {
            R::wxf_plain => m.tandem_form = false,
            R::wxf_general => m.piece = Some(PieceKind::General),
            R::wxf_advisor => m.piece = Some(PieceKind::Advisor),
            R::wxf_elephant => m.piece = Some(PieceKind::Elephant),
            R::wxf_horse => m.piece = Some(PieceKind::Horse),
            R::wxf_chariot => m.piece = Some(PieceKind::Chariot),
            R::wxf_cannon => m.piece = Some(PieceKind::Cannon),
            R::wxf_soldier => m.piece = Some(PieceKind::Soldier),
            R::wxf_file => m.file = Some(wxf_digit(p.as_str())),
            R::wxf_number => m.number = wxf_digit(p.as_str()),
            R::wxf_front => m.tandem = Some(Tandem::Front),
            R::wxf_rear => m.tandem = Some(Tandem::Rear),
            R::wxf_nth => m.tandem = Some(Tandem::Nth(wxf_digit(p.as_str()))),
            R::wxf_advance => m.action = Action::Advance,
            R::wxf_retreat => m.action = Action::Retreat,
            R::wxf_traverse => m.action = Action::Traverse,
            _ => {}
        }
    }
    Ok(m.into_move(None))
}

/// Parse one move in ICCS coordinates (`h2e2`, `H2-E2`).
pub fn parse_iccs(text: &str) -> Result<Move, SyntaxError> {
    use iccs::Rule as R;
    let t = text.trim();
    if t.is_empty() {
        return Err(empty_error(Notation::Iccs, text));
    }
    let pairs =
        IccsParser::parse(R::iccs_move, t).map_err(|e| syntax_error(Notation::Iccs, t, e))?;
    let mut squares = pairs
        .flatten()
        .filter(|p| p.as_rule() == R::iccs_square)
        .map(|p| Square::parse(p.as_str()).expect("grammar admits only board points"));
    let from = squares.next().expect("two squares");
    let to = squares.next().expect("two squares");
    Ok(Move::new(from, to))
}

/// Guess the notation of one move from its shape: ICCS when it is four
/// letters-and-digits naming two points, WXF when it starts with a WXF letter,
/// a sign or a digit, Chinese otherwise.
pub fn detect(text: &str) -> Notation {
    let t = text.trim();
    let b = t.as_bytes();
    let is_file = |c: u8| (b'a'..=b'i').contains(&c.to_ascii_lowercase());
    if (b.len() == 4 || (b.len() == 5 && b[2] == b'-'))
        && is_file(b[0])
        && b[1].is_ascii_digit()
        && is_file(b[b.len() - 2])
        && b[b.len() - 1].is_ascii_digit()
    {
        return Notation::Iccs;
    }
    match t.chars().next() {
        Some(c) if c.is_ascii_alphanumeric() || "+-=.".contains(c) => Notation::Wxf,
        Some(c) if ('！'..='～').contains(&c) => Notation::Wxf,
        _ => Notation::Chinese,
    }
}

/// Parse one move in the given notation, Chinese numerals read with the edition's file
/// `numerals` ([`crate::vm::Rules::file_numerals`]). [`Notation::ChineseAbbreviated`]
/// uses the Chinese grammar, which accepts both forms.
pub fn parse_syntax(
    numerals: &FileNumerals,
    notation: Notation,
    text: &str,
) -> Result<MoveSyntax, SyntaxError> {
    match notation {
        Notation::Chinese | Notation::ChineseAbbreviated => {
            parse_chinese(numerals, text).map(MoveSyntax::Described)
        }
        Notation::Wxf => parse_wxf(text).map(MoveSyntax::Described),
        Notation::Iccs => parse_iccs(text).map(MoveSyntax::Coordinates),
    }
}
