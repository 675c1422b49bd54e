//! Article coverage (`reports/articles.md`): for each edition with a table of contents
//! (`spec/<edition>/articles.yaml`), every article and sub-article with the clauses that
//! encode it, or why none does — not decidable by a program, or its text not available —
//! and the gaps (decidable, text available, no clause yet). The reasons are data in the
//! tables of contents; this module only matches them with the clauses' `article` fields.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::markdown::cell;
use crate::spec::{parent_of, Edition, Spec, Toc, TocEntry};

/// How one entry of a table of contents is encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Clauses cite it (or its sub-articles, or an article it is part of).
    Encoded,
    /// Not decidable by a program: the reason.
    NotDecidable(String),
    /// Text not available, and no clause encodes it from another source: which is missing.
    Unavailable(String),
    /// Decidable and available, but no clause encodes it yet.
    Gap,
    /// A chapter heading: its articles are listed on their own.
    Heading,
}

/// One entry with its clauses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The article's number (`24.3`).
    pub(crate) article: String,
    pub(crate) heading: String,
    /// Clauses citing this very article.
    pub(crate) direct: Vec<String>,
    /// Clauses citing a sub-article (`4.1.8` for `4.1`, also numbers the table lacks).
    pub(crate) through_parts: Vec<String>,
    /// Clauses citing an article this one is part of (`10.4.3` for `10.4.3.1`).
    pub(crate) through_whole: Vec<String>,
    /// Encoded, not decidable, text unavailable, or a gap.
    pub status: Status,
    /// Set when the text is not available, even if clauses encode it from other sources.
    pub(crate) text_missing: Option<String>,
}

/// The coverage of one edition's table of contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditionCoverage {
    /// The edition's id.
    pub edition: String,
    /// Every entry of its table of contents, in order.
    pub(crate) rows: Vec<Row>,
    /// Articles that clauses cite but the table of contents does not have (nor any parent
    /// of them), with the clauses.
    pub(crate) outside: BTreeMap<String, Vec<String>>,
}

impl EditionCoverage {
    fn count(&self, f: impl Fn(&Row) -> bool) -> usize {
        self.rows
            .iter()
            .filter(|r| r.status != Status::Heading && f(r))
            .count()
    }

    /// `articles encoded / decidable / unavailable` as one line.
    pub fn summary(&self) -> String {
        let total = self.count(|_| true);
        let encoded = self.count(|r| r.status == Status::Encoded);
        let decidable = self.count(|r| !matches!(r.status, Status::NotDecidable(_)));
        let unavailable = self.count(|r| r.text_missing.is_some());
        let gaps = self.count(|r| r.status == Status::Gap);
        format!(
            "{}: {total} articles; {encoded} encoded of {decidable} decidable; {} not decidable; {unavailable} with text unavailable; {gaps} not encoded yet",
            self.edition,
            total - decidable
        )
    }
}

/// The articles an `article` field of a clause names (`7.1, 7.2, 8.1.6`).
pub(crate) fn cited(field: &str) -> impl Iterator<Item = &str> {
    field.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// Whether `part` is `whole` or one of its sub-articles.
fn within(part: &str, whole: &str) -> bool {
    part == whole
        || part
            .strip_prefix(whole)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// The coverage of `ed`'s table of contents.
pub fn coverage(ed: &Edition, toc: &Toc) -> EditionCoverage {
    // article → clauses citing it.
    let mut by_article: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in ed.clauses() {
        if let Some(a) = &c.article {
            for art in cited(a) {
                by_article
                    .entry(art.to_string())
                    .or_default()
                    .insert(c.id.clone());
            }
        }
    }
    let has_children = |e: &TocEntry| {
        toc.articles
            .iter()
            .any(|o| o.parent() == Some(e.article.as_str()))
    };
    let mut rows: Vec<Row> = Vec::new();
    // Children come after their parent in book order: walk backwards so that a parent
    // sees its children's status.
    for e in toc.articles.iter().rev() {
        let direct: Vec<String> = by_article
            .get(&e.article)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
        let parts: BTreeSet<String> = by_article
            .iter()
            .filter(|(a, _)| *a != &e.article && within(a, &e.article))
            .flat_map(|(_, s)| s.iter().cloned())
            .filter(|c| !direct.contains(c))
            .collect();
        let mut whole = BTreeSet::new();
        let mut up = e.parent();
        while let Some(p) = up {
            if let Some(s) = by_article.get(p) {
                whole.extend(s.iter().cloned());
            }
            up = parent_of(p);
        }
        let text_missing = e
            .unavailable
            .as_ref()
            .map(|k| toc.missing.get(k).cloned().unwrap_or_else(|| k.clone()));
        let any = !direct.is_empty() || !parts.is_empty() || !whole.is_empty();
        let children: Vec<&Status> = rows
            .iter()
            .filter(|r| parent_of(&r.article) == Some(e.article.as_str()))
            .map(|r| &r.status)
            .collect();
        let status = if any {
            Status::Encoded
        } else if let Some(r) = &e.not_decidable {
            Status::NotDecidable(toc.reasons.get(r).cloned().unwrap_or_else(|| r.clone()))
        } else if let Some(m) = &text_missing {
            Status::Unavailable(m.clone())
        } else if !children.is_empty()
            && children
                .iter()
                .all(|s| matches!(s, Status::NotDecidable(_)))
        {
            Status::NotDecidable("as its sub-articles".into())
        } else if !children.is_empty()
            || (e.article.starts_with("ch") && !e.article.contains('.') && !has_children(e))
        {
            // A heading over sub-articles listed on their own (a gap among them shows there).
            Status::Heading
        } else {
            Status::Gap
        };
        let heading = match &e.title {
            Some(t) => format!("{t} ({})", e.gloss),
            None => e.gloss.clone(),
        };
        rows.push(Row {
            article: e.article.clone(),
            heading,
            direct,
            through_parts: parts.into_iter().collect(),
            through_whole: whole.into_iter().collect(),
            status,
            text_missing,
        });
    }
    rows.reverse();
    let mut outside: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (a, s) in &by_article {
        if toc.nearest(a).is_none() {
            outside
                .entry(a.clone())
                .or_default()
                .extend(s.iter().cloned());
        }
    }
    EditionCoverage {
        edition: ed.id.clone(),
        rows,
        outside,
    }
}

/// `reports/articles.md` and its summary lines (one per edition).
pub struct ArticlesReport {
    /// The report, `reports/articles.md`.
    pub markdown: String,
    /// One summary line per edition.
    pub summary: Vec<String>,
}

fn clause_list(ids: &[String]) -> String {
    ids.iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The article coverage of every edition with a table of contents, newest first.
pub fn report(spec: &Spec) -> ArticlesReport {
    let mut eds: Vec<&Edition> = spec.editions().iter().filter(|e| e.toc.is_some()).collect();
    eds.sort_by_key(|e| std::cmp::Reverse(e.year));
    let mut out = String::from(
        "# Article coverage of the rulebooks\n\n\
         Generated by `xqspec report --write` from each edition's table of contents (`spec/<edition>/articles.yaml`) \
         and the `article` field of its clauses; do not edit. An article is *encoded* when a clause cites it, one of \
         its sub-articles, or an article it is part of. Otherwise the table of contents says why no clause does: the \
         article is *not decidable* by a program (equipment, venue, conduct …), or its *text is not available* (and which \
         source is missing). What remains is *not encoded yet*: a gap. Titles are the book's short headings; glosses are ours.\n\n",
    );
    let coverages: Vec<EditionCoverage> = eds
        .iter()
        .map(|e| coverage(e, e.toc.as_ref().expect("filtered")))
        .collect();
    out.push_str("## Summary\n\n");
    for c in &coverages {
        let _ = writeln!(out, "- {}", c.summary());
    }
    out.push('\n');
    for (ed, cov) in eds.iter().zip(&coverages) {
        let toc = ed.toc.as_ref().expect("filtered");
        let _ = writeln!(out, "## {} — {}\n", ed.id, ed.name);
        let _ = writeln!(
            out,
            "{} Table of contents read from {}.\n",
            toc.note,
            super::diff::source_link(&toc.source)
        );
        let _ = writeln!(out, "{}\n", cov.summary());
        let mut b = tabled::builder::Builder::default();
        b.push_record(["article", "heading", "clauses", "status"]);
        for r in &cov.rows {
            let mut clauses = clause_list(&r.direct);
            if !r.through_parts.is_empty() {
                let _ = write!(
                    clauses,
                    "{}through sub-articles: {}",
                    if clauses.is_empty() { "" } else { "; " },
                    clause_list(&r.through_parts)
                );
            }
            if r.direct.is_empty() && r.through_parts.is_empty() && !r.through_whole.is_empty() {
                let _ = write!(
                    clauses,
                    "as part of the whole article: {}",
                    clause_list(&r.through_whole)
                );
            }
            let mut status = match &r.status {
                Status::Encoded => "encoded".to_string(),
                Status::NotDecidable(why) => format!("not decidable: {why}"),
                Status::Unavailable(why) => format!("text not available: {why}"),
                Status::Gap => "**not encoded yet**".to_string(),
                Status::Heading => "heading: see its sub-articles".to_string(),
            };
            if let (Status::Encoded, Some(m)) = (&r.status, &r.text_missing) {
                let _ = write!(status, " from other sources; text not available: {m}");
            }
            b.push_record([
                r.article.clone(),
                cell(&r.heading),
                cell(&clauses),
                super::sources::link(&cell(&status), spec),
            ]);
        }
        out.push_str(&crate::markdown::table_text(b, true));
        out.push_str("\n\n");
        if !cov.outside.is_empty() {
            let _ = writeln!(
                out,
                "Articles the clauses of {} cite that its table of contents does not list (for a derived edition, usually the parent's numbers carried over with inherited clauses):\n",
                ed.id
            );
            for (a, cs) in &cov.outside {
                let _ = writeln!(out, "- {a}: {}", clause_list(cs));
            }
            out.push('\n');
        }
    }
    let summary = coverages.iter().map(|c| {
        let total = c.count(|_| true);
        let encoded = c.count(|r| r.status == Status::Encoded);
        let gaps = c.count(|r| r.status == Status::Gap);
        format!("{} {encoded}/{total} encoded, {gaps} gaps", c.edition)
    });
    ArticlesReport {
        markdown: out,
        summary: summary.collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_articles_are_within_their_article() {
        assert!(
            within("4.1.8", "4.1")
                && within("4.1", "4.1")
                && !within("4.10", "4.1")
                && !within("14", "1")
        );
        assert_eq!(
            cited("7.1, 7.2, 8.1.6").collect::<Vec<_>>(),
            ["7.1", "7.2", "8.1.6"]
        );
    }

    #[test]
    fn every_article_a_clause_of_1999_or_2020_cites_is_in_the_table_of_contents() {
        let spec = Spec::builtin().unwrap();
        for id in ["cxa-2020", "cxa-1999"] {
            let ed = spec.edition(id).unwrap();
            let cov = coverage(ed, ed.toc.as_ref().unwrap());
            assert!(cov.outside.is_empty(), "{id}: {:?}", cov.outside);
        }
    }

    #[test]
    fn statuses_follow_the_clauses_and_the_data() {
        let spec = Spec::builtin().unwrap();
        let ed = spec.edition("cxa-2020").unwrap();
        let cov = coverage(ed, ed.toc.as_ref().unwrap());
        let row = |a: &str| cov.rows.iter().find(|r| r.article == a).unwrap();
        assert_eq!(row("4.1.8").status, Status::Encoded);
        assert!(row("4.1.8")
            .direct
            .contains(&"result.illegal_move".to_string()));
        assert_eq!(
            row("4.1").status,
            Status::Encoded,
            "through its sub-articles"
        );
        assert!(matches!(&row("1.4").status, Status::NotDecidable(r) if r.contains("equipment")));
        assert!(matches!(&row("ch8").status, Status::Unavailable(_)));
        assert_eq!(row("30").status, Status::Encoded);
        assert!(row("30").text_missing.is_some());
        assert_eq!(row("ch1").status, Status::Heading);
        assert_eq!(row("10.4.3.1").status, Status::Encoded, "as part of 10.4.3");
    }
}
