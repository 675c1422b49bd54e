//! The suite's own checks, case by case.

use super::one_edit::one_edit;
use super::*;

fn facts() -> SpecFacts {
    let mut f = SpecFacts::default();
    for e in ["cxa-1999", "cxa-2020"] {
        f.editions.insert(
            e.into(),
            ["movement.horse", "board.grid"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        );
    }
    f.editions
        .get_mut("cxa-2020")
        .unwrap()
        .insert("check.self_kill".into());
    f
}

fn suite(cases: &[(&str, &str)]) -> Suite {
    let mut files = embedded_files(&EMBEDDED_META);
    files.extend(cases.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    Suite::from_files(files)
}

/// The messages of every problem `check` finds.
fn messages(s: &Suite) -> Vec<String> {
    s.check(&facts())
        .iter()
        .map(|p| p.message.clone())
        .collect()
}

const EMBEDDED_META: [&str; 3] = ["vocabulary.yaml", "features.yaml", "retired-ids.txt"];

const OK: &str = "id: horse-one\ndescription: A horse case\nclauses: [movement.horse]\neditions: [cxa-1999, cxa-2020]\nquery: legal_moves\ninput:\n  fen: x\nexpect:\n  moves: [a0a1, b0c2]\norigin: authored\nbasis: rule\nnote: art. 2.2, the horse's leap\n";

#[test]
fn a_good_case_has_no_problems() {
    let s = suite(&[("movement/horse-one.yaml", OK)]);
    assert_eq!(s.check(&facts()), vec![]);
}

#[test]
fn every_case_says_where_its_answer_comes_from() {
    let without = OK.replace(
        "origin: authored\nbasis: rule\nnote: art. 2.2, the horse's leap\n",
        "basis: rule\n",
    );
    let sourced = OK.replace("origin: authored", "origin: sourced");
    let derived = OK.replace("origin: authored", "origin: derived\nfrom: horse-gone");
    let authored_from = OK.replace("origin: authored", "origin: authored\nfrom: horse-one");
    let bare = OK.replace("\nnote: art. 2.2, the horse's leap", "");
    for (text, want) in [
        (&without, "1:1: `origin:` is required: sourced (with `source:`), derived (with `from:`) or authored (with a `note:` naming the article and the reasoning)"),
        (&sourced, "10:1: a sourced case names its source exactly in `source:`"),
        (&derived, "11:1: `from: horse-gone` names no case of the suite"),
        (&authored_from, "11:1: `from:` belongs to derived cases; this one is authored"),
        (&bare, "10:1: an authored case says in `note:` which article decides it and how"),
    ] {
        let s = suite(&[("movement/horse-one.yaml", text)]);
        let got: Vec<String> = s.check(&facts()).iter().map(|p| p.to_string()).collect();
        assert_eq!(got, vec![format!("movement/horse-one.yaml:{want}")], "{text}");
    }
    let good = OK.replace("origin: authored", "origin: derived\nfrom: horse-one");
    assert_eq!(
        suite(&[("movement/horse-one.yaml", &good)]).check(&facts()),
        vec![]
    );
}

#[test]
fn every_problem_is_reported_with_its_place() {
    let bad = OK
        .replace("id: horse-one", "id: Horse_One")
        .replace("[movement.horse]", "[movement.horse, check.self_kill]")
        .replace("cxa-2020]", "cxa-2020, cxa-3000]\nfeatures: [teleport]")
        .replace("  fen: x", "  fen: x\n  depth: 3\n  moves: [h2e2, zz]")
        .replace("[a0a1, b0c2]", "[b0c2, a0a1]");
    let s = suite(&[
        ("movement/horse-one.yaml", &bad),
        ("movement/other.yaml", "id: ["),
    ]);
    let got: Vec<String> = s.check(&facts()).iter().map(|p| p.to_string()).collect();
    let want = [
        "movement/horse-one.yaml:1:1: id `Horse_One` differs from the file name `horse-one.yaml`",
        "movement/horse-one.yaml:1:1: id `Horse_One` is not lower-case letters, digits and single hyphens (at most 80)",
        "movement/horse-one.yaml:3:27: clause `check.self_kill` does not exist in cxa-1999",
        "movement/horse-one.yaml:4:32: unknown edition `cxa-3000` (known: cxa-1999, cxa-2020)",
        "movement/horse-one.yaml:5:12: unknown feature `teleport` (see features.yaml)",
        "movement/horse-one.yaml:9:3: input field `depth` is not one `legal_moves` takes",
        "movement/horse-one.yaml:10:17: `zz` in `moves` is not an ICCS move like `h2e2`",
        "movement/horse-one.yaml:12:3: `moves` is not sorted in ascending order",
    ];
    for w in want {
        assert!(
            got.iter().any(|g| g == w),
            "missing {w}\ngot:\n{}",
            got.join("\n")
        );
    }
    assert!(
        // The end of the text, where the list's `]` is missing.
        got.iter()
            .any(|g| g.starts_with("movement/other.yaml:2:1: not a valid case file")),
        "{got:?}"
    );
    assert_eq!(got.len(), want.len() + 1, "{got:#?}");
}

#[test]
fn every_case_gives_its_basis_optional_with_its_feature() {
    let msgs = |text: &str| messages(&suite(&[("notation/horse-one.yaml", text)]));
    assert_eq!(
        msgs(&OK.replace("basis: rule\n", "")),
        ["`basis:` is required: rule (an article of the rules decides the answer), convention (the suite's choice where the rules say nothing or practice varies) or optional (a feature a program may leave out, named in `features:`)"]
    );
    let wxf = OK.replace("editions:", "features: [notation-wxf]\neditions:");
    assert_eq!(
        msgs(&wxf),
        ["the case carries the optional feature `notation-wxf`: its basis is `optional`, not `rule`"]
    );
    assert!(msgs(&wxf.replace("basis: rule", "basis: optional")).is_empty());
    assert!(msgs(&OK.replace("basis: rule", "basis: optional"))[0]
        .starts_with("an optional case carries the optional feature it concerns"));
    assert!(msgs(&OK.replace("basis: rule", "basis: law"))[0].contains("unknown variant `law`"));
}

#[test]
fn runs_once_needs_several_rule_sets_and_one_expectation() {
    let msgs = |text: &str| messages(&suite(&[("movement/horse-one.yaml", text)]));
    assert!(msgs(&OK.replace("query:", "runs: once\nquery:")).is_empty());
    assert_eq!(
        msgs(
            &OK.replace("query:", "runs: once\nquery:")
                .replace("[cxa-1999, cxa-2020]", "[cxa-2020]")
        ),
        ["`runs: once` is for a case of several rule sets; this one names one"]
    );
    let by = OK.replace("query:", "runs: once\nquery:").replace(
        "expect:\n  moves: [a0a1, b0c2]\n",
        "expect_by_edition:\n  cxa-1999: {moves: [a0a1]}\n  cxa-2020: {moves: [b0c2]}\n",
    );
    assert!(msgs(&by)[0].starts_with("`runs: once` says the answer is the same"));
}

#[test]
fn fixed_is_one_input_field_changed_in_one_place() {
    let reject = |fixed: &str| {
        OK.replace(
            "expect:\n  moves: [a0a1, b0c2]\n",
            &format!("expect: {{reject: fen.piece_placement}}\nfixed: {fixed}\n"),
        )
        .replace("  fen: x", "  fen: \"4k4/9/9/9/9/2b6/9/9/9/3K5 w - - 0 1\"")
    };
    let msgs = |text: &str| messages(&suite(&[("movement/horse-one.yaml", text)]));
    assert!(msgs(&reject("{fen: \"4k4/9/9/9/2b6/9/9/9/9/3K5 w - - 0 1\"}")).is_empty());
    assert!(msgs(&reject("{fen: \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"}")).is_empty());
    assert_eq!(
        msgs(&reject("{fen: \"3k5/9/9/9/2b6/9/9/9/9/4K4 w - - 0 1\"}")),
        ["`fixed.fen` changes more than one thing: the boards differ on 6 points of 4 ranks"]
    );
    assert_eq!(
        msgs(&reject("{fen: \"4k4/9/9/9/2b6/9/9/9/9/3K5 b - - 0 2\"}")),
        ["`fixed.fen` changes more than one thing: FEN fields 1, 2, 6 differ"]
    );
    assert_eq!(
        msgs(&reject(
            "{fen: \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\", moves: []}"
        )),
        ["`fixed:` gives one input field (the one holding the fault), not 2"]
    );
    assert_eq!(
        msgs(&reject("{depth: 3}")),
        ["`fixed.depth` is not an input field of `legal_moves`"]
    );
    assert_eq!(
        msgs(&OK.replace("origin:", "fixed: {fen: y}\norigin:")),
        ["`fixed:` belongs to cases expecting a rejection"]
    );
}

#[test]
fn one_edit_is_one_item_one_key_one_field() {
    use serde_json::json;
    assert!(one_edit("moves", &json!(["a", "b", "c"]), &json!(["a", "c"])).is_ok());
    assert!(one_edit("moves", &json!(["a", "b", "c"]), &json!(["a", "x", "c"])).is_ok());
    assert!(one_edit("moves", &json!(["a", "b", "c"]), &json!(["x", "b", "y"])).is_err());
    assert!(one_edit("moves", &json!(["a"]), &json!(["a", "b", "c"])).is_err());
    let t = json!({"games": [1, 2], "byes": [3]});
    assert!(one_edit("tournament", &t, &json!({"games": [1, 2]})).is_ok());
    assert!(one_edit("tournament", &t, &json!({"games": [1], "byes": []})).is_err());
    assert!(one_edit("text", &json!("a"), &json!("a")).is_err());
    // a rank written in the other side's letters is one thing
    assert!(one_edit(
        "fen",
        &json!("RNBAKABNR/9/9/9/9/9/9/9/9/RNBAKABNR w - - 0 1"),
        &json!("rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR w - - 0 1")
    )
    .is_ok());
    // a rank added
    assert!(one_edit(
        "fen",
        &json!("4k4/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        &json!("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    )
    .is_ok());
}

#[test]
fn exemptions_name_real_clauses_and_give_reasons() {
    let mut s = suite(&[("movement/horse-one.yaml", OK)]);
    let x = |clause: &str, editions: &[&str], reason: &str| Exemption {
        clause: clause.into(),
        editions: editions.iter().map(|e| e.to_string()).collect(),
        reason: reason.into(),
    };
    s.exemptions = vec![
        x("board.grid", &[], "fine"),
        x("equipment.table", &[], "no program decides it"),
        x("check.self_kill", &["cxa-1999"], "wrong edition"),
        x("board.grid", &["cxa-2020"], " "),
    ];
    let got = messages(&s);
    assert_eq!(
        got,
        vec![
            "exemptions.yaml entry 2: clause `equipment.table` exists in no edition",
            "exemptions.yaml entry 3: clause `check.self_kill` does not exist in cxa-1999",
            "exemptions.yaml entry 4: `board.grid` has no reason",
        ]
    );
}

#[test]
fn big_perft_needs_the_slow_feature() {
    let big = OK
        .replace("query: legal_moves", "query: perft")
        .replace("  fen: x\n", "  fen: x\n  depth: 5\n")
        .replace("  moves: [a0a1, b0c2]", "  nodes: 1000001");
    let s = suite(&[("perft/horse-one.yaml", &big)]);
    let got = messages(&s);
    assert_eq!(
        got,
        vec!["a perft of more than 1000000 nodes carries the feature `slow`"]
    );
    let tagged = big.replace("query: perft", "features: [slow]\nquery: perft");
    assert!(suite(&[("perft/horse-one.yaml", &tagged)])
        .check(&facts())
        .is_empty());
}

#[test]
fn duplicate_and_retired_ids() {
    let mut s = suite(&[
        ("movement/horse-one.yaml", OK),
        ("check/horse-one.yaml", OK),
    ]);
    s.retired.insert("horse-one".into());
    let got = messages(&s);
    assert!(
        got.iter()
            .any(|m| m == "id `horse-one` is already used by check/horse-one.yaml"),
        "{got:?}"
    );
    assert_eq!(got.iter().filter(|m| m.contains("retired")).count(), 2);
}

#[test]
fn expectations_are_checked_per_edition() {
    let by = OK.replace(
        "expect:\n  moves: [a0a1, b0c2]\n",
        "expect_by_edition:\n  cxa-1999: {reject: fen.nonsense}\n  cxa-2020: {nodes: 3}\n",
    );
    let s = suite(&[("movement/horse-one.yaml", &by)]);
    let got = messages(&s);
    assert_eq!(
        got,
        vec![
            "unknown reject kind `fen.nonsense` (see vocabulary.yaml)",
            "`legal_moves` answers with `moves`, not `nodes`"
        ]
    );
    let missing = by.replace("  cxa-2020: {nodes: 3}\n", "");
    let s = suite(&[("movement/horse-one.yaml", &missing)]);
    assert!(s
        .check(&facts())
        .iter()
        .any(|p| p.message.contains("exactly the case's editions")));
}

#[test]
fn the_notation_ids_are_the_notation_module_s() {
    let s = Suite::embedded();
    let mut ids: Vec<&str> = s.vocabulary.notations.keys().map(String::as_str).collect();
    let mut module = crate::notation::NOTATION_IDS.to_vec();
    ids.sort_unstable();
    module.sort_unstable();
    assert_eq!(ids, module);
}

#[test]
fn the_vocabulary_matches_the_typed_queries() {
    let s = Suite::embedded();
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    let names: Vec<&str> = s.vocabulary.queries.keys().map(String::as_str).collect();
    let mut known = crate::query::KNOWN_QUERIES.to_vec();
    known.sort();
    assert_eq!(names, known);
    for (name, spec) in &s.vocabulary.queries {
        assert_eq!(Some(spec.answer.as_str()), crate::query::answer_field(name));
    }
}
