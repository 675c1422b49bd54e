//! Clause coverage: which cases cite each clause of each edition, which
//! clauses are exempt, and the generated `reports/coverage.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::case::{Basis, Origin, Runs};
use super::suite::{SpecFacts, Suite};

/// How one clause of one edition is covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cover {
    /// Ids of the cases citing the clause and applying to the edition.
    Cases(Vec<String>),
    /// Not cited, but exempt for this reason.
    Exempt(String),
    /// Neither cited by a case nor exempt.
    Uncovered,
}

/// Edition → clause → cover.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Edition → clause id → how the clause is covered.
    pub(crate) editions: BTreeMap<String, BTreeMap<String, Cover>>,
    /// Area → origin (`sourced`, `derived`, `authored`, or `none`) → what the cases of that
    /// origin hold and how the reference fares on them.
    pub(crate) origins: BTreeMap<String, BTreeMap<&'static str, OriginCount>>,
    /// Area → basis (`rule`, `convention`, `optional`, or `none`) → the same counts.
    pub(crate) bases: BTreeMap<String, BTreeMap<&'static str, OriginCount>>,
}

/// Cases of one area and origin (or basis), their runs (a case once per rule set it runs
/// under, or once for all when its answer is the same under all of them, `runs: once`), and
/// the runs the reference passes: every run but its listed known failures (`xqspec conform`
/// fails when that list is not exactly true).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OriginCount {
    pub(crate) cases: usize,
    pub(crate) runs: usize,
    pub(crate) reference_passes: usize,
}

impl OriginCount {
    fn add(&mut self, o: OriginCount) {
        self.cases += o.cases;
        self.runs += o.runs;
        self.reference_passes += o.reference_passes;
    }
}

impl Coverage {
    /// The coverage of every edition's clauses by the cases of `suite`.
    pub fn compute(suite: &Suite, facts: &SpecFacts) -> Coverage {
        let mut editions = BTreeMap::new();
        for (edition, clauses) in &facts.editions {
            let mut map = BTreeMap::new();
            for clause in clauses {
                let cases: Vec<String> = suite
                    .cases
                    .iter()
                    .filter(|c| c.editions.contains(edition) && c.clauses.contains(clause))
                    .map(|c| c.id.clone())
                    .collect();
                let cover = if !cases.is_empty() {
                    Cover::Cases(cases)
                } else if let Some(x) = suite.exemptions.iter().find(|x| {
                    &x.clause == clause && (x.editions.is_empty() || x.editions.contains(edition))
                }) {
                    Cover::Exempt(x.reason.clone())
                } else {
                    Cover::Uncovered
                };
                map.insert(clause.clone(), cover);
            }
            editions.insert(edition.clone(), map);
        }
        let known = suite.reference_known_failures().unwrap_or_default();
        let mut origins: BTreeMap<String, BTreeMap<&'static str, OriginCount>> = BTreeMap::new();
        let mut bases: BTreeMap<String, BTreeMap<&'static str, OriginCount>> = BTreeMap::new();
        for c in &suite.cases {
            let editions = c.expectations().len();
            let failing = c
                .editions
                .iter()
                .filter(|e| known.entry_of(c, e).is_some())
                .count();
            let n = match c.runs {
                Runs::Once => OriginCount {
                    cases: 1,
                    runs: 1,
                    reference_passes: usize::from(failing == 0),
                },
                Runs::PerRuleSet => OriginCount {
                    cases: 1,
                    runs: editions,
                    reference_passes: editions.saturating_sub(failing),
                },
            };
            for (map, name) in [
                (&mut origins, c.origin.map_or("none", Origin::name)),
                (&mut bases, c.basis.map_or("none", Basis::name)),
            ] {
                map.entry(c.area().to_string())
                    .or_default()
                    .entry(name)
                    .or_default()
                    .add(n);
            }
        }
        Coverage {
            editions,
            origins,
            bases,
        }
    }

    /// The table of where the answers come from: per area and origin, cases, runs and the
    /// reference's pass rate, with a total per origin.
    fn origin_table(&self, out: &mut String) {
        out.push_str("\n## Where the answers come from\n\n");
        out.push_str(
            "Each case says where its expected answer comes from (`origin:`): **sourced** (a\n",
        );
        out.push_str("published ruling, figure, count or text, or an independent program's answer, named in\n");
        out.push_str("`source:`), **derived** (a transformation of a sourced case, named in `from:`: a mirror,\n");
        out.push_str("another edition by a cited clause), or **authored** (constructed here; the note names\n");
        out.push_str("the article and the reasoning). A run is a case under one rule set, or once for all of\n");
        out.push_str(
            "them where its answer is the same under each (`runs: once`); the reference passes\n",
        );
        out.push_str("every run except its known failures (`conformance/reference-known-failures.yaml`).\n\n");
        Self::count_table(out, "origin", &self.origins);
        out.push_str("\n## What the answers rest on\n\n");
        out.push_str("Each case says what its expected answer rests on (`basis:`): a **rule** (an article of\n");
        out.push_str("the rule set decides it; its clauses give the article), a **convention** (the suite's\n");
        out.push_str("choice where the rules say nothing or practice varies: FEN syntax, the text a notation\n");
        out.push_str("writes, tandem forms, the form of an input), or an **optional** feature (one a program\n");
        out.push_str("may leave out: `optional: true` in `conformance/features.yaml`). `scripts/basis.py` sets\n");
        out.push_str("it by the rules its docstring states.\n\n");
        Self::count_table(out, "basis", &self.bases);
    }

    /// Per area and key (an origin, a basis): cases, runs and the reference's pass rate, with
    /// a total per key.
    fn count_table(
        out: &mut String,
        what: &str,
        counts: &BTreeMap<String, BTreeMap<&'static str, OriginCount>>,
    ) {
        let _ = writeln!(
            out,
            "| area | {what} | cases | runs | reference passes | pass rate |\n|---|---|---:|---:|---:|---:|"
        );
        let mut totals: BTreeMap<&'static str, OriginCount> = BTreeMap::new();
        let row = |out: &mut String, area: &str, o: &str, n: &OriginCount| {
            let rate = if n.runs == 0 {
                100.0
            } else {
                100.0 * n.reference_passes as f64 / n.runs as f64
            };
            let _ = writeln!(
                out,
                "| {area} | {o} | {} | {} | {} | {rate:.1} % |",
                n.cases, n.runs, n.reference_passes
            );
        };
        for (area, m) in counts {
            for (o, n) in m {
                row(out, area, o, n);
                totals.entry(o).or_default().add(*n);
            }
        }
        for (o, n) in &totals {
            row(out, "**all**", o, n);
        }
    }

    /// `edition clause` of every uncovered, non-exempt clause.
    pub fn uncovered(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (e, m) in &self.editions {
            for (c, cover) in m {
                if *cover == Cover::Uncovered {
                    out.push(format!("{e} {c}"));
                }
            }
        }
        out
    }

    /// Exemptions of clauses that a case cites after all (`edition clause`):
    /// the exemption is stale and must go.
    pub fn needless_exemptions(&self, suite: &Suite) -> Vec<String> {
        let mut out = Vec::new();
        for x in &suite.exemptions {
            for (e, m) in &self.editions {
                let applies = x.editions.is_empty() || x.editions.contains(e);
                if applies && matches!(m.get(&x.clause), Some(Cover::Cases(_))) {
                    out.push(format!("{e} {}", x.clause));
                }
            }
        }
        out
    }

    /// The text of `reports/coverage.md`.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str("# Clause coverage of the conformance suite\n\n");
        out.push_str("Generated by `xqspec report --write` (or `xqspec cases coverage --write`) from `conformance/` and `spec/`; do not edit.\n");
        out.push_str(
            "CI runs `xqspec report --check`, which fails when this file is stale or a clause\n",
        );
        out.push_str("is neither cited by a case nor exempt in `conformance/exemptions.yaml`.\n\n");
        out.push_str(
            "| edition | clauses | covered | exempt | uncovered |\n|---|---:|---:|---:|---:|\n",
        );
        for (e, m) in &self.editions {
            let n = |f: fn(&Cover) -> bool| m.values().filter(|c| f(c)).count();
            let _ = writeln!(
                out,
                "| {e} | {} | {} | {} | {} |",
                m.len(),
                n(|c| matches!(c, Cover::Cases(_))),
                n(|c| matches!(c, Cover::Exempt(_))),
                n(|c| matches!(c, Cover::Uncovered))
            );
        }
        self.origin_table(&mut out);
        for (e, m) in &self.editions {
            let _ = writeln!(
                out,
                "\n## {e}\n\n| clause | cases | cited by |\n|---|---:|---|"
            );
            for (c, cover) in m {
                let (count, text) = match cover {
                    Cover::Cases(ids) => (
                        ids.len().to_string(),
                        ids.iter()
                            .map(|i| format!("`{i}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                    Cover::Exempt(reason) => (
                        "–".into(),
                        format!("exempt: {}", reason.replace('|', "\\|")),
                    ),
                    Cover::Uncovered => ("0".into(), "**uncovered**".into()),
                };
                let _ = writeln!(out, "| `{c}` | {count} | {text} |");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::suite::Exemption;

    #[test]
    fn clauses_are_covered_exempt_or_uncovered() {
        let mut facts = SpecFacts::default();
        facts.editions.insert(
            "e1".into(),
            ["a.x", "a.y", "a.z"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        );
        let case = "id: c1\ndescription: d\nclauses: [a.x]\neditions: [e1]\nquery: perft\ninput: {fen: f, depth: 1}\nexpect: {nodes: 1}\n";
        let mut suite = Suite::from_files(vec![("p/c1.yaml".into(), case.into())]);
        suite.exemptions = vec![
            Exemption {
                clause: "a.y".into(),
                editions: vec![],
                reason: "no program decides it".into(),
            },
            Exemption {
                clause: "a.x".into(),
                editions: vec![],
                reason: "stale".into(),
            },
        ];
        let cov = Coverage::compute(&suite, &facts);
        let m = &cov.editions["e1"];
        assert_eq!(m["a.x"], Cover::Cases(vec!["c1".into()]));
        assert_eq!(m["a.y"], Cover::Exempt("no program decides it".into()));
        assert_eq!(m["a.z"], Cover::Uncovered);
        assert_eq!(cov.uncovered(), vec!["e1 a.z"]);
        assert_eq!(cov.needless_exemptions(&suite), vec!["e1 a.x"]);
        let md = cov.markdown();
        assert!(md.contains("| e1 | 3 | 1 | 1 | 1 |"), "{md}");
        assert!(
            md.contains("| `a.x` | 1 | `c1` |") && md.contains("| `a.z` | 0 | **uncovered** |"),
            "{md}"
        );
    }
}
