//! A slow, obvious move generator written for the tests from the same YAML as the VM.
//!
//! It shares no code with `crate::vm` beyond the typed clause shapes: it walks offsets on
//! a plain array, tests regions point by point, and decides self-kill by generating every
//! reply and looking for one that takes the general. Its job is to disagree with the fast
//! tables when they are wrong.

#![allow(dead_code)]

use std::collections::BTreeMap;

use crate::vm::data::{self, Forbidden, Instruction, Symmetry};
use crate::Edition;
use crate::{Move, Side, Square};
use crate::{Position, Rules};

#[derive(Clone)]
pub struct RefRules {
    /// Kind names in `pieces.kinds` order (the VM's KindId order).
    kinds: Vec<String>,
    royal: usize,
    programs: Vec<Vec<Instruction>>,
    regions: BTreeMap<String, data::Region>,
    facing_line: Option<data::Line>,
    forbid: Vec<Forbidden>,
}

pub type Board = [Option<(Side, usize)>; 90];

impl RefRules {
    pub fn new(ed: &Edition) -> RefRules {
        let kinds_data: data::Kinds =
            serde_yaml::from_value(ed.clause("pieces.kinds").unwrap().data.clone()).unwrap();
        let kinds: Vec<String> = kinds_data.kinds.iter().map(|k| k.kind.clone()).collect();
        let royal = kinds_data.kinds.iter().position(|k| k.royal).unwrap();
        let mut programs = vec![Vec::new(); kinds.len()];
        let mut facing_line = None;
        for c in ed.clauses_with_prefix("movement.") {
            let m = c.data.as_mapping().unwrap();
            if m.contains_key("program") {
                let mv: data::Movement = serde_yaml::from_value(c.data.clone()).unwrap();
                let k = kinds.iter().position(|n| *n == mv.piece).unwrap();
                programs[k] = mv.program;
            } else if m.contains_key("line") {
                let f: data::Facing = serde_yaml::from_value(c.data.clone()).unwrap();
                facing_line = Some(f.line);
            }
        }
        let mut regions = BTreeMap::new();
        for c in ed.clauses_with_prefix("board.") {
            if let Ok(r) = serde_yaml::from_value::<data::Regions>(c.data.clone()) {
                regions.extend(r.regions);
            }
        }
        let sk: data::SelfKill =
            serde_yaml::from_value(ed.clause("check.self_kill").unwrap().data.clone()).unwrap();
        RefRules {
            kinds,
            royal,
            programs,
            regions,
            facing_line,
            forbid: sk.forbidden_after_move,
        }
    }

    pub fn board_of(&self, pos: &Position) -> Board {
        let mut b: Board = [None; 90];
        for (sq, p) in pos.pieces() {
            b[sq.index()] = Some((p.side, p.kind as usize));
        }
        b
    }

    /// Is the Red-frame point (file, rank) of `side` inside the named region?
    fn in_region(&self, name: &str, side: Side, sq: Square) -> bool {
        let r = &self.regions[name];
        let rel = sq.relative_to(side);
        let f = (b'a' + rel.file()) as char;
        r.files[0] <= f && f <= r.files[1] && r.ranks[0] <= rel.rank() && rel.rank() <= r.ranks[1]
    }

    fn variants(
        sym: Symmetry,
        v: [i8; 2],
        b: Option<[i8; 2]>,
    ) -> Vec<([i32; 2], Option<[i32; 2]>)> {
        let mut out = Vec::new();
        let base = (
            [v[0] as i32, v[1] as i32],
            b.map(|b| [b[0] as i32, b[1] as i32]),
        );
        let rots = |(o, b): ([i32; 2], Option<[i32; 2]>)| {
            let mut xs = vec![(o, b)];
            let mut cur = (o, b);
            for _ in 0..3 {
                cur = ([cur.0[1], -cur.0[0]], cur.1.map(|b| [b[1], -b[0]]));
                xs.push(cur);
            }
            xs
        };
        let mir = |(o, b): ([i32; 2], Option<[i32; 2]>)| ([-o[0], o[1]], b.map(|b| [-b[0], b[1]]));
        match sym {
            Symmetry::None => out.push(base),
            Symmetry::Mirror => {
                out.push(base);
                out.push(mir(base));
            }
            Symmetry::Rotate => out.extend(rots(base)),
            Symmetry::All => {
                out.extend(rots(base));
                out.extend(rots(mir(base)));
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn at(side: Side, from: Square, d: [i32; 2]) -> Option<Square> {
        let rel = from.relative_to(side);
        Square::new(rel.file() as i32 + d[0], rel.rank() as i32 + d[1]).map(|s| s.relative_to(side))
    }

    /// Moves the programs allow, before self-kill.
    pub fn pseudo(&self, b: &Board, side: Side) -> Vec<Move> {
        let mut out = Vec::new();
        for from in Square::all() {
            let Some((s, k)) = b[from.index()] else {
                continue;
            };
            if s != side {
                continue;
            }
            for ins in &self.programs[k] {
                if let Some(r) = &ins.from {
                    if !self.in_region(r, side, from) {
                        continue;
                    }
                }
                let to_ok = |t: Square| ins.to.as_ref().is_none_or(|r| self.in_region(r, side, t));
                let can = |_: Square, capture: bool| {
                    if capture {
                        ins.mode.capture()
                    } else {
                        ins.mode.quiet()
                    }
                };
                let mut add = |t: Square| match b[t.index()] {
                    None if can(t, false) && to_ok(t) => out.push(Move::new(from, t)),
                    Some((ts, _)) if ts != side && can(t, true) && to_ok(t) => {
                        out.push(Move::new(from, t))
                    }
                    _ => {}
                };
                if let Some(off) = ins.step.or(ins.leap) {
                    for (o, blk) in Self::variants(ins.symmetry, off, ins.block) {
                        let Some(t) = Self::at(side, from, o) else {
                            continue;
                        };
                        if let Some(bo) = blk {
                            match Self::at(side, from, bo) {
                                Some(bs) if b[bs.index()].is_none() => {}
                                _ => continue,
                            }
                        }
                        add(t);
                    }
                } else if let Some(dir) = ins.slide {
                    for (o, _) in Self::variants(ins.symmetry, dir, None) {
                        let mut n = 1;
                        while let Some(t) = Self::at(side, from, [o[0] * n, o[1] * n]) {
                            if n as u32 > ins.max.unwrap_or(255) as u32 {
                                break;
                            }
                            let occupied = b[t.index()].is_some();
                            if occupied {
                                if ins.mode.capture() {
                                    add_capture(&mut out, b, side, from, t, to_ok(t));
                                }
                                break;
                            }
                            if ins.mode.quiet() && to_ok(t) {
                                out.push(Move::new(from, t));
                            }
                            n += 1;
                        }
                    }
                } else if let Some(dir) = ins.hop {
                    let screens = ins.screens.unwrap_or(1) as usize;
                    for (o, _) in Self::variants(ins.symmetry, dir, None) {
                        let mut n = 1;
                        let mut seen = 0;
                        while let Some(t) = Self::at(side, from, [o[0] * n, o[1] * n]) {
                            let occupied = b[t.index()].is_some();
                            if occupied {
                                if seen == screens {
                                    if ins.mode.capture() {
                                        add_capture(&mut out, b, side, from, t, to_ok(t));
                                    }
                                    break;
                                }
                                seen += 1;
                            } else if seen == screens && ins.mode.quiet() && to_ok(t) {
                                out.push(Move::new(from, t));
                            }
                            n += 1;
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn royal_of(&self, b: &Board, side: Side) -> Option<Square> {
        Square::all().find(|s| b[s.index()] == Some((side, self.royal)))
    }

    /// Some move of `by` lands on `sq`.
    pub fn attacked(&self, b: &Board, sq: Square, by: Side) -> bool {
        self.pseudo(b, by).iter().any(|m| m.to == sq)
    }

    fn facing(&self, b: &Board) -> bool {
        let (Some(r), Some(k)) = (self.royal_of(b, Side::Red), self.royal_of(b, Side::Black))
        else {
            return false;
        };
        let same_file = r.file() == k.file();
        let same_rank = r.rank() == k.rank();
        let applies = match self.facing_line {
            None => false,
            Some(data::Line::File) => same_file,
            Some(data::Line::Rank) => same_rank,
            Some(data::Line::Both) => same_file || same_rank,
        };
        if !applies {
            return false;
        }
        let between: Vec<Square> = Square::all()
            .filter(|s| {
                if same_file {
                    s.file() == r.file()
                        && s.rank() > r.rank().min(k.rank())
                        && s.rank() < r.rank().max(k.rank())
                } else {
                    s.rank() == r.rank()
                        && s.file() > r.file().min(k.file())
                        && s.file() < r.file().max(k.file())
                }
            })
            .collect();
        between.iter().all(|s| b[s.index()].is_none())
    }

    pub fn apply(b: &Board, m: Move) -> Board {
        let mut n = *b;
        n[m.to.index()] = n[m.from.index()];
        n[m.from.index()] = None;
        n
    }

    /// Legal moves: pseudo moves after which no self-kill condition holds for the mover.
    pub fn legal(&self, b: &Board, side: Side) -> Vec<Move> {
        self.pseudo(b, side)
            .into_iter()
            .filter(|&m| {
                let n = Self::apply(b, m);
                let Some(k) = self.royal_of(&n, side) else {
                    return true;
                };
                !(self.forbid.contains(&Forbidden::OwnRoyalAttacked)
                    && self.attacked(&n, k, side.opponent())
                    || self.forbid.contains(&Forbidden::RoyalsFacing) && self.facing(&n))
            })
            .collect()
    }

    pub fn perft(&self, b: &Board, side: Side, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal(b, side);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&m| self.perft(&Self::apply(b, m), side.opponent(), depth - 1))
            .sum()
    }

    pub fn kind_names(&self) -> &[String] {
        &self.kinds
    }

    /// Check that the VM's kind order is this generator's.
    pub fn agrees_on_kinds(&self, rules: &Rules) -> bool {
        rules
            .kinds()
            .iter()
            .map(|k| k.name.clone())
            .collect::<Vec<_>>()
            == self.kinds
    }
}

fn add_capture(out: &mut Vec<Move>, b: &Board, side: Side, from: Square, t: Square, to_ok: bool) {
    if let Some((ts, _)) = b[t.index()] {
        if ts != side && to_ok {
            out.push(Move::new(from, t));
        }
    }
}
