//! Reports people read, generated from the spec and the conformance suite
//! (`xqspec report`, `xqspec diff`), checked in under `reports/` and kept current by CI:
//!
//! - [`diff`]: how two rule sets differ, clause by clause (grouped by article) and in
//!   behaviour (the conformance cases whose expected answer differs), with the provenance
//!   of every difference and board diagrams of the positions;
//! - [`articles`]: every article of each edition's table of contents with the clauses
//!   that encode it, or why none does;
//! - [`readings`]: every reading of the 棋例 clauses, text or inferred, switched off alone
//!   over the ruling cases;
//! - [`qili`]: every condition of the 棋例 texts with the cases where it holds and where it
//!   just fails;
//! - [`sources`]: every source of `spec/sources.yaml`, which every source label links to;
//! - `coverage.md`, from [`crate::conform::coverage`]: which cases cite each clause;
//! - `README.md`: what each report is for, with its headline figures.
//!
//! Which diffs are generated is the list `DIFFS`; a pair whose rule set the spec does
//! not have (yet) is skipped and named in the README.
//!
//! `generate` makes every report as files under `reports/`, `write` writes them and `check`
//! (`xqspec report --check`, run by CI) finds stale, missing and no-longer-generated files,
//! uncovered clauses, needless exemptions, and an `implementations.md` measured on another
//! suite than the checkout's ([`MeasuredOn`]: version, case files, runs). The commands
//! `xqspec report` and `xqspec diff` are `src/cli/report.rs`. Depends on `spec`, `ruleset`,
//! `conform` (suite, coverage, judge), `reference` (answers under a rule set), `query` and
//! `diagram`; nothing depends on it but the command line (`conform` does not).

pub mod articles;
pub mod diff;
pub mod qili;
pub mod readings;
pub mod sources;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::conform::coverage::Coverage;
use crate::conform::suite::{SpecFacts, Suite};
use crate::spec::Spec;

/// The rule-set pairs whose differences are checked in as `reports/diff-A-B.md`, older
/// first. Extend this list to add a report; a pair naming a rule set the spec lacks is
/// skipped (and listed as such in `reports/README.md`).
pub(crate) const DIFFS: &[(&str, &str)] = &[
    ("cxa-2011", "cxa-2020"),
    ("cxa-1999", "cxa-2011"),
    ("cxa-1999", "cxa-2020"),
    ("cxa-2020", "axf"),
    ("cxa-2011", "cxa-2011+provincial-2012-open"),
    ("cxa-2011", "cxa-2011+city-championship-2014"),
    ("cxa-2020", "cxa-2020+county-event-2021"),
];

/// Where generated reports live, relative to the repository root.
pub const DIR: &str = "reports";

/// The file name of the diff of `a` and `b` (`diff-cxa-2011-cxa-2020.md`).
pub(crate) fn diff_file(a: &str, b: &str) -> String {
    format!("diff-{a}-{b}.md")
}

/// Everything `xqspec report` writes.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    /// Every file, by path under `reports/` (diagrams under `diagrams/`).
    pub files: BTreeMap<String, String>,
    /// Diffs of `DIFFS` not generated, with the reason.
    pub skipped: Vec<(String, String)>,
    /// `edition clause` of every clause neither cited by a case nor exempt.
    pub uncovered: Vec<String>,
    /// Exemptions of clauses a case cites after all.
    pub needless_exemptions: Vec<String>,
    /// The suite as `implementations.md` must say it was measured on.
    pub suite: MeasuredOn,
}

/// What `reports/implementations.md` (written by `conformance/adapters/measure.py`, by hand,
/// on a machine that has the programs) records of the suite it measured, in the line
/// [`MeasuredOn::line`]; `report --check` fails when the suite is no longer that.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MeasuredOn {
    /// `SUITE_VERSION`.
    pub version: String,
    /// Case files.
    pub case_files: usize,
    /// Runs: each case once per rule set it runs under, or once for all where its answer is
    /// the same under each (`runs: once`).
    pub runs: usize,
}

/// The implementations report, under `reports/`.
pub const IMPLEMENTATIONS: &str = "implementations.md";

impl MeasuredOn {
    /// The suite of this checkout.
    pub fn of(suite: &Suite) -> Result<MeasuredOn, String> {
        Ok(MeasuredOn {
            version: crate::conform::suite::SUITE_VERSION.to_string(),
            case_files: suite.cases.len(),
            // One run per case and rule set, one per case that runs once: as many whichever
            // rule sets an implementation declares.
            runs: crate::conform::runner::plan(suite, &Default::default(), &Default::default())?
                .len(),
        })
    }

    /// The line of the report that records it.
    pub fn line(&self) -> String {
        format!(
            "Measured on suite {}, {} case files, {} runs (a case once per rule set it runs under, or once for all where its answer is the same under each).",
            self.version, self.case_files, self.runs
        )
    }

    /// Why the implementations report `text` was not measured on this suite, if it was not.
    pub fn stale(&self, text: &str) -> Option<String> {
        let rerun = "rerun `python3 conformance/adapters/measure.py` (or `--from-raw DIR` after rerunning the programs whose cases changed)";
        match text.lines().find(|l| l.starts_with("Measured on suite ")) {
            None => Some(format!("records no `Measured on suite …` line: {rerun}")),
            Some(l) if l == self.line() => None,
            Some(l) => Some(format!(
                "says `{l}`, but the suite is now: {}; {rerun}",
                self.line()
            )),
        }
    }
}

/// A report's line in the README: file, what it is for, its figures.
struct IndexLine {
    file: String,
    purpose: String,
    figures: String,
}

/// Generates every report from `spec` and `suite`.
pub fn generate(spec: &Spec, suite: &Suite) -> Result<Generated, String> {
    let mut g = Generated {
        suite: MeasuredOn::of(suite)?,
        ..Generated::default()
    };
    let mut index = Vec::new();

    let facts = SpecFacts::from_spec(spec);
    let coverage = Coverage::compute(suite, &facts);
    g.uncovered = coverage.uncovered();
    g.needless_exemptions = coverage.needless_exemptions(suite);
    let clauses: usize = coverage.editions.values().map(|m| m.len()).sum();
    let figures = format!(
        "{clauses} clauses in {} editions; {} uncovered",
        coverage.editions.len(),
        g.uncovered.len()
    );
    add(
        &mut g,
        &mut index,
        "coverage.md",
        "For suite authors: which conformance cases cite each clause of each edition, and which clauses are exempt (with the reason).",
        (coverage.markdown(), figures),
    );

    let arts = articles::report(spec);
    add(
        &mut g,
        &mut index,
        "articles.md",
        "For arbiters and maintainers: every article of each edition's table of contents, with the clauses that encode it, or why none does (not decidable by a program, or text not available).",
        (arts.markdown, arts.summary.join("; ")),
    );

    let ev = readings::evidence(spec, suite)?;
    add(
        &mut g,
        &mut index,
        "readings.md",
        "For arbiters and maintainers: how much of each rule set's 棋例 is the text and how much our reading of diagrams; every reading switched off alone, with the diagrams and cases it changes.",
        readings::report(&ev, spec),
    );

    add(
        &mut g,
        &mut index,
        "qili-conditions.md",
        "For arbiters, suite authors and maintainers: every sentence of the 棋例 texts split into its conditions, each with its sentence, the cases where it holds and where it just fails, and whether the reference passes them; a condition without cases of both signs is a gap.",
        qili::report(suite),
    );

    add(
        &mut g,
        &mut index,
        "sources.md",
        "For every reader: what each source label of the other reports is (title, edition, author or publisher, how it was read, what it covers) and how far to trust it.",
        sources::report(spec),
    );

    for (a, b) in DIFFS {
        let file = diff_file(a, b);
        let missing: Vec<&str> = [*a, *b]
            .into_iter()
            .filter(|id| spec.ruleset(id).is_err())
            .collect();
        if !missing.is_empty() {
            g.skipped.push((
                file,
                format!("rule set `{}` is not in the spec", missing.join("`, `")),
            ));
            continue;
        }
        let d = diff::diff(spec, suite, a, b)?;
        for (name, svg) in d.diagrams {
            g.files.entry(format!("diagrams/{name}")).or_insert(svg);
        }
        add(
            &mut g,
            &mut index,
            &file,
            &diff::purpose(a, b),
            (d.markdown, d.figures),
        );
    }
    index.push(IndexLine {
        file: IMPLEMENTATIONS.into(),
        purpose: "For implementers and users choosing a program: every third-party xiangqi program we could install, run over the suite, with a scoreboard by area and each failure with a smallest case to report upstream. Measured by hand (`python3 conformance/adapters/measure.py`), not by CI; `report --check` fails when it was measured on another suite.".into(),
        figures: g.suite.line().trim_end_matches('.').replace("Measured on suite", "suite"),
    });
    g.files
        .insert("README.md".into(), readme(&index, &g.skipped));
    Ok(g)
}

/// Adds the report `file` and its line in the README's index: what it is for, its figures.
fn add(
    g: &mut Generated,
    index: &mut Vec<IndexLine>,
    file: &str,
    purpose: &str,
    (markdown, figures): (String, String),
) {
    g.files.insert(file.to_string(), markdown);
    index.push(IndexLine {
        file: file.to_string(),
        purpose: purpose.to_string(),
        figures,
    });
}

fn readme(index: &[IndexLine], skipped: &[(String, String)]) -> String {
    let mut out = String::from(
        "# Reports\n\n\
         Generated by `xqspec report --write` from `spec/` and `conformance/`; do not edit. CI runs \
         `xqspec report --check`, which fails when any file here is stale, when a clause is neither cited \
         by a case nor exempt, or when an exemption is needless. Diagrams of the positions the diff reports \
         show are in `diagrams/`; `xqspec-manifest` lists the files the command wrote here, the only ones \
         it overwrites or removes.\n\n\
         | report | what it is for | figures |\n|---|---|---|\n",
    );
    for l in index {
        let _ = writeln!(
            out,
            "| [{0}]({0}) | {1} | {2} |",
            l.file,
            crate::markdown::cell(&l.purpose),
            crate::markdown::cell(&l.figures)
        );
    }
    out.push_str(
        "\nAny two rule sets can be compared on demand: `xqspec diff A B [--write FILE]`, where a rule set is an \
         edition (`cxa-2020`), another rule set of the spec (`axf`), or an edition with a shipped overlay \
         (`cxa-2011+provincial-2012-open`). The diffs checked in here are the list `DIFFS` in `src/report/mod.rs`.\n",
    );
    if !skipped.is_empty() {
        out.push_str("\nNot generated (the list names them, the spec does not have them yet):\n\n");
        for (file, why) in skipped {
            let _ = writeln!(out, "- `{file}`: {why}.");
        }
    }
    out
}

/// The command that writes the reports, as their folder's manifest names it.
pub const WRITER: &str = "xqspec report --write";

/// Writes every generated file under `root` that changed, and removes the files this
/// command wrote there before and no longer generates (the folder's manifest,
/// [`crate::output::MANIFEST`], lists them): a folder holding files it did not write is
/// refused unless `force` (they are kept then). Every refusal comes before anything is
/// written. `outputs` holds the files the command read (no report is written over one).
/// Returns a line for every file written or removed.
pub fn write(
    root: &Path,
    g: &Generated,
    outputs: &mut crate::output::Outputs,
    force: bool,
) -> Result<Vec<String>, String> {
    let plan = crate::output::OwnedDir::plan(outputs, root, &g.files, WRITER, force)
        .map_err(|e| crate::output::said(&e))?;
    plan.apply().map_err(|e| e.to_string())
}

/// Every problem that makes `report --check` fail: stale or missing files, extra
/// diagrams, uncovered clauses, needless exemptions.
pub fn check(root: &Path, g: &Generated) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in &g.files {
        let p = root.join(path);
        match std::fs::read_to_string(&p) {
            Ok(old) if &old == text => {}
            Ok(_) => out.push(format!(
                "{} is stale: run `xqspec report --write`",
                p.display()
            )),
            Err(_) => out.push(format!(
                "{} is missing: run `xqspec report --write`",
                p.display()
            )),
        }
    }
    match crate::output::Manifest::of(root) {
        Err(e) => out.push(e.to_string()),
        Ok(None) => out.push(format!(
            "{} is missing: run `xqspec report --write`",
            root.join(crate::output::MANIFEST).display()
        )),
        Ok(Some(m)) => {
            for extra in m.wrote.iter().filter(|f| !g.files.contains_key(*f)) {
                let p = root.join(extra);
                if p.exists() {
                    out.push(format!(
                        "{} is no longer generated: run `xqspec report --write` (it removes it)",
                        p.display()
                    ));
                } else {
                    out.push(format!(
                        "{} lists {extra}, no longer generated: run `xqspec report --write`",
                        root.join(crate::output::MANIFEST).display()
                    ));
                }
            }
            for f in g.files.keys().filter(|f| !m.wrote.contains(*f)) {
                out.push(format!(
                    "{} does not list {f}: run `xqspec report --write`",
                    root.join(crate::output::MANIFEST).display()
                ));
            }
        }
    }
    for u in &g.uncovered {
        out.push(format!(
            "clause {u} is neither cited by a case nor exempt (conformance/exemptions.yaml)"
        ));
    }
    for n in &g.needless_exemptions {
        out.push(format!(
            "clause {n} is exempt but a case cites it: remove the exemption"
        ));
    }
    let p = root.join(IMPLEMENTATIONS);
    match std::fs::read_to_string(&p) {
        Ok(text) => out.extend(
            g.suite
                .stale(&text)
                .map(|why| format!("{} {why}", p.display())),
        ),
        Err(e) => out.push(format!("{}: {e}", p.display())),
    }
    out
}

/// Compact YAML for reports: scalar lists inline (`[0, 1]`), everything else in block style.
pub(crate) fn yaml(v: &serde_yaml::Value) -> String {
    let mut out = String::new();
    render(v, 0, &mut out);
    out
}

/// A scalar (or a list of scalars) as one line of YAML, or `None` for a mapping or a
/// list holding mappings.
pub(crate) fn scalar(v: &serde_yaml::Value) -> Option<String> {
    use serde_yaml::Value::*;
    match v {
        Null => Some("null".into()),
        Bool(b) => Some(b.to_string()),
        Number(n) => Some(n.to_string()),
        String(s) => Some(
            serde_yaml::to_string(s)
                .unwrap_or_default()
                .trim_end()
                .to_string(),
        ),
        Sequence(items)
            if items
                .iter()
                .all(|i| scalar(i).is_some() && !i.is_sequence()) =>
        {
            Some(format!(
                "[{}]",
                items
                    .iter()
                    .filter_map(scalar)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        Tagged(t) => scalar(&t.value),
        _ => None,
    }
}

fn render(v: &serde_yaml::Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        serde_yaml::Value::Mapping(m) => {
            for (k, val) in m {
                let key = scalar(k).unwrap_or_default();
                match scalar(val) {
                    Some(s) => writeln!(out, "{pad}{key}: {s}").ok(),
                    None => {
                        writeln!(out, "{pad}{key}:").ok();
                        render(val, indent + 2, out);
                        None
                    }
                };
            }
        }
        serde_yaml::Value::Sequence(items) => {
            for item in items {
                match scalar(item) {
                    Some(s) => writeln!(out, "{pad}- {s}").ok(),
                    None => {
                        let mut inner = String::new();
                        render(item, indent + 2, &mut inner);
                        let inner = inner.trim_start();
                        write!(out, "{pad}- {inner}").ok()
                    }
                };
            }
        }
        other => {
            writeln!(out, "{pad}{}", scalar(other).unwrap_or_default()).ok();
        }
    }
}

/// The leaves of a clause's data, by path (`orders.default`, `kinds[2].fen`): scalars,
/// and lists of scalars as one leaf. A mapping or list with no leaves is one leaf (`{}`).
pub(crate) fn leaves(v: &serde_yaml::Value) -> BTreeMap<String, String> {
    fn walk(v: &serde_yaml::Value, path: String, out: &mut BTreeMap<String, String>) {
        if let Some(s) = scalar(v) {
            out.insert(path, s);
            return;
        }
        match v {
            serde_yaml::Value::Mapping(m) if !m.is_empty() => {
                for (k, val) in m {
                    let key = scalar(k).unwrap_or_default();
                    walk(
                        val,
                        if path.is_empty() {
                            key
                        } else {
                            format!("{path}.{key}")
                        },
                        out,
                    );
                }
            }
            serde_yaml::Value::Sequence(items) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{path}[{i}]"), out);
                }
            }
            _ => {
                out.insert(path, "{}".into());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(v, String::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::switch_tests::y;

    #[test]
    fn leaves_flatten_mappings_and_lists_of_mappings() {
        let l = leaves(&y("{a: 1, b: [x, y], c: [{d: 2}, {e: {f: null}}], g: {}}"));
        let got: Vec<(&str, &str)> = l.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            got,
            [
                ("a", "1"),
                ("b", "[x, y]"),
                ("c[0].d", "2"),
                ("c[1].e.f", "null"),
                ("g", "{}")
            ]
        );
    }

    #[test]
    fn every_listed_diff_pair_names_two_rule_sets() {
        for (a, b) in DIFFS {
            assert_ne!(a, b);
            assert!(diff_file(a, b).starts_with("diff-") && diff_file(a, b).ends_with(".md"));
        }
    }
}
