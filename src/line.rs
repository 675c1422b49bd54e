//! From input to positions, once for every command and query: a FEN (read into a
//! `crate::vm::fen::Setup`, validated against the rule set into a `Position`) and moves in
//! canonical ICCS ([`Move::parse_iccs`], the one move reader), each legal where it is
//! played.
//!
//! [`after`] gives the position after the moves, [`line()`] every position of the line; both
//! refuse with one [`LineError`] (the FEN's error, `move N` not ICCS, `move N` illegal) and
//! its reject kinds. Every command and query reads a FEN and moves through here.

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
}
