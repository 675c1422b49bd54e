//! The behaviour differences of two rule sets: the cases that answer differently, and the
//! clauses that cause each difference (by the case's citations, and by experiment: B
//! recompiled with A's version of one clause).

use super::*;

/// A rule set id split into its edition and overlay (`cxa-2011+provincial-2012-open`).
pub(super) fn parts(id: &str) -> (&str, Option<&str>) {
    match id.split_once('+') {
        Some((e, o)) => (e, Some(o)),
        None => (id, None),
    }
}

/// The expectation a case writes for rule set `id`, if it applies to it by its own
/// editions and overlay.
pub(super) fn written<'c>(case: &'c Case, id: &str) -> Option<&'c Expected> {
    let (edition, overlay) = parts(id);
    (case.overlay.as_deref() == overlay)
        .then(|| case.expected(edition))
        .flatten()
}

/// Whether a case applies to rule set `id`: its editions include the rule set's edition,
/// and it names the rule set's overlay or none (a case for an edition also applies to
/// the edition with an overlay, answered by the reference).
pub(super) fn applies(case: &Case, id: &str) -> bool {
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
pub(super) struct Compiled<'s> {
    spec: &'s Spec,
    cache: BTreeMap<String, Result<Arc<RuleSet>, String>>,
    /// B with one clause put back as A has it, by clause id (`None`: does not compile).
    reverted: BTreeMap<String, Option<Arc<RuleSet>>>,
}

impl<'s> Compiled<'s> {
    pub(super) fn new(spec: &'s Spec) -> Compiled<'s> {
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

    pub(super) fn get(&mut self, id: &str) -> Result<Arc<RuleSet>, String> {
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
        // The side written for (`e`) answered `mine`, the other `theirs`: the written answer
        // where the reference passes it, and the other side's answer, when they differ.
        let one_written = |e: &Expected, mine: &Answer, theirs: &Answer| {
            let shown_mine = if judge(&case.query, e, mine) == Judgement::Pass {
                written_shown(e)
            } else {
                computed(mine, e)
            };
            (computed(mine, e).text != computed(theirs, e).text)
                .then(|| (shown_mine, computed(theirs, e)))
        };
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
                one_written(ea, &x, &y)
            }
            (None, Some(eb)) => {
                let (x, y) = (compiled.answer(a, case), compiled.answer(b, case));
                one_written(eb, &y, &x).map(|(shown_b, shown_a)| (shown_a, shown_b))
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
