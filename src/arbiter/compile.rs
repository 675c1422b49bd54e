//! From clauses to the arbiter's tables. Runs once per rule set.
//!
//! Every clause of the arbiter's families is read into its typed shape and checked
//! against the others (a level named in `times_by_level` must be one `event.level` lists; a
//! touch chain ends with a free step …). Every problem is reported at its clause's place.

use serde::de::DeserializeOwned;

use super::data::{self, Role, Step, Trigger};
use super::{ArbiterRules, ChainRule, FoulCount, FoulRuleC, ResultRuleC, RuleRef, FAMILIES};
use crate::spec::{Clause, Edition, SpecError};
use crate::vm::clause_data::{err, err_at, positive, read};

/// The clauses with special shapes, by id. Every other `touch.*` is a chain, every other
/// `foul.*` a kind of foul, every `result.*` a way the game ends.
const SPECIAL: [&str; 14] = [
    "event.level",
    "draw.natural_limit",
    "draw.offer",
    "draw.no_early_offer",
    "draw.early_repetition",
    "touch.adjusting",
    "touch.completed_move",
    "irregularity.colours_reversed",
    "irregularity.displaced_piece",
    "irregularity.illegal_move",
    "irregularity.knocked_over",
    "irregularity.between_points",
    "foul.waived_by_resignation",
    "lateness.clock_runs",
];

struct Compiler<'e> {
    ed: &'e Edition,
    errors: Vec<SpecError>,
    /// The event's level (`event.level`), if the edition has levels.
    level: Option<String>,
    /// The levels `event.level` lists (none without the clause).
    levels: Vec<String>,
}

impl<'e> Compiler<'e> {
    fn read<T: DeserializeOwned>(&mut self, c: &Clause) -> Option<T> {
        read(c, &mut self.errors)
    }

    /// The typed data of a special clause, if the edition has it.
    fn special<T: DeserializeOwned>(&mut self, id: &str) -> Option<(RuleRef, T)> {
        let c = self.ed.clause(id)?;
        self.read(c).map(|d| (RuleRef::of(c), d))
    }

    fn fail(&mut self, c: &Clause, msg: impl Into<String>) {
        self.errors.push(err(c, msg));
    }

    /// An error at the place the field `field` was written (an overlay's line), else at `c`.
    fn fail_at(&mut self, c: &Clause, field: &str, msg: impl Into<String>) {
        self.errors.push(err_at(c, field, msg));
    }

    /// The special clause `id` read, and the counts and limits `limits` takes of its data
    /// checked positive.
    fn limited<T: DeserializeOwned>(
        &mut self,
        id: &str,
        limits: impl FnOnce(&T) -> Vec<(&'static str, Option<u32>)>,
    ) -> Option<(RuleRef, T)> {
        let found = self.special::<T>(id);
        if let Some((_, d)) = &found {
            self.positive(id, &limits(d));
        }
        found
    }

    /// Counts and limits of clause `id` that the rules need positive (`None`: not given).
    fn positive(&mut self, id: &str, fields: &[(&str, Option<u32>)]) {
        if let Some(c) = self.ed.clause(id) {
            for (field, v) in fields {
                positive(c, field, v.map(u64::from), &mut self.errors);
            }
        }
    }
}

/// Compiles the arbiter's clauses of an edition: `Ok(None)` when it has none of them.
pub fn compile(ed: &Edition) -> Result<Option<ArbiterRules>, Vec<SpecError>> {
    let ours: Vec<&Clause> = ed
        .clauses()
        .iter()
        .filter(|c| FAMILIES.iter().any(|f| c.id.starts_with(f)))
        .collect();
    if ours.is_empty() {
        return Ok(None);
    }
    let mut k = Compiler {
        ed,
        errors: Vec::new(),
        level: None,
        levels: Vec::new(),
    };
    k.event_level();
    let (results, fouls, chains) = rule_clauses(&mut k, &ours);
    let draws = k.draw_rules();
    let adjusting = k.special("touch.adjusting");
    let _: Option<(RuleRef, data::CompletedMove)> = k.special("touch.completed_move");
    let irregular = k.irregularities();
    let waiver = k
        .special::<data::Waiver>("foul.waived_by_resignation")
        .map(|(c, _)| c);
    let clock_runs = k
        .special::<data::ClockRuns>("lateness.clock_runs")
        .and_then(|(c, d)| d.charge_late_time.then_some(c));
    let late_limit = k.late_limit(&results);

    if !k.errors.is_empty() {
        return Err(k.errors);
    }
    Ok(Some(ArbiterRules {
        level: k.level,
        results,
        fouls,
        waiver,
        natural_limit: draws.natural_limit,
        offer: draws.offer,
        early_offer: draws.early_offer,
        early_repetition: draws.early_repetition,
        chains,
        adjusting,
        colours: irregular.colours,
        displaced: irregular.displaced,
        illegal: irregular.illegal,
        knocked: irregular.knocked,
        between: irregular.between,
        clock_runs,
        late_limit,
    }))
}

/// The result (`result.*`), foul (`foul.*`) and touch-chain (`touch.*`) clauses, each read
/// into its rule; a clause of the arbiter's families that is none of these nor special is
/// an error.
fn rule_clauses(
    k: &mut Compiler<'_>,
    ours: &[&Clause],
) -> (Vec<ResultRuleC>, Vec<FoulRuleC>, Vec<ChainRule>) {
    let mut results = Vec::new();
    let mut fouls = Vec::new();
    let mut chain_clauses: Vec<(&Clause, data::TouchChain)> = Vec::new();
    for &c in ours {
        if SPECIAL.contains(&c.id.as_str()) {
            continue;
        }
        if c.id.starts_with("result.") {
            if let Some(r) = k.read::<data::ResultRule>(c) {
                if let Some(rule) = result_rule(k, c, r) {
                    results.push(rule);
                }
            }
        } else if c.id.starts_with("foul.") {
            if let Some(f) = k.read::<data::FoulRule>(c) {
                if let Some(rule) = foul_rule(k, c, f) {
                    fouls.extend(rule);
                }
            }
        } else if c.id.starts_with("touch.") {
            if let Some(t) = k.read::<data::TouchChain>(c) {
                chain_clauses.push((c, t));
            }
        } else {
            k.fail(c, "the arbiter's rules know no clause of this id (see spec/README.md § The arbiter's rules)");
        }
    }
    let chains = touch_chains(k, &chain_clauses);
    (results, fouls, chains)
}

/// The draw clauses with special shapes: the natural limit, offers, and how early an offer
/// or a repetition may end the game.
struct DrawRules {
    natural_limit: Option<(RuleRef, data::NaturalLimit)>,
    offer: Option<(RuleRef, data::DrawOffer)>,
    early_offer: Option<(RuleRef, u32)>,
    early_repetition: Option<(RuleRef, u32, crate::board::Side)>,
}

/// The irregularities the arbiter rules on (`irregularity.*`).
struct Irregularities {
    colours: Option<(RuleRef, data::ColoursReversed)>,
    displaced: Option<(RuleRef, data::DisplacedPiece)>,
    illegal: Option<(RuleRef, data::IllegalMoveFinding)>,
    knocked: Option<(RuleRef, data::KnockedOver)>,
    between: Option<(RuleRef, data::BetweenPoints)>,
}

impl Compiler<'_> {
    /// `event.level`: the event's level, which must be one of the levels the clause lists,
    /// and those levels, kept for the clauses that name levels.
    fn event_level(&mut self) {
        let level: Option<(RuleRef, data::EventLevel)> = self.special("event.level");
        if let Some((_, l)) = &level {
            if !l.levels.contains(&l.level) {
                let c = self.ed.clause("event.level").expect("read above");
                self.fail(
                    c,
                    format!(
                        "level `{}` is not one of the levels listed ({})",
                        l.level,
                        l.levels.join(", ")
                    ),
                );
            }
        }
        if let Some((_, l)) = level {
            self.level = Some(l.level);
            self.levels = l.levels;
        }
    }

    /// `draw.natural_limit`, `draw.offer`, `draw.no_early_offer`, `draw.early_repetition`:
    /// their counts positive, and no more checks counted than the limit has rounds.
    fn draw_rules(&mut self) -> DrawRules {
        let natural_limit = self.limited("draw.natural_limit", |d: &data::NaturalLimit| {
            vec![
                ("rounds", Some(d.rounds)),
                ("false_claim_penalty_minutes", d.false_claim_penalty_minutes),
            ]
        });
        if let Some((_, d)) = &natural_limit {
            if d.checks_counted > d.rounds {
                let c = self.ed.clause("draw.natural_limit").expect("read above");
                self.fail_at(c, "checks_counted", format!("`checks_counted` ({}) exceeds `rounds` ({}): no side can give that many checks within the limit", d.checks_counted, d.rounds));
            }
        }
        let offer = self.special("draw.offer");
        let early_offer = self
            .limited("draw.no_early_offer", |d: &data::EarlyOffer| {
                vec![("rounds", Some(d.rounds))]
            })
            .map(|(c, d)| (c, d.rounds));
        let early_repetition = self
            .limited("draw.early_repetition", |d: &data::EarlyRepetition| {
                vec![("rounds", Some(d.rounds))]
            })
            .map(|(c, d)| (c, d.rounds, d.must_change.side()));
        DrawRules {
            natural_limit,
            offer,
            early_offer,
            early_repetition,
        }
    }

    /// The `irregularity.*` clauses, their time and round limits positive.
    fn irregularities(&mut self) -> Irregularities {
        let colours = self.limited(
            "irregularity.colours_reversed",
            |d: &data::ColoursReversed| vec![("within_minutes", d.within_minutes)],
        );
        let displaced = self.limited(
            "irregularity.displaced_piece",
            |d: &data::DisplacedPiece| vec![("within_rounds", d.within_rounds)],
        );
        let illegal = self.limited(
            "irregularity.illegal_move",
            |d: &data::IllegalMoveFinding| vec![("within_rounds", d.within_rounds)],
        );
        let knocked = self.limited("irregularity.knocked_over", |d: &data::KnockedOver| {
            vec![
                ("min_pieces", Some(d.min_pieces)),
                ("opponent_under_minutes", Some(d.opponent_under_minutes)),
                ("add_minutes", Some(d.add_minutes)),
            ]
        });
        let between = self.special("irregularity.between_points");
        Irregularities {
            colours,
            displaced,
            illegal,
            knocked,
            between,
        }
    }

    /// The lateness limit of the `when: late_arrival` result clause, which
    /// `result.both_late` needs.
    fn late_limit(&mut self, results: &[ResultRuleC]) -> Option<u32> {
        let late_limit = results
            .iter()
            .find(|r: &&ResultRuleC| r.when == Trigger::LateArrival)
            .and_then(|r| r.limit_minutes);
        if let Some(c) = self.ed.clause("result.both_late") {
            if !results.iter().any(|r| r.when == Trigger::LateArrival) {
                self.fail(
                    c,
                    "both_late needs the lateness limit of a `when: late_arrival` result clause",
                );
            }
        }
        late_limit
    }
}

/// Whether every level named is one `event.level` lists (else an error at the clause).
fn known_levels<'a>(
    k: &mut Compiler<'_>,
    c: &Clause,
    mut named: impl Iterator<Item = &'a String>,
) -> bool {
    match named.find(|l| !k.levels.contains(l)) {
        Some(bad) => {
            let message = format!(
                "level `{bad}` is not one of event.level's levels ({})",
                k.levels.join(", ")
            );
            k.fail(c, message);
            false
        }
        None => true,
    }
}

fn result_rule(k: &mut Compiler<'_>, c: &Clause, r: data::ResultRule) -> Option<ResultRuleC> {
    if r.classes.is_some() && r.when != Trigger::IllegalMove {
        k.fail(c, "`classes` only applies to `when: illegal_move`");
    }
    if r.when == Trigger::IllegalMove && r.classes.as_ref().is_none_or(Vec::is_empty) {
        k.fail(
            c,
            "`when: illegal_move` needs the `classes` of illegal moves it counts",
        );
    }
    if r.limit_minutes.is_some() && r.when != Trigger::LateArrival {
        k.fail(c, "`limit_minutes` only applies to `when: late_arrival`");
    }
    if r.rounds_to_change.is_some()
        && !matches!(r.when, Trigger::ChangeRefused | Trigger::RepetitionDraw)
    {
        k.fail_at(
            c,
            "rounds_to_change",
            "`rounds_to_change` only applies to `when: change_refused` or `when: repetition_draw`",
        );
    }
    positive(
        c,
        "rounds_to_change",
        r.rounds_to_change.map(u64::from),
        &mut k.errors,
    );
    let times = match (r.times, &r.times_by_level) {
        (Some(_), Some(_)) => {
            k.fail(c, "give `times` or `times_by_level`, not both");
            return None;
        }
        (Some(0), None) => {
            k.fail(
                c,
                "`times` is 0; the rules need this count to be at least 1",
            );
            return None;
        }
        (Some(t), None) => t,
        (None, None) => 1,
        (None, Some(by)) => {
            let Some(level) = k.level.clone() else {
                k.fail(
                    c,
                    "`times_by_level` needs the clause `event.level`, which this edition lacks",
                );
                return None;
            };
            if !known_levels(k, c, by.keys()) {
                return None;
            }
            if let Some((l, _)) = by.iter().find(|(_, &t)| t == 0) {
                k.fail(
                    c,
                    format!(
                        "`times_by_level.{l}` is 0; the rules need this count to be at least 1"
                    ),
                );
                return None;
            }
            match by.get(&level) {
                Some(&t) if t > 0 => t,
                _ => {
                    k.fail(c, format!("`times_by_level` gives no count (at least 1) for the event's level `{level}`"));
                    return None;
                }
            }
        }
    };
    Some(ResultRuleC {
        clause: RuleRef::of(c),
        when: r.when,
        result: r.result,
        classes: r.classes.unwrap_or_default(),
        times,
        span: r.counted.unwrap_or_default(),
        limit_minutes: r.limit_minutes,
        rounds_to_change: r.rounds_to_change,
    })
}

/// A foul clause, or `None` inside the `Option` when it does not apply at the event's level.
fn foul_rule(k: &mut Compiler<'_>, c: &Clause, f: data::FoulRule) -> Option<Option<FoulRuleC>> {
    foul_fields_fit(k, c, &f)?;
    let count = foul_count(k, c, &f)?;
    if let Some(ls) = &f.levels {
        if !known_levels(k, c, ls.iter()) {
            return None;
        }
        if k.level.as_ref().is_none_or(|l| !ls.contains(l)) {
            return Some(None);
        }
    }
    Some(Some(FoulRuleC {
        clause: RuleRef::of(c),
        when: f.when,
        classes: f.classes.unwrap_or_default(),
        count,
    }))
}

/// Whether a foul clause's fields fit its trigger: no field of another trigger, not
/// triggered by a foul itself, its counts positive, the classes an illegal-move foul
/// counts given (else an error at the clause, and `None`).
fn foul_fields_fit(k: &mut Compiler<'_>, c: &Clause, f: &data::FoulRule) -> Option<()> {
    let draw = f.when == Trigger::DrawOffer;
    let record = f.when == Trigger::UnrecordedMoves;
    let misplaced: Vec<&str> = [
        (
            "classes",
            f.classes.is_some() && f.when != Trigger::IllegalMove,
        ),
        ("count", f.count.is_some() && !draw),
        ("excess", f.excess.is_some() && !draw),
        ("every_moves", f.every_moves.is_some() && !record),
        ("max_fouls", f.max_fouls.is_some() && !record),
        ("counts", f.counts.is_some() && !record),
        (
            "deferred_below_minutes",
            f.deferred_below_minutes.is_some() && !record,
        ),
    ]
    .into_iter()
    .filter(|(_, bad)| *bad)
    .map(|(name, _)| name)
    .collect();
    if !misplaced.is_empty() {
        k.fail(
            c,
            format!(
                "{} do(es) not apply to `when: {}`",
                misplaced.join(", "),
                f.when.name()
            ),
        );
        return None;
    }
    if f.when == Trigger::Foul {
        k.fail(c, "a foul clause cannot be triggered by a foul");
        return None;
    }
    let counted = [
        ("max_fouls", f.max_fouls),
        ("deferred_below_minutes", f.deferred_below_minutes),
    ];
    if !counted
        .iter()
        .all(|(field, v)| positive(c, field, v.map(u64::from), &mut k.errors))
    {
        return None;
    }
    if f.when == Trigger::IllegalMove && f.classes.as_ref().is_none_or(Vec::is_empty) {
        k.fail(
            c,
            "`when: illegal_move` needs the `classes` of illegal moves it counts",
        );
        return None;
    }
    Some(())
}

/// How a foul is counted: draw offers by their excess over the opponent's or when repeated
/// after a decline, unrecorded moves every so many moves, anything else each time.
fn foul_count(k: &mut Compiler<'_>, c: &Clause, f: &data::FoulRule) -> Option<FoulCount> {
    let count = match f.when {
        Trigger::DrawOffer => return offer_count(k, c, f),
        Trigger::UnrecordedMoves => match (f.every_moves, f.counts.clone()) {
            (Some(every), Some(counts)) if every > 0 => FoulCount::Unrecorded {
                every,
                max: f.max_fouls,
                counts,
                deferred_below_seconds: f.deferred_below_minutes.map(|m| m * 60),
            },
            _ => {
                k.fail(
                    c,
                    "`when: unrecorded_moves` needs `every_moves` (at least 1) and `counts`",
                );
                return None;
            }
        },
        _ => FoulCount::Each,
    };
    Some(count)
}

/// How draw offers are counted as fouls (`when: draw_offer`): by an excess (at least 1)
/// over the opponent's offers, or each offer repeated after a decline.
fn offer_count(k: &mut Compiler<'_>, c: &Clause, f: &data::FoulRule) -> Option<FoulCount> {
    match (f.count, f.excess) {
        (Some(data::OfferCount::ExcessOverOpponent), Some(e)) if e > 0 => {
            Some(FoulCount::OfferExcess(e))
        }
        (Some(data::OfferCount::ExcessOverOpponent), _) => {
            k.fail(
                c,
                "`count: excess_over_opponent` needs `excess` (a count of at least 1)",
            );
            None
        }
        (Some(data::OfferCount::RepeatedAfterDecline), None) => {
            Some(FoulCount::OfferRepeatedAfterDecline)
        }
        (Some(data::OfferCount::RepeatedAfterDecline), Some(_)) => {
            k.fail(
                c,
                "`excess` does not apply to `count: repeated_after_decline`",
            );
            None
        }
        (None, _) => {
            k.fail(
                c,
                "`when: draw_offer` needs `count` (excess_over_opponent or repeated_after_decline)",
            );
            None
        }
    }
}

fn touch_chains(k: &mut Compiler<'_>, clauses: &[(&Clause, data::TouchChain)]) -> Vec<ChainRule> {
    let mut out: Vec<ChainRule> = Vec::new();
    for (c, t) in clauses {
        let steps: Vec<Step> = match (&t.steps, &t.steps_of) {
            (Some(s), None) => s.clone(),
            (None, Some(other)) => match clauses.iter().find(|(o, _)| &o.id == other) {
                Some((_, o)) if o.steps.is_some() => o.steps.clone().unwrap_or_default(),
                Some(_) => {
                    k.fail(
                        c,
                        format!("`steps_of: {other}` names a clause that itself borrows its steps"),
                    );
                    continue;
                }
                None => {
                    k.fail(
                        c,
                        format!("`steps_of: {other}` names no touch-move chain of this edition"),
                    );
                    continue;
                }
            },
            _ => {
                k.fail(
                    c,
                    "a touch-move chain gives exactly one of `steps` and `steps_of`",
                );
                continue;
            }
        };
        let mut roles = t.touched.clone();
        roles.sort();
        roles.dedup();
        if t.touched.is_empty() || roles.len() != t.touched.len() {
            k.fail(
                c,
                "`touched` lists each role (own, opponent) at most once, and at least one",
            );
            continue;
        }
        if t.simultaneous && t.touched.len() < 2 {
            k.fail(c, "a simultaneous touch needs two touched roles");
            continue;
        }
        let mut ok = !steps.is_empty();
        for s in &steps {
            let actions = [s.move_piece.is_some(), s.capture.is_some(), s.free]
                .iter()
                .filter(|&&b| b)
                .count();
            let uses = |r: Option<Role>| r.is_none_or(|r| t.touched.contains(&r));
            let problem = if actions != 1 {
                Some("gives exactly one of `move`, `capture`, `free: true`".to_string())
            } else if !uses(s.move_piece) || !uses(s.capture) {
                Some("names a role that is not touched in this pattern".into())
            } else if s.with.is_some() && s.capture.is_none() {
                Some("`with` only goes with `capture`".into())
            } else if s.with.is_some() && !t.touched.contains(&Role::Own) {
                Some("`with` names the touched own piece, which this pattern has not".into())
            } else if s.capture == Some(Role::Own) {
                Some("a player never captures its own piece".into())
            } else {
                None
            };
            if let Some(p) = problem {
                k.fail(c, format!("step {}: {p}", s.step));
                ok = false;
            }
        }
        if ok && !steps.last().is_some_and(|s| s.free) {
            k.fail(c, "the last step of a touch-move chain is `free: true` (what the player may do when no step applies)");
            ok = false;
        }
        let same = |o: &ChainRule| {
            if t.simultaneous {
                let mut a = o.touched.clone();
                a.sort();
                o.simultaneous && a == roles
            } else {
                !o.simultaneous && o.touched == t.touched
            }
        };
        if let Some(o) = out.iter().find(|o| same(o)) {
            k.fail(c, format!("the same touch pattern as {}", o.clause.clause));
            ok = false;
        }
        if ok {
            out.push(ChainRule {
                clause: RuleRef::of(c),
                touched: t.touched.clone(),
                simultaneous: t.simultaneous,
                steps,
            });
        }
    }
    out
}
