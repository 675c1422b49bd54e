//! The text of `xqspec clock`: the table of a simulated game's clocks, the list of the
//! schemes of a rule set, and the event file.
//!
//! The event file is YAML: either a list of events, or a mapping with `events`, optional
//! `scheme` (used when `--scheme` is not given) and optional `settings` (the numbers the
//! scheme leaves to the event). Events are those of the `clock` query (PROTOCOL.md §3);
//! times are whole milliseconds or durations such as `1m30s`.

use std::collections::HashMap;

use serde_json::Value;
use tabled::builder::Builder;

use super::sim::{
    Actor, Adjustment, Event, Flag, FlagKind, KnockEffect, Timeline, Violation, ViolationKind,
};
use super::{ClockRules, Control, Scheme};
use crate::board::Side;

/// `1:30:00.000`, `4:59.999`, `-0:00.001`: a clock reading.
pub fn clock_text(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let v = ms.unsigned_abs();
    let (h, m, s, milli) = (v / 3_600_000, v / 60_000 % 60, v / 1000 % 60, v % 1000);
    if h > 0 {
        format!("{sign}{h}:{m:02}:{s:02}.{milli:03}")
    } else {
        format!("{sign}{m}:{s:02}.{milli:03}")
    }
}

/// `90m/40, then 15m/10 repeated`, `5m`: a side's periods, from (time, moves, repeat).
fn periods_text(periods: impl Iterator<Item = (String, Option<u32>, bool)>) -> String {
    periods
        .map(|(t, moves, repeat)| match (moves, repeat) {
            (Some(n), true) => format!("{t}/{n} repeated"),
            (Some(n), false) => format!("{t}/{n}"),
            (None, _) => t,
        })
        .collect::<Vec<_>>()
        .join(", then ")
}

/// A side's periods in a control.
fn control_text(c: &Control, side: Side) -> String {
    periods_text(
        c.periods[side.index()]
            .iter()
            .map(|p| (super::data::Ms(p.time).to_string(), p.moves, p.repeat)),
    )
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A Markdown table: `header`, then one line per row.
fn markdown<const N: usize>(
    header: [&str; N],
    rows: impl IntoIterator<Item = [String; N]>,
) -> String {
    let mut b = Builder::default();
    b.push_record(header);
    for row in rows {
        b.push_record(row);
    }
    crate::markdown::table_text(b, true)
}

/// One scheme of `xqspec clock --list`.
struct SchemeRow {
    scheme: String,
    article: String,
    name: String,
    red: String,
    black: String,
    increment: String,
    class: String,
    provenance: String,
}

impl SchemeRow {
    const HEADER: [&'static str; 8] = [
        "scheme",
        "article",
        "name",
        "red",
        "black",
        "increment",
        "class",
        "provenance",
    ];

    fn cells(self) -> [String; 8] {
        [
            self.scheme,
            self.article,
            self.name,
            self.red,
            self.black,
            self.increment,
            self.class,
            self.provenance,
        ]
    }
}

/// The periods and increment of a scheme whose numbers the event sets, with `event` for them.
fn open_text(s: &Scheme) -> (String, String, String) {
    use super::data::{SchemeData, TimeData};
    let Ok(d) = serde_yaml::from_value::<SchemeData>(s.template.clone()) else {
        return Default::default();
    };
    let ms = |t: &Option<super::data::Ms>| t.map_or("event".to_string(), |m| m.to_string());
    let side = |red: bool| -> String {
        periods_text(d.periods.iter().flatten().map(|p| {
            let t = match &p.time {
                TimeData::Both(t) => ms(t),
                TimeData::ByColour { red: r, black: b } => ms(if red { r } else { b }),
            };
            (t, p.moves, p.repeat)
        }))
    };
    (side(true), side(false), ms(&d.increment))
}

fn scheme_row(rules: &ClockRules, s: &Scheme) -> SchemeRow {
    let (red, black, increment, class) = match &s.control {
        Some(c) => (
            control_text(c, Side::Red),
            control_text(c, Side::Black),
            super::data::Ms(c.increment).to_string(),
            rules.class_of(s, c).unwrap_or_else(|| "—".into()),
        ),
        None => {
            let (red, black, increment) = open_text(s);
            let class = s.label.clone().unwrap_or_else(|| "by its times".into());
            (red, black, increment, class)
        }
    };
    let mut provenance = s.provenance.name().to_string();
    if let Some((r, src)) = &s.reading {
        provenance.push_str(&format!(" (reading `{r}`: {src})"));
    }
    SchemeRow {
        scheme: s.id.clone(),
        article: s.article.clone().unwrap_or_default(),
        name: s.name.clone(),
        red,
        black,
        increment,
        class,
        provenance,
    }
}

/// One event of a simulated game's table.
struct EventRow {
    number: usize,
    event: String,
    side: String,
    took: String,
    red: String,
    black: String,
    notes: String,
}

impl EventRow {
    const HEADER: [&'static str; 7] = ["#", "event", "side", "took", "red", "black", "notes"];

    fn cells(self) -> [String; 7] {
        [
            self.number.to_string(),
            self.event,
            self.side,
            self.took,
            self.red,
            self.black,
            self.notes,
        ]
    }
}

fn event_text(e: &Event) -> (String, String, u64) {
    let actor = |a: Actor| match a {
        Actor::Player(s) => s.name().to_string(),
        Actor::Arbiter => "arbiter".into(),
    };
    match *e {
        Event::Move { ms, .. } => ("move".into(), String::new(), ms),
        Event::Press { ms, .. } => ("press without moving".into(), String::new(), ms),
        Event::Stop { ms, by } => ("clock stopped".into(), actor(by), ms),
        Event::Start { by } => ("clock restarted".into(), actor(by), 0),
        Event::Knock { side, .. } => ("pieces knocked over".into(), side.name().into(), 0),
        Event::Add { to, .. } => ("time adjusted by the arbiter".into(), to.name().into(), 0),
    }
}

/// `items` grouped by the event number `event` gives each, in their order: a row's
/// notes are found in constant time, whatever the length of the game.
fn by_event<T>(items: &[T], event: impl Fn(&T) -> usize) -> HashMap<usize, Vec<&T>> {
    let mut m: HashMap<usize, Vec<&T>> = HashMap::new();
    for x in items {
        m.entry(event(x)).or_default().push(x);
    }
    m
}

/// The table of a simulated game: one row per event, both clocks after it.
pub fn timeline_table(
    rules: &ClockRules,
    control: &Control,
    events: &[Event],
    t: &Timeline,
) -> String {
    let mut rows = Vec::new();
    let start_notes = format!(
        "start: {} / {}, increment {}",
        control_text(control, Side::Red),
        control_text(control, Side::Black),
        super::data::Ms(control.increment)
    );
    rows.push(EventRow {
        number: 0,
        event: "start".into(),
        side: String::new(),
        took: String::new(),
        red: clock_text(t.start[0]),
        black: clock_text(t.start[1]),
        notes: start_notes,
    });
    let moves = by_event(&t.moves, |m| m.event);
    let adjustments = by_event(&t.adjustments, |a| a.event);
    let violations = by_event(&t.violations, |v| v.event);
    for (i, (e, after)) in events.iter().zip(&t.after).enumerate() {
        let number = i + 1;
        let (mut event, mut side, took) = event_text(e);
        if let Some(a) = after.actor {
            side = a.name().into();
        }
        let mut notes = Vec::new();
        if let Some(m) = moves.get(&number).and_then(|v| v.first()) {
            event = format!("move {}", m.number);
            if m.added > 0 {
                notes.push(format!("+{} added", super::data::Ms(m.added)));
            }
        }
        for a in adjustments
            .get(&number)
            .into_iter()
            .flatten()
            .filter(|a| a.by_rule.is_none())
        {
            notes.push(adjustment_note(a));
        }
        for v in violations.get(&number).into_iter().flatten() {
            notes.push(violation_note(rules, v));
        }
        let mut red = clock_text(after.left[0]);
        let mut black = clock_text(after.left[1]);
        if let Some(f) = t.flag.filter(|f| f.event == number) {
            if matches!(e, Event::Move { .. }) {
                event = format!("move {} (not completed)", f.move_number);
                side = f.side.name().into();
            }
            let cell = format!("FLAG ({} left)", clock_text(f.left));
            if f.side == Side::Red {
                red = cell;
            } else {
                black = cell;
            }
            notes.push(flag_note(rules, &f));
        }
        rows.push(EventRow {
            number,
            event,
            side,
            took: if took > 0
                || matches!(
                    e,
                    Event::Move { .. } | Event::Press { .. } | Event::Stop { .. }
                ) {
                clock_text(took as i64)
            } else {
                String::new()
            },
            red,
            black,
            notes: notes.join("; "),
        });
    }
    markdown(EventRow::HEADER, rows.into_iter().map(EventRow::cells))
}

/// The note of a time adjustment by the arbiter: `+1m to Red`.
fn adjustment_note(a: &Adjustment) -> String {
    format!(
        "{}{} to {}",
        if a.ms < 0 { "−" } else { "+" },
        super::data::Ms(a.ms.unsigned_abs()),
        a.side
    )
}

/// The note of a timing violation: its article and kind, and what follows (a foul or a
/// breach and how many of its kind; for knocked-over pieces, the loss or the time added).
fn violation_note(rules: &ClockRules, v: &Violation) -> String {
    let rule = rules.timing.violation_rule(v.kind);
    let article = rule.and_then(|r| r.article.clone()).unwrap_or_default();
    let what = match (v.kind, v.effect) {
        (ViolationKind::KnockedOver, Some(KnockEffect::Loss)) => {
            format!("{} loses (opponent had too little time left)", v.side)
        }
        (ViolationKind::KnockedOver, Some(KnockEffect::TimeAdded(ms))) => {
            format!("+{} to {}", super::data::Ms(ms), v.side.opponent())
        }
        _ => format!(
            "{}{}",
            if v.foul { "foul" } else { "breach, not a foul" },
            format_args!(", {}'s {} of this kind", v.side, ordinal(v.count))
        ),
    };
    format!("art. {article} {}: {what}", v.kind.name().replace('_', " "))
}

/// The note of a flag fall: whose time ran out, how far into which move, why (a quota of
/// moves not made, or sudden death) and the article.
fn flag_note(rules: &ClockRules, f: &Flag) -> String {
    let why = match (f.kind, f.moves_required) {
        (FlagKind::Quota, Some(req)) => format!("{} of {} moves made", f.moves_made, req),
        _ => "sudden death".into(),
    };
    let rule = rules.timing.flag_rule(f.kind);
    format!(
        "{}'s time ran out {} into its {} move ({why}; art. {})",
        f.side,
        clock_text(f.left),
        ordinal(f.move_number),
        rule.article.clone().unwrap_or_default()
    )
}

/// An event file as read: the scheme it names, its settings and its events.
pub(crate) type EventFile = (Option<String>, Option<Value>, Vec<Value>);

/// Reads an event file: `(scheme, settings, events)`.
pub fn read_event_file(path: &std::path::Path) -> Result<EventFile, String> {
    let v: Value = crate::input::yaml_file(path).map_err(|e| e.to_string())?;
    match v {
        Value::Array(events) => Ok((None, None, events)),
        Value::Object(mut m) => {
            if let Some(k) = m
                .keys()
                .find(|k| !["scheme", "settings", "events"].contains(&k.as_str()))
            {
                return Err(format!(
                    "{}: `{k}` is not a key of an event file (scheme, settings, events)",
                    path.display()
                ));
            }
            let scheme = match m.remove("scheme") {
                None => None,
                Some(Value::String(s)) => Some(s),
                Some(other) => {
                    return Err(format!(
                        "{}: `scheme` is a scheme id, not {other}",
                        path.display()
                    ))
                }
            };
            let events = match m.remove("events") {
                Some(Value::Array(a)) => a,
                _ => {
                    return Err(format!(
                        "{}: `events` is a list of clock events",
                        path.display()
                    ))
                }
            };
            Ok((scheme, m.remove("settings"), events))
        }
        _ => Err(format!(
            "{}: an event file is a list of events, or a mapping with `events`",
            path.display()
        )),
    }
}

/// The schemes of a rule set as a Markdown table (`xqspec clock --list`), with a note on
/// the numbers left to the event and the rapid classification.
pub fn schemes_text(rules: &ClockRules) -> String {
    let rows = rules.schemes.iter().map(|s| scheme_row(rules, s).cells());
    let mut out = format!("{}\n", markdown(SchemeRow::HEADER, rows));
    if rules.schemes.iter().any(|s| s.control.is_none()) {
        out.push_str("\nevent: a number the rulebook leaves to the event (由赛事规定); give it in the event file's `settings`, or use an overlay.\n");
    }
    if let Some(c) = &rules.classification {
        let classes: Vec<String> = c
            .classes
            .iter()
            .map(|(k, n, max)| format!("{k} ({n}) up to {} inclusive", super::data::Ms(*max)))
            .collect();
        out.push_str(&format!(
            "\nclassification (art. {}): {}; otherwise {}\n",
            c.rule.article.clone().unwrap_or_default(),
            classes.join(", "),
            c.otherwise
        ));
    }
    out
}
