//! Record files as the commands read them: one path for `xqspec replay`, `xqspec
//! adjudicate` and the `--pgn FILE --game N` of `outcome`, `status` and `ruling`, so that
//! every command finds the same games in a file, numbers them alike and reports the same
//! problems at the same places.
//!
//! [`read`] reads a file: a directory or a file that cannot be read is a [`FileError`],
//! never a game. The bytes are decoded ([`super::encoding`]: a character cut short by the
//! end of the file is a fault at its byte offset), cut into games ([`super::pgn`]) and each
//! game is replayed ([`Replayer`]); [`games`] gives what the file holds, in file order, as
//! [`Entry`]s:
//!
//! - a game, numbered among the file's games: replayed, or failed with the place and the
//!   cause of its first error (a fault in its text is that cause), with its remarks;
//! - text that is no game ([`NotAGame`]): a section without tags that holds binary text
//!   (control characters, bytes no encoding reads) or stood before a tag pair on its line,
//!   and does not replay to at least one move — reported with its line, column and byte
//!   offset, not counted as a game.
//!
//! Errors (a failed game, text that is no game, a file not read) fail a command; remarks
//! (a move number that is not its move's, a `Format` tag naming no notation, a recorded
//! result the moves contradict or the tag and the token disagreeing) are said and do not.

use std::fmt;
use std::path::{Path, PathBuf};

use encoding_rs::Encoding;

use super::encoding::{decode_detailed, Decoded};
use super::pgn::{self, line_col, Game};
use super::replay::{GameReplay, Remark, ReplayError, Replayer};

/// A record file that could not be read.
pub use crate::input::FileError;

/// A record file read and decoded.
#[derive(Clone, Debug)]
pub struct RecordFile {
    path: PathBuf,
    bytes: Vec<u8>,
    decoded: Decoded,
    encoding: &'static Encoding,
    /// Where these bytes start in the file: a piece of a long file ([`super::stream`]).
    base: Base,
}

/// Where a piece of a file starts: lines before it, its first byte, and the decoded text
/// before it (in bytes of UTF-8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Base {
    pub(crate) lines: usize,
    pub(crate) byte: usize,
    pub(crate) text: usize,
}

/// Reads a record file, decoding it in `encoding` or, without, in the encoding detected.
pub fn read(path: &Path, encoding: Option<&'static Encoding>) -> Result<RecordFile, FileError> {
    let refused = |message: String| FileError {
        path: path.to_path_buf(),
        message,
    };
    if path.is_dir() {
        return Err(refused("is a directory, not a record file".into()));
    }
    let bytes = crate::input::read_bytes(path).map_err(|e| refused(e.what))?;
    Ok(from_bytes(path, bytes, encoding))
}

/// A record file's bytes, read from `path` (named in reports), decoded as [`read`] does.
pub fn from_bytes(path: &Path, bytes: Vec<u8>, encoding: Option<&'static Encoding>) -> RecordFile {
    let (decoded, encoding) = decode_detailed(&bytes, encoding);
    RecordFile {
        path: path.to_path_buf(),
        bytes,
        decoded,
        encoding,
        base: Base::default(),
    }
}

/// A piece of a record file (whole games) that starts at `base`: decoded on its own, its
/// places told in the file's lines and bytes.
pub(crate) fn piece(
    path: &Path,
    bytes: Vec<u8>,
    encoding: Option<&'static Encoding>,
    base: Base,
) -> RecordFile {
    RecordFile {
        base,
        ..from_bytes(path, bytes, encoding)
    }
}

/// A place in a record file: line and column (in characters) of the decoded text, and the
/// byte offset in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// From 1.
    pub line: usize,
    /// From 1.
    pub column: usize,
    /// From 0.
    pub byte: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (byte {})",
            self.line, self.column, self.byte
        )
    }
}

impl RecordFile {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The decoded text.
    pub fn text(&self) -> &str {
        &self.decoded.text
    }

    /// How the file was read when it is not all UTF-8: `read as gb18030`, or for a file
    /// mixing encodings `read as utf-8, lines 4–5 as gb18030`.
    pub fn encoding_note(&self) -> Option<String> {
        if self.encoding == encoding_rs::UTF_8 {
            return None;
        }
        if !self.decoded.mixed {
            return Some(format!(
                "read as {}",
                self.encoding.name().to_ascii_lowercase()
            ));
        }
        let lines = self.base.lines;
        let runs: Vec<String> = self
            .decoded
            .legacy
            .iter()
            .map(|r| {
                let (first, last) = (r.lines.0 + lines, r.lines.1 + lines);
                let lines = if first == last {
                    format!("line {first}")
                } else {
                    format!("lines {first}–{last}")
                };
                format!("{lines} as {}", r.encoding.name().to_ascii_lowercase())
            })
            .collect();
        Some(format!("read as utf-8, {}", runs.join(", ")))
    }

    /// The place of byte `offset` of the decoded text.
    pub fn place(&self, offset: usize) -> Place {
        let (line, column) = line_col(self.text(), offset);
        Place {
            line: line + self.base.lines,
            column,
            byte: self.decoded.byte_offset(&self.bytes, offset) + self.base.byte,
        }
    }

    /// The bytes read.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }
}

/// The end the moves of a game reach, as a judge found it: the result (`red_wins`,
/// `black_wins`, `draw` …), after which ply, and why (the observation, the clause).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result, as answers write it.
    pub result: &'static str,
    /// The ply (1-based) after which the game ended.
    pub ply: Option<usize>,
    /// How, in words: `checkmated, result.checkmate, art. 4.1`.
    pub why: String,
}

/// A game of a record file.
#[derive(Clone, Debug)]
pub struct GameEntry<'t, V> {
    /// 1-based among the games of its file (text that is no game is not counted).
    pub number: usize,
    /// The game as read.
    pub game: Game<'t>,
    /// The game replayed.
    pub replay: GameReplay,
    /// What is wrong without failing the game, in file order.
    pub remarks: Vec<Remark>,
    /// The judge's verdict, for a game that replayed (main line and variations).
    pub verdict: Option<V>,
    /// The result recorded is not the one the moves end in.
    pub disagrees: bool,
}

impl<V> GameEntry<'_, V> {
    /// The first error of the main line, else of a variation: the game failed.
    pub fn failure(&self) -> Option<&ReplayError> {
        self.replay
            .error
            .as_ref()
            .or(self.replay.variation_errors.first())
    }

    /// The result recorded: the `Result` tag's value, else the result token.
    pub fn recorded(&self) -> Option<&str> {
        self.game.tag("Result").or(self.game.result)
    }
}

/// Text of a record file that is no game, skipped: where it starts and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAGame {
    /// Where it starts.
    pub place: Place,
    /// What it is, in words.
    pub message: String,
}

impl fmt::Display for NotAGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: skipped text that is no game: {}",
            self.place, self.message
        )
    }
}

/// What a record file holds, in file order.
#[derive(Clone, Debug)]
pub enum Entry<'t, V> {
    /// A game (boxed: a replayed game holds positions).
    Game(Box<GameEntry<'t, V>>),
    /// Text that is no game.
    NotAGame(NotAGame),
}

/// How many characters of text that is no game are shown.
const SHOWN: usize = 16;

/// A character of text that is no game as shown: escaped when it is no printable text
/// (U+FFFD, for bytes no encoding reads, as `\u{fffd}`).
fn shown(c: char) -> String {
    if c == '\u{FFFD}' {
        "\\u{fffd}".into()
    } else {
        c.escape_debug().to_string()
    }
}

/// Every game of a record file, replayed with `replayer`, and the text that is no game.
/// `judge` is asked about each game that replayed (main line and variations): its verdict
/// is kept, and the end it found (if any) is compared with the result recorded.
pub fn games<'t, V>(
    file: &'t RecordFile,
    replayer: &mut Replayer<'_>,
    mut judge: impl FnMut(&GameReplay) -> (V, Option<Ending>),
) -> Vec<Entry<'t, V>> {
    let text = file.text();
    let mut out = Vec::new();
    let mut number = 0;
    for g in pgn::parse(text) {
        let mut r = replayer.replay(text, &g);
        let span = g.offset.min(text.len())..g.end.min(text.len());
        // A fault in its text is its first cause of failure.
        let fault = file
            .decoded
            .faults
            .iter()
            .find(|f| span.contains(&f.offset));
        if let Some(f) = fault {
            let (line, column) = line_col(text, f.offset);
            r.error = Some(ReplayError::Encoding {
                line,
                column,
                byte: f.byte,
                message: f.message(file.base.byte),
            });
        }
        if file.base != Base::default() {
            r.shift(file.base);
        }
        let section = &text[span];
        // Text without tags that holds binary text or stood before a tag pair on its line
        // is a game only when it replays, with moves.
        if g.tags.is_empty()
            && (g.before_tag || pgn::holds_binary(section))
            && (!r.is_ok() || r.moves.is_empty())
        {
            let start: String = section.trim().chars().take(SHOWN).map(shown).collect();
            let more = if section.trim().chars().nth(SHOWN).is_some() {
                "…"
            } else {
                ""
            };
            let what = match fault {
                Some(f) => f.message(file.base.byte),
                None if g.before_tag => "text before the tag pair on its line".into(),
                None => "binary text".into(),
            };
            // Sections that are no game one after another are one run of such text.
            if !matches!(out.last(), Some(Entry::NotAGame(_))) {
                out.push(Entry::NotAGame(NotAGame {
                    place: file.place(g.offset),
                    message: format!("{what}: \"{start}\"{more}"),
                }));
            }
            continue;
        }
        number += 1;
        let mut remarks = std::mem::take(&mut r.remarks);
        let (verdict, ending) = match (&r.start, r.is_ok()) {
            (Some(_), true) => {
                let (v, e) = judge(&r);
                (Some(v), e)
            }
            _ => (None, None),
        };
        let mut disagreed = Vec::new();
        let disagrees = result_remarks(text, &g, ending.as_ref(), file.base.lines, &mut disagreed);
        remarks.extend(disagreed.into_iter().map(|m| m.shifted(file.base)));
        remarks.sort_by_key(|m| (m.line, m.column));
        out.push(Entry::Game(Box::new(GameEntry {
            number,
            game: g,
            replay: r,
            remarks,
            verdict,
            disagrees,
        })));
    }
    out
}

/// Remarks on a game's recorded result: the `Result` tag and the result token record
/// different results, or the result recorded (the tag's, else the token's) is not the one
/// the moves end in. `*`, or no result, records none. Returns whether the recorded result
/// is not the one the moves end in. Lines named in a remark's words count `lines_before`.
fn result_remarks(
    text: &str,
    g: &Game<'_>,
    ending: Option<&Ending>,
    lines_before: usize,
    out: &mut Vec<Remark>,
) -> bool {
    let tag = g
        .tag_pair("Result")
        .and_then(|t| Some((t, pgn::result_of_token(&t.value)?)));
    let token = g.result.and_then(|t| Some((t, pgn::result_of_token(t)?)));
    if let (Some((t, by_tag)), Some((tok, by_token))) = (tag, token) {
        if by_tag != by_token {
            let line = line_col(text, t.offset).0 + lines_before;
            out.push(Remark::at(text, g.result_offset, format!("the result token {tok} records {by_token}, the Result tag {:?} (line {line}) {by_tag}", t.value)));
        }
    }
    let (recorded, offset, what) = match (tag, token) {
        (Some((t, r)), _) => (r, t.offset, format!("the Result tag {:?}", t.value)),
        (None, Some((tok, r))) => (r, g.result_offset, format!("the result token {tok}")),
        (None, None) => return false,
    };
    let Some(e) = ending.filter(|e| e.result != recorded) else {
        return false;
    };
    let after = e.ply.map(|p| format!(" after ply {p}")).unwrap_or_default();
    out.push(Remark::at(
        text,
        offset,
        format!(
            "{what} records {recorded}, but the moves end in {}{after} ({})",
            e.result, e.why
        ),
    ));
    true
}
