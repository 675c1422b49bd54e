//! The tables derived once from the instructions: leaps by point, the points a piece checks
//! from (`check_arrival`), the line attackers, rays, reachability and the move bound.

use super::*;

/// Flattened leaps and the reverse (attack) tables.
pub(super) struct LeapTables {
    pub(super) leaps: Vec<Leap>,
    pub(super) leap_index: Vec<(u16, u16)>,
    pub(super) leap_to: Vec<u128>,
    pub(super) reverse: Vec<ReverseLeap>,
    pub(super) reverse_index: Vec<(u16, u16)>,
    pub(super) reverse_from: Vec<u128>,
}

pub(super) fn leap_tables(leap_lists: &[Vec<Leap>]) -> LeapTables {
    let mut leaps = Vec::new();
    let mut leap_index = vec![(0u16, 0u16); 2 * MAX_KINDS * SQUARES];
    let leap_to = leap_lists
        .iter()
        .map(|list| list.iter().fold(0u128, |m, l| m | 1u128 << l.to))
        .collect();
    let mut reverse_lists: Vec<Vec<ReverseLeap>> = vec![Vec::new(); 2 * SQUARES];
    for (i, list) in leap_lists.iter().enumerate() {
        let start = leaps.len() as u16;
        leaps.extend_from_slice(list);
        leap_index[i] = (start, leaps.len() as u16);
        let side = i / (MAX_KINDS * SQUARES);
        let kind = (i / SQUARES) % MAX_KINDS;
        let from = (i % SQUARES) as u8;
        for l in list.iter().filter(|l| l.modes & CAPTURE != 0) {
            let rev = &mut reverse_lists[side * SQUARES + l.to as usize];
            match rev
                .iter_mut()
                .find(|r| r.from == from && r.block == l.block)
            {
                Some(r) => r.kinds |= 1 << kind,
                None => rev.push(ReverseLeap {
                    from,
                    block: l.block,
                    kinds: 1 << kind,
                }),
            }
        }
    }
    let mut reverse = Vec::new();
    let mut reverse_index = vec![(0u16, 0u16); 2 * SQUARES];
    let mut reverse_from = vec![0u128; 2 * SQUARES];
    for (i, list) in reverse_lists.iter().enumerate() {
        let start = reverse.len() as u16;
        reverse.extend_from_slice(list);
        reverse_index[i] = (start, reverse.len() as u16);
        reverse_from[i] = list.iter().fold(0, |m, r| m | 1u128 << r.from);
    }
    LeapTables {
        leaps,
        leap_index,
        leap_to,
        reverse,
        reverse_index,
        reverse_from,
    }
}

/// The check zone of every point for each attacking side: its four lines, and the start
/// and blocking points of the leaps onto it.
pub(super) fn check_zones(t: &LeapTables, rays: &[[u128; 4]]) -> Vec<u128> {
    (0..2 * SQUARES)
        .map(|i| {
            let (a, b) = t.reverse_index[i];
            let leaps = t.reverse[a as usize..b as usize]
                .iter()
                .fold(0u128, |m, r| {
                    m | 1u128 << r.from
                        | if r.block == NO_BLOCK {
                            0
                        } else {
                            1u128 << r.block
                        }
                });
            leaps | rays[i % SQUARES].iter().fold(0, |m, r| m | r)
        })
        .collect()
}

/// Per attacking side and point, per kind: the points a piece of that kind may arrive on to
/// attack the point (the starts of its leaps onto it, and the point's lines along which the
/// kind captures). `check_arrival[side * 90 + sq][kind]`.
pub(super) fn check_arrivals(
    t: &LeapTables,
    rays: &[[u128; 4]],
    line_attackers: &[[u8; 4]; 2],
) -> Vec<[u128; MAX_KINDS]> {
    (0..2 * SQUARES)
        .map(|i| {
            let (side, sq) = (i / SQUARES, i % SQUARES);
            let mut direct = [0u128; MAX_KINDS];
            let (a, b) = t.reverse_index[i];
            for r in &t.reverse[a as usize..b as usize] {
                for (kind, d) in direct.iter_mut().enumerate() {
                    if r.kinds >> kind & 1 != 0 {
                        *d |= 1u128 << r.from;
                    }
                }
            }
            for (d, ray) in rays[sq].iter().enumerate() {
                let kinds = line_attackers[side][crate::vm::opposite(d)];
                for (kind, z) in direct.iter_mut().enumerate() {
                    if kinds >> kind & 1 != 0 {
                        *z |= ray;
                    }
                }
            }
            direct
        })
        .collect()
}

/// Which kinds of each side capture along each direction, and which have any line move.
pub(super) fn line_attackers(rays: &[[Ray; 4]], nk: usize) -> ([[u8; 4]; 2], [[bool; 8]; 2]) {
    let mut line_attackers = [[0u8; 4]; 2];
    let mut has_rays = [[false; 8]; 2];
    for side in 0..2 {
        for kind in 0..nk {
            for sq in 0..SQUARES {
                let r = &rays[(side * MAX_KINDS + kind) * SQUARES + sq];
                for (d, ray) in r.iter().enumerate() {
                    if !ray.is_empty() {
                        has_rays[side][kind] = true;
                    }
                    if (ray.slide | ray.hop) & CAPTURE != 0 {
                        line_attackers[side][d] |= 1 << kind;
                    }
                }
            }
        }
    }
    (line_attackers, has_rays)
}

/// `ray_mask[sq][dir]`: every point from `sq` (exclusive) to the edge.
pub(super) fn ray_masks() -> Vec<[u128; 4]> {
    let mut ray_mask = vec![[0u128; 4]; SQUARES];
    for sq in Square::all() {
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            let mut m = 0u128;
            let (mut x, mut y) = (sq.file() as i32 + dx, sq.rank() as i32 + dy);
            while let Some(t) = Square::new(x, y) {
                m |= 1u128 << t.index();
                x += dx;
                y += dy;
            }
            ray_mask[sq.index()][d] = m;
        }
    }
    ray_mask
}

/// Points each kind can ever reach from its setup points on an otherwise empty board
/// (blocking points ignored, every hop and slide length allowed).
pub(super) fn reachability(rules: &Rules) -> [[u128; 8]; 2] {
    let mut out = [[0u128; 8]; 2];
    for side in Side::BOTH {
        for kind in 0..rules.kinds.len() as KindId {
            let mut seen = 0u128;
            let mut queue = VecDeque::new();
            for &(k, sq) in &rules.setup[side.index()] {
                if k == kind && seen >> sq.index() & 1 == 0 {
                    seen |= 1u128 << sq.index();
                    queue.push_back(sq.index());
                }
            }
            while let Some(sq) = queue.pop_front() {
                let targets = meaning::empty_board_targets(rules, side, kind, sq, false);
                let next = crate::vm::position_internals::BitIter(targets);
                for t in next {
                    if seen >> t & 1 == 0 {
                        seen |= 1u128 << t;
                        queue.push_back(t);
                    }
                }
            }
            out[side.index()][kind as usize] = seen;
        }
    }
    out
}

/// An upper bound on the moves of one side in any position: for each piece of the setup,
/// the most targets its program offers from any point.
pub(super) fn move_bound(rules: &Rules) -> usize {
    let mut total = 0;
    for side in Side::BOTH {
        let mut side_total = 0;
        for &(kind, _) in &rules.setup[side.index()] {
            let most = (0..SQUARES)
                .map(|sq| {
                    let lines: usize = rules
                        .rays_of(side, kind, sq)
                        .iter()
                        .filter(|r| !r.is_empty())
                        .count()
                        * (RANKS.max(FILES) as usize - 1);
                    rules.leaps_of(side, kind, sq).len() + lines
                })
                .max()
                .unwrap_or(0);
            side_total += most;
        }
        total = total.max(side_total);
    }
    total
}
