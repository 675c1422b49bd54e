//! Hostile records (`tests/data/records/`, described in its README) through both commands
//! that read record files, `replay` and `adjudicate`: every game of a file is replayed or
//! reported with its place; text that is no game and files that cannot be read are
//! reported alike by both, at the same place, and never counted as games; remarks are said
//! with their place and do not fail a run, errors do.

use crate::assert::assert_contains;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::cli::succeeded;
use crate::games::shared_pgn_files;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

fn xqspec(args: &[&str], files: &[PathBuf]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(args)
        .args(files)
        .output()
        .unwrap();
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn replay(files: &[PathBuf]) -> Run {
    xqspec(&["replay"], files)
}

fn adjudicate(files: &[PathBuf]) -> Run {
    xqspec(&["adjudicate"], files)
}

/// `adjudicate --json`: the objects of the games and problems, and the summary.
fn adjudicate_json(files: &[PathBuf]) -> (bool, Vec<Value>, Value) {
    let run = xqspec(&["adjudicate", "--json"], files);
    let mut items: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = items.pop().unwrap()["summary"].clone();
    (run.ok, items, summary)
}

/// The lines about text that is no game and files not read: the same in both commands.
fn problems(stdout: &str) -> Vec<&str> {
    let problem = |l: &str| {
        l.contains("skipped text that is no game")
            || l.contains(": is a directory")
            || l.contains(": cannot read")
    };
    // (Replay's closing line names the first failures too.)
    stdout
        .lines()
        .filter(|l| problem(l) && !l.contains(" found, "))
        .collect()
}

/// The number of games in replay's closing line.
fn games_replayed(stdout: &str) -> usize {
    let last = stdout.lines().last().unwrap();
    last.split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("{last}"))
}

/// The titles of the games of `adjudicate --json`, in order, with their places.
fn game_places(items: &[Value]) -> Vec<(String, String)> {
    items
        .iter()
        .filter(|i| i.get("title").is_some())
        .map(|i| {
            (
                i["place"].as_str().unwrap().to_string(),
                i["title"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn junk_with_a_brace_before_a_tag_costs_no_game() {
    // The case: `\x81\x82{junk[Event "b"]` on line 4 swallowed game b.
    let f = fixture("junk-brace-before-tag.pgn");
    let path = f.display().to_string();
    let r = replay(std::slice::from_ref(&f));
    assert!(!r.ok, "text that is no game is an error: {}", r.stdout);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[1..],
        [
            format!("{path}: game 1 (a): ok, 2 moves"),
            format!("{path}: line 4, column 1 (byte 28): skipped text that is no game: text before the tag pair on its line: \"亗{{junk\""),
            format!("{path}: game 2 (b): ok, 2 moves"),
            format!("{path}: game 3 (C – D): ok, 2 moves"),
            "3 games found, 3 replayed, 1 error (line 4: text that is no game); 6 moves".to_string(),
        ]
    );
    assert_eq!(r.stderr, "error: 1 run of text is no game\n");
    let a = adjudicate(std::slice::from_ref(&f));
    assert!(!a.ok);
    assert_eq!(problems(&a.stdout), problems(&r.stdout), "{}", a.stdout);
    assert_contains(&a.stderr, "1 run of text is no game");
    let (ok, items, summary) = adjudicate_json(std::slice::from_ref(&f));
    assert!(!ok);
    assert_eq!(summary["games"], 3);
    assert_eq!(summary["text that is no game (skipped)"], 1);
    let places = game_places(&items);
    assert_eq!(
        places,
        [
            (format!("{path} game 1"), "a".into()),
            (format!("{path} game 2"), "b".into()),
            (format!("{path} game 3"), "C – D".into())
        ]
    );
    let junk = items
        .iter()
        .find(|i| i.get("not_a_game").is_some())
        .unwrap();
    assert_eq!(
        (
            junk["line"].as_u64(),
            junk["column"].as_u64(),
            junk["byte"].as_u64()
        ),
        (Some(4), Some(1), Some(28))
    );
    assert_eq!(games_replayed(&r.stdout), places.len());
}

#[test]
fn the_games_are_split_alike_with_or_without_the_brace() {
    let with = replay(&[fixture("junk-brace-before-tag.pgn")]);
    let without = replay(&[fixture("junk-before-tag.pgn")]);
    let plain = |r: &Run, name: &str| -> Vec<String> {
        r.stdout
            .lines()
            .filter(|l| !l.contains("skipped text"))
            .map(|l| l.replace(name, "F"))
            .collect()
    };
    let a = plain(&with, "junk-brace-before-tag.pgn");
    assert_eq!(a, plain(&without, "junk-before-tag.pgn"));
    // Game b keeps its tags and its moves: no tags-only game, no tagless one.
    assert!(
        a.iter().any(|l| l.ends_with("game 2 (b): ok, 2 moves")),
        "{a:?}"
    );
    assert_contains(&without.stdout, "line 4, column 1 (byte 28): skipped text that is no game: text before the tag pair on its line: \"亗junk\"");
    let (_, items, summary) = adjudicate_json(&[fixture("junk-before-tag.pgn")]);
    assert_eq!(summary["games"], 3);
    assert_eq!(
        game_places(&items)
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>(),
        ["a", "b", "C – D"]
    );
}

#[test]
fn a_comment_never_closed_ends_at_the_tag_line() {
    let f = fixture("comment-runs-into-tag.pgn");
    let r = replay(std::slice::from_ref(&f));
    assert!(!r.ok);
    assert_contains(
        &r.stdout,
        "game 1 (a): error: malformed PGN at line 3, column 9: comment never closed",
    );
    assert_contains(&r.stdout, "game 2 (b): ok, 2 moves");
    assert_eq!(
        r.stdout.lines().last(),
        Some("2 games found, 1 replayed, 1 error (game 1, line 3: comment never closed); 2 moves")
    );
    let (ok, items, summary) = adjudicate_json(&[f]);
    assert!(!ok);
    assert_eq!(summary["games"], 2);
    assert_eq!(
        items[0]["error"],
        "malformed PGN at line 3, column 9: comment never closed"
    );
    assert_eq!(items[1]["title"], "b");
    assert_eq!(items[1]["result"], "undecided");
}

#[test]
fn a_utf8_record_cut_inside_its_last_character_stays_utf8() {
    let f = fixture("utf8-cut.pgn");
    assert_eq!(std::fs::metadata(&f).unwrap().len(), 102);
    let r = replay(std::slice::from_ref(&f));
    assert!(!r.ok);
    assert!(
        !r.stdout.contains("read as"),
        "not re-read in another encoding: {}",
        r.stdout
    );
    let cut = "line 7, column 15 (byte 100): the file ends inside a UTF-8 character: byte 100 starts a 3-byte character of which only 2 are there";
    assert_contains(&r.stdout, "game 1 (一): ok, 3 moves");
    assert_contains(&r.stdout, &format!("game 2 (二): error: {cut}"));
    let (ok, items, summary) = adjudicate_json(&[f]);
    assert!(!ok);
    assert_eq!(summary["games"], 2);
    assert_eq!(items[0]["title"], "一");
    assert_eq!(items[1]["error"], cut);
}

#[test]
fn binary_text_between_games_is_reported_alike_by_both_commands() {
    let f = fixture("binary-between-games.pgn");
    let r = replay(std::slice::from_ref(&f));
    let a = adjudicate(std::slice::from_ref(&f));
    assert!(!r.ok && !a.ok);
    let p = problems(&r.stdout);
    assert_eq!(p.len(), 2, "{}", r.stdout);
    assert_contains(p[0], ": line 4, column 1 (byte 28): skipped text that is no game: binary text: \"\\0\\u{fffd}\\u{1}");
    assert_contains(p[1], ": line 8, column 1 (byte 67): ");
    assert_eq!(problems(&a.stdout), p);
    assert_eq!(r.stdout.lines().last(), Some("2 games found, 2 replayed, 2 errors (line 4: text that is no game; line 8: text that is no game); 4 moves"));
    assert_eq!(r.stderr, "error: 2 runs of text are no game\n");
    let (_, items, summary) = adjudicate_json(&[f]);
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["text that is no game (skipped)"], 2);
    assert_eq!(game_places(&items).len(), games_replayed(&r.stdout));
}

#[test]
fn a_directory_or_a_file_that_cannot_be_read_is_no_game() {
    let dir = fixture("");
    let missing = fixture("no-such-record.pgn");
    let files = [dir.clone(), missing.clone(), fixture("remarks.pgn")];
    let r = replay(&files);
    assert!(!r.ok);
    let said = [
        format!("{}: is a directory, not a record file", dir.display()),
        format!(
            "{}: cannot read: No such file or directory (os error 2)",
            missing.display()
        ),
    ];
    assert_eq!(
        problems(&r.stdout),
        said.iter().map(String::as_str).collect::<Vec<_>>()
    );
    assert_eq!(games_replayed(&r.stdout), 6);
    assert_eq!(r.stderr, "error: 2 of 3 files could not be read\n");
    let a = adjudicate(&files);
    assert!(!a.ok);
    assert_eq!(problems(&a.stdout), problems(&r.stdout));
    assert_contains(&a.stderr, "2 of 3 files could not be read");
    let (_, items, summary) = adjudicate_json(&files);
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["files not read"], 2);
    assert_eq!(items[0]["file_error"], "is a directory, not a record file");
}

#[test]
fn remarks_are_said_with_their_place_and_do_not_fail_the_run() {
    let f = fixture("remarks.pgn");
    let r = replay(std::slice::from_ref(&f));
    assert!(
        r.ok,
        "remarks do not fail the run: {}{}",
        r.stdout, r.stderr
    );
    let remarks: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.split_once(": remark: ").map(|x| x.1))
        .collect();
    assert_eq!(
        remarks,
        [
            "line 3, column 9: move number `7.` is not the number of its move: the move after it is black's move 1",
            "line 3, column 17: `2...` stands before red's move 2: `...` numbers only the second move of a round",
            "line 3, column 27: `2.` stands before black's move 2, the second of its round: write `2...`",
            "line 6, column 1: the Format tag \"XYZ\" names no notation this reader knows (chinese, chinese-abbreviated, wxf, iccs): each move's notation is detected from its text",
            "line 12, column 1: the Result tag \"0-1\" records black_wins, but the moves end in red_wins after ply 3 (checkmated, result.checkmate, art. 4.1.1)",
            "line 18, column 1: the Result tag \"1-0\" records red_wins, but the moves end in black_wins after ply 3 (checkmated, result.checkmate, art. 4.1.1)",
            "line 30, column 14: the result token 1/2-1/2 records draw, the Result tag \"1-0\" (line 28) red_wins",
        ]
    );
    // Each remark is the game's: game 5 (not over, any result is fine) has none.
    let of_game = |n: usize| {
        r.stdout
            .lines()
            .filter(|l| l.contains(&format!(": game {n} (")) && l.contains(": remark: "))
            .count()
    };
    assert_eq!((1..=6).map(of_game).collect::<Vec<_>>(), [3, 1, 1, 1, 0, 1]);
    assert!(r.stdout.ends_with("6 games found, 6 replayed, 0 errors; 16 moves; 7 remarks (game 1, line 3, column 9: move number `7.` is not the number of its move: the move after it is black's move 1; game 1, line 3, column 17: `2...` stands before red's move 2: `...` numbers only the second move of a round; game 1, line 3, column 27: `2.` stands before black's move 2, the second of its round: write `2...`; 4 more)\n"), "{}", r.stdout);
    // --quiet: the remarks are counted in the closing line only.
    let q = xqspec(&["replay", "--quiet"], std::slice::from_ref(&f));
    assert!(
        q.ok && q.stdout.lines().count() == 1 && q.stdout.contains("; 7 remarks ("),
        "{}",
        q.stdout
    );
    // adjudicate says the same remarks, game by game, and flags the two contradicted results.
    let a = adjudicate(std::slice::from_ref(&f));
    assert!(a.ok, "{}{}", a.stdout, a.stderr);
    let said: Vec<&str> = a
        .stdout
        .lines()
        .filter_map(|l| l.split_once(": remark: ").map(|x| x.1))
        .collect();
    assert_eq!(said, remarks);
    let (ok, items, summary) = adjudicate_json(&[f]);
    assert!(ok);
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["remarks"], 7);
    assert_eq!(summary["disagree with the record"], 2);
    let disagrees: Vec<bool> = items
        .iter()
        .map(|i| i["disagrees"].as_bool().unwrap())
        .collect();
    assert_eq!(disagrees, [false, false, true, true, false, false]);
    assert_eq!(items[2]["remarks"][0]["line"], 12);
}

/// `--pgn FILE --game N` (`status`, `ruling`, `outcome`) reads the file by the same path:
/// game N is the game `replay` and `adjudicate` number N, and the junk is no game.
#[test]
fn a_game_of_a_file_is_the_same_game_for_every_command() {
    let f = fixture("junk-brace-before-tag.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(["status", "--game", "4", "--pgn"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_contains(&stderr, "there is no game 4 (the record has 3)");
    let out = succeeded(
        Command::new(env!("CARGO_BIN_EXE_xqspec"))
            .args(["ruling", "--every-move", "--game", "2", "--pgn"])
            .arg(&f),
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let moves: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split('|').nth(4))
        .map(str::trim)
        .collect();
    assert_eq!(
        moves,
        ["ICCS", "------", "b0c2", "b9c7"],
        "game 2 is game b: {stdout}"
    );
}

/// The real master games (`../shared/data/games/`, skipped when absent) are good input:
/// every game replays, with no remark and no text that is no game.
#[test]
fn real_records_read_without_a_problem_or_a_remark() {
    let Some(files) = shared_pgn_files() else {
        return;
    };
    let r = xqspec(&["replay", "--quiet"], &files);
    assert!(r.ok, "{}{}", r.stdout, r.stderr);
    let last = r.stdout.lines().last().unwrap();
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    assert!(
        last.contains(" replayed, 0 errors; ") && !last.contains("remark"),
        "{last}"
    );
    assert!(games_replayed(&r.stdout) >= 1170, "{last}");
}
