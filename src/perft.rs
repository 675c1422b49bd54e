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
