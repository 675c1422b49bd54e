//! Competition clauses → [`CompetitionRules`]. Runs once per rule set; every problem is a
//! [`SpecError`] at the clause's location.

use std::collections::BTreeMap;

use super::criteria::{self, Criterion, Primitive};
use super::data::{self, CriterionEntry, Entrants, Scope, Unit};
use super::{CompetitionRules, Format};
use crate::spec::{Clause, Edition, SpecError};
use crate::vm::clause_data::{err, positive, require, typed};

/// The clause-id prefix of the formats' orders.
pub const ORDER_PREFIX: &str = "tiebreak.";

/// Whether the edition has competition clauses at all.
pub fn has_competition(ed: &Edition) -> bool {
    ed.clause("scoring.game").is_some() || ed.clauses_with_prefix(ORDER_PREFIX).next().is_some()
}

fn criterion(c: &Clause, term: &str, scope: Scope) -> Result<Criterion, SpecError> {
    let primitive = criteria::primitive(term).ok_or_else(|| {
        let known: Vec<&str> = criteria::TERMS.iter().map(|t| t.0).collect();
        err(c, format!("unknown criterion `{term}` (known: {})", known.join(", ")))
    })?;
    Ok(Criterion { term: term.to_string(), primitive, scope })
}

fn format(c: &Clause, name: &str) -> Result<Format, SpecError> {
    let d: data::Order = typed(c)?;
    let rank_by = criterion(c, &d.rank_by, Scope::All)?;
    let places = d.entrants == Entrants::TeamsByPlayerPlaces;
    let rank_ok = match rank_by.primitive {
        Primitive::GamePoints => !places,
        Primitive::MatchPoints => !places && d.unit == Unit::Match,
        Primitive::PlaceSum => places,
        _ => false,
    };
    if !rank_ok {
        return Err(err(c, format!("`rank_by: {}` does not rank {:?} entrants by {:?} units", d.rank_by, d.entrants, d.unit)));
    }
    if d.cycles == 0 {
        return Err(err(c, "`cycles` is at least 1"));
    }
    if d.system.is_none() && !places {
        return Err(err(c, "`system` (round_robin or swiss) is required"));
    }
    let mut orders = BTreeMap::new();
    for (oname, list) in &d.orders {
        let mut v = Vec::new();
        for e in list {
            let (term, scope) = match e {
                CriterionEntry::Name(t) => (t.as_str(), Scope::All),
                CriterionEntry::Scoped { criterion, scope } => (criterion.as_str(), *scope),
            };
            let cr = criterion(c, term, scope)?;
            let fits = if places { cr.primitive.from_places() || cr.primitive == Primitive::Fouls } else { !cr.primitive.from_places() };
            if !fits {
                return Err(err(c, format!("order `{oname}`: `{term}` does not apply to {:?} entrants", d.entrants)));
            }
            if cr.primitive == Primitive::MatchPoints && d.unit != Unit::Match {
                return Err(err(c, format!("order `{oname}`: `{term}` needs `unit: match`")));
            }
            if scope != Scope::All && d.cycles < 2 {
                return Err(err(c, format!("order `{oname}`: `{term}` has a cycle scope in a format of one cycle")));
            }
            v.push(cr);
        }
        orders.insert(oname.clone(), v);
    }
    if !orders.contains_key(&d.use_) {
        return Err(err(c, format!("`use: {}` names no order (orders: {})", d.use_, d.orders.keys().cloned().collect::<Vec<_>>().join(", "))));
    }
    Ok(Format {
        name: name.to_string(),
        clause: c.id.clone(),
        article: c.article.clone(),
        entrants: d.entrants,
        system: d.system,
        unit: d.unit,
        rank_by,
        cycles: d.cycles,
        default_order: d.use_,
        orders,
        byes: d.byes,
        unresolved: d.unresolved,
    })
}

/// Compiles the competition clauses of `ed`.
pub fn compile(ed: &Edition) -> Result<CompetitionRules, SpecError> {
    let gc = require(ed, "scoring.game")?;
    let g: data::GameScoring = typed(gc)?;
    let game = *g.tables.get(&g.use_).ok_or_else(|| {
        err(gc, format!("`use: {}` names no table (tables: {})", g.use_, g.tables.keys().cloned().collect::<Vec<_>>().join(", ")))
    })?;
    for (name, t) in &g.tables {
        if !(t.win > t.draw_red.max(t.draw_black) && t.draw_red.min(t.draw_black) >= t.loss) {
            return Err(err(gc, format!("`tables.{name}`: a win scores more than a draw, and a draw at least as much as a loss")));
        }
    }
    let mc = require(ed, "scoring.match")?;
    let m: data::MatchScoring = typed(mc)?;
    if m.decided_by != "局分" {
        return Err(err(mc, format!("`decided_by: {}`: only 局分 (game points) is known", m.decided_by)));
    }
    if !(m.win > m.draw && m.draw >= m.loss) {
        return Err(err(mc, "`win`, `draw`, `loss`: a won match scores more than a drawn one, and a drawn one at least as much as a lost one"));
    }
    let mut formats = BTreeMap::new();
    for c in ed.clauses_with_prefix(ORDER_PREFIX) {
        let name = &c.id[ORDER_PREFIX.len()..];
        if name == "champion" {
            continue;
        }
        formats.insert(name.to_string(), format(c, name)?);
    }
    let champion = match ed.clause("tiebreak.champion") {
        Some(c) => {
            let d = typed::<data::Champion>(c)?;
            if d.places.is_empty() || d.places.contains(&0) {
                return Err(err(c, "`places`: at least one place, each numbered from 1"));
            }
            Some(d)
        }
        None => None,
    };
    let win_only = |id: &str| -> Result<bool, SpecError> {
        match ed.clause(id) {
            None => Ok(false),
            Some(c) => {
                let b: data::ByeScore = typed(c)?;
                if b.result != "win" {
                    return Err(err(c, format!("`result: {}`: a bye scores `win`", b.result)));
                }
                Ok(true)
            }
        }
    };
    let bye_score = win_only("bye.score")?;
    let bye_team_score = win_only("bye.team_score")?;
    let bye_opponent = match ed.clause("bye.opponent_score") {
        None => None,
        Some(c) => {
            let b: data::ByeOpponent = typed(c)?;
            if b.value != "lowest_nonzero_score" {
                return Err(err(c, format!("`value: {}`: only lowest_nonzero_score is known", b.value)));
            }
            let share = |f: f64| (0.0..=1.0).contains(&f);
            if !share(b.factor) {
                return Err(err(c, "`factor` is a share from 0 to 1"));
            }
            if let Some(r) = &b.reduced {
                if !share(r.factor) {
                    return Err(err(c, "`reduced.factor` is a share from 0 to 1"));
                }
                let mut errors = Vec::new();
                for (field, v) in [("reduced.rounds_below", r.rounds_below), ("reduced.entrants_below", r.entrants_below)] {
                    positive(c, field, Some(v.into()), &mut errors);
                }
                if let Some(e) = errors.into_iter().next() {
                    return Err(e);
                }
            }
            Some(b)
        }
    };
    let sanctions = match ed.clause("sanction.ranking") {
        None => None,
        Some(c) => {
            let s: data::SanctionRanking = typed(c)?;
            if s.after != "rank_by" {
                return Err(err(c, format!("`after: {}`: only rank_by is known", s.after)));
            }
            Some(s.kinds)
        }
    };
    if let Some(c) = ed.clause("withdrawal.before_start") {
        typed::<data::WithdrawalBeforeStart>(c)?;
    }
    let mut withdrawal = BTreeMap::new();
    for (id, sys) in [("withdrawal.round_robin", data::System::RoundRobin), ("withdrawal.swiss", data::System::Swiss)] {
        if let Some(c) = ed.clause(id) {
            let w: data::Withdrawal = typed(c)?;
            if !(0.0..=1.0).contains(&w.threshold) {
                return Err(err(c, "`threshold` is a share from 0 to 1"));
            }
            withdrawal.insert(sys, w);
        }
    }
    let n_plus_one = match ed.clause("format.n_plus_one") {
        None => None,
        Some(c) => {
            let n: data::NPlusOne = typed(c)?;
            if n.finalists != 2 {
                return Err(err(c, "the final is one game: `finalists` is 2"));
            }
            Some(n)
        }
    };
    let mut lineups = BTreeMap::new();
    for c in ed.clauses_with_prefix("lineup.") {
        let l: data::Lineup = typed(c)?;
        if let Some(x) = &l.example {
            if x.boards == 0 {
                return Err(err(c, "`example.boards` is 0; a team plays on at least 1 board"));
            }
            let orders = super::ordered_lineups(x.boards + x.reserves, x.boards);
            if orders != x.orders {
                return Err(err(c, format!("`example.orders` is {}, but {} boards with {} reserves give {orders} orders", x.orders, x.boards, x.reserves)));
            }
        }
        lineups.insert(c.id["lineup.".len()..].to_string(), l);
    }
    Ok(CompetitionRules {
        ruleset: ed.id.clone(),
        game,
        game_table: g.use_,
        match_scoring: m,
        formats,
        champion,
        bye_score,
        bye_team_score,
        bye_opponent,
        sanctions,
        withdrawal,
        n_plus_one,
        lineups,
    })
}
