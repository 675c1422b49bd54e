//! The suite as a whole: loading every case file (from disk or embedded),
//! the closed vocabularies, and `xqspec cases check`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use include_dir::{include_dir, Dir};
use serde::Deserialize;

use super::case::{locate_in, locate_key, read_yaml, Basis, Case, Expected, Origin, Problem, Runs};
use super::judge::check_answer_value;
use crate::board::Move;
use crate::query::Query;

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

/// Version of the case set; bumped when cases are added, changed or retired.
/// Independent of [`crate::conform::protocol::PROTOCOL_VERSION`].
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The query table of `vocabulary.yaml`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct QuerySpec {
    pub(crate) required: Vec<String>,
    pub(crate) optional: Vec<String>,
    /// The name of the field an accepted answer carries (`moves`, `status` …).
    pub(crate) answer: String,
    /// JSON types of input fields that are not strings (`{events: array}`); the input
    /// fields of the first queries (`fen`, `moves`, `depth`, `notation`) are known.
    #[serde(default)]
    pub(crate) types: BTreeMap<String, String>,
}

/// The closed vocabularies: `vocabulary.yaml` and `features.yaml`.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// The queries by name.
    pub(crate) queries: BTreeMap<String, QuerySpec>,
    pub(crate) reserved_queries: Vec<String>,
    pub(crate) statuses: BTreeMap<String, String>,
    pub(crate) notations: BTreeMap<String, String>,
    pub(crate) reject_kinds: BTreeMap<String, String>,
    /// Feature name → description.
    pub(crate) features: BTreeMap<String, String>,
    /// The features `features.yaml` marks `optional: true`: what a program may leave out. A
    /// case carrying one has `basis: optional`.
    pub(crate) optional_features: BTreeSet<String>,
}

impl Vocabulary {
    /// The optional features (`optional: true` in `features.yaml`) with their descriptions,
    /// in name order: what PROTOCOL.md lists as a program's to leave out.
    pub fn optional_features(&self) -> Vec<(&str, &str)> {
        self.optional_features
            .iter()
            .filter_map(|f| Some((f.as_str(), self.features.get(f)?.as_str())))
            .collect()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVocabulary {
    queries: BTreeMap<String, QuerySpec>,
    reserved_queries: Vec<String>,
    statuses: BTreeMap<String, String>,
    notations: BTreeMap<String, String>,
    reject_kinds: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFeatures {
    features: BTreeMap<String, RawFeature>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFeature {
    description: String,
    /// A feature a program may leave out (`basis: optional` for the cases carrying it).
    #[serde(default)]
    optional: bool,
}

/// A named selection of the suite (`profiles.yaml`, `xqspec conform --profile NAME`).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// What it is for, in one line.
    pub description: String,
    /// The areas it runs.
    pub areas: Vec<String>,
    /// The features whose cases it leaves out.
    #[serde(default)]
    pub skip_features: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfiles {
    profiles: BTreeMap<String, Profile>,
}

/// One clause no case can decide.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct Exemption {
    pub clause: String,
    /// The editions the exemption holds for; empty means every edition having the clause.
    #[serde(default)]
    pub(crate) editions: Vec<String>,
    pub(crate) reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExemptions {
    exemptions: Vec<Exemption>,
}

/// What the checks need to know of the spec: each edition's clause ids.
#[derive(Clone, Debug, Default)]
pub struct SpecFacts {
    /// Edition id → the ids of its clauses.
    pub(crate) editions: BTreeMap<String, BTreeSet<String>>,
    /// Shipped event overlays: id → the edition each applies to.
    pub overlays: BTreeMap<String, String>,
    /// The sources of `spec/sources.yaml`, by id (empty: not checked).
    pub(crate) sources: BTreeSet<String>,
}

impl SpecFacts {
    /// The facts of a loaded spec.
    pub fn from_spec(spec: &crate::spec::Spec) -> SpecFacts {
        SpecFacts {
            editions: spec
                .editions()
                .iter()
                .map(|e| {
                    (
                        e.id.clone(),
                        e.clauses().iter().map(|c| c.id.clone()).collect(),
                    )
                })
                .collect(),
            overlays: spec
                .overlays()
                .iter()
                .map(|o| (o.overlay.clone(), o.edition.clone()))
                .collect(),
            sources: spec.sources().map(|s| s.id.clone()).collect(),
        }
    }
}

/// Every file of the suite, parsed as far as it goes.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// Cases that parsed, in path order.
    pub cases: Vec<Case>,
    /// The closed vocabularies the cases are checked against.
    pub vocabulary: Vocabulary,
    pub(crate) exemptions: Vec<Exemption>,
    pub(crate) retired: BTreeSet<String>,
    /// Problems found while loading (files that did not parse).
    pub problems: Vec<Problem>,
    /// Text of each case file by path, for locating later problems.
    pub texts: BTreeMap<String, String>,
    /// Text of `reference-known-failures.yaml`: the cases xqspec's own reference is known
    /// to fail, each with its reason and answer (see [`Suite::reference_known_failures`]).
    pub(crate) reference_known_failures: Option<String>,
    /// `qili-conditions.yaml`: the conditions of the 棋例 texts cases name.
    pub conditions: super::conditions::Conditions,
    /// Its text, for locating problems.
    pub(crate) conditions_text: String,
    /// The named selections of `profiles.yaml`, by name.
    pub profiles: BTreeMap<String, Profile>,
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
                super::conditions::FILE => {
                    match super::conditions::Conditions::parse(&text) {
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

    /// The known failures of xqspec's reference implementation
    /// (`reference-known-failures.yaml`), checked against the cases.
    pub fn reference_known_failures(&self) -> Result<super::runner::KnownFailures, Vec<Problem>> {
        match &self.reference_known_failures {
            None => Ok(Default::default()),
            Some(t) => super::runner::KnownFailures::parse(REFERENCE_KNOWN_FAILURES, t, self),
        }
    }

    /// The case with this id.
    pub fn case(&self, id: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.id == id)
    }

    /// `xqspec cases check` without the reference implementation: every
    /// problem of every file, sorted by file and line.
    pub fn check(&self, facts: &SpecFacts) -> Vec<Problem> {
        let mut out = self.problems.clone();
        let mut first_seen: BTreeMap<&str, &str> = BTreeMap::new();
        let ids: BTreeSet<&str> = self.cases.iter().map(|c| c.id.as_str()).collect();
        for case in &self.cases {
            let text = self.texts.get(&case.path).map(String::as_str).unwrap_or("");
            check_case(case, text, &self.vocabulary, facts, &self.retired, &mut out);
            self.conditions.check_case(case, text, &mut |at, m| {
                out.push(Problem::new(&case.path, at, m))
            });
            if let Some(from) = case.from.as_deref().filter(|f| !ids.contains(f)) {
                out.push(Problem::new(
                    &case.path,
                    locate_key(text, "from"),
                    format!("`from: {from}` names no case of the suite"),
                ));
            }
            if let Some(other) = first_seen.insert(&case.id, &case.path) {
                out.push(Problem::new(
                    &case.path,
                    locate_key(text, "id"),
                    format!("id `{}` is already used by {other}", case.id),
                ));
            }
        }
        self.conditions.check(
            &self.conditions_text,
            &facts.sources,
            &facts.editions,
            &mut out,
        );
        let areas: BTreeSet<&str> = self.cases.iter().map(|c| c.area()).collect();
        for (name, p) in &self.profiles {
            for a in p.areas.iter().filter(|a| !areas.contains(a.as_str())) {
                out.push(Problem::new(
                    "profiles.yaml",
                    (0, 0),
                    format!("profile `{name}`: no case is of the area `{a}`"),
                ));
            }
            for f in p
                .skip_features
                .iter()
                .filter(|f| !self.vocabulary.features.contains_key(*f))
            {
                out.push(Problem::new(
                    "profiles.yaml",
                    (0, 0),
                    format!("profile `{name}`: unknown feature `{f}` (see features.yaml)"),
                ));
            }
        }
        for (i, x) in self.exemptions.iter().enumerate() {
            let editions: Vec<&String> = if x.editions.is_empty() {
                facts.editions.keys().collect()
            } else {
                x.editions.iter().collect()
            };
            let place = format!("exemptions.yaml entry {}", i + 1);
            if x.reason.trim().is_empty() {
                out.push(Problem::new(
                    "exemptions.yaml",
                    (0, 0),
                    format!("{place}: `{}` has no reason", x.clause),
                ));
            }
            let mut exists = false;
            for e in editions {
                match facts.editions.get(e) {
                    None => out.push(Problem::new(
                        "exemptions.yaml",
                        (0, 0),
                        format!("{place}: unknown edition `{e}`"),
                    )),
                    Some(ids) if ids.contains(&x.clause) => exists = true,
                    Some(_) if !x.editions.is_empty() => out.push(Problem::new(
                        "exemptions.yaml",
                        (0, 0),
                        format!("{place}: clause `{}` does not exist in {e}", x.clause),
                    )),
                    Some(_) => {}
                }
            }
            if !exists && x.editions.is_empty() {
                out.push(Problem::new(
                    "exemptions.yaml",
                    (0, 0),
                    format!("{place}: clause `{}` exists in no edition", x.clause),
                ));
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// `origin:` and the fields each origin needs: a sourced case names its source, a derived
/// case the case it comes from, an authored case explains itself in its note.
fn check_origin(case: &Case, text: &str, push: &mut impl FnMut((usize, usize), String)) {
    let filled = |f: &Option<String>| f.as_deref().is_some_and(|s| !s.trim().is_empty());
    match case.origin {
        None => push(
            (1, 1),
            "`origin:` is required: sourced (with `source:`), derived (with `from:`) or authored (with a `note:` naming the article and the reasoning)".into(),
        ),
        Some(Origin::Sourced) if !filled(&case.source) => {
            push(locate_key(text, "origin"), "a sourced case names its source exactly in `source:`".into())
        }
        Some(Origin::Derived) if !filled(&case.from) => {
            push(locate_key(text, "origin"), "a derived case names the case it was derived from in `from:`".into())
        }
        Some(Origin::Authored) if !filled(&case.note) => push(
            locate_key(text, "origin"),
            "an authored case says in `note:` which article decides it and how".into(),
        ),
        Some(o) if o != Origin::Derived && case.from.is_some() => {
            push(locate_key(text, "from"), format!("`from:` belongs to derived cases; this one is {}", o.name()))
        }
        Some(_) => {}
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

/// The folder of the suite root that holds third-party adapters and their measuring script
/// (`adapters/`): not cases, never read as the suite.
pub const ADAPTERS: &str = "adapters";

/// The file of the reference implementation's known failures, in the suite root.
pub const REFERENCE_KNOWN_FAILURES: &str = "reference-known-failures.yaml";

/// Perft counts above this need the feature `slow`.
pub(crate) const SLOW_NODES: u64 = 1_000_000;

/// Is `id` a well-formed case id?
pub(crate) fn is_case_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 80
        && id.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The checks of one case that need no reference implementation.
pub(crate) fn check_case(
    case: &Case,
    text: &str,
    vocab: &Vocabulary,
    facts: &SpecFacts,
    retired: &BTreeSet<String>,
    out: &mut Vec<Problem>,
) {
    let file = case.path.as_str();
    let mut push = |at: (usize, usize), m: String| out.push(Problem::new(file, at, m));

    check_id(case, text, retired, &mut push);
    check_description(case, text, &mut push);
    check_editions_and_clauses(case, text, facts, &mut push);
    check_origin(case, text, &mut push);
    check_basis(case, text, vocab, &mut push);
    check_runs(case, text, &mut push);
    check_overlay(case, text, facts, &mut push);
    check_features(case, text, vocab, &mut push);
    let Some(spec) = check_query_and_input(case, text, vocab, &mut push) else {
        return;
    };
    check_expectations(case, text, vocab, spec, &mut push);
    check_fixed(case, text, spec, &mut push);
}

/// `basis:`, and `optional` exactly for the cases carrying an optional feature.
fn check_basis(
    case: &Case,
    text: &str,
    vocab: &Vocabulary,
    push: &mut impl FnMut((usize, usize), String),
) {
    let optional: Vec<&String> = case
        .features
        .iter()
        .filter(|f| vocab.optional_features.contains(*f))
        .collect();
    match (case.basis, optional.first()) {
        (None, _) => push(
            (1, 1),
            "`basis:` is required: rule (an article of the rules decides the answer), convention (the suite's choice where the rules say nothing or practice varies) or optional (a feature a program may leave out, named in `features:`)".into(),
        ),
        (Some(Basis::Optional), None) => push(
            locate_key(text, "basis"),
            format!(
                "an optional case carries the optional feature it concerns (features.yaml marks {} optional)",
                vocab.optional_features.iter().cloned().collect::<Vec<_>>().join(", ")
            ),
        ),
        (Some(b), Some(f)) if b != Basis::Optional => push(
            locate_key(text, "basis"),
            format!("the case carries the optional feature `{f}`: its basis is `optional`, not `{}`", b.name()),
        ),
        _ => {}
    }
}

/// `runs: once` only where there is more than one rule set and one expectation for all.
fn check_runs(case: &Case, text: &str, push: &mut impl FnMut((usize, usize), String)) {
    if case.runs != Runs::Once {
        return;
    }
    if case.editions.len() < 2 {
        push(
            locate_key(text, "runs"),
            "`runs: once` is for a case of several rule sets; this one names one".into(),
        );
    } else if matches!(case.expect, super::case::Expect::ByEdition(_)) {
        push(
            locate_key(text, "runs"),
            "`runs: once` says the answer is the same under every rule set: give one `expect`, not `expect_by_edition`".into(),
        );
    }
}

/// `fixed:` only on cases expecting a rejection: input fields of the query, one, changed in
/// one place (the fault the rejection names). Whether a case needs it, and that the input
/// so fixed is accepted, is checked against the reference ([`super::check`]).
fn check_fixed(
    case: &Case,
    text: &str,
    spec: &QuerySpec,
    push: &mut impl FnMut((usize, usize), String),
) {
    let rejects = case
        .expectations()
        .iter()
        .any(|(_, e)| matches!(e, Expected::Reject(_)));
    let Some(fixed) = &case.fixed else {
        return;
    };
    let at = locate_key(text, "fixed");
    if !rejects {
        push(at, "`fixed:` belongs to cases expecting a rejection".into());
        return;
    }
    if fixed.len() != 1 {
        push(
            at,
            format!(
                "`fixed:` gives one input field (the one holding the fault), not {}",
                fixed.len()
            ),
        );
    }
    for (k, v) in fixed {
        if !spec.required.contains(k) && !spec.optional.contains(k) {
            push(
                at,
                format!("`fixed.{k}` is not an input field of `{}`", case.query),
            );
            continue;
        }
        let before = case.input.get(k).unwrap_or(&serde_json::Value::Null);
        if let Err(m) = one_edit(k, before, v) {
            push(at, format!("`fixed.{k}` changes more than one thing: {m}"));
        }
    }
}

/// Whether `after` differs from `before` in one place: a scalar or string replaced (a FEN:
/// one field, and in the board at most two points: a piece removed, added, changed or
/// moved; or one rank added, removed or rewritten), one item of a list changed, added or
/// removed, one key of an object changed, added or removed. `Err` says where else.
pub(crate) fn one_edit(
    field: &str,
    before: &serde_json::Value,
    after: &serde_json::Value,
) -> Result<(), String> {
    use serde_json::Value;
    if before == after {
        return Err("it changes nothing".into());
    }
    match (before, after) {
        (Value::String(a), Value::String(b)) if field == "fen" => fen_one_edit(a, b),
        (Value::Array(a), Value::Array(b)) => {
            let diff = list_diff(a, b);
            match diff {
                Some((i, None)) => Err(format!("the lists differ from item {i} on")),
                Some((i, Some((x, y)))) => {
                    one_edit(field, x, y).map_err(|m| format!("item {i}: {m}"))
                }
                None => Ok(()),
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            let changed: Vec<&String> = a
                .keys()
                .chain(b.keys().filter(|k| !a.contains_key(*k)))
                .filter(|k| a.get(*k) != b.get(*k))
                .collect();
            match changed.as_slice() {
                [k] => match (a.get(*k), b.get(*k)) {
                    (Some(x), Some(y)) => one_edit(k, x, y).map_err(|m| format!("`{k}`: {m}")),
                    _ => Ok(()),
                },
                many => Err(format!(
                    "keys {} change",
                    many.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        _ => Ok(()),
    }
}

/// Two lists that differ by one item changed (`Some((i, Some((a, b))))`), added or removed
/// (`None`), or otherwise (`Some((i, None))`, where they start to differ).
#[allow(clippy::type_complexity)]
fn list_diff<'a>(
    a: &'a [serde_json::Value],
    b: &'a [serde_json::Value],
) -> Option<(
    usize,
    Option<(&'a serde_json::Value, &'a serde_json::Value)>,
)> {
    let first = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    if a.len() == b.len() {
        return if a[first + 1..] == b[first + 1..] {
            Some((first, Some((&a[first], &b[first]))))
        } else {
            Some((first, None))
        };
    }
    let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
    if long.len() == short.len() + 1 && long[first + 1..] == short[first..] {
        None
    } else {
        Some((first, None))
    }
}

/// [`one_edit`] for FENs.
fn fen_one_edit(a: &str, b: &str) -> Result<(), String> {
    let (fa, fb): (Vec<&str>, Vec<&str>) = (
        a.split_whitespace().collect(),
        b.split_whitespace().collect(),
    );
    let differing: Vec<usize> = (0..fa.len().max(fb.len()))
        .filter(|&i| fa.get(i) != fb.get(i))
        .collect();
    let trailing = fa.len() != fb.len() && differing.iter().all(|&i| i >= fa.len().min(fb.len()));
    match differing.as_slice() {
        [0] => board_one_edit(fa[0], fb[0]),
        [_] => Ok(()),
        // Fields added or removed at the end (the counters of a FEN that had none).
        _ if trailing => Ok(()),
        _ => Err(format!(
            "FEN fields {} differ",
            differing
                .iter()
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// [`one_edit`] for the board field of two FENs: at most two points differ, or one rank.
fn board_one_edit(a: &str, b: &str) -> Result<(), String> {
    let expand = |board: &str| -> Vec<String> {
        board
            .split('/')
            .map(|rank| {
                rank.chars()
                    .flat_map(|c| match c.to_digit(10) {
                        Some(n) => vec!['.'; n as usize],
                        None => vec![c],
                    })
                    .collect()
            })
            .collect()
    };
    let (ra, rb) = (expand(a), expand(b));
    let values = |v: &[String]| {
        v.iter()
            .map(|r| serde_json::Value::String(r.clone()))
            .collect::<Vec<_>>()
    };
    if ra.len() != rb.len() {
        return match list_diff(&values(&ra), &values(&rb)) {
            None => Ok(()),
            _ => Err("the boards differ in more than one rank".into()),
        };
    }
    let ranks: Vec<usize> = (0..ra.len()).filter(|&i| ra[i] != rb[i]).collect();
    let same_shape = ranks
        .iter()
        .all(|&i| ra[i].chars().count() == rb[i].chars().count());
    // One rank of another shape, or written in the other side's letters.
    let other_case = |i: usize| {
        ra[i]
            .chars()
            .zip(rb[i].chars())
            .all(|(x, y)| x.eq_ignore_ascii_case(&y))
    };
    if ranks.len() == 1 && (!same_shape || other_case(ranks[0])) {
        return Ok(());
    }
    let points: usize = ranks
        .iter()
        .map(|&i| {
            ra[i]
                .chars()
                .zip(rb[i].chars())
                .filter(|(x, y)| x != y)
                .count()
        })
        .sum();
    if same_shape && points <= 2 {
        Ok(())
    } else {
        Err(format!(
            "the boards differ on {points} points of {} ranks",
            ranks.len()
        ))
    }
}

/// The id: well formed, the file's name, not retired.
fn check_id(
    case: &Case,
    text: &str,
    retired: &BTreeSet<String>,
    push: &mut impl FnMut((usize, usize), String),
) {
    let file = case.path.as_str();
    let stem = file
        .rsplit('/')
        .next()
        .unwrap_or(file)
        .trim_end_matches(".yaml");
    if !is_case_id(&case.id) {
        push(
            locate_key(text, "id"),
            format!(
                "id `{}` is not lower-case letters, digits and single hyphens (at most 80)",
                case.id
            ),
        );
    }
    if stem != case.id {
        push(
            locate_key(text, "id"),
            format!("id `{}` differs from the file name `{stem}.yaml`", case.id),
        );
    }
    if retired.contains(&case.id) {
        push(
            locate_key(text, "id"),
            format!("id `{}` is retired and may not be reused", case.id),
        );
    }
}

/// The description: one line that states what happens.
fn check_description(case: &Case, text: &str, push: &mut impl FnMut((usize, usize), String)) {
    let d = case.description.trim();
    if d.is_empty() || case.description.contains('\n') || case.description.chars().count() > 100 {
        push(
            locate_key(text, "description"),
            "description is one non-empty line of at most 100 characters".into(),
        );
    }
    if d.split_whitespace()
        .any(|w| w.eq_ignore_ascii_case("should"))
    {
        push(
            locate_key(text, "description"),
            "description states what happens (no \"should\")".into(),
        );
    }
}

/// The editions, each known and once, and the clauses, each in every edition.
fn check_editions_and_clauses(
    case: &Case,
    text: &str,
    facts: &SpecFacts,
    push: &mut impl FnMut((usize, usize), String),
) {
    if case.editions.is_empty() {
        push(
            locate_key(text, "editions"),
            "editions is a non-empty list".into(),
        );
    }
    let mut seen = BTreeSet::new();
    for e in &case.editions {
        if !seen.insert(e) {
            push(
                locate_in(text, "editions", e),
                format!("edition `{e}` is listed twice"),
            );
        }
        if !facts.editions.contains_key(e) {
            let known: Vec<&str> = facts.editions.keys().map(String::as_str).collect();
            push(
                locate_in(text, "editions", e),
                format!("unknown edition `{e}` (known: {})", known.join(", ")),
            );
        }
    }
    if case.clauses.is_empty() {
        push(
            locate_key(text, "clauses"),
            "clauses is a non-empty list".into(),
        );
    }
    for c in &case.clauses {
        let missing: Vec<&str> = case
            .editions
            .iter()
            .filter(|e| facts.editions.get(*e).is_some_and(|ids| !ids.contains(c)))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            push(
                locate_in(text, "clauses", c),
                format!("clause `{c}` does not exist in {}", missing.join(", ")),
            );
        }
    }
}

/// The overlay: one the spec ships, for the case's one edition.
fn check_overlay(
    case: &Case,
    text: &str,
    facts: &SpecFacts,
    push: &mut impl FnMut((usize, usize), String),
) {
    if let Some(o) = &case.overlay {
        match facts.overlays.get(o) {
            None => push(
                locate_key(text, "overlay"),
                format!(
                    "unknown overlay `{o}` (spec/overlays/ ships {})",
                    facts
                        .overlays
                        .keys()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            Some(ed) if case.editions.len() != 1 || &case.editions[0] != ed => push(
                locate_key(text, "editions"),
                format!("overlay `{o}` applies to {ed}: the case's editions are exactly [{ed}]"),
            ),
            Some(_) => {}
        }
    }
}

/// The features, each in features.yaml.
fn check_features(
    case: &Case,
    text: &str,
    vocab: &Vocabulary,
    push: &mut impl FnMut((usize, usize), String),
) {
    for f in &case.features {
        if !vocab.features.contains_key(f) {
            push(
                locate_in(text, "features", f),
                format!("unknown feature `{f}` (see features.yaml)"),
            );
        }
    }
}

/// The query, known, and its input fields and values; the query's spec when it is known.
fn check_query_and_input<'v>(
    case: &Case,
    text: &str,
    vocab: &'v Vocabulary,
    push: &mut impl FnMut((usize, usize), String),
) -> Option<&'v QuerySpec> {
    let Some(spec) = vocab.queries.get(&case.query) else {
        let why = if vocab.reserved_queries.contains(&case.query) {
            "reserved for a later version"
        } else {
            "unknown"
        };
        push(
            locate_key(text, "query"),
            format!("query `{}` is {why}", case.query),
        );
        return None;
    };
    for k in &spec.required {
        if !case.input.contains_key(k) {
            push(
                locate_key(text, "input"),
                format!("input lacks `{k}`, which `{}` requires", case.query),
            );
        }
    }
    for k in case.input.keys() {
        if !spec.required.contains(k) && !spec.optional.contains(k) {
            push(
                locate_in(text, "input", k),
                format!("input field `{k}` is not one `{}` takes", case.query),
            );
        }
    }
    match Query::from_parts(&case.query, &case.input) {
        Err(m) => push(locate_key(text, "input"), m),
        Ok(q) => {
            let malformed_on_purpose = case
                .expectations()
                .iter()
                .any(|(_, e)| matches!(e, Expected::Reject(k) if k == "move.syntax"));
            check_query_values(&q, vocab, text, !malformed_on_purpose, push)
        }
    }
    Some(spec)
}

/// The expectations: for exactly the case's editions, known reject kinds, answers of the query's field and value.
fn check_expectations(
    case: &Case,
    text: &str,
    vocab: &Vocabulary,
    spec: &QuerySpec,
    push: &mut impl FnMut((usize, usize), String),
) {
    if let super::case::Expect::ByEdition(map) = &case.expect {
        let keys: BTreeSet<&String> = map.keys().collect();
        let eds: BTreeSet<&String> = case.editions.iter().collect();
        if keys != eds {
            push(
                locate_key(text, "expect_by_edition"),
                "expect_by_edition names exactly the case's editions".into(),
            );
        }
    }
    let statuses: Vec<&str> = vocab.statuses.keys().map(String::as_str).collect();
    let key = if matches!(case.expect, super::case::Expect::Same(_)) {
        "expect"
    } else {
        "expect_by_edition"
    };
    let mut all: Vec<&Expected> = match &case.expect {
        super::case::Expect::Same(e) => vec![e],
        super::case::Expect::ByEdition(m) => m.values().collect(),
    };
    all.dedup();
    for e in all {
        match e {
            Expected::Reject(kind) => {
                if !vocab.reject_kinds.contains_key(kind) {
                    push(
                        locate_in(text, key, kind),
                        format!("unknown reject kind `{kind}` (see vocabulary.yaml)"),
                    );
                }
            }
            Expected::Answer(_) | Expected::OneOf(_) => {
                for m in e.answers() {
                    check_answer(case, text, key, &statuses, spec, m, push);
                }
            }
        }
    }
}

/// One expected answer: the query's field, a well-formed value, `slow` on a big perft.
fn check_answer(
    case: &Case,
    text: &str,
    key: &str,
    statuses: &[&str],
    spec: &QuerySpec,
    m: &serde_json::Map<String, serde_json::Value>,
    push: &mut impl FnMut((usize, usize), String),
) {
    let (field, v) = m.iter().next().expect("an expected answer has one field");
    if field != &spec.answer {
        push(
            locate_in(text, key, field),
            format!(
                "`{}` answers with `{}`, not `{field}`",
                case.query, spec.answer
            ),
        );
    } else if let Err(msg) = check_answer_value(field, v, statuses, true) {
        push(locate_in(text, key, field), msg);
    } else if field == "nodes"
        && v.as_u64().is_some_and(|n| n > SLOW_NODES)
        && !case.features.iter().any(|f| f == "slow")
    {
        push(
            locate_in(text, key, field),
            format!("a perft of more than {SLOW_NODES} nodes carries the feature `slow`"),
        );
    }
}

fn check_query_values(
    q: &Query,
    vocab: &Vocabulary,
    text: &str,
    check_moves: bool,
    push: &mut impl FnMut((usize, usize), String),
) {
    let (moves, notation, mv) = match q {
        Query::LegalMoves { moves, .. }
        | Query::Status { moves, .. }
        | Query::Perft { moves, .. } => (moves, None, None),
        Query::ParseMove {
            moves, notation, ..
        } => (moves, Some(notation), None),
        Query::FormatMove {
            moves,
            notation,
            mv,
            ..
        } => (moves, Some(notation), Some(mv)),
        Query::TouchMove(t) => (&t.moves, None, None),
        Query::GameStatus(s) => (&s.moves, None, None),
        Query::ValidateFen { .. }
        | Query::Outcome(_)
        | Query::Clock(_)
        | Query::Playoff(_)
        | Query::Standings(_)
        | Query::Ruling(_)
        | Query::Other { .. } => return,
    };
    for m in moves.iter().filter(|_| check_moves) {
        if !Move::is_iccs(m) {
            push(
                locate_in(text, "input", m),
                format!("`{m}` in `moves` is not an ICCS move like `h2e2`"),
            );
        }
    }
    if let Some(n) = notation {
        if !vocab.notations.contains_key(n) {
            push(
                locate_in(text, "input", n),
                format!("unknown notation `{n}` (see vocabulary.yaml)"),
            );
        }
    }
    // A malformed `move` (format_move) is legitimate input for a reject case: not checked here.
    let _ = mv;
}

#[cfg(test)]
mod tests {
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
}
