//! From clauses to tables. Runs once per edition.

use std::collections::{BTreeMap, VecDeque};

use serde::de::DeserializeOwned;

use super::data::{self, Forbidden, Instruction, Line, Symmetry};
use super::meaning;
use super::{
    KindInfo, Leap, Ray, ReverseLeap, Rules, Status, StatusRule, CAPTURE, DIRS, NO_BLOCK, QUIET,
};
use crate::board::{KindId, Side, Square, FILES, RANKS, SQUARES};
use crate::spec::{Clause, Edition, SpecError};

/// Most kinds a compiled edition may have (piece codes keep the kind in three bits).
pub(crate) const MAX_KINDS: usize = 8;

/// Where the tables per side, kind and point (`leap_index`, `leap_to`, `rays`) keep the
/// entry of a piece of `kind` and `side` on the point `sq`.
#[inline]
pub(crate) fn piece_slot(side: Side, kind: KindId, sq: usize) -> usize {
    (side.index() * MAX_KINDS + kind as usize) * SQUARES + sq
}

/// Where the tables per side and point (`reverse_index`, `reverse_from`, `check_zone`,
/// `check_arrival`: what that side's pieces do to the point) keep the entry of `sq`.
#[inline]
pub(crate) fn side_point(side: Side, sq: usize) -> usize {
    side.index() * SQUARES + sq
}

pub(crate) fn err(c: &Clause, msg: impl Into<String>) -> SpecError {
    SpecError::new(c.location.clone(), Some(&c.id), msg)
}

/// The error at the place field `path` of clause `c`'s data was written, when known (an
/// overlay's change), else at the clause.
pub(crate) fn err_at(c: &Clause, path: &str, msg: impl Into<String>) -> SpecError {
    SpecError::new(c.at(path), Some(&c.id), msg)
}

pub(crate) fn typed<T: DeserializeOwned>(c: &Clause) -> Result<T, SpecError> {
    serde_yaml::from_value(c.data.clone()).map_err(|e| {
        let m = with_path::<T>(&c.data, e);
        // `rounds: invalid type …`: the path before the first `: `.
        let path = m.split(": ").next().unwrap_or("");
        err_at(c, path, format!("data: {m}"))
    })
}

/// A shape error with the path of the field it concerns (`rounds: invalid value …`): the
/// data is read again from its text, whose errors name the path (a value's do not).
fn with_path<T: DeserializeOwned>(data: &serde_yaml::Value, e: serde_yaml::Error) -> String {
    let again = serde_yaml::to_string(data)
        .ok()
        .and_then(|t| serde_yaml::from_str::<T>(&t).err());
    match again {
        Some(e2) => {
            let m = e2.to_string();
            m.find(" at line ").map(|i| m[..i].to_string()).unwrap_or(m)
        }
        None => e.to_string(),
    }
}

/// A count or limit the rules need positive: an error naming `field` when it is 0.
pub(crate) fn positive(
    c: &Clause,
    field: &str,
    value: Option<u64>,
    errors: &mut Vec<SpecError>,
) -> bool {
    if value == Some(0) {
        errors.push(err_at(
            c,
            field,
            format!("`{field}` is 0; the rules need this count or limit to be at least 1"),
        ));
        return false;
    }
    true
}

/// The typed data of clause `c`, or `None` with the error recorded (to report every
/// problem of an edition, not only the first).
pub(crate) fn read<T: DeserializeOwned>(c: &Clause, errors: &mut Vec<SpecError>) -> Option<T> {
    typed(c).map_err(|e| errors.push(e)).ok()
}

pub(crate) fn has_key(c: &Clause, key: &str) -> bool {
    c.data.as_mapping().is_some_and(|m| m.contains_key(key))
}

/// The error for an edition that lacks clause `id`, which `needed_by` says what needs.
pub(crate) fn missing(ed: &Edition, id: &str, needed_by: &str) -> SpecError {
    SpecError::new(
        crate::spec::Location {
            file: format!("{}/", ed.id),
            ..Default::default()
        },
        Some(id),
        format!(
            "edition `{}` has no clause `{id}`, which {needed_by}",
            ed.id
        ),
    )
}

pub(crate) fn require<'a>(ed: &'a Edition, id: &str) -> Result<&'a Clause, SpecError> {
    ed.clause(id).ok_or_else(|| missing(ed, id, "the VM needs"))
}

/// Red-frame rectangle → bitboard of Red-frame points.
fn region_mask(c: &Clause, name: &str, r: &data::Region) -> Result<u128, SpecError> {
    let f = |ch: char| -> Result<i32, SpecError> {
        if ('a'..='i').contains(&ch) {
            Ok(ch as i32 - 'a' as i32)
        } else {
            Err(err(c, format!("region `{name}`: file `{ch}` is not a–i")))
        }
    };
    let (f0, f1) = (f(r.files[0])?, f(r.files[1])?);
    let (r0, r1) = (r.ranks[0] as i32, r.ranks[1] as i32);
    if f0 > f1 || r0 > r1 || r1 >= RANKS as i32 {
        return Err(err(
            c,
            format!("region `{name}`: empty or off-board rectangle"),
        ));
    }
    let mut m = 0u128;
    for sq in Square::all() {
        let (x, y) = (sq.file() as i32, sq.rank() as i32);
        if (f0..=f1).contains(&x) && (r0..=r1).contains(&y) {
            m |= 1u128 << sq.index();
        }
    }
    Ok(m)
}

/// Rotate a Red-frame bitboard to `side`'s absolute points.
pub(crate) fn to_side(mask_red: u128, side: Side) -> u128 {
    match side {
        Side::Red => mask_red,
        Side::Black => {
            let mut m = 0u128;
            for sq in Square::all() {
                if mask_red >> sq.index() & 1 == 1 {
                    m |= 1u128 << sq.relative_to(Side::Black).index();
                }
            }
            m
        }
    }
}

fn parse_point(c: &Clause, s: &str) -> Result<Square, SpecError> {
    Square::parse(s).ok_or_else(|| err(c, format!("`{s}` is not a point (a0–i9)")))
}

/// The orientations of an offset (and its blocking point) named by a symmetry.
fn orientations(
    sym: Symmetry,
    off: [i8; 2],
    block: Option<[i8; 2]>,
) -> Vec<([i32; 2], Option<[i32; 2]>)> {
    let rot = |[x, y]: [i32; 2]| [y, -x];
    let mir = |[x, y]: [i32; 2]| [-x, y];
    let o = [off[0] as i32, off[1] as i32];
    let b = block.map(|b| [b[0] as i32, b[1] as i32]);
    let mut out: Vec<([i32; 2], Option<[i32; 2]>)> = vec![(o, b)];
    let push_rotations = |out: &mut Vec<_>, start: ([i32; 2], Option<[i32; 2]>)| {
        let mut cur = start;
        for _ in 0..3 {
            cur = (rot(cur.0), cur.1.map(rot));
            out.push(cur);
        }
    };
    match sym {
        Symmetry::None => {}
        Symmetry::Mirror => out.push((mir(o), b.map(mir))),
        Symmetry::Rotate => push_rotations(&mut out, (o, b)),
        Symmetry::All => {
            push_rotations(&mut out, (o, b));
            let m = (mir(o), b.map(mir));
            out.push(m);
            push_rotations(&mut out, m);
        }
    }
    let mut seen = Vec::new();
    out.retain(|x| {
        if seen.contains(x) {
            false
        } else {
            seen.push(*x);
            true
        }
    });
    out
}

/// Point at a Red-frame offset from `from`, as seen by `side`.
fn offset_point(side: Side, from: Square, d: [i32; 2]) -> Option<Square> {
    let rel = from.relative_to(side);
    let t = Square::new(rel.file() as i32 + d[0], rel.rank() as i32 + d[1])?;
    Some(t.relative_to(side))
}

fn abs_dir(side: Side, d: [i32; 2]) -> Option<usize> {
    let d = match side {
        Side::Red => d,
        Side::Black => [-d[0], -d[1]],
    };
    DIRS.iter().position(|&(x, y)| [x, y] == d)
}

/// The clause families of movement and check: an edition with none of them has no VM rules.
const FAMILIES: [&str; 5] = ["board.", "pieces.", "play.", "movement.", "check."];

/// Records the error of `r`, if any, and gives its value.
fn note<T>(r: Result<T, SpecError>, errors: &mut Vec<SpecError>) -> Option<T> {
    r.map_err(|e| errors.push(e)).ok()
}

/// `board.grid`: the VM's 9 × 10 coordinates.
fn grid(ed: &Edition) -> Result<(), SpecError> {
    let grid_clause = require(ed, "board.grid")?;
    let grid: data::Grid = typed(grid_clause)?;
    if grid.files != FILES || grid.ranks != RANKS {
        return Err(err(
            grid_clause,
            format!(
                "the VM's coordinates are 9 files × 10 ranks; this edition has {} × {}",
                grid.files, grid.ranks
            ),
        ));
    }
    Ok(())
}

/// Regions (Red frame) from every board clause that names some; every bad one recorded.
fn regions(ed: &Edition, errors: &mut Vec<SpecError>) -> BTreeMap<String, u128> {
    let mut regions: BTreeMap<String, u128> = BTreeMap::new();
    for c in ed
        .clauses_with_prefix("board.")
        .filter(|c| has_key(c, "regions"))
    {
        let Some(r) = note(
            serde_yaml::from_value::<data::Regions>(c.data.clone())
                .map_err(|e| err(c, format!("data: {e}"))),
            errors,
        ) else {
            continue;
        };
        for (name, rect) in &r.regions {
            let Some(m) = note(region_mask(c, name, rect), errors) else {
                continue;
            };
            if regions.insert(name.clone(), m).is_some() {
                errors.push(err(c, format!("region `{name}` is defined twice")));
            }
        }
    }
    regions
}

/// `pieces.kinds`: the kinds and the royal one; every bad kind recorded.
fn kinds<'a>(
    ed: &'a Edition,
    errors: &mut Vec<SpecError>,
) -> Option<(&'a Clause, Vec<KindInfo>, KindId)> {
    let kinds_clause = note(require(ed, "pieces.kinds"), errors)?;
    let kinds_data: data::Kinds = read(kinds_clause, errors)?;
    if kinds_data.kinds.is_empty() || kinds_data.kinds.len() > MAX_KINDS {
        errors.push(err(
            kinds_clause,
            format!("between 1 and {MAX_KINDS} kinds are supported"),
        ));
        return None;
    }
    let before = errors.len();
    let mut kinds: Vec<KindInfo> = Vec::new();
    let mut royal = None;
    for (i, k) in kinds_data.kinds.iter().enumerate() {
        if kinds.iter().any(|x| x.name == k.kind) {
            errors.push(err(kinds_clause, format!("kind `{}` listed twice", k.kind)));
        }
        if k.fen.is_empty() {
            errors.push(err(
                kinds_clause,
                format!("kind `{}` has no FEN letter", k.kind),
            ));
        }
        for &l in &k.fen {
            if !l.is_ascii_lowercase() {
                errors.push(err(
                    kinds_clause,
                    format!(
                        "kind `{}`: FEN letter `{l}` must be a lower-case ASCII letter",
                        k.kind
                    ),
                ));
            }
            if let Some(o) = kinds.iter().find(|x| x.fen.contains(&l)) {
                errors.push(err(
                    kinds_clause,
                    format!(
                        "FEN letter `{l}` is used by both `{}` and `{}`",
                        o.name, k.kind
                    ),
                ));
            }
        }
        if k.royal {
            if royal.is_some() {
                errors.push(err(kinds_clause, "exactly one kind may be royal"));
            }
            royal = Some(i as KindId);
        }
        if [&k.names.red, &k.names.black]
            .iter()
            .any(|n| n.chars().count() != 1)
        {
            errors.push(err(
                kinds_clause,
                format!("kind `{}` needs a one-character name for each side", k.kind),
            ));
        }
        kinds.push(KindInfo {
            name: k.kind.clone(),
            gloss: k.gloss.clone(),
            royal: k.royal,
            count: 0,
            fen: k.fen.clone(),
            names: [k.names.red.clone(), k.names.black.clone()],
        });
    }
    let royal = note(
        royal.ok_or_else(|| err(kinds_clause, "one kind must be royal (the general)")),
        errors,
    );
    (errors.len() == before).then_some((kinds_clause, kinds, royal?))
}

/// The kind named `name` in `kinds`, or the error at clause `c`.
fn kind_id(kinds: &[KindInfo], c: &Clause, name: &str) -> Result<KindId, SpecError> {
    kinds
        .iter()
        .position(|k| k.name == name)
        .map(|i| i as KindId)
        .ok_or_else(|| {
            err(
                c,
                format!(
                    "unknown piece kind `{name}` (pieces.kinds defines {})",
                    kinds
                        .iter()
                        .map(|k| k.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// The pieces of each side (Red, Black) with their points.
type SidePieces = [Vec<(KindId, Square)>; 2];

/// `pieces.setup`: the pieces of each side; the kinds' counts follow from it.
fn setup<'a>(
    ed: &'a Edition,
    kinds: &mut [KindInfo],
    royal: KindId,
    errors: &mut Vec<SpecError>,
) -> Option<(&'a Clause, SidePieces)> {
    let setup_clause = note(require(ed, "pieces.setup"), errors)?;
    let setup_data: data::Setup = read(setup_clause, errors)?;
    let before = errors.len();
    let mut setup: SidePieces = [Vec::new(), Vec::new()];
    let mut occupied = 0u128;
    for (name, points) in &setup_data.points {
        let Some(k) = note(kind_id(kinds, setup_clause, name), errors) else {
            continue;
        };
        if points.is_empty() {
            errors.push(err(
                setup_clause,
                format!("`points.{name}` lists no point (a kind not set up is left out)"),
            ));
            continue;
        }
        for p in points {
            let Some(sq) = note(parse_point(setup_clause, p), errors) else {
                continue;
            };
            for side in Side::BOTH {
                let abs = sq.relative_to(side);
                if occupied >> abs.index() & 1 == 1 {
                    errors.push(err(setup_clause, format!("two pieces set up on {abs}")));
                    continue;
                }
                occupied |= 1u128 << abs.index();
                setup[side.index()].push((k, abs));
            }
        }
        kinds[k as usize].count = points.len() as u8;
    }
    if errors.len() == before && kinds[royal as usize].count != 1 {
        errors.push(err(
            setup_clause,
            "the setup must have exactly one royal piece per side",
        ));
    }
    (errors.len() == before).then_some((setup_clause, setup))
}

/// `play.turns`: who moves first and how many moves make a round.
fn turns(ed: &Edition, errors: &mut Vec<SpecError>) -> Option<(Side, u8)> {
    let turns_clause = note(require(ed, "play.turns"), errors)?;
    let turns: data::Turns = read(turns_clause, errors)?;
    let first_to_move = match turns.first_to_move.as_str() {
        "red" => Some(Side::Red),
        "black" => Some(Side::Black),
        other => {
            errors.push(err(
                turns_clause,
                format!("first_to_move is `red` or `black`, not `{other}`"),
            ));
            None
        }
    };
    let counted = positive(
        turns_clause,
        "moves_per_round",
        Some(turns.moves_per_round.into()),
        errors,
    );
    counted.then_some((first_to_move?, turns.moves_per_round))
}

/// The move tables of `movement.*` (programs, the facing rule, capture), before flattening.
struct Movement<'a> {
    leap_lists: Vec<Vec<Leap>>,
    rays: Vec<[Ray; 4]>,
    masks: Vec<u128>,
    movement_clauses: Vec<&'a Clause>,
    confinement: Vec<meaning::Confinement>,
    facing: Option<(KindId, [bool; 4])>,
    max_screens: u8,
}

/// `movement.*`: every kind's program, the facing rule and how pieces capture; every bad
/// clause recorded.
fn movement<'a>(
    ed: &'a Edition,
    kinds_clause: &Clause,
    kinds: &[KindInfo],
    royal: KindId,
    regions: &BTreeMap<String, u128>,
    errors: &mut Vec<SpecError>,
) -> Option<Movement<'a>> {
    let before = errors.len();
    let nk = kinds.len();
    let mut leap_lists: Vec<Vec<Leap>> = vec![Vec::new(); 2 * MAX_KINDS * SQUARES];
    let mut rays: Vec<[Ray; 4]> = vec![[Ray::default(); 4]; 2 * MAX_KINDS * SQUARES];
    let mut masks: Vec<u128> = vec![!0u128];
    let mut kind_clause: Vec<Option<&Clause>> = vec![None; nk];
    let mut confinement: Vec<meaning::Confinement> = vec![Some((0, Vec::new())); nk];
    let mut facing = None;
    let mut capture_seen = false;
    let mut max_screens = 0u8;

    for c in ed.clauses_with_prefix("movement.") {
        if has_key(c, "program") {
            let Some(m) = read::<data::Movement>(c, errors) else {
                continue;
            };
            let Some(k) = note(kind_id(kinds, c, &m.piece), errors) else {
                continue;
            };
            if let Some(prev) = &kind_clause[k as usize] {
                errors.push(err(
                    c,
                    format!("kind `{}` already has its moves in `{}`", m.piece, prev.id),
                ));
                continue;
            }
            kind_clause[k as usize] = Some(c);
            for ins in &m.program {
                meaning::confine(&mut confinement[k as usize], ins, regions);
                note(
                    compile_instruction(
                        c,
                        ins,
                        k,
                        regions,
                        &mut leap_lists,
                        &mut rays,
                        &mut masks,
                        &mut max_screens,
                    ),
                    errors,
                );
            }
        } else if has_key(c, "line") {
            let Some(f) = read::<data::Facing>(c, errors) else {
                continue;
            };
            let Some(k) = note(kind_id(kinds, c, &f.piece), errors) else {
                continue;
            };
            if k != royal {
                errors.push(err(
                    c,
                    "the VM applies the facing rule to the royal kind only",
                ));
                continue;
            }
            let dirs = match f.line {
                Line::File => [true, true, false, false],
                Line::Rank => [false, false, true, true],
                Line::Both => [true; 4],
            };
            if facing.is_some() {
                errors.push(err(c, "a second facing rule"));
                continue;
            }
            facing = Some((k, dirs));
        } else if has_key(c, "capture") {
            let Some(cap) = read::<data::Capture>(c, errors) else {
                continue;
            };
            if cap.capture != "replace" || cap.own_pieces != "blocked" {
                errors.push(err(
                    c,
                    "the VM supports capture by replacement with own pieces blocking (capture: replace, own_pieces: blocked)",
                ));
                continue;
            }
            capture_seen = true;
        } else {
            errors.push(err(
                c,
                "movement data must have `program`, `line` or `capture`",
            ));
        }
    }
    if !capture_seen && errors.len() == before {
        errors.push(SpecError::new(
            Default::default(),
            Some("movement.capture"),
            format!("edition `{}` does not say how pieces capture", ed.id),
        ));
    }
    let mut movement_clauses = Vec::new();
    for (i, c) in kind_clause.into_iter().enumerate() {
        match c {
            Some(c) => movement_clauses.push(c),
            None if errors.len() == before => errors.push(err(
                kinds_clause,
                format!("kind `{}` has no movement clause", kinds[i].name),
            )),
            None => {}
        }
    }
    (errors.len() == before).then_some(Movement {
        leap_lists,
        rays,
        masks,
        movement_clauses,
        confinement,
        facing,
        max_screens,
    })
}

/// Flattened leaps and the reverse (attack) tables.
struct LeapTables {
    leaps: Vec<Leap>,
    leap_index: Vec<(u16, u16)>,
    leap_to: Vec<u128>,
    reverse: Vec<ReverseLeap>,
    reverse_index: Vec<(u16, u16)>,
    reverse_from: Vec<u128>,
}

fn leap_tables(leap_lists: &[Vec<Leap>]) -> LeapTables {
    let mut leaps = Vec::new();
    let mut leap_index = vec![(0u16, 0u16); 2 * MAX_KINDS * SQUARES];
    let leap_to = leap_lists
        .iter()
        .map(|list| list.iter().fold(0u128, |m, l| m | 1u128 << l.to))
        .collect();
    let mut reverse_lists: Vec<Vec<ReverseLeap>> = vec![Vec::new(); 2 * SQUARES];
    for (i, list) in leap_lists.iter().enumerate() {
        let start = leaps.len() as u16;
        leaps.extend_from_slice(list);
        leap_index[i] = (start, leaps.len() as u16);
        let side = i / (MAX_KINDS * SQUARES);
        let kind = (i / SQUARES) % MAX_KINDS;
        let from = (i % SQUARES) as u8;
        for l in list.iter().filter(|l| l.modes & CAPTURE != 0) {
            let rev = &mut reverse_lists[side * SQUARES + l.to as usize];
            match rev
                .iter_mut()
                .find(|r| r.from == from && r.block == l.block)
            {
                Some(r) => r.kinds |= 1 << kind,
                None => rev.push(ReverseLeap {
                    from,
                    block: l.block,
                    kinds: 1 << kind,
                }),
            }
        }
    }
    let mut reverse = Vec::new();
    let mut reverse_index = vec![(0u16, 0u16); 2 * SQUARES];
    let mut reverse_from = vec![0u128; 2 * SQUARES];
    for (i, list) in reverse_lists.iter().enumerate() {
        let start = reverse.len() as u16;
        reverse.extend_from_slice(list);
        reverse_index[i] = (start, reverse.len() as u16);
        reverse_from[i] = list.iter().fold(0, |m, r| m | 1u128 << r.from);
    }
    LeapTables {
        leaps,
        leap_index,
        leap_to,
        reverse,
        reverse_index,
        reverse_from,
    }
}

/// The check zone of every point for each attacking side: its four lines, and the start
/// and blocking points of the leaps onto it.
fn check_zones(t: &LeapTables, rays: &[[u128; 4]]) -> Vec<u128> {
    (0..2 * SQUARES)
        .map(|i| {
            let (a, b) = t.reverse_index[i];
            let leaps = t.reverse[a as usize..b as usize]
                .iter()
                .fold(0u128, |m, r| {
                    m | 1u128 << r.from
                        | if r.block == NO_BLOCK {
                            0
                        } else {
                            1u128 << r.block
                        }
                });
            leaps | rays[i % SQUARES].iter().fold(0, |m, r| m | r)
        })
        .collect()
}

/// Per attacking side and point, per kind: the points a piece of that kind may arrive on to
/// attack the point (the starts of its leaps onto it, and the point's lines along which the
/// kind captures). `check_arrival[side * 90 + sq][kind]`.
fn check_arrivals(
    t: &LeapTables,
    rays: &[[u128; 4]],
    line_attackers: &[[u8; 4]; 2],
) -> Vec<[u128; MAX_KINDS]> {
    (0..2 * SQUARES)
        .map(|i| {
            let (side, sq) = (i / SQUARES, i % SQUARES);
            let mut direct = [0u128; MAX_KINDS];
            let (a, b) = t.reverse_index[i];
            for r in &t.reverse[a as usize..b as usize] {
                for (kind, d) in direct.iter_mut().enumerate() {
                    if r.kinds >> kind & 1 != 0 {
                        *d |= 1u128 << r.from;
                    }
                }
            }
            for (d, ray) in rays[sq].iter().enumerate() {
                let kinds = line_attackers[side][super::opposite(d)];
                for (kind, z) in direct.iter_mut().enumerate() {
                    if kinds >> kind & 1 != 0 {
                        *z |= ray;
                    }
                }
            }
            direct
        })
        .collect()
}

/// Which kinds of each side capture along each direction, and which have any line move.
fn line_attackers(rays: &[[Ray; 4]], nk: usize) -> ([[u8; 4]; 2], [[bool; 8]; 2]) {
    let mut line_attackers = [[0u8; 4]; 2];
    let mut has_rays = [[false; 8]; 2];
    for side in 0..2 {
        for kind in 0..nk {
            for sq in 0..SQUARES {
                let r = &rays[(side * MAX_KINDS + kind) * SQUARES + sq];
                for (d, ray) in r.iter().enumerate() {
                    if !ray.is_empty() {
                        has_rays[side][kind] = true;
                    }
                    if (ray.slide | ray.hop) & CAPTURE != 0 {
                        line_attackers[side][d] |= 1 << kind;
                    }
                }
            }
        }
    }
    (line_attackers, has_rays)
}

/// `ray_mask[sq][dir]`: every point from `sq` (exclusive) to the edge.
fn ray_masks() -> Vec<[u128; 4]> {
    let mut ray_mask = vec![[0u128; 4]; SQUARES];
    for sq in Square::all() {
        for (d, &(dx, dy)) in DIRS.iter().enumerate() {
            let mut m = 0u128;
            let (mut x, mut y) = (sq.file() as i32 + dx, sq.rank() as i32 + dy);
            while let Some(t) = Square::new(x, y) {
                m |= 1u128 << t.index();
                x += dx;
                y += dy;
            }
            ray_mask[sq.index()][d] = m;
        }
    }
    ray_mask
}

/// Check, mate, stalemate and self-kill (`check.*`).
struct CheckRules {
    in_check_status: Status,
    forbid_attacked: bool,
    forbid_facing: bool,
    status_rules: Vec<StatusRule>,
}

fn check_rules(ed: &Edition, facing: bool, errors: &mut Vec<SpecError>) -> Option<CheckRules> {
    let before = errors.len();
    let def = note(require(ed, "check.definition"), errors)
        .and_then(|c| Some((c, read::<data::CheckDefinition>(c, errors)?)));
    let mut in_check_status = None;
    if let Some((def_clause, def)) = def {
        if def.target != "royal" {
            errors.push(err(
                def_clause,
                "check targets the royal kind (`target: royal`)",
            ));
        }
        in_check_status = note(
            Status::parse(&def.status)
                .ok_or_else(|| err(def_clause, format!("unknown status `{}`", def.status))),
            errors,
        );
    }
    let sk = note(require(ed, "check.self_kill"), errors)
        .and_then(|c| Some((c, read::<data::SelfKill>(c, errors)?)));
    let (forbid_attacked, forbid_facing) = match &sk {
        Some((sk_clause, sk)) => {
            let attacked = sk
                .forbidden_after_move
                .contains(&Forbidden::OwnRoyalAttacked);
            let facing_forbidden = sk.forbidden_after_move.contains(&Forbidden::RoyalsFacing);
            if facing_forbidden && !facing {
                errors.push(err(
                    sk_clause,
                    "forbids `royals_facing`, but no movement clause defines facing (`line:`)",
                ));
            }
            (attacked, facing_forbidden)
        }
        None => (false, false),
    };
    let mut status_rules = Vec::new();
    for c in ed.clauses_with_prefix("check.") {
        if has_key(c, "when") {
            let Some(r) = read::<data::StatusRule>(c, errors) else {
                continue;
            };
            let Some(status) = note(
                Status::parse(&r.status)
                    .ok_or_else(|| err(c, format!("unknown status `{}`", r.status))),
                errors,
            ) else {
                continue;
            };
            status_rules.push(StatusRule {
                in_check: r.when.in_check,
                has_legal_move: r.when.has_legal_move,
                status,
            });
        } else if has_key(c, "must_answer") {
            let Some(r) = read::<data::CheckResponse>(c, errors) else {
                continue;
            };
            if r.must_answer && sk.is_some() && !forbid_attacked {
                errors.push(err(c, "a check must be answered, but check.self_kill does not forbid leaving the general attacked"));
            }
        }
    }
    (errors.len() == before).then_some(CheckRules {
        in_check_status: in_check_status?,
        forbid_attacked,
        forbid_facing,
        status_rules,
    })
}

/// Compiles the movement and check clauses of `ed` into [`Rules`]: `None` when the edition
/// has none of them (no `board.*`, `pieces.*`, `play.*`, `movement.*` or `check.*` clause),
/// else the rules or every error found, each at its clause. A step whose input failed
/// (the kinds, for the setup and the moves) is not run, so no error follows from another.
pub fn compile(ed: &Edition) -> Result<Option<Rules>, Vec<SpecError>> {
    if !FAMILIES
        .iter()
        .any(|f| ed.clauses_with_prefix(f).next().is_some())
    {
        return Ok(None);
    }
    let mut errors = Vec::new();
    note(grid(ed), &mut errors);
    let regions = regions(ed, &mut errors);
    let mut kinds = kinds(ed, &mut errors);
    let setup = match &mut kinds {
        Some((_, kinds, royal)) => setup(ed, kinds, *royal, &mut errors),
        None => None,
    };
    let turns = turns(ed, &mut errors);
    let movement = match kinds {
        Some((kinds_clause, kinds, royal)) => {
            movement(ed, kinds_clause, &kinds, royal, &regions, &mut errors)
                .map(|m| (kinds, royal, m))
        }
        None => None,
    };
    let check = check_rules(
        ed,
        movement.as_ref().is_none_or(|m| m.2.facing.is_some()),
        &mut errors,
    );
    let file_numerals = note(super::record::file_numerals(ed), &mut errors);
    let record = match (&movement, &file_numerals) {
        (Some((kinds, _, _)), Some(numerals)) => super::record::compile(ed, kinds, numerals)
            .map_err(|mut e| errors.append(&mut e))
            .ok(),
        _ => None,
    };
    let (
        Some((setup_clause, setup)),
        Some((kinds, royal, m)),
        Some((first_to_move, moves_per_round)),
        Some(check),
        Some(file_numerals),
        Some(record),
    ) = (setup, movement, turns, check, file_numerals, record)
    else {
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let t = leap_tables(&m.leap_lists);
    let ray_mask = ray_masks();
    let check_zone = check_zones(&t, &ray_mask);
    let (line_attackers, has_rays) = line_attackers(&m.rays, kinds.len());
    let check_arrival = check_arrivals(&t, &ray_mask, &line_attackers);
    let mut rules = Rules {
        edition_id: ed.id.clone(),
        record,
        file_numerals,
        kinds,
        royal,
        first_to_move,
        moves_per_round,
        setup,
        leap_index: t.leap_index,
        leap_to: t.leap_to,
        leaps: t.leaps,
        rays: m.rays,
        has_rays,
        masks: m.masks,
        reverse_index: t.reverse_index,
        reverse: t.reverse,
        check_zone,
        check_arrival,
        reverse_from: t.reverse_from,
        any_line_attackers: [
            line_attackers[0].iter().fold(0, |a, b| a | b),
            line_attackers[1].iter().fold(0, |a, b| a | b),
        ],
        line_attackers,
        max_screens: m.max_screens,
        facing: m.facing,
        forbid_attacked: check.forbid_attacked,
        forbid_facing: check.forbid_facing,
        status_rules: check.status_rules,
        in_check_status: check.in_check_status,
        reachable: [[0; 8]; 2],
        lines_through: ray_mask
            .iter()
            .map(|r| r.iter().fold(0, |m, d| m | d))
            .collect(),
        ray_mask,
        kind_clause: m.movement_clauses.iter().map(|c| c.id.clone()).collect(),
        regions,
    };
    rules.reachable = reachability(&rules);
    meaning::check_kinds(&rules, &m.movement_clauses, &m.confinement, setup_clause)
        .map_err(|e| vec![e])?;
    let bound = move_bound(&rules);
    if bound > super::position_internals::MAX_MOVES {
        return Err(vec![err(
            setup_clause,
            format!("these pieces could have up to {bound} moves in one position; the VM's move buffer holds {}", super::position_internals::MAX_MOVES),
        )]);
    }
    Ok(Some(rules))
}

#[allow(clippy::too_many_arguments)]
fn compile_instruction(
    c: &Clause,
    ins: &Instruction,
    kind: KindId,
    regions: &BTreeMap<String, u128>,
    leap_lists: &mut [Vec<Leap>],
    rays: &mut [[Ray; 4]],
    masks: &mut Vec<u128>,
    max_screens: &mut u8,
) -> Result<(), SpecError> {
    let prims = [
        ins.step.is_some(),
        ins.leap.is_some(),
        ins.slide.is_some(),
        ins.hop.is_some(),
    ];
    if prims.iter().filter(|&&p| p).count() != 1 {
        return Err(err(
            c,
            "each program entry has exactly one of step, leap, slide, hop",
        ));
    }
    let region = |name: &Option<String>| -> Result<Option<u128>, SpecError> {
        match name {
            None => Ok(None),
            Some(n) => regions.get(n).copied().map(Some).ok_or_else(|| {
                err(
                    c,
                    format!(
                        "region `{n}` is not defined by any board clause (known: {})",
                        regions.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                )
            }),
        }
    };
    let from_guard = region(&ins.from)?;
    let to_guard = region(&ins.to)?;
    let modes =
        (if ins.mode.quiet() { QUIET } else { 0 }) | (if ins.mode.capture() { CAPTURE } else { 0 });
    let in_guard = |g: Option<u128>, rel: Square| g.is_none_or(|m| m >> rel.index() & 1 == 1);

    if let Some(off) = ins.step.or(ins.leap) {
        if ins.leap.is_some() && ins.block.is_none() {
            return Err(err(c, "a leap names its blocking point (`block: [df, dr]`); use `step` for a move that cannot be blocked"));
        }
        if ins.step.is_some() && ins.block.is_some() {
            return Err(err(c, "a step has no blocking point; use `leap`"));
        }
        if ins.screens.is_some() || ins.max.is_some() {
            return Err(err(c, "`screens` and `max` belong to hop and slide"));
        }
        if off == [0, 0] {
            return Err(err(c, "a step or leap must move"));
        }
        let prim = if ins.step.is_some() { "step" } else { "leap" };
        for (o, b) in orientations(ins.symmetry, off, ins.block) {
            if !meaning::leap_lands(o, b, from_guard, to_guard) {
                return Err(err(c, format!("`{prim}: {off:?}` (as {o:?}{}) lands on no point of the board{} from any point{}", block_text(b), guard_text("inside", &ins.to), guard_text("of", &ins.from))));
            }
        }
        for side in Side::BOTH {
            for from in Square::all() {
                if !in_guard(from_guard, from.relative_to(side)) {
                    continue;
                }
                for (o, b) in orientations(ins.symmetry, off, ins.block) {
                    let Some(to) = offset_point(side, from, o) else {
                        continue;
                    };
                    if !in_guard(to_guard, to.relative_to(side)) {
                        continue;
                    }
                    let block = match b {
                        None => NO_BLOCK,
                        Some(b) => match offset_point(side, from, b) {
                            Some(s) => s.index() as u8,
                            None => continue,
                        },
                    };
                    let list = &mut leap_lists[piece_slot(side, kind, from.index())];
                    match list
                        .iter_mut()
                        .find(|l| l.to == to.index() as u8 && l.block == block)
                    {
                        Some(l) => l.modes |= modes,
                        None => list.push(Leap {
                            to: to.index() as u8,
                            block,
                            modes,
                        }),
                    }
                }
            }
        }
        return Ok(());
    }

    let is_hop = ins.hop.is_some();
    let dir = ins.slide.or(ins.hop).unwrap_or_default();
    if ins.block.is_some() {
        return Err(err(c, "slides and hops have no blocking point"));
    }
    if is_hop && ins.max.is_some() {
        return Err(err(c, "`max` limits slides only"));
    }
    if !is_hop && ins.screens.is_some() {
        return Err(err(c, "`screens` belongs to hop"));
    }
    let screens = if is_hop { ins.screens.unwrap_or(1) } else { 0 };
    if is_hop && screens == 0 {
        return Err(err(c, "`screens` is 0: a hop jumps at least one screen"));
    }
    if ins.max == Some(0) {
        return Err(err(c, "`max` is 0: a slide goes at least one point"));
    }
    let prim = if is_hop { "hop" } else { "slide" };
    for (o, _) in orientations(ins.symmetry, dir, None) {
        if abs_dir(Side::Red, o).is_some()
            && !meaning::line_lands(
                o,
                is_hop.then_some(screens),
                ins.max.unwrap_or(u8::MAX),
                from_guard,
                to_guard,
            )
        {
            return Err(err(
                c,
                format!(
                    "`{prim}: {dir:?}` (as {o:?}) ends on no point of the board{} from any point{}",
                    guard_text("inside", &ins.to),
                    guard_text("of", &ins.from)
                ),
            ));
        }
    }
    *max_screens = (*max_screens).max(screens);
    let mut to_mask_idx = |side: Side| -> Result<u8, SpecError> {
        match to_guard {
            None => Ok(0),
            Some(m) => {
                let abs = to_side(m, side);
                let i = match masks.iter().position(|&x| x == abs) {
                    Some(i) => i,
                    None => {
                        masks.push(abs);
                        masks.len() - 1
                    }
                };
                u8::try_from(i).map_err(|_| err(c, "too many distinct `to` regions"))
            }
        }
    };
    for side in Side::BOTH {
        let mask_idx = to_mask_idx(side)?;
        for (o, _) in orientations(ins.symmetry, dir, None) {
            let Some(d) = abs_dir(side, o) else {
                return Err(err(
                    c,
                    format!(
                        "slide and hop directions are unit steps along a file or rank, not {o:?}"
                    ),
                ));
            };
            for from in Square::all() {
                if !in_guard(from_guard, from.relative_to(side)) {
                    continue;
                }
                let ray = &mut rays[piece_slot(side, kind, from.index())][d];
                if !ray.is_empty() && ray.to_mask != mask_idx {
                    return Err(err(
                        c,
                        "two line moves in one direction with different `to` regions",
                    ));
                }
                ray.to_mask = mask_idx;
                if is_hop {
                    if ray.hop != 0 && ray.screens != screens {
                        return Err(err(c, "two hops in one direction with different screens"));
                    }
                    ray.hop |= modes;
                    ray.screens = screens;
                } else {
                    let max = ins.max.unwrap_or(u8::MAX);
                    if ray.slide != 0 && ray.max != max {
                        return Err(err(c, "two slides in one direction with different `max`"));
                    }
                    ray.slide |= modes;
                    ray.max = max;
                }
            }
        }
    }
    Ok(())
}

fn block_text(b: Option<[i32; 2]>) -> String {
    b.map(|b| format!(", blocked at {b:?}")).unwrap_or_default()
}

fn guard_text(word: &str, region: &Option<String>) -> String {
    region
        .as_ref()
        .map(|r| format!(" {word} region `{r}`"))
        .unwrap_or_default()
}

/// Points each kind can ever reach from its setup points on an otherwise empty board
/// (blocking points ignored, every hop and slide length allowed).
fn reachability(rules: &Rules) -> [[u128; 8]; 2] {
    let mut out = [[0u128; 8]; 2];
    for side in Side::BOTH {
        for kind in 0..rules.kinds.len() as KindId {
            let mut seen = 0u128;
            let mut queue = VecDeque::new();
            for &(k, sq) in &rules.setup[side.index()] {
                if k == kind && seen >> sq.index() & 1 == 0 {
                    seen |= 1u128 << sq.index();
                    queue.push_back(sq.index());
                }
            }
            while let Some(sq) = queue.pop_front() {
                let targets = meaning::empty_board_targets(rules, side, kind, sq, false);
                let next = super::position_internals::BitIter(targets);
                for t in next {
                    if seen >> t & 1 == 0 {
                        seen |= 1u128 << t;
                        queue.push_back(t);
                    }
                }
            }
            out[side.index()][kind as usize] = seen;
        }
    }
    out
}

/// An upper bound on the moves of one side in any position: for each piece of the setup,
/// the most targets its program offers from any point.
fn move_bound(rules: &Rules) -> usize {
    let mut total = 0;
    for side in Side::BOTH {
        let mut side_total = 0;
        for &(kind, _) in &rules.setup[side.index()] {
            let most = (0..SQUARES)
                .map(|sq| {
                    let lines: usize = rules
                        .rays_of(side, kind, sq)
                        .iter()
                        .filter(|r| !r.is_empty())
                        .count()
                        * (RANKS.max(FILES) as usize - 1);
                    rules.leaps_of(side, kind, sq).len() + lines
                })
                .max()
                .unwrap_or(0);
            side_total += most;
        }
        total = total.max(side_total);
    }
    total
}
