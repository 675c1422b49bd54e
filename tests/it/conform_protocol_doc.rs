//! The examples in `conformance/PROTOCOL.md` are real messages: every request
//! line reads as a request, every answer line as a hello or an answer, and
//! the reference (`xqspec serve`) answers the example ask as shown.

use xqspec::protocol;
use xqspec::protocol::{decode_answer, parse_hello};
use xqspec::Reference;
use xqspec::Request;

const DOC: &str = include_str!("../../conformance/PROTOCOL.md");

/// What the built-in reference answers, as `xqspec serve`, to these request lines.
fn reference_session(input: &str) -> String {
    let mut out = Vec::new();
    protocol::serve(
        &mut Reference::builtin().unwrap(),
        input.as_bytes(),
        &mut out,
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

fn example_lines(prefix: &str) -> Vec<&'static str> {
    DOC.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(str::trim)
        .collect()
}

#[test]
fn session_example_lines_are_valid_messages() {
    let requests = example_lines("runner → ");
    let answers = example_lines("adapter← ");
    assert_eq!(
        (requests.len(), answers.len()),
        (3, 2),
        "the session example in §2"
    );
    for r in &requests {
        serde_json::from_str::<Request>(r).unwrap_or_else(|e| panic!("{r}: {e}"));
    }
    let about = parse_hello(answers[0]).unwrap();
    assert_eq!(about.queries, ["legal_moves", "perft"]);
    let (id, _) = decode_answer(answers[1]).unwrap();
    assert_eq!(id, "horse-leg-blocked@cxa-2020");
}

#[test]
fn the_reference_answers_the_example_as_shown() {
    let requests = example_lines("runner → ");
    let input = format!("{}\n{}\n{}\n", requests[0], requests[1], requests[2]);
    let out = reference_session(&input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "hello and one answer; stop ends the session"
    );
    let (shown_id, shown) = decode_answer(example_lines("adapter← ")[1]).unwrap();
    let (id, got) = decode_answer(lines[1]).unwrap();
    assert_eq!(
        (id, got.display_sorted()),
        (shown_id, shown.display_sorted())
    );
}

#[test]
fn answer_table_examples_decode() {
    for l in DOC.lines().filter(|l| {
        l.starts_with("| `result`")
            || l.starts_with("| `reject`")
            || l.starts_with("| `unsupported`")
            || l.starts_with("| `error`")
    }) {
        let example = l.rsplit('|').nth(1).unwrap().trim().trim_matches('`');
        decode_answer(example).unwrap_or_else(|e| panic!("{example}: {e}"));
    }
}

/// Every worked example of a query shown with its answer: the `→`/`←` line pairs (outcome,
/// touch_move, ruling) and the messages of the JSON blocks (clock and playoff, spread out
/// for reading; standings, two asks then their answers). Asks and answers are matched by
/// id, in order; a block with elided parts (`…`) is an illustration, not an example. The reference
/// answers every ask exactly as shown, in one session.
#[test]
fn every_query_example_is_answered_as_shown() {
    use serde_json::Value;
    let mut messages: Vec<Value> = example_lines("→ ")
        .into_iter()
        .chain(example_lines("← "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for block in DOC
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
    {
        let values: Result<Vec<Value>, _> = serde_json::Deserializer::from_str(block)
            .into_iter::<Value>()
            .collect();
        match values {
            Ok(vs) => messages.extend(vs),
            Err(e) => assert!(
                block.contains('…'),
                "a JSON block that does not parse: {e}\n{block}"
            ),
        }
    }
    // An answer goes with the first ask of its id not yet answered (examples reuse ids).
    let (asks, mut answers): (Vec<Value>, Vec<Value>) =
        messages.into_iter().partition(|m| m["type"] == "ask");
    let examples: Vec<(Value, Value)> = asks
        .into_iter()
        .filter_map(|a| {
            answers
                .iter()
                .position(|w| w["id"] == a["id"])
                .map(|i| (a, answers.remove(i)))
        })
        .collect();
    let queries: Vec<&str> = examples
        .iter()
        .map(|(a, _)| a["query"].as_str().unwrap())
        .collect();
    assert_eq!(
        queries,
        [
            "outcome",
            "touch_move",
            "ruling",
            "clock",
            "playoff",
            "standings",
            "standings"
        ]
    );
    let hello = r#"{"type":"hello","protocol":2,"suite":"x","runner":"y"}"#;
    let asks: Vec<String> = examples.iter().map(|(a, _)| a.to_string()).collect();
    let input = format!("{hello}\n{}\n", asks.join("\n"));
    let out = reference_session(&input);
    let lines: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(lines.len(), examples.len());
    for (got, (ask, want)) in lines.iter().zip(&examples) {
        let got: Value = serde_json::from_str(got).unwrap();
        assert_eq!(&got, want, "{ask}");
        decode_answer(&want.to_string()).unwrap();
    }
}

/// The limits the document shows are the ones `xqspec serve` declares.
#[test]
fn the_limits_example_is_the_reference_s() {
    let block = DOC
        .split("### 2.7 Limits")
        .nth(1)
        .unwrap()
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_str(block).unwrap();
    let hello = "{\"type\":\"hello\",\"protocol\":2,\"suite\":\"x\",\"runner\":\"y\"}\n";
    let ours: serde_json::Value = serde_json::from_str(&reference_session(hello)).unwrap();
    assert_eq!(doc["limits"], ours["limits"]);
    assert!(parse_hello(block.trim()).is_ok());
}

/// The keys of a JSON object, sorted.
fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

/// The runner's hello is the one §2 shows, field for field, with the runner's time limit.
#[test]
fn the_runner_s_hello_is_the_documented_one() {
    let shown: serde_json::Value = serde_json::from_str(example_lines("runner → ")[0]).unwrap();
    let sent =
        serde_json::to_value(protocol::hello_request(std::time::Duration::from_secs(10))).unwrap();
    assert_eq!(keys(&shown), keys(&sent));
    assert_eq!(shown["limits"], sent["limits"]);
    assert_eq!(sent["limits"]["timeout_ms"], 10000);
    assert!(
        DOC.contains("| `limits` | the runner's bounds"),
        "§2.1 documents limits"
    );
}

/// `serve` answers the hello §2.1 calls enough: `protocol` alone.
#[test]
fn a_hello_with_only_the_protocol_is_answered() {
    assert!(DOC.contains("`{\"type\":\"hello\",\"protocol\":2}`"));
    let out = reference_session("{\"type\":\"hello\",\"protocol\":2}\n");
    let about = parse_hello(out.trim()).unwrap();
    assert_eq!(about.name(), "xqspec");
}

/// §2.8 lists exactly the features `features.yaml` marks optional.
#[test]
fn every_optional_feature_is_listed() {
    let suite = xqspec::Suite::load_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance"),
    )
    .unwrap();
    let section = DOC
        .split("### 2.8 ")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let listed: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let optional: Vec<&str> = suite
        .vocabulary
        .optional_features()
        .iter()
        .map(|(f, _)| *f)
        .collect();
    assert_eq!(listed, optional);
}
/// The JSON lines of §8 have exactly the fields `xqspec conform --json` writes.
#[test]
fn the_output_lines_are_the_runner_s() {
    use std::path::Path;
    use xqspec::runner;
    use xqspec::InProcess;
    use xqspec::{RunOptions, Summary};
    let block = DOC
        .split("## 8. The runner's output")
        .nth(1)
        .unwrap()
        .split("```\n")
        .nth(1)
        .unwrap();
    let shown: Vec<serde_json::Value> = block
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(shown.len(), 3);
    let suite = xqspec::Suite::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance"))
        .unwrap();
    let opts = RunOptions {
        run: vec![shown[1]["id"].as_str().unwrap().to_string()],
        ..RunOptions::default()
    };
    let mut subject = InProcess::new(Reference::builtin().unwrap());
    let run = runner::run(&suite, &mut subject, &opts, &mut |_| {}).unwrap();
    assert_eq!(run.results.len(), 1, "the example case runs once");
    let case: serde_json::Value =
        serde_json::from_str(&runner::json_case(&run.results[0])).unwrap();
    assert_eq!(keys(&shown[1]), keys(&case));
    assert_eq!(
        (&shown[1]["rule_sets"], &shown[1]["basis"], &shown[1]["got"]),
        (&case["rule_sets"], &case["basis"], &case["got"])
    );
    let summary: serde_json::Value =
        serde_json::from_str(&runner::json_summary(&Summary::of(&run.results), None)).unwrap();
    assert_eq!(keys(&shown[2]), keys(&summary));
    let header: serde_json::Value =
        serde_json::from_str(&runner::json_header(&xqspec::About::default(), &[])).unwrap();
    assert_eq!(keys(&shown[0]), keys(&header));
}
