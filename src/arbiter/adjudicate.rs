//! A game from its moves alone, as the arbiter watching the board sees it: what the rules
//! give a finished record (`xqspec adjudicate`: mate, stalemate (困毙), perpetual check, a
//! forbidden cycle not changed, the natural move limit, or nothing) and how a game in
//! progress stands (the `game_status` query: ended or not, the positions repeated, the
//! orders to change, the rounds left to the natural move limit).
//!
//! Both play the moves through the `outcome` engine ([`super::game::Game`]), so a record is
//! judged exactly as a list of `move` events would be.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::data::Trigger;
use super::game::{By, End, Game, Ruling};
use super::{
    cite, events, parse_iccs, AfterEnd, ArbiterError, ArbiterRules, BoardRules, Continues, Outcome,
    OutcomeQuery, RejectKind, RuleRef,
};
use crate::answer::Repeated;
use crate::board::GameResult;
use crate::board::{Move, Square};
use crate::vm::{Position, Rules};

/// What the rules give a game from its moves alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// `Ongoing` when the moves end without a result (`undecided`: resignation, agreement
    /// and time are not in the moves).
    pub result: GameResult,
    /// The clause that ended the game.
    pub clause: Option<RuleRef>,
    /// The ply (1-based) of the move after which it ended.
    pub ply: Option<usize>,
    /// What the arbiter observed: the `when` of the deciding clause (`checkmated`,
    /// `stalemated`, `perpetual_check`, `change_refused`, `repetition_draw`, `natural_limit`).
    pub how: Option<&'static str>,
    /// For an end on a repetition: who found it (always the board here).
    pub by: Option<By>,
    /// When the game ended on a 棋例 ruling of the board: what its verdict rests on.
    pub basis: Option<crate::repetition::readings::Basis>,
}

impl Adjudication {
    /// No result found.
    pub fn undecided() -> Adjudication {
        Adjudication {
            result: GameResult::Ongoing,
            clause: None,
            ply: None,
            how: None,
            by: None,
            basis: None,
        }
    }

    /// `red_wins`, `black_wins`, `draw` … or `undecided`.
    pub fn result_name(&self) -> &'static str {
        match self.result {
            GameResult::Ongoing => "undecided",
            r => r.name(),
        }
    }

    /// The answer object (`result`, `clause`, `article`, `ply`, `how`, `by`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("result".into(), json!(self.result_name()));
        cite(&mut m, self.clause.as_ref());
        m.insert("ply".into(), self.ply.map_or(Value::Null, |p| json!(p)));
        m.insert("how".into(), self.how.map_or(Value::Null, |h| json!(h)));
        if let Some(b) = self.by {
            m.insert("by".into(), json!(b.name()));
        }
        super::game::insert_basis(&mut m, self.basis.as_ref());
        Value::Object(m)
    }
}

shapes! {
    /// Input of the `game_status` query: a position and the moves played from it.
    #[derive(PartialEq, Eq, Serialize)]
    pub struct StatusQuery {
        /// The position the game started from (FEN, or `startpos`).
        pub fen: String,
        /// The moves played since (ICCS).
        #[serde(default)]
        pub moves: Vec<String>,
    }
}

/// What the board would decide if the cycle that brought the current position back were
/// played again (and again), up to its first decision: when, and what (`next` of the
/// `game_status` answer). So a page can say when an order to change comes and warn before
/// the repetition that decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Next {
    /// The plies of the cycle: from the last time the current position stood to now.
    pub cycle: usize,
    /// The plies to play from now until the board decides.
    pub plies: usize,
    /// The ply (of the game) after which it decides.
    pub ply: usize,
    /// How often the position then on the board will have stood.
    pub times: usize,
    /// The clause that makes a position pending (`repetition.cycle`).
    pub rule: RuleRef,
    /// The decisions the board then makes (their `event` numbers are the forecast's own).
    pub rulings: Vec<Ruling>,
    /// The result then: `Ongoing` when the game goes on (an order to change).
    pub result: GameResult,
    /// The clause that would end the game.
    pub clause: Option<RuleRef>,
}

impl crate::answer::ToAnswer<crate::answer::NextAnswer> for Next {
    /// As the `game_status` answer gives it (`next`), typed.
    fn answer(&self) -> crate::answer::NextAnswer {
        crate::answer::NextAnswer {
            cycle: self.cycle as u64,
            plies: self.plies as u64,
            ply: self.ply as u64,
            times: self.times as u64,
            clause: Some(self.rule.clause.clone()),
            article: self.rule.article.clone(),
            rulings: self
                .rulings
                .iter()
                .map(|r| crate::answer::Decision {
                    event: None,
                    ..r.answer()
                })
                .collect(),
            result: self.result.name().into(),
            end: cited(self.clause.as_ref()),
        }
    }
}

/// A clause and its article as the answers give them (both `null` for none).
fn cited(c: Option<&RuleRef>) -> crate::answer::Cited {
    crate::answer::Cited {
        clause: c.map(|c| c.clause.clone()),
        article: c.and_then(|c| c.article.clone()),
    }
}

/// How a game in progress stands (the `game_status` query).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStatus {
    /// Ended or not, and how.
    pub end: Adjudication,
    /// The position's own status: `ongoing`, `check`, `checkmate`, `stalemate`.
    pub position: &'static str,
    /// The positions that have stood more than once since the last capture.
    pub repeated: Vec<Repeated>,
    /// Per side (Red, Black): the clause under which it is ordered to change.
    pub orders: [Option<RuleRef>; 2],
    /// The rounds counted for the natural move limit (on a claim of the side to move) and
    /// the limit, if the rules have one.
    pub natural_limit: Option<(u32, u32)>,
    /// With [`AfterEnd::Stop`]: the moves after the end, left unjudged.
    pub continues: Option<Continues>,
    /// The point of the general of the side to move, when it is in check.
    pub check: Option<Square>,
    /// What the board would decide if the cycle that brought the current position back
    /// were played again.
    pub next: Option<Next>,
}

impl crate::answer::ToAnswer<crate::answer::GameStatusAnswer> for GameStatus {
    /// The answer of the `game_status` query, typed.
    fn answer(&self) -> crate::answer::GameStatusAnswer {
        let ended = self.end.result != GameResult::Ongoing;
        let end = cited(self.end.clause.as_ref());
        crate::answer::GameStatusAnswer {
            state: if ended { "ended" } else { "ongoing" }.into(),
            result: if ended {
                self.end.result.name()
            } else {
                "ongoing"
            }
            .into(),
            clause: end.clause,
            article: end.article,
            ply: self.end.ply.map(|p| p as u64),
            how: self.end.how.map(str::to_string),
            position: self.position.into(),
            repeated: self.repeated.clone(),
            orders: crate::answer::Orders {
                red: self.orders[0].as_ref().map(|c| cited(Some(c))),
                black: self.orders[1].as_ref().map(|c| cited(Some(c))),
            },
            natural_limit: self
                .natural_limit
                .map(|(r, l)| crate::answer::NaturalLimit {
                    rounds: r.into(),
                    limit: l.into(),
                    remaining: l.saturating_sub(r).into(),
                }),
            continues: self.continues,
            check: self.check.map(|p| p.to_string()),
            next: self.next.as_ref().map(Next::answer),
        }
    }
}

impl ArbiterRules {
    /// What the rules give a record from its moves alone: the moves are played as `move`
    /// events with the board watched (`rep`) and the natural move limit declared once
    /// reached; the first end found decides. The moves are a replayed record's, each legal
    /// where it is played (the replay checked them).
    pub fn adjudicate(
        &self,
        board: BoardRules<'_>,
        start: &Position,
        moves: &[Move],
    ) -> Result<Adjudication, ArbiterError> {
        let mut g = Game::on(self, board, start.clone()).declaring_limit();
        for (i, &m) in moves.iter().enumerate() {
            if g.record_move(i, m, true)
                .map_err(|e| e.at(&format!("move {}", i + 1)))?
            {
                break;
            }
        }
        Ok(self.adjudication(g.end()))
    }

    /// How a game in progress stands after `moves` from `fen` (query `game_status`), with
    /// moves after the end of the game refused (`events.after_end`) or, for a real record
    /// that goes on, left unjudged and counted in [`GameStatus::continues`].
    pub fn game_status_of(
        &self,
        board: BoardRules<'_>,
        q: &StatusQuery,
        after_end: AfterEnd,
    ) -> Result<GameStatus, ArbiterError> {
        let start = board.start(Some(&q.fen))?;
        let mut g = Game::on(self, board, start);
        let mut continues = None;
        for (i, text) in q.moves.iter().enumerate() {
            if let Some(e) = g.end() {
                if after_end == AfterEnd::Stop {
                    continues = Some(Continues {
                        from: i,
                        left: q.moves.len() - i,
                    });
                    break;
                }
                return Err(ArbiterError::reject(
                    RejectKind::EventsAfterEnd,
                    format!(
                        "move {}: the game ended after move {} ({})",
                        i + 1,
                        e.event + 1,
                        e.clause.clause
                    ),
                ));
            }
            let m = parse_iccs(text).map_err(|e| e.at(&format!("move {}", i + 1)))?;
            g.record_move(i, m, false)
                .map_err(|e| e.at(&format!("move {}", i + 1)))?;
        }
        Ok(self.status_of(board.vm, &g, continues, |e| e + 1))
    }

    /// A game given as events (the `outcome` query's input) judged: its outcome, and how it
    /// stands after the events as `game_status` says it of moves (the `ply` of its end
    /// counting the moves among the events, up to the one that ended it). With
    /// [`AfterEnd::Stop`] the events after the end are left unjudged and counted.
    pub fn judge_events(
        &self,
        board: BoardRules<'_>,
        q: &OutcomeQuery,
        after_end: AfterEnd,
    ) -> Result<(Outcome, GameStatus), ArbiterError> {
        let pos = board.start(q.fen.as_deref())?;
        let evs = events::parse_all(&q.events)?;
        let mut g = Game::on(self, board, pos);
        let continues = g.run_events(&evs, after_end)?;
        let ply_of = |e: usize| {
            evs[..=e.min(evs.len().saturating_sub(1))]
                .iter()
                .filter(|ev| matches!(ev, events::Event::Move(_)))
                .count()
        };
        let status = self.status_of(board.vm, &g, continues, ply_of);
        Ok((g.outcome(continues), status))
    }

    /// How the game `g` stands; `ply_of` gives the ply of the event that ended it.
    fn status_of(
        &self,
        vm: &Rules,
        g: &Game<'_>,
        continues: Option<Continues>,
        ply_of: impl Fn(usize) -> usize,
    ) -> GameStatus {
        let h = &g.history;
        let positions = h.positions(vm);
        let repeated = h
            .repeated()
            .into_iter()
            .map(|(j, times)| Repeated {
                fen: positions[j].to_fen(vm),
                ply: h.ply0 + j,
                times,
            })
            .collect();
        let mut end = self.adjudication(g.end());
        end.ply = g.end().map(|e| ply_of(e.event));
        GameStatus {
            end,
            position: g.position().status(vm).name(),
            repeated,
            orders: g.orders().clone(),
            natural_limit: g.limit_count(),
            continues,
            check: g.checked_general(),
            next: g.forecast(),
        }
    }

    fn adjudication(&self, end: Option<&End>) -> Adjudication {
        let Some(e) = end else {
            return Adjudication::undecided();
        };
        let how = self
            .results
            .iter()
            .find(|r| r.clause == e.clause)
            .map(|r| r.when.name())
            .or_else(|| {
                // 4.3: a draw by repetition within the early rounds that Red did not break.
                self.early_repetition
                    .as_ref()
                    .filter(|(c, _, _)| *c == e.clause)
                    .map(|_| Trigger::ChangeRefused.name())
            });
        Adjudication {
            result: e.result,
            clause: Some(e.clause.clone()),
            ply: Some(e.event + 1),
            how,
            by: e.by,
            basis: e.basis.clone(),
        }
    }
}
