//! `reports/qili-conditions.md`: every condition of the 棋例 texts
//! (`conformance/qili-conditions.yaml`), its sentence, the cases where it holds and where it
//! just fails, and whether the reference passes them. A condition with no case, or with
//! cases of one sign only, is a gap, unless the file says why no position can show it (a
//! named gap). Whether a case passes is read from the reference's known failures, which the
//! suite keeps exact (`cargo test` fails on a listed case that passes or an unlisted one that
//! fails).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::conform::case::Case;
use crate::conform::conditions::Condition;
use crate::conform::suite::Suite;
use crate::markdown::cell;

/// How a condition stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Standing {
    /// A case where it holds and one where it just fails, every one passing.
    Shown,
    /// Cases of both signs, some a known failure of the reference.
    Failing,
    /// No case, or cases of one sign only.
    Gap,
    /// No position can show it, for the reason the file gives.
    Named,
}

/// The counts the report opens with, for the README's index.
struct Figures {
    conditions: usize,
    shown: usize,
    failing: usize,
    gaps: usize,
    named: usize,
}

/// The cases of every condition, by sign, and which cases the reference passes.
struct Shown<'s> {
    known: crate::conform::known::KnownFailures,
    holds: BTreeMap<&'s str, Vec<&'s Case>>,
    fails: BTreeMap<&'s str, Vec<&'s Case>>,
}

impl<'s> Shown<'s> {
    fn of(suite: &'s Suite) -> Shown<'s> {
        let mut holds: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
        let mut fails: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
        for c in &suite.cases {
            for id in &c.conditions.holds {
                holds.entry(id).or_default().push(c);
            }
            for id in &c.conditions.fails {
                fails.entry(id).or_default().push(c);
            }
        }
        Shown {
            known: suite.reference_known_failures().unwrap_or_default(),
            holds,
            fails,
        }
    }

    /// Whether the reference passes every run of the case.
    fn passes(&self, c: &Case) -> bool {
        !c.editions
            .iter()
            .any(|e| self.known.entry(&c.id, e).is_some())
    }

    fn standing(&self, cond: &Condition) -> Standing {
        let (h, f) = (
            self.holds
                .get(cond.id.as_str())
                .map_or(&[][..], Vec::as_slice),
            self.fails
                .get(cond.id.as_str())
                .map_or(&[][..], Vec::as_slice),
        );
        if h.is_empty() || f.is_empty() {
            if cond.no_position.is_some() {
                Standing::Named
            } else {
                Standing::Gap
            }
        } else if h.iter().chain(f).all(|c| self.passes(c)) {
            Standing::Shown
        } else {
            Standing::Failing
        }
    }

    /// The cases, linked, each marked passing or not; `–` for none.
    fn list(&self, cases: Option<&Vec<&Case>>) -> String {
        match cases {
            None => "–".to_string(),
            Some(cs) => cs
                .iter()
                .map(|c| {
                    format!(
                        "[`{}`](../conformance/{}){}",
                        c.id,
                        c.path,
                        if self.passes(c) { " ✓" } else { " ✗" }
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// The report's Markdown and its headline figures.
pub(crate) fn report(suite: &Suite) -> (String, String) {
    let shown = Shown::of(suite);
    let all: Vec<Standing> = suite
        .conditions
        .all()
        .map(|(_, c)| shown.standing(c))
        .collect();
    let count = |s: Standing| all.iter().filter(|x| **x == s).count();
    let fig = Figures {
        conditions: all.len(),
        shown: count(Standing::Shown),
        failing: count(Standing::Failing),
        gaps: count(Standing::Gap),
        named: count(Standing::Named),
    };
    let mut out = head(suite, &shown, &fig);
    for t in &suite.conditions.texts {
        text_section(t, &shown, &mut out);
    }
    let figures = format!(
        "{} conditions; {} shown, {} with a failing case, {} gaps, {} named gaps",
        fig.conditions, fig.shown, fig.failing, fig.gaps, fig.named
    );
    (out, figures)
}

/// The title, the figures, what the report is, and the table of texts.
fn head(suite: &Suite, shown: &Shown, fig: &Figures) -> String {
    let naming: Vec<&Case> = suite
        .cases
        .iter()
        .filter(|c| !c.conditions.is_empty())
        .collect();
    let mut out = String::new();
    out.push_str("# 棋例 conditions: every sentence of the texts, with its cases\n\n");
    let _ = writeln!(
        out,
        "{} conditions in {} texts: {} shown (a case where the condition holds and one where it just fails, every one passing), {} with a failing case, {} gaps (no case, or cases of one sign only), {} named gaps (no position can show them, for the reason given).",
        fig.conditions,
        suite.conditions.texts.len(),
        fig.shown,
        fig.failing,
        fig.gaps,
        fig.named
    );
    let _ = writeln!(
        out,
        "{} case files name a condition; {} of them pass in the reference, {} are known failures of it.\n",
        naming.len(),
        naming.iter().filter(|c| shown.passes(c)).count(),
        naming.iter().filter(|c| !shown.passes(c)).count()
    );
    out.push_str(
        "Generated by `xqspec report --write` from `conformance/qili-conditions.yaml` and the cases; do not edit. \
         Every sentence of the 棋例 texts we have is split into its conditions (test262's method: from a sentence to \
         the cases that exercise it); a case names, in its `conditions:`, those that hold in its position and those \
         that just fail there. A case passes when the reference passes every run of it: the reference runs against \
         `conformance/reference-known-failures.yaml`, which `cargo test` keeps exact.\n\n",
    );
    out.push_str("| text | source | rule sets | conditions | shown | failing | gaps | named gaps |\n|---|---|---|---:|---:|---:|---:|---:|\n");
    for t in &suite.conditions.texts {
        let n = |s: Standing| {
            t.conditions
                .iter()
                .filter(|c| shown.standing(c) == s)
                .count()
        };
        let _ = writeln!(
            out,
            "| [{}](#{}) | [`{}`](sources.md#{}) | {} | {} | {} | {} | {} | {} |",
            cell(&t.text),
            anchor(&t.text),
            t.source,
            t.source,
            t.editions.join(", "),
            t.conditions.len(),
            n(Standing::Shown),
            n(Standing::Failing),
            n(Standing::Gap),
            n(Standing::Named)
        );
    }
    out
}

/// A text's section: its conditions, each with its sentence, its cases by sign and its
/// standing.
fn text_section(t: &crate::conform::conditions::Text, shown: &Shown, out: &mut String) {
    let _ = writeln!(
        out,
        "\n## {}\n\nRead in [`{}`](sources.md#{}); the rule of {}.\n",
        t.text,
        t.source,
        t.source,
        t.editions.join(", ")
    );
    out.push_str("| condition | ref | sentence | in our words | holds in | just fails in | standing |\n|---|---|---|---|---|---|---|\n");
    for c in &t.conditions {
        let st = match shown.standing(c) {
            Standing::Shown => "shown".to_string(),
            Standing::Failing => "**a case fails**".to_string(),
            Standing::Gap => "**gap**".to_string(),
            Standing::Named => format!(
                "named gap: {}",
                c.no_position.as_deref().unwrap_or_default()
            ),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} | {} |",
            c.id,
            cell(&c.at),
            cell(&c.quote),
            cell(&c.condition),
            shown.list(shown.holds.get(c.id.as_str())),
            shown.list(shown.fails.get(c.id.as_str())),
            cell(&st)
        );
    }
}

/// The anchor GitHub gives a heading.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|ch| match ch {
            ' ' => Some('-'),
            '-' | '_' => Some(ch),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}
