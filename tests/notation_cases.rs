//! Runs the notation conformance cases (`conformance/notation/**.yaml`)
//! against the library's protocol answers, once per edition each case
//! names. The suite's own harness runs them too once it answers
//! `parse_move` / `format_move`; this test keeps them checked on their own.

use std::path::{Path, PathBuf};

use serde_yaml::Value;
use xqspec::board::Move;
use xqspec::notation::{answer_format_move, answer_parse_move};
use xqspec::vm::{Position, Rules};

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            case_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            out.push(p);
        }
    }
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_else(|| panic!("missing `{key}`")).to_string()
}

/// Run one case under one edition; `Err` describes a failure.
fn run_case(rules: &Rules, case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let mut pos = Position::from_fen(rules, &text(input, "fen")).map_err(|e| format!("bad FEN: {e}"))?;
    if let Some(moves) = input.get("moves").and_then(Value::as_sequence) {
        for m in moves {
            let m = Move::parse_iccs(m.as_str().unwrap()).ok_or("bad move in `moves`")?;
            pos.play(rules, m).map_err(|e| format!("move in `moves`: {e}"))?;
        }
    }
    let notation = text(input, "notation");
    let answer = match case["query"].as_str() {
        Some("parse_move") => answer_parse_move(rules, &pos, &notation, &text(input, "text")).map(|m| ("move", m)),
        Some("format_move") => answer_format_move(rules, &pos, &notation, &text(input, "move")).map(|t| ("text", t)),
        other => return Err(format!("unexpected query {other:?}")),
    };
    let expect = &case["expect"];
    match (answer, expect.get("reject").and_then(Value::as_str)) {
        (Ok((field, got)), None) => {
            let want = text(expect, field);
            if got == want {
                Ok(())
            } else {
                Err(format!("{field}: got {got:?}, expected {want:?}"))
            }
        }
        (Ok((_, got)), Some(kind)) => Err(format!("accepted as {got:?}, expected reject {kind}")),
        (Err(r), Some(kind)) if r.kind == kind => Ok(()),
        (Err(r), want) => Err(format!("rejected {} ({}), expected {want:?}", r.kind, r.message)),
    }
}

#[test]
fn notation_cases_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/notation");
    let mut files = Vec::new();
    case_files(&dir, &mut files);
    let mut rules_by_edition = std::collections::BTreeMap::new();
    let mut failures = Vec::new();
    let mut runs = 0;
    let mut ids = std::collections::BTreeSet::new();
    for f in &files {
        let case: Value = serde_yaml::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let id = text(&case, "id");
        assert_eq!(Some(id.as_str()), f.file_stem().and_then(|s| s.to_str()), "{}: id must equal the file name", f.display());
        assert!(ids.insert(id.clone()), "duplicate id {id}");
        for ed in case["editions"].as_sequence().expect("editions") {
            let ed = ed.as_str().unwrap();
            let rules = rules_by_edition.entry(ed.to_string()).or_insert_with(|| Rules::builtin(ed).unwrap());
            runs += 1;
            if let Err(e) = run_case(rules, &case) {
                failures.push(format!("{id} [{ed}]: {e}"));
            }
        }
    }
    assert!(files.len() >= 150, "only {} notation cases", files.len());
    assert!(failures.is_empty(), "{} of {runs} runs failed:\n{}", failures.len(), failures.join("\n"));
}
