//! One function per query, or per kind of query (`notation_query` for `parse_move` and
//! `format_move`, `judge_game` for `outcome` and `game_status`): each reads its input
//! through the shared paths (`crate::line` for a FEN and moves) and asks its rule domain.
//! `Err` carries the answer when the input is refused or the rule set has no clauses for
//! the domain.

use crate::answer::ToAnswer;
use crate::arbiter::{AfterEnd, ArbiterError, ArbiterRules, OutcomeQuery, StatusQuery, TouchQuery};
use crate::clock::{ClockQuery, PlayoffQuery};
use crate::competition::StandingsQuery;
use crate::line::{self, LineError};
use crate::notation::NotationAsk;
use crate::query::Answer;
use crate::repetition::RulingQuery;
use crate::ruleset::RuleSet;
use crate::vm::{Position, Rules};

use super::{MAX_GAME_MOVES, MAX_RULING_PLIES, PERFT_NODE_BUDGET};

/// What a query function returns: the answer, or the answer that refuses the input.
pub(crate) type Answered = Result<Answer, Answer>;

/// The position after `moves` from `fen`, or the rejection (`fen.*`, `move.syntax`,
/// `move.illegal`).
pub(crate) fn position(rules: &Rules, fen: &str, moves: &[String]) -> Result<Position, Answer> {
    line::after(rules, fen, moves)
        .map(|(p, _)| p)
        .map_err(|e| match &e {
            LineError::Fen(f) => Answer::reject(f.reject_kind(), f.to_string()),
            _ => Answer::reject(e.reject_kind(), e.to_string()),
        })
}

/// `legal_moves`: sorted, for people reading `xqspec serve` (the protocol allows any order).
pub fn legal_moves(rs: &RuleSet, fen: &str, moves: &[String]) -> Answered {
    let pos = position(&rs.vm, fen, moves)?;
    let mut list: Vec<String> = pos.legal_moves(&rs.vm).iter().map(|m| m.iccs()).collect();
    list.sort_unstable();
    Ok(Answer::moves(list))
}

/// `perft`, within [`PERFT_NODE_BUDGET`].
pub fn perft(rs: &RuleSet, fen: &str, moves: &[String], depth: u32) -> Answered {
    let mut pos = position(&rs.vm, fen, moves)?;
    Ok(
        match crate::perft::perft_within(&mut pos, &rs.vm, depth, PERFT_NODE_BUDGET) {
            Ok(n) => Answer::nodes(n),
            Err(e) => Answer::unsupported(format!(
                "perft depth {depth} stopped: {e}, limits.perft_nodes"
            )),
        },
    )
}

/// `status`.
pub fn status(rs: &RuleSet, fen: &str, moves: &[String]) -> Answered {
    Ok(Answer::status(
        position(&rs.vm, fen, moves)?.status(&rs.vm).name(),
    ))
}

/// `validate_fen`.
pub(crate) fn validate_fen(rs: &RuleSet, fen: &str) -> Answered {
    position(&rs.vm, fen, &[])?;
    Ok(Answer::valid())
}

/// A notation query after `moves` from `fen`, in the notation `notation`: the move read
/// (`parsed_move`) or written (`text`); a refusal as a rejection (`unsupported` a skip).
pub(crate) fn notation_query(
    rs: &RuleSet,
    fen: &str,
    moves: &[String],
    notation: &str,
    ask: NotationAsk<'_>,
) -> Answered {
    let pos = position(&rs.vm, fen, moves)?;
    let answer = match ask {
        NotationAsk::Parse(_) => Answer::parsed_move,
        NotationAsk::Format(_) => Answer::text,
    };
    Ok(
        match crate::notation::answer_notation(&rs.vm, &pos, notation, ask) {
            Ok(t) => answer(t),
            Err(r) if r.kind == crate::notation::RejectKind::Unsupported => {
                Answer::unsupported(r.message)
            }
            Err(r) => Answer::reject(r.kind, r.message),
        },
    )
}

/// The arbiter's rules of a rule set, or the answer that it has none.
fn arbiter_rules(ruleset: &RuleSet) -> Result<&ArbiterRules, Answer> {
    ruleset.arbiter.as_ref().ok_or_else(|| {
        Answer::unsupported(format!(
            "rule set {} has no arbiter's clauses (result.*, touch.*, foul.* …)",
            ruleset.id()
        ))
    })
}

/// The rejection of an input the arbiter refuses.
fn arbiter_reject(e: ArbiterError) -> Answer {
    match e {
        ArbiterError::Fen(f) => Answer::reject(f.reject_kind(), f.to_string()),
        ArbiterError::Reject { kind, message } => Answer::reject(kind, message),
    }
}

/// A query on a whole game that the arbiter judges, borrowed from the query.
#[derive(Clone, Copy)]
pub(crate) enum GameQuery<'q> {
    /// `outcome`: the game given as events.
    Outcome(&'q OutcomeQuery),
    /// `game_status`: the game given as moves.
    Status(&'q StatusQuery),
}

/// `outcome` and `game_status`: the arbiter's judgement of a game, with events (or moves)
/// after the game ended by the rules refused (`AfterEnd::Refuse`, as the protocol's queries
/// do) or, for a record that goes on, left unjudged and counted in the answer
/// (`continues`). A game longer than `limits.game_moves` is refused.
pub(crate) fn judge_game(rs: &RuleSet, game: GameQuery<'_>, after_end: AfterEnd) -> Answered {
    let (field, n, items, what) = match game {
        GameQuery::Outcome(q) => ("outcome", q.events.len(), "events", "an outcome"),
        GameQuery::Status(q) => ("game_status", q.moves.len(), "moves", "a game status"),
    };
    if n > MAX_GAME_MOVES {
        return Ok(Answer::unsupported(format!(
            "{n} {items}: {what} takes at most {MAX_GAME_MOVES} (limits.game_moves)"
        )));
    }
    let (a, board) = (arbiter_rules(rs)?, rs.board());
    let judged = match game {
        GameQuery::Outcome(q) => a.outcome_of(board, q, after_end).map(|o| o.to_json()),
        GameQuery::Status(q) => a.game_status_of(board, q, after_end).map(|s| s.to_json()),
    };
    Ok(Answer::one(field, judged.map_err(arbiter_reject)?))
}

/// `outcome` of a game record, which may go on after the game ended by the rules: judged
/// up to that end, the answer saying how far it goes on (`continues`), as `xqspec outcome`
/// judges it, where the protocol's query refuses it (the Python package's `outcome`).
pub fn record_outcome(rs: &RuleSet, q: &OutcomeQuery) -> Answer {
    judge_game(rs, GameQuery::Outcome(q), AfterEnd::Stop).unwrap_or_else(|a| a)
}

/// `game_status` of a game record, which may go on after the game ended by the rules: it
/// is judged up to that end and the answer says how far it goes on (`continues`), as
/// `xqspec status` judges it, where the protocol's query refuses it (`xqspec web`'s
/// `/api/status`, the Python package's `game_status`).
pub fn record_status(rs: &RuleSet, q: &StatusQuery) -> Answer {
    judge_game(rs, GameQuery::Status(q), AfterEnd::Stop).unwrap_or_else(|a| a)
}

/// `touch_move`.
pub fn touch_move(rs: &RuleSet, q: &TouchQuery) -> Answered {
    let t = arbiter_rules(rs)?
        .touch_move(&rs.vm, q)
        .map_err(arbiter_reject)?;
    Ok(Answer::one("touch", t.to_json()))
}

/// `clock`.
pub(crate) fn clock(rs: &RuleSet, q: &ClockQuery) -> Answered {
    Ok(match &rs.clock {
        None => Answer::unsupported(format!("rule set {} has no clock clauses", rs.id())),
        Some(c) => match c.answer_clock(q) {
            Ok(v) => Answer::one("clock", v),
            Err(e) => Answer::reject(e.reject_kind(), e.to_string()),
        },
    })
}

/// `playoff`.
pub(crate) fn playoff(rs: &RuleSet, q: &PlayoffQuery) -> Answered {
    Ok(match &rs.clock {
        None => Answer::unsupported(format!("rule set {} has no clock clauses", rs.id())),
        Some(c) => match c.answer_playoff(q) {
            Ok(v) => Answer::one("playoff", v),
            Err(e) => Answer::reject(e.kind.reject_kind(), e.message),
        },
    })
}

/// `standings`.
pub fn standings(rs: &RuleSet, q: &StandingsQuery) -> Answered {
    Ok(match &rs.competition {
        None => Answer::unsupported(format!("rule set {} has no competition clauses", rs.id())),
        Some(rules) => match crate::competition::answer(rules, q) {
            Ok(v) => Answer::one("standings", v),
            Err(e) => Answer::reject(e.reject_kind(), e.to_string()),
        },
    })
}

/// `ruling`, of at most [`MAX_RULING_PLIES`] moves.
pub fn ruling(rs: &RuleSet, q: &RulingQuery) -> Answered {
    if q.moves.len() > MAX_RULING_PLIES {
        return Ok(Answer::unsupported(format!(
            "{} moves: a ruling takes at most {MAX_RULING_PLIES} (limits.ruling_plies)",
            q.moves.len()
        )));
    }
    Ok(match &rs.repetition {
        None => Answer::unsupported(format!(
            "rule set {} has no repetition (棋例) clauses",
            rs.id()
        )),
        Some(rep) => match crate::repetition::rule(&rs.vm, rep, q) {
            Ok(r) => Answer::one("ruling", r.to_json(rep)),
            Err(e) => Answer::reject(e.reject_kind(), e.to_string()),
        },
    })
}
