//! One read contract (`shapes!`, `src/codes.rs`): every type of `src/` that a document is
//! read into is declared by `shapes!`, which derives `Deserialize` and makes a struct refuse
//! keys it does not name. A `Deserialize` derive written by hand is one of the named
//! exceptions below, each with its reason, or this test fails.

use super::layers::src_files;

/// Where a hand-written `Deserialize` derive is right, and why.
const EXCEPTIONS: &[(&str, &str)] = &[
    // The macro itself.
    ("codes.rs", "$($item)*"),
    // The protocol's messages are read leniently: a newer peer's fields are ignored.
    ("conform/protocol.rs", "pub struct Limits"),
    ("conform/protocol.rs", "pub struct RunnerLimits"),
    ("conform/protocol.rs", "pub struct About"),
    ("conform/protocol.rs", "pub struct Identity"),
    ("conform/protocol.rs", "pub enum Request"),
    ("conform/protocol.rs", "struct Type"),
    // Answers are `wire!`'s (the schema describes them), and a criterion's value is any JSON.
    ("answer.rs", "pub struct $name"),
    ("answer.rs", "pub struct CriterionValue"),
    // Reads one key (`regions`) out of any clause's data, whatever else it holds.
    ("vm/data.rs", "pub struct Regions"),
];

/// Each hand-written `Deserialize` derive outside `shapes!` and `codes!` blocks: the file
/// (relative to `src/`) and the item it derives for.
fn hand_written(rel: &str, text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let (mut out, mut block_end) = (Vec::new(), None::<String>);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if block_end.as_deref() == Some(line) {
            block_end = None;
        } else if block_end.is_none()
            && (line.trim_start().starts_with("shapes! {")
                || line.trim_start().starts_with("codes! {"))
        {
            let indent = &line[..line.len() - line.trim_start().len()];
            block_end = Some(format!("{indent}}}"));
        } else if block_end.is_none() && line.trim_start().starts_with("#[derive(") {
            // A derive list may run over several lines.
            let mut derive = line.to_string();
            while !derive.trim_end().ends_with(")]") && i + 1 < lines.len() {
                i += 1;
                derive.push_str(lines[i]);
            }
            if derive.contains("Deserialize") {
                let item = lines[i + 1..]
                    .iter()
                    .map(|l| l.trim())
                    .find(|l| !l.starts_with("#[") && !l.starts_with("//"))
                    .unwrap_or("");
                out.push((
                    rel.to_string(),
                    item.trim_end_matches(['{', ' ']).to_string(),
                ));
            }
        }
        i += 1;
    }
    out
}

#[test]
fn every_document_shape_is_declared_by_shapes() {
    let found: Vec<(String, String)> = src_files()
        .iter()
        .flat_map(|(rel, text)| hand_written(rel, text))
        .collect();
    let wrong: Vec<String> = found
        .iter()
        .filter(|(file, item)| {
            !EXCEPTIONS
                .iter()
                .any(|(f, i)| f == file && item.starts_with(i))
        })
        .map(|(file, item)| format!("src/{file}: `{item}` derives Deserialize by hand"))
        .collect();
    assert!(
        wrong.is_empty(),
        "declare these in a shapes! block:\n{}",
        wrong.join("\n")
    );
    // Every exception still stands where it says, so the list cannot keep a stale entry.
    for (f, i) in EXCEPTIONS {
        assert!(
            found
                .iter()
                .any(|(file, item)| file == f && item.starts_with(i)),
            "the exception src/{f} `{i}` derives no Deserialize by hand any more: drop it"
        );
    }
}

#[test]
fn a_derive_by_hand_is_found_and_a_shape_is_not() {
    let text = "shapes! {\n    #[derive(Copy)]\n    pub struct A {\n        x: u8,\n    }\n}\n\n\
                /// Doc.\n#[derive(\n    Clone,\n    serde::Deserialize,\n)]\n#[serde(default)]\npub(crate) struct B {\n}\n";
    assert_eq!(
        hand_written("x.rs", text),
        vec![("x.rs".to_string(), "pub(crate) struct B".to_string())]
    );
}
