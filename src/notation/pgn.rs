//! Reading PGN game records (`grammar/pgn.pest`).
//!
//! A file is first cut into chunks at the start of each tag section, so a
//! malformed game costs only itself; each chunk is then parsed with the pest
//! grammar. Move tokens keep their byte offset; line and column are computed
//! only when an error is reported.

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
        match e.as_rule() {
            Rule::move_token => items.moves.push(MoveToken { text: e.as_str(), offset: offset + e.as_span().start() }),
            Rule::variation => items.variations.push(Variation {
                after_ply: items.moves.len(),
                text: e.as_str(),
                offset: offset + e.as_span().start(),
            }),
            _ => {}
        }
    }
    Some(items)
}

/// One game of a record file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Game<'a> {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// Byte offset where the game starts.
    pub(crate) offset: usize,
    /// Tag pairs in file order, values unescaped.
    pub(crate) tags: Vec<(&'a str, String)>,
    /// Main-line moves.
    pub moves: Vec<MoveToken<'a>>,
    pub(crate) comments: Vec<Comment<'a>>,
    /// Variations, in file order.
    pub(crate) variations: Vec<Variation<'a>>,
    /// The result token, if any.
    pub result: Option<&'a str>,
    /// Set when the game's text does not parse; `moves` is then empty.
    pub(crate) error: Option<PgnError>,
}

impl Game<'_> {
    /// The value of a tag (case-insensitive name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
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
}

impl PgnError {
    /// What went wrong, without the place.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
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

/// Whether `t` (a trimmed line) is a whole tag pair `[Name "value"]`.
fn is_tag_pair_line(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else { return false };
    let rest = rest.trim_start();
    let name_len = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    let value = rest[name_len..].trim();
    name_len > 0 && value.len() >= 2 && value.starts_with('"') && value.ends_with('"')
}

/// Whether a trimmed line begins with the number of a game's first move (`1.`, `1...`).
fn starts_with_move_one(t: &str) -> bool {
    let Some(r) = t.strip_prefix('1') else { return false };
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
    let close = |start: &mut Option<usize>, end: usize, depth: usize, last: &mut Option<(usize, usize, usize)>| {
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
    LineScan { tokens, ends_with_result }
}

/// Byte offsets where games start, so that a malformed game costs only itself:
/// - a tag section that follows movetext, or that repeats a tag name of the current
///   section (a line starting with `[`, outside brace comments; inside a comment that was
///   never closed, a whole tag pair `[Name "value"]` on its own line);
/// - movetext after a game that ended with a result token on its line;
/// - movetext after a blank line that starts with move number 1, after moves.
fn chunk_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
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
        if t.starts_with('[') && (!comment || is_tag_pair_line(trimmed)) {
            let name = t[1..].trim_start().split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
            if (moves_seen || comment || seen.contains(&name)) && start > 0 {
                starts.push(start);
                seen.clear();
                (moves_seen, comment, parens, ended) = (false, false, 0, false);
            }
            seen.push(name);
            blank_before = false;
            continue;
        }
        let at_main_line = !comment && parens == 0;
        let new_game = at_main_line && moves_seen && (ended || (blank_before && starts_with_move_one(trimmed)));
        let scan = scan_line(line, &mut comment, &mut parens);
        if new_game && scan.tokens && start > 0 {
            starts.push(start);
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

/// The first structural fault of a chunk, found without the grammar: a brace comment
/// never closed, a variation never closed or nested deeper than
/// [`MAX_VARIATION_DEPTH`], a `)` or `}` that closes nothing. Linear in the text (the
/// grammar is never given text nested deeper than the limit). Returns the byte offset in
/// the chunk and the message; `place` gives the file's line and column of a chunk offset.
fn structure_fault(chunk: &str, place: &dyn Fn(usize) -> (usize, usize)) -> Option<(usize, String)> {
    let mut comment: Option<usize> = None;
    let mut open: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in chunk.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if comment.is_none() && line.trim_start_matches(['\u{feff}', ' ', '\t', '\u{3000}']).starts_with('[') {
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
                b'}' => return Some((start + i, "`}` closes no comment".into())),
                b'(' => {
                    open.push(start + i);
                    if open.len() > MAX_VARIATION_DEPTH {
                        return Some((start + i, format!("variations nested deeper than {MAX_VARIATION_DEPTH} levels")));
                    }
                }
                b')' if open.pop().is_none() => {
                    return Some((start + i, "`)` closes no variation".into()));
                }
                b';' => break,
                _ => {}
            }
        }
    }
    if let Some(at) = comment {
        return Some((at, "comment never closed".into()));
    }
    // Reported where the text ends inside it, naming where it opened.
    open.first().map(|&at| {
        let (line, column) = place(at);
        let end = chunk.trim_end().char_indices().last().map_or(0, |(i, _)| i);
        (end, format!("variation opened at line {line}, column {column} never closed"))
    })
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
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let chunk = &text[start..end];
        if chunk.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}').is_empty() {
            continue;
        }
        let parsed = match structure_fault(chunk, &|at| line_col(text, start + at)) {
            Some((pos, message)) => Err((pos, message)),
            None => PgnParser::parse(Rule::pgn_file, chunk).map_err(|e| pest_fault(&e)),
        };
        match parsed {
            Ok(mut pairs) => {
                let file = pairs.next().expect("pgn_file");
                for g in file.into_inner().filter(|p| p.as_rule() == Rule::game) {
                    let mut game = read_game(g, start);
                    game.number = games.len() + 1;
                    games.push(game);
                }
            }
            Err((pos, message)) => {
                let (line, column) = line_col(text, start + pos);
                let mut game = Game { number: games.len() + 1, offset: start, ..Game::default() };
                // Keep whatever tags precede the failure, for the report.
                for line in chunk.get(..pos).unwrap_or(chunk).lines() {
                    if let Ok(mut p) = PgnParser::parse(Rule::tag, line.trim()) {
                        let tag = p.next().expect("tag");
                        let (name, value) = read_tag(tag);
                        game.tags.push((name, value));
                    }
                }
                game.error = Some(PgnError { line, column, message });
                games.push(game);
            }
        }
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
            let mut names: Vec<String> = positives.iter().map(|r| format!("{r:?}").replace('_', " ")).collect();
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

fn read_tag(p: Pair<'_, Rule>) -> (&str, String) {
    let mut name = "";
    let mut value = String::new();
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::tag_name => name = q.as_str(),
            Rule::tag_value => value = unescape(q.into_inner().next().map_or("", |t| t.as_str())),
            _ => {}
        }
    }
    (name, value)
}

fn read_game(g: Pair<'_, Rule>, base: usize) -> Game<'_> {
    let mut game = Game { offset: base + g.as_span().start(), ..Game::default() };
    for p in g.into_inner() {
        match p.as_rule() {
            Rule::tag => {
                let (name, value) = read_tag(p);
                game.tags.push((name, value));
            }
            Rule::movetext | Rule::movetext_nonempty => {
                for e in p.into_inner() {
                    match e.as_rule() {
                        Rule::move_token => {
                            game.moves.push(MoveToken { text: e.as_str(), offset: base + e.as_span().start() })
                        }
                        Rule::comment | Rule::line_comment => game.comments.push(Comment {
                            after_ply: game.moves.len(),
                            text: e.into_inner().next().map_or("", |t| t.as_str()),
                        }),
                        Rule::variation => game.variations.push(Variation {
                            after_ply: game.moves.len(),
                            text: e.as_str(),
                            offset: base + e.as_span().start(),
                        }),
                        Rule::result => game.result = Some(e.as_str()),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    game
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
        let ok = format!("1. h2e2 {}h9g7{} h9g7 *", "( ".repeat(MAX_VARIATION_DEPTH), " )".repeat(MAX_VARIATION_DEPTH));
        assert!(parse(&ok)[0].error.is_none());
        let deep = format!("[Event \"deep\"]\n1. h2e2 {}h9g7{} h9g7 *", "(".repeat(100_000), ")".repeat(100_000));
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
    fn a_bad_game_costs_only_itself() {
        let text = "[Event \"bad\"]\n1. h2e2 {never closed\n\n[Event \"good\"]\n1. h2e2 h9g7\n";
        let games = parse(text);
        // The comment never closes: the whole tag pair after it starts the next game.
        assert_eq!(games.len(), 2, "{games:#?}");
        let e = games[0].error.as_ref().expect("error");
        assert_eq!((e.line, e.column, e.message.as_str()), (2, 9, "comment never closed"));
        assert!(games[1].error.is_none());
        assert_eq!(games[1].moves.len(), 2);
        let text2 = "[Event \"bad\"]\n1. h2e2 ) h9g7\n\n[Event \"good\"]\n1. h2e2 h9g7\n";
        let games = parse(text2);
        assert_eq!(games.len(), 2);
        let e = games[0].error.as_ref().expect("error");
        assert_eq!((e.line, e.column, e.message.as_str()), (2, 9, "`)` closes no variation"));
        assert_eq!(games[0].tag("Event"), Some("bad"));
        assert!(games[1].error.is_none());
        assert_eq!(games[1].moves.len(), 2);
    }
}
