//! Move notation: parsing, resolution and formatting against real positions.

use xqspec::Move;
use xqspec::{format_move, parse_move, parse_move_any, Notation, NotationError, Style};
use xqspec::{Position, Rules};

fn rules() -> Rules {
    Rules::builtin("cxa-2020").expect("builtin rules")
}

fn pos(rules: &Rules, fen: &str) -> Position {
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn after(rules: &Rules, moves: &[&str]) -> Position {
    let mut p = rules.start_position();
    for m in moves {
        p.play(rules, Move::parse_iccs(m).unwrap()).unwrap();
    }
    p
}

#[track_caller]
fn reads(rules: &Rules, p: &Position, notation: Notation, text: &str, iccs: &str) {
    match parse_move(rules, p, notation, text) {
        Ok(m) => assert_eq!(m.iccs(), iccs, "{text} ({notation})"),
        Err(e) => panic!("{text} ({notation}): {e}"),
    }
}

#[track_caller]
fn fails(rules: &Rules, p: &Position, notation: Notation, text: &str, kind: &str) -> NotationError {
    match parse_move(rules, p, notation, text) {
        Ok(m) => panic!("{text} ({notation}) read as {m}, expected {kind}"),
        Err(e) => {
            assert_eq!(e.kind().code(), kind, "{text}: {e}");
            e
        }
    }
}

/// `iccs` from `p` is written `text` in `notation`, in the default style.
#[track_caller]
fn writes(rules: &Rules, p: &Position, notation: Notation, iccs: &str, text: &str) {
    let m = Move::parse_iccs(iccs).unwrap();
    assert_eq!(
        format_move(rules, p, m, notation, Style::default()).unwrap(),
        text,
        "{iccs} ({notation})"
    );
}

#[test]
fn opening_moves_in_every_notation_and_variant() {
    let r = rules();
    let p = r.start_position();
    use Notation::*;
    for (n, t) in [
        (Chinese, "炮二平五"),
        (Chinese, "砲二平五"),
        (Chinese, "包二平五"),
        (Chinese, "炮2平5"),
        (Chinese, "炮２平５"),
        (ChineseAbbreviated, "炮2.5"),
        (ChineseAbbreviated, "炮2=5"),
        (Wxf, "C2.5"),
        (Wxf, "C2=5"),
        (Wxf, "c2.5"),
        (Wxf, "Ｃ２＝５"),
        (Iccs, "h2e2"),
        (Iccs, "H2-E2"),
    ] {
        reads(&r, &p, n, t, "h2e2");
    }
    for t in ["马二进三", "馬二進三", "傌二进三", "马2+3", "H2+3", "N2+3"] {
        reads(&r, &p, xqspec::detect(t), t, "h0g2");
    }
    reads(&r, &p, Chinese, "车一进一", "i0i1");
    reads(&r, &p, Chinese, "俥一進一", "i0i1");
    reads(&r, &p, Chinese, "車一进二", "i0i2");
    reads(&r, &p, Chinese, "相三进五", "g0e2");
    reads(&r, &p, Chinese, "象三进五", "g0e2");
    reads(&r, &p, Wxf, "E3+5", "g0e2");
    reads(&r, &p, Wxf, "B3+5", "g0e2");
    reads(&r, &p, Chinese, "仕四进五", "f0e1");
    reads(&r, &p, Chinese, "士四进五", "f0e1");
    reads(&r, &p, Wxf, "A4+5", "f0e1");
    reads(&r, &p, Chinese, "帅五进一", "e0e1");
    reads(&r, &p, Chinese, "帥五進一", "e0e1");
    reads(&r, &p, Wxf, "K5+1", "e0e1");
    reads(&r, &p, Chinese, "兵七进一", "c3c4");
    reads(&r, &p, Wxf, "P7+1", "c3c4");
    reads(&r, &p, Chinese, "炮八进七", "b2b9");
}

#[test]
fn black_counts_files_from_its_own_right() {
    let r = rules();
    let p = after(&r, &["h2e2"]);
    reads(&r, &p, Notation::Chinese, "马8进7", "h9g7");
    reads(&r, &p, Notation::Chinese, "马８进７", "h9g7");
    reads(&r, &p, Notation::Chinese, "马2进3", "b9c7");
    reads(&r, &p, Notation::Chinese, "炮8平5", "h7e7");
    reads(&r, &p, Notation::Chinese, "炮２平５", "b7e7");
    reads(&r, &p, Notation::Chinese, "卒3进1", "c6c5");
    reads(&r, &p, Notation::Chinese, "将5进1", "e9e8");
    reads(&r, &p, Notation::Chinese, "將５進１", "e9e8");
    reads(&r, &p, Notation::Chinese, "象3进5", "c9e7");
    reads(&r, &p, Notation::Chinese, "士4进5", "d9e8");
    reads(&r, &p, Notation::ChineseAbbreviated, "马8+7", "h9g7");
    reads(&r, &p, Notation::Wxf, "H8+7", "h9g7");
    reads(&r, &p, Notation::Wxf, "Ｈ８＋７", "h9g7");
    reads(&r, &p, Notation::Chinese, "车9进1", "i9i8");
    reads(&r, &p, Notation::Chinese, "车1进1", "a9a8");
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
        let got = parse_move(&r, &p, Notation::ChineseAbbreviated, t).unwrap();
        assert_eq!(got.iccs(), m, "{t}");
        p.play(&r, got).unwrap();
    }
    reads(&r, &p, Notation::ChineseAbbreviated, "炮5-1", "e2e1");
    reads(&r, &p, Notation::ChineseAbbreviated, "炮５－１", "e2e1");
}

/// Red chariots on c2 and c5 (file 七), Black chariots on g7 and g4 (file 3).
const TWO_CHARIOTS: &str = "3k5/9/6r2/9/2R6/6r2/9/2R6/9/4K4 w - - 0 1";

#[test]
fn two_on_a_file_are_front_and_rear() {
    let r = rules();
    let p = pos(&r, TWO_CHARIOTS);
    reads(&r, &p, Notation::Chinese, "前车进一", "c5c6");
    reads(&r, &p, Notation::Chinese, "后车进一", "c2c3");
    reads(&r, &p, Notation::Chinese, "後車進一", "c2c3");
    reads(&r, &p, Notation::Chinese, "前车平四", "c5f5");
    reads(&r, &p, Notation::Wxf, "+R+1", "c5c6");
    reads(&r, &p, Notation::Wxf, "-R+1", "c2c3");
    reads(&r, &p, Notation::Wxf, "R+.4", "c5f5");
    reads(&r, &p, Notation::Wxf, "＋Ｒ＋１", "c5c6");
    let e = fails(&r, &p, Notation::Chinese, "车七进一", "ambiguous");
    let mut c: Vec<String> = match e {
        NotationError::Resolve(e) => e.candidates().iter().map(|m| m.iccs()).collect(),
        _ => unreachable!(),
    };
    c.sort();
    assert_eq!(c, ["c2c3", "c5c6"]);
    // Only one of them can make this move, so the plain form resolves.
    reads(&r, &p, Notation::Chinese, "车七进四", "c5c9");
    let mut black = p.clone();
    black.set_side_to_move(xqspec::Side::Black);
    // Black's front is towards Red: g4 is in front of g7.
    reads(&r, &black, Notation::Chinese, "前车进1", "g4g3");
    reads(&r, &black, Notation::Chinese, "后车进1", "g7g6");
    reads(&r, &black, Notation::Wxf, "-R.5", "g7e7");
}

#[test]
fn three_and_more_soldiers_on_a_file() {
    let r = rules();
    // Red soldiers c5 c6 c7 (file 七); Black soldiers g4 g3 g2 g1 (file 3).
    let p = pos(&r, "3k5/9/2P6/2P6/2P6/6p2/6p2/6p2/6p2/4K4 w - - 0 1");
    reads(&r, &p, Notation::Chinese, "前兵平六", "c7d7");
    reads(&r, &p, Notation::Chinese, "中兵平六", "c6d6");
    reads(&r, &p, Notation::Chinese, "后兵平六", "c5d5");
    reads(&r, &p, Notation::Chinese, "三兵平六", "c5d5");
    reads(&r, &p, Notation::Wxf, "2P.6", "c6d6");
    fails(&r, &p, Notation::Chinese, "四兵平六", "no_such_piece");
    let mut b = p.clone();
    b.set_side_to_move(xqspec::Side::Black);
    reads(&r, &b, Notation::Chinese, "一卒平6", "g1f1");
    reads(&r, &b, Notation::Chinese, "二卒平6", "g2f2");
    reads(&r, &b, Notation::Chinese, "三卒平6", "g3f3");
    reads(&r, &b, Notation::Chinese, "四卒平6", "g4f4");
    reads(&r, &b, Notation::Chinese, "前卒平6", "g1f1");
    reads(&r, &b, Notation::Chinese, "后卒平6", "g4f4");
    fails(&r, &b, Notation::Chinese, "中卒平6", "no_such_piece");
    reads(&r, &b, Notation::Wxf, "4P.6", "g4f4");
    writes(&r, &b, Notation::Chinese, "g3f3", "三卒平6");
    writes(&r, &b, Notation::Wxf, "g3f3", "3P.6");
    writes(&r, &p, Notation::Chinese, "c6d6", "中兵平六");
}

#[test]
fn soldiers_tandem_on_two_files_name_the_file() {
    let r = rules();
    // Red soldiers c5 c6 (file 七) and g5 g6 (file 三).
    let p = pos(&r, "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    reads(&r, &p, Notation::Chinese, "前七平六", "c6d6");
    reads(&r, &p, Notation::Chinese, "前兵七平六", "c6d6");
    reads(&r, &p, Notation::Chinese, "后三平二", "g5h5");
    reads(&r, &p, Notation::Wxf, "+7.6", "c6d6");
    reads(&r, &p, Notation::Wxf, "-P3.2", "g5h5");
    // Only the front soldier of file 七 can reach file 六 on its rank.
    reads(&r, &p, Notation::Chinese, "前兵平六", "c6d6");
    fails(&r, &p, Notation::Chinese, "前兵进一", "ambiguous");
    writes(&r, &p, Notation::Chinese, "c6d6", "前七平六");
    writes(&r, &p, Notation::ChineseAbbreviated, "c6d6", "前7.6");
    writes(&r, &p, Notation::Wxf, "c6d6", "+7.6");
}

#[test]
fn number_is_steps_on_the_file_and_destination_off_it() {
    let r = rules();
    let p = after(&r, &["h2e2", "h9g7", "g3g4", "g6g5", "h0g2"]);
    // Black: 马7进6 (g7 -> f5 changes file, so 6 is the destination file).
    reads(&r, &p, Notation::Chinese, "马7进6", "g7f5");
    reads(&r, &p, Notation::Chinese, "车9进2", "i9i7");
    let p2 = after(
        &r,
        &[
            "h2e2", "h9g7", "g3g4", "g6g5", "h0g2", "a6a5", "g2f4", "a5a4",
        ],
    );
    // Red's horse on f4 goes back to g2: 马四退三.
    reads(&r, &p2, Notation::Chinese, "马四退三", "f4g2");
    reads(&r, &p2, Notation::Wxf, "H4-3", "f4g2");
    reads(&r, &p2, Notation::Chinese, "马四进五", "f4e6");
    reads(&r, &p2, Notation::Chinese, "炮五进四", "e2e6");
}

#[test]
fn syntax_errors_carry_a_column() {
    let r = rules();
    let p = r.start_position();
    for (n, t, col) in [
        (Notation::Chinese, "炮二平", 4),
        (Notation::Chinese, "炮十平五", 2),
        (Notation::Chinese, "X二平五", 1),
        (Notation::Chinese, "炮二跳五", 3),
        (Notation::Chinese, "炮二平五五", 5),
        (Notation::Wxf, "C2*5", 3),
        (Notation::Wxf, "炮二平五", 1),
        (Notation::Wxf, "Q2.5", 1),
        (Notation::Iccs, "h2e", 4),
        (Notation::Iccs, "j2e2", 1),
        (Notation::Iccs, "C2.5", 3),
        (Notation::Iccs, "", 1),
    ] {
        match parse_move(&r, &p, n, t) {
            Err(NotationError::Syntax(e)) => assert_eq!(e.column, col, "{t}: {e}"),
            other => panic!("{t}: expected a syntax error, got {other:?}"),
        }
    }
}

#[test]
fn resolution_errors_name_the_candidates() {
    let r = rules();
    let p = r.start_position();
    fails(&r, &p, Notation::Chinese, "车二进一", "no_such_piece");
    fails(&r, &p, Notation::Chinese, "前车进一", "no_such_piece");
    let e = fails(&r, &p, Notation::Chinese, "马二进四", "no_legal_move");
    let NotationError::Resolve(e) = e else {
        unreachable!()
    };
    let mut c: Vec<String> = e.candidates().iter().map(|m| m.iccs()).collect();
    c.sort();
    assert_eq!(c, ["h0g2", "h0i2"]);
    fails(&r, &p, Notation::Iccs, "e0e2", "illegal_move");
    fails(&r, &p, Notation::Iccs, "e5e6", "illegal_move");
    fails(&r, &p, Notation::Chinese, "炮二平二", "no_legal_move");
}

#[test]
fn formatting_in_each_style() {
    let r = rules();
    let p = after(&r, &["h2e2"]);
    let m = Move::parse_iccs("h9g7").unwrap();
    let f = |n, s: &str| format_move(&r, &p, m, n, Style::from_name(s).unwrap()).unwrap();
    assert_eq!(f(Notation::Chinese, "simplified"), "马8进7");
    assert_eq!(f(Notation::Chinese, "simplified+fullwidth"), "马８进７");
    assert_eq!(f(Notation::Chinese, "traditional"), "馬8進7");
    assert_eq!(f(Notation::Chinese, "traditional+fullwidth"), "馬８進７");
    assert_eq!(f(Notation::ChineseAbbreviated, ""), "马8+7");
    assert_eq!(f(Notation::ChineseAbbreviated, "fullwidth"), "马８＋７");
    assert_eq!(f(Notation::Wxf, ""), "H8+7");
    assert_eq!(f(Notation::Wxf, "fullwidth"), "Ｈ８＋７");
    assert_eq!(f(Notation::Iccs, ""), "h9g7");
    assert_eq!(f(Notation::Iccs, "upper"), "H9-G7");
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
    assert_eq!(c("h2e2", Notation::Chinese, ""), "炮二平五");
    assert_eq!(c("h0g2", Notation::Chinese, "traditional"), "傌二進三");
    assert_eq!(c("i0i1", Notation::Chinese, "traditional"), "俥一進一");
    assert_eq!(c("e0e1", Notation::Chinese, "traditional"), "帥五進一");
    assert_eq!(c("h2e2", Notation::ChineseAbbreviated, ""), "炮2.5");
    assert_eq!(c("h2e2", Notation::Wxf, "fullwidth"), "Ｃ２＝５");
    assert!(format_move(
        &r,
        &red,
        Move::parse_iccs("e0e2").unwrap(),
        Notation::Chinese,
        Style::default()
    )
    .is_err());
    assert_eq!(
        format_move(
            &r,
            &red,
            Move::parse_iccs("h9g7").unwrap(),
            Notation::Chinese,
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
