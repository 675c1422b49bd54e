//! One conformance case: its file format (`conformance/README.md`) and the
//! structural parse of a case file.
//!
//! Parsing is in two steps, as everywhere in xqspec: [`Case::parse`] turns
//! the YAML text into a typed [`Case`] or one [`Problem`] that says where and
//! what; the checks in [`crate::conform::suite`] then validate the parsed case
//! against the vocabularies and the spec, collecting every problem.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

/// A problem with a case file (or another suite file), with its place.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// Path relative to the suite root, `/`-separated.
    pub(crate) file: String,
    /// 1-based line; 0 when the problem concerns the whole file.
    pub line: usize,
    /// 1-based column; 0 when unknown.
    pub(crate) column: usize,
    /// What is wrong, in words.
    pub(crate) message: String,
}

impl Problem {
    /// A problem at `(line, column)` of `file` (0 for the whole file, or unknown).
    pub fn new(file: &str, (line, column): (usize, usize), message: impl Into<String>) -> Problem {
        Problem {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
        }
    }
}

impl From<crate::input::InputError> for Problem {
    fn from(e: crate::input::InputError) -> Problem {
        Problem::new(&e.origin, (e.line, e.column), e.what)
    }
}

/// A YAML file of the suite (`path` relative to its root) read through the reading layer.
pub(crate) fn read_yaml<T: serde::de::DeserializeOwned>(
    path: &str,
    text: &str,
) -> Result<T, Problem> {
    crate::input::yaml(text, &crate::input::Origin::named(path)).map_err(Problem::from)
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for Problem {}

/// What a case expects for one edition: an accepted answer, one of several answers, or a
/// rejection.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// The answer object, e.g. `{"moves": ["a0a1", …]}` or `{"nodes": 44}`.
    Answer(Map<String, Value>),
    /// Any one of these answers (`{one_of: [{text: 仕六退五}, {text: 前仕退五}]}`): where
    /// practice writes the same thing in several ways, each form people write passes. At
    /// least two, each an answer object of one field, the same field in all.
    OneOf(Vec<Map<String, Value>>),
    /// The input must be refused with this kind (`fen.board_shape`).
    Reject(String),
}

impl Expected {
    /// An expectation from its JSON form (`{moves: [...]}`, `{reject: fen.syntax}`).
    pub(crate) fn from_value(v: Value) -> Result<Expected, String> {
        match v {
            Value::Object(map) => {
                if let Some(list) = map.get("one_of") {
                    if map.len() != 1 {
                        return Err("an expectation with `one_of` has no other field".into());
                    }
                    let items = list
                        .as_array()
                        .filter(|l| l.len() >= 2)
                        .ok_or("`one_of` is a list of at least two answers")?;
                    let mut out = Vec::with_capacity(items.len());
                    for item in items {
                        match Expected::from_value(item.clone())? {
                            Expected::Answer(m) => out.push(m),
                            _ => {
                                return Err(
                                    "each item of `one_of` is an answer such as `{text: 前仕退五}`"
                                        .into(),
                                )
                            }
                        }
                    }
                    let field = |m: &Map<String, Value>| m.keys().next().cloned();
                    if out.iter().any(|m| field(m) != field(&out[0])) {
                        return Err("the answers of `one_of` give the same field".into());
                    }
                    Ok(Expected::OneOf(out))
                } else if let Some(kind) = map.get("reject") {
                    if map.len() != 1 {
                        return Err("an expectation with `reject` has no other field".into());
                    }
                    match kind {
                        Value::String(s) => Ok(Expected::Reject(s.clone())),
                        _ => Err("`reject` is a reject kind string such as `fen.syntax`".into()),
                    }
                } else if map.len() != 1 {
                    Err(format!(
                        "an expectation has exactly one field (the answer field, or `reject`); found {}",
                        map.len()
                    ))
                } else {
                    Ok(Expected::Answer(map))
                }
            }
            _ => Err(
                "an expectation is a mapping such as `{moves: [...]}` or `{reject: fen.syntax}`"
                    .into(),
            ),
        }
    }

    /// The expectation as the JSON object written in case files.
    pub fn to_value(&self) -> Value {
        match self {
            Expected::Answer(m) => Value::Object(m.clone()),
            Expected::OneOf(ms) => serde_json::json!({ "one_of": ms }),
            Expected::Reject(k) => serde_json::json!({ "reject": k }),
        }
    }

    /// The answers that meet the expectation: one, several (`one_of`), none for a rejection.
    pub fn answers(&self) -> &[Map<String, Value>] {
        match self {
            Expected::Answer(m) => std::slice::from_ref(m),
            Expected::OneOf(ms) => ms,
            Expected::Reject(_) => &[],
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

/// The expectation of a case: one for all its editions, or one per edition.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// One answer for every edition of the case.
    Same(Expected),
    /// An answer per edition, by edition id.
    ByEdition(BTreeMap<String, Expected>),
}

shapes! {
    /// Where a case's expected answer comes from (`origin:`).
    #[derive(Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    #[serde(rename_all = "lowercase")]
    pub enum Origin {
        /// A published ruling, figure, count or text, or an independent program's answer;
        /// `source:` names it exactly.
        Sourced,
        /// A transformation of a sourced case (a mirror, another edition by a cited clause);
        /// `from:` names that case.
        Derived,
        /// Constructed here: the note names the article and the reasoning.
        Authored,
    }
}

impl Origin {
    /// Every origin, in the order reports list them.
    pub const ALL: [Origin; 3] = [Origin::Sourced, Origin::Derived, Origin::Authored];

    /// The name used in case files.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Sourced => "sourced",
            Origin::Derived => "derived",
            Origin::Authored => "authored",
        }
    }
}

shapes! {
    /// What a case's answer rests on (`basis:`): a rule of the rulebook, a convention of the
    /// suite, or an optional feature. Reports say "the rules say" (with the article) only of a
    /// `rule` case, and count failures apart by basis.
    #[derive(Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
    #[serde(rename_all = "lowercase")]
    pub enum Basis {
        /// The answer is what an article of the rule set says (its clauses quote the article).
        Rule,
        /// The answer is this suite's choice where the rules say nothing or practice varies
        /// (FEN syntax, the reject kind's detail, the canonical text of a move, tandem forms):
        /// a program that answers otherwise breaks no rule.
        Convention,
        /// The answer concerns a feature a program may leave out (WXF, traditional characters,
        /// a FEN spelling met in the field …); the case carries that feature, which
        /// `features.yaml` marks `optional: true`.
        Optional,
    }
}

impl Basis {
    /// Every basis, in the order reports list them.
    pub const ALL: [Basis; 3] = [Basis::Rule, Basis::Convention, Basis::Optional];

    /// The name used in case files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Basis::Rule => "rule",
            Basis::Convention => "convention",
            Basis::Optional => "optional",
        }
    }
}

shapes! {
    /// How often a case is asked (`runs:`).
    #[derive(Copy, Default, PartialEq, Eq, Hash)]
    #[serde(rename_all = "snake_case")]
    pub enum Runs {
        /// Once under every rule set the case names (the default): the answers differ between
        /// them, or the case names one.
        #[default]
        PerRuleSet,
        /// Once in all: the answer is the same under every rule set the case names (the
        /// reference's answers agree, checked by `cases check`), so one run stands for all of
        /// them and is counted once.
        Once,
    }
}

impl Runs {
    /// The name used in case files and JSON lines.
    pub fn name(self) -> &'static str {
        match self {
            Runs::PerRuleSet => "per_rule_set",
            Runs::Once => "once",
        }
    }
}

/// A parsed case file. Field meanings are in `conformance/README.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The case's stable id (`fen-generals-facing`); retired ids are never reused.
    pub id: String,
    pub(crate) description: String,
    /// The clauses the case tests, by id.
    pub clauses: Vec<String>,
    /// The editions the case applies to (patterns expanded).
    pub editions: Vec<String>,
    /// Features the case is tagged with (`slow` …), from `features.yaml`.
    pub features: Vec<String>,
    /// The query the case asks (`legal_moves`, `ruling` …).
    pub query: String,
    /// The query input as a JSON object (protocol requests carry it verbatim).
    pub input: Map<String, Value>,
    /// The answer the rules give.
    pub expect: Expect,
    /// Where the expected answer comes from (required by `cases check`; a case without it
    /// still runs).
    pub(crate) origin: Option<Origin>,
    /// What the answer rests on (required by `cases check`; a case without it still runs).
    pub basis: Option<Basis>,
    /// Whether the case runs once for all its rule sets, or once under each.
    pub runs: Runs,
    /// For a case expecting a rejection: input fields that replace the input's to fix the one
    /// fault the rejection names (`{fen: …}`; `null` takes a field out); the input so fixed is
    /// accepted (checked by `cases check` against the reference), so the case has no second
    /// fault.
    pub fixed: Option<Map<String, Value>>,
    /// For a derived case, the id of the case it was derived from.
    pub(crate) from: Option<String>,
    pub(crate) source: Option<String>,
    /// A note for readers of the case.
    pub(crate) note: Option<String>,
    /// An event overlay (补充规定) applied to the edition, by id (`spec/overlays/<id>.yaml`).
    pub overlay: Option<String>,
    /// Path relative to the suite root, `/`-separated (`movement/horse-leg.yaml`).
    pub path: String,
    /// The conditions of the 棋例 texts the case shows holding or just failing
    /// (`qili-conditions.yaml`).
    pub conditions: super::conditions::CaseConditions,
}

shapes! {
    struct RawCase {
        id: String,
        description: String,
        clauses: Vec<String>,
        editions: Vec<String>,
        #[serde(default)]
        features: Vec<String>,
        query: String,
        input: Map<String, Value>,
        expect: Option<Value>,
        expect_by_edition: Option<BTreeMap<String, Value>>,
        origin: Option<Origin>,
        basis: Option<Basis>,
        #[serde(default)]
        runs: Runs,
        fixed: Option<Map<String, Value>>,
        from: Option<String>,
        source: Option<String>,
        note: Option<String>,
        overlay: Option<String>,
        #[serde(default)]
        conditions: super::conditions::CaseConditions,
    }
}

impl Case {
    /// Parses one case file. `path` is relative to the suite root.
    pub fn parse(path: &str, text: &str) -> Result<Case, Problem> {
        let raw: RawCase = read_yaml(path, text).map_err(|mut p| {
            p.message = format!("not a valid case file: {}", p.message);
            p
        })?;
        let expect = match (raw.expect, raw.expect_by_edition) {
            (Some(v), None) => Expect::Same(
                Expected::from_value(v)
                    .map_err(|m| Problem::new(path, locate_key(text, "expect"), m))?,
            ),
            (None, Some(map)) => {
                let mut out = BTreeMap::new();
                for (edition, v) in map {
                    let e = Expected::from_value(v).map_err(|m| {
                        Problem::new(
                            path,
                            locate_in(text, "expect_by_edition", &edition),
                            format!("{edition}: {m}"),
                        )
                    })?;
                    out.insert(edition, e);
                }
                Expect::ByEdition(out)
            }
            (Some(_), Some(_)) => {
                return Err(Problem::new(
                    path,
                    locate_key(text, "expect_by_edition"),
                    "a case has `expect` or `expect_by_edition`, not both",
                ))
            }
            (None, None) => {
                return Err(Problem::new(
                    path,
                    (1, 1),
                    "a case needs `expect` or `expect_by_edition`",
                ))
            }
        };
        Ok(Case {
            id: raw.id,
            description: raw.description,
            clauses: raw.clauses,
            editions: raw.editions,
            features: raw.features,
            query: raw.query,
            input: raw.input,
            expect,
            origin: raw.origin,
            basis: raw.basis,
            runs: raw.runs,
            fixed: raw.fixed,
            from: raw.from,
            source: raw.source,
            note: raw.note,
            overlay: raw.overlay,
            path: path.to_string(),
            conditions: raw.conditions,
        })
    }

    /// The area: first directory of the path (`movement`).
    pub fn area(&self) -> &str {
        self.path.split('/').next().unwrap_or("")
    }

    /// The path without `.yaml` (`movement/horse-leg`), matched by `--run`/`--skip` globs.
    pub fn stem_path(&self) -> &str {
        self.path.strip_suffix(".yaml").unwrap_or(&self.path)
    }

    /// The expectation for `edition`, if the case applies to it.
    pub fn expected(&self, edition: &str) -> Option<&Expected> {
        if !self.editions.iter().any(|e| e == edition) {
            return None;
        }
        match &self.expect {
            Expect::Same(e) => Some(e),
            Expect::ByEdition(m) => m.get(edition),
        }
    }

    /// Every expectation of the case with the edition it holds for.
    pub(crate) fn expectations(&self) -> Vec<(&str, &Expected)> {
        self.editions
            .iter()
            .filter_map(|e| self.expected(e).map(|x| (e.as_str(), x)))
            .collect()
    }

    /// The input with the fields of `fixed:` put in (a `null` takes the field out): the input
    /// without its fault.
    pub fn fixed_input(&self) -> Option<Map<String, Value>> {
        let mut input = self.input.clone();
        for (k, v) in self.fixed.as_ref()? {
            if v.is_null() {
                input.remove(k);
            } else {
                input.insert(k.clone(), v.clone());
            }
        }
        Some(input)
    }
}

/// Line and column (1-based) of the top-level key `key:` in a YAML text, or (1, 1).
pub(crate) fn locate_key(text: &str, key: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(key) {
            if rest.trim_start().starts_with(':') {
                return (i + 1, 1);
            }
        }
    }
    (1, 1)
}

/// Line and column of the first occurrence of `needle` at or after the top-level key `key`,
/// or the key's own place when the needle is not found.
pub(crate) fn locate_in(text: &str, key: &str, needle: &str) -> (usize, usize) {
    let (start, _) = locate_key(text, key);
    for (i, line) in text.lines().enumerate().skip(start - 1) {
        if let Some(c) = line.find(needle) {
            return (i + 1, line[..c].chars().count() + 1);
        }
    }
    (start, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "id: a-b\ndescription: d\nclauses: [movement.horse]\neditions: [cxa-2020]\nquery: perft\ninput: {fen: x, depth: 1}\nexpect: {nodes: 4}\n";

    #[test]
    fn parses_a_case() {
        let c = Case::parse("perft/a-b.yaml", GOOD).unwrap();
        assert_eq!(c.id, "a-b");
        assert_eq!(c.area(), "perft");
        assert_eq!(c.stem_path(), "perft/a-b");
        assert_eq!(
            c.expected("cxa-2020"),
            Some(&Expected::Answer(
                serde_json::from_str(r#"{"nodes":4}"#).unwrap()
            ))
        );
        assert_eq!(c.expected("cxa-1999"), None);
    }

    #[test]
    fn unknown_field_is_located() {
        let text = format!("{GOOD}colour: red\n");
        let p = Case::parse("x/a-b.yaml", &text).unwrap_err();
        assert_eq!(p.line, 8, "{p}");
        assert!(p.message.contains("unknown field `colour`"), "{p}");
    }

    #[test]
    fn reject_and_by_edition() {
        let text = GOOD.replace(
            "expect: {nodes: 4}",
            "expect_by_edition:\n  cxa-2020: {reject: fen.syntax}\n  cxa-1999: {nodes: 3}",
        );
        let c = Case::parse("x/a-b.yaml", &text).unwrap();
        assert_eq!(
            c.expected("cxa-2020"),
            Some(&Expected::Reject("fen.syntax".into()))
        );
        let bad = GOOD.replace(
            "expect: {nodes: 4}",
            "expect: {nodes: 4, reject: fen.syntax}",
        );
        let p = Case::parse("x/a-b.yaml", &bad).unwrap_err();
        assert_eq!((p.line, p.column), (7, 1), "{p}");
        let both = format!("{GOOD}expect_by_edition: {{}}\n");
        assert!(Case::parse("x/a-b.yaml", &both)
            .unwrap_err()
            .message
            .contains("not both"));
    }

    #[test]
    fn locates_values() {
        assert_eq!(locate_in(GOOD, "clauses", "movement.horse"), (3, 11));
        assert_eq!(locate_key(GOOD, "query"), (5, 1));
    }
}
