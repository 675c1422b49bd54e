//! Replaying and converting game records (the library of `xqspec replay`, whose command is
//! `src/cli/replay.rs`).
//!
//! Every move of every game is parsed, resolved against the position and
//! played; a line stops at its first bad move, and the run goes on with the
//! next game. What is wrong without stopping the replay is a [`Remark`] with its place
//! (a move number that is not its move's, a `Format` tag naming no notation; the records
//! path adds a recorded result the moves contradict). Files are read, and their games
//! found and counted, by [`super::records`], the path `adjudicate` reads them by too.
//! Variations `( … )` are replayed too, each from the position it
//! branches from, and their errors reported. Converted records keep the
//! tags, main-line comments and result, with the moves rewritten in the
//! target notation, variations included (comments inside variations are
//! not kept).

use std::fmt;

use super::pgn::{self, line_col, Game, MoveNumber, PgnError};
use super::view::{KindMap, RulesBoard};
use std::collections::HashMap;

use super::{
    detect, format, parse_syntax, resolve_with, ErrorKind, MoveSyntax, Notation, NotationError,
    RejectKind, ResolveError, Style, SyntaxError,
};
use crate::board::Move;
use crate::vm::{Position, Rules};

/// Why a game could not be replayed to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The game's text is not valid PGN.
    Pgn(PgnError),
    /// The `FEN` tag does not give a valid position.
    Fen {
        /// The line where the game starts, from 1.
        line: usize,
        /// The column where the game starts, from 1.
        column: usize,
        /// What is wrong, in words.
        message: String,
    },
    /// A move does not parse or does not resolve to a legal move.
    Move {
        /// 1-based index of the move in the game (half-moves).
        ply: usize,
        /// The move number as written in records (1 for Red's and Black's first moves).
        move_number: usize,
        /// The move as written.
        text: String,
        /// Its line in the text, from 1.
        line: usize,
        /// Its column, from 1.
        column: usize,
        /// Its byte offset in the text.
        offset: usize,
        /// Why it does not parse or resolve.
        error: NotationError,
    },
    /// Bytes of the game's text that are no text of the file's encoding (a character cut
    /// short by the end of the file).
    Encoding {
        /// Its line, from 1.
        line: usize,
        /// Its column, from 1.
        column: usize,
        /// Its byte offset in the file.
        byte: usize,
        /// What is wrong, in words.
        message: String,
    },
}

impl ReplayError {
    /// What went wrong: `pgn`, `fen`, or the notation error's kind.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ReplayError::Pgn(_) | ReplayError::Encoding { .. } => ErrorKind::Pgn,
            ReplayError::Fen { .. } => ErrorKind::Fen,
            ReplayError::Move { error, .. } => error.kind(),
        }
    }

    /// As the Python package's `replay_files` items give it: `{message, kind}` and the place
    /// the error has (`line`, `column`; a move's `ply`, `move_number` and `text`; `byte`).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let mut v = json!({ "message": self.to_string(), "kind": self.kind().code() });
        match self {
            ReplayError::Pgn(p) => {
                v["line"] = json!(p.line);
            }
            ReplayError::Fen { line, column, .. } => {
                v["line"] = json!(line);
                v["column"] = json!(column);
            }
            ReplayError::Move {
                line,
                column,
                ply,
                move_number,
                text,
                ..
            } => {
                v["line"] = json!(line);
                v["column"] = json!(column);
                v["ply"] = json!(ply);
                v["move_number"] = json!(move_number);
                v["text"] = json!(text);
            }
            ReplayError::Encoding {
                line, column, byte, ..
            } => {
                v["line"] = json!(line);
                v["column"] = json!(column);
                v["byte"] = json!(byte);
            }
        }
        v
    }
}

impl ReplayError {
    /// The error with its place told in the file a piece was cut from.
    pub(crate) fn shift(&mut self, base: super::records::Base) {
        match self {
            ReplayError::Pgn(e) => e.shift(base.lines),
            ReplayError::Fen { line, .. } => *line += base.lines,
            ReplayError::Move { line, offset, .. } => {
                *line += base.lines;
                *offset += base.text;
            }
            ReplayError::Encoding { line, byte, .. } => {
                *line += base.lines;
                *byte += base.byte;
            }
        }
    }

    /// The short form used in a run's summary: `line 12: comment never closed`.
    pub fn short(&self) -> String {
        match self {
            ReplayError::Pgn(e) => format!("line {}: {}", e.line, e.message),
            ReplayError::Fen { line, .. } => format!("line {line}: bad FEN tag"),
            ReplayError::Move {
                move_number,
                text,
                line,
                error,
                ..
            } => format!("line {line}: move {move_number} {text:?}: {error}"),
            ReplayError::Encoding { line, message, .. } => format!("line {line}: {message}"),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Pgn(e) => write!(f, "malformed PGN at {e}"),
            ReplayError::Fen {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: bad FEN tag: {message}"),
            ReplayError::Move {
                ply,
                move_number,
                text,
                line,
                column,
                error,
                ..
            } => write!(
                f,
                "move {move_number} (ply {ply}) {text:?} at line {line}, column {column}: {error}"
            ),
            ReplayError::Encoding {
                line,
                column,
                byte,
                message,
            } => write!(f, "line {line}, column {column} (byte {byte}): {message}"),
        }
    }
}

/// How move numbers are counted in a game.
#[derive(Clone, Copy, Debug)]
struct Numbering {
    /// The move number of the first move.
    fullmove0: usize,
    /// Whether the game starts with the second player to move.
    black_first: bool,
}

impl Numbering {
    /// The move number of the 0-based game ply `ply`, and whether it is the second move of
    /// its round (the second player's).
    fn of(self, ply: usize) -> (usize, bool) {
        let half = ply + usize::from(self.black_first);
        (self.fullmove0 + half / 2, half % 2 == 1)
    }
}

/// Something wrong in a game's record that does not stop its replay, at its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    /// Its line, from 1.
    pub line: usize,
    /// Its column, from 1.
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl Remark {
    /// As the JSON items of the batch calls give it (`xqspec adjudicate --json`, the Python
    /// package's `replay_files`): `{line, column, remark}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "line": self.line, "column": self.column, "remark": self.message })
    }

    /// The remark with its line told in the file a piece was cut from.
    pub(crate) fn shifted(mut self, base: super::records::Base) -> Remark {
        self.line += base.lines;
        self
    }

    /// A remark on the text at byte `offset` of `text`.
    pub(crate) fn at(text: &str, offset: usize, message: String) -> Remark {
        let (line, column) = line_col(text, offset);
        Remark {
            line,
            column,
            message,
        }
    }
}

impl fmt::Display for Remark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// Remarks on the move numbers of a line whose first move is the game's ply `first`: a
/// number is the number of the move it stands before (or of the next move, at the end of
/// the line); `N...` (`N…`) stands only before the second move of a round, `N.` only before
/// the first.
fn number_remarks(
    text: &str,
    rules: &Rules,
    numbering: Numbering,
    first: usize,
    moves: usize,
    numbers: &[MoveNumber<'_>],
    out: &mut Vec<Remark>,
) {
    for n in numbers {
        let (number, second) = numbering.of(first + n.before_ply);
        let side = if second {
            rules.first_to_move().opponent()
        } else {
            rules.first_to_move()
        };
        let digits = n.text.trim_end_matches(['.', '…', '。', '．']);
        let continuation = n.text.ends_with("..") || n.text.ends_with('…');
        let which = if n.before_ply < moves {
            "the move after it is"
        } else {
            "the next move would be"
        };
        let message = if digits.parse::<usize>().ok() != Some(number) {
            format!(
                "move number `{}` is not the number of its move: {which} {}'s move {number}",
                n.text,
                side.name()
            )
        } else if continuation && !second {
            format!("`{}` stands before {}'s move {number}: `...` numbers only the second move of a round", n.text, side.name())
        } else if !continuation && second {
            format!("`{}` stands before {}'s move {number}, the second of its round: write `{number}...`", n.text, side.name())
        } else {
            continue;
        };
        out.push(Remark::at(text, n.offset, message));
    }
}

/// The outcome of replaying one game.
#[derive(Clone, Debug)]
pub struct GameReplay {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// `Red – Black`, or the event, for reports.
    pub title: String,
    /// The start position.
    pub start: Option<Position>,
    /// The moves played, up to the first error.
    pub moves: Vec<Move>,
    /// The position after them.
    pub last: Option<Position>,
    /// What is wrong without stopping the replay, in file order.
    pub remarks: Vec<Remark>,
    /// The first error of the main line, if any.
    pub error: Option<ReplayError>,
    /// The first error of each variation that has one.
    pub variation_errors: Vec<ReplayError>,
    /// How many variations (nested ones included) were replayed.
    pub variations: usize,
    /// The variations of the main line, each with its moves and nested ones.
    pub(crate) variation_lines: Vec<VariationReplay>,
}

/// A replayed variation `( … )`.
#[derive(Clone, Debug)]
pub(crate) struct VariationReplay {
    /// The number of moves of the parent line before it; it replaces the last of them.
    pub(crate) after_ply: usize,
    /// 0-based ply, in the game, of its first move.
    pub(crate) first_ply: usize,
    /// The position it starts from.
    pub start: Position,
    /// Its moves, up to its first error.
    pub moves: Vec<Move>,
    /// The variations inside it.
    pub variations: Vec<VariationReplay>,
}

impl GameReplay {
    /// Places told in the file a piece was cut from.
    pub(crate) fn shift(&mut self, base: super::records::Base) {
        for e in self
            .error
            .iter_mut()
            .chain(self.variation_errors.iter_mut())
        {
            e.shift(base);
        }
        for m in &mut self.remarks {
            m.line += base.lines;
        }
    }

    /// Whether the main line and every variation replayed.
    pub fn is_ok(&self) -> bool {
        self.error.is_none() && self.variation_errors.is_empty()
    }
}

fn title(game: &Game<'_>) -> String {
    match (game.tag("Red"), game.tag("Black")) {
        (Some(r), Some(b)) => format!("{r} – {b}"),
        _ => game.tag("Event").unwrap_or("").to_string(),
    }
}

/// Drop annotation marks after a move (`!`, `?`, `#`).
fn strip_annotation(text: &str) -> &str {
    text.trim_end_matches(['!', '?', '#', '！', '？'])
}

/// Replays games one after another, remembering the syntax tree of each
/// distinct move text (a syntax tree depends on the text alone, and records
/// repeat the same texts over and over).
pub struct Replayer<'r> {
    rules: &'r Rules,
    kinds: KindMap,
    /// Parsed texts, one table per `Format` tag value (none, or a notation).
    cache: [HashMap<String, MoveSyntax, TextHash>; 5],
}

/// A fast hash for the short move texts of the cache (the standard SipHash
/// costs more than the rest of a cache hit); FxHash's multiply-rotate.
#[derive(Clone, Copy, Default)]
struct TextHash;

#[derive(Default)]
struct TextHasher(u64);

impl std::hash::BuildHasher for TextHash {
    type Hasher = TextHasher;
    #[inline]
    fn build_hasher(&self) -> TextHasher {
        TextHasher(0)
    }
}

impl std::hash::Hasher for TextHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            h = (h.rotate_left(5) ^ u64::from_le_bytes(c.try_into().expect("8 bytes")))
                .wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
        self.0 = h;
    }
    #[inline]
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

impl<'r> Replayer<'r> {
    /// A replayer for `rules`.
    pub fn new(rules: &'r Rules) -> Replayer<'r> {
        Replayer {
            rules,
            kinds: KindMap::new(rules),
            cache: Default::default(),
        }
    }

    /// The kind table in use.
    pub fn kinds(&self) -> &KindMap {
        &self.kinds
    }

    fn syntax(
        rules: &Rules,
        cache: &mut [HashMap<String, MoveSyntax, TextHash>; 5],
        declared: Option<Notation>,
        t: &str,
    ) -> Result<MoveSyntax, SyntaxError> {
        let numerals = rules.file_numerals();
        let table = &mut cache[declared.map_or(0, |n| 1 + n as usize)];
        if let Some(s) = table.get(t) {
            return Ok(*s);
        }
        let notation = declared.unwrap_or_else(|| detect(t));
        let parsed = match parse_syntax(numerals, notation, t) {
            Ok(s) => Ok(s),
            Err(e) => {
                let other = detect(t);
                if other != notation {
                    parse_syntax(numerals, other, t).map_err(|_| e)
                } else {
                    Err(e)
                }
            }
        };
        if let Ok(s) = &parsed {
            table.insert(t.to_string(), *s);
        }
        parsed
    }

    /// Replay one game of a parsed file. `text` is the whole file (for line
    /// and column numbers).
    pub fn replay(&mut self, text: &str, game: &Game<'_>) -> GameReplay {
        let rules = self.rules;
        let mut out = GameReplay {
            number: game.number,
            title: title(game),
            start: None,
            moves: Vec::new(),
            last: None,
            remarks: Vec::new(),
            error: None,
            variation_errors: Vec::new(),
            variations: 0,
            variation_lines: Vec::new(),
        };
        if let Some(e) = &game.error {
            out.error = Some(ReplayError::Pgn(e.clone()));
            return out;
        }
        let start = match game.tag("FEN") {
            Some(fen) if !fen.trim().is_empty() => match Position::from_fen(rules, fen) {
                Ok(p) => p,
                Err(e) => {
                    let (line, column) = line_col(text, game.offset);
                    out.error = Some(ReplayError::Fen {
                        line,
                        column,
                        message: e.to_string(),
                    });
                    return out;
                }
            },
            _ => rules.start_position(),
        };
        let numbering = Numbering {
            fullmove0: start.fullmove_number().max(1) as usize,
            black_first: start.side_to_move() != rules.first_to_move(),
        };
        let declared = game.format();
        if let Some(t) = game
            .tag_pair("Format")
            .filter(|t| declared.is_none() && !t.value.trim().is_empty())
        {
            let known: Vec<&str> = Notation::ALL.iter().map(|n| n.name()).collect();
            out.remarks.push(Remark::at(
                text,
                t.offset,
                format!("the Format tag {:?} names no notation this reader knows ({}): each move's notation is detected from its text", t.value, known.join(", ")),
            ));
        }
        let g = GameText {
            text,
            declared,
            numbering,
        };
        let main = LineText {
            moves: &game.moves,
            numbers: &game.numbers,
            variations: &game.variations,
        };
        let (moves, last, variations) =
            self.line_and_variations(g, main, &start, 0, &mut out, |e, out| out.error = Some(e));
        out.moves = moves;
        out.last = Some(last);
        out.variation_lines = variations;
        out.start = Some(start);
        out.remarks.sort_by_key(|r| (r.line, r.column));
        out
    }

    /// Replay one line of moves from `start`; `first` is the 0-based ply of
    /// its first move in the game. Positions before each move are pushed to
    /// `history` when given. Returns the moves played, the error that stopped the line and
    /// the position reached.
    fn line(
        &mut self,
        g: GameText<'_>,
        start: &Position,
        first: usize,
        items: &[(&str, usize)],
        mut history: Option<&mut Vec<Position>>,
    ) -> (Vec<Move>, Option<ReplayError>, Position) {
        let GameText {
            text,
            declared,
            numbering,
        } = g;
        let (rules, kinds) = (self.rules, &self.kinds);
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(items.len());
        for (i, &(tok, offset)) in items.iter().enumerate() {
            let t = strip_annotation(tok);
            let syntax = Self::syntax(rules, &mut self.cache, declared, t);
            let before = history.is_some().then(|| pos.clone());
            let result = syntax.map_err(NotationError::from).and_then(|s| match s {
                // Coordinates name the move: the core checks and plays it in one step.
                MoveSyntax::Coordinates(m) => match pos.play(rules, m) {
                    Ok(_) => Ok(m),
                    Err(_) => Err(NotationError::Resolve(ResolveError::IllegalMove { mv: m })),
                },
                described => {
                    let board = RulesBoard::new(rules, &pos, kinds);
                    let m = resolve_with(&board, &described).map_err(NotationError::from)?;
                    pos.make(rules, m);
                    Ok(m)
                }
            });
            match result {
                Ok(m) => {
                    if let (Some(h), Some(b)) = (history.as_deref_mut(), before) {
                        h.push(b);
                    }
                    moves.push(m);
                }
                Err(error) => {
                    let (line, mut column) = line_col(text, offset);
                    if let NotationError::Syntax(s) = &error {
                        column += s.column.saturating_sub(1);
                    }
                    let ply = first + i;
                    let e = ReplayError::Move {
                        ply: ply + 1,
                        move_number: numbering.of(ply).0,
                        text: tok.to_string(),
                        line,
                        column,
                        offset,
                        error,
                    };
                    return (moves, Some(e), pos);
                }
            }
        }
        (moves, None, pos)
    }

    /// Replay a variation `( … )` from `start` (the position before the move
    /// it replaces), with its nested variations; errors go to
    /// `out.variation_errors`. `None` when its text is not a variation.
    fn variation(
        &mut self,
        g: GameText<'_>,
        start: &Position,
        first: usize,
        v: &pgn::Variation<'_>,
        out: &mut GameReplay,
    ) -> Option<VariationReplay> {
        out.variations += 1;
        let Some(parsed) = pgn::variation_items(v.text, v.offset) else {
            let (line, column) = line_col(g.text, v.offset);
            out.variation_errors.push(ReplayError::Pgn(PgnError {
                line,
                column,
                message: "malformed variation".into(),
                opened: None,
            }));
            return None;
        };
        let items = LineText {
            moves: &parsed.moves,
            numbers: &parsed.numbers,
            variations: &parsed.variations,
        };
        let (moves, _, variations) =
            self.line_and_variations(g, items, start, first, out, |e, out| {
                out.variation_errors.push(e)
            });
        Some(VariationReplay {
            after_ply: v.after_ply,
            first_ply: first,
            start: start.clone(),
            moves,
            variations,
        })
    }

    /// One line of a game (the main line or a variation) from `start`, `first` the 0-based
    /// ply of its first move: its move numbers checked (remarks in `out`), its moves
    /// replayed (the error that stops them handed to `stopped` at once), then each of its
    /// variations from the position before the move it replaces. Returns the moves played,
    /// the position reached and the variations.
    fn line_and_variations(
        &mut self,
        g: GameText<'_>,
        l: LineText<'_, '_>,
        start: &Position,
        first: usize,
        out: &mut GameReplay,
        stopped: impl FnOnce(ReplayError, &mut GameReplay),
    ) -> (Vec<Move>, Position, Vec<VariationReplay>) {
        let (text, rules, numbering) = (g.text, self.rules, g.numbering);
        let count = l.moves.len();
        number_remarks(
            text,
            rules,
            numbering,
            first,
            count,
            l.numbers,
            &mut out.remarks,
        );
        let mut history = Vec::new();
        let items: Vec<(&str, usize)> = l.moves.iter().map(|m| (m.text, m.offset)).collect();
        let keep = !l.variations.is_empty();
        let (moves, error, last) = self.line(g, start, first, &items, keep.then_some(&mut history));
        if let Some(e) = error {
            stopped(e, out);
        }
        let mut variations = Vec::new();
        for v in l.variations {
            // A variation after k moves replaces the k-th: it starts from the
            // position before that move.
            let Some(k) = v.after_ply.checked_sub(1) else {
                continue;
            };
            if let Some(pos) = history.get(k).cloned() {
                variations.extend(self.variation(g, &pos, first + k, v, out));
            }
        }
        (moves, last, variations)
    }
}

/// What stays the same through the replay of one game: the file's text (for line and
/// column numbers), the notation its Format tag declares, and how its moves are numbered.
#[derive(Clone, Copy)]
struct GameText<'t> {
    text: &'t str,
    declared: Option<Notation>,
    numbering: Numbering,
}

/// The moves, move numbers and variations of one line as the record reader gives them
/// (a game's main line, a variation's).
#[derive(Clone, Copy)]
struct LineText<'s, 'a> {
    moves: &'s [pgn::MoveToken<'a>],
    numbers: &'s [MoveNumber<'a>],
    variations: &'s [pgn::Variation<'a>],
}

/// Replay every game of a record text.
pub fn replay_text(rules: &Rules, text: &str) -> Vec<GameReplay> {
    let mut r = Replayer::new(rules);
    pgn::parse(text).iter().map(|g| r.replay(text, g)).collect()
}

/// Write a replayed game as PGN with its moves in `notation`.
pub fn write_game(
    rules: &Rules,
    kinds: &KindMap,
    game: &Game<'_>,
    replayed: &GameReplay,
    notation: Notation,
    style: Style,
) -> String {
    let mut s = String::new();
    let format_name = match notation {
        Notation::Chinese => "Chinese",
        Notation::ChineseAbbreviated => "Chinese-abbreviated",
        Notation::Wxf => "WXF",
        Notation::Iccs => "ICCS",
    };
    for t in &game.tags {
        if t.name.eq_ignore_ascii_case("Format") {
            continue;
        }
        s.push_str(&format!(
            "[{} \"{}\"]\n",
            t.name,
            t.value.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    s.push_str(&format!("[Format \"{format_name}\"]\n\n"));
    let Some(start) = &replayed.start else {
        s.push('\n');
        return s;
    };
    let writer = LineWriter {
        rules,
        kinds,
        notation,
        style,
        numbering: Numbering {
            fullmove0: start.fullmove_number().max(1) as usize,
            black_first: start.side_to_move() != rules.first_to_move(),
        },
    };
    let mut text = String::new();
    writer.line(
        &mut text,
        start,
        0,
        &replayed.moves,
        &replayed.variation_lines,
        &game.comments,
    );
    if replayed.error.is_some() {
        text.push_str("{replay stopped here: the rest of the game did not replay} ");
    }
    text.push_str(game.result.unwrap_or("*"));
    s.push_str(&wrap(&text, 80));
    s.push_str("\n\n");
    s
}

/// Writes lines of moves (the main line and variations) in one notation.
struct LineWriter<'a> {
    rules: &'a Rules,
    kinds: &'a KindMap,
    notation: Notation,
    style: Style,
    numbering: Numbering,
}

impl LineWriter<'_> {
    /// Append `moves`, played from `start` with the first at game ply
    /// `first`, to `out`, with the comments and variations that follow each
    /// move; words are separated by single spaces.
    fn line(
        &self,
        out: &mut String,
        start: &Position,
        first: usize,
        moves: &[Move],
        variations: &[VariationReplay],
        comments: &[pgn::Comment<'_>],
    ) {
        let mut pos = start.clone();
        let comments_at = |n: usize| comments.iter().filter(move |c| c.after_ply == n);
        for c in comments_at(0) {
            out.push_str(&format!("{{{}}} ", c.text));
        }
        for (i, &m) in moves.iter().enumerate() {
            let half = first + i + usize::from(self.numbering.black_first);
            let number = self.numbering.fullmove0 + half / 2;
            if half.is_multiple_of(2) {
                out.push_str(&format!("{number}. "));
            } else if i == 0 {
                out.push_str(&format!("{number}... "));
            }
            let side = pos.side_to_move();
            match pos.piece_at(m.from).and_then(|p| self.kinds.kind(p.kind)) {
                Some(kind) => {
                    let board = RulesBoard::new(self.rules, &pos, self.kinds);
                    // A rule set without record forms cannot write Chinese; the caller checks
                    // that first (`convert_check`), so ICCS here is only a safety net.
                    match format::format_unchecked(&board, m, side, kind, self.notation, self.style)
                    {
                        Ok(t) => out.push_str(&t),
                        Err(_) => out.push_str(&m.iccs()),
                    }
                }
                None => out.push_str(&m.iccs()),
            }
            out.push(' ');
            for c in comments_at(i + 1) {
                out.push_str(&format!("{{{}}} ", c.text));
            }
            for v in variations.iter().filter(|v| v.after_ply == i + 1) {
                out.push('(');
                self.line(out, &v.start, v.first_ply, &v.moves, &v.variations, &[]);
                let trimmed = out.trim_end().len();
                out.truncate(trimmed);
                out.push_str(") ");
            }
            pos.make(self.rules, m);
        }
    }
}

/// Break `text` into lines of at most `width` characters at spaces (a word
/// longer than that stays whole).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / width);
    let mut len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let n = word.chars().count();
        if len > 0 && len + 1 + n > width {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += n;
    }
    out
}

/// One game's answer to the proposed `replay_pgn` query: its main-line moves
/// in ICCS, or where and why it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameAnswer {
    /// Every move replayed.
    Moves(Vec<String>),
    /// The game failed: the suite's reject kind (`pgn.syntax`, `fen`,
    /// `notation.syntax`, `notation.no_match`, `notation.ambiguous`), the
    /// 1-based ply of the failing move (0 when the failure is not a move),
    /// and the 1-based line of the failure.
    Error {
        /// The reject kind.
        kind: RejectKind,
        /// The ply of the failing move, from 1; 0 when the failure is not a move.
        ply: usize,
        /// The line of the failure, from 1.
        line: usize,
    },
}

/// The proposed `replay_pgn` query: replay every game of a PGN text (main
/// lines and variations) and answer per game.
pub fn answer_replay_pgn(rules: &Rules, text: &str) -> Vec<GameAnswer> {
    let mut r = Replayer::new(rules);
    pgn::parse(text)
        .iter()
        .map(|g| {
            let rep = r.replay(text, g);
            match rep.error.as_ref().or(rep.variation_errors.first()) {
                None => GameAnswer::Moves(rep.moves.iter().map(|m| m.iccs()).collect()),
                Some(ReplayError::Pgn(e)) => GameAnswer::Error {
                    kind: RejectKind::PgnSyntax,
                    ply: 0,
                    line: e.line,
                },
                Some(ReplayError::Encoding { line, .. }) => GameAnswer::Error {
                    kind: RejectKind::PgnSyntax,
                    ply: 0,
                    line: *line,
                },
                Some(ReplayError::Fen { line, .. }) => GameAnswer::Error {
                    kind: RejectKind::Fen,
                    ply: 0,
                    line: *line,
                },
                Some(ReplayError::Move {
                    ply, line, error, ..
                }) => GameAnswer::Error {
                    kind: error.reject_kind(),
                    ply: *ply,
                    line: *line,
                },
            }
        })
        .collect()
}
