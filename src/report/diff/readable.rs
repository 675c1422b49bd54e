//! Answers in words, in English and in Chinese, for the behaviour tables and the web page.

use super::*;

/// An answer in words, in English and in Chinese: its codes as `spec/words.yaml` says
/// them (`Black wins`, `Red: loses`, `ruled by the arbiter`), the clause and article after
/// what they decided, the event as `at event 4`, no fouls as `no fouls`, the clock's times
/// as times (`20:00`, `0:30`); other fields as `name: value`, the names in words too
/// (`field`). The JSON folded into one line, for the behaviour tables. In Chinese, what has
/// no words (clause ids, FENs, reading names, kinds of rejection) is in backticks, notation
/// to be shown as it is; the answers' English notes (`note`) are left out.
pub fn readable_text(json: &str, words: &Words) -> Both {
    match serde_json::from_str::<Value>(json) {
        Ok(Value::Object(m)) if m.len() == 1 => {
            let (k, v) = m.iter().next().expect("one key");
            let clock = k == "clock";
            match (k.as_str(), v) {
                ("reject", Value::String(kind)) => {
                    words.fill("answer", "rejected", &[("kind", &code(kind))])
                }
                (_, Value::Object(_)) => readable(v, words, clock),
                _ => readable(&Value::Object(m.clone()), words, clock),
            }
        }
        Ok(v) => readable(&v, words, false),
        Err(_) => Both::same(json),
    }
}

/// The fields of the clock query's answer that hold a time in milliseconds
/// (conformance/PROTOCOL.md § clock: `start` and `final` per side, a move's `took`,
/// `added` and both clocks, a flag's `left` and `over`, an adjustment's `ms`).
const CLOCK_TIMES: &[&str] = &[
    "time",
    "increment",
    "took",
    "added",
    "left",
    "over",
    "ms",
    "red",
    "black",
];

/// The groups of `spec/words.yaml` that say the codes of answer fields no answer object
/// carries words for (the diff's answers come without the rule set's 棋例 words).
const VALUE_GROUPS: &[(&str, &str)] = &[
    ("kind", "kind"),
    ("effect", "effect"),
    ("class", "class"),
    ("family", "family"),
    ("order", "order"),
    ("running", "side"),
    ("separated_by", "separated_by"),
];

/// A time of milliseconds as a clock shows it: `1:00:00`, `20:00`, `0:30`, `0:00.250`.
pub fn clock_time(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    let mut out = if h > 0 {
        format!("{sign}{h}:{m:02}:{s:02}")
    } else {
        format!("{sign}{m}:{s:02}")
    };
    if frac > 0 {
        let _ = write!(out, ".{frac:03}");
    }
    out
}

/// A code without words: as it is written in English (`black_wins` → `black wins`), and
/// in Chinese in backticks when it holds Latin letters (a clause id, a FEN, a reading).
fn code(s: &str) -> Both {
    Both {
        en: words_of(s),
        zh: if s.chars().any(|c| c.is_ascii_alphabetic()) {
            format!("`{s}`")
        } else {
            s.to_string()
        },
    }
}

fn readable(v: &Value, words: &Words, clock: bool) -> Both {
    Reader { words, clock }.value(v)
}

/// Says a JSON value in words: the words of `spec/words.yaml`, a clock's times as times
/// where `clock`.
struct Reader<'w> {
    words: &'w Words,
    clock: bool,
}

impl Reader<'_> {
    fn say(&self, key: &str, args: &[(&str, &Both)]) -> Both {
        self.words.fill("answer", key, args)
    }

    fn value(&self, v: &Value) -> Both {
        match v {
            Value::Null => self.say("none", &[]),
            Value::Bool(b) => self.say(if *b { "yes" } else { "no" }, &[]),
            Value::Number(n) => Both::same(n.to_string()),
            Value::String(s) => code(s),
            Value::Array(items) if items.is_empty() => self.say("none", &[]),
            Value::Array(items) if items.iter().all(|i| !i.is_object() && !i.is_array()) => {
                let all: Vec<Both> = items.iter().map(|x| self.value(x)).collect();
                Both::join(&all, &Both::same(" "))
            }
            Value::Array(items) => {
                let all: Vec<Both> = items
                    .iter()
                    .enumerate()
                    .map(|(i, x)| {
                        self.say(
                            "item",
                            &[
                                ("n", &Both::same((i + 1).to_string())),
                                ("value", &self.value(x)),
                            ],
                        )
                    })
                    .collect();
                Both::join(&all, &self.say("items", &[]))
            }
            Value::Object(m) => self.object(m),
        }
    }

    /// A field's value: a code in words, if the field names a group; a clock's time as a
    /// time; else as it is written.
    fn said(&self, field: &str, val: &Value) -> Both {
        let words = self.words;
        match val {
            Value::String(c) => words
                .of_field(field, c)
                .or_else(|| {
                    let (_, g) = VALUE_GROUPS.iter().find(|(f, _)| *f == field)?;
                    words.get(g, c)
                })
                .map_or_else(
                    || code(c),
                    |w| Both {
                        en: w.en.clone(),
                        zh: w.zh.clone(),
                    },
                ),
            Value::Number(n) if self.clock && CLOCK_TIMES.contains(&field) => {
                n.as_i64().map_or_else(
                    || Both::same(n.to_string()),
                    |ms| Both::same(clock_time(ms)),
                )
            }
            _ => self.value(val),
        }
    }

    /// An object: its head (result, verdict, decision or state) with its side, clause and
    /// article, then every other field.
    fn object(&self, m: &serde_json::Map<String, Value>) -> Both {
        let mut parts: Vec<Both> = Vec::new();
        let head = ["result", "verdict", "decision", "state"]
            .into_iter()
            .find(|k| m.get(*k).is_some_and(|v| !v.is_null()));
        let mut used: Vec<&str> = vec!["rests_on"];
        if let Some(h) = head {
            let mut s = self.said(h, &m[h]);
            if let (Some(side), "decision") = (m.get("side"), h) {
                s = self.say(
                    "side_said",
                    &[("side", &self.said("side", side)), ("what", &s)],
                );
                used.push("side");
            }
            if let Some(Value::String(c)) = m.get("clause") {
                s = self.say("by", &[("what", &s), ("clause", &code(c))]);
            }
            if let Some(Value::String(art)) = m.get("article") {
                s = self.say("article", &[("what", &s), ("article", &code(art))]);
            }
            parts.push(s);
            used.extend([h, "clause", "article"]);
        }
        for (k, val) in m {
            if !used.contains(&k.as_str()) {
                parts.extend(self.field(m, k, val));
            }
        }
        join_parts(&parts, &self.say("and", &[]))
    }

    /// One field of an object other than its head; `None` for nothing to say (no clause, no
    /// event).
    fn field(&self, m: &serde_json::Map<String, Value>, k: &str, val: &Value) -> Option<Both> {
        let words = self.words;
        Some(match (k, val) {
            (_, Value::Null) => return None,
            // The engine's own English note: in English only.
            ("note", _) => Both {
                en: format!("note: {}", self.value(val).en),
                zh: String::new(),
            },
            ("by", _) => self.said("by", val),
            ("basis", _) => {
                let mut s = self.say("resting_on", &[("basis", &self.said("basis", val))]);
                if let Some(r) = m
                    .get("rests_on")
                    .and_then(Value::as_array)
                    .filter(|r| !r.is_empty())
                {
                    let readings = self.value(&Value::Array(r.clone()));
                    s = self.say("rests_on", &[("what", &s), ("readings", &readings)]);
                }
                s
            }
            ("event", Value::Number(n)) => {
                self.say("at_event", &[("n", &Both::same(n.to_string()))])
            }
            ("fouls", Value::Object(f)) => {
                let n = |s: &str| f.get(s).and_then(Value::as_u64).unwrap_or(0);
                if n("red") + n("black") == 0 {
                    self.say("no_fouls", &[])
                } else {
                    self.say(
                        "fouls",
                        &[
                            ("red", &words.word("side", "red")),
                            ("r", &Both::same(n("red").to_string())),
                            ("black", &words.word("side", "black")),
                            ("b", &Both::same(n("black").to_string())),
                        ],
                    )
                }
            }
            _ => {
                let name = words.get("field", k).map_or_else(
                    || code(k),
                    |w| Both {
                        en: w.en.clone(),
                        zh: w.zh.clone(),
                    },
                );
                let text = self.said(k, val);
                let group = val.as_object().is_some_and(|o| o.len() > 1);
                self.say(
                    if group { "group" } else { "field" },
                    &[("field", &name), ("value", &text)],
                )
            }
        })
    }
}

/// `parts` with `sep` between them, each language leaving out its empty parts.
fn join_parts(parts: &[Both], sep: &Both) -> Both {
    let one = |pick: fn(&Both) -> &str, sep: &str| {
        parts
            .iter()
            .map(pick)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(sep)
    };
    Both {
        en: one(|b| &b.en, &sep.en),
        zh: one(|b| &b.zh, &sep.zh),
    }
}

/// `black_wins` → `black wins`; other strings (FEN, clause ids, moves) as they are.
fn words_of(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
        s.replace('_', " ")
    } else {
        s.to_string()
    }
}
