//! Move generation from the compiled tables: pseudo-legal moves into a [`Sink`] (a move
//! list, the legal-move [`Filter`] in check, the [`Counter`] of perft's last ply) and the
//! [`Guard`] of sensitive points that lets most moves skip the self-kill test.

use super::*;

/// A fixed-capacity move buffer (no allocation in the search loop).
pub(crate) struct MoveBuf {
    pub(super) moves: [std::mem::MaybeUninit<Move>; MAX_MOVES],
    pub(super) len: usize,
}

/// Capacity of a move buffer; `Rules::compile` rejects editions whose pieces could exceed it.
pub(crate) const MAX_MOVES: usize = 256;

impl MoveBuf {
    #[inline]
    pub(crate) fn new() -> MoveBuf {
        MoveBuf {
            // An inline-const repeat leaves the array uninitialised; the plain repeat of
            // `MaybeUninit::uninit()` compiles to a memset of the whole buffer (rustc 1.95),
            // paid at every node of the 棋例 searches.
            moves: [const { std::mem::MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }
    #[inline]
    pub(super) fn push(&mut self, from: usize, to: usize) {
        if self.len < MAX_MOVES {
            self.moves[self.len].write(Move::new(
                Square::from_index_unchecked(from as u8),
                Square::from_index_unchecked(to as u8),
            ));
            self.len += 1;
        }
    }
    /// Appends a move (dropped, like every move past the capacity, where the buffer is full).
    #[inline]
    pub(crate) fn push_move(&mut self, m: Move) {
        self.push(m.from.index(), m.to.index());
    }
    /// The moves, to reorder them in place.
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as for `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`; `Move` is `Copy` with no
        // invalid bit patterns among written values.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
}

/// Where generated moves go: a buffer, or a counter for perft's last ply.
pub(crate) trait Sink {
    /// One move.
    fn one(&mut self, from: usize, to: usize);
    /// The moves of a piece of kind `kind` come next (a sink whose targets depend on the
    /// kind sets them here).
    #[inline]
    fn piece(&mut self, _kind: usize) {}
    /// Whether the sink may keep a quiet move at all (a sink of captures only does not:
    /// the generator then skips every quiet move unseen).
    #[inline]
    fn quiet(&self) -> bool {
        true
    }
    /// Whether the sink keeps every move from `from` (then [`Sink::may_keep`] is not asked).
    #[inline]
    fn keeps_from(&self, _from: usize) -> bool {
        true
    }
    /// Whether the sink may keep some move onto one of the points `to`, from a point it does
    /// not keep whole (where it may not, the generator skips a piece's leaps, or a line,
    /// unseen).
    #[inline]
    fn may_keep(&self, _to: u128) -> bool {
        true
    }
    /// The quiet moves from `from` along direction `d` to distances `first..=last`, every
    /// target allowed (no region guard).
    #[inline]
    fn run(&mut self, from: usize, d: usize, first: u32, last: u32) {
        for dist in first..=last {
            self.one(from, Position::along(from, d, dist));
        }
    }
}

impl Sink for MoveBuf {
    #[inline]
    fn one(&mut self, from: usize, to: usize) {
        self.push(from, to);
    }
}

/// Keeps the moves onto `targets` or from `sources`, and drops the rest unseen (the quiet
/// runs that touch neither are skipped whole). With `by_kind`, a piece's targets are also
/// the points of its kind there.
pub(super) struct Filter<'a> {
    pub(super) rules: &'a Rules,
    /// The targets of the piece whose moves are generated now.
    pub(super) targets: u128,
    /// The targets of every piece.
    pub(super) common: u128,
    /// The further targets of each kind, if any.
    pub(super) by_kind: Option<&'a [u128; MAX_KINDS]>,
    pub(super) sources: u128,
    /// Some target is an empty point, or some source is kept whole: quiet moves may be kept.
    pub(super) quiet: bool,
    pub(super) kept: MoveBuf,
}

impl<'a> Filter<'a> {
    pub(super) fn new(
        rules: &'a Rules,
        pos: &Position,
        targets: u128,
        sources: u128,
    ) -> Filter<'a> {
        let empty = !(pos.occ[0] | pos.occ[1]);
        Filter {
            rules,
            targets,
            common: targets,
            by_kind: None,
            sources,
            quiet: sources != 0 || targets & empty != 0,
            kept: MoveBuf::new(),
        }
    }

    /// A filter whose targets are `targets` and, for a piece of kind `k`, `by_kind[k]`.
    pub(super) fn by_kind(
        rules: &'a Rules,
        pos: &Position,
        targets: u128,
        by_kind: &'a [u128; MAX_KINDS],
        sources: u128,
    ) -> Filter<'a> {
        let all = by_kind.iter().fold(targets, |a, t| a | t);
        Filter {
            by_kind: Some(by_kind),
            common: targets,
            ..Filter::new(rules, pos, all, sources)
        }
    }
}

impl Sink for Filter<'_> {
    #[inline]
    fn piece(&mut self, kind: usize) {
        if let Some(k) = self.by_kind {
            self.targets = self.common | k[kind];
        }
    }

    #[inline]
    fn quiet(&self) -> bool {
        self.quiet
    }

    #[inline]
    fn keeps_from(&self, from: usize) -> bool {
        self.sources >> from & 1 != 0
    }

    #[inline]
    fn may_keep(&self, to: u128) -> bool {
        to & self.targets != 0
    }

    #[inline]
    fn one(&mut self, from: usize, to: usize) {
        if ((self.sources >> from) | (self.targets >> to)) & 1 != 0 {
            self.kept.push(from, to);
        }
    }

    #[inline]
    fn run(&mut self, from: usize, d: usize, first: u32, last: u32) {
        if first > last {
            return;
        }
        let all = self.keeps_from(from);
        let end = Position::along(from, d, last);
        if !all && !self.may_keep(self.rules.ray_mask[from][d] & !self.rules.ray_mask[end][d]) {
            return;
        }
        for dist in first..=last {
            let to = Position::along(from, d, dist);
            if all || self.targets >> to & 1 != 0 {
                self.kept.push(from, to);
            }
        }
    }
}

/// Counts moves that cannot be self-kills and keeps the others for a full test.
pub(super) struct Counter<'a> {
    pub(super) rules: &'a Rules,
    /// Points whose change could expose the general; every point when in check or for the
    /// general's own moves.
    pub(super) sensitive: u128,
    pub(super) royal: usize,
    pub(super) in_check: bool,
    pub(super) safe: u64,
    pub(super) doubtful: &'a mut MoveBuf,
}

impl Counter<'_> {
    #[inline]
    pub(super) fn doubtful(&self, from: usize, to: usize) -> bool {
        from == self.royal
            || self.in_check
            || ((1u128 << from) | (1u128 << to)) & self.sensitive != 0
    }
}

impl Sink for Counter<'_> {
    #[inline]
    fn one(&mut self, from: usize, to: usize) {
        if self.doubtful(from, to) {
            self.doubtful.push(from, to);
        } else {
            self.safe += 1;
        }
    }

    #[inline]
    fn run(&mut self, from: usize, d: usize, first: u32, last: u32) {
        if first > last {
            return;
        }
        let end = Position::along(from, d, last);
        let segment =
            (self.rules.ray_mask[from][d] & !self.rules.ray_mask[end][d]) | (1u128 << from);
        if from == self.royal || self.in_check || segment & self.sensitive != 0 {
            for dist in first..=last {
                self.one(from, Position::along(from, d, dist));
            }
        } else {
            self.safe += (last - first + 1) as u64;
        }
    }
}

/// Per-node facts that decide which moves need a full self-kill test.
#[derive(Clone, Copy)]
pub(super) struct Guard {
    pub(super) royal: usize,
    pub(super) in_check: bool,
    /// Points whose change of occupancy could expose the own general.
    pub(super) sensitive: u128,
    /// In check, the lines of the checks: every checking piece's point, the points between
    /// it and the general (a line's screens among them) and a leap's blocking point. A move
    /// of another piece that neither leaves nor enters one of them leaves a check standing.
    pub(super) checks: u128,
}

impl Position {
    /// Every move the programs allow, before the self-kill test.
    pub(crate) fn pseudo_moves<S: Sink>(&self, rules: &Rules, out: &mut S) {
        let mut own = self.occ[self.side.index()];
        while own != 0 {
            let sq = own.trailing_zeros() as usize;
            own &= own - 1;
            self.piece_moves(rules, sq, out);
        }
    }

    /// The moves the program of the piece on `from` allows, before the
    /// self-kill test; none unless the piece belongs to the side to move.
    pub(crate) fn pseudo_moves_from<S: Sink>(&self, rules: &Rules, from: Square, out: &mut S) {
        let c = self.board[from.index()];
        if c == 0 || code_side(c) != self.side.index() {
            return;
        }
        self.piece_moves(rules, from.index(), out);
    }

    /// Whether `m`, one of the moves [`Position::pseudo_moves_from`] gives
    /// here, is legal: the same answer as [`Position::is_legal`] without
    /// generating the piece's moves again.
    pub(crate) fn is_legal_pseudo(&self, rules: &Rules, m: Move) -> bool {
        let mut pos = self.clone();
        pos.try_make(rules, m).is_ok()
    }

    /// The moves the program of the piece on `sq` (of the side to move) allows.
    #[inline]
    pub(super) fn piece_moves<S: Sink>(&self, rules: &Rules, sq: usize, out: &mut S) {
        let s = self.side;
        let si = s.index();
        let b = &self.board;
        let kind = code_kind(b[sq]) as KindId;
        out.piece(kind as usize);
        let all = out.keeps_from(sq);
        if all || out.may_keep(rules.leap_targets(s, kind, sq)) {
            for l in rules.leaps_of(s, kind, sq) {
                if l.block != NO_BLOCK && b[l.block as usize] != 0 {
                    continue;
                }
                let t = b[l.to as usize];
                if t == 0 {
                    if l.modes & QUIET != 0 && out.quiet() {
                        out.one(sq, l.to as usize);
                    }
                } else if code_side(t) != si && l.modes & CAPTURE != 0 {
                    out.one(sq, l.to as usize);
                }
            }
        }
        if rules.has_rays[si][kind as usize] {
            let rays = rules.rays_of(s, kind, sq);
            for (d, ray) in rays.iter().enumerate() {
                if !ray.is_empty() && (all || out.may_keep(rules.ray_mask[sq][d])) {
                    self.line_moves(rules, sq, d, ray, out);
                }
            }
        }
    }

    #[inline]
    pub(super) fn line_moves<S: Sink>(
        &self,
        rules: &Rules,
        sq: usize,
        d: usize,
        ray: &Ray,
        out: &mut S,
    ) {
        let si = self.side.index();
        let mask = rules.masks[ray.to_mask as usize];
        let edge = self.edge_distance(sq, d);
        let mut scan = self.scan(sq, d);
        let first = scan.next();
        if ray.slide != 0 {
            let reach = first.map_or(edge, |f| f - 1).min(ray.max as u32);
            if ray.slide & QUIET != 0 && out.quiet() {
                Self::quiet_run(sq, d, 1, reach, ray.to_mask, mask, out);
            }
            if ray.slide & CAPTURE != 0 {
                if let Some(f) = first.filter(|&f| f <= ray.max as u32) {
                    self.capture_at(sq, d, f, si, mask, out);
                }
            }
        }
        if ray.hop != 0 {
            // The screens-th piece met is the last screen; the next one is the target.
            let mut last_screen = first;
            for _ in 1..ray.screens {
                last_screen = last_screen.and_then(|_| scan.next());
            }
            let Some(ls) = last_screen else { return };
            let target = scan.next();
            if ray.hop & QUIET != 0 && out.quiet() {
                Self::quiet_run(
                    sq,
                    d,
                    ls + 1,
                    target.map_or(edge, |t| t - 1),
                    ray.to_mask,
                    mask,
                    out,
                );
            }
            if ray.hop & CAPTURE != 0 {
                if let Some(tg) = target {
                    self.capture_at(sq, d, tg, si, mask, out);
                }
            }
        }
    }

    /// Quiet moves to distances `first..=last` along a line, within the `to` region.
    #[inline(always)]
    pub(super) fn quiet_run<S: Sink>(
        sq: usize,
        d: usize,
        first: u32,
        last: u32,
        mask_id: u8,
        mask: u128,
        out: &mut S,
    ) {
        if mask_id == 0 {
            out.run(sq, d, first, last);
        } else {
            for dist in first..=last {
                let t = Self::along(sq, d, dist);
                if mask >> t & 1 != 0 {
                    out.one(sq, t);
                }
            }
        }
    }

    /// A capture of the piece at distance `dist` along a line, if it is the opponent's and
    /// its point is within the `to` region.
    #[inline]
    pub(super) fn capture_at<S: Sink>(
        &self,
        sq: usize,
        d: usize,
        dist: u32,
        si: usize,
        mask: u128,
        out: &mut S,
    ) {
        let t = Self::along(sq, d, dist);
        if code_side(self.board[t]) != si && mask >> t & 1 != 0 {
            out.one(sq, t);
        }
    }

    #[inline]
    pub(super) fn edge_distance(&self, sq: usize, d: usize) -> u32 {
        let (f, r) = ((sq % FILES as usize) as u32, (sq / FILES as usize) as u32);
        match d {
            0 => RANKS as u32 - 1 - r,
            1 => r,
            2 => FILES as u32 - 1 - f,
            _ => f,
        }
    }

    /// Per-node facts for the legality filter: whether the side to move is in check, and
    /// which points, if a move vacates or fills them, could expose its general.
    ///
    /// Along each line from the general, the first `max_screens + 2` pieces are examined.
    /// An opposing piece at index `j` matters if one vacated or filled point in front of it
    /// could bring it to an index where it captures: a slider (or the facing general) at
    /// index 0 or 1, a hopper of `s` screens at index `s - 1`, `s` or `s + 1`. Then every
    /// point between the general and that piece is sensitive. Leaps matter through their
    /// blocking points.
    #[inline]
    pub(super) fn guard(&self, rules: &Rules) -> Option<Guard> {
        self.guard_of(rules, self.side)
    }

    /// [`Position::guard`] for the general of `s`, whichever side is to move.
    #[inline]
    pub(super) fn guard_of(&self, rules: &Rules, s: Side) -> Option<Guard> {
        let e = s.opponent();
        let ei = e.index();
        let bb = self.kind_bb[s.index()][rules.royal as usize];
        if bb == 0 {
            return None;
        }
        let k = bb.trailing_zeros() as usize;
        let mut in_check = false;
        let mut sensitive = 0u128;
        let mut checks = 0u128;
        // No opposing piece on a leap's start: no leap attacks or is blocked.
        if self.occ[ei] & rules.reverse_from[side_point(e, k)] != 0 {
            for r in rules.reverse_of(e, k) {
                let p = self.board[r.from as usize];
                if p != 0 && code_side(p) == ei && r.kinds >> code_kind(p) & 1 != 0 {
                    if r.block == NO_BLOCK || self.board[r.block as usize] == 0 {
                        in_check = true;
                        checks |= 1u128 << r.from
                            | if r.block == NO_BLOCK {
                                0
                            } else {
                                1u128 << r.block
                            };
                    } else {
                        sensitive |= 1u128 << r.block;
                    }
                }
            }
        }
        let ms = rules.max_screens as usize;
        // The opposing pieces that attack along some line, or face: a line none of them
        // stands on is not scanned (on the others, a piece of a kind that does not attack
        // along that line changes nothing below but the count of pieces met).
        let mut kinds = rules.any_line_attackers[ei];
        if rules.forbid_facing && rules.facing.is_some() {
            kinds |= 1 << rules.royal;
        }
        let attackers = self.kinds_in::<false>(&After::NONE, ei, kinds);
        for d in 0..4 {
            if attackers & rules.ray_mask[k][d] == 0 {
                continue;
            }
            let od = opposite(d);
            let facing_here =
                rules.forbid_facing && matches!(rules.facing, Some((_, dirs)) if dirs[d]);
            for (j, dist) in self.scan(k, d).take(ms + 2).enumerate() {
                let sq = Self::along(k, d, dist);
                let p = self.board[sq];
                if code_side(p) != ei {
                    continue;
                }
                let kind = code_kind(p);
                let ray = &rules.rays_of(e, kind as KindId, sq)[od];
                let reaches = rules.masks[ray.to_mask as usize] >> k & 1 != 0;
                let slider = ray.slide & CAPTURE != 0 && reaches;
                let hopper = ray.hop & CAPTURE != 0 && reaches;
                let royal_facing = facing_here && kind == rules.royal as usize;
                if (j == 0 && ((slider && dist <= ray.max as u32) || royal_facing))
                    || (hopper && j == ray.screens as usize)
                {
                    in_check = true;
                    checks |= rules.ray_mask[k][d] & !rules.ray_mask[sq][d];
                }
                let matters = ((slider || royal_facing) && j <= 1)
                    || (hopper && j + 1 >= ray.screens as usize && j <= ray.screens as usize + 1);
                if matters {
                    sensitive |= rules.ray_mask[k][d] & !rules.ray_mask[sq][d] & !(1u128 << sq);
                }
            }
        }
        Some(Guard {
            royal: k,
            in_check,
            sensitive,
            checks,
        })
    }

    /// Whether playing the pseudo-legal move `m` keeps the mover out of self-kill.
    #[inline]
    pub(super) fn passes(&self, rules: &Rules, g: &Option<Guard>, m: Move) -> bool {
        let Some(g) = g else {
            // No general: nothing to protect.
            return true;
        };
        let (f, t) = (m.from.index(), m.to.index());
        let touched = (1u128 << f) | (1u128 << t);
        if f != g.royal {
            if !g.in_check && touched & g.sensitive == 0 {
                return true;
            }
            if g.in_check && touched & g.checks == 0 {
                return false;
            }
        }
        !self.self_kill_after(rules, m)
    }
}
