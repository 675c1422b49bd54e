//! `xqspec replay` end to end.

use std::process::Command;

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
    assert!(lines[0].ends_with("game 1 (A – B): ok, 4 moves"), "{}", lines[0]);
    assert!(lines[1].contains("game 2 (C – D): error: move 3 (ply 6) \"C8+9\""), "{}", lines[1]);
    assert!(lines[1].contains("line 11, column 35"), "{}", lines[1]);
    assert!(lines[1].contains("no legal move"), "{}", lines[1]);
    assert!(lines[2].ends_with("game 3 (after the bad one): ok, 3 moves"), "{}", lines[2]);
    assert_eq!(lines[3], "3 games, 12 moves, 1 errors");
}

#[test]
fn replay_converts_and_the_conversion_replays_to_the_same_moves() {
    let src = "[Event \"x\"]\n\n1. h2e2 {centre} h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9 1/2-1/2\n";
    let path = temp("conv.pgn", src.as_bytes());
    for (to, style, expect) in [
        ("chinese", "default", "1. 炮二平五 {centre} 马8进7"),
        ("chinese", "traditional+fullwidth", "1. 炮二平五 {centre} 馬８進７"),
        ("wxf", "default", "1. C2.5 {centre} H8+7"),
        ("chinese-abbreviated", "default", "1. 炮2.5 {centre} 马8+7"),
    ] {
        let out_path = path.with_extension(format!("{to}.{}.pgn", style.replace('+', "-")));
        let out = xqspec()
            .args(["replay", "--to", to, "--style", style, "--out"])
            .arg(&out_path)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let written = std::fs::read_to_string(&out_path).unwrap();
        assert!(written.contains(expect), "{to} {style}: {written}");
        assert!(written.trim_end().ends_with("1/2-1/2"), "{written}");
        // Convert back to ICCS: the same moves.
        let back = xqspec().args(["replay", "--to", "iccs"]).arg(&out_path).output().unwrap();
        let text = String::from_utf8(back.stdout).unwrap();
        assert!(text.contains("1. h2e2 {centre} h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9"), "{text}");
    }
}

#[test]
fn replay_reads_legacy_encodings() {
    let text = "[Event \"编码\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(text);
    let p = temp("gbk.pgn", &gbk);
    let out = xqspec().arg("replay").arg(&p).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("gbk.pgn: read as gb18030"), "{}", String::from_utf8_lossy(&out.stdout));
    let trad = "[Event \"編碼\"]\n\n1. 炮二平五 馬８進７ 2. 傌二進三 車９平８\n";
    let (big5, _, _) = encoding_rs::BIG5.encode(trad);
    let p = temp("big5.pgn", &big5);
    let out = xqspec().args(["replay", "--encoding", "big5"]).arg(&p).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let mut utf16 = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let p = temp("utf16.pgn", &utf16);
    let out = xqspec().arg("replay").arg(&p).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.ends_with("1 games, 4 moves, 0 errors\n"), "{stdout}");
    let bad = xqspec().args(["replay", "--encoding", "klingon"]).arg(&p).output().unwrap();
    assert!(!bad.status.success());
}
