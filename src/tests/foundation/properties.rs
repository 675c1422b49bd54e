//! Property tests: random legal play against the slow reference generator, make/unmake
//! symmetry, and FEN input that must never panic.

use crate::Spec;
use crate::{Position, Rules};
use proptest::prelude::*;

use super::reference::RefRules;

fn setup() -> (Rules, RefRules) {
    let spec = Spec::builtin().unwrap();
    let ed = spec.edition("cxa-2020").unwrap();
    (Rules::of_edition(ed).unwrap(), RefRules::new(ed))
}

/// Walk a random game (choices pick among the legal moves) and check every position.
fn walk(rules: &Rules, reference: &RefRules, start: Position, choices: &[u16]) {
    let mut pos = start;
    for &c in choices {
        let side = pos.side_to_move();
        let mut fast: Vec<_> = pos.legal_moves(rules);
        fast.sort();
        let mut slow = reference.legal(&reference.board_of(&pos), side);
        slow.sort();
        assert_eq!(fast, slow, "legal moves differ in {}", pos.to_fen(rules));
        // Status agrees with the move count.
        let status = pos.status(rules);
        assert_eq!(
            fast.is_empty(),
            matches!(status, crate::Status::Checkmate | crate::Status::Stalemate)
        );
        if fast.is_empty() {
            break;
        }
        // Moves of one piece are the legal moves from its point.
        for (sq, _) in pos.pieces().filter(|(_, p)| p.side == side) {
            let mut one = pos.legal_moves_from(rules, sq);
            one.sort();
            let want: Vec<_> = fast.iter().copied().filter(|m| m.from == sq).collect();
            assert_eq!(one, want, "moves from {sq} in {}", pos.to_fen(rules));
        }
        for &m in &fast {
            let before = pos.clone();
            let u = pos.make(rules, m);
            // No generated move leaves the mover's own general attackable or facing.
            assert!(
                !pos.is_self_kill_for(rules, side),
                "{m} is a self-kill in {}",
                before.to_fen(rules)
            );
            pos.unmake(rules, m, u);
            assert_eq!(
                pos,
                before,
                "make/unmake of {m} did not restore {}",
                before.to_fen(rules)
            );
        }
        let m = fast[c as usize % fast.len()];
        pos.play(rules, m).unwrap();
        // The FEN written for every position reads back as the same position.
        assert_eq!(Position::from_fen(rules, &pos.to_fen(rules)).unwrap(), pos);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn random_play_from_the_start_agrees_with_reference(choices in prop::collection::vec(any::<u16>(), 1..120)) {
        let (rules, reference) = setup();
        walk(&rules, &reference, rules.start_position(), &choices);
    }

    #[test]
    fn random_play_from_perft_positions_agrees_with_reference(which in 0usize..20, choices in prop::collection::vec(any::<u16>(), 1..60)) {
        let (rules, reference) = setup();
        let fens = [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
            "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
            "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
            "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
            "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
            "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
            "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
            "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
            "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
        ];
        let pos = Position::from_fen(&rules, fens[which % fens.len()]).unwrap();
        walk(&rules, &reference, pos, &choices);
    }

    #[test]
    fn fen_parsing_never_panics(text in ".{0,120}") {
        let (rules, _) = setup();
        if let Ok(p) = Position::from_fen(&rules, &text) {
            prop_assert_eq!(Position::from_fen(&rules, &p.to_fen(&rules)).unwrap(), p);
        }
    }

    #[test]
    fn mutated_fens_never_panic(pos in 0usize..70, ch in prop::sample::select(vec!['k','K','a','p','P','1','9','/',' ','w','b','r','h','e','-','0','x','中'])) {
        let (rules, _) = setup();
        let mut s: Vec<char> = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".chars().collect();
        let i = pos % s.len();
        s[i] = ch;
        let text: String = s.into_iter().collect();
        match crate::parse_fen(&rules, &text) {
            Ok((p, _)) => prop_assert_eq!(Position::from_fen(&rules, &p.to_fen(&rules)).unwrap(), p),
            Err(e) => prop_assert!(!e.problems().is_empty() && !e.kind().is_empty()),
        }
    }
}

#[test]
fn fen_counters_and_alternates() {
    let (rules, _) = setup();
    let p = Position::from_fen(
        &rules,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 12 30",
    )
    .unwrap();
    assert_eq!(p.halfmove_clock(), 12);
    assert_eq!(p.fullmove_number(), 30);
    assert_eq!(p.side_to_move(), crate::Side::Black);
    assert!(p.to_fen(&rules).ends_with(" b - - 12 30"));
}

#[test]
fn status_of_known_positions() {
    let (rules, _) = setup();
    use crate::Status::*;
    let cases = [
        ("startpos", Ongoing),
        // Red chariot on d0 checks along the d file; e9 is free (Red's general is on f0).
        ("3k5/9/9/9/9/9/9/9/9/3R1K3 b", Check),
        // The same check with Red's general on e0: e9 would face it, d8 stays on the file.
        ("3k5/9/9/9/9/9/9/9/9/3RK4 b", Checkmate),
        // Two chariots: d7 checks, c8 holds rank 8, e9 faces Red's general.
        ("3k5/2R6/3R5/9/9/9/9/9/9/4K4 b", Checkmate),
        // Not in check, no move: d8 is covered by the chariot on i8, e9 faces (困毙).
        ("3k5/8R/9/9/9/9/9/9/9/4K4 b", Stalemate),
    ];
    for (fen, want) in cases {
        let p = Position::from_fen(&rules, fen).unwrap();
        assert_eq!(p.status(&rules), want, "{fen}");
    }
}

#[test]
fn illegal_moves_say_why() {
    use crate::IllegalReason::*;
    use crate::Move;
    let (rules, _) = setup();
    let pos = rules.start_position();
    let why = |m: &str| {
        pos.check_move(&rules, Move::parse_iccs(m).unwrap())
            .unwrap_err()
            .reason
    };
    assert_eq!(why("e5e6"), NoPiece);
    assert_eq!(why("e6e5"), NotYourPiece);
    assert_eq!(why("a0a5"), NotAMove);
    // The horse on e4 is alone between the generals: leaving the file is a self-kill.
    let pinned = Position::from_fen(&rules, "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1").unwrap();
    let e = pinned
        .check_move(&rules, Move::parse_iccs("e4d6").unwrap())
        .unwrap_err();
    assert_eq!(e.reason, SelfKill);
    let mut p2 = pinned.clone();
    assert!(p2.play(&rules, Move::parse_iccs("e4d6").unwrap()).is_err());
    assert_eq!(p2, pinned, "a refused move leaves the position unchanged");
}
