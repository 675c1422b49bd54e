//! Replay throughput: PGN parsing, move parsing, resolution against the
//! position, legality and playing, in moves per second on one thread.
//!
//! Inputs: records written here from seeded random play in each notation
//! (always available), and the real records in `../shared/data/games/`
//! when present (or `XQSPEC_SHARED`). Run with `cargo bench --bench replay`.
//!
//! `cargo bench --bench replay -- --database` instead streams a generated database of
//! 100,000 games (`XQSPEC_BENCH_GAMES` to change it; ICCS, 50 to 100 plies, 51.5 MiB) through
//! `notation::stream`, replayed and adjudicated, on one thread and on all cores, as one file
//! and as 100, and prints games and moves per second and the peak memory.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use xqspec::replay_text;
use xqspec::Rules;
use xqspec::{format_with, KindMap, Notation, RulesBoard, Style};

/// Seeded random games written as PGN in `notation`.
fn synthetic(rules: &Rules, notation: Notation, games: usize, plies: usize) -> String {
    synthetic_seeded(rules, notation, games, plies, 0)
}

/// [`synthetic`] from another seed.
fn synthetic_seeded(
    rules: &Rules,
    notation: Notation,
    games: usize,
    plies: usize,
    seed: u64,
) -> String {
    let kinds = KindMap::new(rules);
    let mut state = 0x2545_F491_4F6C_DD1Du64 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut out = String::new();
    for g in 0..games {
        out.push_str(&format!("[Event \"synthetic {g}\"]\n\n"));
        let mut pos = rules.start_position();
        for ply in 0..plies {
            let board = RulesBoard::new(rules, &pos, &kinds);
            let legal = board.legal();
            if legal.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = legal[(state % legal.len() as u64) as usize];
            if ply % 2 == 0 {
                out.push_str(&format!("{}. ", ply / 2 + 1));
            }
            out.push_str(&format_with(&board, m, notation, Style::default()).unwrap());
            out.push(' ');
            pos.play(rules, m).unwrap();
        }
        out.push_str("*\n\n");
    }
    out
}

fn measure(name: &str, rules: &Rules, text: &str) -> f64 {
    // Warm up, and count the moves.
    let games = replay_text(rules, text);
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let errors = games.iter().filter(|g| g.error.is_some()).count();
    let mut runs = 0u32;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) || runs < 3 {
        std::hint::black_box(replay_text(rules, std::hint::black_box(text)));
        runs += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    let rate = moves as f64 * runs as f64 / secs;
    println!(
        "{name:<34} {:>6} games {:>8} moves {:>2} errors  {:>10.0} moves/s  ({:.1} ns/move)",
        games.len(),
        moves,
        errors,
        rate,
        1e9 / rate
    );
    rate
}

/// Time of one stage alone, per move.
fn stages(rules: &Rules, text: &str) {
    let games = replay_text(rules, text);
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let time = |f: &dyn Fn()| {
        let start = Instant::now();
        let mut runs = 0;
        while start.elapsed() < Duration::from_millis(700) || runs < 2 {
            f();
            runs += 1;
        }
        start.elapsed().as_secs_f64() * 1e9 / (runs as f64 * moves as f64)
    };
    let pgn = time(&|| {
        std::hint::black_box(xqspec::parse_pgn(text));
    });
    let parsed = xqspec::parse_pgn(text);
    let syntax = time(&|| {
        for g in &parsed {
            for m in &g.moves {
                let _ = std::hint::black_box(xqspec::parse_syntax(
                    rules.file_numerals(),
                    xqspec::detect(m.text),
                    m.text,
                ));
            }
        }
    });
    let kinds = KindMap::new(rules);
    let legal = time(&|| {
        for g in &games {
            let mut pos = g.start.clone().unwrap();
            for &m in &g.moves {
                let board = RulesBoard::new(rules, &pos, &kinds);
                assert!(xqspec::BoardView::is_legal(&board, m));
                pos.make(rules, m);
            }
        }
    });
    println!("  stages per move: PGN {pgn:.0} ns, move syntax (uncached) {syntax:.0} ns, legality + play {legal:.0} ns");
}

/// Time of replaying `text`, best of three.
fn best_of_three(rules: &Rules, text: &str) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(replay_text(rules, std::hint::black_box(text)));
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// Growth with input size (1×, 10×, 100×): games with nested variations, and one game
/// of variations nested beyond the limit (refused). Time should grow about 10× per step.
fn growth(rules: &Rules) {
    let game = "[Event \"v\"]\n\n1. h2e2 h9g7 (1... b9c7 (1... h7i7 (1... c6c5 2. h0g2)) 2. b0c2) 2. h0g2 i9h9 *\n\n";
    println!("growth (1×, 10×, 100×): time per input size");
    for (name, unit) in [
        ("games with nested variations", game.repeat(100)),
        (
            "variations nested too deep",
            format!("1. h2e2 {}h9g7{} *\n", "( ".repeat(700), " )".repeat(700)),
        ),
    ] {
        let times: Vec<String> = [1, 10, 100]
            .iter()
            .map(|&k| {
                let text = unit.repeat(k);
                format!(
                    "{:>6} KB {:>9.3} ms",
                    text.len() / 1024,
                    best_of_three(rules, &text) * 1e3
                )
            })
            .collect();
        println!("  {name:<30} {}", times.join("   "));
    }
}

/// Peak resident memory of this process so far, in MiB (Linux; 0 elsewhere).
fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// A database: `games` seeded random games of up to `plies` plies in ICCS, written straight
/// to `files` files (never held in memory whole).
fn write_database(
    rules: &Rules,
    dir: &std::path::Path,
    files: usize,
    games: usize,
    plies: usize,
) -> Vec<PathBuf> {
    use std::io::Write;
    let per_file = games.div_ceil(files);
    let mut paths = Vec::new();
    let mut left = games;
    let mut seed = 0u64;
    while left > 0 {
        let n = per_file.min(left);
        let path = dir.join(format!("db-{:03}.pgn", paths.len()));
        let mut w = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for _ in 0..n.div_ceil(100) {
            seed += 1;
            let k = 100.min(left);
            // Vary the length: games of `plies / 2` to `plies` plies.
            let text = synthetic_seeded(
                rules,
                Notation::Iccs,
                k,
                plies / 2 + (seed as usize * 7919) % (plies / 2 + 1),
                seed,
            );
            w.write_all(text.as_bytes()).unwrap();
            left -= k;
        }
        w.flush().unwrap();
        paths.push(path);
    }
    paths
}

/// Databases on every core (`notation::stream`, as `replay` and `adjudicate` run): a
/// generated database of at least 100,000 games, replayed and adjudicated on one thread
/// and on all, as one file (memory) and as many files.
fn database(rs: &xqspec::RuleSet) {
    use xqspec::StreamOptions as Options;
    use xqspec::{adjudicate_files, Item};
    let games: usize = common::setting("XQSPEC_BENCH_GAMES", 100_000);
    let dir = std::env::temp_dir().join(format!("xqspec-bench-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t = Instant::now();
    let many = write_database(&rs.vm, &dir.join(""), 100, games, 100);
    let one_dir = dir.join("one");
    std::fs::create_dir_all(&one_dir).unwrap();
    let one = write_database(&rs.vm, &one_dir, 1, games, 100);
    let bytes: u64 = one
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    println!(
        "database: {games} generated games (random play, 50 to 100 plies, ICCS), as 100 files and as one file of {:.1} MiB; written in {:.1} s",
        bytes as f64 / (1 << 20) as f64,
        t.elapsed().as_secs_f64()
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let run = |files: &[PathBuf], threads: usize, adjudicate: bool| {
        let opts = Options {
            threads: Some(threads),
            ..Options::default()
        };
        let (mut n, mut moves) = (0usize, 0usize);
        let t = Instant::now();
        adjudicate_files(rs, files, &opts, adjudicate, &mut |item| {
            if let Item::Game(row) = item {
                n += 1;
                moves += row.moves;
            }
        })
        .unwrap();
        (n, moves, t.elapsed().as_secs_f64())
    };
    let before = peak_mib();
    for (what, adjudicate) in [("replay", false), ("adjudicate", true)] {
        for (shape, files) in [("100 files", &many), ("one file", &one)] {
            // One thread, then all, in turn, best of two each: the noise weighs on both.
            let (mut one_t, mut all_t, mut counted) = (f64::MAX, f64::MAX, (0, 0));
            for _ in 0..2 {
                let (n, m, s) = run(files, 1, adjudicate);
                one_t = one_t.min(s);
                counted = (n, m);
                all_t = all_t.min(run(files, cores, adjudicate).2);
            }
            let (n, m) = counted;
            println!(
                "  {what:<10} {shape:<9} {n} games {m} moves: 1 thread {:>8.0} games/s {:>5.2} M moves/s; {cores} threads {:>8.0} games/s {:>5.2} M moves/s; {:.2}×",
                n as f64 / one_t,
                m as f64 / one_t / 1e6,
                n as f64 / all_t,
                m as f64 / all_t / 1e6,
                one_t / all_t
            );
        }
    }
    println!(
        "  peak memory: {:.0} MiB before streaming, {:.0} MiB after (the one file is {:.0} MiB)",
        before,
        peak_mib(),
        bytes as f64 / (1 << 20) as f64
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let rules = Rules::builtin("cxa-2020").expect("builtin rules");
    if std::env::args().any(|a| a == "--database") {
        database(&xqspec::RuleSet::builtin("cxa-2020").expect("builtin rules"));
        return;
    }
    growth(&rules);
    println!("replay throughput (parse + resolve + legality + play), one thread");
    for n in [
        Notation::Iccs,
        Notation::Wxf,
        Notation::Chinese,
        Notation::ChineseAbbreviated,
    ] {
        let text = synthetic(&rules, n, 200, 120);
        measure(
            &format!("synthetic random play, {}", n.name()),
            &rules,
            &text,
        );
    }
    let base = std::env::var_os("XQSPEC_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let dir = base.join("data/games");
    for name in [
        "liu-dahua-1125-iccs.pgn",
        "triplets-iccs.pgn",
        "triplets-wxf.pgn",
        "triplets-chinese.pgn",
    ] {
        match std::fs::read(dir.join(name)) {
            Ok(bytes) => {
                let (text, _) = xqspec::decode_text(&bytes, None);
                measure(name, &rules, &text);
                stages(&rules, &text);
            }
            Err(_) => println!("{name}: not found in {}, skipped", dir.display()),
        }
    }
}
