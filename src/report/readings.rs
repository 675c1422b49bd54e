//! `reports/readings.md`: how much of each rule set's 棋例 is the text and how much our
//! reading of diagrams. For every reading (a switch of a `repetition.*` clause that is on,
//! [`crate::repetition::readings`]), the ruling cases whose verdict or any move class
//! changes when that reading alone is switched off: the 2020 book's diagrams (chapter 8's 图
//! and chapter 9's 参考图, the two halves a reading is found on and measured against), the
//! AXF diagrams and tests, and the rest of the suite. The report names the inferred readings
//! that at most one diagram depends on. The same [`evidence`] backs the test of issue 33's
//! bounds and of every ruling's `rests_on`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::conform::case::Case;
use crate::conform::suite::Suite;
use crate::repetition::readings::{without, ReadingRule};
use crate::repetition::{rule, RepetitionRules, Ruling, RulingQuery};
use crate::ruleset::RuleSet;
use crate::spec::{ReadingBasis, Spec};

/// Which group of cases a ruling case belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// The 2020 book's chapter 8 diagrams (图).
    Ch8,
    /// The 2020 book's chapter 9 reference diagrams (参考图).
    Ch9,
    /// The AXF diagrams and the AXF tests of Fairy-Stockfish.
    Axf,
    /// Every other ruling case of the suite.
    Suite,
}

impl Group {
    /// The group of a case, by its id.
    pub fn of(id: &str) -> Group {
        if id.starts_with("cxa2020-ch8-") {
            Group::Ch8
        } else if id.starts_with("cxa2020-ch9-") {
            Group::Ch9
        } else if id.starts_with("axf-") {
            Group::Axf
        } else {
            Group::Suite
        }
    }

    /// Whether the case is a diagram: the 2020 book's, or an AXF case (the AXF book's
    /// diagrams and the tests Fairy-Stockfish models on them).
    pub fn is_diagram(id: &str) -> bool {
        Group::of(id) != Group::Suite
    }
}

/// A case whose ruling changes when a reading is switched off.
#[derive(Clone, Debug)]
pub struct Change {
    /// The case's id.
    pub case: String,
    /// The verdict with the reading and without it, when it changes.
    pub verdict: Option<(String, String)>,
    /// Plies (1-based, of the judged cycle) whose class changes: with, without.
    pub classes: Vec<(usize, String, String)>,
    /// Whether the verdict with the reading, and without it, is the case's expected one.
    pub right: (bool, bool),
}

/// One reading of one rule set, with what depends on it.
#[derive(Clone, Debug)]
pub struct ReadingEvidence {
    /// The reading (name, clauses, basis).
    pub reading: ReadingRule,
    /// The cases that change without it.
    pub changes: Vec<Change>,
}

impl ReadingEvidence {
    /// The diagrams (the books') that change without the reading, verdict or class.
    pub fn dependent_diagrams(&self) -> Vec<&str> {
        self.changes
            .iter()
            .filter(|c| Group::is_diagram(&c.case))
            .map(|c| c.case.as_str())
            .collect()
    }

    /// The shared 2020 diagrams whose verdict changes without the reading.
    #[cfg(test)]
    pub fn book_verdicts(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| {
                matches!(Group::of(&c.case), Group::Ch8 | Group::Ch9) && c.verdict.is_some()
            })
            .count()
    }
}

/// The readings of a rule set with their evidence.
#[derive(Clone, Debug)]
pub struct RuleSetReadings {
    /// The rule set's id.
    pub id: String,
    /// Its readings, by name.
    pub readings: Vec<ReadingEvidence>,
    /// The ruling cases that apply to it.
    pub cases: usize,
}

fn expected_verdict(case: &Case, edition: &str) -> Option<String> {
    case.expected(edition)?
        .answers()
        .first()?
        .get("ruling")?
        .get("verdict")?
        .as_str()
        .map(str::to_string)
}

fn compare(
    case: &Case,
    edition: &str,
    with: &Ruling,
    off: &Ruling,
    rep: &RepetitionRules,
    rep_off: &RepetitionRules,
) -> Option<Change> {
    let name = |r: &RepetitionRules, c: usize| r.classes[c].name.clone();
    let verdict = (with.verdict != off.verdict).then(|| {
        (
            with.verdict.name().to_string(),
            off.verdict.name().to_string(),
        )
    });
    let mut classes = Vec::new();
    for (n, (a, b)) in with.plies.iter().zip(&off.plies).enumerate() {
        let (ca, cb) = (name(rep, a.facts.class), name(rep_off, b.facts.class));
        if ca != cb {
            classes.push((n + 1, ca, cb));
        }
    }
    if verdict.is_none() && classes.is_empty() && with.plies.len() == off.plies.len() {
        return None;
    }
    let want = expected_verdict(case, edition);
    let right = |r: &Ruling| want.as_deref() == Some(r.verdict.name());
    Some(Change {
        case: case.id.clone(),
        verdict,
        classes,
        right: (right(with), right(off)),
    })
}

/// Every reading of every rule set of the spec with 棋例 clauses, each switched off alone
/// over the ruling cases that apply to the rule set: an inferred reading by the variant its
/// rules hold already, a text reading compiled here.
pub fn evidence(spec: &Spec, suite: &Suite) -> Result<Vec<RuleSetReadings>, String> {
    let mut out = Vec::new();
    for ed in spec.editions() {
        let id = ed.id.as_str();
        let rs = RuleSet::compile(ed.clone())
            .map_err(|e| format!("rule set {id} does not compile: {e}"))?;
        let Some(rep) = rs.repetition.as_ref() else {
            continue;
        };
        let cases: Vec<(&Case, RulingQuery)> = suite
            .cases
            .iter()
            .filter(|c| {
                c.query == "ruling" && c.overlay.is_none() && c.editions.iter().any(|e| e == id)
            })
            .filter_map(|c| {
                serde_json::from_value::<RulingQuery>(serde_json::Value::Object(c.input.clone()))
                    .ok()
                    .map(|q| (c, q))
            })
            .collect();
        let base: Vec<Option<Ruling>> = cases
            .iter()
            .map(|(_, q)| rule(&rs.vm, rep, q).ok())
            .collect();
        let mut readings = Vec::new();
        for r in &rep.readings {
            let compiled;
            let off = match rep.variants.iter().find(|v| v.name == r.name) {
                Some(v) => &v.rules,
                None => {
                    compiled = RepetitionRules::compile(&without(ed, &r.name), &rs.vm)
                        .map_err(|e| {
                            format!(
                                "rule set {id} without `{}` does not compile: {}",
                                r.name,
                                e.iter()
                                    .map(|e| e.to_string())
                                    .collect::<Vec<_>>()
                                    .join("; ")
                            )
                        })?
                        .ok_or_else(|| {
                            format!("rule set {id} without `{}` has no repetition rules", r.name)
                        })?
                        .without_variants();
                    &compiled
                }
            };
            let mut changes = Vec::new();
            for ((case, q), with) in cases.iter().zip(&base) {
                let Some(with) = with else { continue };
                if let Ok(o) = rule(&rs.vm, off, q) {
                    changes.extend(compare(case, id, with, &o, rep, off));
                }
            }
            readings.push(ReadingEvidence {
                reading: r.clone(),
                changes,
            });
        }
        out.push(RuleSetReadings {
            id: id.to_string(),
            readings,
            cases: cases.len(),
        });
    }
    Ok(out)
}

/// The diagrams a reading of rule set `rs` rests on: its own dependent diagrams, or, for a
/// reading whose data `rs` inherits unchanged from the edition that writes it (a derived
/// edition has no diagrams of its own), that edition's, with its id.
pub fn diagrams_of<'a>(
    all: &'a [RuleSetReadings],
    rs: &'a RuleSetReadings,
    r: &'a ReadingEvidence,
) -> (Vec<&'a str>, Option<&'a str>) {
    let own = r.dependent_diagrams();
    if own.len() >= 2 {
        return (own, None);
    }
    let parent = all
        .iter()
        .find(|o| o.id == r.reading.data_from && o.id != rs.id);
    match parent.and_then(|p| {
        p.readings
            .iter()
            .find(|o| o.reading.name == r.reading.name && o.reading.reading == r.reading.reading)
            .map(|o| (p, o))
    }) {
        Some((p, o)) if o.dependent_diagrams().len() > own.len() => {
            (o.dependent_diagrams(), Some(p.id.as_str()))
        }
        _ => (own, None),
    }
}

/// The report and its headline figures.
pub fn report(all: &[RuleSetReadings], spec: &Spec) -> (String, String) {
    let mut out = String::from(
        "# Readings of the 棋例 clauses\n\n\
         Generated by `xqspec report` from `spec/` and `conformance/`; do not edit.\n\n\
         A *reading* is a switch of a `repetition.*` clause's data that is on: a boolean field, \
         outside the `when` conditions of special cases and verdicts. Each clause's provenance says, per \
         reading, whether a sourced text states it (**text**) or only our reading of diagrams does \
         (**inferred**), what it rests on, and where it was found: the 2020 book's chapter 8 (图), its \
         chapter 9 (参考图), the AXF diagrams, or the text. Below, every reading is switched off alone \
         (in every clause of the rule set that has it) and every ruling case of the rule set is ruled \
         again; a case is listed when its verdict or any move's class changes. A reading found on one \
         half of the book's diagrams and measured on the other shows whether it is general. *Diagrams* \
         are the book's (ch8, ch9) and the AXF cases (the AXF book's diagrams, and the tests \
         Fairy-Stockfish models on them); an edition derived from another has none of its own, and a \
         reading it inherits unchanged rests on the other's.\n\n\
         A ruling's `basis` (PROTOCOL.md) is computed the same way, one ruling at a time: `inferred`, \
         with `rests_on`, when an inferred reading switched off alone changes its verdict.\n\n",
    );
    let (figures, weak_total) = overview(all, &mut out);
    weak_readings(all, weak_total, &mut out);
    for rs in all {
        rule_set_section(rs, &mut out);
        for r in &rs.readings {
            reading_section(all, rs, r, spec, &mut out);
        }
    }
    (
        out,
        format!(
            "{}; {weak_total} inferred reading(s) with at most one dependent diagram",
            figures.join("; ")
        ),
    )
}

/// The table of rule sets (ruling cases, readings by basis) and the distinct switches;
/// returns each rule set's figures and the number of inferred readings that at most one
/// diagram depends on.
fn overview(all: &[RuleSetReadings], out: &mut String) -> (Vec<String>, usize) {
    let _ = writeln!(out, "| rule set | ruling cases | readings | text | inferred | inferred, at most one dependent diagram |\n|---|---|---|---|---|---|");
    let mut weak_total = 0;
    let mut figures = Vec::new();
    for rs in all {
        let text = rs
            .readings
            .iter()
            .filter(|r| r.reading.reading.basis == ReadingBasis::Text)
            .count();
        let weak: Vec<&ReadingEvidence> = rs
            .readings
            .iter()
            .filter(|r| {
                r.reading.reading.basis == ReadingBasis::Inferred
                    && diagrams_of(all, rs, r).0.len() <= 1
            })
            .collect();
        weak_total += weak.len();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            rs.id,
            rs.cases,
            rs.readings.len(),
            text,
            rs.readings.len() - text,
            weak.len()
        );
        figures.push(format!(
            "{}: {} text, {} inferred",
            rs.id,
            text,
            rs.readings.len() - text
        ));
    }
    let names: std::collections::BTreeSet<&str> = all
        .iter()
        .flat_map(|rs| rs.readings.iter().map(|r| r.reading.name.as_str()))
        .collect();
    let _ = writeln!(
        out,
        "\n{} distinct switches over all rule sets: {}.",
        names.len(),
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    (figures, weak_total)
}

/// The inferred readings that at most one diagram depends on, each with that diagram.
fn weak_readings(all: &[RuleSetReadings], weak_total: usize, out: &mut String) {
    out.push_str("\n## Inferred readings that at most one diagram depends on\n\n");
    if weak_total == 0 {
        out.push_str("None: every inferred reading changes the ruling of at least two diagrams.\n");
    }
    for rs in all {
        for r in rs.readings.iter().filter(|r| {
            r.reading.reading.basis == ReadingBasis::Inferred
                && diagrams_of(all, rs, r).0.len() <= 1
        }) {
            let _ = writeln!(
                out,
                "- {} `{}`: {}",
                rs.id,
                r.reading.name,
                r.dependent_diagrams()
                    .first()
                    .copied()
                    .unwrap_or("no diagram")
            );
        }
    }
}

/// A rule set's heading and its table of readings: each reading's clauses, basis, where it
/// was found, and how many cases of each group change when it is switched off.
fn rule_set_section(rs: &RuleSetReadings, out: &mut String) {
    let _ = writeln!(out, "\n## {}\n", rs.id);
    if rs.readings.is_empty() {
        out.push_str("No reading: every switch of its 棋例 clauses is off.\n");
        return;
    }
    out.push_str("| reading | clauses | basis | found on | ch8 图 | ch9 参考图 | AXF | suite | verdicts right with / without |\n|---|---|---|---|---|---|---|---|---|\n");
    for r in &rs.readings {
        let count = |g: Group| {
            let cs: Vec<&Change> = r
                .changes
                .iter()
                .filter(|c| Group::of(&c.case) == g)
                .collect();
            let v = cs.iter().filter(|c| c.verdict.is_some()).count();
            if cs.is_empty() {
                "–".to_string()
            } else {
                format!(
                    "{} ({} verdict{})",
                    cs.len(),
                    v,
                    if v == 1 { "" } else { "s" }
                )
            }
        };
        let with = r
            .changes
            .iter()
            .filter(|c| c.verdict.is_some() && c.right.0)
            .count();
        let without = r
            .changes
            .iter()
            .filter(|c| c.verdict.is_some() && c.right.1)
            .count();
        let p = &r.reading.reading;
        let _ = writeln!(
            out,
            "| [`{}`](#{}-{}) | {} | {} | {} | {} | {} | {} | {} | {with} / {without} |",
            r.reading.name,
            rs.id,
            r.reading.name.replace('_', "-"),
            r.reading
                .clauses
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", "),
            p.basis.name(),
            p.found_on.name(),
            count(Group::Ch8),
            count(Group::Ch9),
            count(Group::Axf),
            count(Group::Suite),
        );
    }
}

/// A reading in detail: its basis and reference, where it is inherited from, and the cases
/// that change when it is switched off, by group.
fn reading_section(
    all: &[RuleSetReadings],
    rs: &RuleSetReadings,
    r: &ReadingEvidence,
    spec: &Spec,
    out: &mut String,
) {
    let _ = writeln!(out, "\n### {} {}\n", rs.id, r.reading.name);
    let _ = writeln!(
        out,
        "{} (found on {}): {}\n",
        r.reading.reading.basis.name(),
        r.reading.reading.found_on.name(),
        super::sources::link(&crate::markdown::cell(&r.reading.reading.r#ref), spec)
    );
    if let (ds, Some(from)) = diagrams_of(all, rs, r) {
        let _ = writeln!(out, "Inherited unchanged from {from}, where {} diagrams depend on it (this rule set has no diagrams of its own).\n", ds.len());
    }
    if r.changes.is_empty() {
        out.push_str("Switched off, it changes no ruling case.\n");
        return;
    }
    let mut by_group: BTreeMap<Group, Vec<&Change>> = BTreeMap::new();
    for c in &r.changes {
        by_group.entry(Group::of(&c.case)).or_default().push(c);
    }
    for (g, cs) in by_group {
        let label = match g {
            Group::Ch8 => "ch8 图",
            Group::Ch9 => "ch9 参考图",
            Group::Axf => "AXF",
            Group::Suite => "suite",
        };
        let items: Vec<String> = cs.iter().map(|c| describe(c)).collect();
        let _ = writeln!(out, "- {label}: {}", items.join("; "));
    }
}

fn describe(c: &Change) -> String {
    let mut parts = Vec::new();
    if let Some((a, b)) = &c.verdict {
        let mark = |ok: bool| if ok { " ✓" } else { "" };
        parts.push(format!(
            "verdict {a}{} → {b}{}",
            mark(c.right.0),
            mark(c.right.1)
        ));
    }
    if !c.classes.is_empty() {
        parts.push(
            c.classes
                .iter()
                .map(|(p, a, b)| format!("ply {p} {a} → {b}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    if parts.is_empty() {
        parts.push("the judged cycle".into());
    }
    format!("`{}` ({})", c.case, parts.join("; "))
}
