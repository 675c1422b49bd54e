//! An edition's table of contents (`spec/<edition>/articles.yaml`): every article and
//! sub-article the edition is known to have, with a short heading, our own gloss, and,
//! when no clause can encode it, the reason in data: not decidable by a program (dress,
//! lighting, table sizes …) or text not available (which source is missing).
//!
//! A table of contents belongs to one edition and is not inherited: a derived edition has
//! its own (or none). `reports/articles.md` is generated from it and from the articles
//! the clauses cite (`xqspec report`).

use std::collections::{BTreeMap, HashSet};

use super::{Location, SpecError};

/// One article, sub-article, chapter or appendix of an edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TocEntry {
    /// `4.1.8`, `19`, or a chapter or appendix without an article number (`ch8`, `app2`),
    /// with numbered items when the book numbers them inside a chapter (`ch7.3`).
    pub(crate) article: String,
    /// The book's short heading, when it has one (article titles, chapters).
    pub(crate) title: Option<String>,
    /// What it is about, in our own words.
    pub(crate) gloss: String,
    /// Key of `reasons`: why no program can decide it.
    pub(crate) not_decidable: Option<String>,
    /// Key of `missing`: why its text is not available.
    pub(crate) unavailable: Option<String>,
    pub(crate) location: Location,
}

impl TocEntry {
    /// The article this one is a sub-article of (`4.1` for `4.1.8`), by its number.
    pub(crate) fn parent(&self) -> Option<&str> {
        parent_of(&self.article)
    }
}

/// The parent number of a dotted article number (`4.1.8` → `4.1`; `4` → none).
pub(crate) fn parent_of(article: &str) -> Option<&str> {
    article.rsplit_once('.').map(|(p, _)| p)
}

/// The table of contents of one edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toc {
    /// The source the table was read from (a declared source id).
    pub(crate) source: String,
    /// What the table covers and how complete it is, one paragraph.
    pub(crate) note: String,
    /// Reasons an article cannot be decided by a program, by key.
    pub(crate) reasons: BTreeMap<String, String>,
    /// Why the text of articles is not available, by key.
    pub(crate) missing: BTreeMap<String, String>,
    /// Every entry, in book order.
    pub(crate) articles: Vec<TocEntry>,
    /// The file it was read from.
    pub(crate) file: String,
}

impl Toc {
    pub(crate) fn entry(&self, article: &str) -> Option<&TocEntry> {
        self.articles.iter().find(|e| e.article == article)
    }

    /// The nearest entry that is `article` or one of its parents (`26.1.1` → `26` when
    /// the table lists only `26`).
    pub(crate) fn nearest(&self, article: &str) -> Option<&TocEntry> {
        let mut cur = Some(article);
        while let Some(a) = cur {
            if let Some(e) = self.entry(a) {
                return Some(e);
            }
            cur = parent_of(a);
        }
        None
    }
}

shapes! {
    struct RawToc {
        source: String,
        note: String,
        #[serde(default)]
        reasons: BTreeMap<String, String>,
        #[serde(default)]
        missing: BTreeMap<String, String>,
        articles: Vec<RawEntry>,
    }

    struct RawEntry {
        article: String,
        title: Option<String>,
        gloss: String,
        not_decidable: Option<String>,
        unavailable: Option<String>,
    }
}

/// Reads `articles.yaml`; every problem is reported at its line.
pub(super) fn parse(file: &str, text: &str) -> Result<Toc, Vec<SpecError>> {
    let raw: RawToc = super::raw::read(file, text).map_err(|e| vec![e])?;
    // Lines of the `- article:` / `- {article:` entries, in order.
    let lines: Vec<Location> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let t = l.trim_start();
            (t.starts_with("- article:") || t.starts_with("- {article:")).then(|| Location {
                file: file.to_string(),
                line: i + 1,
                column: l.len() - t.len() + 3,
            })
        })
        .collect();
    let count = raw.articles.len();
    let at = |i: usize| {
        if lines.len() == count {
            lines[i].clone()
        } else {
            Location::start_of(file.to_string())
        }
    };
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    let mut articles = Vec::new();
    for (i, e) in raw.articles.into_iter().enumerate() {
        let loc = at(i);
        if !valid_article(&e.article) {
            errors.push(SpecError::new(loc.clone(), None, format!("`{}` is not an article number (`4.1.8`) or a chapter/appendix id (`ch8`, `ch7.3`, `app2`)", e.article)));
        }
        if !seen.insert(e.article.clone()) {
            errors.push(SpecError::new(
                loc.clone(),
                None,
                format!("article `{}` is listed twice", e.article),
            ));
        }
        // A key an entry names must be one its table defines.
        for (field, key, table, defined) in [
            ("not_decidable", &e.not_decidable, "reasons", &raw.reasons),
            ("unavailable", &e.unavailable, "missing", &raw.missing),
        ] {
            if let Some(k) = key.as_ref().filter(|k| !defined.contains_key(*k)) {
                errors.push(SpecError::new(
                    loc.clone(),
                    None,
                    format!("{field} names `{k}`, which `{table}` does not define"),
                ));
            }
        }
        if e.gloss.trim().is_empty() || e.gloss.contains('\n') {
            errors.push(SpecError::new(
                loc.clone(),
                None,
                "gloss must be one non-empty line",
            ));
        }
        articles.push(TocEntry {
            article: e.article,
            title: e.title,
            gloss: e.gloss,
            not_decidable: e.not_decidable,
            unavailable: e.unavailable,
            location: loc,
        });
    }
    if errors.is_empty() {
        Ok(Toc {
            source: raw.source,
            note: raw.note,
            reasons: raw.reasons,
            missing: raw.missing,
            articles,
            file: file.to_string(),
        })
    } else {
        Err(errors)
    }
}

/// `4.1.8`, or a chapter or appendix id with optional numbered items (`ch8`, `ch7.3`, `app2`).
fn valid_article(a: &str) -> bool {
    let numbered = |s: &str| {
        !s.is_empty()
            && s.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    numbered(a)
        || ["ch", "app"]
            .iter()
            .any(|p| a.strip_prefix(p).is_some_and(numbered))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOC: &str = "source: seed-002\nnote: n\nreasons: {equipment: \"equipment\"}\nmissing: {gone: \"not in the seed\"}\narticles:\n  - {article: \"1\", title: 棋盘和棋子, gloss: board}\n  - {article: \"1.4\", gloss: size, not_decidable: equipment}\n  - {article: \"ch8\", gloss: figures, unavailable: gone}\n";

    #[test]
    fn reads_entries_with_their_lines() {
        let t = parse("cxa-2020/articles.yaml", TOC).unwrap();
        assert_eq!(t.articles.len(), 3);
        assert_eq!(t.articles[1].location.line, 7);
        assert_eq!(t.articles[1].parent(), Some("1"));
        assert_eq!(t.nearest("1.4.2").map(|e| e.article.as_str()), Some("1.4"));
        assert_eq!(t.nearest("9.1"), None);
    }

    #[test]
    fn unknown_keys_and_duplicates_are_located() {
        let bad = TOC
            .replace("not_decidable: equipment", "not_decidable: dress")
            .replace("\"ch8\"", "\"1\"");
        let e = parse("x/articles.yaml", &bad).unwrap_err();
        let text: Vec<String> = e.iter().map(|e| e.to_string()).collect();
        assert!(
            text.iter()
                .any(|t| t.contains("x/articles.yaml:7:") && t.contains("`dress`")),
            "{text:?}"
        );
        assert!(
            text.iter()
                .any(|t| t.contains(":8:") && t.contains("listed twice")),
            "{text:?}"
        );
        let e = parse("x/articles.yaml", &TOC.replace("\"1.4\"", "\"1.a\"")).unwrap_err();
        assert!(e[0].message.contains("not an article number"), "{e:?}");
    }
}
