//! Bad spec YAML gets errors that say where (file, line, column) and which clause.

use crate::assert::assert_contains;
use xqspec::{Spec, SpecErrors};

use crate::spec_edit::{compile_error, edited, try_edited};

fn with_edit(file: &str, from: &str, to: &str) -> Result<Spec, SpecErrors> {
    try_edited(&[(file, from, to)])
}

/// The loader refuses the built-in spec with `from` edited to `to` in `file`, with errors
/// naming each of `needles`.
#[track_caller]
fn edit_refused(file: &str, from: &str, to: &str, needles: &[&str]) {
    let e = with_edit(file, from, to).unwrap_err().to_string();
    for n in needles {
        assert!(e.contains(n), "{n}: {e}");
    }
}

fn with_file(path: &str, text: &str) -> Result<Spec, SpecErrors> {
    let mut files = Spec::builtin_files();
    files.push((path.to_string(), text.to_string()));
    Spec::from_files(files)
}

#[test]
fn builtin_spec_loads_the_editions_and_the_axf_rule_set() {
    let spec = Spec::builtin().unwrap();
    let ids: Vec<&str> = spec.editions().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["axf", "cxa-1999", "cxa-2011", "cxa-2020"]);
    for ed in spec.editions() {
        xqspec::Rules::of_edition(ed).unwrap();
        assert!(ed.clause("movement.horse").is_some());
    }
}

#[test]
fn derived_editions_inherit_and_override() {
    let spec = Spec::builtin().unwrap();
    let e11 = spec.edition("cxa-2011").unwrap();
    let horse = e11.clause("movement.horse").unwrap();
    assert_eq!(horse.inherited_from.as_deref(), Some("cxa-2020"));
    assert_eq!(horse.provenance.status, xqspec::ProvenanceStatus::Inferred);
    let sk = e11.clause("check.self_kill").unwrap();
    assert_eq!(sk.inherited_from, None);
    assert_eq!(sk.provenance.status, xqspec::ProvenanceStatus::Secondary);
    assert_eq!(
        sk.data,
        spec.edition("cxa-2020")
            .unwrap()
            .clause("check.self_kill")
            .unwrap()
            .data
    );
    let e99 = spec.edition("cxa-1999").unwrap();
    assert_eq!(
        e99.clause("check.stalemate").unwrap().article.as_deref(),
        Some("3.2")
    );
    assert_eq!(e99.clause("pieces.setup").unwrap().article, None);
    assert_eq!(e99.clause("movement.horse").unwrap().data_from, "cxa-2020");
}

#[test]
fn unknown_field_reports_file_line_column() {
    let e = with_edit(
        "cxa-2020/board.yaml",
        "    article: \"1.1\"\n",
        "    artcle: \"1.1\"\n",
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("cxa-2020/board.yaml:3:"), "{msg}");
    assert_contains(&msg, "unknown field `artcle`");
}

#[test]
fn a_word_for_each_side_needs_both_sides_and_no_other() {
    // A piece kind's `names` and the 棋例's `side_names` are one type: both sides given,
    // nothing else.
    let (pieces, repetition) = ("cxa-2020/pieces.yaml", "cxa-2020/repetition.yaml");
    let general = "names: {red: 帅, black: 将}";
    let sides = "side_names: {red: 红方, black: 黑方}";
    let rows = [
        (pieces, general, "names: {red: 帅}", "missing field `black`"),
        (
            pieces,
            general,
            "names: {red: 帅, black: 将, green: 帥}",
            "unknown field `green`",
        ),
        (
            repetition,
            sides,
            "side_names: {black: 黑方}",
            "missing field `red`",
        ),
        (
            repetition,
            sides,
            "side_names: {red: 红方, black: null}",
            "invalid type: unit value",
        ),
    ];
    for (file, from, to, fault) in rows {
        assert_contains(&compile_error(file, from, to), fault);
    }
}

#[test]
fn wrong_type_in_data_is_a_compile_error_at_the_clause() {
    let spec = edited(&[(
        "cxa-2020/board.yaml",
        "      files: 9\n",
        "      files: nine\n",
    )]);
    let err = xqspec::Rules::of_edition(spec.edition("cxa-2020").unwrap()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("cxa-2020/board.yaml:2:5: clause board.grid: data:"),
        "{msg}"
    );
}

#[test]
fn the_vm_compile_step_reports_every_error_each_at_its_clause() {
    let spec = edited(&[
        (
            "cxa-2020/board.yaml",
            "      files: 9\n",
            "      files: nine\n",
        ),
        ("cxa-2020/movement.yaml", "to: palace", "to: palce"),
    ]);
    let errors = xqspec::Rules::compile(spec.edition("cxa-2020").unwrap()).unwrap_err();
    let at: Vec<Option<&str>> = errors.iter().map(|e| e.clause.as_deref()).collect();
    assert_eq!(
        at,
        [Some("board.grid"), Some("movement.general")],
        "{errors:?}"
    );
    assert!(errors.iter().all(|e| e.location.line > 0), "{errors:?}");
}

#[test]
fn the_record_table_reports_every_error_of_its_clauses() {
    // Two bad spellings, of two kinds: both errors, not the first alone.
    let notation = "cxa-2020/notation.yaml";
    let spec = edited(&[
        (
            notation,
            "red: {traditional: 傌, variants: [馬]}",
            "red: {traditional: 傌傌, variants: [馬]}",
        ),
        (
            notation,
            "black: {traditional: 砲, variants: [包]}",
            "black: {traditional: 砲, variants: [包包]}",
        ),
    ]);
    let errors = xqspec::Rules::compile(spec.edition("cxa-2020").unwrap()).unwrap_err();
    let msgs: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 2, "{msgs:#?}");
    for m in &msgs {
        assert_contains(m, "notation.yaml:");
        assert_contains(m, "notation.characters");
    }
    let all = msgs.join("\n");
    for doubled in ["傌傌", "包包"] {
        assert_contains(&all, &format!("`{doubled}` is not one character"));
    }
}

#[test]
fn duplicate_ids_are_rejected_with_both_places() {
    let e = with_file(
        "cxa-2020/extra.yaml",
        "clauses:\n  - id: board.grid\n    article: \"1.1\"\n    summary: again\n    summary_zh: 又一次\n    provenance: {status: verified, source: seed-002}\n    data: {files: 9, ranks: 10}\n",
    )
    .unwrap_err();
    let msg = e.to_string();
    assert_contains(&msg, "duplicate clause id");
    assert_contains(&msg, "board.grid");
}

#[test]
fn dangling_source_is_rejected() {
    edit_refused(
        "cxa-2020/board.yaml",
        "source: seed-002",
        "source: seed-999",
        &["seed-999", "board.grid"],
    );
}

#[test]
fn dangling_derivation_is_rejected() {
    edit_refused(
        "cxa-2011/edition.yaml",
        "derives_from: cxa-2020",
        "derives_from: cxa-2030",
        &["unknown edition `cxa-2030`"],
    );
}

#[test]
fn override_without_provenance_is_rejected() {
    edit_refused(
        "cxa-2011/check.yaml",
        "    provenance: {status: secondary, source: web-2011-art3, ref: \"art. 3.4, as quoted; same three cases as 2020 3.4 (digest §4)\"}\n",
        "    article: \"3.4\"\n",
        &["an override must give its own provenance"],
    );
}

#[test]
fn every_error_is_reported_not_just_the_first() {
    let e = try_edited(&[
        ("cxa-2020/board.yaml", "summary:", "summry:"),
        ("cxa-2020/pieces.yaml", "summary:", "summry:"),
    ])
    .unwrap_err();
    assert_eq!(e.0.len(), 2, "{e}");
}

/// Every clause and every difference no clause encodes has its Chinese summary
/// (`summary_zh`): a missing one, or one without Chinese, is refused where it is written.
#[test]
fn a_summary_without_its_chinese_is_refused_where_it_is_written() {
    edit_refused(
        "cxa-2020/board.yaml",
        "    summary_zh: \"棋盘由九条竖线和十条横线相交组成；棋子就在这 90 个交叉点上摆放和行走。\"\n",
        "",
        &["cxa-2020/board.yaml:2:5: clause board.grid: missing field(s): summary_zh"],
    );
    edit_refused(
        "cxa-2020/board.yaml",
        "棋盘由九条竖线和十条横线相交组成；棋子就在这 90 个交叉点上摆放和行走。",
        "nine files, ten ranks",
        &["cxa-2020/board.yaml:2:5: clause board.grid: summary_zh must be one line in Chinese"],
    );
    edit_refused(
        "cxa-2020/board.yaml",
        "棋盘由九条竖线和十条横线相交组成",
        "棋盘由 files 和 ranks 组成",
        &["cxa-2020/board.yaml:2:5: clause board.grid: summary_zh holds the English word `files`"],
    );
    // A derived edition restating the English summary restates the Chinese one too.
    edit_refused(
        "cxa-2011/repetition.yaml",
        "    summary_zh: \"子力及其价值同 2020 年版 1.2；过河兵的浮动价值低于车，因此舍兵得车算得子（如此的攻击算捉）。\"\n",
        "",
        &["cxa-2011/repetition.yaml:", "clause repetition.material: a restated summary needs both `summary` and `summary_zh`"],
    );
    edit_refused(
        "cxa-2011/edition.yaml",
        "    summary_zh: \"2020 年版允许",
        "    # \"2020 年版允许",
        &["cxa-2011/edition.yaml:", "missing field `summary_zh`"],
    );
}

#[test]
fn malformed_yaml_does_not_panic() {
    for junk in [
        "clauses: [",
        "\u{0}\u{1}",
        "- - -",
        "clauses: 3",
        "id: x",
        "",
    ] {
        let r = with_file("cxa-2020/junk.yaml", junk);
        assert!(r.is_err(), "{junk:?} accepted");
    }
}

mod fuzz {
    use proptest::prelude::*;
    use xqspec::Spec;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

        /// Random edits of the built-in YAML never panic the loader or the compiler.
        #[test]
        fn edited_spec_never_panics(file in 0usize..100, at in 0usize..10_000, cut in 0usize..40,
                                    insert in prop::sample::select(vec!["", "x", ":", "- ", "\n", "[", "]", "{", "0", "-1", "99", "null", "  ", "é", "to: palace", "symmetry: all", "step: [0, 0]", "slide: [1, 1]", "screens: 0", "royal: true"])) {
            let mut files = Spec::builtin_files();
            let n = files.len();
            let (_, text) = &mut files[file % n];
            let mut chars: Vec<char> = text.chars().collect();
            let i = at % (chars.len() + 1);
            let j = (i + cut).min(chars.len());
            chars.splice(i..j, insert.chars());
            *text = chars.into_iter().collect();
            if let Ok(spec) = Spec::from_files(files) {
                for ed in spec.editions() {
                    if let Ok(rules) = xqspec::Rules::of_edition(ed) {
                        let mut pos = rules.start_position();
                        let _ = xqspec::perft(&mut pos, &rules, 2);
                    }
                }
            }
        }
    }
}

const OVERLAY: &str = "overlay: one-move-rounds\nname: a test event\nedition: cxa-2020\nprovenance: {status: inferred, source: digest, ref: test}\nchanges:\n  - clause: play.turns\n    data: {moves_per_round: 1}\n";

#[test]
fn an_overlay_changes_only_the_keys_it_names_and_marks_its_provenance() {
    let spec = with_file("overlays/one-move-rounds.yaml", OVERLAY).unwrap();
    let o = spec.overlay("one-move-rounds").unwrap();
    let ed = spec.with_overlay(o).unwrap();
    assert_eq!(ed.id, "cxa-2020+one-move-rounds");
    assert_eq!(ed.derives_from.as_deref(), Some("cxa-2020"));
    let c = ed.clause("play.turns").unwrap();
    assert_eq!(
        c.data,
        serde_yaml::from_str::<serde_yaml::Value>("{first_to_move: red, moves_per_round: 1}")
            .unwrap()
    );
    assert_eq!(c.provenance.status, xqspec::ProvenanceStatus::Inferred);
    assert_eq!(c.location.line, 6);
    assert_eq!(
        ed.clause("movement.horse"),
        spec.edition("cxa-2020").unwrap().clause("movement.horse")
    );
    let rules = xqspec::RuleSet::of_spec(&spec, "cxa-2020+one-move-rounds").unwrap();
    assert_eq!(rules.vm.moves_per_round(), 1);
}

#[test]
fn a_bad_overlay_is_an_error_at_its_line() {
    let unknown = OVERLAY.replace("clause: play.turns", "clause: play.tempo");
    let e = with_file("overlays/one-move-rounds.yaml", &unknown)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("overlays/one-move-rounds.yaml:6:5: clause play.tempo: edition `cxa-2020` has no such clause"), "{e}");
    let shape = OVERLAY.replace("{moves_per_round: 1}", "{moves_per_round: [1]}");
    let e = with_file("overlays/one-move-rounds.yaml", &shape)
        .unwrap_err()
        .to_string();
    // At the key that changes shape: line 7, column 12 (`    data: {moves_per_round`).
    assert_contains(&e, ":7:12: clause play.turns: `moves_per_round` changes shape: it is a number in the edition, the overlay gives a list");
    let new_key = OVERLAY.replace("{moves_per_round: 1}", "{tempo: 1}");
    let e = with_file("overlays/one-move-rounds.yaml", &new_key)
        .unwrap_err()
        .to_string();
    assert_contains(&e, "`tempo` is not in the clause's data");
    let e = with_file("overlays/one-move-rounds.yaml", "overlay: one-move-rounds\nname: x\nedition: cxa-2020\nprovenance: {status: inferred, source: digest}\nchanges:\n  - clause: play.turns\n    dta: {}\n")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("overlays/one-move-rounds.yaml:7:"), "{e}");
}
