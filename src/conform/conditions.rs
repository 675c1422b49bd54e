//! `conformance/qili-conditions.yaml`: every sentence of the 棋例 texts we have, split into
//! its conditions, each with the sentence it comes from (test262's method: a reader goes
//! from a sentence to the cases that exercise it). Cases point to conditions by id, in
//! their `conditions: {holds: […], fails: […]}`: a position where the condition holds, and
//! one where it just fails. `reports/qili-conditions.md` lists every condition with its
//! cases ([`crate::report::qili`]); a condition with no case, or with cases of one sign
//! only, is a gap there unless the file says why no position can show it.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::case::{locate_in, Problem};

/// The file, in the suite root.
pub const FILE: &str = "qili-conditions.yaml";

/// One text of the 棋例 (an edition's articles, or a part of one), with its conditions.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// What the text is, in a few words (`2020 art. 24 (术语解释)`).
    pub text: String,
    /// The source it is read in: an id of `spec/sources.yaml`.
    pub source: String,
    /// The rule sets the text is the rule of: a case of one of its conditions runs under
    /// at least one of them.
    pub editions: Vec<String>,
    /// Its conditions, in the text's order.
    pub conditions: Vec<Condition>,
}

/// One condition of a sentence.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// Stable id: lower-case letters, digits, dots and single hyphens.
    pub id: String,
    /// Where in the source (`24.3`, `细则 item 6`, `图5`).
    #[serde(rename = "ref")]
    pub at: String,
    /// The sentence, short, in the source's own words.
    pub quote: String,
    /// The condition, in our words: what must hold for the sentence to apply.
    pub condition: String,
    /// Why no position can show the condition (holding, or just failing): a gap the report
    /// names with this reason instead of counting.
    #[serde(default)]
    pub no_position: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    texts: Vec<Text>,
}

/// The conditions of the suite, by text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conditions {
    /// The texts, in the file's order.
    pub texts: Vec<Text>,
}

/// The conditions a case shows: holding, or just failing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseConditions {
    /// Conditions that hold in the case's position (the sentence applies).
    #[serde(default)]
    pub holds: Vec<String>,
    /// Conditions that just fail in it (the sentence does not apply, for that reason).
    #[serde(default)]
    pub fails: Vec<String>,
}

impl CaseConditions {
    /// Whether the case names no condition.
    pub fn is_empty(&self) -> bool {
        self.holds.is_empty() && self.fails.is_empty()
    }
}

/// Whether `id` is a well-formed condition id.
pub(crate) fn is_condition_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 80
        && id.split(['-', '.']).all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

impl Conditions {
    /// Parses the file.
    pub(crate) fn parse(text: &str) -> Result<Conditions, Problem> {
        let raw: RawFile = super::case::read_yaml(FILE, text)?;
        Ok(Conditions { texts: raw.texts })
    }

    /// Every condition with its text.
    pub fn all(&self) -> impl Iterator<Item = (&Text, &Condition)> {
        self.texts
            .iter()
            .flat_map(|t| t.conditions.iter().map(move |c| (t, c)))
    }

    /// The condition with this id, with its text.
    pub fn get(&self, id: &str) -> Option<(&Text, &Condition)> {
        self.all().find(|(_, c)| c.id == id)
    }

    /// The checks of the file itself: ids well formed and unique, every field filled,
    /// sources and editions the spec knows.
    pub(crate) fn check(
        &self,
        text: &str,
        sources: &BTreeSet<String>,
        editions: &BTreeMap<String, BTreeSet<String>>,
        out: &mut Vec<Problem>,
    ) {
        let mut seen = BTreeSet::new();
        let mut push = |needle: &str, m: String| {
            out.push(Problem::new(FILE, locate_in(text, "texts", needle), m))
        };
        for t in &self.texts {
            if t.text.trim().is_empty() {
                push("text:", "a text names what it is in `text:`".into());
            }
            if !sources.is_empty() && !sources.contains(&t.source) {
                push(
                    &t.source,
                    format!(
                        "text `{}`: source `{}` is not in spec/sources.yaml",
                        t.text, t.source
                    ),
                );
            }
            if t.editions.is_empty() {
                push(&t.text, format!("text `{}` names no rule set", t.text));
            }
            for e in t.editions.iter().filter(|e| !editions.contains_key(*e)) {
                push(e, format!("text `{}`: unknown rule set `{e}`", t.text));
            }
            for c in &t.conditions {
                if !is_condition_id(&c.id) {
                    push(
                        &c.id,
                        format!(
                            "condition id `{}` is not lower-case letters, digits, dots and single hyphens (at most 80)",
                            c.id
                        ),
                    );
                }
                if !seen.insert(c.id.as_str()) {
                    push(&c.id, format!("condition id `{}` is used twice", c.id));
                }
                for (field, v) in [
                    ("ref", &c.at),
                    ("quote", &c.quote),
                    ("condition", &c.condition),
                ] {
                    if v.trim().is_empty() {
                        push(&c.id, format!("condition `{}` has no `{field}`", c.id));
                    }
                }
                if c.no_position
                    .as_deref()
                    .is_some_and(|r| r.trim().is_empty())
                {
                    push(
                        &c.id,
                        format!("condition `{}`: `no_position` gives no reason", c.id),
                    );
                }
            }
        }
    }

    /// The checks of a case's `conditions`: each names a condition of the file, once, whose
    /// text is the rule of at least one of the case's editions.
    pub(crate) fn check_case(
        &self,
        case: &super::case::Case,
        text: &str,
        push: &mut impl FnMut((usize, usize), String),
    ) {
        let mut seen = BTreeSet::new();
        for id in case.conditions.holds.iter().chain(&case.conditions.fails) {
            let at = locate_in(text, "conditions", id);
            if !seen.insert(id) {
                push(at, format!("condition `{id}` is named twice"));
                continue;
            }
            match self.get(id) {
                None => push(at, format!("condition `{id}` is not in conformance/{FILE}")),
                Some((t, _)) if !t.editions.iter().any(|e| case.editions.contains(e)) => push(
                    at,
                    format!(
                        "condition `{id}` is the rule of {}, none of the case's editions",
                        t.editions.join(", ")
                    ),
                ),
                Some(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn condition_ids() {
        assert!(is_condition_id("2020-24.3-direct"));
        assert!(is_condition_id("1999-ch7.6"));
        assert!(!is_condition_id("2020--24"));
        assert!(!is_condition_id("2020-24.3-Direct"));
        assert!(!is_condition_id("2020-24..3"));
    }

    #[test]
    fn the_file_is_checked_with_places() {
        let text = "texts:\n  - text: t\n    source: nowhere\n    editions: [cxa-2020]\n    conditions:\n      - {id: a-1, ref: '1', quote: q, condition: c}\n      - {id: a-1, ref: '1', quote: q, condition: ''}\n";
        let c = Conditions::parse(text).unwrap();
        let mut out = Vec::new();
        let sources: BTreeSet<String> = ["seed-000".to_string()].into();
        let editions: BTreeMap<String, BTreeSet<String>> =
            [("cxa-2020".to_string(), BTreeSet::new())].into();
        c.check(text, &sources, &editions, &mut out);
        let m: Vec<String> = out.iter().map(|p| p.message.clone()).collect();
        assert!(
            m.iter()
                .any(|m| m.contains("`nowhere` is not in spec/sources.yaml")),
            "{m:?}"
        );
        assert!(m.iter().any(|m| m.contains("used twice")), "{m:?}");
        assert!(m.iter().any(|m| m.contains("has no `condition`")), "{m:?}");
    }
}
