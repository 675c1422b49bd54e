//! Bug reports fit to paste into a program's issue tracker: one failing case in the
//! program's own terms (the input, what was sent and what it printed, what it answered, what
//! is expected and why), and the failures of a run grouped, each group shown by its smallest
//! case.
//!
//! "The rules say" appears only for a case whose basis is `rule`, with the articles of the
//! clauses it cites (number and our one-line summary); a convention says it is the suite's
//! choice, an optional case names its feature.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::case::{Basis, Case};
use super::process::TranscriptLine;
use super::protocol::About;
use super::runner::{CaseResult, Tally};
use super::suite::Suite;
use crate::spec::Spec;

/// Who was run and how, for the report's header and its command to reproduce.
#[derive(Clone, Debug)]
pub struct Program<'a> {
    /// What the program said of itself.
    pub about: &'a About,
    /// How it is reached: `--adapter "python3 a.py"`, `--uci /usr/local/bin/pikafish`, or
    /// empty for the built-in reference.
    pub via: String,
}

/// Why the expected answer is what it is, in a report's words: the articles for a `rule`
/// case, else what kind of choice it is.
pub fn why(case: &Case, edition: &str, spec: &Spec, suite: &Suite) -> String {
    match case.basis {
        Some(Basis::Rule) => {
            let articles: Vec<String> = spec
                .edition(edition)
                .map(|ed| {
                    case.clauses
                        .iter()
                        .filter_map(|c| ed.clause(c))
                        .filter_map(|c| {
                            let art = c.article.as_deref()?;
                            Some(format!(
                                "art. {art} (`{}`): {}",
                                c.id,
                                c.summary().trim_end_matches('.')
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "the rules say so ({edition}): {}",
                if articles.is_empty() {
                    case.clauses.join(", ")
                } else {
                    articles.join("; ")
                }
            )
        }
        Some(Basis::Convention) => format!(
            "a convention of the xqspec suite, not a rule: the rulebook is silent on it or practice varies (the case cites {})",
            case.clauses.join(", ")
        ),
        Some(Basis::Optional) => {
            let features: Vec<String> = case
                .features
                .iter()
                .filter(|f| suite.vocabulary.optional_features.contains(*f))
                .map(|f| {
                    let d = suite.vocabulary.features.get(f).map_or("", String::as_str);
                    format!("`{f}` ({})", d.trim_end_matches('.'))
                })
                .collect();
            format!(
                "an optional feature, which a program may leave out (`--skip-feature`): {}",
                features.join(", ")
            )
        }
        None => "the case gives no basis".into(),
    }
}

/// The input of a case as a report shows it: the position (FEN, then moves) and the rest as
/// JSON.
fn input_lines(case: &Case, out: &mut String) {
    let input = &case.input;
    if let Some(fen) = input.get("fen").and_then(Value::as_str) {
        let _ = writeln!(out, "- position: FEN `{fen}`");
    }
    if let Some(moves) = input.get("moves").and_then(Value::as_array) {
        if !moves.is_empty() {
            let list: Vec<&str> = moves.iter().filter_map(Value::as_str).collect();
            let _ = writeln!(out, "- after the moves (ICCS): `{}`", list.join(" "));
        }
    }
    let rest: serde_json::Map<String, Value> = input
        .iter()
        .filter(|(k, _)| *k != "fen" && *k != "moves")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if !rest.is_empty() {
        let text = Value::Object(rest).to_string();
        let shown: String = text.chars().take(1500).collect();
        let more = if shown.len() < text.len() { " …" } else { "" };
        let _ = writeln!(out, "- input: `{}`{more}", shown.replace('`', "'"));
    }
}

/// The rule sets a result stands for, as a report says it.
fn rule_sets(r: &CaseResult) -> String {
    if r.rule_sets.len() > 1 {
        format!(
            "{} (the answer is the same under {})",
            r.edition,
            r.rule_sets.join(", ")
        )
    } else {
        r.edition.clone()
    }
}

/// The report of one result of `case`: what was asked, answered and expected, why, the
/// exchange with the program (`transcript`, when recorded) and how to reproduce it.
pub fn report(
    case: &Case,
    r: &CaseResult,
    program: &Program,
    spec: &Spec,
    suite: &Suite,
    transcript: &[TranscriptLine],
) -> String {
    let mut out = String::new();
    let verdict = match r.tally() {
        Tally::Passed => "passes",
        Tally::Skipped => "is skipped",
        Tally::NotAsked => "was not asked",
        _ => "fails",
    };
    let _ = writeln!(
        out,
        "### xqspec conformance: `{}` {verdict} on {} {}\n",
        case.id,
        program.about.name(),
        program.about.version()
    );
    let _ = writeln!(out, "{}\n", case.description.trim());
    let _ = writeln!(
        out,
        "- query: `{}` under rule set {}",
        case.query,
        rule_sets(r)
    );
    input_lines(case, &mut out);
    let _ = writeln!(out, "- expected: `{}`", r.expected.replace('`', "'"));
    let answered = if r.got.is_empty() {
        format!("{}: {}", r.status.name(), r.detail)
    } else {
        r.got.clone()
    };
    let _ = writeln!(out, "- answered: `{}`", answered.replace('`', "'"));
    if !r.got.is_empty() && !r.detail.is_empty() {
        let _ = writeln!(out, "- difference: {}", r.detail);
    }
    let _ = writeln!(out, "- why: {}", why(case, &r.edition, spec, suite));
    if let Some(note) = case.note.as_deref().filter(|n| !n.trim().is_empty()) {
        let _ = writeln!(out, "- the case's note: {}", note.trim());
    }
    if !transcript.is_empty() {
        let _ = writeln!(
            out,
            "\nWhat was sent to the program (→) and what it printed (←):\n\n```"
        );
        for l in transcript {
            let _ = writeln!(out, "{} {}", if l.sent { "→" } else { "←" }, l.text);
        }
        let _ = writeln!(out, "```");
    }
    let edition = if r.rule_sets.len() > 1 {
        String::new()
    } else {
        format!(" --edition {}", r.edition)
    };
    let _ = writeln!(
        out,
        "\nReproduce: `xqspec conform{}{} --issue {}{edition}` (the case: `conformance/{}`, xqspec suite {})",
        if program.via.is_empty() { "" } else { " " },
        program.via,
        case.id,
        case.path,
        super::suite::SUITE_VERSION
    );
    out
}

/// A failure's detail with its particulars taken out (quoted text, JSON, numbers, moves), so
/// that failures of one bug fall into one group.
pub fn detail_pattern(detail: &str) -> String {
    let mut out = String::new();
    let mut chars = detail.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                for d in chars.by_ref() {
                    if d == '"' {
                        break;
                    }
                }
                out.push_str("\"…\"");
            }
            '{' | '[' => {
                let close = if c == '{' { '}' } else { ']' };
                let mut depth = 1;
                for d in chars.by_ref() {
                    if d == c {
                        depth += 1;
                    } else if d == close {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                }
                out.push(c);
                out.push('…');
                out.push(close);
            }
            d if d.is_ascii_digit() => {
                while chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                    chars.next();
                }
                out.push('N');
            }
            other => out.push(other),
        }
    }
    // ICCS moves (`d9d8`) become `N`-free words; shorten what is left.
    out.chars().take(160).collect()
}

/// The failures of a run in groups (area, query, basis and the pattern of the detail), the
/// groups with most failures first, each with its results and the one to show: a `rule` case
/// before a convention or an optional one, then the smallest input, then the id.
pub fn failure_groups<'a>(
    results: &'a [CaseResult],
    suite: &'a Suite,
) -> Vec<(String, Vec<&'a CaseResult>, &'a CaseResult)> {
    let mut groups: BTreeMap<String, Vec<&CaseResult>> = BTreeMap::new();
    for r in results.iter().filter(|r| r.tally().fails()) {
        let query = suite.case(&r.id).map_or("", |c| c.query.as_str());
        let basis = r.basis.map_or("none", Basis::name);
        let key = format!(
            "{} · {query} · {basis} · {}",
            r.area,
            detail_pattern(if r.known_changed.is_some() {
                "a known failure changed"
            } else {
                &r.detail
            })
        );
        groups.entry(key).or_default().push(r);
    }
    let size = |r: &CaseResult| {
        let input = suite.case(&r.id).map_or(usize::MAX, |c| {
            Value::Object(c.input.clone()).to_string().len()
        });
        let basis = match r.basis {
            Some(Basis::Rule) => 0,
            Some(Basis::Convention) => 1,
            Some(Basis::Optional) => 2,
            None => 3,
        };
        (basis, input, r.id.clone(), r.edition.clone())
    };
    let mut out: Vec<(String, Vec<&CaseResult>, &CaseResult)> = groups
        .into_iter()
        .map(|(k, rs)| {
            let shown = *rs
                .iter()
                .min_by_key(|r| size(r))
                .expect("a group has results");
            (k, rs, shown)
        })
        .collect();
    out.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    out
}

/// The failure groups of a run as Markdown: per group its count and its smallest case's
/// report (no transcript: `--issue CASE` records one).
pub fn groups_markdown(
    results: &[CaseResult],
    suite: &Suite,
    spec: &Spec,
    program: &Program,
) -> String {
    let groups = failure_groups(results, suite);
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "## Failures by bug, each with its smallest case\n\nFailures of one area, query and basis whose details differ only in their particulars are one group; each is shown by its smallest case (a `rule` case first), ready to paste into the program's issue tracker.\n\n",
    );
    for (key, rs, shown) in &groups {
        let cases: std::collections::BTreeSet<&str> = rs.iter().map(|r| r.id.as_str()).collect();
        let _ = writeln!(
            out,
            "#### {} run{} of {} case{}: {key}\n",
            rs.len(),
            if rs.len() == 1 { "" } else { "s" },
            cases.len(),
            if cases.len() == 1 { "" } else { "s" }
        );
        if let Some(case) = suite.case(&shown.id) {
            out.push_str(&report(case, shown, program, spec, suite, &[]));
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_lose_their_particulars() {
        assert_eq!(
            detail_pattern("moves differ: missing d9d8; extra e9e8"),
            "moves differ: missing dNdN; extra eNeN"
        );
        assert_eq!(
            detail_pattern("expected {\"nodes\":44}, got reject fen.syntax (\"x\")"),
            "expected {…}, got reject fen.syntax (\"…\")"
        );
    }
}
