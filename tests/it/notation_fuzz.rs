//! Fuzzing on stable: arbitrary bytes and notation-shaped strings through the
//! move parsers, the PGN reader, the records path and replay. Nothing may panic, every
//! error must say where: a column, a line and column, or a move number; and no junk
//! before a tag pair costs the game the tag starts.

use proptest::prelude::*;
use xqspec::records;
use xqspec::Entry;
use xqspec::Rules;
use xqspec::{parse_move, Notation, NotationError};
use xqspec::{ReplayError, Replayer};

fn rules() -> &'static Rules {
    use std::sync::OnceLock;
    static R: OnceLock<Rules> = OnceLock::new();
    R.get_or_init(|| Rules::builtin("cxa-2020").unwrap())
}

/// Pieces of notation: characters of every notation, and some that are not.
const ATOMS: &[&str] = &[
    "炮", "马", "車", "俥", "傌", "帅", "將", "士", "相", "象", "兵", "卒", "包", "前", "中", "后",
    "後", "一", "二", "三", "五", "九", "十", "进", "進", "退", "平", "1", "5", "9", "０", "１",
    "９", "+", "-", ".", "=", "＋", "－", "＝", "C", "H", "R", "P", "K", "A", "E", "N", "B", "x",
    "a", "e", "h", "i", "0", "2", "7", " ", "\u{3000}", "\n", "é", "\u{FEFF}",
];

/// Fragments of PGN.
const PGN_ATOMS: &[&str] = &[
    "[",
    "]",
    "\"",
    "Event",
    "FEN",
    "Format",
    "\"WXF\"",
    "\"ICCS\"",
    "\"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\"",
    "\"bad fen\"",
    "{",
    "}",
    "(",
    ")",
    ";",
    "\n",
    " ",
    "1.",
    "2...",
    "$1",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "h2e2",
    "h9g7",
    "炮二平五",
    "马８进７",
    "C2.5",
    "H8+7",
    "+P.6",
    "炮2.5",
    "\\",
    "\r\n",
];

/// Junk bytes that may stand before a tag pair on its line.
const JUNK: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b";",
    b"\x81\x82",
    b"\xff",
    b"\x00",
    b"\x01",
    b"\xe4\xb8",
    b"abc",
    b" ",
    b"1.",
    b"*",
    b"1-0",
    b"\\",
    b"Event",
    b"\t",
    b"\xa1\xa1",
];

fn check_notation_error(text: &str, e: &NotationError) {
    if let NotationError::Syntax(s) = e {
        let len = text.trim().chars().count();
        assert!(
            s.line >= 1 && s.column >= 1 && s.column <= len + 1,
            "{text:?}: {s:?}"
        );
    }
}

fn check_replay(text: &str) {
    let mut replayer = Replayer::new(rules());
    for g in xqspec::parse_pgn(text) {
        let rep = replayer.replay(text, &g);
        match &rep.error {
            None => {}
            Some(ReplayError::Pgn(e)) => assert!(e.line >= 1 && e.column >= 1, "{e:?}"),
            Some(ReplayError::Fen { line, column, .. }) => assert!(*line >= 1 && *column >= 1),
            Some(ReplayError::Move {
                ply,
                move_number,
                line,
                column,
                ..
            }) => {
                assert!(*ply >= 1 && *move_number >= 1 && *line >= 1 && *column >= 1)
            }
            Some(ReplayError::Encoding { .. }) => {
                panic!("only the records path finds bytes that are no text")
            }
        }
        for r in &rep.remarks {
            assert!(
                r.line >= 1 && r.column >= 1 && !r.message.is_empty(),
                "{r:?}"
            );
        }
        for e in &rep.variation_errors {
            match e {
                ReplayError::Pgn(p) => assert!(p.line >= 1 && p.column >= 1),
                ReplayError::Move {
                    ply, line, column, ..
                } => assert!(*ply >= 1 && *line >= 1 && *column >= 1),
                ReplayError::Fen { .. } => panic!("a variation has no FEN"),
                ReplayError::Encoding { .. } => {
                    panic!("only the records path finds bytes that are no text")
                }
            }
        }
        // Every message can be shown.
        for e in rep.error.iter().chain(&rep.variation_errors) {
            assert!(!e.to_string().is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn any_string_as_a_move(text in ".{0,12}") {
        let r = rules();
        let pos = r.start_position();
        for n in Notation::ALL {
            if let Err(e) = parse_move(r, &pos, n, &text) {
                check_notation_error(&text, &e);
            }
        }
    }

    #[test]
    fn notation_shaped_strings(atoms in prop::collection::vec(prop::sample::select(ATOMS), 0..7)) {
        let text: String = atoms.concat();
        let r = rules();
        let pos = r.start_position();
        for n in Notation::ALL {
            if let Err(e) = parse_move(r, &pos, n, &text) {
                check_notation_error(&text, &e);
            }
        }
        let _ = xqspec::parse_move_any(r, &pos, &text);
    }

    #[test]
    fn any_bytes_as_a_record(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let (text, _) = xqspec::decode_text(&bytes, None);
        check_replay(&text);
    }

    /// Whatever junk stands before a tag pair on its line (here after a game that ended),
    /// the tag starts its game: both games are read whole, and the junk is at most one
    /// text that is no game, on its line.
    #[test]
    fn junk_before_a_tag_never_costs_a_game(junk in prop::collection::vec(prop::sample::select(JUNK), 1..10)) {
        let mut bytes = b"[Event \"a\"]\n\n1. h2e2 h9g7 *\n".to_vec();
        bytes.extend(junk.concat());
        bytes.extend_from_slice(b"[Event \"b\"]\n\n1. b0c2 b9c7 *\n");
        let file = records::from_bytes(std::path::Path::new("junk.pgn"), bytes, None);
        let mut replayer = Replayer::new(rules());
        let entries = records::games(&file, &mut replayer, |_| ((), None));
        let mut games = Vec::new();
        let mut not_games = Vec::new();
        for e in &entries {
            match e {
                Entry::Game(g) => games.push(g),
                Entry::NotAGame(n) => not_games.push(n),
            }
        }
        let moves = |g: &xqspec::GameEntry<'_, ()>| g.game.moves.iter().map(|m| m.text.to_string()).collect::<Vec<_>>();
        prop_assert_eq!(games.len(), 2, "{:?}", entries);
        prop_assert_eq!((games[0].number, games[1].number), (1, 2));
        prop_assert!(games[0].failure().is_none() && games[1].failure().is_none(), "{:?}", entries);
        prop_assert_eq!(moves(games[0]), ["h2e2", "h9g7"]);
        prop_assert_eq!(moves(games[1]), ["b0c2", "b9c7"]);
        prop_assert!(not_games.len() <= 1);
        // Line 4 starts at byte 28; the place is the junk's first character that is no blank.
        let junk_len = junk.iter().map(|j| j.len()).sum::<usize>();
        for n in not_games {
            prop_assert_eq!(n.place.line, 4);
            prop_assert!((28..28 + junk_len).contains(&n.place.byte), "{:?}", n);
        }
    }

    #[test]
    fn any_bytes_through_the_records_path(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let len = bytes.len();
        let file = records::from_bytes(std::path::Path::new("any.pgn"), bytes, None);
        let mut replayer = Replayer::new(rules());
        let mut number = 0;
        for e in records::games(&file, &mut replayer, |_| ((), None)) {
            match e {
                Entry::Game(g) => {
                    number += 1;
                    prop_assert_eq!(g.number, number);
                    if let Some(e) = g.failure() {
                        prop_assert!(!e.to_string().is_empty());
                    }
                }
                Entry::NotAGame(n) => prop_assert!(n.place.line >= 1 && n.place.byte <= len, "{:?}", n),
            }
        }
    }

    #[test]
    fn pgn_shaped_records(atoms in prop::collection::vec(prop::sample::select(PGN_ATOMS), 0..40)) {
        let text: String = atoms.concat();
        check_replay(&text);
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    for open in ["(", "{", "["] {
        let text = format!("[Event \"x\"]\n1. h2e2 {}", open.repeat(100_000));
        check_replay(&text);
    }
    check_replay(&format!("1. h2e2 {}", "(h9g7 ".repeat(20_000)));
}
