//! Known failures: the cases an implementation is known to fail, each with a reason and
//! the wrong answer it is expected to give instead (`answer:`). Format in
//! `conformance/README.md` ("Known failures"); `reference-known-failures.yaml` is the list of
//! xqspec's own reference.
//!
//! A listed case that passes fails the run, and so does one that fails otherwise than its
//! `answer:` says (`KnownAnswer::check`, through `judge`): the list stays true.
//! `failure_of` cuts an actual answer down to the parts a case's expectation names, which
//! is what `--write-known-failures` and `--update-known-failures` ([`update`]) write.

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use super::case::{read_yaml, Case, Expected, Problem, Runs};
use super::judge::{check_answer_value, judge, Judgement};
use super::runner::{CaseResult, Status};
use super::suite::Suite;
use crate::query::{answer_field, Answer};

/// The command that rewrites the answers of `conformance/reference-known-failures.yaml`.
pub const UPDATE_REFERENCE: &str =
    "cargo run -- conform --update-known-failures conformance/reference-known-failures.yaml";

/// The header of a written known-failures file.
pub(crate) const HEADER: &str = "\
# Known failures. Each entry needs a reason and an `answer:`, the answer given instead of the
# case's `expect` (the parts of it that the expectation names), or `{fault: crash}` (error,
# crash, timeout). The run fails if a listed case passes or fails otherwise than `answer:` says.
";

/// What a known failure answers instead of the case's expectation.
#[derive(Clone, Debug, PartialEq)]
pub enum KnownAnswer {
    /// An answer or a rejection in the shape of a case's `expect` (`{nodes: 43}`,
    /// `{ruling: {verdict: draw}}`, `{reject: fen}`), judged by `judge` on the parts it names.
    Answer(Expected),
    /// No answer, a fault: [`Status::Error`], [`Status::Crash`] or [`Status::Timeout`]
    /// (`{fault: crash}`).
    Fault(Status),
}

impl KnownAnswer {
    /// The answer as written in a known-failures file.
    pub fn to_value(&self) -> Value {
        match self {
            KnownAnswer::Answer(e) => e.to_value(),
            KnownAnswer::Fault(s) => json!({ "fault": s.name() }),
        }
    }

    /// Reads `answer:`.
    pub(crate) fn from_value(v: &Value) -> Result<KnownAnswer, String> {
        match v {
            Value::Object(m) if m.contains_key("fault") => {
                if m.len() != 1 {
                    return Err("an answer with `fault` has no other field".into());
                }
                match m["fault"].as_str() {
                    Some("error") => Ok(KnownAnswer::Fault(Status::Error)),
                    Some("crash") => Ok(KnownAnswer::Fault(Status::Crash)),
                    Some("timeout") => Ok(KnownAnswer::Fault(Status::Timeout)),
                    _ => Err("`fault` is one of error, crash, timeout".into()),
                }
            }
            Value::Object(_) => match Expected::from_value(v.clone()) {
                Ok(Expected::OneOf(_)) => {
                    Err("`answer` is the one answer given, not `one_of`".into())
                }
                Ok(e) => Ok(KnownAnswer::Answer(e)),
                Err(m) => Err(format!("`answer`: {m}")),
            },
            _ => Err(
                "`answer` is a mapping in the shape of the case's `expect` (`{nodes: 43}`, \
                      `{reject: fen.syntax}`), or `{fault: crash}`"
                    .into(),
            ),
        }
    }

    /// Whether a result of `query` that did not pass (its status, and the answer when
    /// there was one) is this known failure: `Err` says how it differs.
    pub fn check(
        &self,
        query: &str,
        status: Status,
        answer: Option<&Answer>,
    ) -> Result<(), String> {
        match (self, answer) {
            (KnownAnswer::Fault(want), _) if *want == status => Ok(()),
            (KnownAnswer::Fault(want), _) => {
                Err(format!("expected {}, got {}", want.name(), status.name()))
            }
            (KnownAnswer::Answer(want), Some(a)) => match judge(query, want, a) {
                Judgement::Pass => Ok(()),
                Judgement::Fail(d) | Judgement::Error(d) | Judgement::Skip(d) => Err(d),
            },
            (KnownAnswer::Answer(_), None) => Err(format!("no answer: {}", status.name())),
        }
    }
}

/// A result that did not pass, as a known failure's `answer:`: the answer cut down to the
/// parts `like` (the case's expectation, or a known answer) names ([`cut`]), the rejection,
/// or the fault. `None` for a pass or a skip.
pub(crate) fn failure_of(
    query: &str,
    like: &Expected,
    status: Status,
    answer: Option<&Answer>,
) -> Option<KnownAnswer> {
    match (status, answer) {
        (Status::Pass | Status::Skip | Status::NotAsked, _) => None,
        (Status::Fail, Some(Answer::Reject { kind, .. })) => {
            Some(KnownAnswer::Answer(Expected::Reject(kind.clone())))
        }
        (Status::Fail, Some(Answer::Value(got))) => {
            let field = answer_field(query)?;
            let got_v = got.get(field)?;
            let v = match (like, got_v) {
                (_, Value::Array(list)) if field == "moves" => {
                    let mut list = list.clone();
                    list.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                    Value::Array(list)
                }
                (Expected::Answer(_) | Expected::OneOf(_), _) => like.answers()[0]
                    .get(field)
                    .map_or_else(|| got_v.clone(), |l| cut(l, got_v)),
                (Expected::Reject(_), _) => got_v.clone(),
            };
            let mut m = Map::new();
            m.insert(field.to_string(), v);
            Some(KnownAnswer::Answer(Expected::Answer(m)))
        }
        (Status::Fail, _) => None,
        (s, _) => Some(KnownAnswer::Fault(s)),
    }
}

/// `got` cut down to the parts `like` names: an object keeps the keys of `like` that it has,
/// a list keeps its length with each item cut like the item of `like` at its place (or like
/// the last one), anything else is `got` itself. The result passes the subset comparison of
/// [`judge`] against `got`.
pub(crate) fn cut(like: &Value, got: &Value) -> Value {
    match (like, got) {
        (Value::Object(l), Value::Object(g)) => Value::Object(
            l.iter()
                .filter_map(|(k, lv)| g.get(k).map(|gv| (k.clone(), cut(lv, gv))))
                .collect(),
        ),
        (Value::Array(l), Value::Array(g)) if !l.is_empty() => Value::Array(
            g.iter()
                .enumerate()
                .map(|(i, gv)| cut(l.get(i).unwrap_or(&l[l.len() - 1]), gv))
                .collect(),
        ),
        _ => got.clone(),
    }
}

/// An expectation as the answer that would meet it (for checking a known answer against it).
fn as_answer(e: &Expected) -> Answer {
    match e {
        Expected::Answer(m) => Answer::Value(m.clone()),
        Expected::OneOf(ms) => Answer::Value(ms[0].clone()),
        Expected::Reject(k) => Answer::reject(k.clone(), ""),
    }
}

/// One entry of a known-failures file.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownFailure {
    /// The case's id.
    pub id: String,
    /// Only this edition; `None`: every edition of the case.
    pub edition: Option<String>,
    /// Why it fails.
    pub(crate) reason: String,
    /// The answer given instead of the expectation. Required in files; `None` (any failure)
    /// only for entries made in code, such as [`Harness::ignore`](super::harness::Harness::ignore).
    pub answer: Option<KnownAnswer>,
}

impl KnownFailure {
    /// Why it fails, as the list says.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

shapes! {
    struct RawKnownFailure {
        id: String,
        edition: Option<String>,
        reason: String,
        answer: Option<Value>,
    }
}

/// A known-failures file: cases expected to fail, each with a reason and its answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KnownFailures {
    /// The entries, in the file's order.
    pub entries: Vec<KnownFailure>,
}

/// 1-based lines of the top-level entries (`- id: …`), when there is one per entry.
fn entry_lines(text: &str, entries: usize) -> Option<Vec<usize>> {
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "-" || l.starts_with("- "))
        .map(|(i, _)| i + 1)
        .collect();
    (lines.len() == entries).then_some(lines)
}

/// Line and column of `key:` in the entry starting at `from` (ending before `to`), or the
/// entry's own line.
fn locate_in_entry(text: &str, from: usize, to: usize, key: &str) -> (usize, usize) {
    let needle = format!("{key}:");
    for (i, line) in text
        .lines()
        .enumerate()
        .skip(from - 1)
        .take(to.saturating_sub(from))
    {
        if let Some(c) = line.find(&needle) {
            return (i + 1, line[..c].chars().count() + 1);
        }
    }
    (from, 1)
}

impl KnownFailures {
    /// Parses the file and checks every entry against the suite: the case exists and applies
    /// to the edition, the reason is not empty, and `answer:` is there, in the shape of the
    /// case's expectation, and not the expectation itself.
    pub fn parse(file: &str, text: &str, suite: &Suite) -> Result<KnownFailures, Vec<Problem>> {
        Self::parse_inner(file, text, suite, true)
    }

    /// [`parse`](Self::parse) for `--update-known-failures`: `answer:` may be missing (and is
    /// not checked against the expectation), since it is about to be rewritten.
    pub fn parse_for_update(
        file: &str,
        text: &str,
        suite: &Suite,
    ) -> Result<KnownFailures, Vec<Problem>> {
        Self::parse_inner(file, text, suite, false)
    }

    fn parse_inner(
        file: &str,
        text: &str,
        suite: &Suite,
        strict: bool,
    ) -> Result<KnownFailures, Vec<Problem>> {
        let raw: Vec<RawKnownFailure> = read_yaml::<Option<Vec<RawKnownFailure>>>(file, text)
            .map_err(|p| vec![p])?
            .unwrap_or_default();
        let lines = entry_lines(text, raw.len());
        let mut errors = Vec::new();
        let mut entries = Vec::with_capacity(raw.len());
        for (i, k) in raw.into_iter().enumerate() {
            let (from, to) = match &lines {
                Some(l) => (l[i], l.get(i + 1).copied().unwrap_or(usize::MAX)),
                None => (0, 0),
            };
            let at = |key: &str| {
                if from == 0 {
                    (0, 0)
                } else {
                    locate_in_entry(text, from, to, key)
                }
            };
            let mut err = |place: (usize, usize), m: String| {
                errors.push(Problem::new(
                    file,
                    place,
                    format!("entry {} (`{}`): {m}", i + 1, k.id),
                ))
            };
            if k.reason.trim().is_empty() {
                err(at("reason"), "a known failure needs a reason".into());
            }
            let case = suite.case(&k.id);
            match case {
                None => err(at("id"), "no case has this id".into()),
                Some(c) => {
                    if let Some(e) = &k.edition {
                        if !c.editions.contains(e) {
                            err(at("edition"), format!("the case does not apply to {e}"));
                        } else if c.runs == Runs::Once {
                            err(
                                at("edition"),
                                "the case runs once for all its rule sets (`runs: once`): its entry names no edition".into(),
                            );
                        }
                    }
                }
            }
            let answer = match &k.answer {
                None if strict => {
                    err(
                        if from == 0 { (0, 0) } else { (from, 1) },
                        "a known failure needs an `answer:`: what is answered instead of the case's \
                         `expect`, in the same shape (`--write-known-failures FILE` writes it)"
                            .into(),
                    );
                    None
                }
                None => None,
                Some(v) => match KnownAnswer::from_value(v) {
                    Err(m) => {
                        err(at("answer"), m);
                        None
                    }
                    Ok(a) => {
                        if let Some(c) = case {
                            if let Err(m) =
                                check_answer_for(&a, c, k.edition.as_deref(), suite, strict)
                            {
                                err(at("answer"), m);
                            }
                        }
                        Some(a)
                    }
                },
            };
            entries.push(KnownFailure {
                id: k.id,
                edition: k.edition,
                reason: k.reason,
                answer,
            });
        }
        if errors.is_empty() {
            Ok(KnownFailures { entries })
        } else {
            Err(errors)
        }
    }

    /// The entry listing this case under this edition.
    pub(crate) fn entry(&self, id: &str, edition: &str) -> Option<&KnownFailure> {
        self.entries
            .iter()
            .find(|k| k.id == id && k.edition.as_deref().is_none_or(|e| e == edition))
    }

    /// The entry listing `case` run under `edition`; a case that runs once (`runs: once`)
    /// is listed without an edition, for all of them.
    pub(crate) fn entry_of(&self, case: &Case, edition: &str) -> Option<&KnownFailure> {
        match case.runs {
            Runs::Once => self.entries.iter().find(|k| k.id == case.id),
            Runs::PerRuleSet => self.entry(&case.id, edition),
        }
    }

    /// The reason given for the case under this edition, when it is listed.
    pub fn reason(&self, id: &str, edition: &str) -> Option<&str> {
        self.entry(id, edition).map(|k| k.reason.as_str())
    }
}

/// A known answer fits the case: the answer field of its query with a well-formed value,
/// and (`strict`) not what the case expects under an edition the entry covers.
fn check_answer_for(
    a: &KnownAnswer,
    case: &Case,
    edition: Option<&str>,
    suite: &Suite,
    strict: bool,
) -> Result<(), String> {
    let KnownAnswer::Answer(want) = a else {
        return Ok(());
    };
    if let Expected::Answer(m) = want {
        let field = suite
            .vocabulary
            .queries
            .get(&case.query)
            .map(|q| q.answer.as_str())
            .or_else(|| answer_field(&case.query));
        let (got, v) = m.iter().next().expect("Expected::Answer has one field");
        match field {
            Some(f) if f != got => {
                return Err(format!("`{}` answers with `{f}`, not `{got}`", case.query))
            }
            _ => {}
        }
        let statuses: Vec<&str> = suite
            .vocabulary
            .statuses
            .keys()
            .map(String::as_str)
            .collect();
        check_answer_value(got, v, &statuses, false)?;
    }
    if strict {
        for (e, x) in case.expectations() {
            if edition.is_some_and(|ed| ed != e) {
                continue;
            }
            let same = judge(&case.query, want, &as_answer(x)) == Judgement::Pass
                && judge(&case.query, x, &as_answer(want)) == Judgement::Pass;
            if same {
                return Err(format!(
                    "the answer is what the case expects under {e}; give the wrong answer it is known to give instead"
                ));
            }
        }
    }
    Ok(())
}

/// A JSON value as one line of flow-style YAML (`{ruling: {verdict: draw}}`): keys with
/// numbers first (`{ply: 3, class: idle}`), then other scalars, then lists and mappings;
/// strings plain where YAML reads them back unchanged, else quoted.
pub(crate) fn flow_yaml(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut items: Vec<(&String, &Value)> = m.iter().collect();
            items.sort_by_key(|(_, v)| match v {
                Value::Number(_) => 0,
                Value::Object(_) | Value::Array(_) => 2,
                _ => 1,
            });
            let inner: Vec<String> = items
                .iter()
                .map(|(k, v)| format!("{}: {}", flow_string(k), flow_yaml(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(flow_yaml).collect::<Vec<_>>().join(", ")
        ),
        Value::String(s) => flow_string(s),
        other => other.to_string(),
    }
}

fn flow_string(s: &str) -> String {
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
        && serde_yaml::from_str::<Value>(s).ok() == Some(Value::String(s.to_string()));
    if plain {
        s.to_string()
    } else {
        Value::String(s.to_string()).to_string()
    }
}

/// One entry in the written form.
pub(crate) fn entry_yaml(
    id: &str,
    edition: Option<&str>,
    reason: &str,
    answer: Option<&KnownAnswer>,
) -> String {
    let mut out = format!("- id: {id}\n");
    if let Some(e) = edition {
        let _ = writeln!(out, "  edition: {e}");
    }
    let _ = writeln!(out, "  reason: {}", Value::String(reason.to_string()));
    if let Some(a) = answer {
        let _ = writeln!(out, "  answer: {}", flow_yaml(&a.to_value()));
    }
    out
}

/// A known-failures file listing every case × edition that did not pass (skips aside), the
/// failure as a reason to be edited and the answer given as `answer:`.
pub fn known_failures_yaml(results: &[CaseResult]) -> String {
    let mut out = String::from(HEADER);
    for r in results.iter().filter(|r| r.failure.is_some()) {
        let reason: String = format!("{}: {}", r.status.name(), r.detail)
            .chars()
            .take(200)
            .collect();
        // A case run once stands for all its rule sets: its entry names none.
        let edition = (r.runs == Runs::PerRuleSet).then_some(r.edition.as_str());
        out.push_str(&entry_yaml(&r.id, edition, &reason, r.failure.as_ref()));
    }
    out
}

/// A known-failures file rewritten from a run made against it (`--update-known-failures`).
pub struct Updated {
    /// The new text: the old header comment, the entries in their order with their reasons,
    /// every `answer:` the one now given.
    pub text: String,
    /// What else changed, one line each: entries removed because their cases pass, entries
    /// split by edition because the editions fail differently.
    pub notes: Vec<String>,
}

/// Rewrites the known-failures file `text` (entries `known`, as parsed from it) from `results`,
/// a run against it. Entries whose cases were not run are kept as they are.
pub fn update(text: &str, known: &KnownFailures, results: &[CaseResult]) -> Updated {
    let header: String = text
        .lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = if header.trim().is_empty() {
        HEADER.to_string()
    } else {
        header
    };
    let mut notes = Vec::new();
    for k in &known.entries {
        let runs: Vec<&CaseResult> = results
            .iter()
            .filter(|r| r.id == k.id && k.edition.as_deref().is_none_or(|e| e == r.edition))
            .collect();
        if runs.is_empty() {
            out.push_str(&entry_yaml(
                &k.id,
                k.edition.as_deref(),
                &k.reason,
                k.answer.as_ref(),
            ));
            continue;
        }
        let failing: Vec<&CaseResult> = runs
            .iter()
            .copied()
            .filter(|r| r.failure.is_some())
            .collect();
        let passing: Vec<&str> = runs
            .iter()
            .filter(|r| r.status == Status::Pass)
            .map(|r| r.edition.as_str())
            .collect();
        let one_answer = failing.windows(2).all(|w| w[0].failure == w[1].failure);
        if failing.is_empty() {
            if !passing.is_empty() {
                notes.push(format!(
                    "removed {} ({}): it passes",
                    k.id,
                    passing.join(", ")
                ));
                continue;
            }
            // Skipped only: nothing learnt, keep the entry.
            out.push_str(&entry_yaml(
                &k.id,
                k.edition.as_deref(),
                &k.reason,
                k.answer.as_ref(),
            ));
        } else if k.edition.is_some() || (passing.is_empty() && one_answer) {
            out.push_str(&entry_yaml(
                &k.id,
                k.edition.as_deref(),
                &k.reason,
                failing[0].failure.as_ref(),
            ));
        } else {
            let eds: Vec<&str> = failing.iter().map(|r| r.edition.as_str()).collect();
            let mut note = format!(
                "split {} into one entry per failing edition ({})",
                k.id,
                eds.join(", ")
            );
            if !passing.is_empty() {
                let _ = write!(note, "; it passes under {}", passing.join(", "));
            }
            notes.push(note);
            for r in failing {
                out.push_str(&entry_yaml(
                    &k.id,
                    Some(&r.edition),
                    &k.reason,
                    r.failure.as_ref(),
                ));
            }
        }
    }
    Updated { text: out, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_yaml_reads_back_as_the_same_value() {
        let v = json!({"ruling": {"verdict": "draw", "plies": [{"ply": 1, "class": "chase"}, {"ply": 2, "family": "idle"}],
            "odd": ["true", "null", "1.5", "a: b", "x,y", "长捉", "", "say \"hi\"", "fen.syntax"], "n": null, "b": false}});
        let text = flow_yaml(&v);
        assert_eq!(serde_yaml::from_str::<Value>(&text).unwrap(), v, "{text}");
        assert_eq!(
            flow_yaml(
                &json!({"ruling": {"verdict": "draw", "plies": [{"ply": 3, "class": "idle"}]}})
            ),
            "{ruling: {verdict: draw, plies: [{ply: 3, class: idle}]}}"
        );
    }

    #[test]
    fn a_failure_is_cut_down_to_the_parts_the_expectation_names() {
        let like = Expected::from_value(json!({"ruling": {"verdict": "draw", "plies": [{"ply": 1, "class": "chase"}, {"ply": 2, "family": "idle"}]}})).unwrap();
        let got = Answer::one(
            "ruling",
            json!({"verdict": "red_must_change", "clauses": [], "plies": [
                {"ply": 1, "class": "idle", "family": "idle", "move": "b7b6"},
                {"ply": 2, "class": "block", "family": "idle", "move": "c7a8"},
                {"ply": 3, "class": "chase", "family": "attack", "move": "b6b7"}]}),
        );
        let f = failure_of("ruling", &like, Status::Fail, Some(&got)).unwrap();
        assert_eq!(
            f.to_value(),
            json!({"ruling": {"verdict": "red_must_change", "plies": [
                {"ply": 1, "class": "idle"}, {"ply": 2, "family": "idle"}, {"ply": 3, "family": "attack"}]}})
        );
        assert_eq!(f.check("ruling", Status::Fail, Some(&got)), Ok(()));
        let nodes = Expected::from_value(json!({"nodes": 44})).unwrap();
        assert_eq!(
            failure_of("perft", &nodes, Status::Crash, None),
            Some(KnownAnswer::Fault(Status::Crash))
        );
        assert_eq!(
            failure_of(
                "perft",
                &nodes,
                Status::Fail,
                Some(&Answer::reject("fen.syntax", "x"))
            ),
            Some(KnownAnswer::Answer(Expected::Reject("fen.syntax".into())))
        );
        assert_eq!(
            failure_of("perft", &nodes, Status::Pass, Some(&Answer::nodes(44))),
            None
        );
        let wrong = KnownAnswer::Answer(Expected::from_value(json!({"nodes": 43})).unwrap());
        assert_eq!(
            wrong.check("perft", Status::Fail, Some(&Answer::nodes(42))),
            Err("expected nodes 43, got 42".into())
        );
        assert_eq!(
            wrong.check("perft", Status::Crash, None),
            Err("no answer: crash".into())
        );
        assert_eq!(
            KnownAnswer::Fault(Status::Crash).check("perft", Status::Timeout, None),
            Err("expected crash, got timeout".into())
        );
    }
}
