//! The one place where an answer is judged against an expectation ([`judge`]), and the
//! checks of answer values.

use serde_json::Value;

use super::case::Expected;
use crate::board::Move;
use crate::query::{answer_field, Answer};

/// The largest count the suite uses: integers stay exact in every JSON reader.
pub(crate) const MAX_COUNT: u64 = (1 << 53) - 1;

/// Checks the value of an answer field. `strict` (for case files) also
/// demands that move lists be sorted; answers may come in any order.
pub(crate) fn check_answer_value(
    field: &str,
    v: &Value,
    statuses: &[&str],
    strict: bool,
) -> Result<(), String> {
    match field {
        "moves" => {
            let list = v.as_array().ok_or("`moves` is a list of ICCS moves")?;
            let mut seen: Vec<&str> = Vec::with_capacity(list.len());
            for m in list {
                let m = m.as_str().ok_or("`moves` holds strings")?;
                if !Move::is_iccs(m) {
                    return Err(format!("`{m}` is not an ICCS move like `h2e2`"));
                }
                seen.push(m);
            }
            let mut sorted = seen.clone();
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return Err(format!("`{}` is listed twice", w[0]));
            }
            if strict && sorted != seen {
                return Err("`moves` is not sorted in ascending order".into());
            }
            Ok(())
        }
        "nodes" => match v.as_u64() {
            Some(n) if n <= MAX_COUNT => Ok(()),
            _ => Err("`nodes` is a non-negative integer below 2^53".into()),
        },
        "status" => match v.as_str() {
            Some(s) if statuses.contains(&s) => Ok(()),
            _ => Err(format!("`status` is one of {}", statuses.join(", "))),
        },
        "valid" => match v {
            Value::Bool(true) => Ok(()),
            _ => Err("`valid` is `true` (an invalid FEN is a rejection)".into()),
        },
        "move" => match v.as_str() {
            Some(s) if Move::is_iccs(s) => Ok(()),
            _ => Err("`move` is an ICCS move like `h2e2`".into()),
        },
        "text" => match v.as_str() {
            Some(s) if !s.is_empty() && !s.contains('\n') => Ok(()),
            _ => Err("`text` is a non-empty one-line string".into()),
        },
        // The answers of the rule domains (ruling, outcome, clock, standings …) are objects;
        // expectations give the part of the object they check. What a verdict rests on
        // (`basis`, `rests_on`: PROTOCOL.md) is checked wherever an answer gives it.
        other if DOMAIN_ANSWER_FIELDS.contains(&other) => match v {
            Value::Object(m) => {
                check_basis(other, m)?;
                check_verdict_only(other, m)
            }
            _ => Err(format!("`{other}` is an object")),
        },
        other => Err(format!("`{other}` is not an answer field")),
    }
}

/// `basis` and `rests_on`, where an answer object gives either: `basis` is `text` with
/// `rests_on` empty, or `inferred` with the readings it rests on (named once each).
fn check_basis(field: &str, m: &serde_json::Map<String, Value>) -> Result<(), String> {
    let (basis, rests_on) = (m.get("basis"), m.get("rests_on"));
    if basis.is_none() && rests_on.is_none() {
        return Ok(());
    }
    let names: Vec<&str> = match rests_on {
        Some(Value::Array(l)) => l
            .iter()
            .map(|v| {
                v.as_str()
                    .filter(|s| !s.is_empty())
                    .ok_or(format!("`{field}.rests_on` lists readings by name"))
            })
            .collect::<Result<_, _>>()?,
        _ => {
            return Err(format!(
                "`{field}.rests_on` is a list of reading names, given with `basis`"
            ))
        }
    };
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != names.len() {
        return Err(format!("`{field}.rests_on` names a reading twice"));
    }
    match (basis.and_then(Value::as_str), names.is_empty()) {
        (Some("text"), true) | (Some("inferred"), false) => Ok(()),
        (Some("text"), false) => Err(format!(
            "`{field}.basis` is `text`, but `rests_on` names readings"
        )),
        (Some("inferred"), true) => Err(format!(
            "`{field}.basis` is `inferred`, but `rests_on` is empty"
        )),
        _ => Err(format!("`{field}.basis` is `text` or `inferred`")),
    }
}

/// `verdict_only` (a `ruling` answer that shows the verdict alone, as an engine's search
/// score does): `true` with a `verdict` and without the plies and patterns it cannot show.
fn check_verdict_only(field: &str, m: &serde_json::Map<String, Value>) -> Result<(), String> {
    match m.get("verdict_only") {
        None | Some(Value::Bool(false)) => Ok(()),
        Some(Value::Bool(true)) if field != "ruling" => Err(format!(
            "`{field}.verdict_only` belongs to `ruling` answers"
        )),
        Some(Value::Bool(true)) => {
            if !m.get("verdict").is_some_and(Value::is_string) {
                return Err("a `verdict_only` ruling gives its `verdict`".into());
            }
            match ["plies", "patterns"].iter().find(|k| m.contains_key(**k)) {
                Some(k) => Err(format!(
                    "a `verdict_only` ruling shows no `{k}` (it shows the verdict alone)"
                )),
                None => Ok(()),
            }
        }
        Some(_) => Err(format!("`{field}.verdict_only` is true or false")),
    }
}

/// Whether a `ruling` answer shows the verdict alone (`verdict_only: true`).
fn is_verdict_only(got: &Value) -> bool {
    got.get("verdict_only") == Some(&Value::Bool(true))
}

/// What a verdict-only answer can tell of a verdict: who may not complete the cycle.
/// `X_must_change` and `X_loses` are one to an engine's score (X loses if it repeats).
fn who_may_not_repeat(verdict: &Value) -> Value {
    match verdict.as_str() {
        Some(v) => Value::String(v.replace("_loses", "_must_change")),
        None => verdict.clone(),
    }
}

/// Judges a verdict-only `ruling` answer on the expectation's verdict alone (see
/// [`who_may_not_repeat`]); a case that checks no verdict is not judged (skipped).
fn judge_verdict_only(want: &Value, got: &Value) -> Judgement {
    let Some(w) = want.get("verdict") else {
        return Judgement::Skip(
            "the case checks the moves' classes, which a verdict-only answer does not show".into(),
        );
    };
    let g = got.get("verdict").unwrap_or(&Value::Null);
    if who_may_not_repeat(w) == who_may_not_repeat(g) {
        Judgement::Pass
    } else {
        Judgement::Fail(format!("ruling.verdict: expected {w}, got {g}"))
    }
}

/// For a case judged on less than it checks, what was left out: a verdict-only `ruling`
/// answer (an engine's score) against a case that also checks plies or patterns, or that
/// tells `X_loses` from `X_must_change`. The runner writes it as the detail of the case.
pub(crate) fn partial_judgement(
    query: &str,
    expected: &Expected,
    answer: &Answer,
) -> Option<String> {
    let (Expected::Answer(want), Answer::Value(got)) = (expected, answer) else {
        return None;
    };
    let field = answer_field(query)?;
    let (want, got) = (want.get(field)?, got.get(field)?);
    if field != "ruling" || !is_verdict_only(got) {
        return None;
    }
    let mut left: Vec<&str> = ["plies", "patterns"]
        .into_iter()
        .filter(|k| want.get(*k).is_some())
        .collect();
    if want
        .get("verdict")
        .and_then(Value::as_str)
        .is_some_and(|v| v.ends_with("_loses"))
    {
        left.push("loses rather than must change");
    }
    (!left.is_empty()).then(|| {
        format!(
            "judged on the verdict alone (a verdict-only answer): not compared: {}",
            left.join(", ")
        )
    })
}

/// Answer fields whose value is an object compared by [`subset_difference`].
pub(crate) use crate::answer::DOMAIN_ANSWER_FIELDS;

/// Where `got` departs from `want`, or `None` when every part of `want` is in `got`:
/// objects compare key by key on the keys `want` names (an answer may carry more),
/// lists item by item with equal lengths, scalars by equality. `path` names the place.
pub(crate) fn subset_difference(want: &Value, got: &Value, path: &str) -> Option<String> {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w.iter().find_map(|(k, wv)| match g.get(k) {
            None => Some(format!("{path}.{k} is missing (expected {wv})")),
            Some(gv) => subset_difference(wv, gv, &format!("{path}.{k}")),
        }),
        (Value::Array(w), Value::Array(g)) if w.len() != g.len() => Some(format!(
            "{path} has {} items, expected {}: expected {want}, got {got}",
            g.len(),
            w.len()
        )),
        (Value::Array(w), Value::Array(g)) => w
            .iter()
            .zip(g)
            .enumerate()
            .find_map(|(i, (wv, gv))| subset_difference(wv, gv, &format!("{path}[{i}]"))),
        _ if want == got => None,
        _ => Some(format!("{path}: expected {want}, got {got}")),
    }
}

/// The outcome of judging one answer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Judgement {
    Pass,
    /// A wrong answer, with a readable difference.
    Fail(String),
    /// The implementation declined (`unsupported`).
    Skip(String),
    /// The implementation reported an error, or answered in a malformed way.
    Error(String),
}

/// Judges `answer` against `expected` for `query`. The only comparison in xqspec:
/// the harness, the runner and the Rust implementers' harness all call it.
pub(crate) fn judge(query: &str, expected: &Expected, answer: &Answer) -> Judgement {
    match (expected, answer) {
        (_, Answer::Unsupported { reason }) => Judgement::Skip(reason.clone()),
        (_, Answer::Error { message }) => Judgement::Error(message.clone()),
        (Expected::Reject(want), Answer::Reject { kind, .. }) => {
            let family = want.split('.').next().unwrap_or(want);
            if kind == want || kind == family {
                Judgement::Pass
            } else {
                Judgement::Fail(format!("expected reject {want}, got reject {kind}"))
            }
        }
        (Expected::Reject(want), Answer::Value(_)) => Judgement::Fail(format!(
            "expected reject {want}, got {}",
            answer.display_sorted()
        )),
        (Expected::Answer(_) | Expected::OneOf(_), Answer::Reject { kind, message }) => {
            let m = if message.is_empty() {
                String::new()
            } else {
                format!(" ({message})")
            };
            Judgement::Fail(format!(
                "expected {}, got reject {kind}{m}",
                shown(expected)
            ))
        }
        (Expected::OneOf(wants), Answer::Value(got)) => {
            for want in wants {
                match judge_value(query, want, got) {
                    Judgement::Fail(_) => {}
                    other => return other,
                }
            }
            Judgement::Fail(format!(
                "expected {}, got {}",
                shown(expected),
                answer.display_sorted()
            ))
        }
        (Expected::Answer(want), Answer::Value(got)) => judge_value(query, want, got),
    }
}

/// An expectation as a failure's detail shows it: the answer, or `one of A, B`.
fn shown(expected: &Expected) -> String {
    match expected {
        Expected::OneOf(ws) => format!(
            "one of {}",
            ws.iter()
                .map(|w| Value::Object(w.clone()).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_value().to_string(),
    }
}

/// Judges an accepted answer's object `got` against one expected answer object `want`.
fn judge_value(
    query: &str,
    want: &serde_json::Map<String, Value>,
    got: &serde_json::Map<String, Value>,
) -> Judgement {
    const STATUSES: [&str; 4] = ["ongoing", "check", "checkmate", "stalemate"];
    let Some(field) = answer_field(query) else {
        return Judgement::Error(format!("no comparison is defined for query `{query}`"));
    };
    let Some(got_v) = got.get(field) else {
        return Judgement::Error(format!(
            "the answer has no `{field}` field: {}",
            Value::Object(got.clone())
        ));
    };
    if let Err(e) = check_answer_value(field, got_v, &STATUSES, false) {
        return Judgement::Error(format!("malformed answer: {e}"));
    }
    let want_v = &want[field];
    if field == "moves" {
        return compare_move_lists(want_v, got_v);
    }
    if field == "ruling" && is_verdict_only(got_v) {
        return judge_verdict_only(want_v, got_v);
    }
    if want_v.is_object() {
        return match subset_difference(want_v, got_v, field) {
            None => Judgement::Pass,
            Some(d) => Judgement::Fail(d),
        };
    }
    if want_v == got_v {
        Judgement::Pass
    } else {
        Judgement::Fail(format!("expected {field} {want_v}, got {got_v}"))
    }
}

fn compare_move_lists(want: &Value, got: &Value) -> Judgement {
    let as_set = |v: &Value| -> std::collections::BTreeSet<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m.as_str().map(str::to_string))
            .collect()
    };
    let (w, g) = (as_set(want), as_set(got));
    if w == g {
        return Judgement::Pass;
    }
    let missing: Vec<&str> = w.difference(&g).map(String::as_str).collect();
    let extra: Vec<&str> = g.difference(&w).map(String::as_str).collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing {}", missing.join(" ")));
    }
    if !extra.is_empty() {
        parts.push(format!("extra {}", extra.join(" ")));
    }
    Judgement::Fail(format!("moves differ: {}", parts.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn exp(v: Value) -> Expected {
        match v {
            Value::Object(m) => Expected::Answer(m),
            _ => panic!(),
        }
    }

    #[test]
    fn move_lists_compare_as_sets_and_report_differences() {
        let want = exp(json!({"moves": ["a0a1", "b0c2"]}));
        assert_eq!(
            judge("legal_moves", &want, &Answer::moves(["b0c2", "a0a1"])),
            Judgement::Pass
        );
        assert_eq!(
            judge("legal_moves", &want, &Answer::moves(["a0a1", "i0i1"])),
            Judgement::Fail("moves differ: missing b0c2; extra i0i1".into())
        );
        assert!(matches!(
            judge(
                "legal_moves",
                &want,
                &Answer::moves(["a0a1", "a0a1", "b0c2"])
            ),
            Judgement::Error(_)
        ));
        assert!(matches!(
            judge("legal_moves", &want, &Answer::moves(["A0-A1"])),
            Judgement::Error(_)
        ));
    }

    #[test]
    fn rejections_match_kind_or_family() {
        let want = Expected::Reject("fen.board_shape".into());
        assert_eq!(
            judge(
                "validate_fen",
                &want,
                &Answer::reject("fen.board_shape", "")
            ),
            Judgement::Pass
        );
        assert_eq!(
            judge("validate_fen", &want, &Answer::reject("fen", "bad")),
            Judgement::Pass
        );
        assert!(matches!(
            judge("validate_fen", &want, &Answer::reject("fen.syntax", "")),
            Judgement::Fail(_)
        ));
        assert!(matches!(
            judge("validate_fen", &want, &Answer::valid()),
            Judgement::Fail(_)
        ));
        let ok = exp(json!({"valid": true}));
        assert!(matches!(
            judge("validate_fen", &ok, &Answer::reject("fen.syntax", "x")),
            Judgement::Fail(_)
        ));
    }

    #[test]
    fn one_of_passes_any_of_its_answers() {
        let want =
            Expected::from_value(json!({"one_of": [{"text": "前仕退五"}, {"text": "仕六退五"}]}))
                .unwrap();
        for text in ["前仕退五", "仕六退五"] {
            let got = Answer::Value(json!({"text": text}).as_object().unwrap().clone());
            assert_eq!(judge("format_move", &want, &got), Judgement::Pass);
        }
        let other = Answer::Value(json!({"text": "仕四退五"}).as_object().unwrap().clone());
        assert_eq!(
            judge("format_move", &want, &other),
            Judgement::Fail(
                "expected one of {\"text\":\"前仕退五\"}, {\"text\":\"仕六退五\"}, got {\"text\":\"仕四退五\"}".into()
            )
        );
        for bad in [
            json!({"one_of": [{"text": "a"}]}),
            json!({"one_of": [{"text": "a"}, {"reject": "fen"}]}),
            json!({"one_of": [{"text": "a"}, {"move": "a0a1"}]}),
            json!({"one_of": [{"text": "a"}, {"text": "b"}], "text": "c"}),
        ] {
            assert!(Expected::from_value(bad.clone()).is_err(), "{bad}");
        }
    }

    #[test]
    fn scalars_and_skips() {
        let want = exp(json!({"nodes": 44}));
        assert_eq!(judge("perft", &want, &Answer::nodes(44)), Judgement::Pass);
        assert_eq!(
            judge("perft", &want, &Answer::nodes(45)),
            Judgement::Fail("expected nodes 44, got 45".into())
        );
        assert_eq!(
            judge("perft", &want, &Answer::unsupported("no")),
            Judgement::Skip("no".into())
        );
        assert!(matches!(
            judge("perft", &want, &Answer::status("check")),
            Judgement::Error(_)
        ));
        let st = exp(json!({"status": "check"}));
        assert!(matches!(
            judge("status", &st, &Answer::status("mate")),
            Judgement::Error(_)
        ));
    }

    #[test]
    fn objects_compare_on_the_parts_the_expectation_names() {
        let want = json!({"verdict": "draw", "plies": [{"class": "chase"}, {"class": "idle"}]});
        let got = json!({"verdict": "draw", "plies": [{"class": "chase", "targets": ["i9"]}, {"class": "idle"}], "clauses": []});
        assert_eq!(subset_difference(&want, &got, "ruling"), None);
        let bad = json!({"verdict": "draw", "plies": [{"class": "chase"}, {"class": "check"}]});
        assert_eq!(
            subset_difference(&want, &bad, "ruling").unwrap(),
            "ruling.plies[1].class: expected \"idle\", got \"check\""
        );
        let short = json!({"verdict": "draw", "plies": [{"class": "chase"}]});
        assert!(subset_difference(&want, &short, "ruling")
            .unwrap()
            .contains("has 1 items, expected 2"));
        let no_verdict = json!({"plies": [{"class": "chase"}, {"class": "idle"}]});
        assert!(subset_difference(&want, &no_verdict, "ruling")
            .unwrap()
            .contains("ruling.verdict is missing"));
        // What a verdict rests on is checked wherever an answer gives it.
        let ok = |v: Value| check_answer_value("ruling", &v, &[], false);
        assert!(ok(json!({"verdict": "draw"})).is_ok());
        assert!(ok(json!({"basis": "text", "rests_on": []})).is_ok());
        assert!(ok(json!({"basis": "inferred", "rests_on": ["flight_counts"]})).is_ok());
        assert!(ok(json!({"basis": "inferred", "rests_on": []}))
            .unwrap_err()
            .contains("empty"));
        assert!(ok(json!({"basis": "text", "rests_on": ["a"]}))
            .unwrap_err()
            .contains("names readings"));
        assert!(ok(json!({"basis": "text"}))
            .unwrap_err()
            .contains("list of reading names"));
        assert!(ok(json!({"basis": "maybe", "rests_on": []}))
            .unwrap_err()
            .contains("`text` or `inferred`"));
        assert!(ok(json!({"basis": "inferred", "rests_on": ["a", "a"]}))
            .unwrap_err()
            .contains("twice"));
    }

    #[test]
    fn a_verdict_only_ruling_is_judged_on_its_verdict() {
        let want = exp;
        let got = |v: Value| Answer::one("ruling", v);
        let full = want(json!({"ruling": {"verdict": "red_loses", "plies": [{"class": "check"}]}}));
        let shown =
            got(json!({"verdict": "red_must_change", "verdict_only": true, "cycle": [1, 4]}));
        // `X_loses` and `X_must_change` are one to a score; the plies are not compared.
        assert_eq!(judge("ruling", &full, &shown), Judgement::Pass);
        let note = partial_judgement("ruling", &full, &shown).unwrap();
        assert!(
            note.contains("plies, loses rather than must change"),
            "{note}"
        );
        // Without `verdict_only` the same answer fails on the missing plies.
        let plain = got(json!({"verdict": "red_must_change"}));
        assert!(matches!(judge("ruling", &full, &plain), Judgement::Fail(_)));
        assert_eq!(partial_judgement("ruling", &full, &plain), None);
        // A wrong verdict fails; a case checking only the verdict is judged in full.
        let draw = got(json!({"verdict": "draw", "verdict_only": true}));
        assert_eq!(
            judge("ruling", &full, &draw),
            Judgement::Fail("ruling.verdict: expected \"red_loses\", got \"draw\"".into())
        );
        let only = want(json!({"ruling": {"verdict": "draw"}}));
        assert_eq!(judge("ruling", &only, &draw), Judgement::Pass);
        assert_eq!(partial_judgement("ruling", &only, &draw), None);
        // A case that checks no verdict is not judged.
        let classes = want(json!({"ruling": {"plies": [{"class": "idle"}]}}));
        assert!(matches!(
            judge("ruling", &classes, &draw),
            Judgement::Skip(_)
        ));
        // A verdict-only answer shows no plies or patterns, and has a verdict.
        for bad in [
            json!({"verdict": "draw", "verdict_only": true, "plies": []}),
            json!({"verdict_only": true}),
            json!({"verdict": "draw", "verdict_only": "yes"}),
        ] {
            assert!(matches!(
                judge("ruling", &only, &got(bad)),
                Judgement::Error(_)
            ));
        }
    }
}
