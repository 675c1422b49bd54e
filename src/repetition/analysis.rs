//! The VM predicates of the repetition rules: material values, the whole exchange on
//! captures, mate by consecutive checks, and what a side could win were the opponent to
//! pass. Every number (values, depths) comes from the compiled clauses.

use std::cmp::Ordering;
use std::ops::{Add, Neg, Sub};

use crate::board::{Move, Side, Square};
use crate::vm::{Position, Rules};

use super::RepetitionRules;

/// A material value: whole pieces first, floating pieces (过河兵) in a lower tier, so that
/// no number of floating pieces makes up for a piece (1999 25.3, 2020 1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Val {
    pub pieces: i32,
    pub floating: i32,
}

impl Val {
    pub const ZERO: Val = Val {
        pieces: 0,
        floating: 0,
    };
    pub fn is_positive(self) -> bool {
        self > Val::ZERO
    }
}

impl Ord for Val {
    fn cmp(&self, o: &Val) -> Ordering {
        self.pieces
            .cmp(&o.pieces)
            .then(self.floating.cmp(&o.floating))
    }
}
impl PartialOrd for Val {
    fn partial_cmp(&self, o: &Val) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Add for Val {
    type Output = Val;
    fn add(self, o: Val) -> Val {
        Val {
            pieces: self.pieces + o.pieces,
            floating: self.floating + o.floating,
        }
    }
}
impl Sub for Val {
    type Output = Val;
    fn sub(self, o: Val) -> Val {
        self + -o
    }
}
impl Neg for Val {
    type Output = Val;
    fn neg(self) -> Val {
        Val {
            pieces: -self.pieces,
            floating: -self.floating,
        }
    }
}

/// Why a target can be won (the kinds of chase the verdicts distinguish).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChaseKind {
    /// No legal recapture: 无根子 (a false root, 假根, is no legal recapture either).
    Unprotected,
    /// Protected, but worth more than the piece that takes it (捉车 with a horse).
    HigherValue,
    /// Protected, won because the attackers outnumber the defenders (联合捉, 少根).
    Joint,
}

impl ChaseKind {
    pub fn name(self) -> &'static str {
        match self {
            ChaseKind::Unprotected => "unprotected",
            ChaseKind::HigherValue => "higher_value",
            ChaseKind::Joint => "joint",
        }
    }
    pub fn parse(s: &str) -> Option<ChaseKind> {
        Some(match s {
            "unprotected" => ChaseKind::Unprotected,
            "higher_value" => ChaseKind::HigherValue,
            "joint" => ChaseKind::Joint,
            _ => return None,
        })
    }
}

/// An opposing piece the side to move could win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Win {
    /// Where the target stands (in the position analysed).
    pub target: Square,
    /// The piece that takes it first.
    pub attacker: Square,
    pub gain: Val,
    pub kind: ChaseKind,
    /// The check that comes first (连续照将), if the target is won only after it.
    pub after_check: Option<Move>,
    /// Won only by a kind `repetition.own_attack` exempts as first capturer.
    pub latent: bool,
}

/// The predicates, over one compiled rule set.
pub struct Analyst<'a> {
    pub vm: &'a Rules,
    pub rep: &'a RepetitionRules,
    /// Mate searches already made in this ruling: position → what is known of it.
    mates: std::cell::RefCell<std::collections::HashMap<Position, MateBounds>>,
}

/// What the searches made so far know of one position: a mate within `within` moves (none
/// known: `u8::MAX`), and no mate within `not_within` (none known: 0). A mate within `d`
/// is one within any greater depth, and no mate within `d` none within a smaller one.
#[derive(Clone, Copy)]
struct MateBounds {
    within: u8,
    not_within: u8,
}

/// Parameters of the material test, from the chase class.
#[derive(Clone, Copy, Debug)]
pub struct WinParams {
    pub via_checks: u8,
    pub exchange_depth: u8,
    pub safe_from_mate: u8,
    pub equal_mutual_excluded: bool,
    /// Bit set of the [`ChaseKind`]s that count (bit = kind as u8).
    pub kinds: u8,
    pub higher_value_always: bool,
    pub count_exposure: bool,
}

impl ChaseKind {
    pub const ALL: [ChaseKind; 3] = [
        ChaseKind::Unprotected,
        ChaseKind::HigherValue,
        ChaseKind::Joint,
    ];
    pub fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl<'a> Analyst<'a> {
    pub fn new(vm: &'a Rules, rep: &'a RepetitionRules) -> Analyst<'a> {
        Analyst { vm, rep, mates: Default::default() }
    }

    /// Value of the piece on `sq` (zero when empty or not material).
    pub fn value(&self, pos: &Position, sq: Square) -> Val {
        self.material(pos, sq).unwrap_or_default()
    }

    /// Value of the piece on `sq` if it is material (子力).
    pub fn material(&self, pos: &Position, sq: Square) -> Option<Val> {
        let p = pos.piece_at(sq)?;
        self.rep.value(p.side, p.kind, sq)
    }

    /// The legal captures of the side to move.
    pub fn captures(&self, pos: &Position) -> Vec<Move> {
        pos.legal_moves(self.vm)
            .into_iter()
            .filter(|m| pos.piece_at(m.to).is_some())
            .collect()
    }

    /// The legal captures of the side to move onto `sq`.
    pub fn captures_onto(&self, pos: &Position, sq: Square) -> Vec<Move> {
        // Most exchanges end where nothing attacks the point: no move generation then.
        if !pos.is_attacked(self.vm, sq, pos.side_to_move()) {
            return Vec::new();
        }
        pos.legal_moves_to(self.vm, sq)
    }

    /// The best the side to move can gain by taking back on `sq` (the whole exchange on
    /// that point, 26.5), never below zero (it may stop), searching `depth` plies.
    pub fn exchange(&self, pos: &Position, sq: Square, depth: u8) -> Val {
        if depth == 0 {
            return Val::ZERO;
        }
        let mut best = Val::ZERO;
        for m in self.captures_onto(pos, sq) {
            let g = self.capture_gain(pos, m, depth);
            if g > best {
                best = g;
            }
        }
        best
    }

    /// The best gain of the side to move on every point (zero where it gains nothing).
    pub fn gains_by_point(&self, pos: &Position, depth: u8) -> Vec<Val> {
        let mut out = vec![Val::ZERO; crate::board::SQUARES];
        for m in self.captures(pos) {
            let g = self.capture_gain(pos, m, depth);
            if g > out[m.to.index()] {
                out[m.to.index()] = g;
            }
        }
        out
    }

    /// What the side to move gains by the capture `m` and the exchange on its point after it.
    pub fn capture_gain(&self, pos: &Position, m: Move, depth: u8) -> Val {
        let taken = self.value(pos, m.to);
        let mut next = pos.clone();
        next.make(self.vm, m);
        taken - self.exchange(&next, m.to, depth.saturating_sub(1))
    }

    /// Whether the side to move mates by consecutive checks within `depth` of its moves.
    pub fn mates_by_checks(&self, pos: &Position, depth: u8) -> bool {
        if depth == 0 {
            return false;
        }
        if let Some(b) = self.mates.borrow().get(pos) {
            if b.within <= depth {
                return true;
            }
            if b.not_within >= depth {
                return false;
            }
        }
        let found = self.search_mate(pos, depth);
        let mut memo = self.mates.borrow_mut();
        let b = memo.entry(pos.clone()).or_insert(MateBounds { within: u8::MAX, not_within: 0 });
        if found {
            b.within = b.within.min(depth);
        } else {
            b.not_within = b.not_within.max(depth);
        }
        found
    }

    fn search_mate(&self, pos: &Position, depth: u8) -> bool {
        for m in pos.checking_moves(self.vm) {
            let mut after = pos.clone();
            after.make(self.vm, m);
            if depth == 1 {
                // The last check: only whether it leaves a legal answer (a bulk count).
                if !after.has_legal_move(self.vm) {
                    return true;
                }
                continue;
            }
            let mut replies = after.legal_moves(self.vm);
            // Captures first, the dearest first: taking a checking piece is the likeliest
            // escape, and the first escape found ends the search of this check.
            replies.sort_by_key(|r| std::cmp::Reverse(self.value(&after, r.to)));
            if replies.is_empty()
                || replies.iter().all(|&r| {
                    let mut next = after.clone();
                    next.make(self.vm, r);
                    self.mates_by_checks(&next, depth - 1)
                })
            {
                return true;
            }
        }
        false
    }

    /// The opposing pieces the side to move could win, one entry per target (the best way).
    pub fn wins(&self, pos: &Position, p: WinParams) -> Vec<Win> {
        self.wins_on(pos, p, !0, false)
    }

    /// [`Analyst::wins`] restricted to targets on the points of `only` (a bitboard). With
    /// `sketch`, the two costly conditions (what the capture lays open elsewhere, and the
    /// mate after the capture) are left out: a superset, to be confirmed without it.
    fn wins_on(&self, pos: &Position, p: WinParams, only: u128, sketch: bool) -> Vec<Win> {
        let mut out: Vec<Win> = Vec::new();
        let keep = |w: Win, out: &mut Vec<Win>| match out.iter_mut().find(|x| x.target == w.target)
        {
            Some(x) => {
                // An open win beats a latent one; then the larger gain; then the simpler way.
                let better = (x.latent && !w.latent)
                    || (x.latent == w.latent
                        && (w.gain > x.gain
                            || (w.gain == x.gain
                                && w.after_check.is_none()
                                && x.after_check.is_some())));
                if better {
                    *x = w;
                }
            }
            None => out.push(w),
        };
        let mut exposed: Option<Vec<Val>> = None;
        // With few points asked about, only the captures onto them are generated.
        let captures = if only.count_ones() <= 4 {
            let mut ms = Vec::new();
            let mut bits = only;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(sq) = Square::from_index(i).filter(|&sq| pos.piece_at(sq).is_some()) {
                    ms.extend(self.captures_onto(pos, sq));
                }
            }
            ms
        } else {
            self.captures(pos).into_iter().filter(|m| only >> m.to.index() & 1 == 1).collect()
        };
        for m in captures {
            let Some(tv) = self.material(pos, m.to) else {
                continue;
            };
            let Some(attacker) = pos.piece_at(m.from) else {
                continue;
            };
            let av = self.value(pos, m.from);
            let outright = p.higher_value_always && tv > av;
            let on_square = self.capture_gain(pos, m, p.exchange_depth);
            if !on_square.is_positive() && !outright {
                continue;
            }
            let mut after = pos.clone();
            after.make(self.vm, m);
            if p.equal_mutual_excluded && av == tv && self.can_take_back(pos, m) {
                continue;
            }
            let protected = !self.captures_onto(&after, m.to).is_empty();
            let kind = if !protected {
                ChaseKind::Unprotected
            } else if tv > av {
                ChaseKind::HigherValue
            } else {
                ChaseKind::Joint
            };
            if p.kinds & kind.bit() == 0 {
                continue;
            }
            // What the capture lays open elsewhere (the capturer was a root, or pinned):
            // the opponent's gains on other points beyond those it had anyway (26.5).
            let opened = if !p.count_exposure || sketch {
                Val::ZERO
            } else {
                let baseline = exposed.get_or_insert_with(|| {
                    self.gains_by_point(
                        &Analyst::with_mover(pos, pos.side_to_move().opponent()),
                        p.exchange_depth,
                    )
                });
                self.gains_by_point(&after, p.exchange_depth)
                    .iter()
                    .enumerate()
                    .filter(|&(sq, _)| sq != m.to.index())
                    .map(|(sq, &g)| g - baseline[sq])
                    .max()
                    .unwrap_or_default()
                    .max(Val::ZERO)
            };
            // 26.5: judged over the whole sequence, an even result is still a chase; only a
            // net loss (once what the capture lays open is counted) makes it none.
            let gain = if outright { tv - av } else { on_square - opened };
            if gain < Val::ZERO || (gain == Val::ZERO && opened == Val::ZERO) {
                continue;
            }
            if !sketch && p.safe_from_mate > 0 && self.mates_by_checks(&after, p.safe_from_mate) {
                continue;
            }
            let latent = self.rep.exempt_first_capturer(attacker.kind);
            keep(
                Win {
                    target: m.to,
                    attacker: m.from,
                    gain,
                    kind,
                    after_check: None,
                    latent,
                },
                &mut out,
            );
        }
        if p.via_checks > 0 {
            for w in self.wins_after_check(pos, p, sketch) {
                keep(w, &mut out);
            }
        }
        out
    }

    /// Targets won after a check, whatever the answer (连续照将). The targets common to every
    /// answer are first found with sketched wins, then confirmed in full.
    fn wins_after_check(&self, pos: &Position, p: WinParams, sketch: bool) -> Vec<Win> {
        let inner = WinParams { via_checks: p.via_checks - 1, ..p };
        let mut out = Vec::new();
        for c in pos.checking_moves(self.vm) {
            if pos.piece_at(c.to).is_some() {
                continue; // a capture with check is a capture, judged above
            }
            let mut after = pos.clone();
            after.make(self.vm, c);
            let replies = after.legal_moves(self.vm);
            if replies.is_empty() {
                continue; // a mate, not a win of material
            }
            let mut common = self.common_targets(pos, &after, &replies, inner, None, true);
            if !sketch && !common.is_empty() {
                common = self.common_targets(pos, &after, &replies, inner, Some(&common), false);
            }
            for mut w in common {
                w.after_check = Some(c);
                w.attacker = c.from;
                out.push(w);
            }
        }
        out
    }

    /// The targets (by their point in `pos`, before the check) won after every answer in
    /// `replies`, among `among` when given.
    fn common_targets(&self, pos: &Position, after: &Position, replies: &[Move], inner: WinParams, among: Option<&[Win]>, sketch: bool) -> Vec<Win> {
        let mut common: Option<Vec<Win>> = among.map(<[Win]>::to_vec);
        for &r in replies {
            let mut next = after.clone();
            next.make(self.vm, r);
            let only = match &common {
                None => !0u128,
                Some(c) => c.iter().fold(0u128, |m, w| m | 1u128 << if w.target == r.from { r.to.index() } else { w.target.index() }),
            };
            let won: Vec<Win> = self
                .wins_on(&next, inner, only, sketch)
                .into_iter()
                .filter(|w| !w.latent)
                .map(|mut w| {
                    if w.target == r.to && r.from != r.to {
                        w.target = r.from;
                    }
                    w
                })
                .filter(|w| pos.piece_at(w.target).is_some_and(|t| t.side != pos.side_to_move()))
                .collect();
            let next_common: Vec<Win> = match common {
                None => won,
                Some(prev) => prev.into_iter().filter(|w| won.iter().any(|x| x.target == w.target)).collect(),
            };
            if next_common.is_empty() {
                return next_common;
            }
            common = Some(next_common);
        }
        common.unwrap_or_default()
    }

    /// Whether, in the real position (the opponent to move), the target of the capture `m`
    /// could itself take the attacker.
    fn can_take_back(&self, pos: &Position, m: Move) -> bool {
        let mut real = pos.clone();
        real.set_side_to_move(pos.side_to_move().opponent());
        real.is_legal(self.vm, Move::new(m.to, m.from))
    }

    /// The position with `side` to move (a pass by the other side).
    pub fn with_mover(pos: &Position, side: Side) -> Position {
        let mut p = pos.clone();
        p.set_side_to_move(side);
        p
    }
}
