//! The implementer protocol of `conformance/PROTOCOL.md`: message types,
//! and [`serve`], which makes any [`Implementation`] speak it (this is
//! `xqspec serve`).

use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::query::{Answer, Query};
use crate::spec::Overlay;

/// Version of the protocol. Changes only when `PROTOCOL.md` changes in a way an
/// adapter must follow; independent of the case set.
pub const PROTOCOL_VERSION: u32 = 2;

/// Protocol versions this runner and `serve` speak. Version 1 adapters keep working:
/// they are never sent an overlay, nor a query they did not declare.
pub(crate) const SUPPORTED_VERSIONS: [u32; 2] = [1, 2];

/// The longest request line [`serve`] reads, in bytes (16 MiB, the line break not
/// counted). A longer line is answered with an `error` and skipped without being kept in
/// memory; the hello declares it as `limits.line_bytes`.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// The bounds of an implementation's work, declared in its hello (`limits`, an optional
/// field: adapters that declare none are unbounded as far as the runner knows). A request
/// beyond a bound is answered `unsupported`, naming it, never left unanswered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Limits {
    /// The most positions one `perft` visits: the positions reached at every ply from 1 to
    /// the depth, all counted (for the start position at depth 3: 44 + 1,920 + 79,666).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perft_nodes: Option<u64>,
    /// The most moves (`moves`) of one `ruling` query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling_plies: Option<u64>,
    /// The most moves of one `game_status` query, events of one `outcome` query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_moves: Option<u64>,
    /// The longest request line read, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_bytes: Option<u64>,
}

impl Limits {
    /// Whether no bound is declared.
    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }
}

/// The runner's bounds, sent in its hello (`limits`): an implementation that bounds its own
/// work (a perft's budget) budgets by them, and answers `unsupported` rather than run past
/// them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RunnerLimits {
    /// How long the runner waits for each answer, in milliseconds (`--timeout`); past it
    /// the request is a time-out and the implementation is restarted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

impl RunnerLimits {
    /// Whether no bound is given.
    pub fn is_empty(&self) -> bool {
        *self == RunnerLimits::default()
    }
}

/// What an implementation says about itself: the hello it answers with (PROTOCOL.md §2.1),
/// as it goes on the wire (`{"type": "hello", "protocol": 2, "implementation": {…},
/// "editions": […], "queries": […]}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "hello")]
pub struct About {
    /// The protocol version it speaks ([`PROTOCOL_VERSION`] unless a runner asked for an
    /// older one).
    pub protocol: u32,
    /// Who it is.
    pub implementation: Identity,
    /// Edition ids it answers for.
    pub editions: Vec<String>,
    /// Query names it answers.
    pub queries: Vec<String>,
    /// Whether it applies event overlays sent with an ask (protocol 2). Cases with an
    /// overlay are skipped for implementations that do not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overlays: bool,
    /// The bounds of its work (`limits` in the hello).
    #[serde(default, skip_serializing_if = "Limits::is_empty")]
    pub limits: Limits,
}

impl Default for About {
    fn default() -> About {
        About {
            protocol: PROTOCOL_VERSION,
            implementation: Identity::default(),
            editions: Vec::new(),
            queries: Vec::new(),
            overlays: false,
            limits: Limits::default(),
        }
    }
}

impl About {
    /// The hello of the implementation `name`, version `version`, answering nothing yet:
    /// `About { editions, queries, ..About::named("my-engine", "0.1.0") }`.
    pub fn named(name: impl Into<String>, version: impl Into<String>) -> About {
        About {
            implementation: Identity {
                name: name.into(),
                version: version.into(),
                ..Identity::default()
            },
            ..About::default()
        }
    }

    /// The implementation's name.
    pub fn name(&self) -> &str {
        &self.implementation.name
    }

    /// The implementation's version.
    pub fn version(&self) -> &str {
        &self.implementation.version
    }
}

/// The `implementation` object of the hello: who answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Identity {
    /// The implementation's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The language it is written in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Where to read about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub homepage: Option<String>,
}

/// One question put to an implementation: the edition, the event overlay applied to it
/// (if any), and the query.
#[derive(Clone, Copy, Debug)]
pub struct Ask<'a> {
    /// The edition (rule set) id the question is asked under.
    pub edition: &'a str,
    /// The event overlay (补充规定) applied to the edition, if any.
    pub overlay: Option<&'a Overlay>,
    /// The query.
    pub query: &'a Query,
}

/// A xiangqi implementation under test, seen from Rust.
///
/// Implement this to run the suite in-process ([`Harness`](crate::Harness)) or
/// to build a protocol adapter with [`serve`].
pub trait Implementation {
    /// Name, version, and the editions and queries answered.
    fn about(&self) -> About;
    /// Answers one query under the rules of `edition`.
    fn answer(&mut self, edition: &str, query: &Query) -> Answer;
    /// Answers one ask, which may carry an event overlay. The default answers asks without
    /// an overlay with [`Implementation::answer`] and declines the others; implementations
    /// that apply overlays (and say `overlays: true` in [`About`]) override it.
    fn answer_ask(&mut self, ask: &Ask) -> Answer {
        match ask.overlay {
            None => self.answer(ask.edition, ask.query),
            Some(o) => Answer::unsupported(format!(
                "event overlays are not applied (overlay {})",
                o.overlay
            )),
        }
    }
}

/// A request as sent on the wire.
#[allow(
    clippy::large_enum_variant,
    reason = "one request is built per case and written at once; boxing the question buys nothing"
)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// The runner's greeting: the protocol version, the suite version, the runner's name and
    /// the runner's limits. Only `protocol` is required: `suite` and `runner` are informative
    /// (a hand-typed `{"type":"hello","protocol":2}` is a hello), `limits` optional.
    Hello {
        /// The protocol version.
        protocol: u32,
        /// The suite version (informative).
        #[serde(default)]
        suite: String,
        /// The runner's name and version (informative).
        #[serde(default)]
        runner: String,
        /// The runner's bounds on the session: the time it waits for each answer.
        #[serde(default, skip_serializing_if = "RunnerLimits::is_empty")]
        limits: RunnerLimits,
    },
    /// One question.
    Ask {
        /// The request id, echoed in the answer.
        id: Value,
        /// The edition id.
        edition: String,
        /// The event overlay applied to the edition (protocol 2), absent when none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        overlay: Option<Overlay>,
        /// The query name.
        query: String,
        /// The query's input fields.
        input: Map<String, Value>,
    },
    /// The end of the session.
    Stop {},
}

/// The hello request the runner sends, telling its time limit for each answer.
pub fn hello_request(answer_timeout: std::time::Duration) -> Request {
    Request::Hello {
        protocol: PROTOCOL_VERSION,
        suite: super::suite::SUITE_VERSION.into(),
        runner: format!("xqspec {}", env!("CARGO_PKG_VERSION")),
        limits: RunnerLimits {
            timeout_ms: Some(u64::try_from(answer_timeout.as_millis()).unwrap_or(u64::MAX)),
        },
    }
}

/// Parses an implementation's hello reply line.
pub fn parse_hello(line: &str) -> Result<About, String> {
    let v: Value = crate::input::json_value(line, &crate::input::Origin::named("hello reply"))
        .map_err(|e| format!("hello reply is not JSON: {}: {}", e.what, clip(line)))?;
    if v.get("type").and_then(Value::as_str) == Some("error") {
        let m = v.get("message").and_then(Value::as_str).unwrap_or("");
        return Err(format!("the implementation refused the hello: {m}"));
    }
    /// The `type` of a message (serde writes an `About`'s but does not read it).
    #[derive(Deserialize)]
    struct Type {
        #[serde(rename = "type")]
        kind: String,
    }
    let malformed = |e: serde_json::Error| format!("malformed hello reply: {e}: {}", clip(line));
    let kind = Type::deserialize(&v).map_err(malformed);
    let mut h = About::deserialize(v).map_err(malformed)?;
    let kind = kind?.kind;
    if kind != "hello" {
        return Err(format!("expected a hello reply, got type `{kind}`"));
    }
    if !SUPPORTED_VERSIONS.contains(&h.protocol) {
        return Err(format!(
            "the implementation speaks protocol {}, this runner {}",
            h.protocol,
            SUPPORTED_VERSIONS.map(|v| v.to_string()).join(" or ")
        ));
    }
    // Overlays came with protocol 2; a version 1 reply cannot declare them.
    h.overlays &= h.protocol >= 2;
    Ok(h)
}

/// Encodes an answer to request `id` as one JSON line (without the newline).
pub(crate) fn encode_answer(id: &Value, answer: &Answer) -> String {
    let mut v = answer_json(answer);
    v["id"] = id.clone();
    v.to_string()
}

/// The hello an implementation described by `about` answers with (protocol version
/// [`PROTOCOL_VERSION`]), as JSON: `xqspec web` serves it as `/api/hello`.
pub fn hello_json(about: &About) -> Value {
    serde_json::to_value(About {
        protocol: PROTOCOL_VERSION,
        ..about.clone()
    })
    .expect("serializable")
}

/// An answer as its JSON object, without a request id: `{"result": …}`, `{"reject": {kind,
/// message}}`, `{"unsupported": {reason}}` or `{"error": {message}}`.
pub fn answer_json(answer: &Answer) -> Value {
    match answer {
        Answer::Value(m) => json!({"result": m}),
        Answer::Reject { kind, message } => json!({"reject": {"kind": kind, "message": message}}),
        Answer::Unsupported { reason } => json!({"unsupported": {"reason": reason}}),
        Answer::Error { message } => json!({"error": {"message": message}}),
    }
}

/// Decodes an answer line into its id and answer.
pub fn decode_answer(line: &str) -> Result<(Value, Answer), String> {
    let v: Value = crate::input::json_value(line, &crate::input::Origin::named("answer"))
        .map_err(|e| format!("not JSON ({}): {}", e.what, clip(line)))?;
    let Value::Object(mut m) = v else {
        return Err(format!("an answer is a JSON object: {}", clip(line)));
    };
    let id = m
        .remove("id")
        .ok_or_else(|| format!("the answer has no `id`: {}", clip(line)))?;
    m.remove("type");
    if m.len() != 1 {
        return Err(format!(
            "an answer has exactly one of `result`, `reject`, `unsupported`, `error`: {}",
            clip(line)
        ));
    }
    let (k, body) = m.into_iter().next().expect("one entry");
    let text = |o: &Value, f: &str| o.get(f).and_then(Value::as_str).map(str::to_string);
    let answer = match (k.as_str(), &body) {
        ("result", Value::Object(r)) => Answer::Value(r.clone()),
        ("reject", o) => Answer::Reject {
            kind: text(o, "kind").ok_or("`reject` needs a string `kind`")?,
            message: text(o, "message").unwrap_or_default(),
        },
        ("unsupported", o) => Answer::Unsupported {
            reason: text(o, "reason").unwrap_or_default(),
        },
        ("error", o) => Answer::Error {
            message: text(o, "message").unwrap_or_default(),
        },
        (k, _) => {
            return Err(format!(
                "unknown answer field `{k}` (or `result` is not an object): {}",
                clip(line)
            ))
        }
    };
    Ok((id, answer))
}

/// Shortens a line for an error message.
pub(crate) fn clip(line: &str) -> String {
    let mut s: String = line.chars().take(200).collect();
    if s.len() < line.len() {
        s.push('…');
    }
    s
}

/// What one request line says, or the `error` answer it gets.
fn reply_to(
    imp: &mut (impl Implementation + ?Sized),
    about: &About,
    number: usize,
    line: &str,
) -> Option<String> {
    // Read through the input layer: duplicate keys and over-deep nesting are refused too.
    let reply = match crate::input::json::<Request>(
        line,
        &crate::input::Origin::line_of("stdin", number),
    ) {
        Ok(Request::Hello { protocol, .. }) => {
            if !SUPPORTED_VERSIONS.contains(&protocol) {
                json!({"type": "error", "message": format!("this implementation speaks protocol {}, not {protocol}", SUPPORTED_VERSIONS.map(|v| v.to_string()).join(" or "))})
                    .to_string()
            } else {
                let h = About {
                    protocol,
                    overlays: about.overlays && protocol >= 2,
                    ..about.clone()
                };
                serde_json::to_string(&h).expect("serializable")
            }
        }
        Ok(Request::Stop {}) => return None,
        Ok(Request::Ask {
            id,
            edition,
            overlay,
            query,
            input,
        }) => {
            let place = format!("line {number}");
            encode_answer(
                &id,
                &answer_ask(
                    imp,
                    about,
                    &edition,
                    overlay.as_ref(),
                    &query,
                    &input,
                    &place,
                ),
            )
        }
        Err(e) => {
            let id = serde_json::from_str::<Value>(line)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .unwrap_or(Value::Null);
            encode_answer(
                &id,
                &Answer::error(format!(
                    "line {number}: unreadable request: {} (column {})",
                    e.what, e.column
                )),
            )
        }
    };
    Some(reply)
}

/// One ask answered as [`serve`] answers it: an edition or a query `about` does not list is
/// declined, input that does not make the query is an `error` (`bad input: …`), and a panic
/// of the implementation costs this answer only (an `error` naming `place`, `line 12`).
/// `xqspec web` answers its asks through this too.
pub fn answer_ask<I: Implementation + ?Sized>(
    imp: &mut I,
    about: &About,
    edition: &str,
    overlay: Option<&Overlay>,
    query: &str,
    input: &Map<String, Value>,
    place: &str,
) -> Answer {
    if !about.editions.iter().any(|e| e == edition) {
        return Answer::unsupported(format!("edition {edition} is not supported"));
    }
    if !about.queries.iter().any(|q| q == query) {
        return Answer::unsupported(format!("query {query} is not supported"));
    }
    match Query::from_parts(query, input) {
        Ok(q) => {
            let ask = Ask {
                edition,
                overlay,
                query: &q,
            };
            // A bug of the implementation costs this answer, not the session.
            catch_unwind(AssertUnwindSafe(|| imp.answer_ask(&ask))).unwrap_or_else(|p| {
                let what = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Answer::error(format!("internal error (panic) answering {place}: {what}"))
            })
        }
        Err(m) => Answer::error(format!("bad input: {m}")),
    }
}

/// Runs the protocol for `imp` over `input`/`output` until `stop` or end of
/// input. Every line but a blank one is answered, once and in order: a line that is not
/// UTF-8 (with the offset of its first bad byte), not JSON, not a request or longer than
/// [`MAX_LINE_BYTES`] gets an `error` answer (with `id` null when it cannot be read), and
/// the loop goes on; so does it after a panic of the implementation. Only an output that
/// cannot be written ends it early.
pub fn serve<I: Implementation + ?Sized>(
    imp: &mut I,
    mut input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut about = imp.about();
    about.limits.line_bytes = Some(MAX_LINE_BYTES as u64);
    let mut buf = Vec::new();
    let (mut number, mut offset) = (0usize, 0usize);
    while let Some(line) =
        crate::input::read_line_capped(&mut input, &mut buf, MAX_LINE_BYTES, true)?
    {
        number += 1;
        let start = offset;
        offset += line.consumed;
        // Over-long: more than the maximum before the line break (`buf` then holds only
        // the first `MAX_LINE_BYTES + 1` bytes).
        let reply = if line.too_long(MAX_LINE_BYTES) {
            encode_answer(
                &Value::Null,
                &Answer::error(format!(
                    "line {number} (at byte {start}) is longer than {MAX_LINE_BYTES} bytes (limits.line_bytes): not read"
                )),
            )
        } else {
            match std::str::from_utf8(&buf) {
                Err(e) => {
                    let at = e.valid_up_to();
                    encode_answer(
                        &Value::Null,
                        &Answer::error(format!(
                            "line {number} is not UTF-8: byte 0x{:02X} at byte offset {at} of the line (offset {} of the input)",
                            buf[at],
                            start + at
                        )),
                    )
                }
                Ok(text) if text.trim().is_empty() => continue,
                Ok(text) => {
                    match reply_to(imp, &about, number, text.trim_end_matches(['\n', '\r'])) {
                        Some(r) => r,
                        None => break,
                    }
                }
            }
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo;
    impl Implementation for Echo {
        fn about(&self) -> About {
            About {
                editions: vec!["cxa-2020".into()],
                queries: vec!["perft".into()],
                ..About::named("echo", "1")
            }
        }
        fn answer(&mut self, _: &str, q: &Query) -> Answer {
            match q {
                Query::Perft { depth: 9, .. } => panic!("depth nine"),
                Query::Perft { depth, .. } => Answer::nodes(*depth as u64),
                _ => Answer::error("unexpected"),
            }
        }
    }

    #[test]
    fn serve_speaks_the_protocol() {
        let input = concat!(
            r#"{"type":"hello","protocol":1,"suite":"x","runner":"y"}"#,
            "\n",
            r#"{"type":"ask","id":"a@cxa-2020","edition":"cxa-2020","query":"perft","input":{"fen":"f","depth":3}}"#,
            "\n",
            r#"{"type":"ask","id":7,"edition":"cxa-1999","query":"perft","input":{"fen":"f","depth":3}}"#,
            "\n",
            r#"{"type":"ask","id":8,"edition":"cxa-2020","query":"status","input":{"fen":"f"}}"#,
            "\n",
            r#"{"type":"ask","id":9,"edition":"cxa-2020","query":"perft","input":{"fen":"f"}}"#,
            "\n",
            "garbage\n",
            r#"{"type":"ask","id":11,"edition":"cxa-2020","query":"perft","input":{"fen":"f","depth":9}}"#,
            "\n",
            r#"{"type":"ask","id":12,"edition":"cxa-2020","query":"perft","input":{"fen":"f","depth":2}}"#,
            "\n",
            r#"{"type":"stop"}"#,
            "\n",
            r#"{"type":"ask","id":10,"edition":"cxa-2020","query":"perft","input":{"fen":"f","depth":1}}"#,
            "\n",
        );
        let mut out = Vec::new();
        serve(&mut Echo, input.as_bytes(), &mut out).unwrap();
        let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
        assert_eq!(lines.len(), 8, "{lines:#?}");
        let declared = About {
            protocol: 1,
            limits: Limits {
                line_bytes: Some(MAX_LINE_BYTES as u64),
                ..Limits::default()
            },
            ..Echo.about()
        };
        assert_eq!(parse_hello(lines[0]).unwrap(), declared);
        assert_eq!(
            decode_answer(lines[1]).unwrap(),
            (json!("a@cxa-2020"), Answer::nodes(3))
        );
        assert!(
            matches!(decode_answer(lines[2]).unwrap(), (v, Answer::Unsupported { .. }) if v == json!(7))
        );
        assert!(matches!(
            decode_answer(lines[3]).unwrap().1,
            Answer::Unsupported { .. }
        ));
        assert!(matches!(
            decode_answer(lines[4]).unwrap().1,
            Answer::Error { .. }
        ));
        assert_eq!(decode_answer(lines[5]).unwrap().0, Value::Null);
        // A panic of the implementation costs its answer only.
        assert_eq!(
            decode_answer(lines[6]).unwrap(),
            (
                json!(11),
                Answer::error("internal error (panic) answering line 7: depth nine")
            )
        );
        assert_eq!(
            decode_answer(lines[7]).unwrap(),
            (json!(12), Answer::nodes(2))
        );
    }

    #[test]
    fn answers_round_trip_and_bad_lines_are_refused() {
        for a in [
            Answer::moves(["a0a1"]),
            Answer::reject("fen.syntax", "col 3"),
            Answer::unsupported("r"),
            Answer::error("e"),
        ] {
            assert_eq!(
                decode_answer(&encode_answer(&json!("x"), &a)).unwrap(),
                (json!("x"), a)
            );
        }
        for bad in [
            "",
            "[]",
            r#"{"result":{}}"#,
            r#"{"id":1}"#,
            r#"{"id":1,"result":{},"error":{}}"#,
            r#"{"id":1,"result":3}"#,
        ] {
            assert!(decode_answer(bad).is_err(), "{bad}");
        }
        assert!(parse_hello(r#"{"type":"hello","protocol":3,"implementation":{"name":"a","version":"b"},"editions":[],"queries":[]}"#)
            .unwrap_err()
            .contains("protocol 3"));
        let v1 = parse_hello(r#"{"type":"hello","protocol":1,"implementation":{"name":"a","version":"b"},"editions":[],"queries":[],"overlays":true}"#).unwrap();
        assert!(!v1.overlays, "a version 1 hello cannot declare overlays");
    }
}
