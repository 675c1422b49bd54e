//! Raw records → a validated [`Tournament`]: every record checked against the competition
//! rules (formats, entrants, line-ups, games, matches, byes, sanctions, withdrawals, the N+1
//! final), every error found reported at its place.

use super::raw::RawTeam;
use super::*;

mod games;

pub(super) struct Validator<'a> {
    rules: &'a CompetitionRules,
    errors: TournamentErrors,
}

/// Whether an id is empty or only blanks (names no one).
pub(super) fn blank(id: &str) -> bool {
    id.trim().is_empty()
}

pub(super) fn at(record: impl Into<String>) -> Place {
    Place {
        record: record.into(),
        ..Place::default()
    }
}

/// The players and teams of an event, with their ids.
pub(super) struct Roster {
    team_event: bool,
    players: Vec<Player>,
    pidx: HashMap<String, usize>,
    teams: Vec<Team>,
    tidx: HashMap<String, usize>,
}

impl Roster {
    /// The entrant (team or player, as the format ranks) an id names.
    fn entrant_index(&self, id: &str) -> Option<usize> {
        if self.team_event {
            self.tidx.get(id).copied()
        } else {
            self.pidx.get(id).copied()
        }
    }

    /// The id of entrant `i`.
    fn entrant_name(&self, i: usize) -> &str {
        if self.team_event {
            &self.teams[i].id
        } else {
            &self.players[i].id
        }
    }
}

/// A team event's line-up rule, its number of boards and its name.
type LineupRule = (crate::competition::data::Lineup, u32, String);

/// (round, entrant) → the record that booked it.
type Booked = HashMap<(u32, usize), String>;

impl Validator<'_> {
    fn push(
        &mut self,
        kind: TournamentErrorKind,
        record: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.errors.push(TournamentError {
            kind,
            place: at(record),
            message: message.into(),
        });
    }

    fn format(&mut self, name: &str, record: &str) -> Option<Format> {
        match self.rules.formats.get(name) {
            Some(f) => Some(f.clone()),
            None => {
                let known: Vec<&str> = self.rules.formats.keys().map(String::as_str).collect();
                self.push(
                    TournamentErrorKind::UnknownFormat,
                    record,
                    format!(
                        "`{name}` is not a format of {} (it has: {})",
                        self.rules.ruleset,
                        known.join(", ")
                    ),
                );
                None
            }
        }
    }

    /// Validates the records in the rules' order: format and rounds, entrants, line-up, games, byes, sanctions, withdrawals, the N+1 final.
    fn run(mut self, raw: &RawTournament) -> Result<Tournament, TournamentErrors> {
        let Some((format, individual_format, order)) = self.format_and_rounds(raw) else {
            return Err(self.errors);
        };
        let team_event = format.entrants == Entrants::Teams;
        let game_format = individual_format.clone().unwrap_or_else(|| format.clone());
        let roster = self.entrants(raw, &format);
        let lineup = self.lineup(raw, &roster);
        // Rounds in which each entrant is booked, to catch double bookings.
        let mut booked: Booked = HashMap::new();
        let (games, matches) = if team_event {
            self.team_matches(raw, &roster, &lineup, &mut booked)
        } else {
            (
                self.individual_games(raw, &roster, &game_format, &mut booked),
                Vec::new(),
            )
        };
        let byes = self.byes(raw, &roster, &game_format, &mut booked);
        let sanctions = self.sanctions(raw, &roster);
        let withdrawals = self.withdrawals(raw, &roster, &game_format, &games, &matches, &byes);
        self.n_plus_one_final(raw, &games, &game_format, team_event);

        if self.errors.is_empty() {
            Ok(Tournament {
                name: raw.name.clone(),
                format,
                order,
                individual_format,
                rounds: raw.rounds,
                players: roster.players,
                teams: roster.teams,
                games,
                matches,
                byes,
                sanctions,
                withdrawals,
            })
        } else {
            Err(self.errors)
        }
    }

    /// The format, the individual format of a 队员总分制 event, the order and the number of rounds; `None` stops the validation.
    fn format_and_rounds(
        &mut self,
        raw: &RawTournament,
    ) -> Option<(Format, Option<Format>, String)> {
        use TournamentErrorKind::*;
        let format = self.format(&raw.format, "format");
        let individual_format = match (&format, &raw.individual_format) {
            (Some(f), Some(n)) if f.entrants == Entrants::TeamsByPlayerPlaces => {
                let inf = self.format(n, "individual_format");
                if let Some(i) = &inf {
                    if i.entrants != Entrants::Players {
                        self.push(
                            UnknownFormat,
                            "individual_format",
                            format!("`{n}` does not rank individual players"),
                        );
                    }
                }
                inf
            }
            (Some(f), None) if f.entrants == Entrants::TeamsByPlayerPlaces => {
                self.push(UnknownFormat, "individual_format", format!("format `{}` (队员总分制) needs `individual_format`, the format of the individual event", raw.format));
                None
            }
            (Some(_), Some(_)) => {
                self.push(
                    UnknownFormat,
                    "individual_format",
                    "only 队员总分制 formats take `individual_format`",
                );
                None
            }
            _ => None,
        };
        let order = match (&format, &raw.order) {
            (Some(f), Some(o)) if !f.orders.contains_key(o) => {
                let names: Vec<&str> = f.orders.keys().map(String::as_str).collect();
                self.push(
                    UnknownOrder,
                    "order",
                    format!(
                        "`{}` names no order of {} (it has: {})",
                        o,
                        f.clause,
                        names.join(", ")
                    ),
                );
                o.clone()
            }
            (Some(_), Some(o)) => o.clone(),
            (Some(f), None) => f.default_order.clone(),
            (None, _) => String::new(),
        };
        if raw.rounds == 0 {
            self.push(UnknownRound, "rounds", "an event has at least one round");
        } else if raw.rounds > MAX_ROUNDS {
            self.push(
                UnknownRound,
                "rounds",
                format!(
                    "{} rounds: an event has at most {MAX_ROUNDS} (MAX_ROUNDS)",
                    raw.rounds
                ),
            );
            return None;
        }
        let format = format?;
        if format.cycles > 1 && !raw.rounds.is_multiple_of(format.cycles) {
            self.push(
                UnknownRound,
                "rounds",
                format!(
                    "{} rounds cannot be split into {} cycles",
                    raw.rounds, format.cycles
                ),
            );
        }
        Some((format, individual_format, order))
    }

    /// The players and teams: ids, registrations, and the entrants the format ranks.
    fn entrants(&mut self, raw: &RawTournament, format: &Format) -> Roster {
        let by_places = format.entrants == Entrants::TeamsByPlayerPlaces;
        let mut roster = Roster {
            team_event: format.entrants == Entrants::Teams,
            players: Vec::new(),
            pidx: HashMap::new(),
            teams: Vec::new(),
            tidx: HashMap::new(),
        };
        self.listed_players(raw, &mut roster);
        for (i, t) in raw.teams.iter().enumerate() {
            self.team(i, t, &mut roster);
        }
        self.entrants_fit_format(raw, &roster, by_places);
        roster
    }

    /// Entry `i` of the list of `what`s names itself by `id`: not blank, and not listed
    /// before (`listed`, asked only of an id that is not blank). Says what is wrong; `true`
    /// when the id is good.
    fn id_given_once(
        &mut self,
        i: usize,
        what: &str,
        id: &str,
        listed: impl FnOnce(&str) -> bool,
    ) -> bool {
        use TournamentErrorKind::*;
        let (kind, message) = if blank(id) {
            (
                EmptyId,
                format!("{what} id `{id}` is empty: an id names the {what}"),
            )
        } else if listed(id) {
            (Duplicate, format!("{what} `{id}` is listed twice"))
        } else {
            return true;
        };
        self.push(kind, format!("{what}s[{i}]"), message);
        false
    }

    /// The entrant `found` for the id `entrant` at `rec`, or the error that it is not listed.
    fn listed(&mut self, found: Option<usize>, entrant: &str, rec: &str) -> Option<usize> {
        if found.is_none() {
            self.push(
                TournamentErrorKind::UnknownEntrant,
                rec,
                format!("`{entrant}` is not listed"),
            );
        }
        found
    }

    /// The players listed under `players`: each id given once and not blank.
    fn listed_players(&mut self, raw: &RawTournament, roster: &mut Roster) {
        for (i, p) in raw.players.iter().enumerate() {
            let next = roster.players.len();
            if !self.id_given_once(i, "player", &p.id, |id| {
                roster.pidx.insert(id.to_string(), next).is_some()
            }) {
                continue;
            }
            roster.players.push(Player {
                id: p.id.clone(),
                name: p.name.clone(),
                team: None,
            });
        }
    }

    /// Team `i` of `teams`: its id given once and not blank, and its registered players.
    fn team(&mut self, i: usize, t: &RawTeam, roster: &mut Roster) {
        if !self.id_given_once(i, "team", &t.id, |id| roster.tidx.contains_key(id)) {
            return;
        }
        let ti = roster.teams.len();
        roster.tidx.insert(t.id.clone(), ti);
        let mut list = Vec::new();
        for (j, p) in t.players.iter().enumerate() {
            if let Some(k) = self.team_member(i, j, p, t, ti, roster) {
                list.push(k);
            }
        }
        roster.teams.push(Team {
            id: t.id.clone(),
            name: t.name.clone(),
            players: list,
        });
    }

    /// Player `p` (the `j`th of team `i`, numbered `ti` among the teams read) registered for
    /// the team: its id not blank, a player not listed under `players` added, and in no
    /// other team. Its index among the players, or `None` when it cannot be registered.
    fn team_member(
        &mut self,
        i: usize,
        j: usize,
        p: &String,
        t: &RawTeam,
        ti: usize,
        roster: &mut Roster,
    ) -> Option<usize> {
        use TournamentErrorKind::*;
        if blank(p) {
            self.push(
                EmptyId,
                format!("teams[{i}].players[{j}]"),
                format!(
                    "player id `{p}` of team `{}` is empty: an id names the player",
                    t.id
                ),
            );
            return None;
        }
        let players = &mut roster.players;
        let k = match roster.pidx.get(p) {
            Some(&k) => k,
            None => {
                roster.pidx.insert(p.clone(), players.len());
                players.push(Player {
                    id: p.clone(),
                    name: None,
                    team: None,
                });
                players.len() - 1
            }
        };
        if let Some(other) = players[k].team {
            let o = roster
                .teams
                .get(other)
                .map(|t| t.id.clone())
                .unwrap_or_else(|| t.id.clone());
            self.push(
                Duplicate,
                format!("teams[{i}].players"),
                format!("player `{p}` is registered for `{o}` and `{}`", t.id),
            );
            return None;
        }
        players[k].team = Some(ti);
        Some(k)
    }

    /// Whether the entrants suit the format: teams listed for a format that ranks teams
    /// (every player in one where players score for their team's places), none for one
    /// that ranks players.
    fn entrants_fit_format(&mut self, raw: &RawTournament, roster: &Roster, by_places: bool) {
        use TournamentErrorKind::*;
        let team_event = roster.team_event;
        if (team_event || by_places) && roster.teams.is_empty() {
            self.push(
                UnknownEntrant,
                "teams",
                format!(
                    "format `{}` ranks teams: list them under `teams`",
                    raw.format
                ),
            );
        }
        if !team_event && !by_places && !raw.teams.is_empty() {
            self.push(
                UnknownFormat,
                "teams",
                format!(
                    "format `{}` ranks players; `teams` belong to team formats",
                    raw.format
                ),
            );
        }
        if by_places {
            if let Some((i, p)) = roster
                .players
                .iter()
                .enumerate()
                .find(|(_, p)| p.team.is_none())
            {
                self.push(
                    UnknownEntrant,
                    format!("players[{i}]"),
                    format!("player `{}` belongs to no team (队员总分制)", p.id),
                );
            }
        }
    }

    /// The line-up rule of a team event and each team's registration against its boards.
    fn lineup(&mut self, raw: &RawTournament, roster: &Roster) -> Option<LineupRule> {
        use TournamentErrorKind::*;
        let lineup = if roster.team_event {
            match (&raw.lineup, raw.boards) {
                (Some(l), Some(b)) if b > 0 => match self.rules.lineups.get(l) {
                    Some(rule) => Some((rule.clone(), b, l.clone())),
                    None => {
                        let known: Vec<&str> =
                            self.rules.lineups.keys().map(String::as_str).collect();
                        self.push(
                            NoRule,
                            "lineup",
                            format!(
                                "`{l}` is not a line-up system of {} (it has: {})",
                                self.rules.ruleset,
                                known.join(", ")
                            ),
                        );
                        None
                    }
                },
                _ => {
                    self.push(
                        Lineup,
                        "boards",
                        "a team event gives `boards` (at least 1) and `lineup`",
                    );
                    None
                }
            }
        } else {
            None
        };
        if let Some((rule, boards, name)) = &lineup {
            for (i, t) in roster.teams.iter().enumerate() {
                if (t.players.len() as u32) < *boards {
                    self.push(
                        Lineup,
                        format!("teams[{i}].players"),
                        format!(
                            "team `{}` registers {} players for {boards} boards",
                            t.id,
                            t.players.len()
                        ),
                    );
                } else if !rule.reserves && t.players.len() as u32 > *boards {
                    self.push(
                        Lineup,
                        format!("teams[{i}].players"),
                        format!(
                            "team `{}` registers reserves, which `{name}` does not allow",
                            t.id
                        ),
                    );
                }
            }
        }
        lineup
    }

    /// The byes: each for a listed entrant, under a bye rule of the format.
    fn byes(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        game_format: &Format,
        booked: &mut Booked,
    ) -> Vec<(u32, usize)> {
        use TournamentErrorKind::*;
        let team_event = roster.team_event;
        let mut byes = Vec::new();
        for (i, b) in raw.byes.iter().enumerate() {
            let rec = format!("byes[{i}]");
            let ok_round = self.round_ok(raw, b.round, &rec);
            let Some(e) = self.listed(roster.entrant_index(&b.entrant), &b.entrant, &rec) else {
                continue;
            };
            let scored_rule = if team_event {
                self.rules.bye_team_score
            } else {
                self.rules.bye_score
            };
            match game_format.byes {
                Byes::Unstated => {
                    self.push(
                        NoRule,
                        &rec,
                        format!(
                            "{} has no rule on byes for `{}`",
                            self.rules.ruleset, game_format.name
                        ),
                    );
                    continue;
                }
                Byes::Scored if scored_rule.is_none() => {
                    let id = if team_event {
                        "bye.team_score"
                    } else {
                        "bye.score"
                    };
                    self.push(
                        NoRule,
                        &rec,
                        format!(
                            "{} has no `{id}` clause: a bye cannot be scored",
                            self.rules.ruleset
                        ),
                    );
                    continue;
                }
                _ => {}
            }
            if ok_round {
                self.book(booked, b.round, e, roster.entrant_name(e), &rec);
            }
            byes.push((b.round, e));
        }
        byes
    }

    /// The sanctions: each for a listed entrant (a player's counts for the team), of a kind `sanction.ranking` names.
    fn sanctions(&mut self, raw: &RawTournament, roster: &Roster) -> Vec<Sanction> {
        use TournamentErrorKind::*;
        let mut sanctions = Vec::new();
        for (i, s) in raw.sanctions.iter().enumerate() {
            let rec = format!("sanctions[{i}]");
            if let Some(r) = s.round {
                self.round_ok(raw, r, &rec);
            }
            // In a team event a player's sanction counts for the team.
            let e = roster.entrant_index(&s.entrant).or_else(|| {
                if roster.team_event {
                    roster
                        .pidx
                        .get(&s.entrant)
                        .and_then(|&p| roster.players[p].team)
                } else {
                    None
                }
            });
            let Some(e) = self.listed(e, &s.entrant, &rec) else {
                continue;
            };
            let Some(kinds) = &self.rules.sanctions else {
                self.push(
                    NoRule,
                    &rec,
                    format!("{} has no `sanction.ranking` clause", self.rules.ruleset),
                );
                continue;
            };
            match kinds.iter().position(|k| k.kind == s.kind) {
                Some(kind) => sanctions.push(Sanction { entrant: e, kind }),
                None => {
                    let known: Vec<&str> = kinds.iter().map(|k| k.kind.as_str()).collect();
                    self.push(
                        UnknownValue,
                        &rec,
                        format!("sanction kind `{}` is none of {}", s.kind, known.join(", ")),
                    );
                }
            }
        }
        sanctions
    }

    /// The withdrawals: each once, under a withdrawal rule, with no result after it.
    fn withdrawals(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        game_format: &Format,
        games: &[Game],
        matches: &[Match],
        byes: &[(u32, usize)],
    ) -> Vec<(usize, u32)> {
        use TournamentErrorKind::*;
        let mut withdrawals: Vec<(usize, u32)> = Vec::new();
        // Entrant → (after round, index of its withdrawal record).
        let mut withdrawn: HashMap<usize, (u32, usize)> = HashMap::new();
        for (i, w) in raw.withdrawals.iter().enumerate() {
            let rec = format!("withdrawals[{i}]");
            if w.after_round > raw.rounds {
                self.push(
                    UnknownRound,
                    &rec,
                    format!(
                        "round {} is not a round of this event (1–{})",
                        w.after_round, raw.rounds
                    ),
                );
            }
            let Some(e) = self.listed(roster.entrant_index(&w.entrant), &w.entrant, &rec) else {
                continue;
            };
            let system = game_format.system;
            if system.is_none_or(|s| !self.rules.withdrawal.contains_key(&s)) {
                self.push(
                    NoRule,
                    &rec,
                    format!(
                        "{} has no withdrawal rule for `{}`",
                        self.rules.ruleset, game_format.name
                    ),
                );
                continue;
            }
            if withdrawn.contains_key(&e) {
                self.push(Withdrawal, &rec, format!("`{}` withdraws twice", w.entrant));
                continue;
            }
            withdrawn.insert(e, (w.after_round, i));
            withdrawals.push((e, w.after_round));
        }
        // The first result of each withdrawn entrant after its withdrawal: games (matches)
        // in their order, then byes; one pass over the records.
        let mut late: HashMap<usize, u32> = HashMap::new();
        let results: Box<dyn Iterator<Item = (u32, usize)> + '_> = if roster.team_event {
            Box::new(matches.iter().flat_map(|m| m.teams.map(|t| (m.round, t))))
        } else {
            Box::new(
                games
                    .iter()
                    .flat_map(|g| [(g.round, g.red), (g.round, g.black)])
                    .chain(byes.iter().copied()),
            )
        };
        for (round, e) in results {
            if withdrawn.get(&e).is_some_and(|&(after, _)| round > after) {
                late.entry(e).or_insert(round);
            }
        }
        for &(e, after) in &withdrawals {
            if let (Some(r), Some(&(_, i))) = (late.get(&e), withdrawn.get(&e)) {
                self.push(
                    Withdrawal,
                    format!("withdrawals[{i}]"),
                    format!(
                        "`{}` withdrew after round {after} but has a result in round {r}",
                        roster.entrant_name(e)
                    ),
                );
            }
        }
        withdrawals
    }

    /// The N+1 final: one, in the last round of an individual Swiss event, a drawn one decided by play-off.
    fn n_plus_one_final(
        &mut self,
        raw: &RawTournament,
        games: &[Game],
        game_format: &Format,
        team_event: bool,
    ) {
        use TournamentErrorKind::*;
        let finals: Vec<usize> = games
            .iter()
            .enumerate()
            .filter(|(_, g)| g.is_final)
            .map(|(i, _)| i)
            .collect();
        if !finals.is_empty() {
            let rec = raw
                .games
                .iter()
                .position(|g| g.r#final)
                .map(|i| format!("games[{i}]"))
                .unwrap_or_default();
            if self.rules.n_plus_one.is_none() {
                self.push(
                    NoRule,
                    &rec,
                    format!(
                        "{} has no N+1 format (`format.n_plus_one`)",
                        self.rules.ruleset
                    ),
                );
            } else if finals.len() > 1 {
                self.push(DoubleBooking, &rec, "an N+1 event has one final");
            } else if game_format.system != Some(System::Swiss) || team_event {
                self.push(NoRule, &rec, "an N+1 final ends an individual Swiss event");
            } else {
                let g = &games[finals[0]];
                if g.round != raw.rounds {
                    self.push(
                        UnknownRound,
                        &rec,
                        format!("the final is played in the last round ({})", raw.rounds),
                    );
                }
                if g.result == GameResult::Draw && g.play_off_winner.is_none() {
                    self.push(NoRule, &rec, "a drawn final gives `play_off_winner` (the play-off decides places 1 and 2)");
                }
            }
        }
    }
}

impl Tournament {
    /// Validates raw records under `rules`; every error found is returned.
    pub fn validate(
        raw: &RawTournament,
        rules: &CompetitionRules,
    ) -> Result<Tournament, TournamentErrors> {
        Validator {
            rules,
            errors: TournamentErrors::default(),
        }
        .run(raw)
    }
}
