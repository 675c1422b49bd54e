//! A line judged as `xqspec ruling` and the web desk's sheet judge it: how the game stands
//! by the arbiter's rules, the moves up to where it ended (for a record that goes on after
//! its end), the 棋例 ruling on them, the positions and each move in Chinese notation.

use super::{AfterEnd, ArbiterRules, BoardRules, Continues, GameStatus, StatusQuery};
use crate::line::Line;
use crate::notation::{format_move, Notation};
use crate::repetition::ruling::{rule_every_move, Ruling};
use crate::repetition::{rule, RepetitionRules, RulingQuery};
use crate::vm::Rules;

/// A line judged by [`rule_line`].
pub struct LineRuling {
    /// How the game stands by the arbiter's rules after the moves given (all of them).
    pub status: Option<GameStatus>,
    /// Where a record going on after the end of the game was cut (`cut_at_end` only).
    pub cut: Option<Continues>,
    /// The ruling on the moves judged.
    pub ruling: Ruling,
    /// The positions and moves judged.
    pub line: Line,
    /// Every move judged in Chinese notation.
    pub chinese: Vec<String>,
}

/// Judges `moves` from `fen` by the 棋例 rules `rep` (every move classed when
/// `every_move`); with `cut_at_end`, only the moves up to where the game ended by the
/// arbiter's rules (`arbiter`, when the rule set has them).
pub fn rule_line(
    vm: &Rules,
    arbiter: Option<&ArbiterRules>,
    rep: &RepetitionRules,
    fen: String,
    moves: Vec<String>,
    every_move: bool,
    cut_at_end: bool,
) -> Result<LineRuling, String> {
    // How the game stands by the rules of the game (the arbiter watching the board): a
    // record is judged up to where the game ended, if it did, and an end that is not the
    // 棋例 verdict (art. 4.3 turning a draw into a loss) is said beside it.
    let status = arbiter.and_then(|arbiter| {
        let q = StatusQuery {
            fen: fen.clone(),
            moves: moves.clone(),
        };
        arbiter
            .game_status_of(
                BoardRules {
                    vm,
                    repetition: Some(rep),
                },
                &q,
                AfterEnd::Stop,
            )
            .ok()
    });
    let cut = status
        .as_ref()
        .and_then(|s| s.continues)
        .filter(|_| cut_at_end);
    let moves = match cut {
        Some(c) => moves[..c.from].to_vec(),
        None => moves,
    };
    let q = RulingQuery {
        fen: fen.clone(),
        moves: moves.clone(),
    };
    let ruling = if every_move {
        rule_every_move(vm, rep, &q)
    } else {
        rule(vm, rep, &q)
    }
    .map_err(|e| e.to_string())?;
    let line = crate::line::line(vm, &fen, &moves).map_err(|e| e.to_string())?;
    let chinese = line
        .moves
        .iter()
        .zip(&line.positions)
        .map(|(&m, pos)| {
            format_move(vm, pos, m, Notation::Chinese, Default::default()).unwrap_or_default()
        })
        .collect();
    Ok(LineRuling {
        status,
        cut,
        ruling,
        line,
        chinese,
    })
}
