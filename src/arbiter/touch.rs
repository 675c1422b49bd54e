//! Touch-move (摸子走子, 5.1–5.5): the touched pieces and the chain of the edition decide
//! which moves the player may make; touching may itself be a foul (8.1.5).
//!
//! The primitives: the legal moves of a touched piece (`move`), the legal captures of a
//! touched piece (`capture`, by the touched own piece or by any other), and no obligation
//! (`free`). The chains (`touch.*` clauses) decide their order.

use super::data::{Role, Step, Trigger, With};
use super::{events, ArbiterError, ArbiterRules, ChainRule, RejectKind, RuleRef};
use crate::answer::TouchAnswer;
use crate::board::{Move, Square};
use crate::vm::{Position, Rules, Status};

/// A touched piece: its point and whose it is, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Touched {
    pub(crate) point: Square,
    pub(crate) role: Role,
}

/// What a touch leaves the player: some moves, or any move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Allowed {
    Moves(Vec<Move>),
    Free,
}

/// The decision of a chain: the step that decided and what it allows.
#[derive(Clone, Debug)]
pub(crate) struct Obligation {
    pub clause: RuleRef,
    pub step: String,
    pub allowed: Allowed,
}

impl Obligation {
    /// Whether `m` keeps the obligation.
    pub(crate) fn permits(&self, m: Move) -> bool {
        match &self.allowed {
            Allowed::Free => true,
            Allowed::Moves(list) => list.contains(&m),
        }
    }

    /// The allowed moves in ICCS, sorted; empty when free.
    pub(crate) fn moves_iccs(&self) -> Vec<String> {
        let mut v: Vec<String> = match &self.allowed {
            Allowed::Free => Vec::new(),
            Allowed::Moves(list) => list.iter().map(|m| m.iccs()).collect(),
        };
        v.sort_unstable();
        v
    }
}

/// The touched piece on `point`, seen from the side to move (`touch.empty_point` if none).
pub(crate) fn touched(pos: &Position, point: Square) -> Result<Touched, ArbiterError> {
    let piece = pos.piece_at(point).ok_or_else(|| {
        ArbiterError::reject(
            RejectKind::TouchEmptyPoint,
            format!("no piece stands on {point}"),
        )
    })?;
    let role = if piece.side == pos.side_to_move() {
        Role::Own
    } else {
        Role::Opponent
    };
    Ok(Touched { point, role })
}

/// The chain for a touch pattern (`touch.pattern` if the edition has none).
pub(crate) fn chain<'r>(
    rules: &'r ArbiterRules,
    touches: &[Touched],
    simultaneous: bool,
) -> Result<&'r ChainRule, ArbiterError> {
    let roles: Vec<Role> = touches.iter().map(|t| t.role).collect();
    let simultaneous = simultaneous && touches.len() > 1;
    let mut sorted = roles.clone();
    sorted.sort();
    rules
        .chains
        .iter()
        .find(|c| {
            if simultaneous {
                let mut a = c.touched.clone();
                a.sort();
                c.simultaneous && a == sorted
            } else {
                !c.simultaneous && c.touched == roles
            }
        })
        .ok_or_else(|| {
            let names: Vec<&str> = roles
                .iter()
                .map(|r| if *r == Role::Own { "own" } else { "opponent" })
                .collect();
            ArbiterError::reject(
                RejectKind::TouchPattern,
                format!(
                    "the rules say nothing of touching {} ({}{})",
                    if names.len() == 1 {
                        "this piece"
                    } else {
                        "these pieces"
                    },
                    names.join(" then "),
                    if simultaneous { ", at once" } else { "" }
                ),
            )
        })
}

fn point_of(touches: &[Touched], role: Role) -> Square {
    touches
        .iter()
        .find(|t| t.role == role)
        .map(|t| t.point)
        .expect("compile checks that a step's roles are touched")
}

/// The moves one step allows (`None` for a free step).
fn step_moves(vm: &Rules, pos: &Position, step: &Step, touches: &[Touched]) -> Option<Vec<Move>> {
    if let Some(role) = step.move_piece {
        return Some(pos.legal_moves_from(vm, point_of(touches, role)));
    }
    let role = step.capture?;
    let target = point_of(touches, role);
    let own = touches
        .iter()
        .find(|t| t.role == Role::Own)
        .map(|t| t.point);
    let by = |m: &Move| match step.with {
        None => true,
        Some(With::Own) => Some(m.from) == own,
        Some(With::Other) => Some(m.from) != own,
    };
    Some(
        pos.legal_moves(vm)
            .into_iter()
            .filter(|m| m.to == target && by(m))
            .collect(),
    )
}

/// Runs the chain of `touches`: the first step that allows a move decides.
pub(crate) fn obligation(
    rules: &ArbiterRules,
    vm: &Rules,
    pos: &Position,
    touches: &[Touched],
    simultaneous: bool,
) -> Result<Obligation, ArbiterError> {
    let chain = chain(rules, touches, simultaneous)?;
    for step in &chain.steps {
        match step_moves(vm, pos, step, touches) {
            None => {
                return Ok(Obligation {
                    clause: chain.clause.clone(),
                    step: step.step.clone(),
                    allowed: Allowed::Free,
                })
            }
            Some(list) if !list.is_empty() => {
                return Ok(Obligation {
                    clause: chain.clause.clone(),
                    step: step.step.clone(),
                    allowed: Allowed::Moves(list),
                })
            }
            Some(_) => {}
        }
    }
    let last = chain
        .steps
        .last()
        .expect("compile: a chain ends with a free step");
    Ok(Obligation {
        clause: chain.clause.clone(),
        step: last.step.clone(),
        allowed: Allowed::Free,
    })
}

/// What touching one piece is, for the foul clauses: an own piece with no legal move, or
/// an opponent's piece no own piece can capture.
pub(crate) fn touch_trigger(vm: &Rules, pos: &Position, t: Touched) -> Option<Trigger> {
    match t.role {
        Role::Own if pos.legal_moves_from(vm, t.point).is_empty() => Some(Trigger::TouchImmovable),
        Role::Opponent if !pos.legal_moves(vm).iter().any(|m| m.to == t.point) => {
            Some(Trigger::TouchUncapturable)
        }
        _ => None,
    }
}

/// The foul clauses that touching these pieces breaks.
pub(crate) fn foul_clauses(
    rules: &ArbiterRules,
    vm: &Rules,
    pos: &Position,
    touches: &[Touched],
) -> Vec<RuleRef> {
    touches
        .iter()
        .filter_map(|&t| touch_trigger(vm, pos, t))
        .flat_map(|tr| {
            rules
                .fouls
                .iter()
                .filter(move |f| f.when == tr)
                .map(|f| f.clause.clone())
        })
        .collect()
}

/// `touch.game_over` when the side to move is checkmated or stalemated: the game is over
/// (art. 4: the result clause of its trigger, when the rule set has one), so touch-move
/// (5.1–5.5), which binds the player to move, no longer applies.
fn refuse_game_over(rules: &ArbiterRules, vm: &Rules, pos: &Position) -> Result<(), ArbiterError> {
    let (trigger, what) = match pos.status(vm) {
        Status::Checkmate => (Trigger::Checkmated, "checkmated"),
        Status::Stalemate => (Trigger::Stalemated, "stalemated (no legal move)"),
        Status::Ongoing | Status::Check => return Ok(()),
    };
    let by = rules
        .result(trigger)
        .map(|r| {
            format!(
                " ({}, art. {})",
                r.clause.clause,
                r.clause.article.as_deref().unwrap_or("—")
            )
        })
        .unwrap_or_default();
    Err(ArbiterError::reject(
        RejectKind::TouchGameOver,
        format!(
            "the game is over: {} to move is {what}{by}; touch-move does not apply",
            pos.side_to_move()
        ),
    ))
}

pub(crate) fn answer(
    rules: &ArbiterRules,
    vm: &Rules,
    pos: &Position,
    points: &[String],
    simultaneous: bool,
) -> Result<TouchAnswer, ArbiterError> {
    refuse_game_over(rules, vm, pos)?;
    let mut touches = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let sq = events::point(p).map_err(|e| match e {
            ArbiterError::Reject { message, .. } => {
                ArbiterError::reject(RejectKind::TouchSyntax, format!("touches[{i}]: {message}"))
            }
            other => other,
        })?;
        touches.push(touched(pos, sq).map_err(|e| e.at(&format!("touches[{i}]")))?);
    }
    if touches.is_empty() {
        return Err(ArbiterError::reject(
            RejectKind::TouchPattern,
            "no piece was touched",
        ));
    }
    let ob = obligation(rules, vm, pos, &touches, simultaneous)?;
    let fouls: Vec<String> = foul_clauses(rules, vm, pos, &touches)
        .into_iter()
        .map(|c| c.clause)
        .collect();
    let allowed = match ob.allowed {
        Allowed::Free => None,
        Allowed::Moves(_) => Some(ob.moves_iccs()),
    };
    Ok(TouchAnswer {
        free: allowed.is_none().then_some(true),
        allowed,
        clause: ob.clause.clause,
        article: ob.clause.article,
        step: ob.step,
        foul: !fouls.is_empty(),
        foul_clauses: fouls,
    })
}
