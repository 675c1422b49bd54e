//! Reading PGN game records (`grammar/pgn.pest`).
//!
//! A file is first cut into chunks at the start of each tag section, so a
//! malformed game costs only itself; each chunk is then parsed with the pest
//! grammar. A tag pair that ends a line starts a game whatever text stands before it on
//! the line (junk bytes, a `{` never closed): that text is cut off as a chunk of its
//! own (`Game::before_tag`) or, when a comment or variation is open or it reads as more
//! moves of the game before, ends that game. Move tokens keep their byte offset; line and
//! column are computed only when an error is reported.

use std::fmt;

use pest::iterators::Pair;
use pest::Parser as _;

use super::Notation;

/// The PGN grammar: `grammar/base.pest` + `grammar/pgn.pest`.
pub(crate) mod grammar {
    use pest_derive::Parser;
    /// Parser for PGN records.
    #[derive(Parser)]
    #[grammar = "grammar/pgn.pest"]
    #[grammar = "grammar/base.pest"]
    pub(crate) struct PgnParser;
}

use grammar::{PgnParser, Rule};

/// One move token of a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveToken<'a> {
    /// The text, as written.
    pub text: &'a str,
    /// Byte offset in the whole file.
    pub(crate) offset: usize,
}

/// A comment, and the number of main-line moves before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Comment<'a> {
    pub(crate) after_ply: usize,
    pub text: &'a str,
}

/// A variation `( … )`, kept as its raw text, and the number of moves of
/// its line before it (it replaces the last of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Variation<'a> {
    pub(crate) after_ply: usize,
    /// The variation's text, without its parentheses.
    pub text: &'a str,
    /// Byte offset of the `(` in the whole file.
    pub(crate) offset: usize,
}

/// The moves and nested variations of one variation's text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct VariationItems<'a> {
    pub moves: Vec<MoveToken<'a>>,
    pub(crate) variations: Vec<Variation<'a>>,
    pub(crate) numbers: Vec<MoveNumber<'a>>,
}

/// A move number as written (`12.`, `12...`), and the number of moves of its line before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveNumber<'a> {
    /// The moves of its line before it: it numbers the move at this index.
    pub(crate) before_ply: usize,
    pub(crate) text: &'a str,
    /// Byte offset in the whole file.
    pub(crate) offset: usize,
}

/// A tag pair, its value unescaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tag<'a> {
    pub(crate) name: &'a str,
    pub(crate) value: String,
    /// Byte offset of its `[` in the whole file.
    pub(crate) offset: usize,
}

/// Read the raw text of a variation (`( … )`, found at byte `offset` of the
/// file) into its moves and nested variations; `None` if it is not one.
pub(crate) fn variation_items(raw: &str, offset: usize) -> Option<VariationItems<'_>> {
    let pair = PgnParser::parse(Rule::variation, raw).ok()?.next()?;
    if pair.as_str().len() != raw.len() {
        return None;
    }
    let mut items = VariationItems::default();
    for e in pair.into_inner() {
        // Comments of a variation are not kept.
        let _ = items.push(e, offset);
    }
    Some(items)
}

impl<'a> VariationItems<'a> {
    /// Keeps a move, a move number or a variation of a line whose text starts at byte `base`
    /// of the file; gives any other item back.
    fn push(&mut self, e: Pair<'a, Rule>, base: usize) -> Result<(), Pair<'a, Rule>> {
        let (text, offset) = (e.as_str(), base + e.as_span().start());
        match e.as_rule() {
            Rule::move_token => self.moves.push(MoveToken { text, offset }),
            Rule::move_number => self.numbers.push(MoveNumber {
                before_ply: self.moves.len(),
                text,
                offset,
            }),
            Rule::variation => self.variations.push(Variation {
                after_ply: self.moves.len(),
                text,
                offset,
            }),
            _ => return Err(e),
        }
        Ok(())
    }
}

/// One game of a record file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Game<'a> {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// Byte offset where the game starts.
    pub(crate) offset: usize,
    /// Byte offset where its text ends (where the next game or chunk starts, or the end).
    pub(crate) end: usize,
    /// Tag pairs in file order, values unescaped.
    pub(crate) tags: Vec<Tag<'a>>,
    /// Main-line moves.
    pub moves: Vec<MoveToken<'a>>,
    /// Main-line move numbers.
    pub(crate) numbers: Vec<MoveNumber<'a>>,
    pub(crate) comments: Vec<Comment<'a>>,
    /// Variations, in file order.
    pub(crate) variations: Vec<Variation<'a>>,
    /// The result token, if any.
    pub result: Option<&'a str>,
    /// Byte offset of the result token.
    pub(crate) result_offset: usize,
    /// Set when the game's text does not parse; `moves` is then empty.
    pub(crate) error: Option<PgnError>,
    /// The text was cut off before a tag pair on its line (it is no part of the game the
    /// tag starts, nor of the one before).
    pub(crate) before_tag: bool,
}

impl Game<'_> {
    /// The tag pairs as `(name, value)`, in file order, values unescaped.
    pub fn tag_pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|t| (t.name, t.value.as_str()))
    }

    /// The value of a tag (case-insensitive name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tag_pair(name).map(|t| t.value.as_str())
    }

    /// Every tag pair, name and value (unescaped), in file order.
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tags.iter().map(|t| (t.name, t.value.as_str()))
    }

    /// The main line's comments (`{…}`, `;…`), each with the number of moves before it and
    /// its text, in file order.
    pub fn comments(&self) -> impl Iterator<Item = (usize, &str)> {
        self.comments.iter().map(|c| (c.after_ply, c.text))
    }

    /// The tag pair of a name (case-insensitive), the first when it repeats.
    pub(crate) fn tag_pair(&self, name: &str) -> Option<&Tag<'_>> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The notation named by the `Format` tag, when it names one.
    pub(crate) fn format(&self) -> Option<Notation> {
        let v = self.tag("Format")?;
        let v = v.to_ascii_lowercase();
        if let Some(n) = Notation::from_name(&v) {
            return Some(n);
        }
        if v.contains("iccs") || v.contains("coord") || v.contains("uci") {
            Some(Notation::Iccs)
        } else if v.contains("wxf") {
            Some(Notation::Wxf)
        } else if v.contains("abbrev") {
            Some(Notation::ChineseAbbreviated)
        } else if v.contains("chinese") || v.contains("中文") {
            Some(Notation::Chinese)
        } else {
            None
        }
    }
}

/// A PGN text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What went wrong.
    pub(crate) message: String,
    /// Where the variation the message names opened (line, column), when it names one.
    pub(crate) opened: Option<(usize, usize)>,
}

impl PgnError {
    /// The error told `lines` lines further down (a piece cut from a longer file).
    pub(crate) fn shift(&mut self, lines: usize) {
        self.line += lines;
        if let Some((line, column)) = self.opened {
            self.opened = Some((line + lines, column));
            self.message = unclosed_variation(line + lines, column);
        }
    }

    /// What went wrong, without the place.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for PgnError {}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// The deepest nesting of variations `( ( …` a game may have; deeper text is refused with
/// the place of the first `(` beyond it (the game's other variations are never read).
pub(crate) const MAX_VARIATION_DEPTH: usize = 64;

/// Where the whole tag pair `[Name "value"]` that ends `t` (a trimmed line) starts: the
/// first `[` from which the rest of the line reads as one (0: the line is a tag pair).
/// Linear in the line: from each `[` only the blanks and the name after it are read, and
/// these never hold another `[`.
fn tag_pair_start(t: &str) -> Option<usize> {
    let inner = t.strip_suffix(']')?.trim_end();
    // The value's closing quote.
    let close = inner
        .len()
        .checked_sub(1)
        .filter(|_| inner.ends_with('"'))?;
    let mut from = 0;
    while let Some(k) = t[from..].find('[') {
        let p = from + k;
        if p >= close {
            break;
        }
        let r = t[p + 1..].trim_start();
        let name_len = r
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if name_len > 0 {
            let after = r[name_len..].trim_start();
            if after.starts_with('"') && t.len() - after.len() < close {
                return Some(p);
            }
        }
        from = p + 1;
    }
    None
}

/// Whether text holds characters no record holds: control characters other than blanks
/// and line breaks, or U+FFFD (bytes that no encoding read).
pub(crate) fn holds_binary(text: &str) -> bool {
    text.chars()
        .any(|c| c == '\u{FFFD}' || (c.is_control() && !c.is_whitespace()))
}

/// Whether a trimmed line begins with the number of a game's first move (`1.`, `1...`).
fn starts_with_move_one(t: &str) -> bool {
    let Some(r) = t.strip_prefix('1') else {
        return false;
    };
    let r = r.trim_start_matches(['.', '…', '。', '．']);
    r.len() < t.len() - 1 && !r.starts_with(|c: char| c.is_ascii_digit())
}

/// What a line of movetext holds outside comments: whether it has any token, and
/// whether its last token, at the depth of the main line, is a result.
struct LineScan {
    tokens: bool,
    ends_with_result: bool,
}

/// Scans one line of movetext, updating whether a brace comment is open and the depth of
/// variations.
fn scan_line(line: &str, comment: &mut bool, parens: &mut usize) -> LineScan {
    let bytes = line.as_bytes();
    let mut tokens = false;
    let mut last: Option<(usize, usize, usize)> = None; // start, end, depth
    let mut start: Option<usize> = None;
    let mut i = 0;
    let close = |start: &mut Option<usize>,
                 end: usize,
                 depth: usize,
                 last: &mut Option<(usize, usize, usize)>| {
        if let Some(s) = start.take() {
            *last = Some((s, end, depth));
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        if *comment {
            if b == b'}' {
                *comment = false;
            }
            i += 1;
            continue;
        }
        match b {
            b'{' | b'(' | b')' | b';' | b' ' | b'\t' | b'\r' | b'\n' => {
                close(&mut start, i, *parens, &mut last);
                match b {
                    b'{' => *comment = true,
                    b'(' => *parens += 1,
                    b')' => *parens = parens.saturating_sub(1),
                    b';' => break,
                    _ => {}
                }
            }
            _ => {
                tokens = true;
                start.get_or_insert(i);
            }
        }
        i += 1;
    }
    close(&mut start, i.min(bytes.len()), *parens, &mut last);
    let ends_with_result = last.is_some_and(|(s, e, depth)| {
        depth == 0 && *parens == 0 && (&line[s..e] == "*" || result_of_token(&line[s..e]).is_some())
    });
    LineScan {
        tokens,
        ends_with_result,
    }
}

/// Where a chunk of the file starts, and whether it is the text before a tag pair on its
/// line, cut off from the game the tag starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Start {
    at: usize,
    before_tag: bool,
}

/// Where games start, so that a malformed game costs only itself:
/// - a tag section that follows movetext, or that repeats a tag name of the current
///   section (a line starting with `[`, outside brace comments; inside a comment that was
///   never closed, a whole tag pair `[Name "value"]` on its own line);
/// - a tag pair that ends a line after other text (junk bytes, a `{` never closed): it
///   starts a game whatever stands before it. The text before it ends the game before
///   when a comment or variation is open there, or when it reads as more of that game's
///   moves (the game has moves and no result yet, and the text opens nothing it does not
///   close and holds no binary characters); else it is a chunk of its own, marked
///   `before_tag`, starting at its line;
/// - movetext after a game that ended with a result token on its line;
/// - movetext after a blank line that starts with move number 1, after moves.
fn chunk_starts(text: &str) -> Vec<Start> {
    let mut starts = vec![Start {
        at: 0,
        before_tag: false,
    }];
    let mut seen: Vec<&str> = Vec::new();
    let mut moves_seen = false;
    let mut comment = false;
    let mut parens = 0usize;
    let mut ended = false;
    let mut blank_before = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let t = line.trim_start_matches(['\u{feff}', ' ', '\t', '\u{3000}']);
        let trimmed = t.trim();
        if trimmed.is_empty() {
            blank_before = true;
            continue;
        }
        // (Offsets in `t`: `trimmed` may have lost more blanks at its start.)
        let tag_at = tag_pair_start(trimmed).map(|p| p + t.len() - t.trim_start().len());
        let name_at = |p: usize| {
            t[p + 1..]
                .trim_start()
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or("")
        };
        if t.starts_with('[') && tag_at.is_none_or(|p| p == 0) && (!comment || tag_at == Some(0)) {
            let name = name_at(0);
            if (moves_seen || comment || seen.contains(&name)) && start > 0 {
                starts.push(Start {
                    at: start,
                    before_tag: false,
                });
                seen.clear();
                (moves_seen, comment, parens, ended) = (false, false, 0, false);
            }
            seen.push(name);
            blank_before = false;
            continue;
        }
        if let Some(p) = tag_at.filter(|&p| p > 0) {
            let before = &t[..p];
            let open = comment || parens > 0;
            let (mut c, mut v) = (comment, parens);
            scan_line(before, &mut c, &mut v);
            let continues = open || (moves_seen && !ended && !c && v == 0 && !holds_binary(before));
            if !continues {
                match starts.last_mut() {
                    Some(s) if s.at == start => s.before_tag = true,
                    _ => starts.push(Start {
                        at: start,
                        before_tag: true,
                    }),
                }
            }
            starts.push(Start {
                at: start + (line.len() - t.len()) + p,
                before_tag: false,
            });
            seen.clear();
            seen.push(name_at(p));
            (moves_seen, comment, parens, ended) = (false, false, 0, false);
            blank_before = false;
            continue;
        }
        let at_main_line = !comment && parens == 0;
        let new_game = at_main_line
            && moves_seen
            && (ended || (blank_before && starts_with_move_one(trimmed)));
        let scan = scan_line(line, &mut comment, &mut parens);
        if new_game && scan.tokens && start > 0 {
            starts.push(Start {
                at: start,
                before_tag: false,
            });
            seen.clear();
            ended = false;
        }
        if scan.tokens {
            moves_seen = true;
            ended = scan.ends_with_result;
        }
        blank_before = false;
    }
    starts
}

/// A structural fault: its byte offset in the chunk, the message, and where the variation
/// it names opened (line, column), if it names one.
type StructureFault = (usize, String, Option<(usize, usize)>);

/// The first structural fault of a chunk, found without the grammar: a brace comment
/// never closed, a variation never closed or nested deeper than
/// [`MAX_VARIATION_DEPTH`], a `)` or `}` that closes nothing. Linear in the text (the
/// grammar is never given text nested deeper than the limit). Returns the byte offset in
/// the chunk and the message; `place` gives the file's line and column of a chunk offset.
fn structure_fault(chunk: &str, place: &dyn Fn(usize) -> (usize, usize)) -> Option<StructureFault> {
    let mut comment: Option<usize> = None;
    let mut open: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in chunk.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if comment.is_none()
            && line
                .trim_start_matches(['\u{feff}', ' ', '\t', '\u{3000}'])
                .starts_with('[')
        {
            continue;
        }
        for (i, b) in line.bytes().enumerate() {
            if comment.is_some() {
                if b == b'}' {
                    comment = None;
                }
                continue;
            }
            match b {
                b'{' => comment = Some(start + i),
                b'}' => return Some((start + i, "`}` closes no comment".into(), None)),
                b'(' => {
                    open.push(start + i);
                    if open.len() > MAX_VARIATION_DEPTH {
                        return Some((
                            start + i,
                            format!("variations nested deeper than {MAX_VARIATION_DEPTH} levels"),
                            None,
                        ));
                    }
                }
                b')' if open.pop().is_none() => {
                    return Some((start + i, "`)` closes no variation".into(), None));
                }
                b';' => break,
                _ => {}
            }
        }
    }
    if let Some(at) = comment {
        return Some((at, "comment never closed".into(), None));
    }
    // Reported where the text ends inside it, naming where it opened.
    open.first().map(|&at| {
        let (line, column) = place(at);
        let end = chunk.trim_end().char_indices().last().map_or(0, |(i, _)| i);
        (end, unclosed_variation(line, column), Some((line, column)))
    })
}

/// The message of a variation never closed, naming the line and column where it opened.
pub(crate) fn unclosed_variation(line: usize, column: usize) -> String {
    format!("variation opened at line {line}, column {column} never closed")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Parse a whole PGN text into games. Never fails: a chunk that does not
/// parse becomes a game carrying its [`PgnError`].
pub fn parse(text: &str) -> Vec<Game<'_>> {
    let mut games = Vec::new();
    let starts = chunk_starts(text);
    for (
        i,
        &Start {
            at: start,
            before_tag,
        },
    ) in starts.iter().enumerate()
    {
        let end = starts.get(i + 1).map_or(text.len(), |s| s.at);
        let chunk = &text[start..end];
        if chunk
            .trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .is_empty()
        {
            continue;
        }
        let parsed = match structure_fault(chunk, &|at| line_col(text, start + at)) {
            Some(fault) => Err(fault),
            None => PgnParser::parse(Rule::pgn_file, chunk).map_err(|e| {
                let (pos, message) = pest_fault(&e);
                (pos, message, None)
            }),
        };
        match parsed {
            Ok(mut pairs) => {
                let file = pairs.next().expect("pgn_file");
                for g in file.into_inner().filter(|p| p.as_rule() == Rule::game) {
                    let mut game = read_game(g, start);
                    game.number = games.len() + 1;
                    game.before_tag = before_tag;
                    games.push(game);
                }
            }
            Err((pos, message, opened)) => {
                let (line, column) = line_col(text, start + pos);
                let mut game = Game {
                    number: games.len() + 1,
                    offset: start,
                    before_tag,
                    ..Game::default()
                };
                // Keep whatever tags precede the failure, for the report.
                let mut at = start;
                for line in chunk.get(..pos).unwrap_or(chunk).split_inclusive('\n') {
                    let lead = line.len() - line.trim_start().len();
                    if let Ok(mut p) = PgnParser::parse(Rule::tag, line.trim()) {
                        game.tags.push(read_tag(p.next().expect("tag"), at + lead));
                    }
                    at += line.len();
                }
                game.error = Some(PgnError {
                    line,
                    column,
                    message,
                    opened,
                });
                games.push(game);
            }
        }
    }
    for i in 0..games.len() {
        games[i].end = games.get(i + 1).map_or(text.len(), |g| g.offset);
    }
    games
}

/// The place and message of a grammar error.
fn pest_fault(e: &pest::error::Error<Rule>) -> (usize, String) {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((p, _)) => p,
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<String> = positives
                .iter()
                .map(|r| format!("{r:?}").replace('_', " "))
                .collect();
            names.dedup();
            if names.is_empty() {
                "unexpected text".to_string()
            } else {
                format!("expected {}", names.join(" or "))
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    (pos, message)
}

/// A tag pair; `offset`: where it starts in the file.
fn read_tag(p: Pair<'_, Rule>, offset: usize) -> Tag<'_> {
    let mut tag = Tag {
        name: "",
        value: String::new(),
        offset,
    };
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::tag_name => tag.name = q.as_str(),
            Rule::tag_value => {
                tag.value = unescape(q.into_inner().next().map_or("", |t| t.as_str()))
            }
            _ => {}
        }
    }
    tag
}

fn read_game(g: Pair<'_, Rule>, base: usize) -> Game<'_> {
    let mut game = Game {
        offset: base + g.as_span().start(),
        ..Game::default()
    };
    // The main line's moves, move numbers and variations.
    let mut line = VariationItems::default();
    for p in g.into_inner() {
        match p.as_rule() {
            Rule::tag => {
                let offset = base + p.as_span().start();
                game.tags.push(read_tag(p, offset));
            }
            Rule::movetext | Rule::movetext_nonempty => {
                for e in p.into_inner() {
                    let Err(e) = line.push(e, base) else {
                        continue;
                    };
                    match e.as_rule() {
                        Rule::comment | Rule::line_comment => game.comments.push(Comment {
                            after_ply: line.moves.len(),
                            text: e.into_inner().next().map_or("", |t| t.as_str()),
                        }),
                        Rule::result => {
                            game.result = Some(e.as_str());
                            game.result_offset = base + e.as_span().start();
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    game.moves = line.moves;
    game.numbers = line.numbers;
    game.variations = line.variations;
    game
}

/// The PGN result token of a result as answers write it (`red_wins` → `1-0`, `black_wins`
/// → `0-1`, `draw` → `1/2-1/2`), `*` for any other (a game not decided): the inverse of
/// [`result_of_token`].
pub fn token_of_result(result: &str) -> &'static str {
    ["1-0", "0-1", "1/2-1/2"]
        .into_iter()
        .find(|t| result_of_token(t) == Some(result))
        .unwrap_or("*")
}

/// The result a PGN result token records (`1-0` red wins, `0-1` black wins, `1/2-1/2` or
/// `½-½` a draw), as answers write it; `None` for `*` (unfinished) and anything else.
pub fn result_of_token(token: &str) -> Option<&'static str> {
    match token.trim() {
        "1-0" => Some("red_wins"),
        "0-1" => Some("black_wins"),
        "1/2-1/2" | "½-½" => Some("draw"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_tags_comments_variations() {
        let text = "[Event \"A \\\"quoted\\\" event\"]\n[Red \"X\"]\n\n1. h2e2 {centre cannon} h9g7 ; a line comment\n2. h0g2 (2. b0c2 b9c7) i9h9 1-0\n\n[Event \"B\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 *\n";
        let games = parse(text);
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("event"), Some("A \"quoted\" event"));
        let moves: Vec<&str> = g.moves.iter().map(|m| m.text).collect();
        assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(g.comments.len(), 2);
        assert_eq!(g.comments[0].after_ply, 1);
        assert_eq!(g.comments[0].text, "centre cannon");
        assert_eq!(g.variations.len(), 1);
        assert_eq!(g.variations[0].after_ply, 3);
        assert_eq!(g.result, Some("1-0"));
        assert_eq!(games[1].format(), Some(Notation::Wxf));
        assert_eq!(games[1].number, 2);
        assert_eq!(games[1].result, Some("*"));
        let (line, col) = line_col(text, games[1].moves[1].offset);
        assert_eq!((line, col), (10, 9));
    }

    #[test]
    fn games_without_moves_and_without_tags() {
        let text = "[Event \"empty\"]\n[Red \"A\"]\n\n[Event \"next\"]\n1.h2e2 h9g7 1-0 1.b0c2 0-1";
        let games = parse(text);
        assert_eq!(games.len(), 3, "{games:#?}");
        assert!(games[0].moves.is_empty());
        assert_eq!(games[1].moves.len(), 2);
        assert_eq!(games[2].moves.len(), 1);
        assert_eq!(games[2].result, Some("0-1"));
    }

    #[test]
    fn a_game_without_tags_or_result_after_another_is_its_own() {
        // After a blank line, move number 1 starts a new game.
        let games = parse("[Event \"A\"]\n1. h2e2 h9g7\n\n1. b0c2 b9c7\n");
        assert_eq!(games.len(), 2, "{games:#?}");
        assert_eq!((games[0].moves.len(), games[1].moves.len()), (2, 2));
        assert!(games[1].tags.is_empty());
        // A blank line inside a game does not split it; nor does a comment.
        let games = parse("[Event \"A\"]\n{intro}\n\n1. h2e2 h9g7\n\n2. b0c2 b9c7 *\n");
        assert_eq!(games.len(), 1, "{games:#?}");
        assert_eq!(games[0].moves.len(), 4);
    }

    #[test]
    fn nesting_is_bounded_and_refused_with_its_place() {
        let ok = format!(
            "1. h2e2 {}h9g7{} h9g7 *",
            "( ".repeat(MAX_VARIATION_DEPTH),
            " )".repeat(MAX_VARIATION_DEPTH)
        );
        assert!(parse(&ok)[0].error.is_none());
        let deep = format!(
            "[Event \"deep\"]\n1. h2e2 {}h9g7{} h9g7 *",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let games = parse(&deep);
        let e = games[0].error.as_ref().expect("refused");
        assert_eq!((e.line, e.column), (2, 9 + MAX_VARIATION_DEPTH));
        assert_eq!(e.message, "variations nested deeper than 64 levels");
    }

    #[test]
    fn move_number_versus_wxf_token() {
        let games = parse("1. 27.6 1...C2.5 2.炮二平五");
        let moves: Vec<&str> = games[0].moves.iter().map(|m| m.text).collect();
        assert_eq!(moves, ["27.6", "C2.5", "炮二平五"]);
    }

    #[test]
    fn a_tag_pair_ending_a_line_is_found_whatever_precedes_it() {
        assert_eq!(tag_pair_start("[Event \"a\"]"), Some(0));
        assert_eq!(tag_pair_start("[Event \"a\"] [Site \"b\"]"), Some(0));
        assert_eq!(tag_pair_start("junk[Event \"b\"]"), Some(4));
        assert_eq!(tag_pair_start("[x[ Event  \"b\" ]"), Some(2));
        assert_eq!(tag_pair_start("{see [Round \"3\"]"), Some(5));
        for no in [
            "1. h2e2 h9g7",
            "[Event \"a",
            "[Event]",
            "[\"a\"]",
            "x[Event \"]",
            "{[Event \"a\"]}",
        ] {
            assert_eq!(tag_pair_start(no), None, "{no}");
        }
        // Linear: a long line of brackets is refused at once.
        let long = format!("{}\"]", "[ ".repeat(200_000));
        assert_eq!(tag_pair_start(&long), None);
    }

    #[test]
    fn junk_before_a_tag_is_cut_off_and_the_tag_starts_its_game() {
        let text = "[Event \"a\"]\n\n1. h2e2 h9g7 *\n\u{1}{junk[Event \"b\"]\n[Red \"R\"]\n\n1. b0c2 b9c7 *\n";
        let games = parse(text);
        assert_eq!(games.len(), 3, "{games:#?}");
        let junk = &games[1];
        assert!(junk.before_tag && junk.tags.is_empty());
        assert_eq!(
            junk.error.as_ref().map(|e| (e.line, e.column)),
            Some((4, 2))
        );
        assert_eq!((junk.offset, junk.end), (28, 34));
        let b = &games[2];
        assert!(!b.before_tag && b.error.is_none());
        assert_eq!((b.tag("Event"), b.tag("Red")), (Some("b"), Some("R")));
        assert_eq!(
            b.tag_pair("Red").map(|t| line_col(text, t.offset)),
            Some((5, 1))
        );
        assert_eq!(b.moves.len(), 2);
        // Text that reads as more moves of an unfinished game ends that game.
        let games = parse("[Event \"a\"]\n1. h2e2 h9g7\n2. h0g2 [Event \"b\"]\n1. b0c2 *\n");
        assert_eq!(games.len(), 2, "{games:#?}");
        assert_eq!(games[0].moves.len(), 3);
        assert!(!games[0].before_tag && games[0].error.is_none());
        assert_eq!(games[1].tag("Event"), Some("b"));
        // A comment never closed that runs into the tag line fails its game only.
        let games =
            parse("[Event \"a\"]\n1. h2e2 {open\nstill open\u{1}[Event \"b\"]\n1. b0c2 *\n");
        assert_eq!(games.len(), 2, "{games:#?}");
        assert_eq!(
            games[0]
                .error
                .as_ref()
                .map(|e| (e.line, e.column, e.message.as_str())),
            Some((2, 9, "comment never closed"))
        );
        assert!(!games[0].before_tag);
        assert_eq!(
            (games[1].tag("Event"), games[1].moves.len()),
            (Some("b"), 1)
        );
    }

    #[test]
    fn move_numbers_are_kept_with_the_move_they_number() {
        let games = parse("1. h2e2 h9g7 2. h0g2 {x} 2... i9h9 3.");
        let numbers: Vec<(usize, &str)> = games[0]
            .numbers
            .iter()
            .map(|n| (n.before_ply, n.text))
            .collect();
        assert_eq!(numbers, [(0, "1."), (2, "2."), (3, "2..."), (4, "3.")]);
        let v = variation_items("(2. b0c2 b9c7 3... a9a8)", 0).unwrap();
        let numbers: Vec<(usize, &str)> =
            v.numbers.iter().map(|n| (n.before_ply, n.text)).collect();
        assert_eq!(numbers, [(0, "2."), (2, "3...")]);
    }

    #[test]
    fn a_bad_game_costs_only_itself() {
        let text = "[Event \"bad\"]\n1. h2e2 {never closed\n\n[Event \"good\"]\n1. h2e2 h9g7\n";
        let games = parse(text);
        // The comment never closes: the whole tag pair after it starts the next game.
        assert_eq!(games.len(), 2, "{games:#?}");
        let e = games[0].error.as_ref().expect("error");
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (2, 9, "comment never closed")
        );
        assert!(games[1].error.is_none());
        assert_eq!(games[1].moves.len(), 2);
        let text2 = "[Event \"bad\"]\n1. h2e2 ) h9g7\n\n[Event \"good\"]\n1. h2e2 h9g7\n";
        let games = parse(text2);
        assert_eq!(games.len(), 2);
        let e = games[0].error.as_ref().expect("error");
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (2, 9, "`)` closes no variation")
        );
        assert_eq!(games[0].tag("Event"), Some("bad"));
        assert!(games[1].error.is_none());
        assert_eq!(games[1].moves.len(), 2);
    }
}
