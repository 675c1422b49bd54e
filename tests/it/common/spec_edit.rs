//! The built-in spec with textual edits: the one way the tests that prove the rules are data
//! (edit the YAML, the answers change; break it, the error is located) edit spec files.
#![allow(dead_code)] // shared by two test crates; each uses a part

use xqspec::{RuleSet, Spec, SpecErrors};

/// One textual edit: in the spec file `.0`, the first place of `.1` becomes `.2`.
pub type Edit<'a> = (&'a str, &'a str, &'a str);

/// The built-in spec files with `edits` made in order; each `from` must stand in its file as
/// the earlier edits left it.
pub fn edited_files(edits: &[Edit]) -> Vec<(String, String)> {
    let mut files = Spec::builtin_files();
    for (file, from, to) in edits {
        let f = files
            .iter_mut()
            .find(|(p, _)| p == file)
            .unwrap_or_else(|| panic!("no spec file {file}"));
        assert!(
            f.1.contains(from),
            "{file} does not contain the text to edit:\n{from}"
        );
        f.1 = f.1.replacen(from, to, 1);
    }
    files
}

/// The built-in spec with `edits` made, loaded: the spec or its errors.
pub fn try_edited(edits: &[Edit]) -> Result<Spec, SpecErrors> {
    Spec::from_files(edited_files(edits))
}

/// The built-in spec with `edits` made, which must load.
pub fn edited(edits: &[Edit]) -> Spec {
    try_edited(edits).unwrap_or_else(|e| panic!("edited spec loads: {e}"))
}

/// The built-in spec with one textual edit to one file, which must load.
pub fn edited_one(file: &str, from: &str, to: &str) -> Spec {
    edited(&[(file, from, to)])
}

/// The edition that holds `file` (its first folder) compiled after one textual edit to that
/// file, which must compile.
pub fn compiled(file: &str, from: &str, to: &str) -> RuleSet {
    let edition = file.split('/').next().unwrap();
    RuleSet::of_spec(&edited_one(file, from, to), edition)
        .unwrap_or_else(|e| panic!("{edition} with the edit to {file} compiles: {e}"))
}

/// The error of compiling the edition that holds `file` (its first folder) after one
/// textual edit to that file, which must be refused.
pub fn compile_error(file: &str, from: &str, to: &str) -> String {
    let edition = file.split('/').next().unwrap();
    match RuleSet::of_spec(&edited_one(file, from, to), edition) {
        Ok(_) => panic!("{edition} with the edit to {file} compiled, but should be refused"),
        Err(e) => e.to_string(),
    }
}
