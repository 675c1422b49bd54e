//! `conformance/case.schema.json`: the case format as a JSON Schema (draft
//! 2020-12), generated from the vocabularies so that it never drifts from
//! them. `xqspec cases schema --write` writes it; the suite test checks it.

use serde_json::{json, Map, Value};

use super::case::Origin;
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
        f if super::judge::DOMAIN_ANSWER_FIELDS.contains(&f) => json!({"type": "object"}),
        _ => json!({"type": "string", "minLength": 1, "pattern": "^[^\\n]*$"}),
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
        "fen" => json!({"type": "string", "minLength": 1}),
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
        defs.insert(
            format!("expect_{q}"),
            json!({"oneOf": [
                {"type": "object", "additionalProperties": false, "required": [a], "properties": answer_props},
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
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "xqspec conformance case",
        "description": "One case file of conformance/<area>/ (see conformance/README.md). Generated from vocabulary.yaml and features.yaml by `xqspec cases schema --write`. The checks that need the spec or the whole suite (clauses exist in the editions, ids unique and equal to file names, move lists sorted, expect_by_edition keys equal to editions) are made by `xqspec cases check`.",
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "description", "clauses", "editions", "query", "input", "origin"],
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
        ]).collect::<Vec<_>>(),
        "$defs": defs
    });
    let mut s = serde_json::to_string_pretty(&schema).expect("serializable");
    s.push('\n');
    s
}
