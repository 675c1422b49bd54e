use super::*;

/// A repeatable stream of indices below `n` (xorshift), from `seed`.
fn below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// The filtered generation of legal moves (in check: only moves on the checks' lines),
/// of checks and of captures gives exactly the moves that are legal, check or capture
/// as playing every pseudo-legal move and asking says, over random walks from
/// positions with many lines and screens (the rule sets' own move programs).
#[test]
fn checks_and_captures_match_playing_every_move() {
    let starts = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "C2k1ab2/4a4/4P4/2r1c1p2/8p/9/P3N1P1P/4n4/1R7/3AKA3 w - - 0 1",
        "4k4/4a4/4ba2b/5N3/2n5C/4p2p1/P4n3/4BA3/4A4/2B1K4 w - - 0 1",
        "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
        // Cannons and chariots on the generals' lines, screens in between.
        "3ak4/4a4/9/4C4/4c4/9/2C1R4/9/4c4/3K5 b - - 0 1",
        "2c1k4/9/4r4/9/2C1C4/9/9/4R4/9/4K4 b - - 0 1",
    ];
    let mut next = below(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut in_check) = (0, 0);
    for edition in ["cxa-2020", "axf"] {
        let rules = Rules::builtin(edition).unwrap();
        for fen in starts {
            for _ in 0..40 {
                let mut pos = Position::from_fen(&rules, fen).unwrap();
                for _ in 0..60 {
                    // Legal by definition: every pseudo-legal move that does not leave
                    // the mover in self-kill.
                    let mut pseudo = MoveBuf::new();
                    pos.pseudo_moves(&rules, &mut pseudo);
                    let legal: Vec<Move> = pseudo
                        .as_slice()
                        .iter()
                        .copied()
                        .filter(|&m| {
                            let mut p = pos.clone();
                            p.make(&rules, m);
                            // The tests that look at a move without playing it agree with
                            // playing it, move by move.
                            assert_eq!(
                                pos.self_kill_after(&rules, m),
                                p.is_self_kill_for(&rules, pos.side),
                                "self-kill after {m:?} in {}",
                                pos.to_fen(&rules)
                            );
                            assert_eq!(
                                pos.gives_check_after(&rules, m),
                                p.in_check(&rules),
                                "check after {m:?} in {}",
                                pos.to_fen(&rules)
                            );
                            !p.is_self_kill_for(&rules, pos.side)
                        })
                        .collect();
                    assert_eq!(
                        pos.legal_moves(&rules),
                        legal,
                        "legal moves of {}",
                        pos.to_fen(&rules)
                    );
                    assert_eq!(pos.has_legal_move(&rules), !legal.is_empty());
                    if legal.is_empty() {
                        break;
                    }
                    in_check += usize::from(pos.in_check(&rules));
                    let theirs = pos.occ[pos.side.opponent().index()];
                    let gives = |m: &Move| {
                        let mut p = pos.clone();
                        p.make(&rules, *m);
                        p.in_check(&rules)
                    };
                    let want_checks: Vec<Move> = legal.iter().copied().filter(gives).collect();
                    let want_caps: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| theirs >> m.to.index() & 1 == 1)
                        .collect();
                    let (caps, checks) = pos.captures_and_checks(&rules, true, true);
                    assert_eq!(checks, want_checks, "checks of {}", pos.to_fen(&rules));
                    assert_eq!(caps, want_caps, "captures of {}", pos.to_fen(&rules));
                    // The moves onto one point, each point in turn: the legal moves that end
                    // there, in the same order.
                    for to in Square::all() {
                        let want: Vec<Move> =
                            legal.iter().copied().filter(|m| m.to == to).collect();
                        assert_eq!(
                            pos.legal_moves_to(&rules, to),
                            want,
                            "moves onto {to:?} in {}",
                            pos.to_fen(&rules)
                        );
                    }
                    checked += 1;
                    let m = legal[next(legal.len())];
                    pos.make(&rules, m);
                }
            }
        }
    }
    assert!(
        checked > 5000 && in_check > 200,
        "only {checked} positions, {in_check} in check"
    );
}

/// The Zobrist hash kept up by `make`, `unmake`, `put`, `remove` and a change of the side to
/// move is the one the points and the side to move give from scratch, over random walks with
/// captures, and equal placements compare and hash alike.
#[test]
fn zobrist_follows_every_change() {
    let from_scratch = |p: &Position| {
        (0..SQUARES)
            .filter(|&i| p.board[i] != 0)
            .fold(zobrist_side(p.side), |h, i| h ^ zobrist(p.board[i], i))
    };
    let rules = Rules::builtin("cxa-2020").unwrap();
    let mut next = below(0x2545_f491_4f6c_dd1d);
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2bak2r1/4aP3/4b4/2r1C4/4P4/2B6/4R3R/B8/1p7/c3K4 w - - 0 1",
    ] {
        let start = Position::from_fen(&rules, fen).unwrap();
        assert_eq!(start.zobrist, from_scratch(&start));
        let mut pos = start.clone();
        let mut played = Vec::new();
        for _ in 0..80 {
            let moves = pos.legal_moves(&rules);
            if moves.is_empty() {
                break;
            }
            let m = moves[next(moves.len())];
            played.push((m, pos.make(&rules, m)));
            assert_eq!(pos.zobrist, from_scratch(&pos));
        }
        while let Some((m, u)) = played.pop() {
            pos.unmake(&rules, m, u);
            assert_eq!(pos.zobrist, from_scratch(&pos));
        }
        assert_eq!(pos.placement(), start.placement());
        assert_eq!(pos.placement().zobrist, start.placement().zobrist);
        pos.set_side_to_move(pos.side.opponent());
        assert_eq!(pos.zobrist, from_scratch(&pos));
        let sq = Square::from_index_unchecked(pos.occ[0].trailing_zeros() as u8);
        let piece = pos.remove(sq).unwrap();
        assert_eq!(pos.zobrist, from_scratch(&pos));
        pos.put(piece, sq);
        assert_eq!(pos.zobrist, from_scratch(&pos));
    }
}
