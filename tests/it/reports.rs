//! The generated reports: edition diffs (clauses, provenance, behaviour and its causes),
//! article coverage, and `xqspec report --check` catching stale files.

use crate::assert::assert_contains;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use xqspec::Spec;

use crate::cli::succeeded;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xqspec-reports-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn the_diff_command_writes_the_report_and_its_diagrams() {
    let dir = temp("cli");
    let file = dir.join("d.md");
    succeeded(
        Command::new(env!("CARGO_BIN_EXE_xqspec"))
            .args(["diff", "cxa-2011", "cxa-2020", "--write"])
            .arg(&file)
            .current_dir(env!("CARGO_MANIFEST_DIR")),
    );
    let md = std::fs::read_to_string(&file).unwrap();
    assert!(md.starts_with("# Differences: cxa-2011 → cxa-2020"));
    let svgs = std::fs::read_dir(dir.join("diagrams")).unwrap().count();
    assert!(
        svgs > 0 && md.matches("](diagrams/").count() == svgs,
        "{svgs}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(["diff", "cxa-2020", "cxa-2042"])
        .output()
        .unwrap();
    assert!(
        !out.status.success()
            && String::from_utf8_lossy(&out.stderr).contains("unknown rule set `cxa-2042`")
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn conform_report_draws_the_positions_of_failing_cases() {
    let dir = temp("conform");
    let cases = dir.join("cases");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    std::fs::create_dir_all(cases.join("movement")).unwrap();
    for f in [
        "vocabulary.yaml",
        "features.yaml",
        "exemptions.yaml",
        "retired-ids.txt",
    ] {
        if root.join(f).exists() {
            std::fs::copy(root.join(f), cases.join(f)).unwrap();
        }
    }
    let text =
        std::fs::read_to_string(root.join("movement/advisor-diagonals-in-palace.yaml")).unwrap();
    std::fs::write(
        cases.join("movement/advisor-diagonals-in-palace.yaml"),
        text.replace(", e1f2]", "]"),
    )
    .unwrap();
    let report = dir.join("run.md");
    let out = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(["conform", "--edition", "cxa-2020", "--cases"])
        .arg(&cases)
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    assert!(!out.status.success(), "the edited case fails");
    let md = std::fs::read_to_string(&report).unwrap();
    assert_contains(
        &md,
        "](run-diagrams/movement-advisor-diagonals-in-palace-cxa-2020.svg)",
    );
    let svg = std::fs::read_to_string(
        dir.join("run-diagrams/movement-advisor-diagonals-in-palace-cxa-2020.svg"),
    )
    .unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("class=\"piece red\""));
    std::fs::remove_dir_all(&dir).ok();
}

/// `xqspec spec check` refuses a clause citing a source `spec/sources.yaml` does not list.
#[test]
fn spec_check_refuses_a_source_not_in_the_list() {
    let dir = temp("unlisted-source");
    for (path, text) in Spec::builtin_files() {
        let p = dir.join(&path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let text = if path == "cxa-2011/arbiter.yaml" {
            text.replacen("source: web-2011-art22", "source: web-2011-art99", 1)
        } else {
            text
        };
        std::fs::write(p, text).unwrap();
    }
    let spec_check = || {
        let out = Command::new(env!("CARGO_BIN_EXE_xqspec"))
            .arg("--spec")
            .arg(&dir)
            .args(["spec", "check"])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, err) = spec_check();
    assert!(
        !ok && err.contains("web-2011-art99")
            && err.contains("sources.yaml")
            && err.contains("draw.natural_limit"),
        "{err}"
    );
    // The list itself is the one place: unlisting a source fails the clauses that cite it.
    let text = std::fs::read_to_string(dir.join("sources.yaml"))
        .unwrap()
        .replace(
            "- source: web-2011-art3\n",
            "- source: web-2011-art3-gone\n",
        );
    std::fs::write(dir.join("sources.yaml"), text).unwrap();
    let (_, err) = spec_check();
    assert_contains(&err, "`web-2011-art3`");
}

/// `xqspec diff --json` carries the certainty of every clause pair and the summary lines.
#[test]
fn diff_json_carries_the_certainties() {
    let out = succeeded(
        Command::new(env!("CARGO_BIN_EXE_xqspec"))
            .args(["diff", "cxa-2020", "axf", "--json"])
            .current_dir(env!("CARGO_MANIFEST_DIR")),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: BTreeSet<&str> = v["certainties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["certainty"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        BTreeSet::from([
            "read_same",
            "assumed_same",
            "differs_read",
            "differs_weak",
            "not_encoded"
        ])
    );
    let clause = |id: &str| {
        v["clauses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap()
    };
    assert_eq!(clause("clock.classification")["certainty"], "not_encoded");
    assert_eq!(clause("movement.horse")["certainty"], "assumed_same");
    let total: u64 = v["certainties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["clauses"].as_u64().unwrap())
        .sum();
    assert_eq!(total as usize, v["clauses"].as_array().unwrap().len());
    let c = &v["changes"][0];
    for key in [
        "clause",
        "kind",
        "certainty",
        "certainty_label",
        "article_from",
        "article_to",
        "text",
        "sources",
    ] {
        assert!(c.get(key).is_some(), "{key} in {c}");
    }
    assert!(v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["certainty"] == "differs_read" || c["certainty"] == "differs_weak"));
    assert_eq!(
        v["unencoded_changes"],
        serde_json::json!([]),
        "axf declares no difference it does not encode"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(["diff", "cxa-2011", "cxa-2020", "--json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let u = v["unencoded_changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["articles"] == "18.4")
        .cloned()
        .unwrap();
    assert_eq!(
        (u["in"].as_str(), u["certainty"].as_str()),
        (Some("cxa-2020"), Some("differs_read")),
        "{u}"
    );
}
