//! `conformance/case.schema.json`: the case format as a JSON Schema (draft
//! 2020-12), generated from the vocabularies so that it never drifts from
//! them. `xqspec cases schema --write` writes it; the suite test checks it.

use serde_json::{json, Map, Value};

use super::case::{Basis, Origin, Runs};
use super::suite::Vocabulary;

fn answer_schema(field: &str, vocab: &Vocabulary) -> Value {
    let iccs = "^[a-i][0-9][a-i][0-9]$";
    match field {
        "moves" => {
            json!({"type": "array", "items": {"type": "string", "pattern": iccs}, "uniqueItems": true})
        }
        "nodes" => json!({"type": "integer", "minimum": 0, "maximum": super::judge::MAX_COUNT}),
        "status" => json!({"enum": vocab.statuses.keys().collect::<Vec<_>>()}),
        "valid" => json!({"const": true}),
        "move" => json!({"type": "string", "pattern": iccs}),
        f => match crate::answer::domain_answer_schema(f) {
            Some(s) => s,
            None => json!({"type": "string", "minLength": 1, "pattern": "^[^\\n]*$"}),
        },
    }
}

fn input_schema(
    field: &str,
    types: &std::collections::BTreeMap<String, String>,
    vocab: &Vocabulary,
) -> Value {
    if let Some(t) = types.get(field) {
        return json!({ "type": t });
    }
    match field {
        "fen" => json!({"type": "string"}),
        "moves" => json!({"type": "array", "items": {"type": "string"}}),
        "depth" => json!({"type": "integer", "minimum": 0, "maximum": 64}),
        "notation" => json!({"enum": vocab.notations.keys().collect::<Vec<_>>()}),
        _ => json!({"type": "string"}),
    }
}

/// The JSON Schema of a case file, as pretty-printed text with a final newline.
pub fn case_schema(vocab: &Vocabulary) -> String {
    let mut defs = Map::new();
    defs.insert(
        "reject".into(),
        json!({"type": "object", "additionalProperties": false, "required": ["reject"],
               "properties": {"reject": {"enum": vocab.reject_kinds.keys().collect::<Vec<_>>()}}}),
    );
    let mut branches = Vec::new();
    for (q, spec) in &vocab.queries {
        let a = &spec.answer;
        let mut answer_props = Map::new();
        answer_props.insert(a.clone(), answer_schema(a, vocab));
        let answer = json!({"type": "object", "additionalProperties": false, "required": [a], "properties": answer_props});
        defs.insert(
            format!("expect_{q}"),
            json!({"oneOf": [
                answer,
                {"type": "object", "additionalProperties": false, "required": ["one_of"],
                 "properties": {"one_of": {"type": "array", "minItems": 2, "items": answer}}},
                {"$ref": "#/$defs/reject"}
            ]}),
        );
        let mut props = Map::new();
        for f in spec.required.iter().chain(&spec.optional) {
            props.insert(f.clone(), input_schema(f, &spec.types, vocab));
        }
        let r = format!("#/$defs/expect_{q}");
        branches.push(json!({
            "if": {"properties": {"query": {"const": q}}, "required": ["query"]},
            "then": {"properties": {
                "input": {"type": "object", "additionalProperties": false, "required": spec.required, "properties": props},
                "expect": {"$ref": r},
                "expect_by_edition": {"type": "object", "minProperties": 1, "additionalProperties": {"$ref": r}}
            }}
        }));
    }
    let optional: Vec<&str> = vocab.optional_features().iter().map(|(f, _)| *f).collect();
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "xqspec conformance case",
        "description": "One case file of conformance/<area>/ (see conformance/README.md). Generated from vocabulary.yaml and features.yaml by `xqspec cases schema --write`. The checks that need the spec, the reference or the whole suite (clauses exist in the editions, ids unique and equal to file names, move lists sorted, expect_by_edition keys equal to editions, `fixed` accepted and one edit away, `runs: once` where the answers agree) are made by `xqspec cases check`.",
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "description", "clauses", "editions", "query", "input", "origin", "basis"],
        "oneOf": [{"required": ["expect"]}, {"required": ["expect_by_edition"]}],
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 80},
            "description": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[^\\n]*$"},
            "clauses": {"type": "array", "minItems": 1, "uniqueItems": true, "items": {"type": "string"}},
            "editions": {"type": "array", "minItems": 1, "uniqueItems": true, "items": {"type": "string"}},
            "features": {"type": "array", "uniqueItems": true, "items": {"enum": vocab.features.keys().collect::<Vec<_>>()}},
            "query": {"enum": vocab.queries.keys().collect::<Vec<_>>()},
            "input": {"type": "object"},
            "expect": {"type": "object"},
            "expect_by_edition": {"type": "object"},
            "origin": {"enum": Origin::ALL.iter().map(|o| o.name()).collect::<Vec<_>>(), "description": "where the expected answer comes from: sourced (source: names it), derived (from: names the sourced case), authored (note: names the article and the reasoning)"},
            "basis": {"enum": Basis::ALL.iter().map(|b| b.name()).collect::<Vec<_>>(), "description": "what the expected answer rests on: rule (an article of the rules; its clauses give the article), convention (the suite's choice where the rules say nothing or practice varies), optional (a feature a program may leave out, named in features)"},
            "runs": {"enum": [Runs::PerRuleSet.name(), Runs::Once.name()], "description": "once: the answer is the same under every rule set of the case, so it is asked and counted once (checked against the reference by `xqspec cases check`)"},
            "fixed": {"type": "object", "minProperties": 1, "maxProperties": 1, "description": "for a case expecting a rejection: the input field that fixes the one fault the rejection names (null takes the field out); the input so fixed is accepted"},
            "from": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
            "source": {"type": "string"},
            "note": {"type": "string"},
            "overlay": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
            "conditions": {"type": "object", "additionalProperties": false, "description": "the conditions of qili-conditions.yaml (棋例 sentences) the case shows holding or just failing",
                "properties": {
                    "holds": {"type": "array", "uniqueItems": true, "items": {"type": "string", "pattern": "^[a-z0-9]+([.-][a-z0-9]+)*$"}},
                    "fails": {"type": "array", "uniqueItems": true, "items": {"type": "string", "pattern": "^[a-z0-9]+([.-][a-z0-9]+)*$"}}
                }}
        },
        "allOf": branches.into_iter().chain([
            json!({"if": {"properties": {"origin": {"const": "sourced"}}}, "then": {"required": ["source"]}}),
            json!({"if": {"properties": {"origin": {"const": "derived"}}}, "then": {"required": ["from"]}, "else": {"not": {"required": ["from"]}}}),
            json!({"if": {"properties": {"origin": {"const": "authored"}}}, "then": {"required": ["note"]}}),
            json!({"if": {"properties": {"basis": {"const": "optional"}}, "required": ["basis"]},
                   "then": {"required": ["features"], "properties": {"features": {"contains": {"enum": optional}}}},
                   "else": {"properties": {"features": {"not": {"contains": {"enum": optional}}}}}}),
        ]).collect::<Vec<_>>(),
        "$defs": defs
    });
    let mut s = serde_json::to_string_pretty(&schema).expect("serializable");
    s.push('\n');
    s
}
