//! `xqspec replay` end to end.

use crate::assert::assert_contains;
use std::process::Command;

use crate::cli::succeeded;

fn xqspec() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xqspec"))
}

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xqspec-notation-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

const RECORDS: &str = "[Event \"good\"]\n[Red \"A\"]\n[Black \"B\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n\n\
[Event \"bad move\"]\n[Red \"C\"]\n[Black \"D\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 C8+9 0-1\n\n\
[Event \"after the bad one\"]\n\n1. h2e2 h9g7 2. h0g2 *\n";

#[test]
fn replay_reports_each_game_and_continues_past_a_bad_one() {
    let path = temp("mixed.pgn", RECORDS.as_bytes());
    let out = xqspec().arg("replay").arg(&path).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!out.status.success(), "a failing game makes the run fail");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert!(
        lines[0].ends_with("game 1 (A – B): ok, 4 moves"),
        "{}",
        lines[0]
    );
    assert_contains(lines[1], "game 2 (C – D): error: move 3 (ply 6) \"C8+9\"");
    assert_contains(lines[1], "line 11, column 35");
    assert_contains(lines[1], "no legal move");
    assert!(
        lines[2].ends_with("game 3 (after the bad one): ok, 3 moves"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3]
            .starts_with("3 games found, 2 replayed, 1 error (game 2, line 11: move 3 \"C8+9\": "),
        "{}",
        lines[3]
    );
    assert!(lines[3].ends_with("); 12 moves"), "{}", lines[3]);
}

#[test]
fn replay_converts_and_the_conversion_replays_to_the_same_moves() {
    let src =
        "[Event \"x\"]\n\n1. h2e2 {centre} h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9 1/2-1/2\n";
    let path = temp("conv.pgn", src.as_bytes());
    for (to, style, expect) in [
        ("chinese", "default", "1. 炮二平五 {centre} 马8进7"),
        (
            "chinese",
            "traditional+fullwidth",
            "1. 炮二平五 {centre} 馬８進７",
        ),
        ("wxf", "default", "1. C2.5 {centre} H8+7"),
        ("chinese-abbreviated", "default", "1. 炮2.5 {centre} 马8+7"),
    ] {
        let out_path = path.with_extension(format!("{to}.{}.pgn", style.replace('+', "-")));
        succeeded(
            xqspec()
                .args(["replay", "--to", to, "--style", style, "--out"])
                .arg(&out_path)
                .arg(&path),
        );
        let written = std::fs::read_to_string(&out_path).unwrap();
        assert!(written.contains(expect), "{to} {style}: {written}");
        assert!(written.trim_end().ends_with("1/2-1/2"), "{written}");
        // Convert back to ICCS: the same moves.
        let back = xqspec()
            .args(["replay", "--to", "iccs"])
            .arg(&out_path)
            .output()
            .unwrap();
        let text = String::from_utf8(back.stdout).unwrap();
        assert_contains(
            &text,
            "1. h2e2 {centre} h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9",
        );
    }
}

#[test]
fn replay_reads_legacy_encodings() {
    let text = "[Event \"编码\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(text);
    let p = temp("gbk.pgn", &gbk);
    let out = succeeded(xqspec().arg("replay").arg(&p));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("gbk.pgn: read as gb18030"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let trad = "[Event \"編碼\"]\n\n1. 炮二平五 馬８進７ 2. 傌二進三 車９平８\n";
    let (big5, _, _) = encoding_rs::BIG5.encode(trad);
    let p = temp("big5.pgn", &big5);
    succeeded(xqspec().args(["replay", "--encoding", "big5"]).arg(&p));
    let mut utf16 = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let p = temp("utf16.pgn", &utf16);
    let out = xqspec().arg("replay").arg(&p).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.ends_with("1 game found, 1 replayed, 0 errors; 4 moves\n"),
        "{stdout}"
    );
    let bad = xqspec()
        .args(["replay", "--encoding", "klingon"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

/// Game `i` of the generated files: 5 lines, the moves on the 4th.
fn game(i: usize, moves: &str) -> String {
    format!("[Event \"g{i}\"]\n[Red \"r{i}\"]\n\n{moves}\n\n")
}

const GOOD: &str = "1. 炮二平五 马8进7 2. 马二进三 车9平8 *";

fn replay(bytes: &[u8], name: &str) -> (bool, String, std::time::Duration) {
    let p = temp(name, bytes);
    let (out, cpu) = crate::load::output_timed(xqspec().args(["replay", "--quiet"]).arg(&p), b"");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        std::time::Duration::from_secs_f64(cpu),
    )
}

#[test]
fn an_unclosed_comment_costs_only_its_game() {
    let text: String = (1..=1000)
        .map(|i| {
            game(
                i,
                if i == 501 {
                    "1. 炮二平五 {never closed 马8进7 *"
                } else {
                    GOOD
                },
            )
        })
        .collect();
    let (ok, stdout, _) = replay(text.as_bytes(), "unclosed.pgn");
    assert!(!ok);
    let last = stdout.lines().last().unwrap();
    // Game 501's moves are on line 500 × 5 + 4; its `{` at column 9.
    assert_eq!(last, "1,000 games found, 999 replayed, 1 error (game 501, line 2504: comment never closed); 3,996 moves");
    assert_contains(
        &stdout,
        "game 501 (g501): error: malformed PGN at line 2504, column 9: comment never closed",
    );
}

#[test]
fn binary_junk_around_good_games_is_an_error_at_its_place_and_costs_no_game() {
    let junk: Vec<u8> = (0..600u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mut bytes = junk.clone();
    bytes.push(b'\n');
    for i in 1..=20 {
        bytes.extend_from_slice(game(i, GOOD).as_bytes());
        if i % 7 == 0 {
            bytes.extend_from_slice(&junk);
            bytes.push(b'\n');
        }
    }
    bytes.extend_from_slice(&junk);
    let (ok, stdout, _) = replay(&bytes, "junk.pgn");
    assert!(!ok, "text that is no game is an error: {stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with(
            "20 games found, 20 replayed, 4 errors (line 1: text that is no game; line "
        ),
        "{stdout}"
    );
    assert!(last.ends_with("1 more); 80 moves"), "{last}");
    // Each run is said with its line and the byte offset where that line starts.
    let line_start = |n: usize| {
        if n == 1 {
            0
        } else {
            bytes
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .nth(n - 2)
                .unwrap()
                .0
                + 1
        }
    };
    let runs: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("skipped text that is no game: binary text"))
        .collect();
    assert_eq!(runs.len(), 4, "{stdout}");
    for r in &runs {
        let place = r.split(": line ").nth(1).unwrap();
        let line: usize = place.split(',').next().unwrap().parse().unwrap();
        assert!(
            place.contains(&format!("column 1 (byte {}): ", line_start(line))),
            "{r}"
        );
    }
    // adjudicate reads the file by the same path: the same games, the same runs.
    let p = temp("junk.pgn", &bytes);
    let out = xqspec().args(["adjudicate"]).arg(&p).output().unwrap();
    let adjudicated = String::from_utf8(out.stdout).unwrap();
    assert!(!out.status.success());
    let said: Vec<&str> = adjudicated
        .lines()
        .filter(|l| l.contains("skipped text that is no game"))
        .collect();
    assert_eq!(said, runs);
    assert_contains(&adjudicated, "| games                          | 20    |");
}

#[test]
fn a_tagless_game_after_a_tagged_one_is_its_own() {
    let text = "[Event \"A\"]\n1. h2e2 h9g7\n\n1. b0c2 b9c7 2. b2b6\n";
    let (ok, stdout, _) = replay(text.as_bytes(), "tagless.pgn");
    assert!(ok, "{stdout}");
    assert_eq!(
        stdout.lines().last().unwrap(),
        "2 games found, 2 replayed, 0 errors; 5 moves"
    );
}

#[test]
fn a_file_mixing_utf8_and_gbk_games_replays_every_game() {
    let mut bytes = Vec::new();
    for i in 1..=6 {
        let g = game(i, GOOD);
        if i % 2 == 0 {
            bytes.extend_from_slice(&encoding_rs::GBK.encode(&g).0);
        } else {
            bytes.extend_from_slice(g.as_bytes());
        }
    }
    let p = temp("mixed-encodings.pgn", &bytes);
    let out = xqspec().arg("replay").arg(&p).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert_contains(&stdout, "mixed-encodings.pgn: read as utf-8, line 9 as gb18030, line 19 as gb18030, line 29 as gb18030");
    assert!(
        stdout.ends_with("6 games found, 6 replayed, 0 errors; 24 moves\n"),
        "{stdout}"
    );
}

#[test]
fn deep_variations_are_refused_fast_with_their_place() {
    // 72 KB of nested variations in one game, between two good ones.
    let deep = format!(
        "1. 炮二平五 {}马8进7{} *",
        "( ".repeat(18_000),
        " )".repeat(18_000)
    );
    let text = format!("{}{}{}", game(1, GOOD), game(2, &deep), game(3, GOOD));
    let (_, stdout, took) = replay(text.as_bytes(), "deep.pgn");
    assert_eq!(
        stdout.lines().last().unwrap(),
        "3 games found, 2 replayed, 1 error (game 2, line 9: variations nested deeper than 64 levels); 8 moves"
    );
    // The 65th `(`: after `1. 炮二平五 ` (8 characters) and 64 times `( `.
    assert_contains(
        &stdout,
        "line 9, column 137: variations nested deeper than 64 levels",
    );
    assert!(took < std::time::Duration::from_secs(1), "took {took:?}");
}

#[test]
fn replay_out_to_an_unwritable_path_names_it() {
    let p = temp("out-src.pgn", game(1, GOOD).as_bytes());
    let target = std::env::temp_dir()
        .join("xqspec-no-such-dir-ever")
        .join("sub")
        .join("x.pgn");
    let out = xqspec()
        .args(["replay", "--to", "iccs", "--out"])
        .arg(&target)
        .arg(&p)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_contains(&stderr, &format!("{}: cannot write: ", target.display()));
}
