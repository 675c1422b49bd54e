//! The repetition rules (棋例): how each move of a repeating cycle is classed (将 check,
//! 杀 kill, 捉 chase, 兑 exchange, 献 sacrifice, 拦 block, 跟 follow, 闲 idle), how each
//! side's cycle is named (长将, 长捉, 一将一捉, 两闲 …) and judged (forbidden 禁止 or allowed
//! 允许), and the verdict.
//!
//! Laid out like `src/vm`: [`data`] holds the clause shapes, [`compile`](RepetitionRules::compile)
//! turns the `repetition.*` clauses into tables once, [`analysis`] holds the VM
//! predicates (material values, the whole exchange on captures, mate by consecutive
//! checks, what a side could win were the opponent to pass), [`classify`] classes a move
//! from those predicates as the data says, and [`ruling`] finds the cycle and applies the
//! pattern and verdict tables. No class, value, pattern or verdict is written in Rust.
//!
//! [`data`] holds the shapes of the `repetition.*` clauses: material values, the move classes
//! with the predicate each is defined by, their order, the exemptions of 26.1, 从捉到捉,
//! special cases as `when` conditions and `becomes`, patterns and verdict rules. The compile
//! step gives [`RepetitionRules`]: values per side, kind and point, classes heaviest first,
//! special cases and verdicts with their clause and article. [`readings`] lists the switches
//! of the clauses' data that are on, each with the provenance that says whether a text states
//! it (`text`) or only diagrams do (`inferred`); [`RepetitionRules::compile`] also compiles
//! every inferred reading switched off (a variant), so that a ruling names what it rests on.
//! The one forcing-line primitive (24.3 得子) is `forcing`.
//!
//! The cost of classing one move is bounded by data: `repetition.forcing`'s `ply_nodes`
//! bounds all the searches of one move together (the exchanges on one point that
//! `laid_open` asks included), `cycle_nodes` shares a cycle's out among its
//! moves (`Analyst::start_ply`), and the searches stop in the same order every time. The AXF
//! rule set and the three editions differ only in YAML. The sheet of `xqspec ruling --svg` is
//! `diagram::sheet`; the command is `src/cli/repetition.rs`. Depends on `spec`, `board`, `vm`
//! and `line`.

pub mod analysis;
pub mod classify;
pub mod data;
pub mod forcing;
pub mod readings;
pub mod ruling;

use std::collections::BTreeMap;

use crate::board::{KindId, Side, Square, SQUARES};
use crate::spec::{Clause, Edition, SpecError};
use crate::vm::clause_data::{self, err, has_key, typed};
use crate::vm::compile::{piece_slot, MAX_KINDS};
use crate::vm::Rules;

pub use analysis::{ChaseKind, Val};
pub(crate) use data::{Family, PatternStatus, Test, VerdictKind};
pub use forcing::Bounds;
pub use ruling::{last_repetition, rule, rule_line, Ruling, RulingError, RulingQuery, Verdict};

pub(crate) use crate::spec::RuleRef;

/// The largest bounds the rule data may set for one forcing-line search (plies, checks,
/// positions) and for a search of mate by consecutive checks (the mover's moves): beyond
/// them one ruling could take unbounded time.
pub(crate) const MAX_LINE_PLIES: u8 = 24;
pub(crate) const MAX_LINE_CHECKS: u8 = 8;
pub(crate) const MAX_LINE_NODES: u32 = 200_000;
pub(crate) const MAX_CYCLE_NODES: u32 = 10_000_000;
pub(crate) const MAX_MATE_DEPTH: u8 = 6;

/// A move class, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassRule {
    /// The class's name in the data (`chase`).
    pub name: String,
    /// Its name in the rulebook (捉).
    pub zh: String,
    pub(crate) family: Family,
    pub(crate) test: Test,
    /// The clause that defines it.
    pub rule: RuleRef,
}

/// A set of piece kinds as a bit mask.
type Kinds = u8;

/// A special case, compiled.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Exception {
    pub(crate) mover: Option<Kinds>,
    pub(crate) answers_check: Option<bool>,
    pub(crate) class: Option<Vec<usize>>,
    pub(crate) targets_only: Option<Kinds>,
    pub(crate) attacking_at_most: Option<(u32, Kinds)>,
    pub(crate) latent_by: Option<Kinds>,
    pub(crate) opponent_forbidden: Option<bool>,
    pub(crate) answered_by_non_general: Option<bool>,
    pub(crate) answer_idle: Option<bool>,
    pub(crate) own_general_threatened: Option<u8>,
    pub(crate) becomes: usize,
    pub rule: RuleRef,
}

impl Exception {
    /// Whether the condition needs the whole cycle (the other side's pattern, the next ply).
    pub(crate) fn needs_cycle(&self) -> bool {
        self.opponent_forbidden.is_some()
            || self.answered_by_non_general.is_some()
            || self.answer_idle.is_some()
    }
}

/// The words a ruling writes in the rulebook's language, from `repetition.patterns`:
/// `cycle_names`, `status_names`, `side_names`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Words {
    pub(crate) cycle: data::CycleNames,
    pub(crate) status: data::StatusNames,
    pub(crate) sides: data::SideNames,
}

/// A named pattern of a side's cycle, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// The pattern's name in the data (`perpetual_attack`).
    pub name: String,
    /// Forbidden or allowed.
    pub status: PatternStatus,
    pub(crate) every: Option<Vec<usize>>,
    pub(crate) every_family: Option<Family>,
    pub(crate) same_target: bool,
}

/// A verdict rule, compiled.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VerdictRule {
    pub(crate) order: u32,
    pub(crate) when: data::VerdictWhen,
    pub(crate) other_has_chase: Option<Vec<ChaseKind>>,
    pub(crate) one_every_chase: Option<Vec<ChaseKind>>,
    pub(crate) verdict: VerdictKind,
    pub rule: RuleRef,
}

/// When the moves on the board make a pending position (待判局面) the rules rule on
/// (`repetition.cycle`): the counts the arbiter watches the board with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// A position that has come back this many times is pending.
    pub cycles: u32,
    /// After a ruling, a position that comes back this many times more is ruled on anew.
    pub after_ruling: u32,
    /// The clause that says so.
    pub rule: RuleRef,
}

/// The repetition rules of one rule set, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct RepetitionRules {
    /// `values[(side * 8 + kind) * 90 + sq]`: the value of such a piece on that point, if
    /// it is material there.
    values: Vec<Option<Val>>,
    /// What a floating piece is worth less than (`floating_worth_below`).
    pub(crate) floating_below: Option<i32>,
    pub(crate) material_rule: RuleRef,
    /// Bounds of the forcing-line search (`repetition.forcing`).
    pub(crate) forcing: Bounds,
    pub(crate) forcing_rule: RuleRef,
    /// Classes, heaviest first (26.4).
    pub classes: Vec<ClassRule>,
    /// What a counter-capture must be for a mutual attack of two matching pieces to be an
    /// exchange offered, not a chase (the exchange class's `taken`).
    pub(crate) exchange_taken: data::Taken,
    pub(crate) order_rule: RuleRef,
    /// Kinds whose own first capture does not count (26.1).
    exempt_first: Kinds,
    /// Their capture counts where another piece takes part (`joint_counts`).
    pub(crate) own_attack_joint: bool,
    pub(crate) own_attack_rule: Option<RuleRef>,
    /// Only targets that could not be won before the move count (从捉到捉).
    pub(crate) new_only: Option<RuleRef>,
    /// How newness is judged (从捉到捉): the clause's data, all off without the clause.
    pub(crate) newness: data::NewOnlyData,
    pub(crate) exceptions: Vec<Exception>,
    /// The named patterns of a side's cycle, in the data's order.
    pub(crate) patterns: Vec<Pattern>,
    /// The rulebook's words for cycles, statuses and sides (`repetition.patterns`).
    pub(crate) words: Words,
    pub(crate) patterns_rule: RuleRef,
    pub(crate) verdicts: Vec<VerdictRule>,
    pub(crate) shuffle_min: Option<u32>,
    /// Which moves form the judged cycle (`repetition.cycle`'s `judged`).
    pub(crate) judged: data::Judged,
    pub(crate) cycle_rule: Option<RuleRef>,
    pub(crate) pending: Option<Pending>,
    /// Kind names, for reasons and targets.
    pub(crate) kind_names: Vec<String>,
    /// The sentences of a ply's reason and the kinds of chase, in English and Chinese
    /// (`spec/words.yaml`: `reason`, `chase`).
    pub(crate) say: std::sync::Arc<crate::spec::Words>,
    pub(crate) general: KindId,
    /// The readings of the clauses (their switches that are on), by name.
    pub(crate) readings: Vec<readings::ReadingRule>,
    /// Per inferred reading, by name, these rules with it switched off (none in a variant).
    pub(crate) variants: Vec<readings::Variant>,
}

impl RepetitionRules {
    /// The value of a piece of `side` and `kind` on `sq`, if it is material there.
    pub(crate) fn value(&self, side: Side, kind: KindId, sq: Square) -> Option<Val> {
        self.values[piece_slot(side, kind, sq.index())]
    }

    /// Whether `kind`'s own captures do not make a chase (26.1).
    pub(crate) fn exempt_first_capturer(&self, kind: KindId) -> bool {
        self.exempt_first >> kind & 1 == 1
    }

    /// When the board makes a pending position, if the rules say (`repetition.cycle`).
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// These rules without the variants of their inferred readings: a ruling under them
    /// says `text` always. For measuring what the basis costs (`benches/ruling.rs`).
    pub fn without_variants(&self) -> RepetitionRules {
        RepetitionRules {
            variants: Vec::new(),
            ..self.clone()
        }
    }

    /// A pattern's status as the rulebook writes it (禁止, 允许: `status_names`).
    pub fn status_zh(&self, s: PatternStatus) -> &str {
        match s {
            PatternStatus::Forbidden => &self.words.status.forbidden,
            PatternStatus::Allowed => &self.words.status.allowed,
        }
    }

    /// A side as the rulebook names it before a cycle's name (红方, 黑方: `side_names`).
    pub fn side_zh(&self, side: Side) -> &str {
        self.words.sides.of(side)
    }

    /// The index of the class of this name, heaviest first.
    pub fn class_index(&self, name: &str) -> Option<usize> {
        self.classes.iter().position(|c| c.name == name)
    }

    /// Compiles the `repetition.*` clauses of an edition; `None` when it has none.
    /// Every error is collected.
    pub fn compile(ed: &Edition, vm: &Rules) -> Result<Option<RepetitionRules>, Vec<SpecError>> {
        let clauses: Vec<&Clause> = ed.clauses_with_prefix("repetition.").collect();
        if clauses.is_empty() {
            return Ok(None);
        }
        let mut errors = Vec::new();
        let readings = readings::readings(&clauses, &mut errors);
        let r = compile(ed, vm, &clauses, &mut errors);
        match r {
            Some(mut r) if errors.is_empty() => {
                // Every inferred reading switched off, compiled once here.
                for reading in readings
                    .iter()
                    .filter(|r| r.reading.basis == crate::spec::ReadingBasis::Inferred)
                {
                    let off = readings::without(ed, &reading.name);
                    let clauses: Vec<&Clause> = off.clauses_with_prefix("repetition.").collect();
                    match compile(&off, vm, &clauses, &mut errors) {
                        Some(v) if errors.is_empty() => r.variants.push(readings::Variant {
                            name: reading.name.clone(),
                            changes: readings::changed_parts(&r, &v),
                            rules: v,
                        }),
                        _ => return Err(errors),
                    }
                }
                r.readings = readings;
                Ok(Some(r))
            }
            _ => Err(errors),
        }
    }
}

fn missing(ed: &Edition, id: &str) -> SpecError {
    clause_data::missing(ed, id, "its other repetition clauses need")
}

/// Clause `id`, which the other repetition clauses need, and its typed data; `None` with
/// the error recorded when the edition lacks it or its data has another shape.
fn required<'e, T: serde::de::DeserializeOwned>(
    ed: &'e Edition,
    id: &str,
    errors: &mut Vec<SpecError>,
) -> Option<(&'e Clause, T)> {
    let Some(c) = ed.clause(id) else {
        errors.push(missing(ed, id));
        return None;
    };
    clause_data::read(c, errors).map(|d| (c, d))
}

fn compile(
    ed: &Edition,
    vm: &Rules,
    clauses: &[&Clause],
    errors: &mut Vec<SpecError>,
) -> Option<RepetitionRules> {
    let kind_names: Vec<String> = vm.kinds().iter().map(|k| k.name.clone()).collect();
    let (values, floating_below, material_rule) = material(ed, vm, errors);
    let forcing = forcing(ed, errors);
    let (classes, order_rule) = classes(ed, clauses, errors);
    let (exempt_first, own_attack_joint, own_attack_rule) = own_attack(ed, vm, errors);
    let (new_only, newness) = chase_to_chase(ed, errors);
    let exceptions = exceptions(vm, &classes, clauses, errors);
    let (patterns, words, patterns_rule) = patterns(ed, &classes, errors);
    let verdicts = verdicts(ed, clauses, &patterns, errors);
    let judged = ed
        .clause("repetition.cycle")
        .and_then(|c| typed::<data::CycleData>(c).ok())
        .and_then(|d| d.judged)
        .unwrap_or(data::Judged::Shortest);
    let (shuffle_min, cycle_rule, pending) = cycle(ed, errors);
    unknown_clauses(clauses, errors);

    Some(RepetitionRules {
        values,
        floating_below,
        material_rule: material_rule?,
        forcing: forcing.as_ref()?.0,
        forcing_rule: forcing?.1,
        exchange_taken: classes
            .iter()
            .find_map(|c| match c.test {
                Test::OffersExchange { taken, .. } => Some(taken),
                _ => None,
            })
            .unwrap_or_default(),
        classes,
        order_rule: order_rule?,
        exempt_first,
        own_attack_joint,
        own_attack_rule,
        new_only,
        newness,
        exceptions,
        patterns,
        words: words?,
        patterns_rule: patterns_rule?,
        verdicts,
        shuffle_min,
        judged,
        cycle_rule,
        pending,
        kind_names,
        say: ed.words.clone(),
        general: vm.royal_kind(),
        readings: Vec::new(),
        variants: Vec::new(),
    })
}

/// `repetition.own_attack`: the kinds whose own first capture is no chase, whether a joint
/// capture of theirs counts (26.1.1), the clause; none without the clause.
fn own_attack(
    ed: &Edition,
    vm: &Rules,
    errors: &mut Vec<SpecError>,
) -> (Kinds, bool, Option<RuleRef>) {
    match ed.clause("repetition.own_attack") {
        None => (0, false, None),
        Some(c) => match typed::<data::OwnAttackData>(c) {
            Ok(d) => (
                kinds_of(vm, c, &d.first_capturer_not, errors),
                d.joint_counts,
                Some(RuleRef::of(c)),
            ),
            Err(e) => {
                errors.push(e);
                (0, false, None)
            }
        },
    }
}

/// `repetition.chase_to_chase` (从捉到捉): the clause where only new wins chase, and how
/// newness is judged (the default without it).
fn chase_to_chase(
    ed: &Edition,
    errors: &mut Vec<SpecError>,
) -> (Option<RuleRef>, data::NewOnlyData) {
    let (new_only, newness) = match ed.clause("repetition.chase_to_chase") {
        None => (None, None),
        Some(c) => match typed::<data::NewOnlyData>(c) {
            Ok(d) => (Some(RuleRef::of(c)), Some(d)),
            Err(e) => {
                errors.push(e);
                (None, None)
            }
        },
    };
    (new_only, newness.unwrap_or_default())
}

/// `repetition.cycle`: the moves per side that make a shuffle, the clause, and the counts of
/// a pending position (待判局面), which go together.
fn cycle(
    ed: &Edition,
    errors: &mut Vec<SpecError>,
) -> (Option<u32>, Option<RuleRef>, Option<Pending>) {
    let Some(c) = ed.clause("repetition.cycle") else {
        return (None, None, None);
    };
    let d = match typed::<data::CycleData>(c) {
        Ok(d) => d,
        Err(e) => {
            errors.push(e);
            return (None, None, None);
        }
    };
    for (field, value) in [
        ("shuffle_min_moves_per_side", d.shuffle_min_moves_per_side),
        ("pending_after_cycles", d.pending_after_cycles),
        ("cycles_after_ruling", d.cycles_after_ruling),
    ] {
        clause_data::positive(c, field, value.map(u64::from), errors);
    }
    let pending = match (d.pending_after_cycles, d.cycles_after_ruling) {
        (Some(cycles), Some(after_ruling)) => Some(Pending {
            cycles,
            after_ruling,
            rule: RuleRef::of(c),
        }),
        (None, None) => None,
        _ => {
            errors.push(clause_data::err(
                c,
                "pending_after_cycles and cycles_after_ruling go together",
            ));
            None
        }
    };
    (d.shuffle_min_moves_per_side, Some(RuleRef::of(c)), pending)
}

/// Every repetition clause is a class (`class`), a special case (`becomes`), a verdict
/// (`verdict`), or one of the named clauses the compiler reads.
fn unknown_clauses(clauses: &[&Clause], errors: &mut Vec<SpecError>) {
    for c in clauses {
        let known = ["class", "becomes", "verdict"]
            .iter()
            .any(|k| has_key(c, k))
            || [
                "repetition.material",
                "repetition.forcing",
                "repetition.multiple_effects",
                "repetition.own_attack",
                "repetition.chase_to_chase",
                "repetition.patterns",
                "repetition.cycle",
            ]
            .contains(&c.id.as_str());
        if !known {
            errors.push(err(c, "a repetition clause is a class (`class`), a special case (`becomes`), a verdict (`verdict`), or one of repetition.material, .forcing, .multiple_effects, .own_attack, .chase_to_chase, .patterns, .cycle"));
        }
    }
}

/// The piece kinds `names` names, as a bit set; an unknown name is an error at `c`.
fn kinds_of(vm: &Rules, c: &Clause, names: &[String], errors: &mut Vec<SpecError>) -> Kinds {
    let mut m = 0;
    for n in names {
        match vm.kind_by_name(n) {
            Some(k) => m |= 1 << k,
            None => {
                let known: Vec<&str> = vm.kinds().iter().map(|k| k.name.as_str()).collect();
                errors.push(err(
                    c,
                    format!(
                        "unknown piece kind `{n}` (pieces.kinds defines {})",
                        known.join(", ")
                    ),
                ));
            }
        }
    }
    m
}

/// The classes `names` names, by index; an unknown name is an error at `c`.
fn class_list(
    classes: &[ClassRule],
    c: &Clause,
    names: &[String],
    errors: &mut Vec<SpecError>,
) -> Vec<usize> {
    names
        .iter()
        .filter_map(|n| {
            let i = classes.iter().position(|x| &x.name == n);
            if i.is_none() {
                errors.push(err(c, format!("`{n}` is no class of this edition")));
            }
            i
        })
        .collect()
}

/// `repetition.material`: the value of every kind on every point, per side, and what a
/// floating piece is worth less than.
fn material(
    ed: &Edition,
    vm: &Rules,
    errors: &mut Vec<SpecError>,
) -> (Vec<Option<Val>>, Option<i32>, Option<RuleRef>) {
    let mut values = vec![None; 2 * MAX_KINDS * SQUARES];
    let mut floating_below = None;
    let Some((c, d)) = required::<data::MaterialData>(ed, "repetition.material", errors) else {
        return (values, floating_below, None);
    };
    if let Some(b) = d.floating_worth_below {
        if b <= 0 {
            errors.push(err(
                c,
                format!("`floating_worth_below` is {b}; it must be positive"),
            ));
        }
        floating_below = Some(b);
    }
    for (name, &v) in &d.values {
        if v < 0 {
            errors.push(err(
                c,
                format!("`values.{name}` is {v}; a material value is not negative"),
            ));
        }
        let Some(k) = vm.kind_by_name(name) else {
            errors.push(err(c, format!("unknown piece kind `{name}`")));
            continue;
        };
        for side in Side::BOTH {
            for sq in Square::all() {
                values[piece_slot(side, k, sq.index())] = Some(Val {
                    pieces: v,
                    floating: 0,
                });
            }
        }
    }
    for f in &d.floating {
        let Some(k) = vm.kind_by_name(&f.kind) else {
            errors.push(err(c, format!("unknown piece kind `{}`", f.kind)));
            continue;
        };
        if d.values.contains_key(&f.kind) {
            errors.push(err(
                c,
                format!("`{}` is both a fixed and a floating value", f.kind),
            ));
        }
        for side in Side::BOTH {
            let Some(region) = vm.region(side, &f.region) else {
                errors.push(err(
                    c,
                    format!("region `{}` is not defined by any board clause", f.region),
                ));
                break;
            };
            for sq in Square::all() {
                if region >> sq.index() & 1 == 1 {
                    values[piece_slot(side, k, sq.index())] = Some(Val {
                        pieces: 0,
                        floating: f.value,
                    });
                }
            }
        }
    }
    (values, floating_below, Some(RuleRef::of(c)))
}

/// `repetition.forcing`: the bounds of the forcing-line search, checked.
fn forcing(ed: &Edition, errors: &mut Vec<SpecError>) -> Option<(Bounds, RuleRef)> {
    required::<data::ForcingData>(ed, "repetition.forcing", errors).and_then(|(c, d)| {
        let before = errors.len();
        let mut bad = |cond: bool, what: String| {
            if cond {
                errors.push(err(c, what));
            }
        };
        bad(
            !(1..=MAX_LINE_PLIES).contains(&d.plies),
            format!("plies must be 1 to {MAX_LINE_PLIES} (got {})", d.plies),
        );
        if let Some(p) = d.check_plies {
            bad(
                !(1..=MAX_LINE_PLIES).contains(&p),
                format!("check_plies must be 1 to {MAX_LINE_PLIES} (got {p})"),
            );
        }
        bad(
            d.checks > MAX_LINE_CHECKS,
            format!(
                "checks must be at most {MAX_LINE_CHECKS} (got {})",
                d.checks
            ),
        );
        bad(
            d.answer_checks > MAX_LINE_CHECKS,
            format!(
                "answer_checks must be at most {MAX_LINE_CHECKS} (got {})",
                d.answer_checks
            ),
        );
        bad(
            !(1..=MAX_LINE_NODES).contains(&d.nodes),
            format!("nodes must be 1 to {MAX_LINE_NODES} (got {})", d.nodes),
        );
        if let Some(n) = d.ply_nodes {
            bad(
                !(1..=MAX_LINE_NODES).contains(&n),
                format!("ply_nodes must be 1 to {MAX_LINE_NODES} (got {n})"),
            );
        }
        if let Some(n) = d.cycle_nodes {
            bad(
                !(1..=MAX_CYCLE_NODES).contains(&n),
                format!("cycle_nodes must be 1 to {MAX_CYCLE_NODES} (got {n})"),
            );
        }
        bad(
            d.mate_after_gain > MAX_MATE_DEPTH,
            format!(
                "mate_after_gain must be at most {MAX_MATE_DEPTH} (got {})",
                d.mate_after_gain
            ),
        );
        (errors.len() == before).then(|| (d, RuleRef::of(c)))
    })
}

/// The class clauses (将, 杀, 捉 …), then `repetition.multiple_effects`: the classes heaviest
/// first.
fn classes(
    ed: &Edition,
    clauses: &[&Clause],
    errors: &mut Vec<SpecError>,
) -> (Vec<ClassRule>, Option<RuleRef>) {
    let mut classes: Vec<ClassRule> = Vec::new();
    for c in clauses.iter().filter(|c| has_key(c, "class")) {
        match typed::<data::ClassData>(c) {
            Ok(d) => {
                if let Test::WinsMaterial {
                    kinds: Some(ks), ..
                } = &d.test
                {
                    for k in ks.iter().filter(|k| ChaseKind::parse(k).is_none()) {
                        errors.push(err(
                            c,
                            format!("`{k}` is no kind of win (unprotected, higher_value, joint)"),
                        ));
                    }
                }
                if let Test::WinsMaterial {
                    checks: Some(n), ..
                } = &d.test
                {
                    if *n > MAX_LINE_CHECKS {
                        errors.push(err(
                            c,
                            format!("checks must be at most {MAX_LINE_CHECKS} (got {n})"),
                        ));
                    }
                }
                let depth = match &d.test {
                    Test::MateThreat { depth, .. } => Some(*depth),
                    Test::Blocks { mate_depth, .. } => Some(*mate_depth),
                    _ => None,
                };
                if let Some(n) = depth.filter(|&n| n == 0 || n > MAX_MATE_DEPTH) {
                    errors.push(err(
                        c,
                        format!("a mate depth must be 1 to {MAX_MATE_DEPTH} (got {n})"),
                    ));
                }
                if classes.iter().any(|x| x.name == d.class) {
                    errors.push(err(c, format!("class `{}` is defined twice", d.class)));
                }
                classes.push(ClassRule {
                    name: d.class,
                    zh: d.zh,
                    family: d.family,
                    test: d.test,
                    rule: RuleRef::of(c),
                });
            }
            Err(e) => errors.push(e),
        }
    }
    let Some((c, d)) = required::<data::OrderData>(ed, "repetition.multiple_effects", errors)
    else {
        return (classes, None);
    };
    let mut ordered = Vec::new();
    for n in &d.heaviest_first {
        match classes.iter().position(|x| &x.name == n) {
            Some(i) => ordered.push(classes[i].clone()),
            None => errors.push(err(c, format!("`{n}` is no class of this edition"))),
        }
    }
    for x in &classes {
        if !d.heaviest_first.contains(&x.name) {
            errors.push(err(
                c,
                format!("class `{}` is missing from the order", x.name),
            ));
        }
    }
    if !matches!(ordered.last().map(|x| &x.test), Some(Test::Otherwise)) {
        errors.push(err(
            c,
            "the lightest class must be the one every move has (`test: otherwise`)",
        ));
    }
    (ordered, Some(RuleRef::of(c)))
}

/// The special cases (`becomes`): conditions on a move or a cycle that change a class.
fn exceptions(
    vm: &Rules,
    classes: &[ClassRule],
    clauses: &[&Clause],
    errors: &mut Vec<SpecError>,
) -> Vec<Exception> {
    let mut exceptions = Vec::new();
    for c in clauses.iter().filter(|c| has_key(c, "becomes")) {
        let d = match typed::<data::ExceptionData>(c) {
            Ok(d) => d,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let w = &d.when;
        if let Some(n) = w
            .own_general_threatened
            .filter(|&n| n == 0 || n > MAX_MATE_DEPTH)
        {
            errors.push(err(c, format!("`when.own_general_threatened`: a mate depth must be 1 to {MAX_MATE_DEPTH} (got {n})")));
        }
        let becomes = class_list(classes, c, std::slice::from_ref(&d.becomes), errors)
            .first()
            .copied()
            .unwrap_or(0);
        exceptions.push(Exception {
            mover: w.mover.as_ref().map(|k| kinds_of(vm, c, k, errors)),
            answers_check: w.answers_check,
            class: w.class.as_ref().map(|k| class_list(classes, c, k, errors)),
            targets_only: w.targets_only.as_ref().map(|k| kinds_of(vm, c, k, errors)),
            attacking_at_most: w
                .attacking_pieces_at_most
                .as_ref()
                .map(|p| (p.count, kinds_of(vm, c, &p.kinds, errors))),
            latent_by: w.latent_by.as_ref().map(|k| kinds_of(vm, c, k, errors)),
            opponent_forbidden: w.opponent_forbidden,
            answered_by_non_general: w.answered_by_non_general,
            answer_idle: w.answer_idle,
            own_general_threatened: w.own_general_threatened,
            becomes,
            rule: RuleRef::of(c),
        });
    }
    exceptions
}

/// `repetition.patterns`: the patterns of a side's cycle and the rulebook's words.
fn patterns(
    ed: &Edition,
    classes: &[ClassRule],
    errors: &mut Vec<SpecError>,
) -> (Vec<Pattern>, Option<Words>, Option<RuleRef>) {
    let Some((c, d)) = required::<data::PatternsData>(ed, "repetition.patterns", errors) else {
        return (Vec::new(), None, None);
    };
    let ps: Vec<Pattern> = d
        .patterns
        .iter()
        .map(|p| Pattern {
            name: p.pattern.clone(),
            status: p.status,
            every: p.every.as_ref().map(|e| class_list(classes, c, e, errors)),
            every_family: p.every_family,
            same_target: p.same_target,
        })
        .collect();
    if !ps
        .last()
        .is_some_and(|p| p.every.is_none() && p.every_family.is_none() && !p.same_target)
    {
        errors.push(err(
            c,
            "the last pattern must match every cycle (no `every`, `every_family`, `same_target`)",
        ));
    }
    if d.cycle_names.numerals.len() < 2 {
        errors.push(err(
            c,
            "cycle_names.numerals must name at least the counts 0 and 1",
        ));
    }
    let (st, sd) = (&d.status_names, &d.side_names);
    for (field, word) in [
        ("status_names.forbidden", &st.forbidden),
        ("status_names.allowed", &st.allowed),
        ("side_names.red", &sd.red),
        ("side_names.black", &sd.black),
    ] {
        if word.trim().is_empty() {
            errors.push(err(
                c,
                format!("{field} is empty: the rulebook's word goes there"),
            ));
        }
    }
    let words = Words {
        cycle: d.cycle_names,
        status: d.status_names,
        sides: d.side_names,
    };
    (ps, Some(words), Some(RuleRef::of(c)))
}

/// The verdict clauses, in their order, checked against the patterns.
fn verdicts(
    ed: &Edition,
    clauses: &[&Clause],
    patterns: &[Pattern],
    errors: &mut Vec<SpecError>,
) -> Vec<VerdictRule> {
    let mut verdicts = Vec::new();
    for c in clauses.iter().filter(|c| has_key(c, "verdict")) {
        match typed::<data::VerdictData>(c) {
            Ok(d) => {
                let names: Vec<&String> =
                    [&d.when.one, &d.when.other, &d.when.other_not, &d.when.both]
                        .into_iter()
                        .flatten()
                        .flatten()
                        .collect();
                for n in names {
                    let known =
                        n == "forbidden" || n == "allowed" || patterns.iter().any(|p| &p.name == n);
                    if !known {
                        errors.push(err(c, format!("`{n}` is neither a pattern of `repetition.patterns` nor `forbidden`/`allowed`")));
                    }
                }
                let chase_kinds = |l: &Option<Vec<String>>,
                                   errors: &mut Vec<SpecError>|
                 -> Option<Vec<ChaseKind>> {
                    l.as_ref().map(|l| {
                        l.iter()
                            .filter_map(|k| {
                                let x = ChaseKind::parse(k);
                                if x.is_none() {
                                    errors.push(err(c, format!("`{k}` is no kind of chase (unprotected, higher_value, joint)")));
                                }
                                x
                            })
                            .collect()
                    })
                };
                let other_has_chase = chase_kinds(&d.when.other_has_chase, errors);
                let one_every_chase = chase_kinds(&d.when.one_every_chase, errors);
                if d.verdict != VerdictKind::Draw && d.when.one.is_none() {
                    errors.push(err(
                        c,
                        "a verdict against a side names that side's patterns in `one`",
                    ));
                }
                verdicts.push(VerdictRule {
                    order: d.order,
                    when: d.when,
                    other_has_chase,
                    one_every_chase,
                    verdict: d.verdict,
                    rule: RuleRef::of(c),
                });
            }
            Err(e) => errors.push(e),
        }
    }
    verdicts.sort_by_key(|v| v.order);
    if verdicts.is_empty() {
        errors.push(missing(ed, "repetition.verdict.*"));
    }
    let mut seen = BTreeMap::new();
    for v in &verdicts {
        if let Some(prev) = seen.insert(v.order, v.rule.clause.clone()) {
            errors.push(SpecError::new(
                Default::default(),
                Some(&v.rule.clause),
                format!("verdict order {} is also used by {prev}", v.order),
            ));
        }
    }
    verdicts
}
