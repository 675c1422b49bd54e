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
use crate::spec::{Both, Clause, Edition, ProvenanceStatus, Spec, Words};

mod behaviour;
mod markdown;
mod readable;

pub use behaviour::behaviour;
use behaviour::Compiled;
pub(crate) use markdown::diagram_name;
pub use readable::readable_text;

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
    /// The answer in words, in English and in Chinese ([`readable_text`]).
    pub readable: Both,
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
    /// The same in Chinese (from the clauses' `summary_zh`).
    pub text_zh: String,
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
    list.into_iter()
        .map(|d| change_of(d, spec.words()))
        .collect()
}

fn change_of(d: &ClauseDiff, words: &Words) -> Change {
    let sentence = |key: &str, args: &[(&str, &Both)]| words.fill("diff", key, args);
    let text = match (&d.a, &d.b) {
        (None, Some(y)) => sentence("added", &[("summary", &y.summary_both())]),
        (Some(x), None) => sentence("removed", &[("summary", &x.summary_both())]),
        (Some(x), Some(y)) => {
            let (lx, ly) = (
                crate::report::leaves(&x.data),
                crate::report::leaves(&y.data),
            );
            let mut keys: Vec<&String> = lx
                .keys()
                .chain(ly.keys())
                .filter(|k| lx.get(*k) != ly.get(*k))
                .collect();
            keys.sort();
            keys.dedup();
            let shown: Vec<Both> = keys
                .iter()
                .take(3)
                .map(|k| {
                    let v = |m: &BTreeMap<String, String>| {
                        Both::same(m.get(*k).map(|v| short(v)).unwrap_or_else(|| "—".into()))
                    };
                    let key = Both::same(format!(
                        "`{}`",
                        if k.is_empty() { "data" } else { k.as_str() }
                    ));
                    sentence("leaf", &[("key", &key), ("from", &v(&lx)), ("to", &v(&ly))])
                })
                .collect();
            let mut data = Both::join(&shown, &words.fill("diff", "and", &[]));
            if keys.len() > 3 {
                data.push(&sentence(
                    "more",
                    &[("n", &Both::same((keys.len() - 3).to_string()))],
                ));
            }
            if x.summary == y.summary {
                sentence(
                    "data_differs",
                    &[("summary", &y.summary_both()), ("data", &data)],
                )
            } else {
                sentence(
                    "summary_differs",
                    &[
                        ("summary", &y.summary_both()),
                        ("before", &x.summary_both()),
                        ("data", &data),
                    ],
                )
            }
        }
        (None, None) => Both::default(),
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
        text: text.en,
        text_zh: text.zh,
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
/// encodes (`unencoded_differences` of `edition.yaml`, or of an overlay), with the id of the
/// rule set whose numbering their articles are in: the base's, or the overlay rule set's
/// (`EDITION+OVERLAY`: the event's own items).
pub fn unencoded_differences<'e>(
    a: &'e Edition,
    b: &'e Edition,
) -> Vec<(&'e str, &'e crate::spec::UnencodedDifference)> {
    [(a, b), (b, a)]
        .into_iter()
        .filter(|(x, y)| x.derives_from.as_deref() == Some(y.id.as_str()) && y.id != x.id)
        .flat_map(|(x, y)| {
            let numbered = if x.id.contains('+') { &x.id } else { &y.id };
            x.unencoded_differences
                .iter()
                .map(move |u| (numbered.as_str(), u))
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
    let named = unencoded_differences(&ea, &eb);
    let doc = markdown::Doc {
        spec,
        a,
        b,
        ea: &ea,
        eb: &eb,
        clauses: &clauses,
        behaviour: &behaviour,
        changes: &changes,
        assumed,
        named: &named,
    };
    let (markdown, diagrams) = doc.render(&mut Compiled::new(spec));
    let figures = doc.figures();
    let unencoded = named
        .into_iter()
        .map(|(base, u)| (base.to_string(), u.clone()))
        .collect();
    Ok(DiffReport {
        markdown,
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
        let shown = |s: &Shown| json!({"json": serde_json::from_str::<Value>(&s.text).unwrap_or(Value::String(s.text.clone())), "text": s.readable.en, "text_zh": s.readable.zh, "from": s.from});
        let names: Vec<String> = self.diagrams.iter().map(|(n, _)| n.clone()).collect();
        json!({
            "from": self.from,
            "to": self.to,
            "certainties": Certainty::ALL.iter().map(|c| json!({"certainty": c.name(), "label": c.label(), "clauses": count(*c)})).collect::<Vec<_>>(),
            "kinds": kinds.iter().map(|k| (k.name().to_string(), json!(self.clauses.iter().filter(|d| d.kind == *k).count()))).collect::<serde_json::Map<_, _>>(),
            "assumed": {"from": assumed(&self.assumed.0), "to": assumed(&self.assumed.1)},
            "changes": self.changes.iter().map(|c| json!({
                "clause": c.clause, "kind": c.kind.name(), "certainty": c.certainty.name(), "certainty_label": c.certainty.label(),
                "article_from": c.articles.0, "article_to": c.articles.1, "text": c.text, "text_zh": c.text_zh, "sources": c.sources,
            })).collect::<Vec<_>>(),
            "unencoded_changes": self.unencoded.iter().map(|(base, u)| json!({
                "articles": u.articles, "in": base, "text": u.summary, "text_zh": u.summary_zh, "why": u.why, "certainty": unencoded_certainty(u).name(),
                "certainty_label": unencoded_certainty(u).label(), "sources": [u.provenance.source.clone()],
            })).collect::<Vec<_>>(),
            "clauses": self.clauses.iter().map(|d| json!({
                "id": d.id, "kind": d.kind.name(), "certainty": d.certainty.name(), "certainty_label": d.certainty.label(),
                "article_from": d.a.as_ref().and_then(|c| c.article.clone()), "article_to": d.b.as_ref().and_then(|c| c.article.clone()),
                "summary_from": d.a.as_ref().map(|c| c.summary.clone()), "summary_to": d.b.as_ref().map(|c| c.summary.clone()),
                "summary_from_zh": d.a.as_ref().map(|c| c.summary_zh.clone()), "summary_to_zh": d.b.as_ref().map(|c| c.summary_zh.clone()),
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

#[cfg(test)]
mod tests {
    use super::behaviour::*;
    use super::markdown::*;
    use super::readable::clock_time;
    use super::*;

    /// Answers in words, not codes twice or raw values (issue 48), in both languages.
    #[test]
    fn answers_read_in_words() {
        let spec = Spec::builtin().unwrap();
        let w = spec.words();
        let both = |json: &str| {
            let b = readable_text(json, w);
            (b.en, b.zh)
        };
        let (en, zh) = both(
            r#"{"outcome":{"result":"black_wins","clause":"result.change_refused","article":"4.1.5","by":"board","event":11,"fouls":{"black":0,"red":0},"rulings":[{"decision":"must_change","side":"red","clause":"result.change_refused","event":7}]}}"#,
        );
        assert_eq!(en, "Black wins by result.change_refused (art. 4.1.5), found from the moves, at event 11, no fouls, rulings: (1) Red: must change by result.change_refused, at event 7");
        assert_eq!(zh, "黑胜，依`result.change_refused`（第 4.1.5 条），由着法判定，于第 11 项记录，无犯规，裁定：（1）红方：须变着，依`result.change_refused`，于第 7 项记录");
        assert_eq!(
            both(r#"{"outcome":{"result":"ongoing","clause":null,"fouls":{"black":0,"red":2}}}"#),
            (
                "the game goes on, fouls: Red 2, Black 0".into(),
                "对局继续，犯规：红方 2 次，黑方 0 次".into()
            )
        );
        assert_eq!(
            both(r#"{"verdict":"red_must_change"}"#),
            ("Red must change".into(), "红方须变着".into())
        );
        assert_eq!(
            both(r#"{"reject":"events.after_end"}"#),
            (
                "rejected: events.after_end".into(),
                "不予受理：`events.after_end`".into()
            )
        );
        // The clock's times as times, its keys in words.
        assert_eq!(
            both(r#"{"clock":{"final":{"black":1200000,"red":0},"flag":{"kind":"time","left":60000,"moves_made":1,"side":"red"}}}"#),
            (
                "final: (Black: 20:00, Red: 0:00), flag: (kind: time, left: 1:00, moves made: 1, side: Red)".into(),
                "终了钟面：（黑方：20:00，红方：0:00），超时：（种类：超时，剩余时间：1:00，已走着数：1，方：红方）".into()
            )
        );
        assert_eq!(clock_time(3_600_000), "1:00:00");
        assert_eq!(clock_time(30_250), "0:30.250");
        assert_eq!(clock_time(-5_000), "-0:05");
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
