//! The checks of `xqspec cases check` that need no rule VM: each case against the closed
//! vocabularies and the spec's clause ids, and the suite's own tables.

use std::collections::{BTreeMap, BTreeSet};

use super::one_edit::one_edit;
use super::vocabulary::{QuerySpec, Vocabulary};
use super::Suite;
use crate::board::Move;
use crate::conform::case::{locate_in, locate_key, Basis, Case, Expected, Origin, Problem, Runs};
use crate::conform::judge::check_answer_value;
use crate::query::Query;

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

impl Suite {
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
    } else if matches!(case.expect, crate::conform::case::Expect::ByEdition(_)) {
        push(
            locate_key(text, "runs"),
            "`runs: once` says the answer is the same under every rule set: give one `expect`, not `expect_by_edition`".into(),
        );
    }
}

/// `fixed:` only on cases expecting a rejection: input fields of the query, one, changed in
/// one place (the fault the rejection names). Whether a case needs it, and that the input
/// so fixed is accepted, is checked against the reference ([`crate::conform::check`]).
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
    if let crate::conform::case::Expect::ByEdition(map) = &case.expect {
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
    let key = if matches!(case.expect, crate::conform::case::Expect::Same(_)) {
        "expect"
    } else {
        "expect_by_edition"
    };
    let mut all: Vec<&Expected> = match &case.expect {
        crate::conform::case::Expect::Same(e) => vec![e],
        crate::conform::case::Expect::ByEdition(m) => m.values().collect(),
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
