//! From `clock.*` and `playoff.*` clauses to [`ClockRules`]. Runs once per rule set.

use std::collections::BTreeSet;

use serde_yaml::Value as Yaml;

use super::data::{
    self, CarryOverData, ChainData, ChooserRule, ClassificationData, ClockFoulData, ColourRule,
    FlagData, IncrementData, PeriodData, QuotaData, SchemeData, TimeData, ALTERNATIVE_KEYS,
};
use super::playoff::{Chain, Stage};
use super::sim::{Control, KnockRule, Period, RuleRef, Timing, ViolationRule};
use super::{Classification, ClockRules, Scheme};
use crate::board::Side;
use crate::spec::{Clause, Edition, SpecError};
use crate::vm::clause_data::{err, read, typed};

/// Prefix of the clock scheme clauses; the rest of the id is the scheme id.
pub(crate) const SCHEME_PREFIX: &str = "clock.scheme.";
/// Prefix of the play-off chain clauses; the rest of the id is the chain id.
pub(crate) const CHAIN_PREFIX: &str = "playoff.";

/// The clock rules of `ed`, or `None` when it has no clock or play-off clause. Every
/// problem of every clause is reported.
pub fn compile(ed: &Edition, first_to_move: Side) -> Result<Option<ClockRules>, Vec<SpecError>> {
    let has_any = ed
        .clauses()
        .iter()
        .any(|c| c.id.starts_with("clock.") || c.id.starts_with(CHAIN_PREFIX));
    if !has_any {
        return Ok(None);
    }
    let mut errors = Vec::new();
    let timing = timing(ed, first_to_move, &mut errors);
    let classification = ed.clause("clock.classification").and_then(|c| {
        let d: ClassificationData = read(c, &mut errors)?;
        for k in d.classes.iter().filter(|k| k.at_most.0 == 0) {
            errors.push(err(
                c,
                format!(
                    "class `{}`: `at_most` is 0s; a class's bound is a positive time",
                    k.class
                ),
            ));
        }
        Some(Classification {
            classes: d
                .classes
                .into_iter()
                .map(|k| (k.class, k.name, k.at_most.0))
                .collect(),
            otherwise: d.otherwise,
            rule: RuleRef::of(c),
        })
    });
    let mut schemes = Vec::new();
    for c in ed.clauses_with_prefix(SCHEME_PREFIX) {
        match scheme(c, timing.as_ref()) {
            Ok(s) => schemes.push(s),
            Err(e) => errors.push(e),
        }
    }
    let ids: BTreeSet<&str> = schemes.iter().map(|s| s.id.as_str()).collect();
    let mut chains = Vec::new();
    for c in ed.clauses_with_prefix(CHAIN_PREFIX) {
        match chain(c, &ids) {
            Ok(ch) => chains.push(ch),
            Err(e) => errors.push(e),
        }
    }
    match timing {
        Some(timing) if errors.is_empty() => Ok(Some(ClockRules {
            timing,
            classification,
            schemes,
            chains,
        })),
        _ => Err(errors),
    }
}

fn timing(ed: &Edition, first_to_move: Side, errors: &mut Vec<SpecError>) -> Option<Timing> {
    let before = errors.len();
    let Some(flag_clause) = ed.clause("clock.flag") else {
        errors.push(SpecError::new(
            crate::spec::Location { file: format!("{}/", ed.id), ..Default::default() },
            Some("clock.flag"),
            format!("edition `{}` has clock clauses but no `clock.flag`, which says when time has run out", ed.id),
        ));
        return None;
    };
    let flag: Option<FlagData> = read(flag_clause, errors);
    let increment = ed
        .clause("clock.increment")
        .and_then(|c| read::<IncrementData>(c, errors).map(|d| (d.added, RuleRef::of(c))));
    let quota = match (
        ed.clause("clock.quota"),
        ed.clause("clock.quota_carry_over"),
    ) {
        (Some(q), Some(co)) => {
            let d: Option<QuotaData> = read(q, errors);
            let c: Option<CarryOverData> = read(co, errors);
            d.zip(c)
                .map(|(_, c)| (c.unused_time, RuleRef::of(q), RuleRef::of(co)))
        }
        (Some(q), None) | (None, Some(q)) => {
            errors.push(err(
                q,
                "`clock.quota` and `clock.quota_carry_over` go together: a quota period needs both",
            ));
            None
        }
        (None, None) => None,
    };
    // Whether a clock violation is a foul is the arbiter's fact: the clock clause names the
    // foul clause, which must exist in the edition.
    let foul_ref = |c: &Clause, foul: Option<String>, errors: &mut Vec<SpecError>| -> bool {
        match foul {
            None => false,
            Some(id) if ed.clause(&id).is_some() => true,
            Some(id) => {
                errors.push(err(
                    c,
                    format!("`foul: {id}` names no clause of this edition"),
                ));
                false
            }
        }
    };
    let press_without_move = ed.clause("clock.press_without_move").and_then(|c| {
        read::<ClockFoulData>(c, errors).map(|d| ViolationRule {
            foul: foul_ref(c, d.foul, errors),
            rule: RuleRef::of(c),
        })
    });
    let stop_start = ed.clause("clock.stop_start").and_then(|c| {
        read::<ClockFoulData>(c, errors).map(|d| ViolationRule {
            foul: foul_ref(c, d.foul, errors),
            rule: RuleRef::of(c),
        })
    });
    // 5.9 is one clause, shared with the arbiter's irregularities: its shape is theirs.
    let knocked_over = ed.clause("irregularity.knocked_over").and_then(|c| {
        read::<crate::arbiter::data::KnockedOver>(c, errors).map(|data| KnockRule {
            data,
            rule: RuleRef::of(c),
        })
    });
    let flag = flag?;
    (errors.len() == before).then_some(Timing {
        first_to_move,
        exhausted: flag.exhausted_when,
        flag_rule: RuleRef::of(flag_clause),
        increment,
        quota,
        press_without_move,
        stop_start,
        knocked_over,
    })
}

/// The scheme data with the alternative in use applied (`use`/`alternatives` removed).
fn effective_data(
    c: &Clause,
    d: &SchemeData,
) -> Result<(Yaml, Option<(String, String)>), SpecError> {
    let mut m = c
        .data
        .as_mapping()
        .cloned()
        .ok_or_else(|| err(c, "data: a scheme is a mapping"))?;
    m.remove("use");
    m.remove("alternatives");
    let reading = match (&d.use_, d.alternatives.is_empty()) {
        (None, true) => None,
        (None, false) => {
            return Err(err(
                c,
                "`alternatives` without `use`: say which reading the edition uses",
            ))
        }
        (Some(u), true) => return Err(err(c, format!("`use: {u}` without `alternatives`"))),
        (Some(u), false) => {
            let Some(alt) = d.alternatives.get(u.as_str()) else {
                let known: Vec<&str> = d.alternatives.keys().map(String::as_str).collect();
                return Err(err(
                    c,
                    format!(
                        "`use: {u}` names no alternative (known: {})",
                        known.join(", ")
                    ),
                ));
            };
            for (name, a) in &d.alternatives {
                let Some(am) = a.as_mapping() else {
                    return Err(err(c, format!("alternative `{name}` is a mapping")));
                };
                if !am.get("source").is_some_and(Yaml::is_string) {
                    return Err(err(c, format!("alternative `{name}` names its `source`")));
                }
                if let Some(k) = am.keys().find(|k| {
                    k.as_str()
                        .is_none_or(|k| k != "source" && !ALTERNATIVE_KEYS.contains(&k))
                }) {
                    return Err(err(
                        c,
                        format!(
                            "alternative `{name}`: `{}` is not one of source, {}",
                            k.as_str().unwrap_or("?"),
                            ALTERNATIVE_KEYS.join(", ")
                        ),
                    ));
                }
            }
            let am = alt.as_mapping().expect("checked above");
            let mut source = String::new();
            for (k, v) in am {
                if k.as_str() == Some("source") {
                    source = v.as_str().unwrap_or_default().to_string();
                } else {
                    m.insert(k.clone(), v.clone());
                }
            }
            Some((u.clone(), source))
        }
    };
    Ok((Yaml::Mapping(m), reading))
}

fn scheme(c: &Clause, timing: Option<&Timing>) -> Result<Scheme, SpecError> {
    let d: SchemeData = typed(c)?;
    // Every reading must make a sound control, not only the one in use (an overlay may
    // switch to another).
    for name in d
        .alternatives
        .keys()
        .filter(|n| Some(*n) != d.use_.as_ref())
    {
        let other = SchemeData {
            use_: Some(name.clone()),
            ..d.clone()
        };
        let (data, _) = effective_data(c, &other)?;
        if let Resolved::Fixed(ctl) =
            resolve(&data).map_err(|m| err(c, format!("alternative `{name}`: {m}")))?
        {
            if let Some(t) = timing {
                check_control(&ctl, t).map_err(|m| err(c, format!("alternative `{name}`: {m}")))?;
            }
        }
    }
    let (template, reading) = effective_data(c, &d)?;
    let id = c.id[SCHEME_PREFIX.len()..].to_string();
    let resolved = resolve(&template).map_err(|m| err(c, m))?;
    let control = match &resolved {
        Resolved::Fixed(ctl) => {
            if let Some(t) = timing {
                check_control(ctl, t).map_err(|m| err(c, m))?;
            }
            Some(ctl.clone())
        }
        Resolved::EventSets(_) => None,
    };
    Ok(Scheme {
        id,
        clause: c.id.clone(),
        article: c.article.clone(),
        name: d.name,
        label: d.class,
        provenance: c.provenance.status,
        template,
        reading,
        control,
        event_sets: match resolved {
            Resolved::EventSets(p) => p,
            Resolved::Fixed(_) => Vec::new(),
        },
    })
}

/// A scheme's data read as a control: every number known, or the paths of those the
/// event sets.
pub(crate) enum Resolved {
    Fixed(Control),
    EventSets(Vec<String>),
}

/// Reads scheme data (with the alternative applied, settings merged) as a control.
pub(crate) fn resolve(data: &Yaml) -> Result<Resolved, String> {
    let d: SchemeData = serde_yaml::from_value(data.clone()).map_err(|e| format!("data: {e}"))?;
    let Some(periods) = d.periods else {
        return Err("the scheme has no `periods`".into());
    };
    if periods.is_empty() {
        return Err("`periods` is empty".into());
    }
    let mut unset = Vec::new();
    let mut sides: [Vec<Period>; 2] = [Vec::new(), Vec::new()];
    for (i, p) in periods.iter().enumerate() {
        let PeriodData {
            time,
            moves,
            repeat,
        } = p;
        let times = match time {
            TimeData::Both(t) => [(t, format!("periods[{i}].time")), (t, String::new())],
            TimeData::ByColour { red, black } => [
                (red, format!("periods[{i}].time.red")),
                (black, format!("periods[{i}].time.black")),
            ],
        };
        if *moves == Some(0) {
            return Err(format!(
                "`periods[{i}].moves` is 0; a move quota is at least 1 move"
            ));
        }
        for (side, (t, path)) in times.into_iter().enumerate() {
            match t {
                Some(data::Ms(ms)) => sides[side].push(Period {
                    time: *ms,
                    moves: *moves,
                    repeat: *repeat,
                }),
                None if !path.is_empty() => unset.push(path),
                None => {}
            }
        }
    }
    if d.increment.is_none() {
        unset.push("increment".into());
    }
    if !unset.is_empty() {
        return Ok(Resolved::EventSets(unset));
    }
    let ctl = Control {
        periods: sides,
        increment: d.increment.map_or(0, |m| m.0),
    };
    if ctl.increment == 0
        && ctl
            .periods
            .iter()
            .any(|p| p.first().is_some_and(|p| p.time == 0))
    {
        return Err(
            "`periods[0].time` is 0s and `increment` is 0s: no move could be made in time".into(),
        );
    }
    ctl.validate()?;
    Ok(Resolved::Fixed(ctl))
}

/// What a control needs of the edition's clock rules.
pub(crate) fn check_control(ctl: &Control, t: &Timing) -> Result<(), String> {
    if ctl.has_quota() && t.quota.is_none() {
        return Err("a period has a move quota, but the edition has no `clock.quota` rule".into());
    }
    if ctl.increment > 0 && t.increment.is_none() {
        return Err(
            "the scheme has an increment, but the edition has no `clock.increment` rule".into(),
        );
    }
    Ok(())
}

fn chain(c: &Clause, schemes: &BTreeSet<&str>) -> Result<Chain, SpecError> {
    let d: ChainData = typed(c)?;
    if d.stages.is_empty() {
        return Err(err(c, "a chain has at least one stage"));
    }
    let mut stages: Vec<Stage> = Vec::new();
    let n = d.stages.len();
    for (i, s) in d.stages.into_iter().enumerate() {
        let at = |m: String| err(c, format!("stage `{}`: {m}", s.stage));
        if stages.iter().any(|p| p.name == s.stage) {
            return Err(at("named twice".into()));
        }
        if s.games == 0 {
            return Err(at("`games` is 0; a stage plays at least 1 game".into()));
        }
        if let Some(id) = &s.scheme {
            if !schemes.contains(id.as_str()) {
                return Err(at(format!(
                    "`scheme: {id}` is no clock scheme of the edition ({SCHEME_PREFIX}{id})"
                )));
            }
        }
        if s.games > 1 && s.colours.then.is_none() {
            return Err(at(
                "a stage of several games says how the later games' colours are given (`then`)"
                    .into(),
            ));
        }
        if s.repeat.is_some() && i + 1 != n {
            return Err(at("only the last stage can be repeated".into()));
        }
        if i == 0 && s.colours.first == ColourRule::Swap {
            return Err(at("the first game of the chain cannot swap colours".into()));
        }
        let rules = [
            Some(&s.colours.first),
            s.colours.then.as_ref(),
            s.repeat.as_ref().map(|r| &r.colours),
        ];
        for r in rules.into_iter().flatten() {
            if let ColourRule::Choice(choosers) = r {
                if choosers.is_empty() {
                    return Err(at("`choice` names at least one chooser rule".into()));
                }
                for ch in choosers {
                    if let ChooserRule::NotChooserOf(st) | ChooserRule::BlackOf(st) = ch {
                        if !stages.iter().any(|p| &p.name == st) {
                            return Err(at(format!("`{st}` is not an earlier stage of the chain")));
                        }
                    }
                }
            }
        }
        let black_wins = s.draw == Some(data::DrawRule::BlackWins);
        if i + 1 == n && s.repeat.is_none() && !(black_wins && s.games % 2 == 1) {
            return Err(at("the last stage must always produce a winner: a draw rule and an odd number of games, or `repeat`".into()));
        }
        stages.push(Stage {
            name: s.stage,
            games: s.games,
            scheme: s.scheme,
            first: s.colours.first,
            then: s.colours.then,
            draw_black_wins: black_wins,
            repeat: s.repeat.map(|r| r.colours),
        });
    }
    Ok(Chain {
        id: c.id[CHAIN_PREFIX.len()..].to_string(),
        stages,
    })
}
