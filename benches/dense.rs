//! The 棋例 ruling's worst case, bounded (issue 33): tactically dense positions, generated
//! from a seed, most pieces of both sides within reach of each other. Prints, under
//! cxa-2020:
//!
//! - 4-ply cycles (a piece of each side steps away and back): median and slowest of
//!   `DENSE_CYCLES` positions (200 by default); the goal is every one under 50 ms;
//! - the fixed position of the issue, `DENSE_FEN`, ruled on its 4-ply cycle;
//! - a long judged line: `DENSE_PLIES` plies (1,000 by default) of play among the dense
//!   pieces classed as one cycle (`ruling --every-move`): the goal is under 2 s.
//!
//! A cycle's time is its best over `DENSE_REPS` passes over all the cycles (3 by default; the
//! ruling bench does the same): the work is the same each time, and a shared machine's noise
//! only adds.
//! `DENSE_SEED=N` changes the seed. The basis (every inferred reading switched off) is part
//! of every ruling timed. `DENSE_DUMP=FILE` also writes every ruling in full (the cycles', then
//! the long line's), one per line, so that a change made for speed can be shown to change no
//! ruling, or which (`diff` two dumps).

mod common;

use std::time::Instant;

use xqspec::rule_every_move;
use xqspec::Move;
use xqspec::RuleSet;
use xqspec::{rule, RulingQuery};
use xqspec::{Position, Rules};

/// The dense position of issue 33.
const DENSE_FEN: &str =
    "2b3bN1/P3ak2P/P2aP4/c5n2/3r2rc1/2P3p1N/1pp1n1C2/3ABA2B/R1p4C1/p2K1R3 w - - 0 1";

/// xorshift64*: a small seeded generator (the bench needs no statistics, only a repeatable
/// stream).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random legal position with the full army of each side, the chariots, horses, cannons
/// and soldiers on the four middle ranks (both sides' pieces within reach), advisors and
/// elephants on their own points, the generals in their palaces.
fn dense(vm: &Rules, rng: &mut Rng) -> Position {
    loop {
        let mut board = [['.'; 9]; 10];
        let mut place = |rng: &mut Rng, c: char, points: &[(usize, usize)]| {
            for _ in 0..50 {
                let (r, f) = points[rng.below(points.len())];
                if board[r][f] == '.' {
                    board[r][f] = c;
                    return;
                }
            }
        };
        let middle: Vec<(usize, usize)> =
            (3..7).flat_map(|r| (0..9).map(move |f| (r, f))).collect();
        for (upper, ranks) in [(true, 0usize), (false, 9usize)] {
            let rank = |d: usize| if ranks == 0 { d } else { 9 - d };
            let palace: Vec<(usize, usize)> = (0..3)
                .flat_map(|d| (3..6).map(move |f| (rank(d), f)))
                .collect();
            let advisor = [(0, 3), (0, 5), (1, 4), (2, 3), (2, 5)].map(|(d, f)| (rank(d), f));
            let elephant =
                [(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)].map(|(d, f)| (rank(d), f));
            let c = |ch: char| if upper { ch.to_ascii_lowercase() } else { ch };
            place(rng, c('K'), &palace);
            for _ in 0..2 {
                place(rng, c('A'), &advisor);
                place(rng, c('B'), &elephant);
                for k in ['R', 'N', 'C'] {
                    place(rng, c(k), &middle);
                }
            }
            for _ in 0..5 {
                place(rng, c('P'), &middle);
            }
        }
        let rows: Vec<String> = board
            .iter()
            .map(|row| {
                let mut s = String::new();
                let mut empty = 0;
                for &c in row {
                    if c == '.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(c);
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                s
            })
            .collect();
        let fen = format!("{} w - - 0 1", rows.join("/"));
        if let Ok(p) = Position::from_fen(vm, &fen) {
            if !p.legal_moves(vm).is_empty() && !p.in_check(vm) {
                return p;
            }
        }
    }
}

/// A 4-ply cycle from `pos`: a move of each side that captures nothing and can be taken back,
/// then both taken back.
fn cycle(vm: &Rules, pos: &Position, rng: &mut Rng) -> Option<Vec<Move>> {
    let quiet = |p: &Position| -> Vec<Move> {
        p.legal_moves(vm)
            .into_iter()
            .filter(|m| p.piece_at(m.to).is_none())
            .collect()
    };
    for _ in 0..20 {
        let mut p = pos.clone();
        let red = quiet(&p);
        let a = *red.get(rng.below(red.len().max(1)))?;
        p.make(vm, a);
        let black = quiet(&p);
        let b = *black.get(rng.below(black.len().max(1)))?;
        p.make(vm, b);
        // Each piece steps back where it came from, in turn, where it may.
        let [back_a, back_b] = [a, b].map(|m| Move {
            from: m.to,
            to: m.from,
        });
        let stepped_back = |m: Move, p: &mut Position| {
            let legal = p.legal_moves(vm).contains(&m);
            if legal {
                p.make(vm, m);
            }
            legal
        };
        if stepped_back(back_a, &mut p) && stepped_back(back_b, &mut p) {
            return Some(vec![a, b, back_a, back_b]);
        }
    }
    None
}

fn main() {
    let n: usize = common::setting("DENSE_CYCLES", 200);
    let plies: usize = common::setting("DENSE_PLIES", 1000);
    let seed: u64 = common::setting("DENSE_SEED", 33);
    let reps: usize = common::setting("DENSE_REPS", 3);
    let rs = RuleSet::builtin("cxa-2020").expect("built-in spec");
    let (vm, rep) = (&rs.vm, rs.repetition.as_ref().expect("repetition clauses"));
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);

    let mut dump = common::Dump::from_env("DENSE_DUMP");
    let mut cycles = Vec::new();
    while cycles.len() < n {
        let pos = dense(vm, &mut rng);
        let Some(moves) = cycle(vm, &pos, &mut rng) else {
            continue;
        };
        cycles.push(RulingQuery {
            fen: pos.to_fen(vm),
            moves: moves.iter().map(|m| m.iccs()).collect(),
        });
    }
    let (rulings, ms) = common::best_times(n, reps, |i| rule(vm, rep, &cycles[i]));
    let mut inferred = 0;
    let mut times = Vec::new();
    for ((q, r), ms) in cycles.iter().zip(rulings).zip(ms) {
        let r = r.expect("a legal cycle");
        inferred += usize::from(!r.basis.rests_on.is_empty());
        dump.line(|| format!("{} {}: {r:?}", q.fen, q.moves.join(" ")));
        times.push((ms, q.fen.clone(), q.moves.join(" ")));
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let pct = |p: f64| times[((times.len() as f64 - 1.0) * p) as usize].0;
    println!("{n} dense 4-ply cycles (seed {seed}, each the best of {reps} passes): median {:.2} ms, 90th percentile {:.2} ms, slowest {:.2} ms; {inferred} rest on a reading", pct(0.5), pct(0.9), pct(1.0));
    let (ms, fen, mv) = times.last().expect("cycles");
    println!("  slowest: {ms:.2} ms  {fen}  {mv}");

    let q = RulingQuery {
        fen: DENSE_FEN.into(),
        moves: ["f0g0", "d5d6", "g0f0", "d6d5"].map(String::from).to_vec(),
    };
    let (r, ms) = common::best_times(1, reps, |_| rule(vm, rep, &q));
    let r = r[0].as_ref().expect("the issue's cycle");
    println!(
        "the issue's dense cycle: {:.2} ms, verdict {} ({})",
        ms[0],
        r.verdict.name(),
        r.basis.caption()
    );

    // A long line: random quiet plies among dense pieces, classed as one cycle.
    let mut pos = dense(vm, &mut rng);
    let start = pos.to_fen(vm);
    let mut moves = Vec::new();
    while moves.len() < plies {
        // Quiet moves where there are any, so that the pieces stay dense; never one that ends
        // the game.
        let legal = pos.legal_moves(vm);
        let quiet: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to).is_none())
            .collect();
        let pool = if quiet.is_empty() { &legal } else { &quiet };
        let Some(m) = (0..pool.len())
            .map(|i| pool[(i + rng.below(pool.len())) % pool.len()])
            .find(|&m| {
                let mut next = pos.clone();
                next.make(vm, m);
                !next.legal_moves(vm).is_empty()
            })
        else {
            break;
        };
        pos.make(vm, m);
        moves.push(m.iccs());
    }
    let q = RulingQuery { fen: start, moves };
    let t = Instant::now();
    let r = rule_every_move(vm, rep, &q).expect("a legal line");
    dump.line(|| format!("{}: {r:?}", q.fen));
    println!(
        "a line of {} plies classed as one cycle: {:.2} s",
        r.plies.len(),
        t.elapsed().as_secs_f64()
    );
}
