//! The games of a tournament validated: each game's result and players, team matches and
//! their boards (line-ups fielded), individual games, each entrant booked once a round.

use super::*;

impl Validator<'_> {
    /// Books an entrant in a round; a second booking in the same round is an error.
    pub(super) fn book(
        &mut self,
        booked: &mut Booked,
        round: u32,
        who: usize,
        who_name: &str,
        record: &str,
    ) {
        if let Some(prev) = booked.insert((round, who), record.to_string()) {
            self.push(
                TournamentErrorKind::DoubleBooking,
                record,
                format!("`{who_name}` is already in {prev} in round {round}"),
            );
        }
    }

    /// Whether `round` is a round of the event; an error at `record` if not.
    pub(super) fn round_ok(&mut self, raw: &RawTournament, round: u32, record: &str) -> bool {
        if round == 0 || round > raw.rounds {
            self.push(
                TournamentErrorKind::UnknownRound,
                record,
                format!(
                    "round {round} is not a round of this event (1–{})",
                    raw.rounds
                ),
            );
            false
        } else {
            true
        }
    }

    /// One game: its result, its two listed players, and the play-off winner.
    pub(super) fn game(
        &mut self,
        roster: &Roster,
        g: &RawGame,
        round: u32,
        record: &str,
        in_match: Option<usize>,
    ) -> Option<Game> {
        use TournamentErrorKind::*;
        let result = parse_result(&g.result);
        if result.is_none() {
            self.push(
                UnknownValue,
                record,
                format!(
                    "result `{}` is none of red, black, draw, +-, -+, --",
                    g.result
                ),
            );
        }
        let red = roster.pidx.get(&g.red).copied();
        let black = roster.pidx.get(&g.black).copied();
        for (side, id, k) in [("red", &g.red, red), ("black", &g.black, black)] {
            if k.is_none() {
                self.push(
                    UnknownEntrant,
                    record,
                    format!("{side} player `{id}` is not listed"),
                );
            }
        }
        if g.red == g.black {
            self.push(
                SelfGame,
                record,
                format!("`{}` plays against themselves", g.red),
            );
            return None;
        }
        let (red, black, (result, played)) = (red?, black?, result?);
        let play_off_winner = match &g.play_off_winner {
            None => None,
            Some(w) if *w == g.red => Some(red),
            Some(w) if *w == g.black => Some(black),
            Some(w) => {
                self.push(
                    UnknownEntrant,
                    record,
                    format!("play-off winner `{w}` did not play this game"),
                );
                None
            }
        };
        Some(Game {
            round,
            red,
            black,
            result,
            played,
            fouls: g.fouls.unwrap_or_default().into(),
            board: g.board,
            in_match,
            is_final: g.r#final,
            play_off_winner,
        })
    }

    /// The matches of a team event: the two teams, their round, their board games and line-ups.
    pub(super) fn team_matches(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        lineup: &Option<LineupRule>,
        booked: &mut Booked,
    ) -> (Vec<Game>, Vec<Match>) {
        use TournamentErrorKind::*;
        let mut games: Vec<Game> = Vec::new();
        let mut matches: Vec<Match> = Vec::new();
        if !raw.games.is_empty() {
            self.push(
                UnknownFormat,
                "games",
                "a team event records its games inside `matches`",
            );
        }
        for (mi, m) in raw.matches.iter().enumerate() {
            let rec = format!("matches[{mi}]");
            let ok_round = self.round_ok(raw, m.round, &rec);
            let t: Vec<Option<usize>> = m
                .teams
                .iter()
                .map(|id| roster.tidx.get(id).copied())
                .collect();
            for (id, k) in m.teams.iter().zip(&t) {
                if k.is_none() {
                    self.push(UnknownEntrant, &rec, format!("team `{id}` is not listed"));
                }
            }
            if m.teams[0] == m.teams[1] {
                self.push(
                    SelfGame,
                    &rec,
                    format!("team `{}` plays against itself", m.teams[0]),
                );
                continue;
            }
            let (Some(a), Some(b)) = (t[0], t[1]) else {
                continue;
            };
            if ok_round {
                self.book(booked, m.round, a, &m.teams[0], &rec);
                self.book(booked, m.round, b, &m.teams[1], &rec);
            }
            let match_index = matches.len();
            let (list, on_board) =
                self.board_games(roster, lineup, mi, m, [a, b], match_index, &mut games);
            if let Some(rule) = lineup {
                self.fielded_lineup(roster, rule, &rec, [a, b], &on_board);
            }
            matches.push(Match {
                round: m.round,
                teams: [a, b],
                games: list,
            });
        }
        (games, matches)
    }

    /// The board games of one match: each between the two teams, on its own board, each player on one board.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn board_games(
        &mut self,
        roster: &Roster,
        lineup: &Option<LineupRule>,
        mi: usize,
        m: &RawMatch,
        [a, b]: [usize; 2],
        match_index: usize,
        games: &mut Vec<Game>,
    ) -> (Vec<usize>, [BTreeMap<u32, usize>; 2]) {
        use TournamentErrorKind::*;
        let players = &roster.players;
        let mut list = Vec::new();
        let mut on_board: [BTreeMap<u32, usize>; 2] = [BTreeMap::new(), BTreeMap::new()];
        for (gi, g) in m.games.iter().enumerate() {
            let grec = format!("matches[{mi}].games[{gi}]");
            if g.round.is_some_and(|r| r != m.round) {
                self.push(
                    UnknownRound,
                    &grec,
                    "a board game is in its match's round (leave `round` out)",
                );
            }
            let Some(gm) = self.game(roster, g, m.round, &grec, Some(match_index)) else {
                continue;
            };
            let side_of = |p: usize| {
                players[p].team.and_then(|t| {
                    if t == a {
                        Some(0)
                    } else if t == b {
                        Some(1)
                    } else {
                        None
                    }
                })
            };
            let (sr, sb) = (side_of(gm.red), side_of(gm.black));
            if sr.is_none() || sb.is_none() || sr == sb {
                self.push(
                    Lineup,
                    &grec,
                    format!(
                        "a board game is between a player of `{}` and one of `{}`",
                        m.teams[0], m.teams[1]
                    ),
                );
                continue;
            }
            let Some(board) = g.board else {
                self.push(Lineup, &grec, "a board game gives its `board`");
                continue;
            };
            if let Some((_, boards, _)) = lineup {
                if board == 0 || board > *boards {
                    self.push(
                        Lineup,
                        &grec,
                        format!("board {board} is not one of 1–{boards}"),
                    );
                    continue;
                }
            }
            for (side, p) in [(sr, gm.red), (sb, gm.black)] {
                let s = side.unwrap_or(0);
                if on_board[s].values().any(|&q| q == p) {
                    self.push(
                        DoubleBooking,
                        &grec,
                        format!("`{}` plays two boards of one match", players[p].id),
                    );
                }
                if on_board[s].insert(board, p).is_some() {
                    self.push(
                        Lineup,
                        &grec,
                        format!("board {board} of `{}` is played twice", m.teams[s]),
                    );
                }
            }
            list.push(games.len());
            games.push(gm);
        }
        (list, on_board)
    }

    /// The players each team fields in one match, against the line-up rule: every board, in registration order, reserves.
    pub(super) fn fielded_lineup(
        &mut self,
        roster: &Roster,
        (rule, boards, name): &LineupRule,
        rec: &str,
        teams: [usize; 2],
        on_board: &[BTreeMap<u32, usize>; 2],
    ) {
        let players = &roster.players;
        for (s, team) in teams.into_iter().enumerate() {
            let team = &roster.teams[team];
            let fielded: Vec<usize> = on_board[s].values().copied().collect();
            if fielded.len() as u32 != *boards {
                self.push(
                    TournamentErrorKind::Lineup,
                    rec,
                    format!("`{}` fields {} of {boards} boards", team.id, fielded.len()),
                );
                continue;
            }
            let pos: Vec<usize> = fielded
                .iter()
                .map(|p| {
                    team.players
                        .iter()
                        .position(|q| q == p)
                        .unwrap_or(usize::MAX)
                })
                .collect();
            if rule.keeps_registration_order && pos.windows(2).any(|w| w[0] >= w[1]) {
                self.push(TournamentErrorKind::Lineup, rec, format!("`{}` fields its players out of registration order ({}), which `{name}` forbids", team.id, fielded.iter().map(|&p| players[p].id.as_str()).collect::<Vec<_>>().join("-")));
            } else if !rule.reserves && pos.iter().any(|&k| k as u32 >= *boards) {
                self.push(
                    TournamentErrorKind::Lineup,
                    rec,
                    format!(
                        "`{}` fields a player beyond its first {boards}, which `{name}` forbids",
                        team.id
                    ),
                );
            }
        }
    }

    /// The games of an individual event: each in a round, each player once a round (a mini-match may play several).
    pub(super) fn individual_games(
        &mut self,
        raw: &RawTournament,
        roster: &Roster,
        game_format: &Format,
        booked: &mut Booked,
    ) -> Vec<Game> {
        use TournamentErrorKind::*;
        let mut games: Vec<Game> = Vec::new();
        if !raw.matches.is_empty() {
            self.push(
                UnknownFormat,
                "matches",
                format!(
                    "format `{}` ranks players: record `games`, not `matches`",
                    raw.format
                ),
            );
        }
        // Individual mini-matches (unit: match): a pairing may play several games in a round.
        let mini_matches = game_format.unit == Unit::Match;
        let mut opponent_in_round: HashMap<(u32, usize), usize> = HashMap::new();
        for (gi, g) in raw.games.iter().enumerate() {
            let rec = format!("games[{gi}]");
            let Some(round) = g.round else {
                self.push(UnknownRound, &rec, "a game gives its `round`");
                continue;
            };
            let ok_round = self.round_ok(raw, round, &rec);
            if g.board.is_some() {
                self.push(Lineup, &rec, "`board` belongs to games inside team matches");
            }
            let Some(gm) = self.game(roster, g, round, &rec, None) else {
                continue;
            };
            if ok_round {
                for (p, o) in [(gm.red, gm.black), (gm.black, gm.red)] {
                    match opponent_in_round.get(&(round, p)) {
                        Some(&q) if mini_matches && q == o => {}
                        Some(_) => {
                            let prev = booked.get(&(round, p)).cloned().unwrap_or_default();
                            self.push(
                                DoubleBooking,
                                &rec,
                                format!(
                                    "`{}` is already in {prev} in round {round}",
                                    roster.players[p].id
                                ),
                            );
                        }
                        None => {
                            opponent_in_round.insert((round, p), o);
                            booked.insert((round, p), rec.clone());
                        }
                    }
                }
            }
            games.push(gm);
        }
        games
    }
}
