//! `/api/state` and `/api/pgn`: a game with the arbiter's own events, judged once.
//!
//! The page keeps a game as its moves and the arbiter's events, each event after a ply
//! (`{"ply": 12, "event": {"flag": "black"}}`). The events are the `outcome` query's
//! (a claim, a draw offer and its answer, a touch, a flag fall, a foul …), put among the
//! moves after their ply, and judged with the moves by one run of the arbiter's engine
//! (`ArbiterRules::judge_events`): the whole record (where and how the game ended, every
//! decision with its clause), and the game as it stands at the ply shown (the `game_status`
//! fields: the position, the repetitions, the orders, what the board rules next). The
//! ruling of the cycle at that ply comes with it, so every card of the page tells one story.
//! Two kinds are the arbiter's notes, kept but judged by no query ([`NOTE_KINDS`]: a
//! warning, a clock reading). Every code of the answer carries its words in English and
//! Chinese (`spec/words.yaml`, [`crate::spec::Words::annotate`]; the 棋例 words from the
//! answer's own `zh` fields).
//!
//! `/api/pgn` writes the game as a PGN record: the record's tags, the result and the
//! decision as judged, the rule set, and each event as a comment after its move
//! (`{[%xqspec flag black] flag fall, Black: …}`), which `/api/record` reads back.

use crate::answer::ToAnswer;
use serde_json::{json, Map, Value};

use crate::arbiter::{AfterEnd, ArbiterError, OutcomeQuery};
use crate::query::{Answer, Query};
use crate::ruleset::RuleSet;
use crate::spec::Overlay;

use super::{Desk, Reply};

/// The kinds of event the page keeps that no query judges: the arbiter's warning (警告,
/// 18.1, a sanction of the event, not of the game) and a clock reading.
pub(super) const NOTE_KINDS: [&str; 2] = ["warning", "clock_reading"];

/// The most events one request may carry.
pub(super) const MAX_EVENTS: usize = 1_000;

/// The longest text of a clock reading's side (`1:02:03`).
const MAX_READING_CHARS: usize = 16;

shapes! {
    /// An event of the arbiter, after a ply of the game.
    pub(super) struct PageEvent {
        /// The moves played before it (0: before the first).
        pub(super) ply: usize,
        /// The event, as the `outcome` query writes it (`{"flag": "black"}`), or a note.
        pub(super) event: Value,
    }
}

impl PageEvent {
    /// The event's kind: its one key.
    fn kind(&self) -> &str {
        self.event
            .as_object()
            .and_then(|m| m.keys().next())
            .map_or("", String::as_str)
    }

    fn is_note(&self) -> bool {
        NOTE_KINDS.contains(&self.kind())
    }
}

shapes! {
    /// A game with the arbiter's events: what `/api/state` and `/api/pgn` read.
    pub(super) struct StateBody {
        pub(super) edition: String,
        pub(super) overlay: Option<Overlay>,
        #[serde(default = "super::startpos")]
        pub(super) fen: String,
        #[serde(default)]
        pub(super) moves: Vec<String>,
        #[serde(default)]
        pub(super) events: Vec<PageEvent>,
        /// `/api/state`: the ply shown (the last when absent).
        pub(super) ply: Option<usize>,
        /// `/api/pgn`: the notation of the moves (`chinese` when absent).
        pub(super) notation: Option<String>,
        /// `/api/pgn`: the record's tags, `[name, value]` in order.
        #[serde(default)]
        pub(super) tags: Vec<[String; 2]>,
    }
}

/// Where an event of the engine's list came from.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// Move `n` (1-based ply).
    Move(usize),
    /// The page's event `j`.
    Event(usize),
}

/// The moves up to `upto` with the events (not the notes) after each ply, in order, as the
/// `outcome` query's events, and where each came from.
fn interleave(moves: &[String], events: &[PageEvent], upto: usize) -> (Vec<Value>, Vec<Source>) {
    let mut out = Vec::new();
    let mut from = Vec::new();
    for p in 0..=upto {
        for (j, e) in events.iter().enumerate() {
            if e.ply == p && !e.is_note() {
                out.push(e.event.clone());
                from.push(Source::Event(j));
            }
        }
        if let Some(m) = moves.get(p).filter(|_| p < upto) {
            out.push(json!({ "move": m }));
            from.push(Source::Move(p + 1));
        }
    }
    (out, from)
}

/// A side's name in a note (`red`, `black`).
fn is_side(v: &Value) -> bool {
    matches!(v.as_str(), Some("red" | "black"))
}

/// Checks the events before anything is judged: each after a ply of the game, each an
/// object with one key, a note well formed (the `outcome` query checks the others).
fn check_events(events: &[PageEvent], plies: usize) -> Result<(), Reply> {
    if events.len() > MAX_EVENTS {
        return Err(Reply::answer(&Answer::unsupported(format!(
            "{} events: at most {MAX_EVENTS}",
            events.len()
        ))));
    }
    for (j, e) in events.iter().enumerate() {
        let bad = |why: String| {
            Err(event_reject(
                "events.syntax",
                j,
                e,
                format!("the arbiter's event {}: {why}", j + 1),
            ))
        };
        if e.ply > plies {
            return bad(format!(
                "it comes after ply {}, but the game has {plies}",
                e.ply
            ));
        }
        if e.event.as_object().is_none_or(|m| m.len() != 1) {
            return bad("an event is an object with exactly one key".into());
        }
        let value = &e.event[e.kind()];
        let reading_ok = |v: &Value| {
            v.as_str().is_some_and(|t| {
                !t.is_empty()
                    && t.chars().count() <= MAX_READING_CHARS
                    && t.chars()
                        .all(|c| c.is_ascii_digit() || matches!(c, ':' | '.' | '\''))
            })
        };
        match e.kind() {
            "warning" if !is_side(value) => return bad("a warning names a side".into()),
            "clock_reading"
                if !value.as_object().is_some_and(|m| {
                    m.len() == 2 && reading_ok(&m["red"]) && reading_ok(&m["black"])
                }) =>
            {
                return bad(format!(
                    "a clock reading is {{\"red\": TIME, \"black\": TIME}}, each of digits, `:` and `.` (at most {MAX_READING_CHARS})"
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// A refusal of the page's event `j`: the protocol's reject, with the event's index.
fn event_reject(kind: &str, j: usize, e: &PageEvent, message: String) -> Reply {
    Reply::json(
        200,
        &json!({"reject": {"kind": kind, "message": message, "event": j, "ply": e.ply}}),
    )
}

/// The engine's refusal in the page's terms: the move or the arbiter's event it names.
fn refusal(e: ArbiterError, from: &[Source], events: &[PageEvent]) -> Reply {
    let kind = e.kind().unwrap_or("fen.syntax").to_string();
    let text = match &e {
        ArbiterError::Reject { message, .. } => message.clone(),
        other => other.to_string(),
    };
    // `events[i] (kind): why`, as the engine names an event.
    let at = text
        .strip_prefix("events[")
        .and_then(|r| r.split_once(']'))
        .and_then(|(i, rest)| Some((i.parse::<usize>().ok()?, rest)));
    match at.and_then(|(i, rest)| Some((*from.get(i)?, rest))) {
        Some((Source::Event(j), rest)) => {
            let why = rest.split_once(": ").map_or(rest, |(_, w)| w);
            event_reject(
                &kind,
                j,
                &events[j],
                format!(
                    "the arbiter's event {} ({} after ply {}): {why}",
                    j + 1,
                    events[j].kind(),
                    events[j].ply
                ),
            )
        }
        Some((Source::Move(n), rest)) => {
            let why = rest.split_once(": ").map_or(rest, |(_, w)| w);
            Reply::answer(&Answer::reject(&kind, format!("move {n}: {why}")))
        }
        None => Reply::answer(&Answer::reject(&kind, text)),
    }
}

/// The ply after which an event of the engine's list came.
fn ply_of(s: Source, events: &[PageEvent]) -> usize {
    match s {
        Source::Move(n) => n,
        Source::Event(j) => events[j].ply,
    }
}

/// The words of a 棋例 ruling's classes, reasons, patterns and statuses, from its own fields
/// (the rule set's `repetition.*` data, the reasons' sentences of `spec/words.yaml`):
/// `words: {class, reason}` on each ply, `words: {pattern, status}` on each side's pattern. A word the data gives in one language
/// only has that one.
fn ruling_words(r: &mut Value) {
    for p in r["plies"].as_array_mut().into_iter().flatten() {
        let w = json!({"class": {"en": p["class"], "zh": p["zh"]}, "reason": {"en": p["reason"], "zh": p["reason_zh"]}});
        merge_words(p, w);
    }
    for side in ["red", "black"] {
        let p = &mut r["patterns"][side];
        if !p.is_object() {
            continue;
        }
        let w = json!({"pattern": {"en": p["en"], "zh": p["zh"]}, "status": {"en": p["status"], "zh": p["status_zh"]}});
        merge_words(p, w);
    }
}

fn merge_words(v: &mut Value, w: Value) {
    let Some(m) = v.as_object_mut() else { return };
    let words = m
        .entry("words")
        .or_insert_with(|| Value::Object(Map::new()));
    if let (Some(words), Value::Object(add)) = (words.as_object_mut(), w) {
        for (k, x) in add {
            let clean: Map<String, Value> = x
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(_, t)| t.is_string())
                .map(|(l, t)| (l.clone(), t.clone()))
                .collect();
            words.insert(k, Value::Object(clean));
        }
    }
}

/// A game judged: the whole record, and the game at the ply shown.
struct Judged {
    /// The ICCS moves and the FEN they start from.
    fen: String,
    moves: Vec<String>,
    /// The outcome of the whole record, and how it stands at its end.
    whole: crate::arbiter::Outcome,
    whole_status: crate::arbiter::GameStatus,
    from: Vec<Source>,
}

impl Desk {
    /// Judges the moves and events of `b`: the whole record.
    fn judge_all(&self, rs: &RuleSet, b: &StateBody) -> Result<Judged, Reply> {
        let (fen, moves) = self.line_of(rs, &b.fen, &b.moves)?;
        check_events(&b.events, moves.len())?;
        let arbiter = rs
            .require_arbiter()
            .map_err(|e| Reply::answer(&Answer::unsupported(e)))?;
        let (evs, from) = interleave(&moves, &b.events, moves.len());
        let q = OutcomeQuery {
            fen: Some(fen.clone()),
            events: evs,
        };
        let (whole, whole_status) = arbiter
            .judge_events(rs.board(), &q, AfterEnd::Stop)
            .map_err(|e| refusal(e, &from, &b.events))?;
        Ok(Judged {
            fen,
            moves,
            whole,
            whole_status,
            from,
        })
    }

    /// `/api/state`: the game judged, whole and at the ply shown, with words.
    pub(super) fn state(&self, b: StateBody) -> Reply {
        let go = || -> Result<Reply, Reply> {
            let rs = self.ruleset(&b.edition, b.overlay.as_ref())?;
            let j = self.judge_all(&rs, &b)?;
            let n = j.moves.len();
            let p = b.ply.unwrap_or(n).min(n);
            let arbiter = rs.arbiter.as_ref().expect("judged above");
            // The game as it stood at ply p: the moves up to it and the events after them.
            let (evs, from_p) = interleave(&j.moves, &b.events, p);
            let q = OutcomeQuery {
                fen: Some(j.fen.clone()),
                events: evs,
            };
            let (so_far, at) = arbiter
                .judge_events(rs.board(), &q, AfterEnd::Stop)
                .map_err(|e| refusal(e, &from_p, &b.events))?;
            let mut at = at.to_json();
            at["fouls"] = json!({"red": so_far.fouls[0], "black": so_far.fouls[1]});
            let (pos, _) = crate::line::after(&rs.vm, &j.fen, &j.moves[..p])
                .map_err(|e| Reply::answer(&Answer::reject(e.reject_kind(), e.to_string())))?;
            // The cycle at ply p, judged up to where the game ended.
            let end_ply = j.whole_status.end.ply;
            let upto = end_ply.map_or(p, |e| e.min(p));
            let ruling = if rs.repetition.is_some()
                && upto > 0
                && upto <= crate::reference::MAX_RULING_PLIES
            {
                let q = crate::repetition::RulingQuery {
                    fen: j.fen.clone(),
                    moves: j.moves[..upto].to_vec(),
                };
                let a = crate::reference::answer_under(&rs, &Query::Ruling(q));
                let mut v = crate::conform::protocol::answer_json(&a);
                match v.get_mut("result").and_then(|r| r.get_mut("ruling")) {
                    Some(r) => {
                        ruling_words(r);
                        let mut r = r.take();
                        r["upto"] = json!(upto);
                        r
                    }
                    None => v,
                }
            } else {
                Value::Null
            };
            let mut state = json!({
                "ply": p,
                "plies": n,
                "fen": pos.to_fen(&rs.vm),
                "to_move": pos.side_to_move().name(),
                "at": at,
                "ruling": ruling,
                "game": game_json(&j, &b.events),
                "events": events_json(&j, &b.events),
            });
            rs.edition.words().annotate(&mut state);
            Ok(Reply::answer(&Answer::one("state", state)))
        };
        go().unwrap_or_else(|r| r)
    }

    /// `/api/pgn`: the game as a PGN record, with the decision and the arbiter's events.
    pub(super) fn pgn(&self, b: StateBody) -> Reply {
        let go = || -> Result<Reply, Reply> {
            let rs = self.ruleset(&b.edition, b.overlay.as_ref())?;
            let j = self.judge_all(&rs, &b)?;
            let (line, texts) = self.written(&rs, &j.fen, &j.moves, b.notation.as_deref())?;
            let words = rs.edition.words();
            let mut state =
                json!({"game": game_json(&j, &b.events), "events": events_json(&j, &b.events)});
            words.annotate(&mut state);
            let text = write_pgn(&rs, &b, &j, &texts, &state, &line.positions[0]);
            Ok(Reply {
                status: 200,
                content_type: "application/x-chess-pgn; charset=utf-8",
                body: text.into_bytes(),
            })
        };
        go().unwrap_or_else(|r| r)
    }
}

/// The whole record judged: the outcome's fields, its end and each decision placed by ply
/// and by what it came from (a move, or the page's event).
fn game_json(j: &Judged, events: &[PageEvent]) -> Value {
    let mut g = j.whole.to_json();
    let place = |i: usize| -> Value {
        match j.from.get(i) {
            Some(&Source::Move(n)) => json!({"ply": n, "move": n}),
            Some(&s @ Source::Event(e)) => json!({"ply": ply_of(s, events), "event": e}),
            None => Value::Null,
        }
    };
    g["end"] = match j.whole.event {
        Some(i) => {
            let mut e = place(i);
            e["ply"] = json!(j.whole_status.end.ply);
            e["how"] = json!(j.whole_status.end.how);
            e
        }
        None => Value::Null,
    };
    if let Some(rulings) = g["rulings"].as_array_mut() {
        for r in rulings {
            if let Some(i) = r["event"].as_u64() {
                let at = place(i as usize);
                r["at"] = at;
            }
            if let Some(m) = r.as_object_mut() {
                m.remove("event");
            }
        }
    }
    if let Some(m) = g.as_object_mut() {
        m.remove("event");
    }
    g["continues"] = match j.whole.continues {
        Some(c) => {
            let rest = &j.from[c.from..];
            let plies = rest.iter().filter(|s| matches!(s, Source::Move(_))).count();
            let first_ply = rest.iter().find_map(|s| match s {
                Source::Move(n) => Some(*n),
                Source::Event(_) => None,
            });
            json!({"plies": plies, "events": rest.len() - plies, "from_ply": first_ply})
        }
        None => Value::Null,
    };
    g
}

/// The page's events, each with its kind, whether it is a note, whether it comes after
/// the end (unjudged), and the decisions it brought.
fn events_json(j: &Judged, events: &[PageEvent]) -> Value {
    let end_index = j.whole.event;
    let cut = j.whole.continues.map(|c| c.from);
    let rulings = j.whole.to_json()["rulings"].clone();
    let index_of = |e: usize| {
        j.from
            .iter()
            .position(|s| matches!(s, Source::Event(x) if *x == e))
    };
    Value::Array(
        events
            .iter()
            .enumerate()
            .map(|(e, ev)| {
                let i = index_of(e);
                let kind = ev.kind();
                let note = ev.is_note();
                // A note after the end of the game: the ply after the end's.
                let after_end = match i {
                    Some(i) => cut.is_some_and(|c| i >= c),
                    None => j.whole_status.end.ply.is_some_and(|p| ev.ply > p),
                };
                let mine: Vec<Value> = rulings
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|r| i.is_some() && r["event"].as_u64() == i.map(|i| i as u64))
                    .map(|r| {
                        let mut r = r.clone();
                        if let Some(m) = r.as_object_mut() {
                            m.remove("event");
                        }
                        r
                    })
                    .collect();
                let mut v = json!({
                    "ply": ev.ply,
                    "event": ev.event,
                    "note": note,
                    "after_end": after_end,
                    "ends_game": i.is_some() && i == end_index,
                    "rulings": mine,
                });
                v[if note { "note_kind" } else { "event_kind" }] = json!(kind);
                if let Some(side) = ev.event[kind]
                    .as_str()
                    .or_else(|| ev.event[kind]["side"].as_str())
                {
                    v["side"] = json!(side);
                }
                v
            })
            .collect(),
    )
}

/// An event as the text of a PGN comment command, `[%xqspec KIND ARGS]`: a side-valued
/// event `flag black`, a touch `touch red e3 b9` (`together` when at once), a clock reading
/// `clock_reading 1:02:03 0:45:00` (Red's, then Black's), any other event whose value is
/// an object of words, whole numbers and booleans as `key=value` pairs (`late red=600`,
/// `illegal_move move=h0h5`). `None` for another shape.
pub(super) fn event_text(event: &Value) -> Option<String> {
    let (kind, v) = event.as_object()?.iter().next()?;
    let word = |x: &Value| {
        x.as_str()
            .filter(|t| {
                !t.is_empty()
                    && t.chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '.' | '\'' | '_'))
            })
            .map(str::to_string)
    };
    let args: Vec<String> = match v {
        Value::String(_) => vec![word(v)?],
        Value::Object(m) if kind == "touch" => {
            let mut a = vec![word(&m["side"])?];
            for p in m["points"].as_array()? {
                a.push(word(p)?);
            }
            if m.get("simultaneous") == Some(&Value::Bool(true)) {
                a.push("together".into());
            }
            (m.len() <= 3).then_some(())?;
            a
        }
        Value::Object(m) if kind == "clock_reading" => vec![word(&m["red"])?, word(&m["black"])?],
        Value::Object(m) if !m.is_empty() => m
            .iter()
            .map(|(k, x)| {
                let v = match x {
                    Value::Number(n) if n.is_i64() => n.to_string(),
                    Value::Bool(b) => b.to_string(),
                    _ => word(x)?,
                };
                Some(format!("{}={v}", word(&json!(k))?))
            })
            .collect::<Option<_>>()?,
        _ => return None,
    };
    word(&json!(kind))?;
    Some(format!("[%xqspec {kind} {}]", args.join(" ")))
}

/// The event of a comment command written by [`event_text`], if the comment holds one.
pub(super) fn event_of_text(comment: &str) -> Option<Value> {
    let start = comment.find("[%xqspec ")? + "[%xqspec ".len();
    let body = &comment[start..];
    let body = &body[..body.find(']')?];
    let mut parts = body.split_whitespace();
    let kind = parts.next()?;
    let args: Vec<&str> = parts.collect();
    let value = match kind {
        "touch" => {
            let (side, rest) = args.split_first()?;
            let together = rest.last() == Some(&"together");
            let points = if together {
                &rest[..rest.len() - 1]
            } else {
                rest
            };
            let mut v = json!({"side": side, "points": points});
            if together {
                v["simultaneous"] = json!(true);
            }
            v
        }
        "clock_reading" => match args.as_slice() {
            [r, b] => json!({"red": r, "black": b}),
            _ => return None,
        },
        _ if !args.is_empty() && args.iter().all(|a| a.contains('=')) => {
            let mut m = serde_json::Map::new();
            for a in &args {
                let (k, v) = a.split_once('=')?;
                let v = match v {
                    "true" => json!(true),
                    "false" => json!(false),
                    _ => v.parse::<i64>().map_or_else(|_| json!(v), |n| json!(n)),
                };
                m.insert(k.to_string(), v);
            }
            Value::Object(m)
        }
        _ => match args.as_slice() {
            [one] => json!(one),
            _ => return None,
        },
    };
    Some(json!({ kind: value }))
}

/// A tag value as PGN writes it (`\` and `"` escaped).
fn tag_value(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment's text with no brace to end it early.
fn comment_text(t: &str) -> String {
    t.replace(['{', '}'], "")
}

/// The English words of `obj`'s `field` (the annotation), else the code.
fn en(obj: &Value, field: &str) -> String {
    obj["words"][field]["en"].as_str().map_or_else(
        || obj[field].as_str().unwrap_or("").replace('_', " "),
        str::to_string,
    )
}

/// A decision in words: `Black: loses (result.time, art. 4.1.6)`.
fn decision_words(r: &Value) -> String {
    let side = if r["side"].is_string() {
        format!("{}: ", en(r, "side"))
    } else {
        String::new()
    };
    let cite = match (r["clause"].as_str(), r["article"].as_str()) {
        (Some(c), Some(a)) => format!(" ({c}, art. {a})"),
        (Some(c), None) => format!(" ({c})"),
        _ => String::new(),
    };
    format!("{side}{}{cite}", en(r, "decision"))
}

/// A page event as a PGN comment: its kind, side, clock reading, the arbiter's decisions
/// on it, and whether it came after the end. `v` is the event as the judged state has it.
fn event_comment(v: &Value, ev: &PageEvent) -> String {
    let name = if v["note"] == true {
        en(v, "note_kind")
    } else {
        en(v, "event_kind")
    };
    let who = v["side"]
        .as_str()
        .map(|_| format!(", {}", en(v, "side")))
        .unwrap_or_default();
    let mut text = event_text(&ev.event).map_or(String::new(), |t| format!("{t} "));
    text.push_str(&format!("{name}{who}"));
    if let Value::Object(m) = &ev.event {
        if let Some(Value::Object(r)) = m.get("clock_reading") {
            text.push_str(&format!(
                ": Red {}, Black {}",
                r["red"].as_str().unwrap_or(""),
                r["black"].as_str().unwrap_or("")
            ));
        }
    }
    let decided: Vec<String> = v["rulings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(decision_words)
        .collect();
    if !decided.is_empty() {
        text.push_str(&format!(" — {}", decided.join("; ")));
    }
    if v["after_end"] == true {
        text.push_str(" (after the end of the game: not judged)");
    }
    format!("{{{}}}", comment_text(&text))
}

/// `items` joined by spaces into lines of at most `width` characters (an item longer than
/// that on a line of its own), each line ended.
fn wrapped(items: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for it in items {
        if !line.is_empty() && line.chars().count() + 1 + it.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(it);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// The record: the tags given (but those written here), the result and decision judged,
/// the rule set, the moves with the arbiter's events as comments, the result token.
fn write_pgn(
    rs: &RuleSet,
    b: &StateBody,
    j: &Judged,
    texts: &[String],
    state: &Value,
    start: &crate::vm::Position,
) -> String {
    let game = &state["game"];
    const OURS: [&str; 6] = [
        "Result",
        "FEN",
        "SetUp",
        "RuleSet",
        "EventRules",
        "Decision",
    ];
    let recorded = b
        .tags
        .iter()
        .find(|[k, _]| k.eq_ignore_ascii_case("Result"))
        .map(|[_, v]| v.as_str());
    let ended = game["result"].as_str().filter(|r| *r != "ongoing");
    let result = match ended {
        Some(r) => crate::notation::pgn::token_of_result(r),
        None => recorded
            .filter(|r| crate::notation::pgn::result_of_token(r).is_some())
            .unwrap_or("*"),
    };
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", tag_value(v)));
    for [k, v] in &b.tags {
        let fine = !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if fine && !OURS.iter().any(|o| o.eq_ignore_ascii_case(k)) {
            tag(k, v);
        }
    }
    tag("Result", result);
    if j.fen != rs.vm.start_position().to_fen(&rs.vm) {
        tag("FEN", &j.fen);
    }
    tag("RuleSet", &b.edition);
    if let Some(o) = &b.overlay {
        tag("EventRules", &o.overlay);
    }
    if ended.is_some() {
        let end = &game["end"];
        let mut d = en(game, "result");
        if let Some(h) = end["how"].as_str() {
            let how = rs.edition.words().en("how", h);
            d.push_str(&format!(": {how}"));
        }
        if let (Some(c), Some(a)) = (game["clause"].as_str(), game["article"].as_str()) {
            d.push_str(&format!(" ({c}, art. {a})"));
        }
        if let Some(p) = end["ply"].as_u64() {
            d.push_str(&format!(", after ply {p}"));
        }
        tag("Decision", &d);
    }
    out.push('\n');
    // The movetext, each event as a comment after its ply, lines of at most 80 characters.
    let mut items: Vec<String> = Vec::new();
    let comment_of = |e: usize, ev: &PageEvent| event_comment(&state["events"][e], ev);
    // Move numbers as the reader counts them: from the FEN's fullmove number.
    let black_first = start.side_to_move() == crate::board::Side::Black;
    let fullmove0 = start.fullmove_number() as usize;
    for p in 0..=texts.len() {
        for (e, ev) in b.events.iter().enumerate().filter(|(_, e)| e.ply == p) {
            items.push(comment_of(e, ev));
        }
        if p < texts.len() {
            let k = p + usize::from(black_first);
            if k % 2 == 0 {
                items.push(format!("{}.", fullmove0 + k / 2));
            } else if p == 0 || items.last().is_none_or(|l| l.starts_with('{')) {
                items.push(format!("{}...", fullmove0 + k / 2));
            }
            items.push(texts[p].clone());
        }
    }
    items.push(result.to_string());
    out.push_str(&wrapped(&items, 80));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_go_into_comments_and_back() {
        for e in [
            json!({"flag": "black"}),
            json!({"claim_natural_limit": "red"}),
            json!({"touch": {"side": "red", "points": ["e3", "b9"]}}),
            json!({"touch": {"side": "black", "points": ["b7"], "simultaneous": true}}),
            json!({"clock_reading": {"red": "1:02:03", "black": "0:45:00"}}),
            json!({"warning": "red"}),
            json!({"late": {"red": 600}}),
            json!({"illegal_move": {"move": "h0h5"}}),
            json!({"colours_reversed": {"found_after_seconds": 360}}),
            json!({"knock_over": {"side": "red", "pieces": 2, "after_press": true}}),
            json!({"refuse_rules": "black"}),
        ] {
            let t = event_text(&e).unwrap_or_else(|| panic!("{e}"));
            assert_eq!(event_of_text(&format!("{t} words")), Some(e.clone()), "{t}");
        }
        // Shapes the comment form does not hold, and text that is no command.
        assert_eq!(event_text(&json!({"late": {"red": 30.5}})), None);
        assert_eq!(event_text(&json!({"late": {}})), None);
        assert_eq!(event_text(&json!({"displaced": {"from": "e3 e4"}})), None);
        assert_eq!(event_text(&json!({"flag": "bl}ack"})), None);
        assert_eq!(event_of_text("a comment [%clk 0:10:00]"), None);
        assert_eq!(event_of_text("[%xqspec flag]"), None);
    }
}
