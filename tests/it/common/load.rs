//! Inputs of a chosen size for the load tests and the growth benchmarks (issue 16: time
//! grows linearly with the input): tournament files, clock event lists, move lists. Each
//! is the same on every run (a fixed pseudo-random sequence). Included with `#[path]` by
//! `tests/it/main.rs` and the benches. Also the stopwatches of the tests that bound a time:
//! they count the CPU time of the work measured, so that a busy machine (other builds, the
//! other tests of the binary running beside it) does not fail a bound the code meets.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::Read as _;
use std::process::{Command, Output, Stdio};
use std::time::Instant;

/// CPU seconds the calling thread has run, where the system says (Linux:
/// `/proc/thread-self/schedstat`, in nanoseconds).
fn thread_cpu() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(text.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

/// Times the work of the calling thread: its CPU time where the system tells it, else the
/// time on the wall.
pub struct Stopwatch {
    cpu: Option<f64>,
    wall: Instant,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch {
            cpu: thread_cpu(),
            wall: Instant::now(),
        }
    }

    pub fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// CPU seconds (user and system) the process `pid` has used, where the system says (Linux:
/// `/proc/PID/stat`, in ticks of 1/100 s).
fn process_cpu(pid: u32) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Runs `cmd` with `input` on its standard input to the end: its output, and the seconds of
/// CPU it used (read before it is reaped), or of the wall where the system does not say.
pub fn output_timed(cmd: &mut Command, input: &[u8]) -> (Output, f64) {
    let wall = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let bytes = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut stdin, &bytes);
    });
    let mut err_pipe = child.stderr.take().unwrap();
    let errs = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    let stderr = errs.join().unwrap();
    writer.join().unwrap();
    let cpu = process_cpu(pid);
    let status = child.wait().unwrap();
    (
        Output {
            status,
            stdout,
            stderr,
        },
        cpu.unwrap_or_else(|| wall.elapsed().as_secs_f64()),
    )
}

use serde_json::{json, Value};

/// A linear congruential generator: the same input on every run.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// A Swiss tournament file: `players` players (ids `P0`, `P1` …), `rounds` rounds, every
/// player paired once a round (pairings shuffled, results drawn), under `order`.
pub fn swiss_yaml(players: usize, rounds: usize, order: &str) -> String {
    let mut rng = Lcg(2020);
    let mut s = format!("format: swiss\norder: {order}\nrounds: {rounds}\nplayers:\n");
    for i in 0..players {
        writeln!(s, "  - {{id: P{i}}}").unwrap();
    }
    s.push_str("games:\n");
    let mut ids: Vec<usize> = (0..players).collect();
    for r in 1..=rounds {
        for i in (1..ids.len()).rev() {
            let j = (rng.next() as usize) % (i + 1);
            ids.swap(i, j);
        }
        for pair in ids.chunks_exact(2) {
            let result = ["red", "black", "draw"][(rng.next() % 3) as usize];
            writeln!(
                s,
                "  - {{round: {r}, red: P{}, black: P{}, result: {result}}}",
                pair[0], pair[1]
            )
            .unwrap();
        }
    }
    s
}

/// A one-round Swiss of `games` games among `games + 1` players in which every game after
/// the first books player `P0` again: one double booking per game.
pub fn double_booked_yaml(games: usize) -> String {
    let mut s = String::from("format: swiss\nrounds: 1\nplayers:\n");
    for i in 0..=games {
        writeln!(s, "  - {{id: P{i}}}").unwrap();
    }
    s.push_str("games:\n");
    for i in 1..=games {
        writeln!(s, "  - {{round: 1, red: P0, black: P{i}, result: draw}}").unwrap();
    }
    s
}

/// `plies` clock `move` events whose times keep both sides in time under `max_ms` a move.
pub fn move_events(plies: usize, max_ms: u64) -> Vec<Value> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..plies)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            json!({"move": state % max_ms})
        })
        .collect()
}

/// The two chariots going back and forth from the start position, `plies` moves (ICCS).
pub fn shuffle_moves(plies: usize) -> Vec<String> {
    ["a0a1", "a9a8", "a1a0", "a8a9"]
        .iter()
        .cycle()
        .take(plies)
        .map(|m| m.to_string())
        .collect()
}

/// Seconds `f` takes (the best of `runs`).
pub fn seconds<F: FnMut()>(runs: usize, mut f: F) -> f64 {
    (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Times `run` on the input `prepare` makes of size `n`, `10 n` and `100 n` (the best of
/// `runs` each; preparing is not timed), prints the times with their ratios (linear: about
/// 10× and 100×) and returns them in seconds.
pub fn growth<T>(
    what: &str,
    n: usize,
    runs: usize,
    mut prepare: impl FnMut(usize) -> T,
    mut run: impl FnMut(&T),
) -> [f64; 3] {
    let t = [n, 10 * n, 100 * n].map(|k| {
        let input = prepare(k);
        seconds(runs, || run(&input))
    });
    println!(
        "{what}: {n}: {:.4} s | {}: {:.4} s ({:.1}×) | {}: {:.4} s ({:.1}×)",
        t[0],
        10 * n,
        t[1],
        t[1] / t[0],
        100 * n,
        t[2],
        t[2] / t[0]
    );
    t
}
