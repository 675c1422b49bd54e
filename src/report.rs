//! Reports generated from the spec: how the editions differ, clause by clause.
//!
//! Vocabulary of changes (as in web-platform-tests' diff): **added** (the clause exists in
//! the later edition only), **deleted** (earlier only), **changed** (its data differs),
//! **unchanged** (same data; the article number or the wording of the summary may still
//! differ, and is shown).

use std::fmt::Write as _;

use similar::{ChangeTag, TextDiff};
use tabled::settings::Style;
use tabled::{Table, Tabled};

use crate::spec::{Clause, Edition, Spec};

/// A table built with `tabled`, as Markdown or as a rounded text table (for terminals).
pub fn table_text(b: tabled::builder::Builder, markdown: bool) -> String {
    let mut t = b.build();
    if markdown {
        t.with(Style::markdown());
    } else {
        t.with(Style::rounded());
    }
    t.to_string()
}

/// How a clause differs between two editions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Added,
    Deleted,
    Changed,
    Unchanged,
}

impl Change {
    pub fn name(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Deleted => "deleted",
            Change::Changed => "changed",
            Change::Unchanged => "unchanged",
        }
    }
}

/// The change of one clause from `old` to `new`.
pub fn change(old: Option<&Clause>, new: Option<&Clause>) -> Option<Change> {
    match (old, new) {
        (None, None) => None,
        (None, Some(_)) => Some(Change::Added),
        (Some(_), None) => Some(Change::Deleted),
        (Some(a), Some(b)) => Some(if a.data == b.data { Change::Unchanged } else { Change::Changed }),
    }
}

#[derive(Tabled)]
struct Row {
    clause: String,
    #[tabled(rename = "change")]
    change: String,
    #[tabled(rename = "article (old → new)")]
    article: String,
    #[tabled(rename = "provenance (old → new)")]
    provenance: String,
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
        Some(c) => {
            let mut s = c.provenance.status.name().to_string();
            if let Some(p) = &c.inherited_from {
                write!(s, " (inherited from {p})").ok();
            }
            s
        }
    }
}

/// Compact YAML for diffs: scalar lists inline (`[0, 1]`), everything else in block style.
fn yaml(v: &serde_yaml::Value) -> String {
    let mut out = String::new();
    render(v, 0, &mut out);
    out
}

fn scalar(v: &serde_yaml::Value) -> Option<String> {
    use serde_yaml::Value::*;
    match v {
        Null => Some("null".into()),
        Bool(b) => Some(b.to_string()),
        Number(n) => Some(n.to_string()),
        String(s) => Some(serde_yaml::to_string(s).unwrap_or_default().trim_end().to_string()),
        Sequence(items) if items.iter().all(|i| scalar(i).is_some() && !i.is_sequence()) => {
            Some(format!("[{}]", items.iter().filter_map(scalar).collect::<Vec<_>>().join(", ")))
        }
        _ => None,
    }
}

fn render(v: &serde_yaml::Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        serde_yaml::Value::Mapping(m) => {
            for (k, val) in m {
                let key = scalar(k).unwrap_or_default();
                match scalar(val) {
                    Some(s) => writeln!(out, "{pad}{key}: {s}").ok(),
                    None => {
                        writeln!(out, "{pad}{key}:").ok();
                        render(val, indent + 2, out);
                        None
                    }
                };
            }
        }
        serde_yaml::Value::Sequence(items) => {
            for item in items {
                match scalar(item) {
                    Some(s) => writeln!(out, "{pad}- {s}").ok(),
                    None => {
                        let mut inner = String::new();
                        render(item, indent + 2, &mut inner);
                        let inner = inner.trim_start();
                        write!(out, "{pad}- {inner}").ok()
                    }
                };
            }
        }
        other => {
            writeln!(out, "{pad}{}", scalar(other).unwrap_or_default()).ok();
        }
    }
}

/// Unified diff of two texts, as a fenced `diff` block.
fn text_diff(old: &str, new: &str) -> String {
    let diff = TextDiff::from_lines(old, new);
    let mut out = String::from("```diff\n");
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            ChangeTag::Delete => '-',
            ChangeTag::Insert => '+',
            ChangeTag::Equal => ' ',
        };
        out.push(sign);
        out.push_str(change.value());
        if !change.value().ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str("```\n");
    out
}

/// The Markdown comparison of two editions.
pub fn compare(old: &Edition, new: &Edition) -> String {
    let mut ids: Vec<&str> = old.clauses().iter().chain(new.clauses()).map(|c| c.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    let mut rows = Vec::new();
    let mut details = String::new();
    let mut counts = [0usize; 4];
    for id in ids {
        let (a, b) = (old.clause(id), new.clause(id));
        let Some(ch) = change(a, b) else { continue };
        counts[ch as usize] += 1;
        let (aa, ba) = (article(a), article(b));
        rows.push(Row {
            clause: format!("`{id}`"),
            change: ch.name().into(),
            article: if aa == ba { aa } else { format!("{aa} → {ba}") },
            provenance: format!("{} → {}", provenance(a), provenance(b)),
        });
        let summary_changed = matches!((a, b), (Some(x), Some(y)) if x.summary != y.summary);
        if ch != Change::Unchanged || summary_changed {
            writeln!(details, "### `{id}` ({})\n", ch.name()).ok();
            if let (Some(x), Some(y)) = (a, b) {
                if summary_changed {
                    writeln!(details, "Summary:\n").ok();
                    details.push_str(&text_diff(&format!("{}\n", x.summary), &format!("{}\n", y.summary)));
                    details.push('\n');
                }
                if ch == Change::Changed {
                    writeln!(details, "Data:\n").ok();
                    details.push_str(&text_diff(&yaml(&x.data), &yaml(&y.data)));
                    details.push('\n');
                }
            } else if let Some(c) = a.or(b) {
                writeln!(details, "{}\n", c.summary).ok();
            }
        }
    }
    let mut out = String::new();
    writeln!(out, "## {} → {}\n", old.id, new.id).ok();
    writeln!(
        out,
        "{} added, {} deleted, {} changed, {} unchanged.\n",
        counts[Change::Added as usize],
        counts[Change::Deleted as usize],
        counts[Change::Changed as usize],
        counts[Change::Unchanged as usize]
    )
    .ok();
    out.push_str(&Table::new(rows).with(Style::markdown()).to_string());
    out.push_str("\n\n");
    out.push_str(&details);
    out
}

/// `reports/editions.md`: each edition against the next, in year order.
pub fn editions(spec: &Spec) -> String {
    let mut eds: Vec<&Edition> = spec.editions().iter().collect();
    eds.sort_by_key(|e| e.year.unwrap_or(u16::MAX));
    let mut out = String::from(
        "# Differences between editions\n\n\
         Generated by `xqspec report editions --write`; do not edit. A clause is *changed* when its data \
         (the rule fact) differs; renumbered articles and reworded summaries are shown for unchanged clauses too. \
         Provenance tells whether a fact was read in the edition's own text or inherited (assumed).\n\n",
    );
    for w in eds.windows(2) {
        out.push_str(&compare(w[0], w[1]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edited_data_is_reported_as_changed_with_a_diff() {
        let mut files = Spec::builtin_files();
        // Give 2011 its own (edited) soldier program.
        files.push((
            "cxa-2011/movement.yaml".into(),
            "clauses:\n  - id: movement.soldier\n    provenance: {status: inferred, source: digest}\n    data:\n      piece: soldier\n      program:\n        - step: [0, 1]\n".into(),
        ));
        let spec = Spec::from_files(files).unwrap();
        let report = editions(&spec);
        assert!(report.contains("### `movement.soldier` (changed)"), "{report}");
        assert!(report.contains("-    from: beyond_river"), "{report}");
        assert!(report.contains("   - step: [0, 1]"), "{report}");
        let real = editions(&Spec::builtin().unwrap());
        assert!(real.contains("## cxa-1999 → cxa-2011") && real.contains("## cxa-2011 → cxa-2020"), "{real}");
        // 1999 words the self-kill clause differently: shown as a summary diff.
        assert!(real.contains("### `check.self_kill` (unchanged)"), "{real}");
    }

    #[test]
    fn change_kinds() {
        let spec = Spec::builtin().unwrap();
        let a = spec.edition("cxa-2011").unwrap().clause("movement.horse");
        let b = spec.edition("cxa-2020").unwrap().clause("movement.horse");
        assert_eq!(change(a, b), Some(Change::Unchanged));
        assert_eq!(change(None, b), Some(Change::Added));
        assert_eq!(change(a, None), Some(Change::Deleted));
    }
}
