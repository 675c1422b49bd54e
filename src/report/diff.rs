//! How two rule sets differ (`xqspec diff A B`, `reports/diff-A-B.md`, `/api/diff`).
//!
//! **What changed** comes first: one line per rule fact that differs ([`changes`]), in the
//! clauses' own words (their `summary`, and the data leaves that differ), the most
//! consequential domain first (`spec/domains.yaml`), each with its articles in both rule
//! sets, its certainty, its sources (linked to `sources.md`) and a link to its section;
//! then the differences the spec names but no clause encodes (`unencoded_differences` of
//! a derived `edition.yaml`), and how much of each side is assumed ([`Assumed`]).
//!
//! **Certainty** of every clause pair ([`Certainty`]): *read the same*, *assumed the same*
//! (a side inherited from another edition or inferred), *differs (read)* (every clause
//! involved `verified`), *differs (resting on a secondary or inferred source)*, *not encoded
//! in one rule set* (outside a rule set's `keeps`: not a removal). The summary, the tables,
//! the causes of behaviour differences and the JSON all use it.
//!
//! **Clauses**, grouped by article of B: *added* (in B only), *removed* (in A only),
//! *changed* (the data, the rule fact, differs), with the data side by side, leaf by leaf,
//! long texts with an inline word diff; pure renumberings in one table; the areas one rule
//! set does not encode in one table by domain.
//!
//! **Behaviour**: every conformance case that applies to both rule sets and whose answer
//! differs — from the case file when it writes an expectation for both (`expect_by_edition`),
//! else by running the reference implementation under the rule set it does not write one
//! for and judging that answer against the other's expectation. Each comes with its input,
//! a diagram of the position, both answers as text ([`readable_text`]; the JSON folded
//! away) and the clauses that cause the difference (the case's cited clauses whose data
//! differ between A and B, and those whose A version put into B changes B's answer: B
//! recompiled with A's version of one clause, `Edition::with_clause`).
//!
//! Any two rule sets `Spec::ruleset` knows can be compared. [`DiffReport::to_json`] (`xqspec
//! diff --json`, `/api/diff` of `xqspec web`) carries the same certainties and changes as
//! the Markdown.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use crate::conform::case::{Case, Expected};
use crate::conform::suite::Suite;
use crate::conform::{judge, Judgement};
use crate::markdown::cell;
use crate::query::{Answer, Query};
use crate::reference::answer_under;
use crate::ruleset::RuleSet;
use crate::spec::{Clause, Edition, ProvenanceStatus, Spec, Words};

/// How one clause differs from A to B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Only in B.
    Added,
    /// Only in A.
    Removed,
    /// In both, with different data.
    Changed,
    /// In both with the same data, under another article number.
    Renumbered,
    /// In both, the same.
    Unchanged,
}

impl Kind {
    /// The kind as the report writes it (`added` …).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Added => "added",
            Kind::Removed => "removed",
            Kind::Changed => "changed",
            Kind::Renumbered => "renumbered",
            Kind::Unchanged => "unchanged",
        }
    }

    /// Whether the rule fact itself differs (the clause exists on one side only, or its data differs).
    pub(crate) fn data_differs(self) -> bool {
        matches!(self, Kind::Added | Kind::Removed | Kind::Changed)
    }
}

/// What a difference rests on: the weakest provenance of the clauses involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// Every clause involved was read in its edition's own text.
    Read,
    /// A clause involved rests on a third-party reproduction of the text.
    Secondary,
    /// A clause involved rests on an unverified source.
    Unverified,
    /// A clause involved is inferred, not read anywhere.
    Inferred,
}

impl Grade {
    /// Every grade, surest first.
    pub const ALL: [Grade; 4] = [
        Grade::Read,
        Grade::Secondary,
        Grade::Unverified,
        Grade::Inferred,
    ];

    fn of(s: ProvenanceStatus) -> Grade {
        match s {
            ProvenanceStatus::Verified => Grade::Read,
            ProvenanceStatus::Secondary => Grade::Secondary,
            ProvenanceStatus::Unverified => Grade::Unverified,
            ProvenanceStatus::Inferred => Grade::Inferred,
        }
    }
}

/// How sure we are of one clause pair: the five words every part of a diff uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Certainty {
    /// The same rule fact, read in both rule sets' texts (or reproductions of them).
    ReadSame,
    /// The same rule fact, but at least one side is inherited from another edition or
    /// inferred: its own text is not known.
    AssumedSame,
    /// The rule fact differs, and every clause involved was read in its edition's own text.
    DiffersRead,
    /// The rule fact differs, resting on a secondary, unverified or inferred clause.
    DiffersWeak,
    /// The clause belongs to an area one rule set does not encode at all (outside its `keeps`).
    NotEncoded,
}

impl Certainty {
    /// Every certainty, in the order the reports list them.
    pub const ALL: [Certainty; 5] = [
        Certainty::DiffersRead,
        Certainty::DiffersWeak,
        Certainty::ReadSame,
        Certainty::AssumedSame,
        Certainty::NotEncoded,
    ];

    /// The name `xqspec diff --json` and the web API carry (`read_same` …).
    pub fn name(self) -> &'static str {
        match self {
            Certainty::ReadSame => "read_same",
            Certainty::AssumedSame => "assumed_same",
            Certainty::DiffersRead => "differs_read",
            Certainty::DiffersWeak => "differs_weak",
            Certainty::NotEncoded => "not_encoded",
        }
    }

    /// How the reports say it.
    pub fn label(self) -> &'static str {
        match self {
            Certainty::ReadSame => "read the same",
            Certainty::AssumedSame => "assumed the same",
            Certainty::DiffersRead => "differs (read)",
            Certainty::DiffersWeak => "differs (resting on a secondary or inferred source)",
            Certainty::NotEncoded => "not encoded in one rule set",
        }
    }

    /// Whether the rule fact differs (read or not).
    pub fn differs(self) -> bool {
        matches!(self, Certainty::DiffersRead | Certainty::DiffersWeak)
    }
}

/// Whether a clause is only assumed in its rule set: inherited from another edition, or inferred.
fn assumed(c: &Clause) -> bool {
    c.inherited_from.is_some()
        || matches!(
            c.provenance.status,
            ProvenanceStatus::Inferred | ProvenanceStatus::Unverified
        )
}

/// Whether rule set `ed` encodes clause `id`'s area at all (its `keeps`, when it has one).
fn encodes(ed: &Edition, id: &str) -> bool {
    ed.scope.as_ref().is_none_or(|prefixes| {
        prefixes.iter().any(|p| id.starts_with(p.as_str())) || ed.clause(id).is_some()
    })
}

/// One clause of A and/or B and how it differs.
#[derive(Clone, Debug, PartialEq)]
pub struct ClauseDiff {
    /// The clause id.
    pub id: String,
    /// How it differs.
    pub kind: Kind,
    /// The clause in A, if A has it.
    pub a: Option<Clause>,
    /// The clause in B, if B has it.
    pub b: Option<Clause>,
    /// How sure we are of the pair.
    pub certainty: Certainty,
}

impl ClauseDiff {
    /// What the difference rests on (the weakest provenance of the clauses present).
    pub fn grade(&self) -> Grade {
        [&self.a, &self.b]
            .into_iter()
            .flatten()
            .map(|c| Grade::of(c.provenance.status))
            .max()
            .unwrap_or(Grade::Inferred)
    }

    /// The article the clause is listed under: B's, else A's.
    pub(crate) fn group_article(&self) -> Option<&str> {
        self.b
            .as_ref()
            .and_then(|c| c.article.as_deref())
            .or_else(|| self.a.as_ref().and_then(|c| c.article.as_deref()))
    }
}

/// Every clause of A or B with its kind of difference, in id order.
pub(crate) fn clause_diffs(a: &Edition, b: &Edition) -> Vec<ClauseDiff> {
    let mut ids: Vec<&str> = a
        .clauses()
        .iter()
        .chain(b.clauses())
        .map(|c| c.id.as_str())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .map(|id| {
            let (x, y) = (a.clause(id), b.clause(id));
            let kind = match (x, y) {
                (None, _) => Kind::Added,
                (_, None) => Kind::Removed,
                (Some(x), Some(y)) if x.data != y.data => Kind::Changed,
                (Some(x), Some(y)) if x.article != y.article => Kind::Renumbered,
                _ => Kind::Unchanged,
            };
            let certainty = match (x, y) {
                (None, _) if !encodes(a, id) => Certainty::NotEncoded,
                (_, None) if !encodes(b, id) => Certainty::NotEncoded,
                _ if kind.data_differs() => {
                    if [x, y]
                        .into_iter()
                        .flatten()
                        .all(|c| c.provenance.status == ProvenanceStatus::Verified)
                    {
                        Certainty::DiffersRead
                    } else {
                        Certainty::DiffersWeak
                    }
                }
                _ if [x, y].into_iter().flatten().any(assumed) => Certainty::AssumedSame,
                _ => Certainty::ReadSame,
            };
            ClauseDiff {
                id: id.to_string(),
                kind,
                a: x.cloned(),
                b: y.cloned(),
                certainty,
            }
        })
        .collect()
}

/// One answer shown in the behaviour section, and where it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// Compact JSON of the answer (projected on the expectation's keys when computed).
    pub text: String,
    /// The answer in words ([`readable_text`]).
    pub readable: String,
    /// `case file` or `reference`.
    pub from: &'static str,
}

/// A conformance case whose answer differs between A and B.
#[derive(Clone, Debug, PartialEq)]
pub struct BehaviourDiff {
    /// The case.
    pub case: Case,
    /// Its answer under A.
    pub a: Shown,
    /// Its answer under B.
    pub b: Shown,
    /// The clauses that cause the difference, with how they differ and how it was found.
    pub causes: Vec<Cause>,
}

/// A clause that causes a behaviour difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The clause id.
    pub clause: String,
    /// How the clause differs from A to B.
    pub kind: Kind,
    /// How sure we are of the clause pair.
    pub certainty: Certainty,
    /// The case cites the clause (and its data differ).
    pub(crate) cited: bool,
    /// Putting A's version of the clause into B (or taking it out, when B alone has it)
    /// changes B's answer to the case.
    pub by_experiment: bool,
}

/// A rule set id split into its edition and overlay (`cxa-2011+provincial-2012-open`).
fn parts(id: &str) -> (&str, Option<&str>) {
    match id.split_once('+') {
        Some((e, o)) => (e, Some(o)),
        None => (id, None),
    }
}

/// The expectation a case writes for rule set `id`, if it applies to it by its own
/// editions and overlay.
fn written<'c>(case: &'c Case, id: &str) -> Option<&'c Expected> {
    let (edition, overlay) = parts(id);
    (case.overlay.as_deref() == overlay)
        .then(|| case.expected(edition))
        .flatten()
}

/// Whether a case applies to rule set `id`: its editions include the rule set's edition,
/// and it names the rule set's overlay or none (a case for an edition also applies to
/// the edition with an overlay, answered by the reference).
fn applies(case: &Case, id: &str) -> bool {
    let (edition, overlay) = parts(id);
    case.editions.iter().any(|e| e == edition)
        && (case.overlay.is_none() || case.overlay.as_deref() == overlay)
}

/// `want`'s shape filled from `got`: the keys an expectation names, with the answer's values.
fn project(want: &Value, got: &Value) -> Value {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => Value::Object(
            w.keys()
                .filter_map(|k| g.get(k).map(|gv| (k.clone(), project(&w[k], gv))))
                .collect(),
        ),
        (Value::Array(w), Value::Array(g)) if !w.is_empty() && w.len() == g.len() => {
            Value::Array(w.iter().zip(g).map(|(a, b)| project(a, b)).collect())
        }
        _ => got.clone(),
    }
}

/// An answer as the report shows it, next to the expectation `like`.
fn shown_answer(answer: &Answer, like: &Expected) -> String {
    match (answer, like) {
        (Answer::Value(m), Expected::Answer(_) | Expected::OneOf(_)) => project(
            &Value::Object(like.answers()[0].clone()),
            &Value::Object(m.clone()),
        )
        .to_string(),
        (Answer::Value(m), Expected::Reject(_)) => Value::Object(m.clone()).to_string(),
        (Answer::Reject { kind, .. }, _) => serde_json::json!({ "reject": kind }).to_string(),
        (Answer::Unsupported { reason }, _) => format!("unsupported: {reason}"),
        (Answer::Error { message }, _) => format!("error: {message}"),
    }
}

/// Rule sets compiled on first use.
struct Compiled<'s> {
    spec: &'s Spec,
    cache: BTreeMap<String, Result<Arc<RuleSet>, String>>,
    /// B with one clause put back as A has it, by clause id (`None`: does not compile).
    reverted: BTreeMap<String, Option<Arc<RuleSet>>>,
}

impl<'s> Compiled<'s> {
    fn new(spec: &'s Spec) -> Compiled<'s> {
        Compiled {
            spec,
            cache: BTreeMap::new(),
            reverted: BTreeMap::new(),
        }
    }

    /// Rule set `b` with clause `id` as rule set `a` has it (or without it).
    fn reverted(&mut self, a: &Edition, b: &Edition, id: &str) -> Option<Arc<RuleSet>> {
        self.reverted
            .entry(id.to_string())
            .or_insert_with(|| {
                RuleSet::compile(b.with_clause(id, a.clause(id).cloned()))
                    .ok()
                    .map(Arc::new)
            })
            .clone()
    }

    fn answer_with(rs: &RuleSet, case: &Case) -> Answer {
        match Query::from_parts(&case.query, &case.input) {
            Ok(q) => answer_under(rs, &q),
            Err(m) => Answer::Error {
                message: format!("the case is malformed: {m}"),
            },
        }
    }

    fn get(&mut self, id: &str) -> Result<Arc<RuleSet>, String> {
        let spec = self.spec;
        self.cache
            .entry(id.to_string())
            .or_insert_with(|| {
                let ed = spec.ruleset(id).map_err(|e| e.to_string())?;
                RuleSet::compile(ed)
                    .map(Arc::new)
                    .map_err(|e| format!("rule set {id} does not compile: {e}"))
            })
            .clone()
    }

    fn answer(&mut self, id: &str, case: &Case) -> Answer {
        match self.get(id) {
            Ok(rs) => Compiled::answer_with(&rs, case),
            Err(e) => Answer::Error { message: e },
        }
    }
}

/// The differing clauses whose A version, put into B, changes B's answer to `case` (on
/// the keys of `like`), in id order.
fn causes_by_experiment(
    compiled: &mut Compiled,
    a: &Edition,
    b: &Edition,
    b_id: &str,
    case: &Case,
    like: &Expected,
    candidates: &[&ClauseDiff],
) -> Vec<String> {
    let base = shown_answer(&compiled.answer(b_id, case), like);
    let mut out = Vec::new();
    for d in candidates {
        if let Some(rs) = compiled.reverted(a, b, &d.id) {
            if shown_answer(&Compiled::answer_with(&rs, case), like) != base {
                out.push(d.id.clone());
            }
        }
    }
    out
}

/// Every case whose answer differs between rule sets `a` and `b` (editions `ea`, `eb`),
/// in path order, with the clauses that cause each difference.
pub fn behaviour(
    spec: &Spec,
    suite: &Suite,
    (a, ea): (&str, &Edition),
    (b, eb): (&str, &Edition),
    clauses: &[ClauseDiff],
) -> Vec<BehaviourDiff> {
    let mut compiled = Compiled::new(spec);
    let candidates: Vec<&ClauseDiff> = clauses
        .iter()
        .filter(|d| d.kind != Kind::Unchanged)
        .collect();
    let mut out = Vec::new();
    let mut cases: Vec<&Case> = suite.cases.iter().collect();
    cases.sort_by(|x, y| x.path.cmp(&y.path));
    for case in cases {
        if !(applies(case, a) && applies(case, b)) {
            continue;
        }
        let shown = |text: String, from| Shown {
            readable: readable_text(&text, spec.words()),
            text,
            from,
        };
        let written_shown = |e: &Expected| shown(e.to_value().to_string(), "case file");
        let computed = |ans: &Answer, like: &Expected| shown(shown_answer(ans, like), "reference");
        let (wa, wb) = (written(case, a), written(case, b));
        let Some(like) = wb
            .or(wa)
            .or_else(|| case.editions.iter().find_map(|e| case.expected(e)))
        else {
            continue;
        };
        let pair = match (wa, wb) {
            (Some(ea), Some(eb)) => (ea != eb).then(|| (written_shown(ea), written_shown(eb))),
            // Written for one side only: the rules differ in behaviour only where the reference
            // answers the two sides differently (a case the reference fails on the written side
            // — a known failure — is no difference between the rule sets).
            (Some(ea), None) => {
                let (x, y) = (compiled.answer(a, case), compiled.answer(b, case));
                let shown_a = if judge(&case.query, ea, &x) == Judgement::Pass {
                    written_shown(ea)
                } else {
                    computed(&x, ea)
                };
                (computed(&x, ea).text != computed(&y, ea).text)
                    .then(|| (shown_a, computed(&y, ea)))
            }
            (None, Some(eb)) => {
                let (x, y) = (compiled.answer(a, case), compiled.answer(b, case));
                let shown_b = if judge(&case.query, eb, &y) == Judgement::Pass {
                    written_shown(eb)
                } else {
                    computed(&y, eb)
                };
                (computed(&x, eb).text != computed(&y, eb).text)
                    .then(|| (computed(&x, eb), shown_b))
            }
            (None, None) => {
                // Neither rule set is one the case is written for: compare the reference's
                // answers on the keys of the case's own expectation.
                let (x, y) = (compiled.answer(a, case), compiled.answer(b, case));
                let (sx, sy) = (computed(&x, like), computed(&y, like));
                (sx != sy).then_some((sx, sy))
            }
        };
        let Some((sa, sb)) = pair else { continue };
        let found = causes_by_experiment(&mut compiled, ea, eb, b, case, like, &candidates);
        let causes = candidates
            .iter()
            .filter_map(|d| {
                let cited = d.kind.data_differs() && case.clauses.contains(&d.id);
                let by_experiment = found.contains(&d.id);
                (cited || by_experiment).then(|| Cause {
                    clause: d.id.clone(),
                    kind: d.kind,
                    certainty: d.certainty,
                    cited,
                    by_experiment,
                })
            })
            .collect();
        out.push(BehaviourDiff {
            case: case.clone(),
            a: sa,
            b: sb,
            causes,
        });
    }
    out
}

/// The report's one-line purpose for the README.
pub(crate) fn purpose(a: &str, b: &str) -> String {
    format!("For arbiters and engine authors moving from `{a}` to `{b}`: what changed in plain words, most consequential first, with how sure we are of each clause pair (read the same, assumed the same, differs, not encoded); every differing clause by article, with its sources; every conformance case whose answer differs, with diagrams.")
}

/// A generated diff: its Markdown, the diagrams it links (file name → SVG) and its
/// headline figures.
#[derive(Clone, Debug, Default)]
pub struct DiffReport {
    /// The report's Markdown.
    pub markdown: String,
    /// The diagrams it links: file name → SVG.
    pub diagrams: Vec<(String, String)>,
    pub(crate) figures: String,
    /// Every clause of A or B and how it differs.
    pub clauses: Vec<ClauseDiff>,
    /// Every case whose answer differs.
    pub behaviour: Vec<BehaviourDiff>,
    /// The summary lines: every rule fact that differs, most consequential first.
    pub changes: Vec<Change>,
    /// How much of A and of B is assumed.
    pub assumed: (Assumed, Assumed),
    /// The differences no clause encodes that the spec names: the base edition's id and each.
    pub unencoded: Vec<(String, crate::spec::UnencodedDifference)>,
    /// Rule set A.
    pub from: String,
    /// Rule set B.
    pub to: String,
}

/// One line of a diff's summary: a real change in plain words, from the clauses' own
/// summaries and data.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The clause id.
    pub clause: String,
    /// How it differs.
    pub kind: Kind,
    /// How sure we are.
    pub certainty: Certainty,
    /// Its article in A and in B (`None`: not in that rule set).
    pub articles: (Option<String>, Option<String>),
    /// The change in plain words (Markdown without links).
    pub text: String,
    /// The sources the clauses involved cite, A's first.
    pub sources: Vec<String>,
}

/// How much of a rule set is assumed rather than read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Assumed {
    /// Clauses of the rule set.
    pub clauses: usize,
    /// Inherited from another edition, or inferred (or unverified): the text is not known.
    pub assumed: usize,
    /// Of those, inherited from another edition.
    pub inherited: usize,
    /// Read in the edition's own text (`verified`).
    pub own_text: usize,
    /// Read in a reproduction of it (`secondary`).
    pub secondary: usize,
}

impl Assumed {
    fn of(ed: &Edition) -> Assumed {
        let mut n = Assumed {
            clauses: ed.clauses().len(),
            ..Assumed::default()
        };
        for c in ed.clauses() {
            if assumed(c) {
                n.assumed += 1;
                n.inherited += usize::from(c.inherited_from.is_some());
            } else if c.provenance.status == ProvenanceStatus::Verified {
                n.own_text += 1;
            } else {
                n.secondary += 1;
            }
        }
        n
    }
}

/// The summary lines of a diff: every clause whose rule fact differs, most consequential
/// domain first (`spec/domains.yaml`), then added, removed, changed, then by id.
pub fn changes(spec: &Spec, clauses: &[ClauseDiff]) -> Vec<Change> {
    let mut list: Vec<&ClauseDiff> = clauses.iter().filter(|d| d.certainty.differs()).collect();
    list.sort_by_key(|d| (spec.domain_rank(&d.id), d.kind, d.id.clone()));
    list.into_iter().map(change_of).collect()
}

fn change_of(d: &ClauseDiff) -> Change {
    let text = match (&d.a, &d.b) {
        (None, Some(y)) => format!("new: {}", y.summary),
        (Some(x), None) => format!("gone: {}", x.summary),
        (Some(x), Some(y)) => {
            let (lx, ly) = (super::leaves(&x.data), super::leaves(&y.data));
            let mut keys: Vec<&String> = lx
                .keys()
                .chain(ly.keys())
                .filter(|k| lx.get(*k) != ly.get(*k))
                .collect();
            keys.sort();
            keys.dedup();
            let shown: Vec<String> = keys
                .iter()
                .take(3)
                .map(|k| {
                    let v = |m: &BTreeMap<String, String>| {
                        m.get(*k).map(|v| short(v)).unwrap_or_else(|| "—".into())
                    };
                    format!(
                        "`{}` {} → {}",
                        if k.is_empty() { "data" } else { k.as_str() },
                        v(&lx),
                        v(&ly)
                    )
                })
                .collect();
            let more = if keys.len() > 3 {
                format!(" and {} more", keys.len() - 3)
            } else {
                String::new()
            };
            if x.summary == y.summary {
                format!(
                    "{} [the data differs: {}{more}]",
                    y.summary,
                    shown.join("; ")
                )
            } else {
                format!(
                    "{} (before: {}) [{}{more}]",
                    y.summary,
                    x.summary,
                    shown.join("; ")
                )
            }
        }
        (None, None) => String::new(),
    };
    let sources = [&d.a, &d.b]
        .into_iter()
        .flatten()
        .map(|c| c.provenance.source.clone())
        .fold(Vec::new(), |mut v, s| {
            if !v.contains(&s) {
                v.push(s);
            }
            v
        });
    Change {
        clause: d.id.clone(),
        kind: d.kind,
        certainty: d.certainty,
        articles: (
            d.a.as_ref().and_then(|c| c.article.clone()),
            d.b.as_ref().and_then(|c| c.article.clone()),
        ),
        text,
        sources,
    }
}

/// A data value cut to 40 characters for a summary line.
fn short(v: &str) -> String {
    if v.chars().count() <= 40 {
        format!("`{}`", cell(v))
    } else {
        format!("`{}…`", cell(&v.chars().take(39).collect::<String>()))
    }
}

/// The differences one rule set's edition declares from the other (its base) that no clause
/// encodes (`unencoded_differences` of `edition.yaml`), with the base's id.
pub fn unencoded_differences<'e>(
    a: &'e Edition,
    b: &'e Edition,
) -> Vec<(&'e str, &'e crate::spec::UnencodedDifference)> {
    [(a, b), (b, a)]
        .into_iter()
        .filter(|(x, y)| x.derives_from.as_deref() == Some(y.id.as_str()) && y.id != x.id)
        .flat_map(|(x, y)| {
            x.unencoded_differences
                .iter()
                .map(move |u| (y.id.as_str(), u))
        })
        .collect()
}

/// A difference no clause encodes is *differs (read)* when read in the edition's own text.
fn unencoded_certainty(u: &crate::spec::UnencodedDifference) -> Certainty {
    if u.provenance.status == ProvenanceStatus::Verified {
        Certainty::DiffersRead
    } else {
        Certainty::DiffersWeak
    }
}

/// A source label linked to its entry in `sources.md`.
pub(crate) fn source_link(id: &str) -> String {
    format!("[{id}](sources.md#{id})")
}

/// `art. 22.2 → 4.2.4`, `art. 4.3 (new)` …: a change's articles in both rule sets.
fn articles_text(c: &Change, a: &str, b: &str) -> String {
    let art = |x: &Option<String>| x.clone().unwrap_or_else(|| "no article".into());
    match &c.articles {
        _ if c.kind == Kind::Added => format!("{b} {}", art(&c.articles.1)),
        _ if c.kind == Kind::Removed => format!("{a} {}", art(&c.articles.0)),
        (x, y) if x == y => format!("art. {} in both", art(x)),
        (x, y) => format!("{a} {} → {b} {}", art(x), art(y)),
    }
}

/// The diff of rule sets `a` and `b` (ids as `Spec::ruleset` takes them).
pub fn diff(spec: &Spec, suite: &Suite, a: &str, b: &str) -> Result<DiffReport, String> {
    let ea = spec.ruleset(a).map_err(|e| e.to_string())?;
    let eb = spec.ruleset(b).map_err(|e| e.to_string())?;
    let clauses = clause_diffs(&ea, &eb);
    let behaviour = behaviour(spec, suite, (a, &ea), (b, &eb), &clauses);
    let changes = changes(spec, &clauses);
    let assumed = (Assumed::of(&ea), Assumed::of(&eb));
    let mut compiled = Compiled::new(spec);
    let mut out = String::new();
    let counts = |k: Kind| clauses.iter().filter(|d| d.kind == k).count();
    let certain = |c: Certainty| clauses.iter().filter(|d| d.certainty == c).count();
    let differences: Vec<&ClauseDiff> = clauses
        .iter()
        .filter(|d| d.kind != Kind::Unchanged)
        .collect();

    let _ = writeln!(out, "# Differences: {a} → {b}\n");
    let _ = writeln!(
        out,
        "Generated by `xqspec report --write` (or `xqspec diff {a} {b}`); do not edit. **A** is {} ({}), **B** is {} ({}). \
         Every source label links to [sources.md](sources.md), which says what each source is and how far to trust it.\n",
        ea.name_en, ea.id, eb.name_en, eb.id
    );

    // What changed, in plain words.
    let _ = writeln!(out, "## What changed\n");
    for (ed, n) in [(&ea, assumed.0), (&eb, assumed.1)] {
        if n.assumed > 0 {
            let mut from: Vec<&str> = ed
                .clauses()
                .iter()
                .filter_map(|c| c.inherited_from.as_deref())
                .collect();
            from.sort_unstable();
            from.dedup();
            let parent = if from.is_empty() {
                String::new()
            } else {
                format!(" from {}", from.join(", "))
            };
            let _ = writeln!(
                out,
                "**How much of {} is assumed:** {} of its {} clauses ({}), because its own text of them is not known; {} were read in its own text and {} in a reproduction of it. A pair with an assumed side counts as *assumed the same*, never *read the same*.\n",
                ed.id,
                n.assumed,
                n.clauses,
                [(n.inherited, format!("inherited{parent}")), (n.assumed - n.inherited, "inferred or unverified".to_string())]
                    .into_iter()
                    .filter(|(k, _)| *k > 0)
                    .map(|(k, what)| format!("{k} {what}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                n.own_text,
                n.secondary
            );
        }
    }
    out.push_str("The rule facts that differ, most consequential first, each with its articles, its certainty and its sources:\n\n");
    if changes.is_empty() {
        out.push_str("No rule fact differs.\n\n");
    }
    for c in &changes {
        let _ = writeln!(
            out,
            "- **{}** — {} *{}*; {}. [details](#{})",
            articles_text(c, a, b),
            c.text,
            c.certainty.label(),
            c.sources
                .iter()
                .map(|s| source_link(s))
                .collect::<Vec<_>>()
                .join(", "),
            anchor(&c.clause)
        );
    }
    if !changes.is_empty() {
        out.push('\n');
    }
    let named = unencoded_differences(&ea, &eb);
    if !named.is_empty() {
        out.push_str("Known differences no clause encodes (not decidable by a program, or too little of the text known), named by the spec so that none is left out:\n\n");
        for (base, u) in &named {
            let _ = writeln!(
                out,
                "- **{base} {}** — {} *{}*; {}. Not encoded: {}.",
                u.articles,
                u.summary,
                unencoded_certainty(u).label(),
                source_link(&u.provenance.source),
                u.why
            );
        }
        out.push('\n');
    }
    let _ = writeln!(out, "## Summary\n");
    out.push_str(
        "Every clause pair is one of: *read the same* (the same rule fact, read in both rule sets' texts or reproductions of them); \
         *assumed the same* (the same, but one side is inherited from another edition or inferred: its text is not known); \
         *differs (read)* (every clause involved read in its edition's own text); *differs (resting on a secondary or inferred source)*; \
         *not encoded in one rule set* (an area one rule set does not encode at all: neither the same nor removed).\n\n",
    );
    let _ = writeln!(
        out,
        "- Clause pairs: {}.",
        Certainty::ALL
            .iter()
            .map(|&c| format!("{} {}", certain(c), c.label()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        out,
        "- Kinds: {} added, {} removed, {} changed, {} renumbered only, {} unchanged (a clause is *added* or *removed* when only one rule set has it, *changed* when its data — the rule fact — differs, *renumbered* when only its article differs).",
        counts(Kind::Added),
        counts(Kind::Removed),
        counts(Kind::Changed),
        counts(Kind::Renumbered),
        counts(Kind::Unchanged)
    );
    let from_files = behaviour
        .iter()
        .filter(|d| d.a.from == "case file" && d.b.from == "case file")
        .count();
    let _ = writeln!(
        out,
        "- Behaviour: {} conformance cases answer differently ({} from both case files' expectations, {} computed by the reference implementation). \
         Their causes are the clauses the case cites whose data differ, and the differing clauses on which the answer depends: putting A's version \
         of the clause into B (or taking it out, when only B has it) changes the reference implementation's answer.\n",
        behaviour.len(),
        from_files,
        behaviour.len() - from_files
    );

    // Clauses, by article of B.
    let _ = writeln!(out, "## Clauses, by article of {b}\n");
    let listed: Vec<&ClauseDiff> = differences
        .iter()
        .copied()
        .filter(|d| d.kind != Kind::Renumbered && d.certainty != Certainty::NotEncoded)
        .collect();
    if listed.is_empty() {
        out.push_str("No clause differs in its rule fact.\n\n");
    }
    // Clauses B has go under B's article; clauses only A has, under A's (after B's).
    let mut groups: BTreeMap<(bool, u32, String), Vec<&ClauseDiff>> = BTreeMap::new();
    for d in &listed {
        let only_a = d.b.is_none();
        let top = d.group_article().map(top_article).unwrap_or_default();
        groups
            .entry((only_a, sort_key(&top), top))
            .or_default()
            .push(d);
    }
    for ((only_a, _, top), list) in &groups {
        let heading = if *only_a {
            format!("{} (only in {a})", group_heading(top, &ea, a))
        } else {
            group_heading(top, &eb, b)
        };
        let _ = writeln!(out, "### {heading}\n");
        let mut t = tabled::builder::Builder::default();
        t.push_record([
            "clause",
            "change",
            &format!("article {a} → {b}"),
            &format!("provenance {a}"),
            &format!("provenance {b}"),
            "certainty",
        ]);
        for d in list {
            let (aa, ba) = (article(d.a.as_ref()), article(d.b.as_ref()));
            t.push_record([
                format!("[`{}`](#{})", d.id, anchor(&d.id)),
                d.kind.name().to_string(),
                if aa == ba {
                    aa
                } else {
                    format!("{aa} → {ba}")
                },
                provenance(d.a.as_ref()),
                provenance(d.b.as_ref()),
                d.certainty.label().to_string(),
            ]);
        }
        out.push_str(&crate::markdown::table_text(t, true));
        out.push_str("\n\n");
        for d in list {
            clause_details(&mut out, d, a, b, spec);
        }
    }

    // Renumberings, in one table.
    let renumbered: Vec<&ClauseDiff> = differences
        .iter()
        .copied()
        .filter(|d| d.kind == Kind::Renumbered)
        .collect();
    if !renumbered.is_empty() {
        let _ = writeln!(out, "## Renumbered only\n");
        let _ = writeln!(
            out,
            "The same rule fact under another article number ({} clauses).\n",
            renumbered.len()
        );
        let mut t = tabled::builder::Builder::default();
        t.push_record([
            "clause",
            &format!("article {a} → {b}"),
            "certainty",
            &format!("provenance {a}"),
            &format!("provenance {b}"),
            "what it says",
        ]);
        for d in &renumbered {
            t.push_record([
                format!("`{}`", d.id),
                format!("{} → {}", article(d.a.as_ref()), article(d.b.as_ref())),
                d.certainty.label().to_string(),
                provenance(d.a.as_ref()),
                provenance(d.b.as_ref()),
                cell(d.b.as_ref().map(|c| c.summary.as_str()).unwrap_or("")),
            ]);
        }
        out.push_str(&crate::markdown::table_text(t, true));
        out.push_str("\n\n");
    }

    // Areas one rule set does not encode.
    let unencoded: Vec<&ClauseDiff> = clauses
        .iter()
        .filter(|d| d.certainty == Certainty::NotEncoded)
        .collect();
    if !unencoded.is_empty() {
        let _ = writeln!(out, "## Not encoded in one rule set\n");
        for (side, ed, other) in [(b, &eb, &ea), (a, &ea, &eb)] {
            let missing: Vec<&&ClauseDiff> = unencoded
                .iter()
                .filter(|d| ed.clause(&d.id).is_none())
                .collect();
            if missing.is_empty() {
                continue;
            }
            let scope = ed
                .scope
                .as_ref()
                .map(|s| {
                    s.iter()
                        .map(|p| format!("`{}`", p.trim_end_matches('.')))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{} clauses of {} are not part of {side}, which encodes only {scope} (and the clauses it states itself). \
                 They are not removals: {side}'s rules in these areas are simply not encoded here.\n",
                missing.len(),
                other.id
            );
            let mut by_domain: BTreeMap<(usize, String), Vec<String>> = BTreeMap::new();
            for d in missing {
                let dom = crate::spec::domain_of(&d.id).to_string();
                by_domain
                    .entry((spec.domain_rank(&d.id), dom))
                    .or_default()
                    .push(format!("`{}`", d.id));
            }
            let mut t = tabled::builder::Builder::default();
            t.push_record(["area", "clauses", "ids"]);
            for ((_, dom), ids) in by_domain {
                let name = spec
                    .domains()
                    .iter()
                    .find(|x| x.id == dom)
                    .map(|x| x.name.clone())
                    .unwrap_or(dom);
                t.push_record([name, ids.len().to_string(), ids.join(", ")]);
            }
            out.push_str(&crate::markdown::table_text(t, true));
            out.push_str("\n\n");
        }
    }

    // Behaviour.
    let _ = writeln!(out, "## Behaviour\n");
    if behaviour.is_empty() {
        out.push_str("No conformance case that applies to both answers differently.\n");
    }
    let mut diagrams = Vec::new();
    for d in &behaviour {
        let case = &d.case;
        let _ = writeln!(out, "### `{}`\n", case.stem_path());
        let _ = writeln!(out, "{} (query `{}`)\n", case.description, case.query);
        if let Some((name, svg)) = diagram_of(&mut compiled, case, &[a, b]) {
            let _ = writeln!(out, "![the position of `{}`](diagrams/{name})\n", case.id);
            diagrams.push((name, svg));
        }
        let input = serde_yaml::to_value(&case.input)
            .map(|v| super::yaml(&v))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "<details><summary>input</summary>\n\n```yaml\n{}```\n</details>\n",
            input
        );
        let mut t = tabled::builder::Builder::default();
        t.push_record(["", a, b]);
        t.push_record([
            "answer".to_string(),
            cell(&d.a.readable),
            cell(&d.b.readable),
        ]);
        t.push_record(["from", d.a.from, d.b.from]);
        out.push_str(&crate::markdown::table_text(t, true));
        out.push_str("\n\n");
        let _ = writeln!(
            out,
            "Certainty: *{}*.\n",
            d.certainty()
                .map(Certainty::label)
                .unwrap_or("differs (no single clause found)")
        );
        if d.causes.is_empty() {
            let _ = writeln!(
                out,
                "Caused by: no single clause found. None of the cited clauses ({}) differs in data, and putting back any one differing clause as {a} has it does not change {b}'s answer (several clauses together, or the reference's reading of the case).\n",
                case.clauses.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
            );
        } else {
            let causes: Vec<String> = d
                .causes
                .iter()
                .map(|c| {
                    let how = match (c.cited, c.by_experiment) {
                        (true, true) => "cited; the answer depends on it",
                        (true, false) => "cited",
                        (false, _) => "not cited; the answer depends on it",
                    };
                    let target = if c.kind == Kind::Renumbered {
                        String::new()
                    } else {
                        format!("(#{})", anchor(&c.clause))
                    };
                    let link = if target.is_empty() {
                        format!("`{}`", c.clause)
                    } else {
                        format!("[`{}`]{target}", c.clause)
                    };
                    format!("{link} ({}, {}; {how})", c.kind.name(), c.certainty.label())
                })
                .collect();
            let _ = writeln!(out, "Caused by: {}.\n", causes.join(", "));
        }
        let _ = writeln!(
            out,
            "<details><summary>answers as JSON</summary>\n\n- {a}: `{}`\n- {b}: `{}`\n</details>\n",
            cell(&d.a.text),
            cell(&d.b.text)
        );
        if let Some(n) = &case.note {
            let _ = writeln!(
                out,
                "<details><summary>how the answer was computed</summary>\n\n{}\n</details>\n",
                n.trim()
            );
        }
    }
    let figures = format!(
        "{} rule facts differ ({} read, {} on a secondary or inferred source); {} assumed the same, {} read the same, {} not encoded in one rule set; {} renumbered only; {} behaviour differences",
        certain(Certainty::DiffersRead) + certain(Certainty::DiffersWeak),
        certain(Certainty::DiffersRead),
        certain(Certainty::DiffersWeak),
        certain(Certainty::AssumedSame),
        certain(Certainty::ReadSame),
        certain(Certainty::NotEncoded),
        counts(Kind::Renumbered),
        behaviour.len()
    );
    let unencoded = named
        .into_iter()
        .map(|(base, u)| (base.to_string(), u.clone()))
        .collect();
    Ok(DiffReport {
        markdown: out,
        diagrams,
        figures,
        clauses,
        behaviour,
        changes,
        assumed,
        unencoded,
        from: a.to_string(),
        to: b.to_string(),
    })
}

impl DiffReport {
    /// The diff as JSON (`xqspec diff --json`, the web page's `/api/diff`): the summary
    /// lines, the counts by certainty and kind, how much of each side is assumed, every
    /// clause pair with its certainty, and every behaviour difference with its answers as
    /// JSON and as text.
    pub fn to_json(&self) -> Value {
        use serde_json::json;
        let count = |c: Certainty| self.clauses.iter().filter(|d| d.certainty == c).count();
        let kinds = [
            Kind::Added,
            Kind::Removed,
            Kind::Changed,
            Kind::Renumbered,
            Kind::Unchanged,
        ];
        let assumed = |n: &Assumed| json!({"clauses": n.clauses, "assumed": n.assumed, "inherited": n.inherited, "own_text": n.own_text, "secondary": n.secondary});
        let prov = |c: &Option<Clause>| {
            c.as_ref().map(|c| json!({"status": c.provenance.status.name(), "source": c.provenance.source, "ref": c.provenance.r#ref, "inherited_from": c.inherited_from}))
        };
        let shown = |s: &Shown| json!({"json": serde_json::from_str::<Value>(&s.text).unwrap_or(Value::String(s.text.clone())), "text": s.readable, "from": s.from});
        let names: Vec<String> = self.diagrams.iter().map(|(n, _)| n.clone()).collect();
        json!({
            "from": self.from,
            "to": self.to,
            "certainties": Certainty::ALL.iter().map(|c| json!({"certainty": c.name(), "label": c.label(), "clauses": count(*c)})).collect::<Vec<_>>(),
            "kinds": kinds.iter().map(|k| (k.name().to_string(), json!(self.clauses.iter().filter(|d| d.kind == *k).count()))).collect::<serde_json::Map<_, _>>(),
            "assumed": {"from": assumed(&self.assumed.0), "to": assumed(&self.assumed.1)},
            "changes": self.changes.iter().map(|c| json!({
                "clause": c.clause, "kind": c.kind.name(), "certainty": c.certainty.name(), "certainty_label": c.certainty.label(),
                "article_from": c.articles.0, "article_to": c.articles.1, "text": c.text, "sources": c.sources,
            })).collect::<Vec<_>>(),
            "unencoded_changes": self.unencoded.iter().map(|(base, u)| json!({
                "articles": u.articles, "in": base, "text": u.summary, "why": u.why, "certainty": unencoded_certainty(u).name(),
                "certainty_label": unencoded_certainty(u).label(), "sources": [u.provenance.source.clone()],
            })).collect::<Vec<_>>(),
            "clauses": self.clauses.iter().map(|d| json!({
                "id": d.id, "kind": d.kind.name(), "certainty": d.certainty.name(), "certainty_label": d.certainty.label(),
                "article_from": d.a.as_ref().and_then(|c| c.article.clone()), "article_to": d.b.as_ref().and_then(|c| c.article.clone()),
                "summary_from": d.a.as_ref().map(|c| c.summary.clone()), "summary_to": d.b.as_ref().map(|c| c.summary.clone()),
                "provenance_from": prov(&d.a), "provenance_to": prov(&d.b),
            })).collect::<Vec<_>>(),
            "behaviour": self.behaviour.iter().map(|d| json!({
                "case": d.case.stem_path(), "description": d.case.description, "query": d.case.query,
                "answer_from": shown(&d.a), "answer_to": shown(&d.b),
                "certainty": d.certainty().map(Certainty::name), "certainty_label": d.certainty().map(Certainty::label),
                "causes": d.causes.iter().map(|c| json!({"clause": c.clause, "kind": c.kind.name(), "certainty": c.certainty.name(), "cited": c.cited, "by_experiment": c.by_experiment})).collect::<Vec<_>>(),
                "diagram": Some(diagram_name(&d.case)).filter(|n| names.contains(n)),
            })).collect::<Vec<_>>(),
        })
    }
}

impl BehaviourDiff {
    /// The weakest certainty of its causes (`None` without a cause).
    pub fn certainty(&self) -> Option<Certainty> {
        self.causes.iter().map(|c| c.certainty).max()
    }
}

/// An answer in words: its codes as `spec/words.yaml` says them (`Black wins`, `Red: loses`,
/// `ruled by the arbiter`), the clause and article after what they decided, the event as
/// `at event 4`, no fouls as `no fouls`; other fields as `name: value`. The JSON folded into
/// one line, for the behaviour tables.
pub fn readable_text(json: &str, words: &Words) -> String {
    match serde_json::from_str::<Value>(json) {
        Ok(Value::Object(m)) if m.len() == 1 => {
            let (k, v) = m.iter().next().expect("one key");
            match (k.as_str(), v) {
                ("reject", Value::String(kind)) => format!("rejected: {kind}"),
                (_, Value::Object(_)) => readable(v, words),
                _ => readable(&Value::Object(m.clone()), words),
            }
        }
        Ok(v) => readable(&v, words),
        Err(_) => json.to_string(),
    }
}

fn readable(v: &Value, words: &Words) -> String {
    match v {
        Value::Null => "none".into(),
        Value::Bool(b) => (if *b { "yes" } else { "no" }).into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => words_of(s),
        Value::Array(items) if items.is_empty() => "none".into(),
        Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => items
            .iter()
            .map(|x| readable(x, words))
            .collect::<Vec<_>>()
            .join(" "),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, x)| format!("({}) {}", i + 1, readable(x, words)))
            .collect::<Vec<_>>()
            .join("; "),
        Value::Object(m) => {
            // A code in words, if the field names a group; else as it is written.
            let said = |field: &str, code: &Value| match code.as_str() {
                Some(c) => words
                    .of_field(field, c)
                    .map_or_else(|| words_of(c), |w| w.en.clone()),
                None => readable(code, words),
            };
            let mut parts = Vec::new();
            let head = ["result", "verdict", "decision", "state"]
                .into_iter()
                .find(|k| m.get(*k).is_some_and(|v| !v.is_null()));
            let mut used: Vec<&str> = vec!["rests_on"];
            if let Some(h) = head {
                let mut s = String::new();
                if let (Some(side), "decision") = (m.get("side"), h) {
                    let _ = write!(s, "{}: ", said("side", side));
                    used.push("side");
                }
                s.push_str(&said(h, &m[h]));
                if let Some(Value::String(c)) = m.get("clause") {
                    let _ = write!(s, " by {c}");
                }
                if let Some(Value::String(art)) = m.get("article") {
                    let _ = write!(s, " (art. {art})");
                }
                parts.push(s);
                used.extend([h, "clause", "article"]);
            }
            for (k, val) in m {
                if used.contains(&k.as_str()) {
                    continue;
                }
                match (k.as_str(), val) {
                    // Nothing to say: no clause, no event.
                    (_, Value::Null) => {}
                    ("by", _) => parts.push(said("by", val)),
                    ("basis", _) => {
                        let mut s = format!("resting on {}", said("basis", val));
                        if let Some(r) = m
                            .get("rests_on")
                            .and_then(Value::as_array)
                            .filter(|r| !r.is_empty())
                        {
                            let _ = write!(s, " ({})", readable(&Value::Array(r.clone()), words));
                        }
                        parts.push(s);
                    }
                    ("event", Value::Number(n)) => parts.push(format!("at event {n}")),
                    ("fouls", Value::Object(f)) => {
                        let n = |s: &str| f.get(s).and_then(Value::as_u64).unwrap_or(0);
                        parts.push(if n("red") + n("black") == 0 {
                            "no fouls".into()
                        } else {
                            format!(
                                "fouls: {} {}, {} {}",
                                words.en("side", "red"),
                                n("red"),
                                words.en("side", "black"),
                                n("black")
                            )
                        });
                    }
                    _ => {
                        let text = said(k, val);
                        parts.push(if val.as_object().is_some_and(|o| o.len() > 1) {
                            format!("{}: ({text})", words_of(k))
                        } else {
                            format!("{}: {text}", words_of(k))
                        });
                    }
                }
            }
            parts.join(", ")
        }
    }
}

/// `black_wins` → `black wins`; other strings (FEN, clause ids, moves) as they are.
fn words_of(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
        s.replace('_', " ")
    } else {
        s.to_string()
    }
}

/// The top-level article of an article field (`4` for `4.1.8`, `7` for `7.1, 7.2, 8.1.6`).
fn top_article(field: &str) -> String {
    let first = field.split(',').next().unwrap_or("").trim();
    first.split('.').next().unwrap_or("").to_string()
}

fn sort_key(top: &str) -> u32 {
    top.parse().unwrap_or(u32::MAX)
}

/// `Art. 4 of cxa-2020 — 胜、负、和 (win, loss, draw)`, with the heading from the
/// edition's own table of contents when it has one.
fn group_heading(top: &str, ed: &Edition, id: &str) -> String {
    if top.is_empty() {
        return format!("No article in {id}");
    }
    match ed.toc.as_ref().and_then(|t| t.entry(top)) {
        Some(e) => match &e.title {
            Some(t) => format!("Art. {top} of {id} — {t} ({})", e.gloss),
            None => format!("Art. {top} of {id} — {}", e.gloss),
        },
        None => format!("Art. {top} of {id}"),
    }
}

fn article(c: Option<&Clause>) -> String {
    match c {
        None => "—".into(),
        Some(c) => c.article.clone().unwrap_or_else(|| "none".into()),
    }
}

fn provenance(c: Option<&Clause>) -> String {
    match c {
        None => "—".into(),
        Some(c) => match &c.inherited_from {
            Some(p) => format!("{} (inherited from {p})", c.provenance.status.name()),
            None => format!(
                "{} ({})",
                c.provenance.status.name(),
                source_link(&c.provenance.source)
            ),
        },
    }
}

/// A heading anchor as GitHub makes it from a clause id (`result.illegal_move` → `resultillegal_move`).
fn anchor(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .collect()
}

fn provenance_line(c: &Clause, spec: &Spec) -> String {
    let p = &c.provenance;
    let mut s = format!("{} — {}", p.status.name(), source_link(&p.source));
    if let Some(r) = &p.r#ref {
        let _ = write!(s, ", {}", super::sources::link(r, spec));
    }
    if let Some(f) = &c.inherited_from {
        let _ = write!(s, " (inherited from {f})");
    }
    if let Some(n) = &p.note {
        let _ = write!(s, ". {}", super::sources::link(n, spec));
    }
    s
}

fn clause_details(out: &mut String, d: &ClauseDiff, a: &str, b: &str, spec: &Spec) {
    let _ = writeln!(out, "#### {}\n", d.id);
    let _ = writeln!(out, "*{}*, {}.\n", d.kind.name(), d.certainty.label());
    for (side, c) in [(a, &d.a), (b, &d.b)] {
        if let Some(c) = c {
            let _ = writeln!(
                out,
                "- {side}, art. {}: {}  \n  provenance: {}",
                article(Some(c)),
                c.summary,
                provenance_line(c, spec)
            );
        }
    }
    out.push('\n');
    match (&d.a, &d.b) {
        (Some(x), Some(y)) if d.kind == Kind::Changed => {
            let (lx, ly) = (super::leaves(&x.data), super::leaves(&y.data));
            let mut keys: Vec<&String> = lx.keys().chain(ly.keys()).collect();
            keys.sort();
            keys.dedup();
            let mut t = tabled::builder::Builder::default();
            t.push_record(["data", a, b]);
            for k in keys {
                let (vx, vy) = (lx.get(k), ly.get(k));
                if vx == vy {
                    continue;
                }
                let (sx, sy) = match (vx, vy) {
                    (Some(p), Some(q)) if p.chars().count() + q.chars().count() > 40 => {
                        inline_diff(p, q)
                    }
                    _ => (
                        vx.map(|v| format!("`{}`", cell(v)))
                            .unwrap_or_else(|| "—".into()),
                        vy.map(|v| format!("`{}`", cell(v)))
                            .unwrap_or_else(|| "—".into()),
                    ),
                };
                t.push_record([
                    format!("`{}`", if k.is_empty() { "data" } else { k }),
                    sx,
                    sy,
                ]);
            }
            out.push_str(&crate::markdown::table_text(t, true));
            out.push_str("\n\n");
        }
        (Some(c), None) | (None, Some(c)) => {
            let _ = writeln!(
                out,
                "<details><summary>data</summary>\n\n```yaml\n{}```\n</details>\n",
                super::yaml(&c.data)
            );
        }
        _ => {}
    }
}

/// Words and separators of a data value (`[小分, 胜局]` → `[`, `小分`, `, `, `胜局`, `]`).
fn tokens(s: &str) -> Vec<&str> {
    let sep = |c: char| matches!(c, ' ' | ',' | '[' | ']' | '{' | '}' | ':');
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<bool> = None;
    for (i, c) in s.char_indices() {
        let is_sep = sep(c);
        if prev.is_some_and(|p| p != is_sep) {
            out.push(&s[start..i]);
            start = i;
        }
        prev = Some(is_sep);
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Two texts with their differences marked word by word (list items and words): removed
/// words ~~struck~~ in the old one, added words **bold** in the new one.
pub(crate) fn inline_diff(old: &str, new: &str) -> (String, String) {
    let (a, b) = (tokens(old), tokens(new));
    let diff = TextDiff::from_slices(&a, &b);
    let (mut x, mut y) = (String::new(), String::new());
    for ch in diff.iter_all_changes() {
        let v = cell(ch.value());
        let word = !v.trim().is_empty()
            && !v
                .chars()
                .all(|c| matches!(c, ' ' | ',' | '[' | ']' | '{' | '}' | ':'));
        match ch.tag() {
            ChangeTag::Equal => {
                x.push_str(&v);
                y.push_str(&v);
            }
            ChangeTag::Delete if word => {
                let _ = write!(x, "~~{v}~~");
            }
            ChangeTag::Insert if word => {
                let _ = write!(y, "**{v}**");
            }
            ChangeTag::Delete => x.push_str(&v),
            ChangeTag::Insert => y.push_str(&v),
        }
    }
    (x, y)
}

/// The file name of a case's diagram (`outcome-since-2011-foo.svg`).
pub(crate) fn diagram_name(case: &Case) -> String {
    format!("{}.svg", case.stem_path().replace('/', "-"))
}

/// A diagram of the position a case's input gives, drawn under the first of `ids` that
/// accepts it.
fn diagram_of(compiled: &mut Compiled, case: &Case, ids: &[&str]) -> Option<(String, String)> {
    ids.iter().find_map(|id| {
        let rs = compiled.get(id).ok()?;
        crate::diagram::of_input(&rs, &case.input, &case.id).map(|svg| (diagram_name(case), svg))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers in words, not codes twice or raw values (issue 48).
    #[test]
    fn answers_read_in_words() {
        let spec = Spec::builtin().unwrap();
        let w = spec.words();
        assert_eq!(
            readable_text(r#"{"outcome":{"result":"black_wins","clause":"result.change_refused","article":"4.1.5","by":"board","event":11,"fouls":{"black":0,"red":0},"rulings":[{"decision":"must_change","side":"red","clause":"result.change_refused","event":7}]}}"#, w),
            "Black wins by result.change_refused (art. 4.1.5), found from the moves, at event 11, no fouls, rulings: (1) Red: must change by result.change_refused, at event 7"
        );
        assert_eq!(
            readable_text(
                r#"{"outcome":{"result":"ongoing","clause":null,"fouls":{"black":0,"red":2}}}"#,
                w
            ),
            "the game goes on, fouls: Red 2, Black 0"
        );
        assert_eq!(
            readable_text(r#"{"verdict":"red_must_change"}"#, w),
            "Red must change"
        );
        assert_eq!(
            readable_text(r#"{"reject":"events.after_end"}"#, w),
            "rejected: events.after_end"
        );
    }

    #[test]
    fn inline_diff_marks_words() {
        let (x, y) = inline_diff("[小分, 胜局, 直胜]", "[小分, 胜局, 直胜, 后手胜局]");
        assert_eq!(
            (x.as_str(), y.as_str()),
            ("[小分, 胜局, 直胜]", "[小分, 胜局, 直胜, **后手胜局**]")
        );
        let (x, y) = inline_diff("the claimant only", "each side");
        assert_eq!(
            (x.as_str(), y.as_str()),
            ("~~the~~ ~~claimant~~ ~~only~~", "**each** **side**")
        );
    }

    #[test]
    fn top_articles_and_anchors() {
        assert_eq!(top_article("7.1, 7.2, 8.1.6"), "7");
        assert_eq!(top_article("30"), "30");
        assert_eq!(anchor("result.illegal_move"), "resultillegal_move");
        assert!(sort_key("4") < sort_key("30") && sort_key("30") < sort_key(""));
    }

    #[test]
    fn rule_set_ids_and_case_applicability() {
        assert_eq!(
            parts("cxa-2011+provincial-2012-open"),
            ("cxa-2011", Some("provincial-2012-open"))
        );
        let case = Case::parse(
            "x/c.yaml",
            "id: c\ndescription: d\nclauses: [a.b]\neditions: [cxa-2011, cxa-2020]\nquery: perft\ninput: {fen: f, depth: 1}\nexpect_by_edition:\n  cxa-2011: {nodes: 1}\n  cxa-2020: {nodes: 2}\n",
        )
        .unwrap();
        assert!(
            applies(&case, "cxa-2011+provincial-2012-open")
                && applies(&case, "cxa-2020")
                && !applies(&case, "cxa-1999")
        );
        assert!(written(&case, "cxa-2011+provincial-2012-open").is_none());
        assert!(written(&case, "cxa-2020").is_some());
    }
}
