//! `xqspec serve` never dies and never stalls: through the binary, with raw bytes on its
//! stdin, every line is answered once and in order, whatever it holds, and every request's
//! work is bounded by the limits its hello declares.

use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};
use xqspec::MAX_LINE_BYTES;
use xqspec::{MAX_GAME_MOVES, MAX_RULING_PLIES, PERFT_NODE_BUDGET};

const BIN: &str = env!("CARGO_BIN_EXE_xqspec");
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Runs `xqspec serve` on `input`: its answer lines, parsed, and the CPU time it used.
fn serve(input: &[u8]) -> (Vec<Value>, Duration) {
    let (out, cpu) = crate::load::output_timed(Command::new(BIN).arg("serve"), input);
    assert!(out.status.success(), "serve exited with {}", out.status);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    (lines, Duration::from_secs_f64(cpu))
}

fn ask(id: u64, query: &str, input: Value) -> String {
    json!({"type": "ask", "id": id, "edition": "cxa-2020", "query": query, "input": input})
        .to_string()
        + "\n"
}

fn perft(id: u64, depth: u32) -> String {
    ask(
        id,
        "perft",
        json!({"fen": START, "moves": [], "depth": depth}),
    )
}

fn error_message(v: &Value) -> &str {
    v["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("not an error answer: {v}"))
}

/// The reason of an `unsupported` answer: a request beyond a declared bound (PROTOCOL.md §2.7).
fn declined(v: &Value) -> &str {
    v["unsupported"]["reason"]
        .as_str()
        .unwrap_or_else(|| panic!("not an unsupported answer: {v}"))
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_next_one_too() {
    let first = perft(1, 1);
    let mut input = first.as_bytes().to_vec();
    input.extend_from_slice(b"{\"type\":\"ask\",\"id\":\xFF\xFE}\n");
    input.extend_from_slice(perft(3, 2).as_bytes());
    let (answers, _) = serve(&input);
    assert_eq!(answers.len(), 3, "{answers:#?}");
    assert_eq!(answers[0], json!({"id": 1, "result": {"nodes": 44}}));
    assert_eq!(answers[1]["id"], Value::Null);
    assert_eq!(
        error_message(&answers[1]),
        format!(
            "line 2 is not UTF-8: byte 0xFF at byte offset 19 of the line (offset {} of the input)",
            first.len() + 19
        )
    );
    assert_eq!(answers[2], json!({"id": 3, "result": {"nodes": 1920}}));
}

#[test]
fn garbage_and_non_requests_get_an_error_each() {
    let mut input = String::new();
    input.push_str("garbage\n");
    input.push_str("\n   \n"); // blank lines are not requests: no answer
    input.push_str("{\"type\":\"dance\",\"id\":5}\n");
    input.push_str("[1,2,3]\n");
    input.push_str("{\"type\":\"ask\",\"id\":6,\"edition\":\"cxa-2020\",\"query\":\"perft\",\"input\":{\"fen\":3,\"depth\":1}}\n");
    input.push_str(&perft(7, 1));
    input.push_str("{\"type\":\"ask\",\"id\":8,\"edition\":\"cxa-2020\",\"query\":\"perft\",\"input\":{\"depth\":1,\"depth\":9}}\n");
    let (answers, _) = serve(input.as_bytes());
    assert_eq!(answers.len(), 6, "{answers:#?}");
    assert_eq!(answers[5]["id"], json!(8));
    assert!(
        error_message(&answers[5]).starts_with("line 8: unreadable request: ")
            && error_message(&answers[5]).contains("duplicate key `depth`"),
        "{}",
        answers[5]
    );
    assert_eq!(answers[0]["id"], Value::Null);
    assert_eq!(
        error_message(&answers[0]),
        "line 1: unreadable request: expected value (column 1)"
    );
    assert_eq!(answers[1]["id"], json!(5));
    assert!(
        error_message(&answers[1])
            .starts_with("line 4: unreadable request: unknown variant `dance`"),
        "{}",
        answers[1]
    );
    assert_eq!(answers[2]["id"], Value::Null);
    assert!(
        error_message(&answers[2]).starts_with("line 5: unreadable request:"),
        "{}",
        answers[2]
    );
    assert_eq!(
        error_message(&answers[3]),
        "bad input: input `fen` is a string"
    );
    assert_eq!(answers[4], json!({"id": 7, "result": {"nodes": 44}}));
}

#[test]
fn the_hello_declares_the_limits() {
    let hello =
        json!({"type": "hello", "protocol": 2, "suite": "x", "runner": "y"}).to_string() + "\n";
    let (answers, _) = serve(hello.as_bytes());
    assert_eq!(
        answers[0]["limits"],
        json!({"perft_nodes": PERFT_NODE_BUDGET, "ruling_plies": MAX_RULING_PLIES, "game_moves": MAX_GAME_MOVES, "line_bytes": MAX_LINE_BYTES})
    );
    // A version 1 hello gets them too (an additive field, ignored by who does not know it).
    let hello1 =
        json!({"type": "hello", "protocol": 1, "suite": "x", "runner": "y"}).to_string() + "\n";
    assert_eq!(
        serve(hello1.as_bytes()).0[0]["limits"]["perft_nodes"],
        json!(PERFT_NODE_BUDGET)
    );
}

#[test]
fn a_perft_beyond_the_budget_is_refused_quickly_and_does_not_block() {
    // Depth 64 is inside the documented range; its tree is beyond any budget.
    let input = perft(1, 64) + &perft(2, 3);
    let (answers, took) = serve(input.as_bytes());
    assert_eq!(answers.len(), 2, "{answers:#?}");
    assert_eq!(
        declined(&answers[0]),
        format!("perft depth 64 stopped: more than {PERFT_NODE_BUDGET} positions to visit (the node budget), limits.perft_nodes")
    );
    assert_eq!(answers[1], json!({"id": 2, "result": {"nodes": 79666}}));
    assert!(took < Duration::from_secs(1), "took {took:?}");
}

#[test]
fn a_perft_within_the_budget_is_counted() {
    // The start position at depth 4 visits 44 + 1,920 + 79,666 + 3,290,240 positions.
    let (answers, _) = serve(perft(1, 4).as_bytes());
    assert_eq!(answers[0], json!({"id": 1, "result": {"nodes": 3290240}}));
}

#[test]
fn an_over_long_line_is_refused_without_reading_it_into_memory() {
    let mut input = Vec::with_capacity(MAX_LINE_BYTES + 1000);
    input.extend_from_slice(b"{\"type\":\"ask\",\"id\":1,\"junk\":\"");
    input.resize(MAX_LINE_BYTES + 10, b'x');
    input.extend_from_slice(b"\"}\n");
    let at = input.len();
    input.extend_from_slice(perft(2, 1).as_bytes());
    let (answers, _) = serve(&input);
    assert_eq!(answers.len(), 2, "{answers:#?}");
    assert_eq!(
        error_message(&answers[0]),
        format!("line 1 (at byte 0) is longer than {MAX_LINE_BYTES} bytes (limits.line_bytes): not read")
    );
    assert_eq!(answers[1], json!({"id": 2, "result": {"nodes": 44}}));
    assert!(at > MAX_LINE_BYTES);
    // A line of exactly the maximum is read (here: not JSON, so an error of another kind).
    let mut exact = vec![b' '; MAX_LINE_BYTES - 1];
    exact.push(b'x');
    exact.push(b'\n');
    let (answers, _) = serve(&exact);
    assert!(
        error_message(&answers[0]).starts_with("line 1: unreadable request"),
        "{}",
        answers[0]
    );
}

/// A query with `bound + 4` moves is declined with the bound's name, and the next request
/// on the same stream is still answered, all within `secs` seconds.
fn refused_beyond_its_bound(query: &str, bound: usize, what: &str, key: &str, secs: u64) {
    let moves: Vec<&str> = ["h0g2", "h9g7", "g2h0", "g7h9"]
        .iter()
        .copied()
        .cycle()
        .take(bound + 4)
        .collect();
    let input = ask(1, query, json!({"fen": START, "moves": moves})) + &perft(2, 1);
    let (answers, took) = serve(input.as_bytes());
    assert_eq!(
        declined(&answers[0]),
        format!("{} moves: {what} takes at most {bound} ({key})", bound + 4),
        "{query}"
    );
    assert_eq!(
        answers[1],
        json!({"id": 2, "result": {"nodes": 44}}),
        "{query}"
    );
    assert!(took < Duration::from_secs(secs), "{query} took {took:?}");
}

#[test]
fn a_ruling_beyond_its_bound_is_refused() {
    refused_beyond_its_bound(
        "ruling",
        MAX_RULING_PLIES,
        "a ruling",
        "limits.ruling_plies",
        1,
    );
}

#[test]
fn a_game_status_beyond_its_bound_is_refused() {
    refused_beyond_its_bound(
        "game_status",
        MAX_GAME_MOVES,
        "a game status",
        "limits.game_moves",
        2,
    );
}
