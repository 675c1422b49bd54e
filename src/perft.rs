//! Perft: the number of legal move sequences of a given length, the standard check of a
//! move generator. The last ply is counted in bulk (legal moves counted, not played).

use crate::board::Move;
use crate::vm::position_internals::MoveBuf;
use crate::vm::{Position, Rules};

/// Leaf count of the legal move tree of `depth` plies.
pub fn perft(pos: &mut Position, rules: &Rules, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(rules),
        _ => {
            let mut moves = MoveBuf::new();
            pos.legal_into(rules, &mut moves);
            let mut n = 0;
            for &m in moves.as_slice() {
                let u = pos.make(rules, m);
                n += perft(pos, rules, depth - 1);
                pos.unmake(rules, m, u);
            }
            n
        }
    }
}

/// A perft stopped because it would visit more positions than its budget allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetExhausted {
    /// The budget, in positions visited.
    pub budget: u64,
}

impl std::fmt::Display for BudgetExhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "more than {} positions to visit (the node budget)",
            self.budget
        )
    }
}

impl std::error::Error for BudgetExhausted {}

/// [`perft`] that visits at most `budget` positions: the positions reached at every ply
/// from 1 to `depth`, those of the last ply counted in bulk (for the start position at
/// depth 3, 44 + 1,920 + 79,666). The count stops as soon as the budget is spent, so the
/// work is bounded whatever the depth.
pub fn perft_within(
    pos: &mut Position,
    rules: &Rules,
    depth: u32,
    budget: u64,
) -> Result<u64, BudgetExhausted> {
    let mut left = budget;
    bounded(pos, rules, depth, &mut left).ok_or(BudgetExhausted { budget })
}

fn bounded(pos: &mut Position, rules: &Rules, depth: u32, left: &mut u64) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => {
            let n = pos.count_legal(rules);
            *left = left.checked_sub(n)?;
            Some(n)
        }
        _ => {
            let mut moves = MoveBuf::new();
            pos.legal_into(rules, &mut moves);
            *left = left.checked_sub(moves.as_slice().len() as u64)?;
            let mut n = 0u64;
            for &m in moves.as_slice() {
                let u = pos.make(rules, m);
                let sub = bounded(pos, rules, depth - 1, left);
                pos.unmake(rules, m, u);
                n += sub?;
            }
            Some(n)
        }
    }
}

/// Perft split by first move, sorted by the move's ICCS text.
pub fn divide(pos: &mut Position, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
    let mut out: Vec<(Move, u64)> = Vec::new();
    if depth == 0 {
        return out;
    }
    let mut moves = MoveBuf::new();
    pos.legal_into(rules, &mut moves);
    for &m in moves.as_slice() {
        let u = pos.make(rules, m);
        out.push((m, perft(pos, rules, depth - 1)));
        pos.unmake(rules, m, u);
    }
    out.sort_by_key(|(m, _)| m.iccs());
    out
}
