//! Random legal lines for the property tests of the 棋例 (shared by `tests/it` and the
//! crate's own tests, `src/tests/`).

/// Random legal lines from a few middle-game positions, under every rule set.
pub fn random_line(seed: u64, plies: usize) -> (String, Vec<String>) {
    let fens = [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "2bak1c2/4aRN1r/4b4/9/9/9/3pp4/2n1B4/9/2B1K3C w - - 0 1",
        "r1b1kab2/4a4/2n6/p3p2Rp/2p1P4/6N2/P1P5P/2N1C4/3RA4/1cBAK1c1r w - - 0 1",
    ];
    let rs = xqspec::RuleSet::builtin("cxa-2020").unwrap();
    let fen = fens[(seed % 3) as usize];
    let mut pos = xqspec::Position::from_fen(&rs.vm, fen).unwrap();
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves(&rs.vm);
        if legal.is_empty() {
            break;
        }
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = legal[(x >> 33) as usize % legal.len()];
        pos.play(&rs.vm, m).unwrap();
        moves.push(m.iccs());
    }
    (fen.to_string(), moves)
}
