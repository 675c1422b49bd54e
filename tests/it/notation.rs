//! Move notation: parsing, resolution and formatting against real positions.

use xqspec::Move;
use xqspec::Notation::{self, Chinese, ChineseAbbreviated, Iccs, Wxf};
use xqspec::{format_move, parse_move, parse_move_any, NotationError, Style};
use xqspec::{Position, Rules};

fn rules() -> Rules {
    Rules::builtin("cxa-2020").expect("builtin rules")
}

fn pos(rules: &Rules, fen: &str) -> Position {
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The start position.
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// After 炮二平五 (h2e2): Black to move.
const AFTER_C2_5: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
/// After article 7.5's example, 1. 炮2.5 马8+7 2. 马2+3 车9.8 3. 车1.2 炮8+4.
const ARTICLE_7_5: &str = "rnbakabr1/9/1c4n2/p1p1p1p1p/9/9/P1P1P1PcP/1C2C1N2/9/RNBAKABR1 w - - 6 4";
/// Red chariots on c2 and c5 (file 七), Black chariots on g7 and g4 (file 3); Red to move.
const TWO_CHARIOTS: &str = "3k5/9/6r2/9/2R6/6r2/9/2R6/9/4K4 w - - 0 1";
/// The same, Black to move.
const TWO_CHARIOTS_B: &str = "3k5/9/6r2/9/2R6/6r2/9/2R6/9/4K4 b - - 0 1";
/// Red soldiers c5 c6 c7 (file 七); Black soldiers g4 g3 g2 g1 (file 3); Red to move.
const SOLDIERS: &str = "3k5/9/2P6/2P6/2P6/6p2/6p2/6p2/6p2/4K4 w - - 0 1";
/// The same, Black to move.
const SOLDIERS_B: &str = "3k5/9/2P6/2P6/2P6/6p2/6p2/6p2/6p2/4K4 b - - 0 1";
/// Red soldiers c5 c6 (file 七) and g5 g6 (file 三).
const TANDEM: &str = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
/// After h2e2 h9g7 g3g4 g6g5 h0g2: Black to move, its horse on g7.
const HORSE_G7: &str = "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R b - - 5 3";
/// Then a6a5 g2f4 a5a4: Red to move, its horse on f4.
const HORSE_F4: &str = "rnbakab1r/9/1c4nc1/2p1p3p/6p2/p4NP2/P1P1P3P/1C2C4/9/RNBAKAB1R w - - 8 5";

/// What a text is, read in a notation in a position.
#[derive(Clone, Copy, Debug)]
enum Is {
    /// Read as this move (ICCS).
    Read(&'static str),
    /// Read as this move, and the move is written so in the default style.
    Written(&'static str),
    /// Refused with this error code.
    Refused(&'static str),
}
use Is::{Read, Refused, Written};

/// The table of notation texts: `(position, notation, text, what it is)`.
const TEXTS: &[(&str, Notation, &str, Is)] = &[
    // Opening moves in every notation and variant.
    (START, Chinese, "炮二平五", Written("h2e2")),
    (START, Chinese, "砲二平五", Read("h2e2")),
    (START, Chinese, "包二平五", Read("h2e2")),
    (START, Chinese, "炮2平5", Read("h2e2")),
    (START, Chinese, "炮２平５", Read("h2e2")),
    (START, ChineseAbbreviated, "炮2.5", Written("h2e2")),
    (START, ChineseAbbreviated, "炮2=5", Read("h2e2")),
    (START, Wxf, "C2.5", Read("h2e2")),
    (START, Wxf, "C2=5", Read("h2e2")),
    (START, Wxf, "c2.5", Read("h2e2")),
    (START, Wxf, "Ｃ２＝５", Read("h2e2")),
    (START, Iccs, "h2e2", Written("h2e2")),
    (START, Iccs, "H2-E2", Read("h2e2")),
    (START, Chinese, "车一进一", Read("i0i1")),
    (START, Chinese, "俥一進一", Read("i0i1")),
    (START, Chinese, "車一进二", Read("i0i2")),
    (START, Chinese, "相三进五", Read("g0e2")),
    (START, Chinese, "象三进五", Read("g0e2")),
    (START, Wxf, "E3+5", Read("g0e2")),
    (START, Wxf, "B3+5", Read("g0e2")),
    (START, Chinese, "仕四进五", Read("f0e1")),
    (START, Chinese, "士四进五", Read("f0e1")),
    (START, Wxf, "A4+5", Read("f0e1")),
    (START, Chinese, "帅五进一", Read("e0e1")),
    (START, Chinese, "帥五進一", Read("e0e1")),
    (START, Wxf, "K5+1", Read("e0e1")),
    (START, Chinese, "兵七进一", Read("c3c4")),
    (START, Wxf, "P7+1", Read("c3c4")),
    (START, Chinese, "炮八进七", Read("b2b9")),
    // Black counts files from its own right.
    (AFTER_C2_5, Chinese, "马8进7", Written("h9g7")),
    (AFTER_C2_5, Chinese, "马８进７", Read("h9g7")),
    (AFTER_C2_5, Chinese, "马2进3", Read("b9c7")),
    (AFTER_C2_5, Chinese, "炮8平5", Read("h7e7")),
    (AFTER_C2_5, Chinese, "炮２平５", Read("b7e7")),
    (AFTER_C2_5, Chinese, "卒3进1", Read("c6c5")),
    (AFTER_C2_5, Chinese, "将5进1", Read("e9e8")),
    (AFTER_C2_5, Chinese, "將５進１", Read("e9e8")),
    (AFTER_C2_5, Chinese, "象3进5", Read("c9e7")),
    (AFTER_C2_5, Chinese, "士4进5", Read("d9e8")),
    (AFTER_C2_5, ChineseAbbreviated, "马8+7", Written("h9g7")),
    (AFTER_C2_5, Wxf, "H8+7", Written("h9g7")),
    (AFTER_C2_5, Wxf, "Ｈ８＋７", Read("h9g7")),
    (AFTER_C2_5, Chinese, "车9进1", Read("i9i8")),
    (AFTER_C2_5, Chinese, "车1进1", Read("a9a8")),
    // The abbreviated form of article 7.5, after its example.
    (ARTICLE_7_5, ChineseAbbreviated, "炮5-1", Written("e2e1")),
    (ARTICLE_7_5, ChineseAbbreviated, "炮５－１", Read("e2e1")),
    // Two on a file are front and rear.
    (TWO_CHARIOTS, Chinese, "前车进一", Read("c5c6")),
    (TWO_CHARIOTS, Chinese, "后车进一", Read("c2c3")),
    (TWO_CHARIOTS, Chinese, "後車進一", Read("c2c3")),
    (TWO_CHARIOTS, Chinese, "前车平四", Read("c5f5")),
    (TWO_CHARIOTS, Wxf, "+R+1", Read("c5c6")),
    (TWO_CHARIOTS, Wxf, "-R+1", Read("c2c3")),
    (TWO_CHARIOTS, Wxf, "R+.4", Read("c5f5")),
    (TWO_CHARIOTS, Wxf, "＋Ｒ＋１", Read("c5c6")),
    (TWO_CHARIOTS, Chinese, "车七进一", Refused("ambiguous")),
    // Only one of them can make this move, so the plain form resolves.
    (TWO_CHARIOTS, Chinese, "车七进四", Read("c5c9")),
    // Black's front is towards Red: g4 is in front of g7.
    (TWO_CHARIOTS_B, Chinese, "前车进1", Read("g4g3")),
    (TWO_CHARIOTS_B, Chinese, "后车进1", Read("g7g6")),
    (TWO_CHARIOTS_B, Wxf, "-R.5", Read("g7e7")),
    // Three and more soldiers on a file.
    (SOLDIERS, Chinese, "前兵平六", Read("c7d7")),
    (SOLDIERS, Chinese, "中兵平六", Written("c6d6")),
    (SOLDIERS, Chinese, "后兵平六", Read("c5d5")),
    (SOLDIERS, Chinese, "三兵平六", Read("c5d5")),
    (SOLDIERS, Wxf, "2P.6", Read("c6d6")),
    (SOLDIERS, Chinese, "四兵平六", Refused("no_such_piece")),
    (SOLDIERS_B, Chinese, "一卒平6", Read("g1f1")),
    (SOLDIERS_B, Chinese, "二卒平6", Read("g2f2")),
    (SOLDIERS_B, Chinese, "三卒平6", Written("g3f3")),
    (SOLDIERS_B, Chinese, "四卒平6", Read("g4f4")),
    (SOLDIERS_B, Chinese, "前卒平6", Read("g1f1")),
    (SOLDIERS_B, Chinese, "后卒平6", Read("g4f4")),
    (SOLDIERS_B, Chinese, "中卒平6", Refused("no_such_piece")),
    (SOLDIERS_B, Wxf, "4P.6", Read("g4f4")),
    (SOLDIERS_B, Wxf, "3P.6", Written("g3f3")),
    // Soldiers in tandem on two files name the file.
    (TANDEM, Chinese, "前七平六", Written("c6d6")),
    (TANDEM, Chinese, "前兵七平六", Read("c6d6")),
    (TANDEM, Chinese, "后三平二", Read("g5h5")),
    (TANDEM, ChineseAbbreviated, "前7.6", Written("c6d6")),
    (TANDEM, Wxf, "+7.6", Written("c6d6")),
    (TANDEM, Wxf, "-P3.2", Read("g5h5")),
    // Only the front soldier of file 七 can reach file 六 on its rank.
    (TANDEM, Chinese, "前兵平六", Read("c6d6")),
    (TANDEM, Chinese, "前兵进一", Refused("ambiguous")),
    // The number is steps on the file, and the destination off it: g7 -> f5 changes file, so 6
    // is the destination file.
    (HORSE_G7, Chinese, "马7进6", Read("g7f5")),
    (HORSE_G7, Chinese, "车9进2", Read("i9i7")),
    // Red's horse on f4 goes back to g2: 马四退三.
    (HORSE_F4, Chinese, "马四退三", Read("f4g2")),
    (HORSE_F4, Wxf, "H4-3", Read("f4g2")),
    (HORSE_F4, Chinese, "马四进五", Read("f4e6")),
    (HORSE_F4, Chinese, "炮五进四", Read("e2e6")),
    // Resolution errors.
    (START, Chinese, "车二进一", Refused("no_such_piece")),
    (START, Chinese, "前车进一", Refused("no_such_piece")),
    (START, Chinese, "马二进四", Refused("no_legal_move")),
    (START, Iccs, "e0e2", Refused("illegal_move")),
    (START, Iccs, "e5e6", Refused("illegal_move")),
    (START, Chinese, "炮二平二", Refused("no_legal_move")),
];

/// Texts refused by resolution, and the candidate moves the refusal names (ICCS, sorted):
/// `(position, notation, text, candidates)`.
const CANDIDATES: &[(&str, Notation, &str, &[&str])] = &[
    (TWO_CHARIOTS, Chinese, "车七进一", &["c2c3", "c5c6"]),
    (START, Chinese, "马二进四", &["h0g2", "h0i2"]),
];

/// How `text`, read in `notation` in `p`, differs from what the row says it `is` (`None`: it
/// does not): both said in the same words.
fn differs(rules: &Rules, p: &Position, notation: Notation, text: &str, is: Is) -> Option<String> {
    let got = match parse_move(rules, p, notation, text) {
        Ok(m) if matches!(is, Written(_)) => {
            match format_move(rules, p, m, notation, Style::default()) {
                Ok(written) => format!("read as {}, written {written}", m.iccs()),
                Err(e) => format!("read as {}, not written ({e})", m.iccs()),
            }
        }
        Ok(m) => format!("read as {}", m.iccs()),
        Err(e) => format!("refused: {}", e.kind().code()),
    };
    let want = match is {
        Read(iccs) => format!("read as {iccs}"),
        Written(iccs) => format!("read as {iccs}, written {text}"),
        Refused(code) => format!("refused: {code}"),
    };
    (got != want).then(|| format!("{text} ({notation}): expected {want}, got {got}"))
}

#[test]
fn notation_texts_in_positions() {
    let r = rules();
    let wrong: Vec<String> = TEXTS
        .iter()
        .filter_map(|&(fen, notation, text, is)| differs(&r, &pos(&r, fen), notation, text, is))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn refusals_name_the_candidates() {
    let r = rules();
    for &(fen, notation, text, want) in CANDIDATES {
        match parse_move(&r, &pos(&r, fen), notation, text) {
            Err(NotationError::Resolve(e)) => {
                let mut among: Vec<String> = e.candidates().iter().map(|m| m.iccs()).collect();
                among.sort();
                assert_eq!(among, want, "{text} ({notation})");
            }
            other => panic!("{text} ({notation}): expected a resolution error, got {other:?}"),
        }
    }
}

/// The positions given after moves are the positions those moves reach.
#[test]
fn positions_after_moves_are_reached_by_them() {
    let r = rules();
    for (fen, moves) in [
        (AFTER_C2_5, &["h2e2"][..]),
        (HORSE_G7, &["h2e2", "h9g7", "g3g4", "g6g5", "h0g2"]),
        (
            HORSE_F4,
            &[
                "h2e2", "h9g7", "g3g4", "g6g5", "h0g2", "a6a5", "g2f4", "a5a4",
            ],
        ),
    ] {
        let mut p = r.start_position();
        for m in moves {
            p.play(&r, Move::parse_iccs(m).unwrap()).unwrap();
        }
        assert_eq!(p.to_fen(&r), fen, "after {moves:?}");
    }
    assert_eq!(r.start_position().to_fen(&r), START);
}

#[test]
fn detection_reads_each_notation() {
    let r = rules();
    let p = r.start_position();
    for t in ["马二进三", "馬二進三", "傌二进三", "马2+3", "H2+3", "N2+3"] {
        assert_eq!(differs(&r, &p, xqspec::detect(t), t, Read("h0g2")), None);
    }
}

#[test]
fn abbreviated_form_of_article_7_5() {
    let r = rules();
    // 1. 炮2.5 马8+7  2. 马2+3 车9.8  3. 车1.2 炮8+4 (article 7.5's example)
    let mut p = r.start_position();
    for (t, m) in [
        ("炮2.5", "h2e2"),
        ("马8+7", "h9g7"),
        ("马2+3", "h0g2"),
        ("车9.8", "i9h9"),
        ("车1.2", "i0h0"),
        ("炮8+4", "h7h3"),
    ] {
        let got = parse_move(&r, &p, ChineseAbbreviated, t).unwrap();
        assert_eq!(got.iccs(), m, "{t}");
        p.play(&r, got).unwrap();
    }
    assert_eq!(p.to_fen(&r), ARTICLE_7_5);
}

#[test]
fn syntax_errors_carry_a_column() {
    let r = rules();
    let p = r.start_position();
    // Per notation, texts that do not parse in it and the column of the error.
    let texts: [(Notation, &[(&str, usize)]); 3] = [
        (
            Chinese,
            &[
                ("炮二平", 4),
                ("炮十平五", 2),
                ("X二平五", 1),
                ("炮二跳五", 3),
                ("炮二平五五", 5),
            ],
        ),
        (Wxf, &[("C2*5", 3), ("炮二平五", 1), ("Q2.5", 1)]),
        (Iccs, &[("h2e", 4), ("j2e2", 1), ("C2.5", 3), ("", 1)]),
    ];
    for (n, ts) in texts {
        for &(t, col) in ts {
            match parse_move(&r, &p, n, t) {
                Err(NotationError::Syntax(e)) => assert_eq!(e.column, col, "{t}: {e}"),
                other => panic!("{t}: expected a syntax error, got {other:?}"),
            }
        }
    }
}

#[test]
fn formatting_in_each_style() {
    let r = rules();
    let p = pos(&r, AFTER_C2_5);
    let m = Move::parse_iccs("h9g7").unwrap();
    let f = |n, s: &str| format_move(&r, &p, m, n, Style::from_name(s).unwrap()).unwrap();
    assert_eq!(f(Chinese, "simplified"), "马8进7");
    assert_eq!(f(Chinese, "simplified+fullwidth"), "马８进７");
    assert_eq!(f(Chinese, "traditional"), "馬8進7");
    assert_eq!(f(Chinese, "traditional+fullwidth"), "馬８進７");
    assert_eq!(f(ChineseAbbreviated, ""), "马8+7");
    assert_eq!(f(ChineseAbbreviated, "fullwidth"), "马８＋７");
    assert_eq!(f(Wxf, ""), "H8+7");
    assert_eq!(f(Wxf, "fullwidth"), "Ｈ８＋７");
    assert_eq!(f(Iccs, ""), "h9g7");
    assert_eq!(f(Iccs, "upper"), "H9-G7");
    let red = r.start_position();
    let c = |t: &str, n, s: &str| {
        format_move(
            &r,
            &red,
            Move::parse_iccs(t).unwrap(),
            n,
            Style::from_name(s).unwrap(),
        )
        .unwrap()
    };
    assert_eq!(c("h2e2", Chinese, ""), "炮二平五");
    assert_eq!(c("h0g2", Chinese, "traditional"), "傌二進三");
    assert_eq!(c("i0i1", Chinese, "traditional"), "俥一進一");
    assert_eq!(c("e0e1", Chinese, "traditional"), "帥五進一");
    assert_eq!(c("h2e2", ChineseAbbreviated, ""), "炮2.5");
    assert_eq!(c("h2e2", Wxf, "fullwidth"), "Ｃ２＝５");
    assert!(format_move(
        &r,
        &red,
        Move::parse_iccs("e0e2").unwrap(),
        Chinese,
        Style::default()
    )
    .is_err());
    assert_eq!(
        format_move(
            &r,
            &red,
            Move::parse_iccs("h9g7").unwrap(),
            Chinese,
            Style::default()
        )
        .unwrap_err()
        .kind()
        .code(),
        "no_piece"
    );
}

#[test]
fn detection_picks_the_notation() {
    let r = rules();
    let p = r.start_position();
    for t in ["h2e2", "H2-E2", "C2.5", "Ｃ２＝５", "炮二平五", "炮2.5"] {
        assert_eq!(parse_move_any(&r, &p, t).unwrap().iccs(), "h2e2", "{t}");
    }
}
