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

/// The tables every program instruction adds to: per piece slot (side, kind, point) its leaps
/// and its four rays, the distinct `to` regions of line moves, the most screens a hop jumps.
pub(super) struct MoveTables {
    leap_lists: Vec<Vec<Leap>>,
    rays: Vec<[Ray; 4]>,
    masks: Vec<u128>,
    max_screens: u8,
}

impl MoveTables {
    /// Empty tables: no leaps, empty rays, only the all-points mask.
    fn new() -> Self {
        MoveTables {
            leap_lists: vec![Vec::new(); 2 * MAX_KINDS * SQUARES],
            rays: vec![[Ray::default(); 4]; 2 * MAX_KINDS * SQUARES],
            masks: vec![!0u128],
            max_screens: 0,
        }
    }
}

/// What the `movement.*` clauses have said so far, read one clause at a time.
struct MovementReader<'a, 'k> {
    kinds: &'k [KindInfo],
    royal: KindId,
    regions: &'k BTreeMap<String, u128>,
    tables: MoveTables,
    kind_clause: Vec<Option<&'a Clause>>,
    confinement: Vec<meaning::Confinement>,
    facing: Option<(KindId, [bool; 4])>,
    capture_seen: bool,
}

impl<'a> MovementReader<'a, '_> {
    /// A kind's move program (`program:`): at most one clause per kind, each instruction
    /// compiled into the tables and into the kind's confinement.
    fn program(&mut self, c: &'a Clause, errors: &mut Vec<SpecError>) {
        let Some(m) = read::<data::Movement>(c, errors) else {
            return;
        };
        let Some(k) = note(kind_id(self.kinds, c, &m.piece), errors) else {
            return;
        };
        if let Some(prev) = &self.kind_clause[k as usize] {
            errors.push(err(
                c,
                format!("kind `{}` already has its moves in `{}`", m.piece, prev.id),
            ));
            return;
        }
        self.kind_clause[k as usize] = Some(c);
        for ins in &m.program {
            meaning::confine(&mut self.confinement[k as usize], ins, self.regions);
            note(
                compile_instruction(c, ins, k, self.regions, &mut self.tables),
                errors,
            );
        }
    }

    /// The facing rule (`line:`): one only, and on the royal kind.
    fn facing(&mut self, c: &Clause, errors: &mut Vec<SpecError>) {
        let Some(f) = read::<data::Facing>(c, errors) else {
            return;
        };
        let Some(k) = note(kind_id(self.kinds, c, &f.piece), errors) else {
            return;
        };
        if k != self.royal {
            errors.push(err(
                c,
                "the VM applies the facing rule to the royal kind only",
            ));
            return;
        }
        let dirs = match f.line {
            Line::File => [true, true, false, false],
            Line::Rank => [false, false, true, true],
            Line::Both => [true; 4],
        };
        if self.facing.is_some() {
            errors.push(err(c, "a second facing rule"));
            return;
        }
        self.facing = Some((k, dirs));
    }

    /// How pieces capture (`capture:`): the VM knows capture by replacement, own pieces
    /// blocking.
    fn capture(&mut self, c: &Clause, errors: &mut Vec<SpecError>) {
        let Some(cap) = read::<data::Capture>(c, errors) else {
            return;
        };
        if cap.capture != "replace" || cap.own_pieces != "blocked" {
            errors.push(err(
                c,
                "the VM supports capture by replacement with own pieces blocking (capture: replace, own_pieces: blocked)",
            ));
            return;
        }
        self.capture_seen = true;
    }
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
    let mut reader = MovementReader {
        kinds,
        royal,
        regions,
        tables: MoveTables::new(),
        kind_clause: vec![None; nk],
        confinement: vec![Some((0, Vec::new())); nk],
        facing: None,
        capture_seen: false,
    };
    for c in ed.clauses_with_prefix("movement.") {
        if has_key(c, "program") {
            reader.program(c, errors);
        } else if has_key(c, "line") {
            reader.facing(c, errors);
        } else if has_key(c, "capture") {
            reader.capture(c, errors);
        } else {
            errors.push(err(
                c,
                "movement data must have `program`, `line` or `capture`",
            ));
        }
    }
    if !reader.capture_seen && errors.len() == before {
        errors.push(SpecError::new(
            Default::default(),
            Some("movement.capture"),
            format!("edition `{}` does not say how pieces capture", ed.id),
        ));
    }
    let mut movement_clauses = Vec::new();
    for (i, c) in reader.kind_clause.into_iter().enumerate() {
        match c {
            Some(c) => movement_clauses.push(c),
            None if errors.len() == before => errors.push(err(
                kinds_clause,
                format!("kind `{}` has no movement clause", kinds[i].name),
            )),
            None => {}
        }
    }
    let tables = reader.tables;
    (errors.len() == before).then_some(Movement {
        leap_lists: tables.leap_lists,
        rays: tables.rays,
        masks: tables.masks,
        movement_clauses,
        confinement: reader.confinement,
        facing: reader.facing,
        max_screens: tables.max_screens,
    })
}

/// An instruction's region guards (Red frame): the points it may start from and land on.
#[derive(Clone, Copy)]
struct Guards {
    from: Option<u128>,
    to: Option<u128>,
}

/// Whether point `rel` (Red frame) is inside guard `g` (no guard: every point).
fn in_guard(g: Option<u128>, rel: Square) -> bool {
    g.is_none_or(|m| m >> rel.index() & 1 == 1)
}

/// The region named by an instruction's `from`/`to`, or the error naming the known regions.
fn region_guard(
    c: &Clause,
    regions: &BTreeMap<String, u128>,
    name: &Option<String>,
) -> Result<Option<u128>, SpecError> {
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
}

/// One program entry (a step, leap, slide or hop) compiled into the tables of `kind`.
pub(super) fn compile_instruction(
    c: &Clause,
    ins: &Instruction,
    kind: KindId,
    regions: &BTreeMap<String, u128>,
    tables: &mut MoveTables,
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
    let guards = Guards {
        from: region_guard(c, regions, &ins.from)?,
        to: region_guard(c, regions, &ins.to)?,
    };
    let modes =
        (if ins.mode.quiet() { QUIET } else { 0 }) | (if ins.mode.capture() { CAPTURE } else { 0 });
    if let Some(off) = ins.step.or(ins.leap) {
        check_step_or_leap(c, ins, off, guards)?;
        tables.add_leaps(ins, off, kind, guards, modes);
        return Ok(());
    }
    let line = check_line_move(c, ins, guards)?;
    tables.max_screens = tables.max_screens.max(line.screens);
    tables.add_rays(c, ins, kind, &line, guards, modes)
}

/// A step or leap's own rules: a leap names its blocking point, a step has none, neither
/// has screens or a maximum, it moves, and each orientation lands somewhere.
fn check_step_or_leap(
    c: &Clause,
    ins: &Instruction,
    off: [i8; 2],
    guards: Guards,
) -> Result<(), SpecError> {
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
        if !meaning::leap_lands(o, b, guards.from, guards.to) {
            return Err(err(c, format!("`{prim}: {off:?}` (as {o:?}{}) lands on no point of the board{} from any point{}", block_text(b), guard_text("inside", &ins.to), guard_text("of", &ins.from))));
        }
    }
    Ok(())
}

/// A slide or hop, checked: its direction, whether it hops, the screens it jumps (0 for a
/// slide) and the most points it goes.
struct LineMove {
    is_hop: bool,
    dir: [i8; 2],
    screens: u8,
    max: u8,
}

/// A slide or hop's own rules: no blocking point, `max` for slides and `screens` for hops
/// only, neither 0, and each orientation ends somewhere.
fn check_line_move(c: &Clause, ins: &Instruction, guards: Guards) -> Result<LineMove, SpecError> {
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
                guards.from,
                guards.to,
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
    Ok(LineMove {
        is_hop,
        dir,
        screens,
        max: ins.max.unwrap_or(u8::MAX),
    })
}

impl MoveTables {
    /// A step or leap's landings from every guarded point, for both sides, merged with the
    /// kind's leaps already there (same landing and blocking point: modes joined).
    fn add_leaps(
        &mut self,
        ins: &Instruction,
        off: [i8; 2],
        kind: KindId,
        guards: Guards,
        modes: u8,
    ) {
        for side in Side::BOTH {
            for from in Square::all() {
                if !in_guard(guards.from, from.relative_to(side)) {
                    continue;
                }
                for (o, b) in orientations(ins.symmetry, off, ins.block) {
                    let Some(to) = offset_point(side, from, o) else {
                        continue;
                    };
                    if !in_guard(guards.to, to.relative_to(side)) {
                        continue;
                    }
                    let block = match b {
                        None => NO_BLOCK,
                        Some(b) => match offset_point(side, from, b) {
                            Some(s) => s.index() as u8,
                            None => continue,
                        },
                    };
                    let list = &mut self.leap_lists[piece_slot(side, kind, from.index())];
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
    }

    /// The index of the `to` region as seen by `side` among the distinct masks (0: no
    /// region), added if new.
    fn landing_mask_index(
        &mut self,
        c: &Clause,
        to_guard: Option<u128>,
        side: Side,
    ) -> Result<u8, SpecError> {
        match to_guard {
            None => Ok(0),
            Some(m) => {
                let abs = to_side(m, side);
                let i = match self.masks.iter().position(|&x| x == abs) {
                    Some(i) => i,
                    None => {
                        self.masks.push(abs);
                        self.masks.len() - 1
                    }
                };
                u8::try_from(i).map_err(|_| err(c, "too many distinct `to` regions"))
            }
        }
    }

    /// A slide or hop on the rays of every guarded point, for both sides; two line moves
    /// sharing a ray must agree on their `to` region, screens or maximum.
    fn add_rays(
        &mut self,
        c: &Clause,
        ins: &Instruction,
        kind: KindId,
        line: &LineMove,
        guards: Guards,
        modes: u8,
    ) -> Result<(), SpecError> {
        for side in Side::BOTH {
            let mask_idx = self.landing_mask_index(c, guards.to, side)?;
            for (o, _) in orientations(ins.symmetry, line.dir, None) {
                let Some(d) = abs_dir(side, o) else {
                    return Err(err(
                        c,
                        format!(
                            "slide and hop directions are unit steps along a file or rank, not {o:?}"
                        ),
                    ));
                };
                for from in Square::all() {
                    if !in_guard(guards.from, from.relative_to(side)) {
                        continue;
                    }
                    let ray = &mut self.rays[piece_slot(side, kind, from.index())][d];
                    add_line_to_ray(c, ray, line, mask_idx, modes)?;
                }
            }
        }
        Ok(())
    }
}

/// One slide or hop joined to a ray: the ray's `to` region, and its hop's screens or its
/// slide's maximum, must agree with what is already there.
fn add_line_to_ray(
    c: &Clause,
    ray: &mut Ray,
    line: &LineMove,
    mask_idx: u8,
    modes: u8,
) -> Result<(), SpecError> {
    if !ray.is_empty() && ray.to_mask != mask_idx {
        return Err(err(
            c,
            "two line moves in one direction with different `to` regions",
        ));
    }
    ray.to_mask = mask_idx;
    if line.is_hop {
        if ray.hop != 0 && ray.screens != line.screens {
            return Err(err(c, "two hops in one direction with different screens"));
        }
        ray.hop |= modes;
        ray.screens = line.screens;
    } else {
        if ray.slide != 0 && ray.max != line.max {
            return Err(err(c, "two slides in one direction with different `max`"));
        }
        ray.slide |= modes;
        ray.max = line.max;
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
