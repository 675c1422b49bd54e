//! Replay throughput: PGN parsing, move parsing, resolution against the
//! position, legality and playing, in moves per second on one thread.
//!
//! Inputs: records written here from seeded random play in each notation
//! (always available), and the real records in `../shared/data/games/`
//! when present (or `XQSPEC_SHARED`). Run with `cargo bench --bench replay`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use xqspec::notation::replay::replay_text;
use xqspec::notation::{format_with, KindMap, Notation, RulesBoard, Style};
use xqspec::vm::Rules;

/// Seeded random games written as PGN in `notation`.
fn synthetic(rules: &Rules, notation: Notation, games: usize, plies: usize) -> String {
    let kinds = KindMap::new(rules);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
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
        std::hint::black_box(xqspec::notation::pgn::parse(text));
    });
    let parsed = xqspec::notation::pgn::parse(text);
    let syntax = time(&|| {
        for g in &parsed {
            for m in &g.moves {
                let _ = std::hint::black_box(xqspec::notation::parse_syntax(rules.file_numerals(), xqspec::notation::detect(m.text), m.text));
            }
        }
    });
    let kinds = KindMap::new(rules);
    let legal = time(&|| {
        for g in &games {
            let mut pos = g.start.clone().unwrap();
            for &m in &g.moves {
                let board = RulesBoard::new(rules, &pos, &kinds);
                assert!(xqspec::notation::BoardView::is_legal(&board, m));
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
        ("variations nested too deep", format!("1. h2e2 {}h9g7{} *\n", "( ".repeat(700), " )".repeat(700))),
    ] {
        let times: Vec<String> = [1, 10, 100]
            .iter()
            .map(|&k| {
                let text = unit.repeat(k);
                format!("{:>6} KB {:>9.3} ms", text.len() / 1024, best_of_three(rules, &text) * 1e3)
            })
            .collect();
        println!("  {name:<30} {}", times.join("   "));
    }
}

fn main() {
    let rules = Rules::builtin("cxa-2020").expect("builtin rules");
    growth(&rules);
    println!("replay throughput (parse + resolve + legality + play), one thread");
    for n in [Notation::Iccs, Notation::Wxf, Notation::Chinese, Notation::ChineseAbbreviated] {
        let text = synthetic(&rules, n, 200, 120);
        measure(&format!("synthetic random play, {}", n.name()), &rules, &text);
    }
    let base = std::env::var_os("XQSPEC_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let dir = base.join("data/games");
    for name in ["liu-dahua-1125-iccs.pgn", "triplets-iccs.pgn", "triplets-wxf.pgn", "triplets-chinese.pgn"] {
        match std::fs::read(dir.join(name)) {
            Ok(bytes) => {
                let (text, _) = xqspec::notation::encoding::decode(&bytes, None);
                measure(name, &rules, &text);
                stages(&rules, &text);
            }
            Err(_) => println!("{name}: not found in {}, skipped", dir.display()),
        }
    }
}
