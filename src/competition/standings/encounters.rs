//! Each entrant's encounters round by round: the points and outcome of each game, match and
//! bye, sanctions' fouls, and what a withdrawal does to the games before and after it.

use super::*;

impl Ctx<'_> {
    pub(super) fn game_points(&self, result: GameResult) -> [(f64, Outcome); 2] {
        let g = &self.rules.game;
        match result {
            GameResult::RedWins => [(g.win, Outcome::Win), (g.loss, Outcome::Loss)],
            GameResult::BlackWins => [(g.loss, Outcome::Loss), (g.win, Outcome::Win)],
            GameResult::Draw => [(g.draw_red, Outcome::Draw), (g.draw_black, Outcome::Draw)],
            // A tournament file's results are decided: `ongoing` and `replay` never get here.
            GameResult::BothLose | GameResult::Ongoing | GameResult::Replay => {
                [(g.loss, Outcome::Loss), (g.loss, Outcome::Loss)]
            }
        }
    }

    /// The match points and outcome of a side whose decider (`scoring.match.decided_by`)
    /// is `mine` against `theirs`.
    pub(super) fn match_outcome(&self, mine: f64, theirs: f64) -> (f64, Outcome) {
        let m = &self.rules.match_scoring;
        if mine > theirs {
            (m.win, Outcome::Win)
        } else if mine < theirs {
            (m.loss, Outcome::Loss)
        } else {
            (m.draw, Outcome::Draw)
        }
    }

    /// One side's share of a game: (game points, outcome, won, black game, black win, fouls).
    pub(super) fn side(&self, g: &crate::competition::tournament::Game, s: usize) -> Encounter {
        let (gp, outcome) = self.game_points(g.result)[s];
        let played = g.played;
        let won = u32::from(outcome == Outcome::Win && g.result != GameResult::BothLose);
        Encounter {
            round: g.round,
            opponent: None,
            outcome,
            game_points: gp,
            match_points: 0.0,
            games_won: won,
            black_games: u32::from(s == 1 && played),
            black_wins: u32::from(s == 1 && played && won == 1),
            fouls: g.fouls[s],
            is_final: g.is_final,
        }
    }

    pub(super) fn build(&mut self) {
        let t = self.t;
        let team = self.format.entrants == Entrants::Teams;
        let upto = self.upto;
        if team {
            for m in t.matches.iter().filter(|m| m.round <= upto) {
                let mut sides = [Self::empty(m.round), Self::empty(m.round)];
                for &gi in &m.games {
                    let g = &t.games[gi];
                    for (s, p) in [(0usize, g.red), (1, g.black)] {
                        let e = self.side(g, s);
                        let k = if t.players[p].team == Some(m.teams[0]) {
                            0
                        } else {
                            1
                        };
                        Self::add(&mut sides[k], &e);
                    }
                }
                self.push_match(m.teams, sides);
            }
        } else if self.format.unit == Unit::Match {
            // Individual mini-matches: the games of one pairing in one round.
            let mut groups: Vec<((u32, usize, usize), [Encounter; 2])> = Vec::new();
            let mut group_of: HashMap<(u32, usize, usize), usize> = HashMap::new();
            for g in t.games.iter().filter(|g| g.round <= upto) {
                let key = (g.round, g.red.min(g.black), g.red.max(g.black));
                let k = *group_of.entry(key).or_insert_with(|| {
                    groups.push((key, [Self::empty(g.round), Self::empty(g.round)]));
                    groups.len() - 1
                });
                for (s, p) in [(0usize, g.red), (1, g.black)] {
                    let e = self.side(g, s);
                    let slot = usize::from(p != key.1);
                    Self::add(&mut groups[k].1[slot], &e);
                }
            }
            for ((_, a, b), sides) in groups {
                self.push_match([a, b], sides);
            }
        } else {
            for g in t.games.iter().filter(|g| g.round <= upto) {
                for (s, p, o) in [(0usize, g.red, g.black), (1, g.black, g.red)] {
                    let mut e = self.side(g, s);
                    e.opponent = Some(o);
                    self.enc[p].push(e);
                }
            }
        }
        // Byes (validation refused them where the rules have none).
        if self.format.byes == crate::competition::data::Byes::Scored {
            for &(round, e) in t.byes.iter().filter(|b| b.0 <= upto) {
                // The bye rule validation checked (it refused a scored bye without one).
                let result = if team {
                    self.rules.bye_team_score
                } else {
                    self.rules.bye_score
                }
                .unwrap_or(ByeResult::Win);
                let enc = if team || self.format.unit == Unit::Match {
                    let m = &self.rules.match_scoring;
                    let points = result.score(m.win, m.draw, m.loss);
                    Encounter {
                        match_points: points,
                        ..Self::bye(round, result)
                    }
                } else {
                    let g = &self.rules.game;
                    let points = result.score(g.win, g.draw_red, g.loss);
                    Encounter {
                        game_points: points,
                        games_won: u32::from(result == ByeResult::Win),
                        ..Self::bye(round, result)
                    }
                };
                self.enc[e].push(enc);
            }
        }
        self.apply_withdrawals();
    }

    pub(super) fn empty(round: u32) -> Encounter {
        Encounter {
            round,
            opponent: None,
            outcome: Outcome::Draw,
            game_points: 0.0,
            match_points: 0.0,
            games_won: 0,
            black_games: 0,
            black_wins: 0,
            fouls: 0,
            is_final: false,
        }
    }

    pub(super) fn bye(round: u32, result: ByeResult) -> Encounter {
        let outcome = match result {
            ByeResult::Win => Outcome::Win,
            ByeResult::Draw => Outcome::Draw,
            ByeResult::Loss => Outcome::Loss,
        };
        Encounter {
            outcome,
            ..Self::empty(round)
        }
    }

    pub(super) fn add(to: &mut Encounter, e: &Encounter) {
        to.game_points += e.game_points;
        to.games_won += e.games_won;
        to.black_games += e.black_games;
        to.black_wins += e.black_wins;
        to.fouls += e.fouls;
    }

    pub(super) fn push_match(&mut self, who: [usize; 2], mut sides: [Encounter; 2]) {
        let decider = |e: &Encounter| match self.rules.match_scoring.decided_by {
            MatchDecider::GamePoints => e.game_points,
            MatchDecider::GamesWon => f64::from(e.games_won),
        };
        let (a, b) = (decider(&sides[0]), decider(&sides[1]));
        let ((ma, oa), (mb, ob)) = (self.match_outcome(a, b), self.match_outcome(b, a));
        sides[0].match_points = ma;
        sides[0].outcome = oa;
        sides[0].opponent = Some(who[1]);
        sides[1].match_points = mb;
        sides[1].outcome = ob;
        sides[1].opponent = Some(who[0]);
        let [x, y] = sides;
        self.enc[who[0]].push(x);
        self.enc[who[1]].push(y);
    }

    pub(super) fn apply_withdrawals(&mut self) {
        let Some(system) = self.format.system else {
            return;
        };
        let Some(rule) = self.rules.withdrawal.get(&system).copied() else {
            return;
        };
        let withdrawals: Vec<(usize, u32)> = self.t.withdrawals.clone();
        for (e, after) in withdrawals {
            if e >= self.n || after >= self.upto {
                continue; // ranking a round before the withdrawal
            }
            self.withdrawn[e] = true;
            let total = match system {
                System::RoundRobin => (self.n.saturating_sub(1)) as f64 * self.format.cycles as f64,
                System::Swiss => self.t.rounds as f64,
            };
            // Encounters with an entrant annulled before do not count: they are dropped
            // once, after the loop.
            let played = self.enc[e]
                .iter()
                .filter(|x| x.opponent.is_some_and(|o| !self.annulled[o]))
                .count() as f64;
            let effect = if played < rule.threshold * total {
                rule.fewer_than_threshold
            } else {
                rule.otherwise
            };
            match effect {
                WithdrawalEffect::AnnulResults => self.annulled[e] = true,
                WithdrawalEffect::ForfeitRemaining if system == System::RoundRobin => {
                    let unit_match =
                        self.format.unit == Unit::Match || self.format.entrants == Entrants::Teams;
                    let mut met: HashMap<usize, u32> = HashMap::new();
                    for o in self.enc[e].iter().filter_map(|x| x.opponent) {
                        *met.entry(o).or_default() += 1;
                    }
                    for o in 0..self.n {
                        if o == e || self.annulled[o] {
                            continue;
                        }
                        for _ in met.get(&o).copied().unwrap_or(0)..self.format.cycles {
                            let (win, loss) = if unit_match {
                                let m = &self.rules.match_scoring;
                                ((0.0, m.win), (0.0, m.loss))
                            } else {
                                ((self.rules.game.win, 0.0), (self.rules.game.loss, 0.0))
                            };
                            self.enc[o].push(Encounter {
                                opponent: Some(e),
                                outcome: Outcome::Win,
                                game_points: win.0,
                                match_points: win.1,
                                games_won: u32::from(!unit_match),
                                ..Self::empty(0)
                            });
                            self.enc[e].push(Encounter {
                                opponent: Some(o),
                                outcome: Outcome::Loss,
                                game_points: loss.0,
                                match_points: loss.1,
                                ..Self::empty(0)
                            });
                        }
                    }
                }
                // Swiss: the entrant is not paired again; nothing to add.
                WithdrawalEffect::ForfeitRemaining => {}
            }
        }
        // Annulled results: the entrant's, and every encounter against it.
        if self.annulled.contains(&true) {
            let annulled = &self.annulled;
            for (i, list) in self.enc.iter_mut().enumerate() {
                if annulled[i] {
                    list.clear();
                } else {
                    list.retain(|x| x.opponent.is_none_or(|o| !annulled[o]));
                }
            }
        }
    }
}
