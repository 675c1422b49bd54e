//! The checks of `xqspec cases check`: the suite's own ([`Suite::check`]) and those that
//! need the rule VM (canonical FENs, playable moves), run through the reference.

use crate::reference::{position, Reference};
use crate::spec::Spec;
use crate::vm::fen;

use super::case::{locate_key, Basis, Case, Expect, Expected, Problem, Runs};
use super::suite::{SpecFacts, Suite};
use crate::query::{Answer, Query};

/// Every problem of the suite: structure, vocabularies, spec, and the
/// reference checks (canonical FENs, playable moves).
pub fn check_suite(suite: &Suite, spec: &Spec) -> Vec<Problem> {
    let facts = SpecFacts::from_spec(spec);
    let mut problems = suite.check(&facts);
    if let Err(errors) = suite.reference_known_failures() {
        problems.extend(errors);
    }
    let reference = Reference::new(spec);
    for c in &suite.cases {
        let text = suite.texts.get(&c.path).map(String::as_str).unwrap_or("");
        problems.extend(reference_problems(&reference, c, text));
        problems.extend(answer_problems(&reference, spec, c, text));
    }
    problems.sort();
    problems.dedup();
    problems
}

/// The checks of `cases check` that need the rule VM: outside `validate_fen`
/// cases, FENs are canonical and the `moves` input is playable (unless the
/// case expects that very rejection).
pub(crate) fn reference_problems(reference: &Reference, case: &Case, text: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(fen) = case.input.get("fen").and_then(|v| v.as_str()) else {
        return out;
    };
    if case.query == "validate_fen" {
        return out;
    }
    let moves = crate::line::input_moves(&case.input);
    for edition in &case.editions {
        let Ok(rules) = reference.rules(edition) else {
            continue;
        };
        let expects_reject = matches!(case.expected(edition), Some(Expected::Reject(_)));
        match fen::parse(rules, fen) {
            Ok((pos, _)) => {
                let canonical = pos.to_fen(rules);
                if canonical != fen {
                    out.push(Problem::new(
                        &case.path,
                        locate_key(text, "input"),
                        format!("the FEN is not canonical; write `{canonical}`"),
                    ));
                    break;
                }
            }
            Err(e) if !expects_reject => {
                out.push(Problem::new(
                    &case.path,
                    locate_key(text, "input"),
                    format!("{edition}: the FEN is refused: {e}"),
                ));
                continue;
            }
            Err(_) => continue,
        }
        if !expects_reject {
            if let Err(a) = position(rules, fen, &moves) {
                out.push(Problem::new(
                    &case.path,
                    locate_key(text, "input"),
                    format!("{edition}: the moves cannot be played: {a}"),
                ));
            }
        }
    }
    out.dedup();
    out
}

/// The reference's answer to `input` for `case`'s query under `edition` (with the case's
/// overlay), as the protocol writes it.
fn reference_answer(
    reference: &Reference,
    spec: &Spec,
    case: &Case,
    edition: &str,
    input: &serde_json::Map<String, serde_json::Value>,
) -> Result<crate::query::Answer, String> {
    let query = Query::from_parts(&case.query, input)?;
    let overlay = case.overlay.as_deref().and_then(|o| spec.overlay(o));
    Ok(reference.answer_query(edition, overlay, &query))
}

/// The checks of `cases check` on the answers the reference gives: a `fixed:` input is
/// accepted wherever the case expects a rejection (so the fault the rejection names is the
/// only one); `runs: once` exactly when the reference answers alike under every rule set of
/// the case; a `rule` case cites a clause with an article in each of its rule sets (the
/// article a report quotes).
pub(crate) fn answer_problems(
    reference: &Reference,
    spec: &Spec,
    case: &Case,
    text: &str,
) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut push =
        |key: &str, m: String| out.push(Problem::new(&case.path, locate_key(text, key), m));
    let rejecting: Vec<&str> = case
        .expectations()
        .iter()
        .filter(|(_, e)| matches!(e, Expected::Reject(_)))
        .map(|(ed, _)| *ed)
        .collect();
    // A rejection that one rule set of the spec does not make (an edition difference) names
    // the input's one fault: that rule set's answer shows the input has no other.
    let accepted_elsewhere = || {
        case.overlay.is_none()
            && spec.editions().iter().any(|ed| {
                matches!(
                    reference_answer(reference, spec, case, &ed.id, &case.input),
                    Ok(Answer::Value(_))
                )
            })
    };
    if case.fixed.is_none() && !rejecting.is_empty() && !accepted_elsewhere() {
        push(
            "expect",
            "a case expecting a rejection gives `fixed:`, the input field that fixes the one fault it names (the input so fixed is accepted): one fault per case".into(),
        );
    }
    if let Some(fixed) = case.fixed_input() {
        for (edition, e) in case.expectations() {
            if !matches!(e, Expected::Reject(_)) {
                continue;
            }
            match reference_answer(reference, spec, case, edition, &fixed) {
                Ok(Answer::Value(_)) => {}
                Ok(a) => push(
                    "fixed",
                    format!(
                        "{edition}: the input with `fixed:` is still not accepted, so the case has another fault: {}",
                        a.display_sorted()
                    ),
                ),
                Err(m) => push("fixed", format!("{edition}: the input with `fixed:` is malformed: {m}")),
            }
        }
    }
    if case.editions.len() > 1 && matches!(case.expect, Expect::Same(_)) {
        let answers: Vec<Result<serde_json::Value, String>> = case
            .editions
            .iter()
            .map(|e| {
                reference_answer(reference, spec, case, e, &case.input)
                    .map(|a| crate::conform::protocol::answer_json(&a))
            })
            .collect();
        let alike = answers.iter().all(|a| a.is_ok() && a == &answers[0]);
        match (alike, case.runs) {
            (true, Runs::PerRuleSet) => push(
                "editions",
                format!(
                    "the reference answers alike under every rule set of the case ({}): add `runs: once`, so that it is asked and counted once",
                    case.editions.join(", ")
                ),
            ),
            (false, Runs::Once) => {
                let first = answers.iter().position(|a| a != &answers[0]).unwrap_or(0);
                push(
                    "runs",
                    format!(
                        "`runs: once`, but the reference answers otherwise under {} than under {}: the case runs under each rule set",
                        case.editions[first], case.editions[0]
                    ),
                )
            }
            _ => {}
        }
    }
    if case.basis == Some(Basis::Rule) {
        for e in &case.editions {
            let Some(ed) = spec.edition(e) else { continue };
            let quoted = case
                .clauses
                .iter()
                .any(|c| ed.clause(c).is_some_and(|c| c.article.is_some()));
            if !quoted {
                push(
                    "basis",
                    format!("a rule case cites a clause with an article in each of its rule sets; none has one in {e}"),
                );
            }
        }
    }
    out
}
