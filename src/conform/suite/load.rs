//! The suite's files, from disk or embedded at build time, parsed as far as they go.

use std::path::Path;

use include_dir::{include_dir, Dir};

use super::vocabulary::{RawExemptions, RawFeatures, RawProfiles, RawVocabulary};
use super::{Suite, ADAPTERS};
use crate::conform::case::{read_yaml, Case, Problem};

/// The suite shipped with this crate (`conformance/`), embedded at build time.
pub(crate) static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/conformance");

/// The embedded text of `names` (files directly under `conformance/`), as `(name, text)`.
#[cfg(test)]
pub(crate) fn embedded_files(names: &[&str]) -> Vec<(String, String)> {
    names
        .iter()
        .filter_map(|n| {
            Some((
                n.to_string(),
                EMBEDDED.get_file(n)?.contents_utf8()?.to_string(),
            ))
        })
        .collect()
}

impl Suite {
    /// The suite embedded in this crate.
    pub fn embedded() -> Suite {
        let mut files = Vec::new();
        collect_embedded(&EMBEDDED, &mut files);
        Suite::from_files(files)
    }

    /// The suite in a directory (usually `conformance/`).
    pub fn load_dir(root: &Path) -> Result<Suite, std::io::Error> {
        let mut files = Vec::new();
        let mut unreadable = Vec::new();
        collect_dir(root, root, &mut files, &mut unreadable)?;
        let mut suite = Suite::from_files(files);
        suite.problems.extend(unreadable);
        Ok(suite)
    }

    /// Builds a suite from `(relative path, text)` pairs; paths use `/`.
    pub fn from_files(mut files: Vec<(String, String)>) -> Suite {
        files.sort();
        let mut suite = Suite::default();
        let mut have_vocab = false;
        for (path, text) in files {
            match path.as_str() {
                "vocabulary.yaml" => match read_yaml::<RawVocabulary>(&path, &text) {
                    Ok(v) => {
                        have_vocab = true;
                        suite.vocabulary.queries = v.queries;
                        suite.vocabulary.reserved_queries = v.reserved_queries;
                        suite.vocabulary.statuses = v.statuses;
                        suite.vocabulary.notations = v.notations;
                        suite.vocabulary.reject_kinds = v.reject_kinds;
                    }
                    Err(p) => suite.problems.push(p),
                },
                "features.yaml" => match read_yaml::<RawFeatures>(&path, &text) {
                    Ok(f) => {
                        suite.vocabulary.optional_features = f
                            .features
                            .iter()
                            .filter(|(_, v)| v.optional)
                            .map(|(k, _)| k.clone())
                            .collect();
                        suite.vocabulary.features = f
                            .features
                            .into_iter()
                            .map(|(k, v)| (k, v.description))
                            .collect()
                    }
                    Err(p) => suite.problems.push(p),
                },
                "exemptions.yaml" => match read_yaml::<RawExemptions>(&path, &text) {
                    Ok(x) => suite.exemptions = x.exemptions,
                    Err(p) => suite.problems.push(p),
                },
                "reference-known-failures.yaml" => suite.reference_known_failures = Some(text),
                crate::conform::conditions::FILE => {
                    match crate::conform::conditions::Conditions::parse(&text) {
                        Ok(c) => suite.conditions = c,
                        Err(p) => suite.problems.push(p),
                    }
                    suite.conditions_text = text;
                }
                "profiles.yaml" => match read_yaml::<RawProfiles>(&path, &text) {
                    Ok(p) => suite.profiles = p.profiles,
                    Err(p) => suite.problems.push(p),
                },
                "retired-ids.txt" => {
                    suite.retired = text
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty() && !l.starts_with('#'))
                        .map(str::to_string)
                        .collect()
                }
                p if p.contains('/') && p.ends_with(".yaml") => {
                    match Case::parse(p, &text) {
                        Ok(c) => suite.cases.push(c),
                        Err(problem) => suite.problems.push(problem),
                    }
                    suite.texts.insert(path, text);
                }
                _ => {}
            }
        }
        if !have_vocab {
            suite.problems.push(Problem::new(
                "vocabulary.yaml",
                (0, 0),
                "missing or unreadable",
            ));
        }
        suite
    }
}

fn collect_embedded(dir: &Dir<'static>, out: &mut Vec<(String, String)>) {
    if dir.path() == Path::new(ADAPTERS) {
        return;
    }
    for f in dir.files() {
        let path = f.path().to_string_lossy().replace('\\', "/");
        match f.contents_utf8() {
            Some(t) => out.push((path, t.to_string())),
            None if path.ends_with(".yaml") => out.push((path, String::from("\u{0}not UTF-8"))),
            None => {}
        }
    }
    for d in dir.dirs() {
        collect_embedded(d, out);
    }
}

/// The suite's files under `dir`; a file that is too large or not UTF-8 is a problem.
fn collect_dir(
    root: &Path,
    dir: &Path,
    out: &mut Vec<(String, String)>,
    problems: &mut Vec<Problem>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            if path
                .strip_prefix(root)
                .is_ok_and(|rel| rel == Path::new(ADAPTERS))
            {
                continue;
            }
            collect_dir(root, &path, out, problems)?;
        } else {
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .replace('\\', "/");
            let keep = rel.ends_with(".yaml") || rel.ends_with(".txt");
            if keep {
                let read = crate::input::read_bytes(&path).and_then(|bytes| {
                    crate::input::text(&bytes, &crate::input::Origin::named(&rel))
                        .map(str::to_string)
                });
                match read {
                    Ok(text) => out.push((rel, text)),
                    Err(e) => problems.push(e.into()),
                }
            }
        }
    }
    Ok(())
}
