//! Clock simulation speed: a game of 200 moves a side (400 clock events, one per move)
//! under a 1999 quota scheme and under the 2020 blitz control, simulated from parsed events
//! and answered as the whole `clock` query (events read from JSON, answer built).
//! The target: a 200-move game in under 50 µs (the simulation). The whole query also
//! reads the events from JSON and builds the answer object (a JSON object per move), which
//! costs more than the simulation; both are printed. Run with `cargo bench --bench clock`.
//! Then the growth (issue 16: linear time) of the `xqspec clock` table and of the JSON
//! answer at 1,000, 10,000 and 100,000 events.

use std::time::{Duration, Instant};

use serde_json::Value;
use xqspec::RuleSet;
use xqspec::{ClockQuery, ClockRules};

fn rules(edition: &str) -> ClockRules {
    RuleSet::builtin(edition).unwrap().clock.unwrap()
}

#[path = "../tests/it/common/load.rs"]
mod load;

/// `plies` move events with times that keep both sides in time (a seeded spread).
fn game(plies: usize, max_ms: u64) -> Vec<Value> {
    load::move_events(plies, max_ms)
}

fn time<F: FnMut()>(mut f: F) -> f64 {
    for _ in 0..1000 {
        f();
    }
    let mut runs = 0u64;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        for _ in 0..100 {
            f();
        }
        runs += 100;
    }
    start.elapsed().as_secs_f64() * 1e6 / runs as f64
}

fn main() {
    // 1999 scheme 1 (40 moves in 90 minutes, then 10 in 15) and 2020's blitz play-off control.
    for (edition, scheme, max_ms) in [
        ("cxa-1999", "quota_90_40", 120_000),
        ("cxa-2020", "blitz_5m_3s", 3_000),
    ] {
        let r = rules(edition);
        let s = r.scheme(scheme).unwrap();
        let control = r.control(s, None).unwrap();
        for plies in [200, 400] {
            let values = game(plies, max_ms);
            let events = xqspec::parse_clock_events(&values).unwrap();
            let t = xqspec::simulate_clock(&control, &r.timing, &events).unwrap();
            assert!(
                t.flag.is_none() && t.moves.len() == plies,
                "the benchmark game must run to its end"
            );
            let sim_us = time(|| {
                std::hint::black_box(
                    xqspec::simulate_clock(&control, &r.timing, std::hint::black_box(&events))
                        .unwrap(),
                );
            });
            let parse_us = time(|| {
                std::hint::black_box(
                    xqspec::parse_clock_events(std::hint::black_box(&values)).unwrap(),
                );
            });
            let json_us = time(|| {
                std::hint::black_box(r.timeline_json(s, &control, std::hint::black_box(&t)));
            });
            let q = ClockQuery {
                scheme: scheme.into(),
                settings: None,
                events: values,
            };
            let query_us = time(|| {
                std::hint::black_box(r.answer_clock(std::hint::black_box(&q)).unwrap());
            });
            println!(
                "{edition} {scheme:<12} {plies:>3} events ({:>3} moves a side): simulate {sim_us:>6.2} µs | read events {parse_us:>6.2} µs, answer object {json_us:>7.2} µs, whole query {query_us:>7.2} µs",
                plies / 2
            );
        }
    }

    let r = rules("cxa-1999");
    let s = r.scheme("quota_90_40").unwrap();
    let control = r.control(s, None).unwrap();
    let simulated = |n: usize| {
        let values = game(n, 120_000);
        let events = xqspec::parse_clock_events(&values).unwrap();
        let t = xqspec::simulate_clock(&control, &r.timing, &events).unwrap();
        (values, events, t)
    };
    load::growth(
        "clock table, events",
        1_000,
        3,
        simulated,
        |(_, events, t)| {
            std::hint::black_box(xqspec::timeline_table(&r, &control, events, t));
        },
    );
    load::growth(
        "clock --json (whole query), events",
        1_000,
        3,
        |n| ClockQuery {
            scheme: "quota_90_40".into(),
            settings: None,
            events: game(n, 120_000),
        },
        |q| {
            std::hint::black_box(r.answer_clock(q).unwrap());
        },
    );
}
