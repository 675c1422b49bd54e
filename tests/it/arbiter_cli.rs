//! `xqspec outcome` and `xqspec touch` end to end.

use crate::assert::assert_contains;
use std::process::Command;

fn xqspec() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xqspec"))
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xqspec-arbiter-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run(cmd: &mut Command) -> (bool, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const GAME: &str = "\
edition: cxa-2020
events:
  - move: h2e2
  - touch: {side: black, points: [b7, b0]}
  - move: b7b0
  - disturb: red
  - press_without_move: red
  - disturb: red
";

#[test]
fn outcome_prints_the_decision_and_its_reasons() {
    let path = temp("game.yaml", GAME);
    let (ok, out, err) = run(xqspec().arg("outcome").arg(&path));
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "cxa-2020: black wins by result.fouls (art. 4.1.10) at events[5] (disturb)",
        "{out}"
    );
    assert_eq!(lines[1], "fouls: red 3, black 0");
    assert_contains(
        &out,
        "events[4] press_without_move: foul (red) — foul.press_without_move (art. 8.1.7)",
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("position: rnbakabnr/9/7c1/"),
        "{out}"
    );
    // The same game under 1999: pressing without a move is not a foul there.
    let (ok, out, _) = run(xqspec()
        .args(["outcome", "--edition", "cxa-1999"])
        .arg(&path));
    assert!(ok);
    assert!(
        out.starts_with("cxa-1999: ongoing\nfouls: red 2, black 0\n"),
        "{out}"
    );
    assert_contains(&out, "not_regulated (red) — no clause");
}

#[test]
fn outcome_json_is_the_protocol_answer() {
    let path = temp("game-json.yaml", GAME);
    let (ok, out, _) = run(xqspec().args(["outcome", "--json"]).arg(&path));
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["result"], "black_wins");
    assert_eq!(v["clause"], "result.fouls");
    assert_eq!(v["fouls"], serde_json::json!({"red": 3, "black": 0}));
}

#[test]
fn outcome_reads_a_record_and_places_its_moves() {
    let pgn = temp(
        "game.pgn",
        "[Event \"x\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n",
    );
    let events = temp(
        "after.yaml",
        "events:\n  - pgn: 2\n  - offer_draw: red\n  - pgn: rest\n  - resign: black\n",
    );
    let (ok, out, err) = run(xqspec().args(["outcome", "--pgn"]).arg(&pgn).arg(&events));
    assert!(ok, "{err}");
    assert!(
        out.starts_with(
            "cxa-2020: red wins by result.resignation (art. 4.1.12) at events[5] (resign)"
        ),
        "{out}"
    );
    assert_contains(
        &out,
        "events[2] offer_draw: offer_void (red) — draw.no_early_offer (art. 4.3)",
    );
    // Without markers the record comes first.
    let events = temp("plain.yaml", "events:\n  - resign: red\n");
    let (ok, out, _) = run(xqspec().args(["outcome", "--pgn"]).arg(&pgn).arg(&events));
    assert!(ok);
    assert_contains(&out, "at events[4] (resign)");
    // Markers that leave moves out are an error.
    let events = temp("short.yaml", "events:\n  - pgn: 1\n");
    let (ok, _, err) = run(xqspec().args(["outcome", "--pgn"]).arg(&pgn).arg(&events));
    assert!(!ok);
    assert_contains(&err, "the events place 1 of the record's 4 moves");
}

#[test]
fn outcome_refusals_say_where() {
    let path = temp(
        "bad.yaml",
        "events:\n  - resign: red\n  - move: h2e2\n  - move: h9g7\n",
    );
    // A record that goes on after the end is judged up to it (the protocol's query refuses it).
    let (ok, out, err) = run(xqspec().arg("outcome").arg(&path));
    assert!(ok, "{err}");
    assert!(
        out.starts_with(
            "cxa-2020: black wins by result.resignation (art. 4.1.12) at events[0] (resign)"
        ),
        "{out}"
    );
    assert!(out.ends_with("the record goes on for 2 more events after the end (events[1] to events[2]): not judged\n"), "{out}");
    let (ok, out, _) = run(xqspec().args(["outcome", "--json"]).arg(&path));
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["continues"], serde_json::json!({"from": 1, "left": 2}));
    let path = temp("bad-move.yaml", "events:\n  - move: h2e3\n");
    let (ok, _, err) = run(xqspec().arg("outcome").arg(&path));
    assert!(!ok);
    assert_contains(&err, "bad-move.yaml: events[0] (move):");
    assert_contains(&err, "[move.illegal]");
    let path = temp("bad-yaml.yaml", "events:\n  - resign: red\n  bogus: [\n");
    let (ok, _, err) = run(xqspec().arg("outcome").arg(&path));
    assert!(!ok);
    assert_contains(&err, "bad-yaml.yaml:3:");
}

#[test]
fn touch_prints_the_allowed_moves_and_the_step() {
    let (ok, out, err) = run(xqspec().args([
        "touch",
        "--edition",
        "cxa-2020",
        "--fen",
        "startpos",
        "--touch",
        "e3",
        "--touch",
        "b9",
    ]));
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "step 5.3.2 (touch.own_then_opponent, art. 5.3): must play e3e4\nfoul: no\n"
    );
    let (ok, out, _) = run(xqspec().args([
        "touch", "--touch", "e3", "--touch", "b9", "--both", "--json",
    ]));
    assert!(ok);
    assert_eq!(
        out.trim(),
        r#"{"allowed":["b2b9"],"article":"5.5","clause":"touch.simultaneous","foul":false,"foul_clauses":[],"step":"5.4.2"}"#
    );
    let (ok, out, _) = run(xqspec().args(["touch", "--touch", "b7"]));
    assert!(ok);
    assert_eq!(out, "step 5.2 (touch.opponent_piece, art. 5.2): free, any legal move\nfoul: yes (foul.touch_uncapturable)\n");
    let (ok, _, err) = run(xqspec().args(["touch", "--touch", "e4"]));
    assert!(!ok);
    assert_contains(
        &err,
        "touches[0]: no piece stands on e4 [touch.empty_point]",
    );
}

#[test]
fn overlay_applies_on_the_command_line() {
    let fen = "4k4/9/R8/9/9/9/9/9/9/3K5 w - - 78 60";
    let path = temp("forty.yaml", &format!("edition: cxa-2011\nfen: \"{fen}\"\nevents:\n  - move: d0d1\n  - move: e9e8\n  - claim_natural_limit: red\n"));
    let (ok, out, _) = run(xqspec().arg("outcome").arg(&path));
    assert!(ok);
    assert!(out.starts_with("cxa-2011: ongoing\nfouls: red 1"), "{out}");
    let overlay = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/spec/overlays/provincial-2012-open.yaml"
    );
    let (ok, out, err) = run(xqspec().args(["--overlay", overlay, "outcome"]).arg(&path));
    assert!(ok, "{err}");
    assert!(
        out.starts_with(
            "cxa-2011+provincial-2012-open: draw by result.natural_limit (art. 4.2.4) at events[2]"
        ),
        "{out}"
    );
}

/// Red checks for ever with the chariot (a9, a8 and back): 长将, a loss for Red; the record
/// goes on after the loss.
const PERPETUAL_RECORD: &str = "[FEN \"4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\n1. a8a9 e9e8 2. a9a8 e8e9 3. a8a9 e9e8 4. a9a8 e8e9 5. a8a9 e9e8 6. a9a8 e8e9 7. a8a9 e9e8 8. a9a8 e8e9 9. a8a9 e9e8 *\n";

/// A real record that goes on after a perpetual check: `outcome --pgn` alone and `status
/// --pgn` judge it up to the end and say how far it goes on; `status --moves` reads any
/// notation.
#[test]
fn real_records_are_judged_up_to_the_end() {
    let pgn = temp("perpetual.pgn", PERPETUAL_RECORD);
    let (ok, out, err) = run(xqspec().args(["status", "--pgn"]).arg(&pgn));
    assert!(ok, "{err}");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("cxa-2020: ended after ply "), "{out}");
    let ply: usize = first["cxa-2020: ended after ply ".len()..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(ply < 18, "{out}");
    assert_contains(
        &out,
        &format!(
            "the record goes on for {} more plies after the end (ply {} to ply 18): not judged",
            18 - ply,
            ply + 1
        ),
    );
    let (ok, out2, err) = run(xqspec().args(["outcome", "--pgn"]).arg(&pgn));
    assert!(ok, "{err}");
    assert_contains(
        &out2,
        &format!(
            "the record goes on for {} more events after the end (events[{ply}] to events[17])",
            18 - ply
        ),
    );
    // --moves in Chinese notation, move numbers and all
    let (ok, out, err) = run(xqspec().args([
        "status",
        "--moves",
        "1.",
        "炮二平五",
        "马８进７",
        "2.",
        "马二进三",
    ]));
    assert!(ok, "{err}");
    // Words, not codes (issue 48: not `ongoing (ongoing)`).
    assert!(
        out.starts_with("cxa-2020: the game goes on after ply 3; Black to move, not in check\n"),
        "{out}"
    );
    let (ok, _, err) = run(xqspec().args(["status", "--moves", "炮二平五", "炮8进9"]));
    assert!(!ok);
    assert_contains(
        &err,
        "--moves: argument 2 \"炮8进9\" (ply 2): no legal move",
    );
}

/// `status` says when the board rules a cycle and what follows, before it does: at 8 plies
/// of a chase the ruling already says Red must change, the order comes at ply 12 (the
/// position's 4th standing, `repetition.cycle`), and once ordered, repeating loses.
#[test]
fn status_says_when_the_board_rules_the_cycle() {
    let fen = "5k3/9/cn7/9/8r/9/9/9/R8/3K5 w - - 0 1";
    let cycle = ["a1b1", "f9f8", "b1a1", "f8f9"];
    let moves = |n: usize| -> Vec<&str> { cycle.iter().cycle().take(n).copied().collect() };
    let (ok, out, err) = run(xqspec()
        .args(["status", "--json", "--fen", fen, "--moves"])
        .args(moves(8)));
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["orders"]["red"], serde_json::Value::Null, "{v}");
    let next = &v["next"];
    let counts = ["ply", "plies", "times"].map(|k| next[k].as_u64());
    assert_eq!(counts, [Some(12), Some(4), Some(4)], "{next}");
    assert_eq!(next["clause"], "repetition.cycle");
    assert_eq!(next["rulings"][1]["decision"], "must_change", "{next}");
    assert_eq!(next["rulings"][1]["side"], "red", "{next}");
    assert_eq!(next["result"], "ongoing");
    let (ok, out, err) = run(xqspec()
        .args(["status", "--fen", fen, "--moves"])
        .args(moves(12)));
    assert!(ok, "{err}");
    assert_contains(
        &out,
        "  Red is ordered to change (result.change_refused, art. 4.1.5)\n",
    );
    assert_contains(&out, "  next: if the last 4 plies are played again, the board rules after ply 16 (a position standing for the 5th time, repetition.cycle, art. 23, 24.9): pending position ruled (repetition.verdict.forbidden_against_allowed, art. 4.1.5); Red: loses (result.change_refused, art. 4.1.5)\n");
}

/// A bad move of `--moves` is named as given, by its argument and its ply, never by a line
/// and column of a record the user did not write.
#[test]
fn a_bad_move_of_moves_is_named_by_its_argument() {
    let (ok, _, err) =
        run(xqspec().args(["status", "--moves", "炮二平五", "马８进７", "马二进九九"]));
    assert!(!ok);
    assert_eq!(
        err.trim_end(),
        "error: --moves: argument 3 \"马二进九九\" (ply 3): cannot parse \"马二进九九\" as chinese notation: column 5: expected end of move"
    );
    // move numbers are arguments too; an argument of several moves names the move
    let (ok, _, err) =
        run(xqspec().args(["ruling", "--moves", "1.", "炮二平五", "马８进７ 车一进九"]));
    assert!(!ok);
    assert!(err.starts_with("error: --moves: argument 3 \"马８进７ 车一进九\", move \"车一进九\" (ply 3): no legal move for red chariot"), "{err}");
    // what is no move at all is named by its argument too
    let (ok, _, err) = run(xqspec().args(["status", "--moves", "炮二平五", "{", "马８进７"]));
    assert!(!ok);
    assert_eq!(
        err.trim_end(),
        "error: --moves: argument 2 \"{\": comment never closed"
    );
    // a bad --fen is the FEN's fault, not a tag's
    let (ok, _, err) = run(xqspec().args(["status", "--fen", "9/9 w", "--moves", "炮二平五"]));
    assert!(!ok);
    assert!(
        err.starts_with("error: --fen: ") && !err.contains("line ") && !err.contains("tag"),
        "{err}"
    );
}

/// `ruling` reads as the book does: each reason with its class's article, each side's
/// pattern as 红方长将，禁止; a record is judged up to the end of the game; and where the game
/// by the rules ends otherwise than the verdict (art. 4.3 in the first rounds), it says so.
#[test]
fn ruling_reads_as_the_book_and_takes_records() {
    let pgn = temp("ruling-record.pgn", PERPETUAL_RECORD);
    let (ok, out, err) = run(xqspec().args(["ruling", "--pgn"]).arg(&pgn));
    assert!(ok, "{err}");
    assert!(out.starts_with("the record goes on for 6 more plies after the end (ply 13 to ply 18): not judged\ncxa-2020 棋例: plies 9–12 judged"), "{out}");
    assert_contains(
        &out,
        "| 将 check |         | check (将): the chariot move gives check (art. 24.1) |",
    );
    assert_contains(&out, "\n红方长将，禁止 (Red: perpetual check, forbidden)\n");
    // 两闲 glossed as what it is, not as the pattern's data id (`allowed, allowed`).
    assert_contains(&out, "\n黑方两闲，允许 (Black: two idle, allowed)\n");
    assert_contains(&out, "verdict: Red loses (by the rulebook's text)");
    // The horses go out and back from the start: a draw by the 棋例, a loss under 4.3.
    let shuffle = ["马二进三", "马８进７", "马三退二", "马７退８"].repeat(4);
    let (ok, out, err) = run(xqspec().arg("ruling").arg("--moves").args(&shuffle));
    assert!(ok, "{err}");
    assert_contains(&out, "verdict: draw (by the rulebook's text)");
    assert!(out.ends_with("as the arbiter rules the game: ended after ply 16, Black wins by draw.early_repetition (art. 4.3)\n"), "{out}");
}

/// Latin words in `out` other than notation (ICCS moves, FENs, clause ids, rule-set ids):
/// what `--lang zh` must not print.
fn english_words(out: &str) -> Vec<String> {
    out.split(|c: char| !(c.is_ascii_alphanumeric() || "._-+/".contains(c)))
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        // a clause id, a rule set, a FEN, an ICCS move or point, events[n], the column ICCS
        .filter(|w| {
            let b = w.as_bytes();
            !(w.contains('.')
                || w.starts_with("cxa-")
                || w.contains('/')
                || w.len() == 4 && b[1].is_ascii_digit()
                || w.len() == 2 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit()
                || *w == "events"
                || *w == "ICCS"
                || w.len() == 1)
        })
        .map(str::to_string)
        .collect()
}

/// `out` holds each of `lines` and no English word.
#[track_caller]
fn says_in_chinese(out: &str, lines: &[&str]) {
    for line in lines {
        assert!(out.contains(line), "{line}: {out}");
    }
    no_english(out);
}

/// `out` has no English word (as `english_words` finds them).
fn no_english(out: &str) {
    assert_eq!(english_words(out), Vec::<String>::new(), "{out}");
}

/// `--lang zh`: `ruling` and `status` in Chinese, the rule words from spec/words.yaml and
/// the 棋例 data, no English rule word; JSON the same in both languages.
#[test]
fn ruling_and_status_speak_chinese_with_lang_zh() {
    let pgn = temp("ruling-record-zh.pgn", PERPETUAL_RECORD);
    let (ok, out, err) = run(xqspec().args(["ruling", "--lang", "zh", "--pgn"]).arg(&pgn));
    assert!(ok, "{err}");
    assert!(
        out.starts_with("棋谱在终局后还有 6 个半回合（第 13 个半回合至第 18 个半回合），不予裁定\ncxa-2020 棋例：裁决第 9–12 个半回合（重复局面）\n| 半回合 | 方"),
        "{out}"
    );
    says_in_chinese(
        &out,
        &[
            "\n红方长将，禁止\n",
            "\n黑方两闲，允许\n",
            "\n裁决：红方判负（依据规则原文）\n",
            "将：车的着法将军（第 24.1 条）",
        ],
    );
    // The shuffle of the horses: a draw by the 棋例, Black wins under 4.3.
    let shuffle = ["马二进三", "马８进７", "马三退二", "马７退８"].repeat(4);
    let (ok, out, err) = run(xqspec()
        .args(["--lang", "zh", "ruling", "--moves"])
        .args(&shuffle));
    assert!(ok, "{err}");
    assert!(
        out.ends_with(
            "按裁判规则：第 16 个半回合后终局，黑胜，依 draw.early_repetition（第 4.3 条）\n"
        ),
        "{out}"
    );
    no_english(&out);

    // status: the order, the next ruling, the natural move limit, in Chinese.
    let fen = "5k3/9/cn7/9/8r/9/9/9/R8/3K5 w - - 0 1";
    let cycle = ["a1b1", "f9f8", "b1a1", "f8f9"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let (ok, out, err) = run(xqspec()
        .args(["status", "--lang", "zh", "--fen", fen, "--moves"])
        .args(&moves));
    assert!(ok, "{err}");
    says_in_chinese(
        &out,
        &[
            "cxa-2020：第 12 个半回合后对局继续；红方走，未被将军\n",
            "  红方已被判须变着（result.change_refused，第 4.1.5 条）\n",
            "  下次裁决：若重走最后 4 个半回合，第 16 个半回合后某局面第 5 次出现，即按棋例裁决（repetition.cycle，第 23, 24.9 条）：待判局面裁决（repetition.verdict.forbidden_against_allowed，第 4.1.5 条）；红方：判负（result.change_refused，第 4.1.5 条）\n",
            "  自然限着：已计 6 / 60 回合，尚余 54 回合\n",
        ],
    );
    // Ended: the result and how in words.
    let (ok, out, err) = run(xqspec().args(["status", "--lang", "zh", "--pgn"]).arg(&pgn));
    assert!(ok, "{err}");
    assert!(
        out.starts_with(
            "cxa-2020：第 12 个半回合后终局：黑胜（长将；result.perpetual_check，第 4.1.4 条）\n"
        ),
        "{out}"
    );
    no_english(&out);
    // outcome: the decision, the fouls and each ruling in Chinese.
    let game = temp("game-zh.yaml", GAME);
    let (ok, out, err) = run(xqspec().args(["outcome", "--lang", "zh"]).arg(&game));
    assert!(ok, "{err}");
    assert!(out.starts_with("cxa-2020：黑胜，依 result.fouls（第 4.1.10 条），于 events[5]（干扰对方）\n犯规：红方 3 次，黑方 0 次\n"), "{out}");
    assert_contains(
        &out,
        "  events[4] 未走棋先按钟：犯规（红方） — foul.press_without_move（第 8.1.7 条）：×1\n",
    );
    no_english(&out);
    // adjudicate: each game's decision and the summary in Chinese (the record's own
    // titles and remarks as written).
    let records = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/records/remarks.pgn"
    );
    let (_, out, _) = run(xqspec().args(["adjudicate", "--lang", "zh", records]));
    assert_contains(&out, " game 3 (red mates, the Result tag says 0-1)：红胜，依 result.checkmate（第 4.1.1 条），第 3 个半回合后［被将死］；棋谱所记 0-1 — 与所记结果不符\n");
    assert_contains(&out, "cxa-2020：仅按着法裁定\n| 终局方式 ");
    assert_contains(&out, "| 被将死 ");
    // JSON does not change with the language.
    let json = |lang: &str| {
        run(xqspec()
            .args(["status", "--json", "--lang", lang, "--pgn"])
            .arg(&pgn))
        .1
    };
    assert_eq!(json("zh"), json("en"));
}
