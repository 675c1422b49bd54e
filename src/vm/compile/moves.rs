//! Move programs → instructions: a kind's `movement.*` clause compiled (steps, leaps with a
//! blocking point, slides, hops over screens, region guards), each instruction's
//! orientations for a side.

use super::*;

/// The orientations of an offset (and its blocking point) named by a symmetry.
pub(super) fn orientations(
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
pub(super) fn offset_point(side: Side, from: Square, d: [i32; 2]) -> Option<Square> {
    let rel = from.relative_to(side);
    let t = Square::new(rel.file() as i32 + d[0], rel.rank() as i32 + d[1])?;
    Some(t.relative_to(side))
}

pub(super) fn abs_dir(side: Side, d: [i32; 2]) -> Option<usize> {
    let d = match side {
        Side::Red => d,
        Side::Black => [-d[0], -d[1]],
    };
    DIRS.iter().position(|&(x, y)| [x, y] == d)
}

/// The move tables of `movement.*` (programs, the facing rule, capture), before flattening.
pub(super) struct Movement<'a> {
    pub(super) leap_lists: Vec<Vec<Leap>>,
    pub(super) rays: Vec<[Ray; 4]>,
    pub(super) masks: Vec<u128>,
    pub(super) movement_clauses: Vec<&'a Clause>,
    pub(super) confinement: Vec<meaning::Confinement>,
    pub(super) facing: Option<(KindId, [bool; 4])>,
    pub(super) max_screens: u8,
}

/// `movement.*`: every kind's program, the facing rule and how pieces capture; every bad
/// clause recorded.
pub(super) fn movement<'a>(
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

#[allow(clippy::too_many_arguments)]
pub(super) fn compile_instruction(
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

pub(super) fn block_text(b: Option<[i32; 2]>) -> String {
    b.map(|b| format!(", blocked at {b:?}")).unwrap_or_default()
}

pub(super) fn guard_text(word: &str, region: &Option<String>) -> String {
    region
        .as_ref()
        .map(|r| format!(" {word} region `{r}`"))
        .unwrap_or_default()
}
