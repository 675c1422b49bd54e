//! Attacks, the facing rule, self-kill and check, asked of the board as it is or through an
//! [`After`] view (a move made without playing it): one code path (`attacked_in::<AFTER>`);
//! [`CheckFilter`], the moves that could give check.

use super::*;

/// Which moves of the side to move could give check, so that only those are played and
/// tested: a move that vacates or fills a point between the opposing general and a piece
/// that attacks it once that point changes (the points [`Position::guard`] finds for that
/// general), or that brings a piece to a point from which its kind could attack the general
/// (its leaps' starts and the general's lines). A position whose opposing general is
/// already attacked, or that has none, falls back to the general's whole check zone.
pub(super) struct CheckFilter {
    /// Points a move may leave or enter to give check by uncovering or screening.
    pub(super) sensitive: u128,
    /// Per kind: points the moved piece may arrive on to give check itself (with
    /// `sensitive`, where a checking move of that kind may end: the generator's filter).
    pub(super) direct: [u128; MAX_KINDS],
}

impl CheckFilter {
    pub(super) const NONE: CheckFilter = CheckFilter {
        sensitive: 0,
        direct: [0; MAX_KINDS],
    };

    pub(super) fn new(pos: &Position, rules: &Rules) -> CheckFilter {
        let mover = pos.side;
        let their = mover.opponent();
        let royal = pos.kind_bb[their.index()][rules.royal as usize];
        if royal == 0 {
            return CheckFilter::NONE;
        }
        let k = royal.trailing_zeros() as usize;
        let zone = rules.check_zone[side_point(mover, k)];
        let Some(g) = pos.guard_of(rules, their).filter(|g| !g.in_check) else {
            return CheckFilter {
                sensitive: zone,
                direct: [zone; MAX_KINDS],
            };
        };
        CheckFilter {
            sensitive: g.sensitive,
            direct: rules.check_arrival[side_point(mover, k)],
        }
    }

    /// Whether the pseudo-legal move `m` of `pos` gives check.
    #[inline]
    pub(super) fn gives(&self, pos: &Position, rules: &Rules, m: Move) -> bool {
        self.may_give(pos, m) && pos.gives_check_after(rules, m)
    }

    /// Whether the pseudo-legal move `m` of `pos` may give check (if not, it does not).
    #[inline]
    pub(super) fn may_give(&self, pos: &Position, m: Move) -> bool {
        let (f, t) = (m.from.index(), m.to.index());
        ((1u128 << f) | (1u128 << t)) & self.sensitive != 0
            || self.direct[code_kind(pos.board[f])] >> t & 1 != 0
    }
}

/// A move looked at without playing it: the board as it would stand once the piece on
/// `from` has gone to `to`, taking what stood there. `NONE` is the board as it is.
#[derive(Clone, Copy)]
pub(super) struct After {
    pub(super) from: usize,
    pub(super) to: usize,
    /// The moving piece's code.
    pub(super) moved: u8,
}

impl After {
    /// No move (points off the board, never met).
    pub(super) const NONE: After = After {
        from: SQUARES,
        to: SQUARES,
        moved: 0,
    };

    #[inline(always)]
    pub(super) fn of(pos: &Position, m: Move) -> After {
        let from = m.from.index();
        After {
            from,
            to: m.to.index(),
            moved: pos.board[from],
        }
    }
}

/// The pieces met along a line from a point, nearest first, as distances.
#[derive(Clone, Copy)]
pub(super) struct LineScan {
    pub(super) bits: u32,
    pub(super) positive: bool,
    pub(super) pos: u32,
}

impl Iterator for LineScan {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.bits == 0 {
            return None;
        }
        if self.positive {
            let t = self.bits.trailing_zeros();
            self.bits &= self.bits - 1;
            Some(t + 1)
        } else {
            let h = 31 - self.bits.leading_zeros();
            self.bits ^= 1 << h;
            Some(self.pos - h)
        }
    }
}

impl Position {
    /// The pieces along absolute direction `d` from point `sq`, nearest first, as distances.
    #[inline]
    pub(super) fn scan(&self, sq: usize, d: usize) -> LineScan {
        self.scan_in::<false>(&After::NONE, sq, d)
    }

    /// [`Position::scan`] on the board as it is or after the move `a`.
    #[inline(always)]
    pub(super) fn scan_in<const AFTER: bool>(&self, a: &After, sq: usize, d: usize) -> LineScan {
        // A point's line (its file, or its rank) and its place along that line.
        let along_file = d < 2;
        let split = |p: usize| {
            if along_file {
                (p % FILES as usize, p / FILES as usize)
            } else {
                (p / FILES as usize, p % FILES as usize)
            }
        };
        let (line, place) = split(sq);
        let mut bits = u32::from(if along_file {
            self.file_occ[line]
        } else {
            self.rank_occ[line]
        });
        if AFTER {
            let (from_line, from_place) = split(a.from);
            if from_line == line {
                bits &= !(1 << from_place);
            }
            let (to_line, to_place) = split(a.to);
            if to_line == line {
                bits |= 1 << to_place;
            }
        }
        let place = place as u32;
        if d.is_multiple_of(2) {
            LineScan {
                bits: bits >> (place + 1),
                positive: true,
                pos: place,
            }
        } else {
            LineScan {
                bits: bits & ((1 << place) - 1),
                positive: false,
                pos: place,
            }
        }
    }

    #[inline]
    pub(super) fn along(sq: usize, d: usize, dist: u32) -> usize {
        (sq as isize + STEP[d] * dist as isize) as usize
    }

    /// Whether a piece of `by` has a capture onto `sq` under the move programs.
    pub(crate) fn is_attacked(&self, rules: &Rules, sq: Square, by: Side) -> bool {
        self.attacked(rules, sq.index(), by)
    }

    #[inline]
    pub(super) fn attacked(&self, rules: &Rules, sq: usize, by: Side) -> bool {
        self.attacked_in::<false>(rules, sq, by, &After::NONE)
    }

    /// [`Position::attacked`] on the board as it is (`AFTER` false) or as it would be after
    /// the move `a` (`AFTER` true), which is not played.
    #[inline(always)]
    pub(super) fn attacked_in<const AFTER: bool>(
        &self,
        rules: &Rules,
        sq: usize,
        by: Side,
        a: &After,
    ) -> bool {
        let bi = by.index();
        if self.occ_in::<AFTER>(a, bi) & rules.reverse_from[side_point(by, sq)] != 0 {
            for r in rules.reverse_of(by, sq) {
                let p = self.at::<AFTER>(a, r.from as usize);
                if p != 0
                    && code_side(p) == bi
                    && r.kinds >> code_kind(p) & 1 != 0
                    && (r.block == NO_BLOCK || self.at::<AFTER>(a, r.block as usize) == 0)
                {
                    return true;
                }
            }
        }
        let attackers = self.kinds_in::<AFTER>(a, bi, rules.any_line_attackers[bi]);
        if attackers & rules.lines_through[sq] == 0 {
            return false;
        }
        for d in 0..4 {
            let od = opposite(d);
            if rules.line_attackers[bi][od] == 0 || attackers & rules.ray_mask[sq][d] == 0 {
                continue;
            }
            for (i, dist) in self
                .scan_in::<AFTER>(a, sq, d)
                .take(rules.max_screens as usize + 1)
                .enumerate()
            {
                let s = Self::along(sq, d, dist);
                let p = self.at::<AFTER>(a, s);
                if code_side(p) != bi {
                    continue;
                }
                let ray = &rules.rays_of(by, code_kind(p) as KindId, s)[od];
                if rules.masks[ray.to_mask as usize] >> sq & 1 == 0 {
                    continue;
                }
                if i == 0 {
                    if ray.slide & CAPTURE != 0 && dist <= ray.max as u32 {
                        return true;
                    }
                } else if ray.hop & CAPTURE != 0 && ray.screens as usize == i {
                    return true;
                }
            }
        }
        false
    }

    /// The piece on `x`, on the board as it is or after the move `a`.
    #[inline(always)]
    pub(super) fn at<const AFTER: bool>(&self, a: &After, x: usize) -> u8 {
        if AFTER {
            if x == a.from {
                return 0;
            }
            if x == a.to {
                return a.moved;
            }
        }
        self.board[x]
    }

    /// The points of side `si`, on the board as it is or after the move `a`.
    #[inline(always)]
    pub(super) fn occ_in<const AFTER: bool>(&self, a: &After, si: usize) -> u128 {
        let mut o = self.occ[si];
        if AFTER {
            if code_side(a.moved) == si {
                o ^= 1u128 << a.from | 1u128 << a.to;
            } else {
                o &= !(1u128 << a.to);
            }
        }
        o
    }

    /// The points of side `si`'s pieces of the kinds in the set `kinds`, on the board as it
    /// is or after the move `a`.
    #[inline(always)]
    pub(super) fn kinds_in<const AFTER: bool>(&self, a: &After, si: usize, mut kinds: u8) -> u128 {
        let set = kinds;
        let mut o = 0u128;
        while kinds != 0 {
            o |= self.kind_bb[si][kinds.trailing_zeros() as usize];
            kinds &= kinds - 1;
        }
        if AFTER {
            if code_side(a.moved) == si {
                if set >> code_kind(a.moved) & 1 != 0 {
                    o ^= 1u128 << a.from | 1u128 << a.to;
                }
            } else {
                o &= !(1u128 << a.to);
            }
        }
        o
    }

    /// Whether the general on `sq` sees the other general along a facing line.
    #[inline]
    pub(super) fn facing(&self, rules: &Rules, sq: usize) -> bool {
        self.facing_in::<false>(rules, sq, &After::NONE)
    }

    /// [`Position::facing`] on the board as it is or after the move `a`.
    #[inline(always)]
    pub(super) fn facing_in<const AFTER: bool>(&self, rules: &Rules, sq: usize, a: &After) -> bool {
        let Some((kind, dirs)) = rules.facing else {
            return false;
        };
        let own = code_side(self.at::<AFTER>(a, sq));
        for (d, &on) in dirs.iter().enumerate() {
            if on {
                if let Some(dist) = self.scan_in::<AFTER>(a, sq, d).next() {
                    let p = self.at::<AFTER>(a, Self::along(sq, d, dist));
                    if code_kind(p) == kind as usize && code_side(p) != own {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the move `m` of the side to move, a pseudo-legal one, would leave it in
    /// self-kill (its general attacked, or the generals facing): the test of
    /// [`Position::is_self_kill_for`] on the board after `m`, without playing it.
    #[inline]
    pub(super) fn self_kill_after(&self, rules: &Rules, m: Move) -> bool {
        let side = self.side;
        let royal = self.kind_bb[side.index()][rules.royal as usize];
        if royal == 0 {
            return false;
        }
        let a = After::of(self, m);
        let k = if royal >> a.from & 1 != 0 {
            a.to
        } else {
            royal.trailing_zeros() as usize
        };
        self.self_kill_in::<true>(rules, k, side, &a)
    }

    /// Whether the general of `side` on `k` is attacked or faces the other general, where
    /// the edition forbids it: on the board as it is or after the move `a`.
    #[inline(always)]
    pub(super) fn self_kill_in<const AFTER: bool>(
        &self,
        rules: &Rules,
        k: usize,
        side: Side,
        a: &After,
    ) -> bool {
        (rules.forbid_attacked && self.attacked_in::<AFTER>(rules, k, side.opponent(), a))
            || (rules.forbid_facing && self.facing_in::<AFTER>(rules, k, a))
    }

    /// Whether the move `m` of the side to move, a pseudo-legal one, would give check,
    /// without playing it.
    #[inline]
    pub(super) fn gives_check_after(&self, rules: &Rules, m: Move) -> bool {
        let their = self.side.opponent();
        let royal = self.kind_bb[their.index()][rules.royal as usize];
        if royal == 0 || royal >> m.to.index() & 1 != 0 {
            return false;
        }
        self.attacked_in::<true>(
            rules,
            royal.trailing_zeros() as usize,
            self.side,
            &After::of(self, m),
        )
    }

    /// Whether the position breaks a self-kill condition for `side` (the side that just
    /// moved): its general attacked, or the generals facing.
    pub fn is_self_kill_for(&self, rules: &Rules, side: Side) -> bool {
        let bb = self.kind_bb[side.index()][rules.royal as usize];
        if bb == 0 {
            return false;
        }
        self.self_kill_in::<false>(rules, bb.trailing_zeros() as usize, side, &After::NONE)
    }

    /// Which self-kill conditions of `check.self_kill` the position breaks for `side` (the
    /// side that just moved): `(own general attacked, generals facing)`, each only where
    /// the edition forbids it. The arbiter's rules tell the two apart (1999 4.1.2); legality
    /// uses the short-circuiting [`Position::is_self_kill_for`].
    pub(crate) fn self_kill_conditions(&self, rules: &Rules, side: Side) -> (bool, bool) {
        let Some(k) = self.royal_point(rules, side).map(Square::index) else {
            return (false, false);
        };
        (
            rules.forbid_attacked && self.attacked(rules, k, side.opponent()),
            rules.forbid_facing && self.facing(rules, k),
        )
    }

    /// Whether the side to move is in check (将).
    pub fn in_check(&self, rules: &Rules) -> bool {
        match self.royal_point(rules, self.side) {
            Some(k) => self.attacked(rules, k.index(), self.side.opponent()),
            None => false,
        }
    }
}
