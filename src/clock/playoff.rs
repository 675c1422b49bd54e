//! Knockout play-offs (淘汰赛办法, 2020 art. 30): a chain of stages, and where a pairing
//! stands given the games played so far — decided, or the next game with its control and
//! how its colours are given.
//!
//! The two players are `A` and `B`. A game is `{red: A|B, result: red|black|draw}`, with
//! `chose: A|B` when a player chose the colours of that game. A stage's round is won by the
//! player who won more of its games (a drawn game counts for nobody, or for Black under
//! `draw: black_wins`); a level round passes to the next stage, or is played again when
//! the stage repeats.

use serde::Serialize;
use serde_json::Value;

use super::data::{ChooserRule, ColourRule};
use crate::answer::{Colours, DecidedBy, PlayoffAnswer, PlayoffNext};
use crate::board::{GameResult, Side};

/// A stage of a chain, compiled.
#[derive(Clone, Debug)]
pub(crate) struct Stage {
    pub name: String,
    pub games: u32,
    /// A clock scheme id; `None`: the event's own control.
    pub scheme: Option<String>,
    pub(crate) first: ColourRule,
    pub(crate) then: Option<ColourRule>,
    pub(crate) draw_black_wins: bool,
    /// Colour rule of each replayed round's first game, when the stage repeats.
    pub(crate) repeat: Option<ColourRule>,
}

/// A play-off chain (`playoff.*`), compiled.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The id queries use: the clause id without `playoff.`.
    pub id: String,
    pub(crate) stages: Vec<Stage>,
}

shapes! {
    /// The `playoff` query: a chain and the games played so far.
    #[derive(PartialEq, Eq, Serialize)]
    pub struct PlayoffQuery {
        /// The chain id (`slow_rapid_decider`: the clause `playoff.slow_rapid_decider`).
        pub chain: String,
        /// The games played, in order: `{red, result, chose?}`.
        #[serde(default)]
        pub games: Vec<Value>,
        /// The player placed better in the event's preceding stage, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub better_ranked: Option<Value>,
    }
}

/// Why a play-off query was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoffErrorKind {
    /// No chain of this id in the rule set.
    UnknownChain,
    /// A game is malformed or does not fit the stage it is played in.
    Game,
    /// A game's colours are not the ones the chain assigns.
    Colours,
    /// A game was given after the chain had decided.
    AfterEnd,
    /// Something the chain needs is not given (the better-ranked player, a choice).
    Missing,
}

impl PlayoffErrorKind {
    /// The protocol's reject kind (`playoff.game` …).
    pub fn reject_kind(self) -> &'static str {
        match self {
            PlayoffErrorKind::UnknownChain => "playoff.unknown_chain",
            PlayoffErrorKind::Game => "playoff.game",
            PlayoffErrorKind::Colours => "playoff.colours",
            PlayoffErrorKind::AfterEnd => "playoff.after_end",
            PlayoffErrorKind::Missing => "playoff.missing",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// A refused play-off query: the kind and what is wrong.
pub struct PlayoffError {
    /// The kind of problem.
    pub kind: PlayoffErrorKind,
    /// What is wrong, in words.
    pub(crate) message: String,
}

impl std::fmt::Display for PlayoffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PlayoffError {}

fn fail<T>(kind: PlayoffErrorKind, message: String) -> Result<T, PlayoffError> {
    Err(PlayoffError { kind, message })
}

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    A,
    B,
}

impl Player {
    fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Player::A => "A",
            Player::B => "B",
        }
    }
    fn parse(v: &Value) -> Option<Player> {
        match v.as_str()? {
            "A" => Some(Player::A),
            "B" => Some(Player::B),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Game {
    red: Player,
    result: GameResult,
    chose: Option<Player>,
}

fn parse_game(number: usize, v: &Value) -> Result<Game, PlayoffError> {
    let bad = |m: String| fail(PlayoffErrorKind::Game, format!("game {number}: {m}"));
    let Some(m) = v.as_object() else {
        return bad(format!(
            "a game is {{red: A|B, result: red|black|draw}}, not {v}"
        ));
    };
    if let Some(k) = m
        .keys()
        .find(|k| !["red", "result", "chose", "note"].contains(&k.as_str()))
    {
        return bad(format!(
            "`{k}` is not a field of a game (red, result, chose, note)"
        ));
    }
    let Some(red) = m.get("red").and_then(Player::parse) else {
        return bad("`red` names the player who had Red: A or B".into());
    };
    let result = match m.get("result").and_then(Value::as_str) {
        Some("red") => GameResult::RedWins,
        Some("black") => GameResult::BlackWins,
        Some("draw") => GameResult::Draw,
        _ => return bad("`result` is red, black or draw".into()),
    };
    let chose = match m.get("chose") {
        None => None,
        Some(c) => match Player::parse(c) {
            Some(p) => Some(p),
            None => return bad("`chose` names the player who chose the colours: A or B".into()),
        },
    };
    Ok(Game { red, result, chose })
}

/// A game played, where it was played.
struct Played {
    stage: usize,
    game: Game,
}

/// Who chooses under `rule`, or how it is decided; `Err` when the input lacks what the
/// rule needs.
fn chooser(
    chain: &Chain,
    rule: &[ChooserRule],
    history: &[Played],
    better: Option<Player>,
) -> Result<(Option<Player>, &'static str), PlayoffError> {
    let stage_index = |name: &str| chain.stages.iter().position(|s| s.name == name);
    let mut needs = Vec::new();
    for r in rule {
        match r {
            ChooserRule::NotChooserOf(st) => {
                let i = stage_index(st);
                match history
                    .iter()
                    .filter(|p| Some(p.stage) == i)
                    .find_map(|p| p.game.chose)
                {
                    Some(p) => return Ok((Some(p.other()), "not_chooser_of")),
                    None => needs.push(format!(
                        "who chose colours in stage `{st}` (`chose` on its game)"
                    )),
                }
            }
            ChooserRule::BlackOf(st) => {
                let i = stage_index(st);
                match history.iter().rev().find(|p| Some(p.stage) == i) {
                    Some(p) => return Ok((Some(p.game.red.other()), "black_of")),
                    None => needs.push(format!("a game of stage `{st}`")),
                }
            }
            ChooserRule::BetterRanked => match better {
                Some(p) => return Ok((Some(p), "better_ranked")),
                None => needs.push("who is better ranked (`better_ranked`)".into()),
            },
            ChooserRule::Lot => return Ok((None, "lot")),
        }
    }
    fail(
        PlayoffErrorKind::Missing,
        format!(
            "to say who chooses colours the input must give {}",
            needs.join(", or ")
        ),
    )
}

/// How the colours of the next game are given, as the answer states it; and the player
/// who must have Red, when the rule decides it.
fn colours(
    chain: &Chain,
    rule: &ColourRule,
    history: &[Played],
    better: Option<Player>,
) -> Result<(Colours, Option<Player>, Option<Player>), PlayoffError> {
    let rule_only = |r: &str| Colours {
        rule: r.into(),
        red: None,
        by: None,
        chooser: None,
    };
    Ok(match rule {
        ColourRule::Lot => (rule_only("lot"), None, None),
        ColourRule::NotStated => (rule_only("not_stated"), None, None),
        ColourRule::Swap => {
            let red = history.last().map(|p| p.game.red.other());
            (
                Colours {
                    red: Some(red.map(|p| p.name().into())),
                    ..rule_only("swap")
                },
                red,
                None,
            )
        }
        ColourRule::Choice(rules) => {
            let (who, by) = chooser(chain, rules, history, better)?;
            let v = Colours {
                by: Some(by.into()),
                chooser: who.map(|p| p.name().into()),
                ..rule_only("choice")
            };
            (v, None, who)
        }
    })
}

/// Where the play-off stands after `q.games`: `{winner, decided_by}` or `{next: …}`.
/// `control` describes a stage's clock scheme (for the answer).
pub(crate) fn evaluate(
    chain: &Chain,
    q: &PlayoffQuery,
    control: impl Fn(&str) -> Option<crate::answer::Control>,
) -> Result<PlayoffAnswer, PlayoffError> {
    let games = q
        .games
        .iter()
        .enumerate()
        .map(|(i, v)| parse_game(i + 1, v))
        .collect::<Result<Vec<_>, _>>()?;
    let better = better_ranked(q)?;
    let mut history: Vec<Played> = Vec::with_capacity(games.len());
    let mut next_game = games.iter();
    for (si, stage) in chain.stages.iter().enumerate() {
        let mut round = 1u32;
        loop {
            let mut wins = [0u32; 2];
            for g in 0..stage.games {
                let rule = match (g, round) {
                    (0, 1) => &stage.first,
                    (0, _) => stage.repeat.as_ref().unwrap_or(&stage.first),
                    _ => stage.then.as_ref().unwrap_or(&stage.first),
                };
                let given = colours(chain, rule, &history, better);
                let Some(game) = next_game.next() else {
                    let (how, _, _) = given?;
                    let next = next_game_answer(stage, round, g, how, &control);
                    return Ok(PlayoffAnswer {
                        chain: chain.id.clone(),
                        winner: None,
                        games_played: history.len() as u64,
                        next: Some(Some(next)),
                        decided_by: None,
                    });
                };
                if let Some(w) = played_game(stage, history.len() + 1, game, given)? {
                    wins[w as usize] += 1;
                }
                history.push(Played {
                    stage: si,
                    game: *game,
                });
            }
            if wins[0] != wins[1] {
                if next_game.next().is_some() {
                    return fail(
                        PlayoffErrorKind::AfterEnd,
                        format!(
                            "game {}: the play-off was decided by game {} (stage `{}`)",
                            history.len() + 1,
                            history.len(),
                            stage.name
                        ),
                    );
                }
                return Ok(decided(chain, stage, round, wins, &history));
            }
            if stage.repeat.is_none() {
                break;
            }
            round += 1;
        }
    }
    // Unreachable for compiled chains (the last stage always produces a winner).
    Ok(PlayoffAnswer {
        chain: chain.id.clone(),
        winner: None,
        games_played: history.len() as u64,
        next: Some(None),
        decided_by: None,
    })
}

/// The better-ranked player the query names (`A` or `B`), if any.
fn better_ranked(q: &PlayoffQuery) -> Result<Option<Player>, PlayoffError> {
    match &q.better_ranked {
        None => Ok(None),
        Some(v) => match Player::parse(v) {
            Some(p) => Ok(Some(p)),
            None => fail(
                PlayoffErrorKind::Game,
                format!("`better_ranked` is A or B, not {v}"),
            ),
        },
    }
}

/// The game to play next: game `g` (0-based) of `stage` in `round`, its clock scheme and
/// control, how its colours are given, and whether a draw counts as Black's win.
fn next_game_answer(
    stage: &Stage,
    round: u32,
    g: u32,
    how: Colours,
    control: &impl Fn(&str) -> Option<crate::answer::Control>,
) -> PlayoffNext {
    PlayoffNext {
        stage: stage.name.clone(),
        round: stage.repeat.is_some().then_some(round.into()),
        game: g as u64 + 1,
        scheme: stage.scheme.clone(),
        control: stage.scheme.as_deref().and_then(control),
        colours: how,
        draw: stage.draw_black_wins.then(|| "black_wins".into()),
    }
}

/// Game `number`, already played in `stage`, checked against its colour rule where the
/// input says enough to apply it (`given`: who must have Red, who chooses); the player who
/// won it, a draw going to Black where the stage says so.
fn played_game(
    stage: &Stage,
    number: usize,
    game: &Game,
    given: Result<(Colours, Option<Player>, Option<Player>), PlayoffError>,
) -> Result<Option<Player>, PlayoffError> {
    let (red, who) = given.map(|(_, r, w)| (r, w)).unwrap_or((None, None));
    if red.is_some_and(|r| r != game.red) {
        return fail(
            PlayoffErrorKind::Colours,
            format!(
                "game {number} (stage `{}`): colours are swapped, so {} has Red",
                stage.name,
                red.map_or("?", Player::name)
            ),
        );
    }
    if let (Some(w), Some(c)) = (who, game.chose) {
        if w != c {
            return fail(
                PlayoffErrorKind::Colours,
                format!(
                    "game {number} (stage `{}`): {} chooses the colours, not {}",
                    stage.name,
                    w.name(),
                    c.name()
                ),
            );
        }
    }
    Ok(match game.result.winner() {
        Some(Side::Red) => Some(game.red),
        Some(Side::Black) => Some(game.red.other()),
        None if stage.draw_black_wins => Some(game.red.other()),
        None => None,
    })
}

/// The answer once `stage` (in `round`) has a winner: who, after how many games, and how
/// (a match of several games, a single game won, or a draw that Black wins).
fn decided(
    chain: &Chain,
    stage: &Stage,
    round: u32,
    wins: [u32; 2],
    history: &[Played],
) -> PlayoffAnswer {
    let w = if wins[0] > wins[1] {
        Player::A
    } else {
        Player::B
    };
    let last = history.last().map(|p| p.game.result);
    let how = if stage.games > 1 {
        "match"
    } else if last == Some(GameResult::Draw) {
        "draw_black_wins"
    } else {
        "win"
    };
    let by = DecidedBy {
        stage: stage.name.clone(),
        how: how.into(),
        round: stage.repeat.is_some().then_some(round.into()),
        wins: (stage.games > 1).then(|| {
            [
                ("A".to_string(), wins[0].into()),
                ("B".into(), wins[1].into()),
            ]
            .into()
        }),
    };
    PlayoffAnswer {
        chain: chain.id.clone(),
        winner: Some(w.name().into()),
        games_played: history.len() as u64,
        next: None,
        decided_by: Some(by),
    }
}
