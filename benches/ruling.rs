//! `cargo bench --bench ruling`: the time of a 棋例 ruling, per cycle, over every `ruling`
//! case of the suite (the 2020 book's diagrams, the AXF diagrams, constructed cycles) under
//! each rule set the case names. Each ruling is repeated and the best time kept; prints the
//! median, the 99th percentile and the slowest cycles with their length in plies (`RULING_TOP=N`
//! lists N of them, `RULING_ONLY=ID` times one case, `RULING_REPS=N` sets the repeats). The
//! issue's bound is 1 ms for a cycle of up to 16 plies on one thread. `RULING_DUMP=FILE` also
//! writes every ruling in full, one per line in the suite's order, so that a change made for
//! speed can be shown to change no ruling (`diff` two dumps).
//!
//! Every ruling carries its basis (issue 33): the cycle judged again under each inferred
//! reading switched off. The bench times each case also without the variants (a plain
//! ruling) and prints the ratio of the totals and the largest per case; the bound is 4×.

mod common;

use std::time::Instant;

use xqspec::RuleSet;
use xqspec::Suite;
use xqspec::{rule, RulingQuery};

fn main() {
    let reps: usize = common::setting("RULING_REPS", 5);
    // `RULING_ONLY=ID` times that case alone (for a profiler).
    let only = std::env::var("RULING_ONLY").ok();
    let suite = Suite::embedded();
    let sets: Vec<(String, RuleSet)> = ["axf", "cxa-1999", "cxa-2011", "cxa-2020"]
        .iter()
        .map(|e| (e.to_string(), RuleSet::builtin(e).expect("built-in spec")))
        .collect();
    let mut times: Vec<(f64, usize, String)> = Vec::new();
    let (mut total, mut total_plain, mut worst) = (0.0f64, 0.0f64, (0.0f64, String::new()));
    let mut dump = common::Dump::from_env("RULING_DUMP");
    for case in suite
        .cases
        .iter()
        .filter(|c| c.query == "ruling" && only.as_ref().is_none_or(|o| *o == c.id))
    {
        let Ok(q) =
            serde_json::from_value::<RulingQuery>(serde_json::Value::Object(case.input.clone()))
        else {
            continue;
        };
        for (id, rs) in sets.iter().filter(|(id, _)| case.editions.contains(id)) {
            let rep = rs.repetition.as_ref().expect("repetition clauses");
            let plain_rep = rep.without_variants();
            let mut best = f64::MAX;
            let mut plies = 0;
            dump.line(|| format!("{}@{id}: {:?}", case.id, rule(&rs.vm, rep, &q)));
            for _ in 0..reps {
                let t = Instant::now();
                let r = rule(&rs.vm, rep, &q);
                best = best.min(t.elapsed().as_secs_f64());
                if let Ok(r) = r {
                    plies = r.plies.len();
                }
            }
            let mut plain = f64::MAX;
            for _ in 0..reps {
                let t = Instant::now();
                let _ = rule(&rs.vm, &plain_rep, &q);
                plain = plain.min(t.elapsed().as_secs_f64());
            }
            total += best;
            total_plain += plain;
            if best / plain > worst.0 {
                worst = (best / plain, format!("{}@{id}", case.id));
            }
            times.push((best * 1e3, plies, format!("{}@{id}", case.id)));
        }
    }
    println!("the basis: {:.2}× a plain ruling over all cases ({:.1} ms against {:.1} ms); at most {:.2}× ({})", total / total_plain, total * 1e3, total_plain * 1e3, worst.0, worst.1);
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let n = times.len();
    let pct = |p: f64| times[((n as f64 - 1.0) * p) as usize].0;
    println!("{n} rulings (case × rule set), best of {reps} each");
    println!(
        "median {:.3} ms, 90th percentile {:.3} ms, 99th percentile {:.3} ms",
        pct(0.5),
        pct(0.9),
        pct(0.99)
    );
    let within: Vec<&(f64, usize, String)> = times.iter().filter(|t| t.1 <= 16).collect();
    let over = within.iter().filter(|t| t.0 >= 1.0).count();
    println!(
        "cycles of up to 16 plies: {} rulings, {over} took 1 ms or more",
        within.len()
    );
    // `RULING_TOP=N` lists the N slowest (5 by default).
    let top: usize = common::setting("RULING_TOP", 5);
    println!("slowest:");
    for (ms, plies, id) in times.iter().rev().take(top) {
        println!("  {ms:.3} ms  {plies:>2} plies  {id}");
    }
}
