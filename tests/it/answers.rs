//! The typed answers (`src/answer.rs`) are the wire form: every answer of a rule domain the
//! reference gives over the whole suite reads into its type and writes back unchanged, and
//! every case's expectation is valid under the schema generated from those types
//! (`conformance/case.schema.json`).

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use xqspec::Expect;
use xqspec::Suite;

use crate::cli::succeeded;

use xqspec::DOMAIN_ANSWER_FIELDS as DOMAIN_FIELDS;

#[test]
fn every_domain_answer_of_the_suite_is_its_type_written_out() {
    let out = succeeded(
        Command::new(env!("CARGO_BIN_EXE_xqspec"))
            .args(["conform", "--json"])
            .current_dir(env!("CARGO_MANIFEST_DIR")),
    );
    let mut seen = std::collections::BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let Some(got) = record["got"].as_str() else {
            continue;
        };
        let Ok(Value::Object(answer)) = serde_json::from_str::<Value>(got) else {
            continue;
        };
        for (field, v) in &answer {
            if !DOMAIN_FIELDS.contains(&field.as_str()) {
                continue;
            }
            let back = xqspec::answer_round_trip(field, v)
                .unwrap_or_else(|e| panic!("{}: `{field}` is not its type: {e}", record["id"]));
            assert_eq!(&back, v, "{}: `{field}` written back differs", record["id"]);
            *seen.entry(field.clone()).or_insert(0) += 1;
        }
    }
    for &f in DOMAIN_FIELDS {
        assert!(seen.get(f).is_some_and(|n| *n > 0), "no `{f}` answer seen");
    }
    // A field the type does not know is refused, and so is a wrong type.
    let bad = serde_json::json!({"step": "s", "clause": "c", "article": null, "foul": false,
        "foul_clauses": [], "free": true, "extra": 1});
    assert!(xqspec::answer_round_trip("touch", &bad).is_err());
    let bad = serde_json::json!({"step": 1, "clause": "c", "article": null, "foul": false,
        "foul_clauses": []});
    assert!(xqspec::answer_round_trip("touch", &bad).is_err());
}

/// Where `v` departs from `schema`: the subset of JSON Schema the case schema's answers use
/// (`$ref`, `oneOf`, `anyOf`, `type`, `enum`, `const`, `properties`,
/// `additionalProperties`, `required`, `items`, `minItems`, `minimum`, `maximum`,
/// `pattern` as the two patterns it uses); any other keyword fails the test, so the
/// schema cannot outgrow the check unseen.
fn violation(root: &Value, schema: &Value, v: &Value, at: &str) -> Option<String> {
    let s = schema.as_object().expect("a schema is an object");
    for (k, w) in s {
        let bad = |what: &str| Some(format!("{at}: {what} ({w})"));
        match k.as_str() {
            "description" | "title" | "uniqueItems" | "minLength" => {}
            "$ref" => {
                let name = w.as_str().unwrap().strip_prefix("#/$defs/").unwrap();
                if let Some(e) = violation(root, &root["$defs"][name], v, at) {
                    return Some(e);
                }
            }
            "oneOf" => {
                let ok = w
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|s| violation(root, s, v, at).is_none())
                    .count();
                if ok != 1 {
                    return bad(&format!("matches {ok} branches of oneOf"));
                }
            }
            "anyOf" => {
                if w.as_array()
                    .unwrap()
                    .iter()
                    .all(|s| violation(root, s, v, at).is_some())
                {
                    return bad("matches no branch of anyOf");
                }
            }
            "type" => {
                let ok = match w.as_str().unwrap() {
                    "object" => v.is_object(),
                    "array" => v.is_array(),
                    "string" => v.is_string(),
                    "boolean" => v.is_boolean(),
                    "null" => v.is_null(),
                    "number" => v.is_number(),
                    "integer" => v.is_i64() || v.is_u64(),
                    t => panic!("type {t}"),
                };
                if !ok {
                    return bad(&format!("{v} is not of the type"));
                }
            }
            "enum" if !w.as_array().unwrap().contains(v) => return bad("not in the enum"),
            "const" if w != v => return bad("not the const"),
            "enum" | "const" => {}
            "minimum" if v.as_f64().is_some_and(|x| x < w.as_f64().unwrap()) => {
                return bad("below the minimum")
            }
            "maximum" if v.as_f64().is_some_and(|x| x > w.as_f64().unwrap()) => {
                return bad("above the maximum")
            }
            "minimum" | "maximum" => {}
            "minItems"
                if v.as_array()
                    .is_some_and(|a| a.len() < w.as_u64().unwrap() as usize) =>
            {
                return bad("too few items")
            }
            "minItems" => {}
            "pattern" => {
                let ok = match w.as_str().unwrap() {
                    "^[a-i][0-9][a-i][0-9]$" => xqspec::Move::is_iccs,
                    "^[^\\n]*$" => |t: &str| !t.contains('\n'),
                    p => panic!("the check does not know the pattern {p}"),
                };
                if v.as_str().is_some_and(|t| !ok(t)) {
                    return bad("does not match the pattern");
                }
            }
            "required" => {
                if let Value::Object(m) = v {
                    for r in w.as_array().unwrap() {
                        if !m.contains_key(r.as_str().unwrap()) {
                            return bad(&format!("`{r}` is missing"));
                        }
                    }
                }
            }
            "properties" | "additionalProperties" => {
                let Value::Object(m) = v else { continue };
                if k == "additionalProperties" && s.contains_key("properties") {
                    continue;
                }
                let props = s.get("properties").and_then(Value::as_object);
                for (name, x) in m {
                    let sub = match props.and_then(|p| p.get(name)) {
                        Some(sub) => sub,
                        None => match s.get("additionalProperties") {
                            Some(Value::Bool(false)) => {
                                return Some(format!("{at}: `{name}` is not a field"))
                            }
                            Some(Value::Object(_)) => &s["additionalProperties"],
                            _ => continue,
                        },
                    };
                    if let Some(e) = violation(root, sub, x, &format!("{at}.{name}")) {
                        return Some(e);
                    }
                }
            }
            "items" => {
                if let Value::Array(a) = v {
                    for (i, x) in a.iter().enumerate() {
                        if let Some(e) = violation(root, w, x, &format!("{at}[{i}]")) {
                            return Some(e);
                        }
                    }
                }
            }
            other => panic!("the check does not know the keyword `{other}`"),
        }
    }
    None
}

#[test]
fn every_expectation_of_the_suite_is_valid_under_the_case_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("case.schema.json")).unwrap())
            .unwrap();
    // Every answer kind is described field by field: no answer is a bare object.
    for (name, def) in schema["$defs"].as_object().unwrap() {
        let Some(q) = name.strip_prefix("expect_") else {
            continue;
        };
        let answer = &def["oneOf"][0];
        let (field, s) = answer["properties"]
            .as_object()
            .unwrap()
            .iter()
            .next()
            .unwrap();
        if s["type"] == "object" {
            assert!(
                s["properties"].as_object().is_some_and(|p| !p.is_empty()),
                "the answer `{field}` of `{q}` is described without its fields"
            );
        }
    }
    let suite = Suite::load_dir(&dir).unwrap();
    let mut checked = 0;
    for case in &suite.cases {
        let def = &schema["$defs"][format!("expect_{}", case.query)];
        assert!(
            def.is_object(),
            "{}: no schema for `{}`",
            case.id,
            case.query
        );
        let expected: Vec<_> = match &case.expect {
            Expect::Same(e) => vec![e],
            Expect::ByEdition(m) => m.values().collect(),
        };
        for e in expected {
            if let Some(err) = violation(&schema, def, &e.to_value(), "expect") {
                panic!("{}: {err}", case.path);
            }
            checked += 1;
        }
    }
    assert!(checked >= suite.cases.len());
    // The check can fail: a misspelt field of a ruling, a verdict of the wrong type.
    let def = &schema["$defs"]["expect_ruling"];
    let bad = serde_json::json!({"ruling": {"verdikt": "draw"}});
    assert!(violation(&schema, def, &bad, "expect").is_some());
    let bad = serde_json::json!({"ruling": {"verdict": 1}});
    assert!(violation(&schema, def, &bad, "expect").is_some());
    let good = serde_json::json!({"ruling": {"verdict": "draw", "plies": [{"class": "idle"}]}});
    assert_eq!(violation(&schema, def, &good, "expect"), None);
}

/// The Python type of a schema, the titled objects it holds collected into `classes`.
fn python_type(s: &Value, classes: &mut std::collections::BTreeMap<String, String>) -> String {
    if let Some(options) = s.get("anyOf").and_then(Value::as_array) {
        let null = serde_json::json!({"type": "null"});
        let types: Vec<String> = options
            .iter()
            .filter(|o| **o != null)
            .map(|o| python_type(o, classes))
            .collect();
        let one = if types.len() == 1 {
            types[0].clone()
        } else {
            format!("Union[{}]", types.join(", "))
        };
        return if options.contains(&null) {
            format!("Optional[{one}]")
        } else {
            one
        };
    }
    match s["type"].as_str().expect("a schema with a type or anyOf") {
        "string" => "str".into(),
        "integer" => "int".into(),
        "number" => "float".into(),
        "boolean" => "bool".into(),
        "array" => format!("List[{}]", python_type(&s["items"], classes)),
        "object" => match s.get("title").and_then(Value::as_str) {
            Some(title) => {
                if !classes.contains_key(title) {
                    classes.insert(title.into(), String::new());
                    let fields: Vec<String> = s["properties"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| format!("\"{k}\": {}", python_type(v, classes)))
                        .collect();
                    let doc = s["description"].as_str().unwrap_or("");
                    classes.insert(
                        title.into(),
                        format!(
                            "{title} = TypedDict(\"{title}\", {{{}}}, total=False)\n\"\"\"{doc}\"\"\"\n",
                            fields.join(", ")
                        ),
                    );
                }
                title.into()
            }
            None => format!(
                "Dict[str, {}]",
                python_type(&s["additionalProperties"], classes)
            ),
        },
        t => panic!("no Python type for {t}"),
    }
}

const STUBS_BEGIN: &str = "# The answer types, generated from conformance/case.schema.json by tests/it/answers.rs\n# (`XQSPEC_UPDATE_STUBS=1 cargo test --test it -- answers::` writes them). Every field is\n# optional (total=False), as in the schema: a field may be absent from an answer.\n";
const STUBS_END: &str = "# End of the generated answer types.\n";

#[test]
fn the_python_stubs_type_every_answer_as_the_schema_describes_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("conformance/case.schema.json")).unwrap(),
    )
    .unwrap();
    let mut classes = std::collections::BTreeMap::new();
    let mut returns = Vec::new();
    for (function, query) in [
        ("ruling", "ruling"),
        ("outcome", "outcome"),
        ("game_status", "game_status"),
        ("touch_move", "touch_move"),
        ("clock", "clock"),
        ("playoff", "playoff"),
        ("standings", "standings"),
    ] {
        let answer = &schema["$defs"][format!("expect_{query}")]["oneOf"][0]["properties"];
        let (_, s) = answer.as_object().unwrap().iter().next().unwrap();
        returns.push((function, python_type(s, &mut classes)));
    }
    let block = format!(
        "{STUBS_BEGIN}{}{STUBS_END}",
        classes.values().cloned().collect::<String>()
    );
    let path = root.join("python/xqspec/_xqspec.pyi");
    let text = std::fs::read_to_string(&path).unwrap();
    let (Some(a), Some(b)) = (text.find(STUBS_BEGIN), text.find(STUBS_END)) else {
        panic!("{} has no generated block of answer types", path.display());
    };
    let current = &text[a..b + STUBS_END.len()];
    if current != block {
        if std::env::var_os("XQSPEC_UPDATE_STUBS").is_some() {
            let updated = format!("{}{block}{}", &text[..a], &text[b + STUBS_END.len()..]);
            std::fs::write(&path, updated).unwrap();
        } else {
            panic!(
                "the answer types of {} differ from the schema's: run \
                 `XQSPEC_UPDATE_STUBS=1 cargo test --test it -- answers::`",
                path.display()
            );
        }
    }
    // Each function of a rule domain returns its answer's type.
    for (function, class) in returns {
        let def = text
            .lines()
            .find(|l| l.starts_with(&format!("def {function}(")))
            .unwrap_or_else(|| panic!("no stub of `{function}`"));
        assert!(
            def.ends_with(&format!("-> {class}:")),
            "`{function}` returns {class}: {def}"
        );
    }
}
