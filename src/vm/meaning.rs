//! Meaning checks of the VM's data, run by the compile step once the tables are built:
//! whatever shape checks let through but the rules cannot mean. Nothing here knows a
//! piece: the checks are about what any move program, region or setup must satisfy.
//!
//! - every offset of a step or leap, and every direction of a slide or hop, lands on the
//!   board (inside its `to` region) from at least one point of its `from` region;
//! - every kind's program gives a move from some point of the board, and from one of its
//!   setup points (on an otherwise empty board);
//! - every piece is set up inside the regions its moves confine it to (a kind every move
//!   of which ends in a region — `to:` — stands in it from the start: a general in its
//!   palace);
//! - the setup is a legal position under the edition's own rules ([`crate::vm::fen::validate`]).

use std::collections::BTreeMap;

use super::data::Instruction;
use super::{Rules, DIRS};
use crate::board::{KindId, Side, Square};
use crate::spec::{Clause, SpecError};

use super::compile::err;

/// Where a kind's moves may end: `None` when some instruction has no `to` region, else
/// the union of the regions (Red frame) with their names.
pub(super) type Confinement = Option<(u128, Vec<String>)>;

/// Adds one instruction's `to` region to a kind's confinement.
pub(super) fn confine(
    current: &mut Confinement,
    ins: &Instruction,
    regions: &BTreeMap<String, u128>,
) {
    match (
        current.as_mut(),
        ins.to.as_ref().and_then(|n| regions.get(n).map(|m| (n, m))),
    ) {
        (Some((mask, names)), Some((n, m))) => {
            *mask |= m;
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
        _ => *current = None,
    }
}

fn on(mask: Option<u128>, sq: Square) -> bool {
    mask.is_none_or(|m| m >> sq.index() & 1 == 1)
}

/// The point `k` times the offset `d` from `from`, Red frame.
fn along(from: Square, d: [i32; 2], k: i32) -> Option<Square> {
    Square::new(from.file() as i32 + d[0] * k, from.rank() as i32 + d[1] * k)
}

/// Whether a step or leap of offset `o` (blocking point `b`) lands on the board inside
/// `to` from some point of `from` (Red frame).
pub(super) fn leap_lands(
    o: [i32; 2],
    b: Option<[i32; 2]>,
    from: Option<u128>,
    to: Option<u128>,
) -> bool {
    Square::all().any(|s| {
        on(from, s)
            && along(s, o, 1).is_some_and(|t| on(to, t))
            && b.is_none_or(|b| along(s, b, 1).is_some())
    })
}

/// Whether a slide (at most `max` points) or a hop (over `screens` pieces) along `d` ends
/// on the board inside `to` from some point of `from` (Red frame).
pub(super) fn line_lands(
    d: [i32; 2],
    hop_screens: Option<u8>,
    max: u8,
    from: Option<u128>,
    to: Option<u128>,
) -> bool {
    let (first, last) = match hop_screens {
        Some(s) => (i32::from(s) + 1, i32::MAX),
        None => (1, i32::from(max)),
    };
    Square::all().any(|s| {
        on(from, s)
            && (first..=last.min(first + 10)).any(|k| along(s, d, k).is_some_and(|t| on(to, t)))
    })
}

/// The points a piece of `kind` of `side` on `sq` can move to on an otherwise empty board
/// (a hop counted as if its screens stood in the way).
pub(super) fn empty_board_targets(
    rules: &Rules,
    side: Side,
    kind: KindId,
    sq: usize,
    hops_need_screens: bool,
) -> u128 {
    let mut out = rules
        .leaps_of(side, kind, sq)
        .iter()
        .fold(0u128, |m, l| m | 1u128 << l.to);
    let Some(from) = Square::from_index(sq) else {
        return out;
    };
    for (d, ray) in rules.rays_of(side, kind, sq).iter().enumerate() {
        if ray.is_empty() {
            continue;
        }
        let (first, limit) = match (ray.hop != 0, ray.slide != 0) {
            (true, false) if hops_need_screens => (ray.screens.saturating_add(1), u8::MAX),
            (true, _) => (1, u8::MAX),
            _ => (1, ray.max),
        };
        let (dx, dy) = DIRS[d];
        let mut n = 1u8;
        while let Some(t) = along(from, [dx, dy], i32::from(n)) {
            if n > limit {
                break;
            }
            if n >= first && rules.masks[ray.to_mask as usize] >> t.index() & 1 == 1 {
                out |= 1u128 << t.index();
            }
            n = n.saturating_add(1);
        }
    }
    out
}

/// The kind-level checks, once the tables are built. `movement[k]` is the clause that gives
/// kind `k` its moves; `confinement[k]` where its moves end.
pub(super) fn check_kinds(
    rules: &Rules,
    movement: &[&Clause],
    confinement: &[Confinement],
    setup_clause: &Clause,
) -> Result<(), SpecError> {
    for (k, info) in rules.kinds.iter().enumerate() {
        let kind = k as KindId;
        let c = movement[k];
        let anywhere = Side::BOTH.iter().any(|&side| {
            (0..crate::board::SQUARES)
                .any(|sq| empty_board_targets(rules, side, kind, sq, true) != 0)
        });
        if !anywhere {
            return Err(err(
                c,
                format!(
                    "`program`: kind `{}` gets no move from any point of the board",
                    info.name
                ),
            ));
        }
        let setup: Vec<Square> = rules.setup[Side::Red.index()]
            .iter()
            .filter(|(x, _)| *x == kind)
            .map(|&(_, s)| s)
            .collect();
        if let Some((mask, names)) = &confinement[k] {
            if let Some(out) = setup.iter().find(|s| mask >> s.index() & 1 == 0) {
                return Err(err(
                    setup_clause,
                    format!(
                        "`points.{}`: {out} is outside {}, where every move of `{}` ends (`to:`); a piece is set up where its moves keep it",
                        info.name,
                        names.join(" ∪ "),
                        c.id
                    ),
                ));
            }
        }
        for side in Side::BOTH {
            let points: Vec<Square> = rules.setup[side.index()]
                .iter()
                .filter(|(x, _)| *x == kind)
                .map(|&(_, s)| s)
                .collect();
            if !points.is_empty()
                && points
                    .iter()
                    .all(|s| empty_board_targets(rules, side, kind, s.index(), true) == 0)
            {
                let list: Vec<String> = setup.iter().map(Square::to_string).collect();
                return Err(err(
                    c,
                    format!(
                        "`program`: kind `{}` has no move from any of its setup points ({}, pieces.setup), even on an empty board",
                        info.name,
                        list.join(", ")
                    ),
                ));
            }
        }
    }
    crate::vm::fen::validate(rules, &rules.start_position()).map_err(|e| {
        err(
            setup_clause,
            format!("`points`: the setup is not a legal position under the edition's rules: {e}"),
        )
    })
}
