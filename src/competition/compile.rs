//! Competition clauses → [`CompetitionRules`]. Runs once per rule set; every problem is a
//! [`SpecError`] at the clause's location, and every one is reported.

use std::collections::BTreeMap;

use super::criteria::{self, Criterion, Primitive};
use super::data::{self, CriterionEntry, Entrants, Scope, Unit};
use super::{CompetitionRules, Format};
use crate::spec::{Clause, Edition, SpecError};
use crate::vm::clause_data::{err, has_key, positive, read, require};

/// The clause-id prefix of the formats' orders.
pub(crate) const ORDER_PREFIX: &str = "tiebreak.";

/// Whether the edition has competition clauses at all.
pub(crate) fn has_competition(ed: &Edition) -> bool {
    ed.clause("scoring.game").is_some() || ed.clauses_with_prefix(ORDER_PREFIX).next().is_some()
}

fn criterion(c: &Clause, term: &str, scope: Scope) -> Result<Criterion, SpecError> {
    let primitive = criteria::primitive(term).ok_or_else(|| {
        let known: Vec<&str> = criteria::terms().map(|(t, _)| t).collect();
        err(
            c,
            format!("unknown criterion `{term}` (known: {})", known.join(", ")),
        )
    })?;
    Ok(Criterion {
        term: term.to_string(),
        primitive,
        scope,
    })
}

/// The `tiebreak.*` clause with `places` is the champion rule (places no tie may share);
/// every other `tiebreak.*` clause is a format.
fn is_champion_rule(c: &Clause) -> bool {
    has_key(c, "places")
}

/// One format's order criteria, each checked against the format (errors recorded).
fn order(
    c: &Clause,
    d: &data::Order,
    oname: &str,
    list: &[CriterionEntry],
    errors: &mut Vec<SpecError>,
) -> Vec<Criterion> {
    let places = d.entrants == Entrants::TeamsByPlayerPlaces;
    let mut v = Vec::new();
    for e in list {
        let (term, scope) = match e {
            CriterionEntry::Name(t) => (t.as_str(), Scope::All),
            CriterionEntry::Scoped { criterion, scope } => (criterion.as_str(), *scope),
        };
        let cr = match criterion(c, term, scope) {
            Ok(cr) => cr,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let fits = if places {
            cr.primitive.counts_places() || cr.primitive == Primitive::Fouls
        } else {
            !cr.primitive.counts_places()
        };
        if !fits {
            errors.push(err(
                c,
                format!(
                    "order `{oname}`: `{term}` does not apply to {:?} entrants",
                    d.entrants
                ),
            ));
        }
        if cr.primitive == Primitive::MatchPoints && d.unit != Unit::Match {
            errors.push(err(
                c,
                format!("order `{oname}`: `{term}` needs `unit: match`"),
            ));
        }
        if scope != Scope::All && d.cycles < 2 {
            errors.push(err(
                c,
                format!("order `{oname}`: `{term}` has a cycle scope in a format of one cycle"),
            ));
        }
        v.push(cr);
    }
    v
}

fn format(c: &Clause, name: &str, errors: &mut Vec<SpecError>) -> Option<Format> {
    let before = errors.len();
    let d: data::Order = read(c, errors)?;
    let rank_by = criterion(c, &d.rank_by, Scope::All)
        .map_err(|e| errors.push(e))
        .ok();
    let places = d.entrants == Entrants::TeamsByPlayerPlaces;
    if let Some(rank_by) = &rank_by {
        let rank_ok = match rank_by.primitive {
            Primitive::GamePoints => !places,
            Primitive::MatchPoints => !places && d.unit == Unit::Match,
            Primitive::PlaceSum => places,
            _ => false,
        };
        if !rank_ok {
            errors.push(err(
                c,
                format!(
                    "`rank_by: {}` does not rank {:?} entrants by {:?} units",
                    d.rank_by, d.entrants, d.unit
                ),
            ));
        }
    }
    if d.cycles == 0 {
        errors.push(err(c, "`cycles` is at least 1"));
    }
    if d.system.is_none() && !places {
        errors.push(err(c, "`system` (round_robin or swiss) is required"));
    }
    let orders: BTreeMap<String, Vec<Criterion>> = d
        .orders
        .iter()
        .map(|(oname, list)| (oname.clone(), order(c, &d, oname, list, errors)))
        .collect();
    if !orders.contains_key(&d.use_) {
        errors.push(err(
            c,
            format!(
                "`use: {}` names no order (orders: {})",
                d.use_,
                d.orders.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    if errors.len() > before {
        return None;
    }
    Some(Format {
        name: name.to_string(),
        clause: c.id.clone(),
        article: c.article.clone(),
        entrants: d.entrants,
        system: d.system,
        unit: d.unit,
        rank_by: rank_by?,
        cycles: d.cycles,
        default_order: d.use_,
        orders,
        byes: d.byes,
        unresolved: d.unresolved,
    })
}

/// `scoring.game`: the table in force, every table checked.
fn game_scoring(ed: &Edition, errors: &mut Vec<SpecError>) -> Option<(data::GameTable, String)> {
    let gc = require(ed, "scoring.game")
        .map_err(|e| errors.push(e))
        .ok()?;
    let g: data::GameScoring = read(gc, errors)?;
    for (name, t) in &g.tables {
        if !(t.win > t.draw_red.max(t.draw_black) && t.draw_red.min(t.draw_black) >= t.loss) {
            errors.push(err(gc, format!("`tables.{name}`: a win scores more than a draw, and a draw at least as much as a loss")));
        }
    }
    match g.tables.get(&g.use_) {
        Some(t) => Some((*t, g.use_)),
        None => {
            errors.push(err(
                gc,
                format!(
                    "`use: {}` names no table (tables: {})",
                    g.use_,
                    g.tables.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
            None
        }
    }
}

/// `scoring.match`.
fn match_scoring(ed: &Edition, errors: &mut Vec<SpecError>) -> Option<data::MatchScoring> {
    let mc = require(ed, "scoring.match")
        .map_err(|e| errors.push(e))
        .ok()?;
    let m: data::MatchScoring = read(mc, errors)?;
    if !(m.win > m.draw && m.draw >= m.loss) {
        errors.push(err(mc, "`win`, `draw`, `loss`: a won match scores more than a drawn one, and a drawn one at least as much as a lost one"));
        return None;
    }
    Some(m)
}

/// The champion rule among the `tiebreak.*` clauses, at most one.
fn champion(ed: &Edition, errors: &mut Vec<SpecError>) -> Option<data::Champion> {
    let mut found: Option<(&Clause, data::Champion)> = None;
    for c in ed
        .clauses_with_prefix(ORDER_PREFIX)
        .filter(|c| is_champion_rule(c))
    {
        let Some(d) = read::<data::Champion>(c, errors) else {
            continue;
        };
        if d.places.is_empty() || d.places.contains(&0) {
            errors.push(err(c, "`places`: at least one place, each numbered from 1"));
        } else if let Some((first, _)) = &found {
            errors.push(err(
                c,
                format!(
                    "a second rule on places no tie may share (the first is `{}`)",
                    first.id
                ),
            ));
        } else {
            found = Some((c, d));
        }
    }
    found.map(|(_, d)| d)
}

/// `bye.score` / `bye.team_score`: the result a bye scores. A drawn bye needs a draw that
/// scores alike for both colours (a bye has none).
fn bye_result(
    ed: &Edition,
    id: &str,
    game: Option<&data::GameTable>,
    errors: &mut Vec<SpecError>,
) -> Option<data::ByeResult> {
    let c = ed.clause(id)?;
    let b: data::ByeScore = read(c, errors)?;
    if b.result == data::ByeResult::Draw && game.is_some_and(|g| g.draw_red != g.draw_black) {
        errors.push(err(c, "`result: draw`: the game table in force scores a draw differently for Red and Black, and a bye has no colour"));
        return None;
    }
    Some(b.result)
}

/// `bye.opponent_score`.
fn bye_opponent(ed: &Edition, errors: &mut Vec<SpecError>) -> Option<data::ByeOpponent> {
    let c = ed.clause("bye.opponent_score")?;
    let b: data::ByeOpponent = read(c, errors)?;
    let before = errors.len();
    let share = |f: f64| (0.0..=1.0).contains(&f);
    if !share(b.factor) {
        errors.push(err(c, "`factor` is a share from 0 to 1"));
    }
    if let Some(r) = &b.reduced {
        if !share(r.factor) {
            errors.push(err(c, "`reduced.factor` is a share from 0 to 1"));
        }
        for (field, v) in [
            ("reduced.rounds_below", r.rounds_below),
            ("reduced.entrants_below", r.entrants_below),
        ] {
            positive(c, field, Some(v.into()), errors);
        }
    }
    (errors.len() == before).then_some(b)
}

/// `withdrawal.*`, by system.
fn withdrawals(
    ed: &Edition,
    errors: &mut Vec<SpecError>,
) -> BTreeMap<data::System, data::Withdrawal> {
    if let Some(c) = ed.clause("withdrawal.before_start") {
        read::<data::WithdrawalBeforeStart>(c, errors);
    }
    let mut withdrawal = BTreeMap::new();
    for (id, sys) in [
        ("withdrawal.round_robin", data::System::RoundRobin),
        ("withdrawal.swiss", data::System::Swiss),
    ] {
        let Some(c) = ed.clause(id) else { continue };
        let Some(w) = read::<data::Withdrawal>(c, errors) else {
            continue;
        };
        if !(0.0..=1.0).contains(&w.threshold) {
            errors.push(err(c, "`threshold` is a share from 0 to 1"));
            continue;
        }
        withdrawal.insert(sys, w);
    }
    withdrawal
}

/// `lineup.*`, by name, each example checked against the line-up primitive.
fn lineups(ed: &Edition, errors: &mut Vec<SpecError>) -> BTreeMap<String, data::Lineup> {
    let mut lineups = BTreeMap::new();
    for c in ed.clauses_with_prefix("lineup.") {
        let Some(l) = read::<data::Lineup>(c, errors) else {
            continue;
        };
        if let Some(x) = &l.example {
            if x.boards == 0 {
                errors.push(err(
                    c,
                    "`example.boards` is 0; a team plays on at least 1 board",
                ));
                continue;
            }
            let orders = super::ordered_lineups(x.boards + x.reserves, x.boards);
            if orders != x.orders {
                errors.push(err(c, format!("`example.orders` is {}, but {} boards with {} reserves give {orders} orders", x.orders, x.boards, x.reserves)));
                continue;
            }
        }
        lineups.insert(c.id["lineup.".len()..].to_string(), l);
    }
    lineups
}

/// Compiles the competition clauses of `ed`: `None` when it has none, else the rules or
/// every error found.
pub fn compile(ed: &Edition) -> Result<Option<CompetitionRules>, Vec<SpecError>> {
    if !has_competition(ed) {
        return Ok(None);
    }
    let mut errors = Vec::new();
    let game = game_scoring(ed, &mut errors);
    let match_scoring = match_scoring(ed, &mut errors);
    let mut formats = BTreeMap::new();
    for c in ed
        .clauses_with_prefix(ORDER_PREFIX)
        .filter(|c| !is_champion_rule(c))
    {
        let name = &c.id[ORDER_PREFIX.len()..];
        if let Some(f) = format(c, name, &mut errors) {
            formats.insert(name.to_string(), f);
        }
    }
    let champion = champion(ed, &mut errors);
    let bye_score = bye_result(ed, "bye.score", game.as_ref().map(|g| &g.0), &mut errors);
    let bye_team_score = bye_result(ed, "bye.team_score", None, &mut errors);
    let bye_opponent = bye_opponent(ed, &mut errors);
    let sanction = ed
        .clause("sanction.ranking")
        .and_then(|c| read::<data::SanctionRanking>(c, &mut errors));
    let withdrawal = withdrawals(ed, &mut errors);
    let n_plus_one = match ed.clause("format.n_plus_one") {
        None => None,
        Some(c) => match read::<data::NPlusOne>(c, &mut errors) {
            Some(n) if n.finalists != 2 => {
                errors.push(err(c, "the final is one game: `finalists` is 2"));
                None
            }
            n => n,
        },
    };
    let lineups = lineups(ed, &mut errors);
    match (game, match_scoring) {
        (Some((game, game_table)), Some(match_scoring)) if errors.is_empty() => {
            Ok(Some(CompetitionRules {
                ruleset: ed.id.clone(),
                game,
                game_table,
                match_scoring,
                formats,
                champion,
                bye_score,
                bye_team_score,
                bye_opponent,
                sanctions_after: sanction
                    .as_ref()
                    .map_or(data::SanctionPlace::RankBy, |s| s.after),
                sanctions: sanction.map(|s| s.kinds),
                withdrawal,
                n_plus_one,
                lineups,
            }))
        }
        _ => Err(errors),
    }
}
