//! From input to positions, once for every command and query: a FEN (read into a
//! `crate::vm::fen::Setup`, validated against the rule set into a `Position`) and moves in
//! canonical ICCS ([`Move::parse_iccs`], the one move reader), each legal where it is
//! played.
//!
//! [`after`] gives the position after the moves, [`line()`] every position of the line; both
//! refuse with one [`LineError`] (the FEN's error, `move N` not ICCS, `move N` illegal) and
//! its reject kinds. Every command and query reads a FEN and moves through here.
//!
//! A line as a person writes it (moves in any notation) is read into that form once, by
//! [`given`].

use std::fmt;

use crate::board::Move;
use crate::vm::fen::{self, FenError};
use crate::vm::{IllegalMove, Position, Rules};

/// Why a FEN plus moves is not a line of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The FEN is not a FEN, or not a position the rules allow.
    Fen(FenError),
    /// Move `index` (1-based) is not canonical ICCS text.
    MoveSyntax {
        /// The move's index, from 1.
        index: usize,
        /// The move as given.
        text: String,
    },
    /// Move `index` (1-based) is not legal where it is played.
    Illegal {
        /// The move's index, from 1.
        index: usize,
        /// The move and why it is not legal.
        error: IllegalMove,
    },
}

impl LineError {
    /// The protocol's reject kind (`conformance/vocabulary.yaml`).
    pub fn reject_kind(&self) -> &'static str {
        match self {
            LineError::Fen(e) => e.reject_kind(),
            LineError::MoveSyntax { .. } => "move.syntax",
            LineError::Illegal { .. } => "move.illegal",
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Fen(e) => write!(f, "invalid FEN: {e}"),
            LineError::MoveSyntax { index, text } => {
                write!(f, "move {index}: `{text}` is not ICCS (like h2e2)")
            }
            LineError::Illegal { index, error } => write!(f, "move {index}: {error}"),
        }
    }
}

impl std::error::Error for LineError {}

/// The position before every move and after the last (`positions.len() == moves.len() + 1`),
/// and the moves read.
#[derive(Clone, Debug)]
pub struct Line {
    /// The position before every move, then the position after the last.
    pub positions: Vec<Position>,
    /// The moves read, in order.
    pub moves: Vec<Move>,
}

/// The position `fen` (or `startpos`) describes after `moves`, and the last move.
pub fn after(
    rules: &Rules,
    fen: &str,
    moves: &[String],
) -> Result<(Position, Option<Move>), LineError> {
    walk(rules, fen, moves, |_, _| ())
}

/// The `moves` of a query's JSON input as strings (none when absent; entries that are not
/// strings left out): what a case check or a diagram of the input plays from its FEN.
pub(crate) fn input_moves(input: &serde_json::Map<String, serde_json::Value>) -> Vec<String> {
    input
        .get("moves")
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Every position of the line `fen` + `moves`, and the moves.
pub fn line(rules: &Rules, fen: &str, moves: &[String]) -> Result<Line, LineError> {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut played = Vec::with_capacity(moves.len());
    let (last, _) = walk(rules, fen, moves, |before, m| {
        positions.push(before.clone());
        played.push(m);
    })?;
    positions.push(last);
    Ok(Line {
        positions,
        moves: played,
    })
}

/// Plays `moves` from `fen`, showing `visit` each position with the move played from it.
fn walk(
    rules: &Rules,
    fen: &str,
    moves: &[String],
    mut visit: impl FnMut(&Position, Move),
) -> Result<(Position, Option<Move>), LineError> {
    let (mut pos, _) = fen::parse(rules, fen).map_err(LineError::Fen)?;
    let mut last = None;
    for (i, text) in moves.iter().enumerate() {
        let index = i + 1;
        let m = Move::parse_iccs(text).ok_or_else(|| LineError::MoveSyntax {
            index,
            text: text.clone(),
        })?;
        visit(&pos, m);
        pos.play(rules, m)
            .map_err(|error| LineError::Illegal { index, error })?;
        last = Some(m);
    }
    Ok((pos, last))
}

/// A line of play as a person gives it, read once into the form every query takes: the
/// FEN (`startpos` written out under the rules) and the moves in canonical ICCS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// The position the moves start from, in FEN.
    pub fen: String,
    /// The moves, in canonical ICCS.
    pub moves: Vec<String>,
}

/// Why moves given in any notation are not a line of play from the FEN.
#[derive(Clone, Debug, PartialEq)]
pub enum GivenError {
    /// The FEN is not a FEN, or not a position the rules allow.
    Fen(FenError),
    /// A move does not read, or names no single legal move where it is played.
    Move {
        /// Its ply in the line, from 1.
        ply: usize,
        /// The item of the moves given that holds it (0-based) and that item's text.
        item: Option<(usize, String)>,
        /// The move as written.
        text: String,
        /// Why it does not read or resolve (boxed: the error type stays small).
        error: Box<crate::notation::NotationError>,
    },
    /// Text of the moves given that is no move at all (a comment never closed …).
    Text {
        /// The item of the moves given that holds it (0-based) and that item's text.
        item: Option<(usize, String)>,
        /// What is wrong, in words.
        message: String,
    },
}

impl GivenError {
    /// The protocol's reject kind: the FEN's, else `notation.syntax`, `notation.no_match`
    /// or `notation.ambiguous`.
    pub fn reject_kind(&self) -> &'static str {
        match self {
            GivenError::Fen(e) => e.reject_kind(),
            GivenError::Move { error, .. } => error.reject_kind().code(),
            GivenError::Text { .. } => crate::notation::RejectKind::NotationSyntax.code(),
        }
    }

    /// The error with the item of the moves that holds it named by `name` (`argument 3`,
    /// `moves[2]`) and its text; the move too when the item holds more than it.
    pub fn told(&self, name: impl Fn(usize) -> String) -> String {
        let named = |(i, t): &(usize, String)| format!("{} {t:?}", name(*i));
        match self {
            GivenError::Fen(e) => format!("invalid FEN: {e}"),
            GivenError::Move {
                ply,
                item,
                text,
                error,
            } => {
                let which = match item {
                    Some(it) if it.1.trim() == text => named(it),
                    Some(it) => format!("{}, move {text:?}", named(it)),
                    None => format!("move {text:?}"),
                };
                format!("{which} (ply {ply}): {error}")
            }
            GivenError::Text {
                item: Some(it),
                message,
            } => format!("{}: {message}", named(it)),
            GivenError::Text {
                item: None,
                message,
            } => message.clone(),
        }
    }
}

impl fmt::Display for GivenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.told(|i| format!("moves[{i}]")))
    }
}

impl std::error::Error for GivenError {}

/// A FEN as given, `startpos` written out as the rules' start position.
pub fn fen_text(rules: &Rules, fen: &str) -> String {
    if fen.trim() == fen::STARTPOS {
        rules.start_position().to_fen(rules)
    } else {
        fen.to_string()
    }
}

/// `fen` (or `startpos`) and `moves` written in any notation the grammar reads (ICCS, WXF,
/// Chinese in any of its forms; move numbers allowed, several moves to an item) as a
/// [`Given`] line: read as the movetext of a record made for them, so that they read as
/// a record's moves do. Moves all in canonical ICCS are taken as they are (the query
/// that plays them says which is illegal). An error names the item of `moves` and the
/// ply, never a place in that record.
pub fn given(rules: &Rules, fen: &str, moves: &[String]) -> Result<Given, GivenError> {
    use crate::notation::replay::{ReplayError, Replayer};
    let fen = fen_text(rules, fen);
    if moves.iter().all(|m| Move::is_iccs(m)) {
        return Ok(Given {
            fen,
            moves: moves.to_vec(),
        });
    }
    // The record's tag holds the position as the rules write it (one line, no quote).
    let (start, _) = fen::parse(rules, &fen).map_err(GivenError::Fen)?;
    let head = format!("[FEN \"{}\"]\n\n", start.to_fen(rules));
    let movetext = moves.join(" ");
    let text = format!("{head}{movetext}\n");
    // The item (0-based) that holds byte `at` of the movetext, with its text.
    let item = |at: usize| {
        let mut end = 0;
        moves
            .iter()
            .position(|m| {
                end += m.len() + 1;
                at < end
            })
            .map(|i| (i, moves[i].clone()))
    };
    let games = crate::notation::pgn::parse(&text);
    let Some(first) = games.first() else {
        return Err(GivenError::Text {
            item: None,
            message: "no moves read".into(),
        });
    };
    // A tag or a result among the moves would end them there, the rest read as another
    // game: refused, never dropped.
    let cut = match (first.tags.get(1), games.get(1)) {
        (Some(tag), _) => Some(tag.offset),
        (None, Some(_)) if first.result.is_some() => Some(first.result_offset),
        (None, next) => next.map(|g| g.offset),
    };
    if let Some(at) = cut {
        return Err(GivenError::Text {
            item: at.checked_sub(head.len()).and_then(item),
            message: "a tag or a result ends a record's moves, and the moves after it would be lost: give moves only".into(),
        });
    }
    let game = Replayer::new(rules).replay(&text, first);
    let Some(e) = game.error else {
        return Ok(Given {
            fen,
            moves: game.moves.iter().map(|m| m.iccs()).collect(),
        });
    };
    Err(match e {
        ReplayError::Move {
            ply,
            text,
            offset,
            error,
            ..
        } => GivenError::Move {
            ply,
            item: offset.checked_sub(head.len()).and_then(item),
            text,
            error: Box::new(error),
        },
        // The FEN read above: the tag holds a position.
        ReplayError::Fen { message, .. } => GivenError::Text {
            item: None,
            message: format!("invalid FEN: {message}"),
        },
        // Items are text already: no encoding fault can arise, but say it if one does.
        ReplayError::Encoding { message, .. } => GivenError::Text {
            item: None,
            message,
        },
        ReplayError::Pgn(e) => {
            // Lines 1 and 2 hold the FEN tag; the movetext starts on line 3.
            let line_start: usize = movetext
                .split_inclusive('\n')
                .take(e.line.saturating_sub(3))
                .map(str::len)
                .sum();
            let rest = &movetext[line_start.min(movetext.len())..];
            let at = line_start
                + rest
                    .char_indices()
                    .nth(e.column.saturating_sub(1))
                    .map_or(rest.len(), |(b, _)| b);
            GivenError::Text {
                item: item(at),
                message: e.message().to_string(),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn one_rule_for_a_move_given_as_input() {
        let rules = Rules::builtin("cxa-2020").unwrap();
        let (pos, last) = after(&rules, "startpos", &moves(&["h2e2", "h9g7"])).unwrap();
        assert_eq!(last.map(Move::iccs).as_deref(), Some("h9g7"));
        assert_eq!(
            line(&rules, "startpos", &moves(&["h2e2", "h9g7"]))
                .unwrap()
                .positions
                .last(),
            Some(&pos)
        );
        for text in ["H2-E2", "H2E2", "h2-e2", " h2e2", "h2e2 ", "j2e2", "h2e"] {
            let e = after(&rules, "startpos", &moves(&["h0g2", text])).unwrap_err();
            assert_eq!(
                e,
                LineError::MoveSyntax {
                    index: 2,
                    text: text.into()
                }
            );
            assert_eq!(e.reject_kind(), "move.syntax");
        }
        let e = after(&rules, "startpos", &moves(&["a0a5"])).unwrap_err();
        assert!(
            matches!(e, LineError::Illegal { index: 1, .. })
                && e.to_string().starts_with("move 1: "),
            "{e}"
        );
        let e = after(&rules, "4k4/9/9/9/9/9/9/9/9/4K4 w", &[]).unwrap_err();
        assert_eq!(e.reject_kind(), "fen.opponent_in_check");
        assert!(e.to_string().starts_with("invalid FEN: "));
    }

    #[test]
    fn a_line_given_in_any_notation_is_read_once_into_iccs() {
        let rules = Rules::builtin("cxa-2020").unwrap();
        let start = rules.start_position().to_fen(&rules);
        let g = given(
            &rules,
            "startpos",
            &moves(&["1.", "炮二平五", "马８进７ 2. H2+3"]),
        )
        .unwrap();
        assert_eq!(g.fen, start);
        assert_eq!(g.moves, moves(&["h2e2", "h9g7", "h0g2"]));
        // ICCS alone is taken as it is: the query that plays it judges it.
        let g = given(&rules, "startpos", &moves(&["h2e2", "a0a5"])).unwrap();
        assert_eq!(g.moves, moves(&["h2e2", "a0a5"]));
        // A move naming no legal move: its item, its ply, its kind.
        let e = given(&rules, "startpos", &moves(&["炮二平五", "炮8进9"])).unwrap_err();
        assert!(
            matches!(
                &e,
                GivenError::Move {
                    ply: 2,
                    item: Some((1, _)),
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(e.reject_kind(), "notation.no_match");
        assert!(
            e.to_string().starts_with("moves[1] \"炮8进9\" (ply 2): "),
            "{e}"
        );
        assert!(e
            .told(|i| format!("argument {}", i + 1))
            .starts_with("argument 2 \"炮8进9\" (ply 2): "));
        // An item of several moves names the move too; text that is no move, its item.
        let e = given(
            &rules,
            "startpos",
            &moves(&["炮二平五", "马８进７ 车一进九"]),
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("moves[1] \"马８进７ 车一进九\", move \"车一进九\" (ply 3)"),
            "{e}"
        );
        let e = given(&rules, "startpos", &moves(&["炮二平五", "{", "马８进７"])).unwrap_err();
        assert_eq!(e.to_string(), "moves[1] \"{\": comment never closed");
        assert_eq!(e.reject_kind(), "notation.syntax");
        let e = given(&rules, "startpos", &moves(&["炮二平五", "马二进九九"])).unwrap_err();
        assert_eq!(e.reject_kind(), "notation.syntax");
        // A tag or a result among the moves would cut them: refused, naming its item.
        for (items, at) in [
            (&["h2e2", "[Event \"x\"]", "h9g7"][..], 1),
            (&["[Event \"x\"]"][..], 0),
            (&["炮二平五 *", "马8进7"][..], 0),
            (&["炮二平五", "1-0", "马8进7"][..], 1),
        ] {
            let e = given(&rules, "startpos", &moves(items)).unwrap_err();
            assert!(
                e.to_string().starts_with(&format!("moves[{at}] "))
                    && e.to_string().contains("give moves only"),
                "{items:?}: {e}"
            );
            assert_eq!(e.reject_kind(), "notation.syntax");
        }
        // A result at the end cuts nothing.
        let g = given(&rules, "startpos", &moves(&["炮二平五", "马8进7", "1-0"])).unwrap();
        assert_eq!(g.moves, moves(&["h2e2", "h9g7"]));
        // A bad FEN is the FEN's error, typed.
        let e = given(&rules, "9/9 w", &moves(&["炮二平五"])).unwrap_err();
        assert!(
            matches!(e, GivenError::Fen(_)) && e.reject_kind().starts_with("fen"),
            "{e:?}"
        );
    }
}
