//! A ruling: find the cycle in the moves played, class every move of it, name each side's
//! pattern, apply the verdict table.
//!
//! The cycle is the last repetition, else a shuffle (which moves form the judged cycle is
//! `repetition.cycle.judged`); pieces are followed through the line (the
//! same target); then come the cycle-level special cases, the patterns and the verdict table.
//! The `ruling` query's answer (the line read through `line::line`) carries its basis:
//! `judged` rules the cycle under every variant (an inferred reading switched off) with an
//! `Analyst` that shares the searches' memos (`Analyst::sharing`: mates depend on the movement
//! rules only, forcing lines and the exchanges on one point on position and
//! bounds, none on a reading), and names in `rests_on` the readings whose variant changes the
//! verdict. A variant that switches off only parts of the rules that record where they steer
//! a move (`readings::Part`) judges again only the moves they steered.

use serde::Serialize;
use serde_json::Value;

use crate::board::{Move, Side, Square, SQUARES};
use crate::line::LineError;
use crate::spec::Both;
use crate::vm::{Position, Rules};

use super::analysis::{Analyst, ChaseKind};
use super::classify::PlyFacts;
use super::data::{Family, PatternStatus};
use super::readings::Basis;
use super::{RepetitionRules, RuleRef, VerdictKind, VerdictRule};

shapes! {
    /// The `ruling` query: a position and the moves played from it.
    #[derive(PartialEq, Eq, Serialize)]
    pub struct RulingQuery {
        /// The position, in FEN (or `startpos`).
        pub fen: String,
        /// The moves played from it, in canonical ICCS; the cycle is sought at their end.
        pub moves: Vec<String>,
    }

    /// The verdict of a ruling (in data and on the wire: `draw`, `red_must_change` …).
    #[derive(Copy, PartialEq, Eq)]
    #[serde(rename_all = "snake_case")]
    pub enum Verdict {
        /// A draw (和棋).
        Draw,
        /// Red must change its moves (变着).
        RedMustChange,
        /// Black must change its moves.
        BlackMustChange,
        /// Red loses (判负).
        RedLoses,
        /// Black loses.
        BlackLoses,
        /// The moves neither repeat a position nor form a repeating pattern.
        None,
    }
}

impl Verdict {
    /// The verdict as the data and the protocol write it (`red_must_change` …).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Draw => "draw",
            Verdict::RedMustChange => "red_must_change",
            Verdict::BlackMustChange => "black_must_change",
            Verdict::RedLoses => "red_loses",
            Verdict::BlackLoses => "black_loses",
            Verdict::None => "none",
        }
    }

    /// Every verdict, in declaration order.
    pub const ALL: [Verdict; 6] = [
        Verdict::Draw,
        Verdict::RedMustChange,
        Verdict::BlackMustChange,
        Verdict::RedLoses,
        Verdict::BlackLoses,
        Verdict::None,
    ];

    /// Reads a verdict written by [`Verdict::name`].
    pub fn parse(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.name() == s)
    }

    fn against(side: Side, kind: VerdictKind) -> Verdict {
        match (kind, side) {
            (VerdictKind::Draw, _) => Verdict::Draw,
            (VerdictKind::MustChange, Side::Red) => Verdict::RedMustChange,
            (VerdictKind::MustChange, Side::Black) => Verdict::BlackMustChange,
            (VerdictKind::Loses, Side::Red) => Verdict::RedLoses,
            (VerdictKind::Loses, Side::Black) => Verdict::BlackLoses,
        }
    }
}

/// Why a ruling is refused: the FEN and moves do not make a line of play.
pub type RulingError = LineError;

/// One move of the judged cycle.
#[derive(Clone, Debug)]
pub struct PlyRuling {
    /// 1-based index of the move in the input.
    pub ply: usize,
    /// The facts the classes were judged on.
    pub facts: PlyFacts,
    /// Points of the pieces chased (or exchanged, offered, followed), as they stand after
    /// the move.
    pub targets: Vec<String>,
    /// How each chase target is won (unprotected, worth more than its taker, jointly).
    pub chases: Vec<ChaseKind>,
    /// What a diagram of the move draws, as the pieces stand after it: attacker and target
    /// of every chase counted, or the moved piece and each piece it meets (兑 献 跟).
    pub arrows: Vec<(Square, Square)>,
    /// The class and why, in words (`chase (捉): the chariot on a7 can take …`).
    pub reason: String,
    /// The same in Chinese (`捉：a7的车可吃c7的炮…`).
    pub reason_zh: String,
}

/// Each side's pattern.
#[derive(Clone, Debug)]
pub struct SidePattern {
    /// The pattern's name in the data (`perpetual_attack`).
    pub pattern: String,
    /// Forbidden or allowed.
    pub status: PatternStatus,
    /// The rulebook's name of the cycle (长捉, 一将一捉, 两闲 …).
    pub zh: String,
    /// The same in English (`perpetual chase`, `two idle`), where the data words it.
    pub en: Option<String>,
    /// The rulebook's name of the side (红方, 黑方), written before [`SidePattern::zh`].
    pub side_zh: String,
    /// The status as the rulebook writes it (禁止, 允许).
    pub status_zh: String,
}

impl SidePattern {
    /// The pattern object of the `ruling` answer.
    fn answer(&self) -> crate::answer::SidePattern {
        crate::answer::SidePattern {
            pattern: self.pattern.clone(),
            status: status_name(self.status).into(),
            zh: self.zh.clone(),
            side_zh: self.side_zh.clone(),
            status_zh: self.status_zh.clone(),
            en: self.en.clone(),
        }
    }
}

/// The full ruling.
#[derive(Clone, Debug)]
pub struct Ruling {
    /// The verdict.
    pub verdict: Verdict,
    /// `repetition` (a position came back), `shuffle` (a repeating pattern) or `none`.
    pub judged: &'static str,
    /// The plies judged (1-based, inclusive), when any.
    pub cycle: Option<(usize, usize)>,
    /// Every judged move, in order.
    pub plies: Vec<PlyRuling>,
    /// Red's then Black's pattern.
    pub patterns: Option<[SidePattern; 2]>,
    /// The clauses that decided, in the order used.
    pub clauses: Vec<RuleRef>,
    /// What the verdict rests on: the text, or our readings (`rests_on`).
    pub basis: Basis,
}

/// Rules on `moves` played from `fen`.
pub fn rule(vm: &Rules, rep: &RepetitionRules, q: &RulingQuery) -> Result<Ruling, RulingError> {
    let (positions, moves) = play_line(vm, q)?;
    Ok(rule_line(vm, rep, &positions, &moves))
}

/// Rules on a line already played: `positions` before every move and after the last (as
/// `line::line` gives them), `moves` the moves between. The arbiter calls it on the
/// positions since the last capture when one has come back as often as `repetition.cycle`
/// says.
pub fn rule_line(
    vm: &Rules,
    rep: &RepetitionRules,
    positions: &[Position],
    moves: &[Move],
) -> Ruling {
    judged(&Analyst::new(vm, rep), positions, moves, None)
}

/// The ruling with its basis: the cycle judged under the rules, then under each variant with
/// an inferred reading switched off (sharing the searches' memos); a variant whose verdict
/// differs names a reading the verdict rests on.
///
/// A variant that differs from the rules only in parts that record where they steer a
/// judgement ([`super::readings::Part`]) costs only what they change: where they steered
/// none of the cycle's judgement, its verdict is the rules'; otherwise it takes the rules'
/// classes of the moves they did not steer, and judges the others and the cycle again. Those
/// moves' searches are the rules' own (the memos are shared, the bounds the same), so the
/// classes are those it would find. Only its verdict is asked: no reasons are written.
fn judged(
    an: &Analyst,
    positions: &[Position],
    moves: &[Move],
    forced: Option<(usize, usize, &'static str)>,
) -> Ruling {
    let (mut r, classed) = judge(an, positions, moves, forced, As::Rules);
    if r.cycle.is_some() {
        let read = classed.read();
        r.basis.rests_on = an
            .rep
            .variants
            .iter()
            .filter(|v| {
                let verdict = match v.changes {
                    Some(parts) if read & parts == 0 => r.verdict,
                    changes => {
                        let reuse = changes.map(|parts| (&classed, parts));
                        let van = an.sharing(&v.rules);
                        judge(&van, positions, moves, forced, As::Variant(reuse))
                            .0
                            .verdict
                    }
                };
                verdict != r.verdict
            })
            .map(|v| v.name.clone())
            .collect();
    }
    r
}

/// Whom a cycle is judged for: the rules (the ruling in full, and what a variant may take
/// from it kept where the rules have variants), or a variant, for its verdict only (taking
/// the moves of the rules' judgement that none of the parts it switches off steered).
#[derive(Clone, Copy)]
enum As<'c> {
    Rules,
    Variant(Option<(&'c Classed, u8)>),
}

/// A cycle's moves as the rules classed them, before the cycle's special cases, each with
/// the parts of the rules that steered its classification (bits of
/// [`super::readings::Part`]); and those that steered the judgement of the whole cycle.
#[derive(Default)]
struct Classed {
    plies: Vec<(PlyFacts, u8)>,
    cycle: u8,
}

impl Classed {
    /// Every part that steered the judgement.
    fn read(&self) -> u8 {
        self.plies.iter().fold(self.cycle, |a, p| a | p.1)
    }
}

/// Classes every move of `moves` as if they formed one cycle (no pattern or verdict is
/// meaningful unless they do): `xqspec ruling --every-move`.
pub fn rule_every_move(
    vm: &Rules,
    rep: &RepetitionRules,
    q: &RulingQuery,
) -> Result<Ruling, RulingError> {
    let (positions, moves) = play_line(vm, q)?;
    let all = Some((0, moves.len(), "every_move"));
    Ok(judged(&Analyst::new(vm, rep), &positions, &moves, all))
}

/// The position before every move and after the last, and the moves: canonical ICCS only
/// (`h2e2`), each legal where it is played, as in every query.
fn play_line(vm: &Rules, q: &RulingQuery) -> Result<(Vec<Position>, Vec<Move>), RulingError> {
    let line = crate::line::line(vm, &q.fen, &q.moves)?;
    Ok((line.positions, line.moves))
}

/// The last repetition of a line's positions: `(i, k)` with `positions[i]` the same as
/// `positions[k]` (pieces and side to move), `k` the latest position that repeats an earlier
/// one and `i` the nearest earlier one (the shortest cycle: the moves `i..k`).
pub fn last_repetition(positions: &[Position]) -> Option<(usize, usize)> {
    repetition_judged(positions, super::data::Judged::Shortest)
}

/// The last repetition, `k` the latest position that repeats an earlier one, `i` the earlier
/// one `judged` names: the nearest (`shortest`, one cycle) or the first (`since_first`).
fn repetition_judged(
    positions: &[Position],
    judged: super::data::Judged,
) -> Option<(usize, usize)> {
    (1..positions.len()).rev().find_map(|k| {
        let mut earlier = (0..k).filter(|&i| positions[i].same_placement(&positions[k]));
        match judged {
            super::data::Judged::Shortest => earlier.next_back(),
            super::data::Judged::SinceFirst => earlier.next(),
        }
        .map(|i| (i, k))
    })
}

/// The plies to judge: the last repetition (ending at the latest repeated position, from the
/// position it came back to last, or from where it first stood: `repetition.cycle`'s
/// `judged`), else a shuffle, else nothing.
fn find_cycle(
    rep: &RepetitionRules,
    positions: &[Position],
    moves: &[Move],
) -> Option<(usize, usize, &'static str)> {
    if let Some((i, k)) = repetition_judged(positions, rep.judged) {
        return Some((i, k, "repetition"));
    }
    let min = rep.shuffle_min?;
    // One and the same piece of each side moves every time.
    let mut first_of: [Option<usize>; 2] = [None, None];
    let mut count = [0u32; 2];
    let mut at: [Option<Square>; 2] = [None, None];
    for (i, m) in moves.iter().enumerate() {
        let s = positions[i].side_to_move().index();
        match at[s] {
            Some(sq) if sq != m.from => return None,
            _ => {}
        }
        first_of[s].get_or_insert(i);
        at[s] = Some(m.to);
        count[s] += 1;
    }
    (count[0] >= min && count[1] >= min).then_some((0, moves.len(), "shuffle"))
}

/// The ruling of the cycle (for a variant, without reasons), and the moves as classed where
/// the rules judge it and have variants.
fn judge(
    an: &Analyst,
    positions: &[Position],
    moves: &[Move],
    forced: Option<(usize, usize, &'static str)>,
    whom: As,
) -> (Ruling, Classed) {
    let rep = an.rep;
    let Some((i, k, judged)) = forced.or_else(|| find_cycle(rep, positions, moves)) else {
        return (no_cycle(rep), Classed::default());
    };
    let ids = piece_identities(positions, moves);
    let reuse = match whom {
        As::Rules => None,
        As::Variant(reuse) => reuse,
    };
    let (mut plies, read) = class_plies(an, positions, moves, (i, k), judged, reuse);
    let mut classed = Classed::default();
    if matches!(whom, As::Rules) && !rep.variants.is_empty() {
        classed.plies = plies.iter().map(|p| p.facts.clone()).zip(read).collect();
    }
    an.consulted();
    apply_cycle_exceptions(an, positions, &mut plies, &ids);
    for pl in &mut plies {
        match whom {
            As::Rules => describe(an, &positions[pl.ply - 1], pl),
            As::Variant(_) => {
                targets(an, pl);
            }
        }
    }
    let patterns = side_patterns(rep, &plies, &ids);
    let mut clauses = cycle_clauses(rep, &plies, judged);
    let mut verdict = Verdict::None;
    for v in &rep.verdicts {
        if let Some(found) = apply(v, &patterns, &plies) {
            verdict = found;
            clauses.push(v.rule.clone());
            break;
        }
    }
    classed.cycle = an.consulted();
    let r = Ruling {
        verdict,
        judged,
        cycle: Some((i + 1, k)),
        plies,
        patterns: Some(patterns),
        clauses,
        basis: Basis::default(),
    };
    (r, classed)
}

/// The ruling where the moves form no cycle: no verdict, on the patterns' and the cycle's
/// clauses.
fn no_cycle(rep: &RepetitionRules) -> Ruling {
    let mut clauses = vec![rep.patterns_rule.clone()];
    clauses.extend(rep.cycle_rule.clone());
    Ruling {
        verdict: Verdict::None,
        judged: "none",
        cycle: None,
        plies: Vec::new(),
        patterns: None,
        clauses,
        basis: Basis::default(),
    }
}

/// Identity of every piece through the line, position by position, to tell one target
/// from another (`u16::MAX` on an empty point).
fn piece_identities(positions: &[Position], moves: &[Move]) -> Vec<[u16; SQUARES]> {
    let mut ids: Vec<[u16; SQUARES]> = Vec::with_capacity(positions.len());
    let mut board = [u16::MAX; SQUARES];
    for (n, (sq, _)) in positions[0].pieces().enumerate() {
        board[sq.index()] = n as u16;
    }
    ids.push(board);
    for m in moves {
        board[m.to.index()] = board[m.from.index()];
        board[m.from.index()] = u16::MAX;
        ids.push(board);
    }
    ids
}

/// Each ply of the judged cycle (`plies` i..k) classed by its move, knowing the move before
/// (for the first move of a repetition, the cycle's last: the position is the same), with
/// the parts of the rules that steered its classification. With `reuse` (the rules' classes
/// and the parts a variant switches off), a ply none of them steered keeps its class.
fn class_plies(
    an: &Analyst,
    positions: &[Position],
    moves: &[Move],
    (i, k): (usize, usize),
    judged: &str,
    reuse: Option<(&Classed, u8)>,
) -> (Vec<PlyRuling>, Vec<u8>) {
    let mut plies: Vec<PlyRuling> = Vec::new();
    let mut read = Vec::new();
    for p in i..k {
        let kept = reuse
            .and_then(|(c, parts)| c.plies.get(p - i).filter(|(_, r)| r & parts == 0))
            .map(|(f, r)| (f.clone(), *r));
        let prev = if p == i {
            Some(k - 1)
                .filter(|_| judged == "repetition" && k > 0)
                .or_else(|| p.checked_sub(1))
        } else {
            Some(p - 1)
        };
        let (facts, r) = kept.unwrap_or_else(|| {
            an.start_ply(k - i);
            an.consulted();
            let facts = an.classify(
                &positions[p],
                moves[p],
                prev.map(|q| (&positions[q], moves[q])),
            );
            (facts, an.consulted())
        });
        read.push(r);
        plies.push(PlyRuling {
            ply: p + 1,
            facts,
            targets: Vec::new(),
            chases: Vec::new(),
            arrows: Vec::new(),
            reason: String::new(),
            reason_zh: String::new(),
        });
    }
    (plies, read)
}

/// The special cases that need the whole cycle (the other side's pattern, the answer to a
/// move): each ply whose conditions hold is counted as the class the case says.
fn apply_cycle_exceptions(
    an: &Analyst,
    positions: &[Position],
    plies: &mut [PlyRuling],
    ids: &[[u16; SQUARES]],
) {
    let rep = an.rep;
    let cycle_exceptions: Vec<&super::Exception> =
        rep.exceptions.iter().filter(|x| x.needs_cycle()).collect();
    if cycle_exceptions.is_empty() {
        return;
    }
    let first = side_patterns(rep, plies, ids);
    let n = plies.len();
    let mut changes = Vec::new();
    for (j, pl) in plies.iter().enumerate() {
        let next = &plies[(j + 1) % n];
        for x in &cycle_exceptions {
            let opp_forbidden =
                first[pl.facts.side.opponent().index()].status == PatternStatus::Forbidden;
            let ok = x.opponent_forbidden.is_none_or(|v| v == opp_forbidden)
                && x.answered_by_non_general
                    .is_none_or(|v| v == (next.facts.mover != rep.general))
                && x.answer_idle
                    .is_none_or(|v| v == (rep.classes[next.facts.class].family == Family::Idle))
                && {
                    let mut after = positions[pl.ply - 1].clone();
                    after.make(an.vm, pl.facts.mv);
                    an.holds(x, &pl.facts, &after)
                };
            if ok {
                changes.push((j, x.becomes, x.rule.clone()));
            }
        }
    }
    for (j, c, r) in changes {
        plies[j].facts.class = c;
        plies[j].facts.exceptions.push(r);
    }
}

/// The clauses a ruling of a cycle rests on, before its verdict's: each ply's class and
/// special cases, the material and forcing rules where a ply chases, the order and the
/// patterns, and the cycle's rule for a shuffle.
fn cycle_clauses(rep: &RepetitionRules, plies: &[PlyRuling], judged: &str) -> Vec<RuleRef> {
    let mut clauses: Vec<RuleRef> = Vec::new();
    for pl in plies {
        let c = &rep.classes[pl.facts.class];
        if !clauses.contains(&c.rule) {
            clauses.push(c.rule.clone());
        }
        for r in &pl.facts.exceptions {
            if !clauses.contains(r) {
                clauses.push(r.clone());
            }
        }
    }
    if plies.iter().any(|p| !p.chases.is_empty()) {
        clauses.push(rep.material_rule.clone());
        clauses.push(rep.forcing_rule.clone());
    }
    clauses.push(rep.order_rule.clone());
    clauses.push(rep.patterns_rule.clone());
    if judged == "shuffle" {
        clauses.extend(rep.cycle_rule.clone());
    }
    clauses
}

/// Each side's pattern over the plies.
fn side_patterns(
    rep: &RepetitionRules,
    plies: &[PlyRuling],
    ids: &[[u16; SQUARES]],
) -> [SidePattern; 2] {
    let one = |side: Side| -> SidePattern {
        let mine: Vec<&PlyRuling> = plies.iter().filter(|p| p.facts.side == side).collect();
        let classes: Vec<usize> = mine.iter().map(|p| p.facts.class).collect();
        let same_target = {
            let sets: Vec<Vec<u16>> = mine
                .iter()
                .map(|p| {
                    p.facts
                        .wins
                        .iter()
                        .map(|w| ids[p.ply][w.target.index()])
                        .collect()
                })
                .collect();
            sets.first()
                .is_some_and(|f| f.iter().any(|t| sets.iter().all(|s| s.contains(t))))
        };
        let p = rep
            .patterns
            .iter()
            .find(|p| {
                !mine.is_empty()
                    && p.every
                        .as_ref()
                        .is_none_or(|e| classes.iter().all(|c| e.contains(c)))
                    && p.every_family
                        .is_none_or(|f| classes.iter().all(|&c| rep.classes[c].family == f))
                    && (!p.same_target || same_target)
            })
            .or(rep.patterns.last())
            .expect("compile requires a catch-all pattern");
        let (zh, en) = cycle_name(rep, &classes);
        SidePattern {
            pattern: p.name.clone(),
            status: p.status,
            zh,
            en,
            side_zh: rep.side_zh(side).to_string(),
            status_zh: rep.status_zh(p.status).to_string(),
        }
    };
    [one(Side::Red), one(Side::Black)]
}

/// The rulebook's way of naming a side's cycle (长捉, 一将一捉, 两闲 …), by the words of
/// `repetition.patterns`' `cycle_names`; and the same in English where the data gives its
/// words (`perpetual chase`, `one check one chase`, `two idle`).
fn cycle_name(rep: &RepetitionRules, classes: &[usize]) -> (String, Option<String>) {
    let names = &rep.words.cycle;
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for &c in classes {
        match counts.iter_mut().find(|(x, _)| *x == c) {
            Some(e) => e.1 += 1,
            None => counts.push((c, 1)),
        }
    }
    counts.sort();
    let idle = rep.classes.len() - 1;
    let name = |perpetual: &str,
                numerals: &[String],
                many: &str,
                class: &dyn Fn(usize) -> String,
                sep: &str| {
        let count = |n: usize| numerals.get(n).map_or(many, String::as_str).to_string();
        match counts.as_slice() {
            [] => String::new(),
            [(c, n)] if *c == idle || *n == 1 => [count(*n), class(*c)].join(sep),
            [(c, _)] => [perpetual.to_string(), class(*c)].join(sep),
            several => several
                .iter()
                .map(|(c, n)| [count(*n), class(*c)].join(sep))
                .collect::<Vec<_>>()
                .join(sep),
        }
    };
    let zh = name(
        &names.perpetual,
        &names.numerals,
        &names.many,
        &|c| rep.classes[c].zh.clone(),
        "",
    );
    let en = names.en.as_ref().map(|e| {
        name(
            &e.perpetual,
            &e.numerals,
            &e.many,
            &|c| rep.classes[c].name.replace('_', " "),
            " ",
        )
    });
    (zh, en)
}

fn named(list: &Option<Vec<String>>, p: &SidePattern) -> Option<bool> {
    list.as_ref().map(|l| {
        l.iter().any(|n| {
            n == &p.pattern
                || (n == "forbidden" && p.status == PatternStatus::Forbidden)
                || (n == "allowed" && p.status == PatternStatus::Allowed)
        })
    })
}

/// The verdict of one rule, if its condition holds (for either side as "one").
fn apply(v: &VerdictRule, pats: &[SidePattern; 2], plies: &[PlyRuling]) -> Option<Verdict> {
    let w = &v.when;
    for side in Side::BOTH {
        let (one, other) = (&pats[side.index()], &pats[side.opponent().index()]);
        let ok = named(&w.one, one).unwrap_or(true)
            && named(&w.other, other).unwrap_or(true)
            && !named(&w.other_not, other).unwrap_or(false)
            && named(&w.both, one).unwrap_or(true)
            && named(&w.both, other).unwrap_or(true)
            && v.other_has_chase.as_ref().is_none_or(|ks| {
                plies
                    .iter()
                    .filter(|p| p.facts.side != side)
                    .any(|p| p.chases.iter().any(|k| ks.contains(k)))
            })
            && v.one_every_chase.as_ref().is_none_or(|ks| {
                plies
                    .iter()
                    .filter(|p| p.facts.side == side)
                    .all(|p| !p.chases.is_empty() && p.chases.iter().all(|k| ks.contains(k)))
            });
        if ok {
            return Some(Verdict::against(side, v.verdict));
        }
        if w.one.is_none() && v.verdict == VerdictKind::Draw {
            // A side-free rule is tried once.
            break;
        }
    }
    None
}

/// Targets, kinds of chase and the reason of one ply, in English and Chinese (the `reason`
/// sentences of `spec/words.yaml`).
fn describe(an: &Analyst, before: &Position, pl: &mut PlyRuling) {
    let (tells_wins, meets) = targets(an, pl);
    let words = PlyWords::after(an, before, pl.facts.mv);
    let deeds = deeds(&words, &pl.facts, tells_wins, meets);
    let reason = reason(&words, &pl.facts, &deeds);
    pl.reason = reason.en;
    pl.reason_zh = reason.zh;
}

/// A ply's targets, kinds of chase and arrows ([`mark_targets`]); whether its reason tells
/// what it wins, and whether it met the pieces it names.
fn targets(an: &Analyst, pl: &mut PlyRuling) -> (bool, bool) {
    let rep = an.rep;
    let f = &pl.facts;
    // A check keeps its chases (`with_checks`): they count for a pattern of one target.
    let checking_chase =
        matches!(rep.classes[f.class].test, super::Test::GivesCheck) && !f.wins.is_empty();
    let counted_chase =
        matches!(rep.classes[f.class].test, super::Test::WinsMaterial { .. }) || checking_chase;
    let tells_wins = matches!(
        rep.classes[f.base_class].test,
        super::Test::WinsMaterial { .. }
    ) || checking_chase;
    let latent_counted = counted_chase && f.class != f.base_class;
    let meets = mark_targets(pl, tells_wins && counted_chase, latent_counted);
    (tells_wins, meets)
}

/// A ply's targets, kinds of chase and arrows: what it wins, where that counts as a chase
/// (`wins_counted`); else, where a special case counted the ply a chase through what an
/// exempt piece wins itself (`latent_counted`, 1999 item 11), those targets; else the pieces
/// it meets. Whether it met them.
fn mark_targets(pl: &mut PlyRuling, wins_counted: bool, latent_counted: bool) -> bool {
    let f = &pl.facts;
    if wins_counted {
        for w in &f.wins {
            pl.targets.push(w.target.to_string());
            pl.chases.push(w.kind);
            pl.arrows.push((w.attacker, w.target));
        }
    }
    if latent_counted && f.wins.is_empty() {
        for w in &f.latent {
            pl.targets.push(w.target.to_string());
            pl.chases.push(w.kind);
            pl.arrows.push((w.attacker, w.target));
        }
    }
    let meets = !f.partners.is_empty() && f.wins.is_empty() && pl.targets.is_empty();
    if meets {
        for &s in &f.partners {
            pl.targets.push(s.to_string());
            pl.arrows.push((f.mv.to, s));
        }
    }
    meets
}

/// The sentences of `spec/words.yaml` (`reason`) for one ply, naming the pieces where they
/// stand after it.
struct PlyWords<'a> {
    an: &'a Analyst<'a>,
    after: Position,
}

impl<'a> PlyWords<'a> {
    fn after(an: &'a Analyst<'a>, before: &Position, mv: Move) -> PlyWords<'a> {
        let mut after = before.clone();
        after.make(an.vm, mv);
        PlyWords { an, after }
    }

    fn say(&self, key: &str, args: &[(&str, &Both)]) -> Both {
        self.an.rep.say.fill("reason", key, args)
    }

    /// A piece's name, in English and in its side's Chinese character.
    fn piece(&self, kind: usize, side: Side) -> Both {
        Both {
            en: self.an.rep.kind_names[kind].clone(),
            zh: self.an.vm.kinds()[kind].names[side.index()].clone(),
        }
    }

    /// The piece on `sq` after the ply (`?` for none).
    fn piece_on(&self, sq: Square) -> Both {
        self.after
            .piece_at(sq)
            .map_or_else(|| Both::same("?"), |p| self.piece(p.kind as usize, p.side))
    }

    /// "the piece on the point", for each of `squares`, as a list.
    fn pieces_on(&self, squares: &mut dyn Iterator<Item = Square>) -> Both {
        let each: Vec<Both> = squares
            .map(|s| {
                self.say(
                    "piece_on",
                    &[("piece", &self.piece_on(s)), ("at", &as_is(&s))],
                )
            })
            .collect();
        Both::join(&each, &self.say("list", &[]))
    }
}

/// The same words in both languages (a point, a number, a clause id).
fn as_is(s: &dyn std::fmt::Display) -> Both {
    Both::same(s.to_string())
}

/// What a ply does, one sentence each: what it wins (`tells_wins`), the pieces it meets
/// (`meets`), the piece it blocks.
fn deeds(words: &PlyWords, f: &PlyFacts, tells_wins: bool, meets: bool) -> Vec<Both> {
    let rep = words.an.rep;
    let mover = words.piece(f.mover as usize, f.side);
    let mut parts: Vec<Both> = Vec::new();
    if tells_wins {
        for w in &f.wins {
            let after_check = match w.after_check {
                Some(ch) => words.say("after_check", &[("check", &as_is(&ch))]),
                None => Both::default(),
            };
            parts.push(words.say(
                "takes",
                &[
                    ("attacker", &words.piece_on(w.attacker)),
                    ("from", &as_is(&w.attacker)),
                    ("target", &words.piece_on(w.target)),
                    ("to", &as_is(&w.target)),
                    ("after", &after_check),
                    ("kind", &rep.say.word("chase", w.kind.name())),
                    ("gain", &gain_text(rep, w.gain)),
                ],
            ));
        }
    }
    if meets {
        parts.push(words.say(
            "meet",
            &[
                ("mover", &mover),
                ("at", &as_is(&f.mv.to)),
                ("others", &words.pieces_on(&mut f.partners.iter().copied())),
            ],
        ));
    }
    if let Some(l) = f.blocked {
        parts.push(words.say(
            "blocks",
            &[
                ("mover", &mover),
                ("piece", &words.piece_on(l)),
                ("at", &as_is(&l)),
            ],
        ));
    }
    parts
}

/// A ply's reason: its class by its test and what it does (`deeds`), the class a special
/// case counts it as, and the pieces whose own attacks a special case counted.
fn reason(words: &PlyWords, f: &PlyFacts, deeds: &[Both]) -> Both {
    let rep = words.an.rep;
    let mover = words.piece(f.mover as usize, f.side);
    let base = &rep.classes[f.base_class];
    let class = |c: &super::ClassRule| Both::same(c.name.clone());
    let class_zh = |c: &super::ClassRule| Both::same(c.zh.clone());
    let mut reason = words.say(
        "head",
        &[("class", &class(base)), ("class_zh", &class_zh(base))],
    );
    let parts = Both::join(deeds, &words.say("and", &[]));
    reason.push(&match base.test {
        super::Test::GivesCheck if parts.en.is_empty() => words.say("check", &[("mover", &mover)]),
        super::Test::GivesCheck => words.say("check_then", &[("mover", &mover), ("then", &parts)]),
        super::Test::MateThreat { depth, .. } => {
            words.say("mate_threat", &[("depth", &as_is(&depth))])
        }
        super::Test::Otherwise => words.say("otherwise", &[]),
        _ => parts,
    });
    if f.class != f.base_class {
        let c = &rep.classes[f.class];
        let rules: Vec<&str> = f.exceptions.iter().map(|r| r.clause.as_str()).collect();
        reason.push(&words.say(
            "counted_as",
            &[
                ("class", &class(c)),
                ("class_zh", &class_zh(c)),
                ("clauses", &Both::same(rules.join(", "))),
            ],
        ));
    }
    if !f.latent.is_empty() && f.wins.is_empty() {
        let who = words.pieces_on(&mut f.latent.iter().map(|w| w.attacker));
        let clause = rep
            .own_attack_rule
            .as_ref()
            .map_or("", |r| r.clause.as_str());
        reason.push(&words.say(
            "own_attack",
            &[("pieces", &who), ("clause", &Both::same(clause))],
        ));
    }
    reason
}

/// The sentences' keys [`describe`] and a ruling's basis ([`super::readings::Basis::said`])
/// use, each of which `spec/words.yaml` gives (checked by `xqspec spec check`).
pub(crate) const REASON_KEYS: [&str; 17] = [
    "head",
    "takes",
    "after_check",
    "gain_floating",
    "gain_both",
    "meet",
    "piece_on",
    "blocks",
    "check",
    "check_then",
    "mate_threat",
    "otherwise",
    "counted_as",
    "own_attack",
    "and",
    "list",
    "rests_on",
];

fn gain_text(rep: &RepetitionRules, v: super::Val) -> Both {
    let n = |x: i32| Both::same(x.to_string());
    match (v.pieces, v.floating) {
        (p, 0) => n(p),
        (0, f) => rep
            .say
            .fill("reason", "gain_floating", &[("floating", &n(f))]),
        (p, f) => rep.say.fill(
            "reason",
            "gain_both",
            &[("pieces", &n(p)), ("floating", &n(f))],
        ),
    }
}

impl Ruling {
    /// The answer object of the `ruling` query.
    pub fn to_json(&self, rep: &RepetitionRules) -> Value {
        crate::answer::to_value(&self.answer(rep))
    }

    /// The answer of the `ruling` query, typed.
    pub fn answer(&self, rep: &RepetitionRules) -> crate::answer::RulingAnswer {
        let plies = self
            .plies
            .iter()
            .map(|p| {
                let c = &rep.classes[p.facts.class];
                crate::answer::Ply {
                    ply: p.ply as u64,
                    r#move: p.facts.mv.iccs(),
                    side: p.facts.side.name().into(),
                    class: c.name.clone(),
                    zh: c.zh.clone(),
                    family: match c.family {
                        Family::Attack => "attack",
                        Family::Idle => "idle",
                    }
                    .into(),
                    targets: p.targets.clone(),
                    chase: p.chases.iter().map(|k| k.name().to_string()).collect(),
                    reason: p.reason.clone(),
                    reason_zh: p.reason_zh.clone(),
                    clause: c.rule.clause.clone(),
                    article: c.rule.article.clone(),
                }
            })
            .collect();
        crate::answer::RulingAnswer {
            verdict: self.verdict.name().into(),
            judged: self.judged.into(),
            cycle: self.cycle.map(|(a, b)| vec![a as u64, b as u64]),
            plies,
            patterns: self.patterns.as_ref().map(|ps| crate::answer::Patterns {
                red: ps[0].answer(),
                black: ps[1].answer(),
            }),
            clauses: self
                .clauses
                .iter()
                .map(|r| crate::answer::Cited {
                    clause: Some(r.clause.clone()),
                    article: r.article.clone(),
                })
                .collect(),
            basis: self.basis.name().into(),
            rests_on: self.basis.rests_on.clone(),
            verdict_only: None,
        }
    }
}

/// A pattern status as answers write it (`forbidden`, `allowed`).
pub fn status_name(s: PatternStatus) -> &'static str {
    match s {
        PatternStatus::Forbidden => "forbidden",
        PatternStatus::Allowed => "allowed",
    }
}
