//! `xqspec outcome` and `xqspec touch` end to end.

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
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
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
    assert_eq!(lines[0], "cxa-2020: black wins by result.fouls (art. 4.1.10) at events[5] (disturb)", "{out}");
    assert_eq!(lines[1], "fouls: red 3, black 0");
    assert!(out.contains("events[4] press_without_move: foul (red) — foul.press_without_move (art. 8.1.7)"), "{out}");
    assert!(lines.last().unwrap().starts_with("position: rnbakabnr/9/7c1/"), "{out}");
    // The same game under 1999: pressing without a move is not a foul there.
    let (ok, out, _) = run(xqspec().args(["outcome", "--edition", "cxa-1999"]).arg(&path));
    assert!(ok);
    assert!(out.starts_with("cxa-1999: ongoing\nfouls: red 2, black 0\n"), "{out}");
    assert!(out.contains("not_regulated (red) — no clause"), "{out}");
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
    let pgn = temp("game.pgn", "[Event \"x\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n");
    let events = temp("after.yaml", "events:\n  - pgn: 2\n  - offer_draw: red\n  - pgn: rest\n  - resign: black\n");
    let (ok, out, err) = run(xqspec().args(["outcome", "--pgn"]).arg(&pgn).arg(&events));
    assert!(ok, "{err}");
    assert!(out.starts_with("cxa-2020: red wins by result.resignation (art. 4.1.12) at events[5] (resign)"), "{out}");
    assert!(out.contains("events[2] offer_draw: offer_void (red) — draw.no_early_offer (art. 4.3)"), "{out}");
    // Without markers the record comes first.
    let events = temp("plain.yaml", "events:\n  - resign: red\n");
    let (ok, out, _) = run(xqspec().args(["outcome", "--pgn"]).arg(&pgn).arg(&events));
    assert!(ok);
    assert!(out.contains("at events[4] (resign)"), "{out}");
    // Markers that leave moves out are an error.
    let events = temp("short.yaml", "events:\n  - pgn: 1\n");
    let (ok, _, err) = run(xqspec().args(["outcome", "--pgn"]).arg(&pgn).arg(&events));
    assert!(!ok);
    assert!(err.contains("the events place 1 of the record's 4 moves"), "{err}");
}

#[test]
fn outcome_refusals_say_where() {
    let path = temp("bad.yaml", "events:\n  - resign: red\n  - move: h2e2\n");
    let (ok, _, err) = run(xqspec().arg("outcome").arg(&path));
    assert!(!ok);
    assert!(err.contains("bad.yaml: events[1] (move): the game ended at events[0] (result.resignation) [events.after_end]"), "{err}");
    let path = temp("bad-yaml.yaml", "events:\n  - resign: red\n  bogus: [\n");
    let (ok, _, err) = run(xqspec().arg("outcome").arg(&path));
    assert!(!ok);
    assert!(err.contains("bad-yaml.yaml:3:"), "{err}");
}

#[test]
fn touch_prints_the_allowed_moves_and_the_step() {
    let (ok, out, err) = run(xqspec().args(["touch", "--edition", "cxa-2020", "--fen", "startpos", "--touch", "e3", "--touch", "b9"]));
    assert!(ok, "{err}");
    assert_eq!(out, "step 5.3.2 (touch.own_then_opponent, art. 5.3): must play e3e4\nfoul: no\n");
    let (ok, out, _) = run(xqspec().args(["touch", "--touch", "e3", "--touch", "b9", "--both", "--json"]));
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
    assert!(err.contains("touches[0]: no piece stands on e4 [touch.empty_point]"), "{err}");
}

#[test]
fn overlay_applies_on_the_command_line() {
    let fen = "4k4/9/R8/9/9/9/9/9/9/3K5 w - - 78 60";
    let path = temp("forty.yaml", &format!("edition: cxa-2011\nfen: \"{fen}\"\nevents:\n  - move: d0d1\n  - move: e9e8\n  - claim_natural_limit: red\n"));
    let (ok, out, _) = run(xqspec().arg("outcome").arg(&path));
    assert!(ok);
    assert!(out.starts_with("cxa-2011: ongoing\nfouls: red 1"), "{out}");
    let overlay = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/overlays/provincial-2012-open.yaml");
    let (ok, out, err) = run(xqspec().args(["--overlay", overlay, "outcome"]).arg(&path));
    assert!(ok, "{err}");
    assert!(out.starts_with("cxa-2011+provincial-2012-open: draw by result.natural_limit (art. 4.2.4) at events[2]"), "{out}");
}
