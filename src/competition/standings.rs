//! Standings: a validated tournament and the compiled rules in, the ranking out.
//!
//! Every entrant's results become *encounters* (a game, or a match of several games, or a
//! bye, or a game lost by forfeit after a withdrawal). The criteria of
//! `super::criteria` are computed from them; the order of the format's clause (the
//! ranking score, the sanctions of 18.5, then the tiebreaks) splits each group of tied
//! entrants one criterion after the other, and records which criterion separated each
//! pair of neighbours. A tie that survives every criterion is a shared place, or a
//! play-off when the format (or 1999's 15.6 for first place) says so.

use std::collections::{HashMap, HashSet};

use super::criteria::{Better, Criterion, Primitive, Value, SANCTIONS};
use super::data::{
    ByeOpponentValue, ByeResult, Entrants, MatchDecider, SanctionPlace, Scope, System, Unit,
    Unresolved, WithdrawalEffect,
};
use super::tournament::Tournament;
use super::{CompetitionRules, Format};
use crate::board::{GameResult, Side};

mod encounters;

/// `separated_by` of an entrant sharing the place of the one above.
pub const SHARED_PLACE: &str = "shared place";
/// `separated_by` of an entrant tied with the one above where a play-off must decide.
pub const PLAY_OFF: &str = "play-off required";
/// `separated_by` of the N+1 final (10.4.3).
pub(crate) const FINAL: &str = "N+1 final";

/// One row of the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The place, from 1 (tied entrants share one).
    pub place: u32,
    /// The entrant's id in the tournament.
    pub entrant: String,
    /// The entrant's name, when the tournament gives one.
    pub name: Option<String>,
    /// The ranking score (积分, 场分, 全队总局分 or 名次总和).
    pub score: f64,
    /// Every criterion's value, in the order's order (the ranking score first). A
    /// criterion computed among the tied (直胜, 对局时后走) has a value only where it was
    /// applied.
    pub values: Vec<(String, Value)>,
    /// What placed this entrant below the one above: a criterion's label,
    /// `SHARED_PLACE`, `PLAY_OFF` or `FINAL`; `None` for the first row.
    pub separated_by: Option<String>,
    /// The entrant withdrew (退赛) and is ranked under the withdrawal rules.
    pub withdrawn: bool,
}

/// The ranking of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// The rule set ranked under.
    pub ruleset: String,
    pub(crate) format: String,
    /// The `tiebreak.*` clause of the format.
    pub clause: String,
    pub(crate) order: String,
    /// Labels of the criteria applied, in order (the ranking score first).
    pub(crate) criteria: Vec<String>,
    /// The entrants, best first.
    pub rows: Vec<Row>,
    /// Entrants whose results were annulled by a withdrawal (not ranked).
    pub(crate) annulled: Vec<String>,
    /// 队员总分制: the individual event's standings the teams were ranked from.
    pub(crate) individual: Option<Box<Standings>>,
}

impl crate::answer::ToAnswer<crate::answer::StandingsAnswer> for Standings {
    /// The answer of the `standings` query, typed.
    fn answer(&self) -> crate::answer::StandingsAnswer {
        let i = self.individual_answer();
        crate::answer::StandingsAnswer {
            ruleset: i.ruleset,
            format: i.format,
            clause: i.clause,
            order: i.order,
            criteria: i.criteria,
            ranking: i.ranking,
            annulled: i.annulled,
            individual: self.individual.as_ref().map(|s| s.individual_answer()),
        }
    }
}

impl Standings {
    /// The answer's fields but the individual standings.
    fn individual_answer(&self) -> crate::answer::IndividualStandings {
        let ranking = self
            .rows
            .iter()
            .map(|r| crate::answer::Row {
                place: r.place as u64,
                entrant: r.entrant.clone(),
                score: match super::criteria::number(r.score) {
                    serde_json::Value::Number(n) => Some(n),
                    _ => None,
                },
                values: r
                    .values
                    .iter()
                    .map(|(k, v)| (k.clone(), crate::answer::CriterionValue(v.to_json())))
                    .collect(),
                separated_by: r.separated_by.clone(),
                withdrawn: r.withdrawn.then_some(true),
            })
            .collect();
        crate::answer::IndividualStandings {
            ruleset: self.ruleset.clone(),
            format: self.format.clone(),
            clause: self.clause.clone(),
            order: self.order.clone(),
            criteria: self.criteria.clone(),
            ranking,
            annulled: self.annulled.clone(),
        }
    }
}

/// The outcome of an encounter for the entrant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The entrant won.
    Win,
    /// A draw.
    Draw,
    /// The entrant lost.
    Loss,
}

/// One result of one entrant: a game, a match, a bye, or a forfeit.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Encounter {
    /// 0 for games forfeited after a withdrawal in a round robin (no round of their own).
    pub(crate) round: u32,
    pub(crate) opponent: Option<usize>,
    pub outcome: Outcome,
    pub(crate) game_points: f64,
    pub(crate) match_points: f64,
    pub(crate) games_won: u32,
    pub(crate) black_games: u32,
    pub(crate) black_wins: u32,
    pub fouls: u32,
    /// The N+1 final.
    pub(crate) is_final: bool,
}

/// Computes the standings of `t` under `rules`.
pub fn standings(t: &Tournament, rules: &CompetitionRules) -> Standings {
    if t.format.entrants == Entrants::TeamsByPlayerPlaces {
        let inner = Ctx::new(
            t,
            rules,
            t.game_format(),
            &t.game_format().default_order.clone(),
            t.rounds,
        )
        .standings();
        Ctx::by_places(t, rules, inner).standings()
    } else {
        Ctx::new(t, rules, &t.format, &t.order, t.rounds).standings()
    }
}

/// The encounters of every entrant (players, or teams in a team event), as the ranking
/// sees them: for tables that show results.
pub(crate) fn encounters(t: &Tournament, rules: &CompetitionRules) -> Vec<Vec<Encounter>> {
    Ctx::new(
        t,
        rules,
        t.game_format(),
        &t.game_format().default_order.clone(),
        t.rounds,
    )
    .enc
}

/// One step of the ranking chain: a criterion of the format, or the sanctions (18.5).
enum Step {
    Crit(Criterion),
    Sanctions,
}

impl Step {
    /// The step's column label.
    fn label(&self) -> String {
        match self {
            Step::Crit(c) => c.label(),
            Step::Sanctions => SANCTIONS.to_string(),
        }
    }

    /// Which way the step's values are better (fewer sanctions are).
    fn better(&self) -> Better {
        match self {
            Step::Crit(c) => c.primitive.better(),
            Step::Sanctions => Better::Lower,
        }
    }
}

/// Per-team data of 队员总分制.
/// A block of the standings: entrants tied so far, and the label of what separates it from
/// the block above.
struct Block {
    members: Vec<usize>,
    label: Option<String>,
}

struct Places {
    /// Individual places of the team's ranked players, best first.
    places: Vec<Vec<u32>>,
    fouls: Vec<u32>,
    individual: Standings,
}

struct Ctx<'a> {
    t: &'a Tournament,
    rules: &'a CompetitionRules,
    format: &'a Format,
    order: String,
    upto: u32,
    n: usize,
    ids: Vec<String>,
    names: Vec<Option<String>>,
    enc: Vec<Vec<Encounter>>,
    annulled: Vec<bool>,
    withdrawn: Vec<bool>,
    places: Option<Places>,
    /// Scores by scope (and by cycle for `cycles_summed`), computed once.
    scores: HashMap<(Scope, u32), Vec<f64>>,
    /// Criteria that need every entrant's score (小分, 对手分), computed once per scope.
    columns: HashMap<(Scope, bool), Vec<f64>>,
}

impl<'a> Ctx<'a> {
    fn new(
        t: &'a Tournament,
        rules: &'a CompetitionRules,
        format: &'a Format,
        order: &str,
        upto: u32,
    ) -> Ctx<'a> {
        let team = format.entrants == Entrants::Teams;
        let (ids, names): (Vec<String>, Vec<Option<String>>) = if team {
            t.teams
                .iter()
                .map(|x| (x.id.clone(), x.name.clone()))
                .unzip()
        } else {
            t.players
                .iter()
                .map(|x| (x.id.clone(), x.name.clone()))
                .unzip()
        };
        let n = ids.len();
        let mut c = Ctx {
            t,
            rules,
            format,
            order: order.to_string(),
            upto,
            n,
            ids,
            names,
            enc: vec![Vec::new(); n],
            annulled: vec![false; n],
            withdrawn: vec![false; n],
            places: None,
            scores: HashMap::new(),
            columns: HashMap::new(),
        };
        c.build();
        c
    }

    fn by_places(t: &'a Tournament, rules: &'a CompetitionRules, individual: Standings) -> Ctx<'a> {
        let n = t.teams.len();
        let mut places = vec![Vec::new(); n];
        let player: HashMap<&str, &super::tournament::Player> =
            t.players.iter().map(|p| (p.id.as_str(), p)).collect();
        for r in &individual.rows {
            if let Some(p) = player.get(r.entrant.as_str()) {
                if let Some(team) = p.team {
                    places[team].push(r.place);
                }
            }
        }
        for p in &mut places {
            p.sort_unstable();
        }
        let mut fouls = vec![0u32; n];
        for g in &t.games {
            for (p, f) in [(g.red, g.fouls[0]), (g.black, g.fouls[1])] {
                if let Some(team) = t.players[p].team {
                    fouls[team] += f;
                }
            }
        }
        Ctx {
            t,
            rules,
            format: &t.format,
            order: t.order.clone(),
            upto: t.rounds,
            n,
            ids: t.teams.iter().map(|x| x.id.clone()).collect(),
            names: t.teams.iter().map(|x| x.name.clone()).collect(),
            enc: vec![Vec::new(); n],
            annulled: vec![false; n],
            withdrawn: vec![false; n],
            places: Some(Places {
                places,
                fouls,
                individual,
            }),
            scores: HashMap::new(),
            columns: HashMap::new(),
        }
    }

    // -----------------------------------------------------------------------------------
    // Criteria

    fn rank_points(&self, e: &Encounter) -> f64 {
        match self.format.rank_by.primitive {
            Primitive::MatchPoints => e.match_points,
            _ => e.game_points,
        }
    }

    fn in_scope(&self, e: &Encounter, scope: Scope, cycle: u32) -> bool {
        let per = (self.t.rounds / self.format.cycles.max(1)).max(1);
        match scope {
            Scope::All => true,
            Scope::FirstCycle => e.round >= 1 && e.round <= per,
            Scope::CyclesSummed => e.round >= 1 && (e.round - 1) / per == cycle,
        }
    }

    /// Ranking scores of every entrant in a scope (and cycle).
    fn scores(&mut self, scope: Scope, cycle: u32) -> &Vec<f64> {
        if !self.scores.contains_key(&(scope, cycle)) {
            let v: Vec<f64> = (0..self.n)
                .map(|i| {
                    self.enc[i]
                        .iter()
                        .filter(|e| self.in_scope(e, scope, cycle))
                        .map(|e| self.rank_points(e))
                        .sum()
                })
                .collect();
            self.scores.insert((scope, cycle), v);
        }
        &self.scores[&(scope, cycle)]
    }

    fn sum<F: Fn(&Encounter) -> f64>(&self, i: usize, scope: Scope, f: F) -> f64 {
        self.enc[i]
            .iter()
            .filter(|e| self.in_scope(e, scope, 0))
            .map(f)
            .sum()
    }

    /// The bye's 对手分 (14.4).
    fn bye_opponent_score(&mut self) -> f64 {
        let Some(rule) = self.rules.bye_opponent.clone() else {
            return 0.0;
        };
        let annulled = self.annulled.clone();
        let scores = self.scores(Scope::All, 0);
        let counts = |s: f64| match rule.value {
            ByeOpponentValue::LowestNonzeroScore => s > 0.0,
            ByeOpponentValue::LowestScore => true,
        };
        let low = scores
            .iter()
            .zip(&annulled)
            .filter(|(s, a)| counts(**s) && !**a)
            .map(|(s, _)| *s)
            .fold(f64::INFINITY, f64::min);
        let low = if low.is_finite() { low } else { 0.0 };
        let factor = match rule.reduced {
            Some(r) if self.t.rounds < r.rounds_below || (self.n as u32) < r.entrants_below => {
                r.factor
            }
            _ => rule.factor,
        };
        low * factor
    }

    /// 小分 (`opponents == false`) or 对手分 (`true`) of every entrant in a scope.
    fn column(&mut self, scope: Scope, opponents: bool) -> &Vec<f64> {
        if !self.columns.contains_key(&(scope, opponents)) {
            let v = if opponents {
                self.opponent_scores(scope)
            } else {
                self.beaten_opponents(scope)
            };
            self.columns.insert((scope, opponents), v);
        }
        &self.columns[&(scope, opponents)]
    }

    fn beaten_opponents(&mut self, scope: Scope) -> Vec<f64> {
        let cycles = if scope == Scope::CyclesSummed {
            self.format.cycles
        } else {
            1
        };
        let mut total = vec![0.0; self.n];
        for cycle in 0..cycles {
            let s = self.scores(scope, cycle).clone();
            for (i, t) in total.iter_mut().enumerate() {
                *t += self.enc[i]
                    .iter()
                    .filter(|e| self.in_scope(e, scope, cycle))
                    .filter_map(|e| {
                        let o = e.opponent?;
                        match e.outcome {
                            Outcome::Win => Some(s[o]),
                            Outcome::Draw => Some(s[o] / 2.0),
                            Outcome::Loss => None,
                        }
                    })
                    .sum::<f64>();
            }
        }
        total
    }

    fn opponent_scores(&mut self, scope: Scope) -> Vec<f64> {
        let bye = self.bye_opponent_score();
        let s = self.scores(scope, 0).clone();
        // 10.4.3.3 as data: whether a finalist counts with the final's slow game.
        let without_final = self
            .rules
            .n_plus_one
            .is_some_and(|r| !r.final_counts_in_opponent_scores);
        let final_points: Vec<f64> = (0..self.n)
            .map(|o| {
                if without_final {
                    self.enc[o]
                        .iter()
                        .filter(|e| e.is_final)
                        .map(|e| self.rank_points(e))
                        .sum()
                } else {
                    0.0
                }
            })
            .collect();
        (0..self.n)
            .map(|i| {
                self.enc[i]
                    .iter()
                    .filter(|e| self.in_scope(e, scope, 0))
                    .map(|e| match e.opponent {
                        Some(o) => s[o] - final_points[o],
                        None => bye,
                    })
                    .sum()
            })
            .collect()
    }

    /// Running score after each round 1..=upto.
    fn running(&self, i: usize) -> Vec<f64> {
        let mut per = vec![0.0; self.upto as usize + 1];
        for e in &self.enc[i] {
            if e.round >= 1 && e.round <= self.upto {
                per[e.round as usize] += self.rank_points(e);
            }
        }
        let mut acc = 0.0;
        per[1..]
            .iter()
            .map(|p| {
                acc += p;
                acc
            })
            .collect()
    }

    /// The value of a criterion that does not depend on who is tied.
    fn value(&mut self, c: &Criterion, i: usize, prev_places: &mut Option<Vec<Vec<f64>>>) -> Value {
        let scope = c.scope;
        if let Some(p) = &self.places {
            let list = &p.places[i];
            return match c.primitive {
                Primitive::PlaceSum => Value::Number(list.iter().map(|&x| x as f64).sum()),
                Primitive::BestPlace => list
                    .first()
                    .map(|&x| Value::Number(x as f64))
                    .unwrap_or(Value::None),
                Primitive::SecondBestPlace => list
                    .get(1)
                    .map(|&x| Value::Number(x as f64))
                    .unwrap_or(Value::None),
                Primitive::Fouls => Value::Number(p.fouls[i] as f64),
                _ => Value::None,
            };
        }
        Value::Number(match c.primitive {
            Primitive::GamePoints => self.sum(i, scope, |e| e.game_points),
            Primitive::MatchPoints => self.sum(i, scope, |e| e.match_points),
            Primitive::GamesWon => self.sum(i, scope, |e| e.games_won as f64),
            Primitive::MatchesWon => {
                let team = self.format.unit == Unit::Match;
                self.sum(i, scope, |e| {
                    if team && e.outcome == Outcome::Win {
                        1.0
                    } else {
                        0.0
                    }
                })
            }
            Primitive::Fouls => self.sum(i, scope, |e| e.fouls as f64),
            Primitive::BlackGames => self.sum(i, scope, |e| e.black_games as f64),
            Primitive::BlackWins => self.sum(i, scope, |e| e.black_wins as f64),
            Primitive::BeatenOpponents => self.column(scope, false)[i],
            Primitive::OpponentScores => self.column(scope, true)[i],
            Primitive::Progressive => self.running(i).iter().sum(),
            Primitive::ProgressiveCut => {
                let run = self.running(i);
                let total: f64 = run.iter().sum();
                let mut cut = 0.0;
                let v: Vec<f64> = run
                    .iter()
                    .take(run.len().saturating_sub(1))
                    .map(|r| {
                        cut += r;
                        total - cut
                    })
                    .collect();
                return Value::Sequence(v);
            }
            Primitive::PreviousRoundScores => {
                let run = self.running(i);
                return Value::Sequence(run.iter().rev().skip(1).copied().collect());
            }
            Primitive::PreviousRoundPlaces => {
                if prev_places.is_none() {
                    // Places after rounds upto-1, upto-2, … 1, under this same order.
                    let mut per_entrant = vec![Vec::new(); self.n];
                    for k in (1..self.upto).rev() {
                        let st =
                            Ctx::new(self.t, self.rules, self.format, &self.order, k).standings();
                        let place_of: HashMap<&str, u32> = st
                            .rows
                            .iter()
                            .map(|r| (r.entrant.as_str(), r.place))
                            .collect();
                        for (j, id) in self.ids.iter().enumerate() {
                            let place = place_of
                                .get(id.as_str())
                                .map(|&p| p as f64)
                                .unwrap_or(f64::INFINITY);
                            per_entrant[j].push(place);
                        }
                    }
                    *prev_places = Some(per_entrant);
                }
                return Value::Sequence(
                    prev_places
                        .as_ref()
                        .map(|p| p[i].clone())
                        .unwrap_or_default(),
                );
            }
            Primitive::DirectEncounter
            | Primitive::BlackAgainstTied
            | Primitive::PlaceSum
            | Primitive::BestPlace
            | Primitive::SecondBestPlace => return Value::None,
        })
    }

    /// The value of a criterion computed among the tied `group`.
    fn value_among(&self, c: &Criterion, i: usize, group: &HashSet<usize>) -> Value {
        let among = |e: &&Encounter| {
            e.opponent.is_some_and(|o| group.contains(&o)) && self.in_scope(e, c.scope, 0)
        };
        match c.primitive {
            Primitive::DirectEncounter => Value::Number(
                self.enc[i]
                    .iter()
                    .filter(among)
                    .map(|e| self.rank_points(e))
                    .sum(),
            ),
            Primitive::BlackAgainstTied if group.len() == 2 => Value::Number(
                self.enc[i]
                    .iter()
                    .filter(among)
                    .map(|e| e.black_games as f64)
                    .sum(),
            ),
            _ => Value::None,
        }
    }

    /// The sanctions of 18.5 of every entrant: how many of each kind (heaviest first).
    fn sanctions(&self) -> Vec<Value> {
        let kinds = self.rules.sanctions.as_ref().map(|k| k.len()).unwrap_or(0);
        let mut v = vec![vec![0.0; kinds]; self.n];
        // 队员总分制: a player's sanction counts for the team (inferred).
        let owner = |s: &super::tournament::Sanction| {
            if self.places.is_some() {
                self.t.players[s.entrant].team
            } else {
                Some(s.entrant)
            }
        };
        for s in &self.t.sanctions {
            if let Some(count) = owner(s)
                .and_then(|i| v.get_mut(i))
                .and_then(|c| c.get_mut(s.kind))
            {
                *count += 1.0;
            }
        }
        v.into_iter().map(Value::Sequence).collect()
    }

    // -----------------------------------------------------------------------------------
    // Ranking

    /// The standings: entrants ranked along the chain (ranking score, sanctions, the
    /// order's criteria), the N+1 final's places first, annulled entrants listed apart.
    fn standings(mut self) -> Standings {
        let chain = self.ranking_chain();
        let labels: Vec<String> = chain.iter().map(Step::label).collect();
        let ranked: Vec<usize> = (0..self.n).filter(|&i| !self.annulled[i]).collect();
        let mut values = self.chain_values(&chain, &ranked);
        let better: Vec<Better> = chain.iter().map(Step::better).collect();
        let mut blocks = self.split_ties(&chain, ranked, &mut values, &better, &labels);
        self.final_first(&mut blocks);
        let rows = self.rows(&blocks, &values, &labels);
        Standings {
            ruleset: self.rules.ruleset.clone(),
            format: self.format.name.clone(),
            clause: self.format.clause.clone(),
            order: self.order.clone(),
            criteria: labels,
            rows,
            annulled: (0..self.n)
                .filter(|&i| self.annulled[i])
                .map(|i| self.ids[i].clone())
                .collect(),
            individual: self.places.take().map(|p| Box::new(p.individual)),
        }
    }

    /// The chain: ranking score, sanctions (18.5), then the order; sanctions after the
    /// order's criteria where the rules place them among the tie-breaks.
    fn ranking_chain(&self) -> Vec<Step> {
        let order: Vec<Criterion> = self
            .format
            .orders
            .get(&self.order)
            .cloned()
            .unwrap_or_default();
        let mut chain = vec![Step::Crit(self.format.rank_by.clone())];
        let sanctions = self.rules.sanctions.is_some();
        if sanctions && self.rules.sanctions_after == SanctionPlace::RankBy {
            chain.push(Step::Sanctions);
        }
        chain.extend(order.into_iter().map(Step::Crit));
        if sanctions && self.rules.sanctions_after == SanctionPlace::Tiebreaks {
            chain.push(Step::Sanctions);
        }
        chain
    }

    /// Values of every step that does not depend on the group, for every ranked entrant
    /// (the others `None` until the group is known).
    fn chain_values(&mut self, chain: &[Step], ranked: &[usize]) -> Vec<Vec<Value>> {
        let mut values: Vec<Vec<Value>> = vec![vec![Value::None; chain.len()]; self.n];
        let mut prev_places = None;
        let sanctions = if chain.iter().any(|s| matches!(s, Step::Sanctions)) {
            self.sanctions()
        } else {
            Vec::new()
        };
        for (k, step) in chain.iter().enumerate() {
            for &i in ranked {
                values[i][k] = match step {
                    Step::Sanctions => sanctions[i].clone(),
                    Step::Crit(c) if c.primitive.among_tied() => Value::None,
                    Step::Crit(c) => self.value(c, i, &mut prev_places),
                };
            }
        }
        values
    }

    /// Split groups criterion by criterion (a criterion among the tied computed for each
    /// group); each block: members and the label that separates it from the block above,
    /// best first.
    fn split_ties(
        &self,
        chain: &[Step],
        ranked: Vec<usize>,
        values: &mut [Vec<Value>],
        better: &[Better],
        labels: &[String],
    ) -> Vec<Block> {
        let mut blocks: Vec<Block> = Vec::new();
        let mut stack: Vec<(Vec<usize>, usize, Option<String>)> = vec![(ranked, 0, None)];
        while let Some((mut group, k, label)) = stack.pop() {
            if k == chain.len() || (group.len() == 1 && k > 0) {
                blocks.push(Block {
                    members: group,
                    label,
                });
                continue;
            }
            if let Step::Crit(c) = &chain[k] {
                if c.primitive.among_tied() && group.len() > 1 {
                    let members: HashSet<usize> = group.iter().copied().collect();
                    for &i in &group {
                        values[i][k] = self.value_among(c, i, &members);
                    }
                }
            }
            group.sort_by(|&a, &b| {
                values[a][k]
                    .rank_cmp(&values[b][k], better[k])
                    .then(a.cmp(&b))
            });
            let mut runs: Vec<Vec<usize>> = Vec::new();
            for &i in &group {
                match runs.last_mut() {
                    Some(r) if values[r[0]][k].rank_cmp(&values[i][k], better[k]).is_eq() => {
                        r.push(i)
                    }
                    _ => runs.push(vec![i]),
                }
            }
            // Pushed in reverse so that the best run is handled (and emitted) first.
            for (j, run) in runs.into_iter().enumerate().rev() {
                let l = if j == 0 {
                    label.clone()
                } else {
                    Some(labels[k].clone())
                };
                stack.push((run, k + 1, l));
            }
        }
        blocks
    }

    /// N+1: the final decides places 1 and 2 (10.4.3): its winner and loser head the blocks.
    fn final_first(&self, blocks: &mut Vec<Block>) {
        if self.rules.n_plus_one.is_some() && self.format.entrants == Entrants::Players {
            if let Some(g) = self
                .t
                .games
                .iter()
                .find(|g| g.is_final && g.round <= self.upto)
            {
                let winner = match g.result.winner() {
                    Some(Side::Red) => g.red,
                    Some(Side::Black) => g.black,
                    None => g.play_off_winner.unwrap_or(g.red),
                };
                let loser = if winner == g.red { g.black } else { g.red };
                for b in blocks.iter_mut() {
                    b.members.retain(|&m| m != winner && m != loser);
                }
                blocks.retain(|b| !b.members.is_empty());
                if let Some(first) = blocks.first_mut() {
                    first.label = Some(FINAL.into());
                }
                blocks.insert(
                    0,
                    Block {
                        members: vec![loser],
                        label: Some(FINAL.into()),
                    },
                );
                blocks.insert(
                    0,
                    Block {
                        members: vec![winner],
                        label: None,
                    },
                );
            }
        }
    }

    /// The rows of the standings, block by block: places, scores, the values of the
    /// criteria and what separated each entrant from the one above.
    fn rows(&self, blocks: &[Block], values: &[Vec<Value>], labels: &[String]) -> Vec<Row> {
        let mut rows = Vec::new();
        let mut place = 1u32;
        for b in blocks {
            let play_off = self.format.unresolved == Unresolved::PlayOff
                || self.rules.champion.as_ref().is_some_and(|c| {
                    c.unresolved == Unresolved::PlayOff && c.places.contains(&place)
                });
            for (j, &i) in b.members.iter().enumerate() {
                let separated_by = if j == 0 {
                    b.label.clone()
                } else if play_off {
                    Some(PLAY_OFF.into())
                } else {
                    Some(SHARED_PLACE.into())
                };
                rows.push(Row {
                    place,
                    entrant: self.ids[i].clone(),
                    name: self.names[i].clone(),
                    score: match &values[i][0] {
                        Value::Number(x) => *x,
                        _ => 0.0,
                    },
                    values: labels
                        .iter()
                        .cloned()
                        .zip(values[i].iter().cloned())
                        .filter(|(_, v)| *v != Value::None)
                        .collect(),
                    separated_by,
                    withdrawn: self.withdrawn[i],
                });
            }
            place += b.members.len() as u32;
        }
        rows
    }
}
