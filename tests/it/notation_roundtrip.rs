//! Round trip: for every legal move of many positions, formatting in every
//! notation and style and parsing the text back gives the same move.
//!
//! Positions come from random play, from random set-ups crowded with
//! soldiers (so tandem forms of every size occur), and from the real games
//! in `../shared/data/games/` when that directory is present.

use std::path::PathBuf;

use proptest::prelude::*;
use xqspec::{
    detect, format_with, parse_move_with, KindMap, Notation, PieceKind, RulesBoard, Script, Style,
    Width,
};
use xqspec::{Piece, Side, Square};
use xqspec::{Position, Rules};

/// The styles that change the text of `n`.
fn styles(n: Notation) -> Vec<Style> {
    let mut v = Vec::new();
    match n {
        Notation::Iccs => {
            v.push(Style::default());
            v.push(Style::from_name("upper").unwrap());
        }
        Notation::Wxf => {
            v.push(Style::default());
            v.push(Style::from_name("fullwidth").unwrap());
        }
        Notation::Chinese | Notation::ChineseAbbreviated => {
            for script in [Script::Simplified, Script::Traditional] {
                for width in [Width::Half, Width::Full] {
                    v.push(Style {
                        script,
                        width,
                        ..Style::default()
                    });
                }
            }
        }
    }
    v
}

/// Check every legal move of `pos`; returns how many texts were checked.
fn round_trip(rules: &Rules, kinds: &KindMap, pos: &Position) -> usize {
    let board = RulesBoard::new(rules, pos, kinds);
    let mut checked = 0;
    for m in pos.legal_moves(rules) {
        for n in Notation::ALL {
            for style in styles(n) {
                let text = format_with(&board, m, n, style)
                    .unwrap_or_else(|e| panic!("{}: {m}: {e}", pos.to_fen(rules)));
                let back = parse_move_with(&board, n, &text).unwrap_or_else(|e| {
                    panic!("{}: {m} written {text:?} in {n}: {e}", pos.to_fen(rules))
                });
                assert_eq!(
                    back,
                    m,
                    "{}: {m} written {text:?} in {n} reads as {back}",
                    pos.to_fen(rules)
                );
                let detected = parse_move_with(&board, detect(&text), &text).unwrap();
                assert_eq!(
                    detected,
                    m,
                    "{}: {text:?} with detected notation",
                    pos.to_fen(rules)
                );
                checked += 1;
            }
        }
    }
    checked
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_play(rules: &Rules, seed: u64, plies: usize, mut visit: impl FnMut(&Position)) {
    let mut rng = Rng(seed | 1);
    let mut pos = rules.start_position();
    for _ in 0..plies {
        visit(&pos);
        let moves = pos.legal_moves(rules);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        pos.play(rules, m).unwrap();
    }
}

/// A random set-up: both generals, then up to five soldiers a side packed
/// on two or three files, and a few other pieces, each on a point its kind
/// can stand on under the rules. `None` when the result is not a valid
/// position (the side not to move in check, generals facing).
fn random_setup(rules: &Rules, seed: u64) -> Option<Position> {
    let mut rng = Rng(seed | 1);
    let side = if rng.below(2) == 0 {
        Side::Red
    } else {
        Side::Black
    };
    let mut pos = Position::empty(side);
    let id = |k: PieceKind| rules.kind_by_name(k.spec_name()).unwrap();
    let place =
        |pos: &mut Position, rng: &mut Rng, side: Side, kind: PieceKind, files: Option<&[i32]>| {
            for _ in 0..200 {
                let f = match files {
                    Some(fs) => fs[rng.below(fs.len())],
                    None => rng.below(9) as i32,
                };
                let sq = Square::new(f, rng.below(10) as i32).unwrap();
                if pos.piece_at(sq).is_none() && rules.can_stand(side, id(kind), sq) {
                    pos.put(
                        Piece {
                            side,
                            kind: id(kind),
                        },
                        sq,
                    );
                    return;
                }
            }
        };
    for s in Side::BOTH {
        place(&mut pos, &mut rng, s, PieceKind::General, None);
        let files: Vec<i32> = (0..2 + rng.below(2)).map(|_| rng.below(9) as i32).collect();
        for _ in 0..rng.below(6) {
            place(&mut pos, &mut rng, s, PieceKind::Soldier, Some(&files));
        }
        for k in [
            PieceKind::Chariot,
            PieceKind::Horse,
            PieceKind::Cannon,
            PieceKind::Advisor,
            PieceKind::Elephant,
        ] {
            let f = [rng.below(9) as i32];
            for _ in 0..rng.below(3) {
                // Half the time, stack the pair on one file.
                let files = if rng.below(2) == 0 {
                    Some(&f[..])
                } else {
                    None
                };
                place(&mut pos, &mut rng, s, k, files);
            }
        }
    }
    xqspec::validate_fen(rules, &pos).ok().map(|_| pos)
}

#[test]
fn random_play_round_trips() {
    let rules = Rules::builtin("cxa-2020").unwrap();
    let kinds = KindMap::new(&rules);
    let mut checked = 0;
    for seed in 1..=16u64 {
        random_play(&rules, seed * 0x9E37_79B9, 160, |p| {
            checked += round_trip(&rules, &kinds, p)
        });
    }
    assert!(checked > 50_000, "only {checked} texts checked");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn random_setups_round_trip(seed in any::<u64>()) {
        let rules = Rules::builtin("cxa-2020").unwrap();
        let kinds = KindMap::new(&rules);
        if let Some(pos) = random_setup(&rules, seed) {
            round_trip(&rules, &kinds, &pos);
        }
    }
}

#[test]
fn tandem_forms_occur_in_random_setups() {
    // The set-up generator must actually produce the forms it is for.
    let rules = Rules::builtin("cxa-2020").unwrap();
    let kinds = KindMap::new(&rules);
    let (mut two, mut three, mut more, mut files) = (0, 0, 0, 0);
    let mut valid = 0;
    for seed in 1..400u64 {
        let Some(pos) = random_setup(&rules, seed) else {
            continue;
        };
        valid += 1;
        let board = RulesBoard::new(&rules, &pos, &kinds);
        for m in board.legal() {
            let t = format_with(&board, m, Notation::Chinese, Style::default()).unwrap();
            let first = t.chars().next().unwrap();
            let second = t.chars().nth(1).unwrap();
            match first {
                '前' | '后' if "兵卒车马炮仕士相象".contains(second) => two += 1,
                '中' => three += 1,
                '一' | '二' | '三' | '四' | '五' => more += 1,
                _ => {}
            }
            if "前中后".contains(first) && !"兵卒车马炮仕士相象帅将".contains(second)
            {
                files += 1;
            }
        }
        round_trip(&rules, &kinds, &pos);
    }
    assert!(valid > 150, "only {valid} valid set-ups");
    assert!(
        two > 0 && three > 0 && more > 0 && files > 0,
        "two {two}, three {three}, more {more}, files {files}"
    );
}

#[test]
fn real_game_positions_round_trip() {
    let base = std::env::var_os("XQSPEC_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = base.join("data/games/liu-dahua-1125-iccs.pgn");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} not found", path.display());
        return;
    };
    let rules = Rules::builtin("cxa-2020").unwrap();
    let kinds = KindMap::new(&rules);
    let games = xqspec::replay_text(&rules, &text);
    let mut positions = 0;
    // Every position of every 25th game.
    for g in games.iter().step_by(25) {
        let mut pos = g.start.clone().unwrap();
        for &m in &g.moves {
            round_trip(&rules, &kinds, &pos);
            positions += 1;
            pos.play(&rules, m).unwrap();
        }
    }
    assert!(positions > 2000, "only {positions} positions");
}
