//! Game-record cases (`tests/data/pgn-cases/*.yaml`) for a proposed
//! `replay_pgn` query: the same shape as the conformance cases, kept outside
//! `conformance/` until the suite's vocabulary has the query. Each expects,
//! per game, either its main-line moves in ICCS or the failure's kind, ply
//! (0 when not a move) and line.

use std::path::Path;

use serde_yaml::Value;
use xqspec::NotationRejectKind as RejectKind;
use xqspec::Rules;
use xqspec::{answer_replay_pgn, GameAnswer};

fn expected(v: &Value) -> GameAnswer {
    if let Some(moves) = v.get("moves") {
        let list = moves
            .as_sequence()
            .expect("moves list")
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        return GameAnswer::Moves(list);
    }
    let e = &v["error"];
    let code = e["kind"].as_str().unwrap();
    let kind = RejectKind::ALL
        .iter()
        .copied()
        .find(|k| k.code() == code)
        .unwrap_or_else(|| panic!("unknown kind {code}"));
    GameAnswer::Error {
        kind,
        ply: e["ply"].as_u64().unwrap() as usize,
        line: e["line"].as_u64().unwrap() as usize,
    }
}

#[test]
fn pgn_cases_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn-cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut runs = 0;
    for f in &files {
        let case: Value = serde_yaml::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let id = case["id"].as_str().unwrap();
        assert_eq!(Some(id), f.file_stem().and_then(|s| s.to_str()));
        assert_eq!(case["query"].as_str(), Some("replay_pgn"));
        let want: Vec<GameAnswer> = case["expect"]["games"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(expected)
            .collect();
        for ed in case["editions"].as_sequence().unwrap() {
            let rules = Rules::builtin(ed.as_str().unwrap()).unwrap();
            runs += 1;
            let got = answer_replay_pgn(&rules, case["input"]["pgn"].as_str().unwrap());
            if got != want {
                failures.push(format!(
                    "{id} [{}]: got {got:?}, expected {want:?}",
                    ed.as_str().unwrap()
                ));
            }
        }
    }
    assert!(files.len() >= 20, "only {} PGN cases", files.len());
    assert!(
        failures.is_empty(),
        "{} of {runs} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
