//! The checks of `xqspec cases check`: the suite's own ([`Suite::check`]) and those that
//! need the rule VM (canonical FENs, playable moves), run through the reference.

use crate::fen;
use crate::reference::{position, Reference};
use crate::spec::Spec;

use super::case::{locate_key, Case, Expected, Problem};
use super::suite::{SpecFacts, Suite};

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
    let moves: Vec<String> = case
        .input
        .get("moves")
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
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
