//! The words of the answers' codes (`spec/words.yaml`): each code an answer carries
//! (`black_wins`, `must_change`, `flag_fall` …) with its English and Chinese words, so that
//! a page, a sheet, a report or the command line shows words, never a code.
//!
//! A group is named by the answer field that carries the code (`result`, `decision`,
//! `how` …). [`Words::annotate`] puts the words beside the codes of any answer object: every
//! object with a field of a known group gets a `words` member, `{field: {en, zh}}`. A code
//! without words gets none (the reader shows the code): a spec without `words.yaml` (an
//! edited copy under `--spec`) still answers.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

shapes! {
    /// One code's words.
    #[derive(PartialEq, Eq)]
    pub struct Word {
        /// In English.
        pub en: String,
        /// In Chinese (simplified).
        pub zh: String,
    }
}

impl Word {
    /// `{"en", "zh"}`.
    pub fn to_json(&self) -> Value {
        json!({"en": self.en, "zh": self.zh})
    }
}

/// A text in both languages: a word, or a sentence of `spec/words.yaml` filled in
/// ([`Words::fill`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Both {
    /// In English.
    pub en: String,
    /// In Chinese.
    pub zh: String,
}

impl Both {
    /// The same text in both languages (a point, a number, a clause id).
    pub fn same(s: impl Into<String>) -> Both {
        let s = s.into();
        Both {
            en: s.clone(),
            zh: s,
        }
    }

    /// `other` added at the end, in each language.
    pub fn push(&mut self, other: &Both) {
        self.en.push_str(&other.en);
        self.zh.push_str(&other.zh);
    }

    /// `items` with `sep` between them, in each language.
    pub fn join(items: &[Both], sep: &Both) -> Both {
        let mut out = Both::default();
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                out.push(sep);
            }
            out.push(x);
        }
        out
    }
}

shapes! {
    /// The words of every group (`spec/words.yaml`).
    #[derive(Default, PartialEq, Eq)]
    pub struct Words {
        words: BTreeMap<String, BTreeMap<String, Word>>,
    }
}

/// The answer fields whose value is a code of a group of the same name, and those whose
/// code belongs to another group (`field` → `group`).
const FIELD_GROUPS: &[(&str, &str)] = &[
    ("result", "result"),
    ("state", "state"),
    ("position", "position"),
    ("how", "how"),
    ("decision", "decision"),
    ("verdict", "verdict"),
    ("judged", "judged"),
    ("side", "side"),
    ("to_move", "side"),
    ("by", "by"),
    ("basis", "basis"),
    ("event_kind", "event"),
    ("note_kind", "note"),
];

impl Words {
    /// The words of `code` in `group`, if the spec has them.
    pub fn get(&self, group: &str, code: &str) -> Option<&Word> {
        self.words.get(group)?.get(code)
    }

    /// The words of the code `code` held in an answer's field `field` (`result`, `side`,
    /// `to_move` …), if the field names a group and the spec has them.
    pub fn of_field(&self, field: &str, code: &str) -> Option<&Word> {
        let (_, group) = FIELD_GROUPS.iter().find(|(f, _)| *f == field)?;
        self.get(group, code)
    }

    /// The English words of `code` in `group`, or the code itself (with spaces for `_`).
    pub fn en(&self, group: &str, code: &str) -> String {
        self.get(group, code)
            .map_or_else(|| code.replace('_', " "), |w| w.en.clone())
    }

    /// The words of `code` in `group` in both languages, or the code (with spaces for `_`)
    /// in both when the spec has none.
    pub fn word(&self, group: &str, code: &str) -> Both {
        self.get(group, code).map_or_else(
            || Both::same(code.replace('_', " ")),
            |w| Both {
                en: w.en.clone(),
                zh: w.zh.clone(),
            },
        )
    }

    /// The sentence `key` of `group` with each `{name}` of `args` filled in, in each
    /// language from the same language's argument. A sentence the spec lacks (an edited
    /// copy without `words.yaml`) is written as its key and arguments (`takes: from g6 …`),
    /// in English, so that an answer still says what it rests on.
    pub fn fill(&self, group: &str, key: &str, args: &[(&str, &Both)]) -> Both {
        let put = |template: &str, pick: fn(&Both) -> &str| {
            args.iter().fold(template.to_string(), |s, (name, v)| {
                s.replace(&format!("{{{name}}}"), pick(v))
            })
        };
        match self.get(group, key) {
            Some(w) => Both {
                en: put(&w.en, |b| &b.en),
                zh: put(&w.zh, |b| &b.zh),
            },
            None => {
                let said: Vec<String> = args
                    .iter()
                    .filter(|(_, v)| !v.en.is_empty())
                    .map(|(n, v)| format!("{n} {}", v.en))
                    .collect();
                Both::same(format!("{key}: {}", said.join(", ")))
            }
        }
    }

    /// Every group's words: `{group: {code: {en, zh}}}`.
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.words
                .iter()
                .map(|(g, w)| {
                    let codes: Map<String, Value> =
                        w.iter().map(|(c, x)| (c.clone(), x.to_json())).collect();
                    (g.clone(), Value::Object(codes))
                })
                .collect(),
        )
    }

    /// `value` with the words of its codes: every object holding a field of a known group
    /// (`result`, `decision`, `side` …) gets `words: {field: {en, zh}}` for each such code
    /// that has words, recursively. The rest of the value is unchanged.
    pub fn annotate(&self, value: &mut Value) {
        match value {
            Value::Array(items) => items.iter_mut().for_each(|v| self.annotate(v)),
            Value::Object(m) => {
                let mut found = Map::new();
                for (field, group) in FIELD_GROUPS {
                    if let Some(w) = m
                        .get(*field)
                        .and_then(Value::as_str)
                        .and_then(|code| self.get(group, code))
                    {
                        found.insert((*field).to_string(), w.to_json());
                    }
                }
                for v in m.values_mut() {
                    self.annotate(v);
                }
                if !found.is_empty() {
                    // Beside any words the object already carries (the 棋例's own).
                    match m.get_mut("words").and_then(Value::as_object_mut) {
                        Some(w) => w.extend(found),
                        None => {
                            m.insert("words".into(), Value::Object(found));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Problems with the words: an empty word, a Chinese word without a Chinese character.
    pub(crate) fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (group, words) in &self.words {
            for (code, w) in words {
                if w.en.trim().is_empty() || w.zh.trim().is_empty() {
                    out.push(format!("{group}.{code}: a word is empty"));
                }
                if !has_chinese(&w.zh) {
                    out.push(format!(
                        "{group}.{code}: `zh: {}` holds no Chinese character",
                        w.zh
                    ));
                }
            }
        }
        out
    }
}

/// Whether `s` holds a Chinese character or Chinese punctuation (a separator of a
/// sentence, `；`, `、`, is one): what every `zh` text of the spec must hold.
pub(crate) fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| {
        ('\u{4e00}'..='\u{9fff}').contains(&c)
            || ('\u{3000}'..='\u{303f}').contains(&c)
            || ('\u{ff00}'..='\u{ffef}').contains(&c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        crate::spec::Spec::builtin().unwrap().words().clone()
    }

    #[test]
    fn annotate_puts_words_beside_codes_at_every_depth() {
        let w = words();
        let mut v = json!({"result": "black_wins", "clause": "result.time", "rulings": [{"decision": "loss", "side": "black", "note": "x"}], "how": "no_such_code"});
        w.annotate(&mut v);
        assert_eq!(
            v["words"],
            json!({"result": {"en": "Black wins", "zh": "黑胜"}})
        );
        assert_eq!(v["rulings"][0]["words"]["decision"]["zh"], "判负");
        assert_eq!(v["rulings"][0]["words"]["side"]["en"], "Black");
        assert_eq!(v["clause"], "result.time");
        // Words already there are kept.
        let mut v = json!({"side": "red", "words": {"class": {"zh": "捉"}}});
        w.annotate(&mut v);
        assert_eq!(v["words"]["class"]["zh"], "捉");
        assert_eq!(v["words"]["side"]["zh"], "红方");
    }

    /// The `class` words of the diff's answers are the 棋例 classes as cxa-2020's
    /// `repetition.*` clauses name them (`class`, `zh`).
    #[test]
    fn class_words_agree_with_the_repetition_clauses() {
        let spec = crate::spec::Spec::builtin().unwrap();
        let ed = spec.edition("cxa-2020").unwrap();
        let mut seen = 0;
        for c in ed.clauses_with_prefix("repetition.") {
            let (Some(class), Some(zh)) = (
                c.data.get("class").and_then(|v| v.as_str()),
                c.data.get("zh").and_then(|v| v.as_str()),
            ) else {
                continue;
            };
            let w = spec.words().get("class", class).expect(class);
            assert_eq!((w.en.as_str(), w.zh.as_str()), (class, zh), "{}", c.id);
            seen += 1;
        }
        assert_eq!(seen, 8);
    }

    #[test]
    fn a_word_without_chinese_is_a_problem() {
        let w: Words =
            serde_yaml::from_str("words: {result: {draw: {en: draw, zh: draw}}}").unwrap();
        assert_eq!(w.problems().len(), 1);
    }
}
