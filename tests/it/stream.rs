//! Record files streamed over all cores (`notation::stream`, behind `replay` and
//! `adjudicate`): cut into pieces of a few bytes and spread over threads, a file gives the
//! same games, numbers, places, remarks and problems, in the same order, as read whole on
//! one thread; files that cannot be read are reported where they stand and the rest is
//! processed.

use crate::assert::assert_contains;
use std::path::{Path, PathBuf};

use serde_json::Value;
use xqspec::RuleSet;
use xqspec::StreamOptions as Options;
use xqspec::{adjudicate_files, Item, Tally};

/// Every item of a batch, as `adjudicate --json` prints it, and the counts.
fn items(rs: &RuleSet, files: &[PathBuf], opts: &Options) -> (Vec<Value>, Vec<(String, usize)>) {
    let mut out = Vec::new();
    let mut tally = Tally::default();
    adjudicate_files(rs, files, opts, true, &mut |item| {
        tally.add(&item);
        if !matches!(item, Item::FileDone) {
            out.push(item.to_json());
        }
    })
    .unwrap();
    (out, tally.counts())
}

fn whole() -> Options {
    Options {
        threads: Some(1),
        piece_bytes: usize::MAX / 4,
        window_bytes: usize::MAX / 4,
        ..Options::default()
    }
}

fn tiny() -> Options {
    Options {
        threads: Some(3),
        piece_bytes: 64,
        window_bytes: 300,
        ..Options::default()
    }
}

/// The hostile records, the shared master games when present, and a GBK file of many
/// games: everything the records path finds.
fn corpus(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
    files.sort();
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/games");
    for name in ["triplets-chinese.pgn", "triplets-wxf.pgn"] {
        if shared.join(name).exists() {
            files.push(shared.join(name));
        }
    }
    // Many short games in GBK, with a remark, an illegal move and a run of tag lines.
    let mut text = String::new();
    for i in 0..40 {
        text.push_str(&format!(
            "[Event \"第{i}局\"]\n[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n"
        ));
        match i % 3 {
            0 => text.push_str("1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n\n"),
            1 => text.push_str("1. 炮二平五 马８进７ 2. 马二进三 车９进５ *\n\n"),
            _ => text.push_str("1. 炮二平五 {一个\n[注释]\n} 马８进７ 3. 马二进三 1-0\n\n"),
        }
    }
    let (gbk, _, _) = encoding_rs::GBK.encode(&text);
    let path = dir.join("many-gbk.pgn");
    std::fs::write(&path, gbk).unwrap();
    files.push(path);
    files
}

#[test]
fn pieces_on_many_threads_give_what_the_whole_file_gives_on_one() {
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    let dir = tempdir("pieces");
    let files = corpus(&dir);
    let (one, one_counts) = items(&rs, &files, &whole());
    let (many, many_counts) = items(&rs, &files, &tiny());
    assert!(one.len() > 50, "{} items", one.len());
    for (i, (a, b)) in one.iter().zip(&many).enumerate() {
        assert_eq!(a, b, "item {i}");
    }
    assert_eq!(one.len(), many.len());
    assert_eq!(one_counts, many_counts);
    // The GBK file's games are numbered 1 to 40 in order, their places in the file's lines.
    let gbk: Vec<&Value> = many
        .iter()
        .filter(|v| {
            v["place"]
                .as_str()
                .is_some_and(|p| p.contains("many-gbk.pgn game"))
        })
        .collect();
    let numbers: Vec<String> = gbk
        .iter()
        .map(|v| {
            v["place"]
                .as_str()
                .unwrap()
                .rsplit(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(numbers, (1..=40).map(|n| n.to_string()).collect::<Vec<_>>());
    let illegal = gbk[1]["error"].as_str().unwrap();
    assert_contains(illegal, "at line 13,");
    // Game 39 follows 38 games of 7 lines and 12 of them with a comment over 3 lines (2
    // more each); its misnumbered move is on the third line of its movetext.
    let remark = &gbk[38]["remarks"][0];
    assert_eq!(remark["line"], 38 * 7 + 12 * 2 + 8, "{}", gbk[38]);
}

#[test]
fn files_not_read_are_reported_in_place_and_the_rest_is_processed() {
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    let dir = tempdir("unread");
    let good = dir.join("good.pgn");
    std::fs::write(&good, "[Event \"x\"]\n\n1. h2e2 h9g7 *\n").unwrap();
    let files = vec![good.clone(), dir.join("missing.pgn"), dir.clone(), good];
    let (items, counts) = items(&rs, &files, &tiny());
    let places: Vec<String> = items
        .iter()
        .map(|v| v["place"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(places.len(), 4, "{items:?}");
    assert!(
        places[0].ends_with("good.pgn game 1") && places[3].ends_with("good.pgn game 1"),
        "{places:?}"
    );
    assert!(
        items[1]["file_error"]
            .as_str()
            .unwrap()
            .starts_with("cannot read:"),
        "{}",
        items[1]
    );
    assert_eq!(items[2]["file_error"], "is a directory, not a record file");
    assert!(
        counts.contains(&("files not read".to_string(), 2)),
        "{counts:?}"
    );
}

fn tempdir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xqspec-stream-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
