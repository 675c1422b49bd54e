//! From clauses to tables. Runs once per edition.
//!
//! Here the board, kinds, setup and check clauses and the one `compile`; `moves` compiles
//! the move programs, `tables` derives the lookup tables, `clause_data` the helpers every
//! domain's compile step uses.

use std::collections::{BTreeMap, VecDeque};

use serde::de::DeserializeOwned;

use super::data::{self, Forbidden, Instruction, Line, Symmetry};
use super::meaning;
use super::{
    KindInfo, Leap, Ray, ReverseLeap, Rules, Status, StatusRule, CAPTURE, DIRS, NO_BLOCK, QUIET,
};
use crate::board::{KindId, Side, Square, FILES, RANKS, SQUARES};
use crate::spec::{Clause, Edition, SpecError};

mod clause_data;
mod moves;
mod tables;

pub(crate) use clause_data::{err, err_at, has_key, missing, positive, read, require, typed};
use moves::movement;
use tables::{
    check_arrivals, check_zones, leap_tables, line_attackers, move_bound, ray_masks, reachability,
};

/// Most kinds a compiled edition may have (piece codes keep the kind in three bits).
pub(crate) const MAX_KINDS: usize = 8;

/// Where the tables per side, kind and point (`leap_index`, `leap_to`, `rays`) keep the
/// entry of a piece of `kind` and `side` on the point `sq`.
#[inline]
pub(crate) fn piece_slot(side: Side, kind: KindId, sq: usize) -> usize {
    (side.index() * MAX_KINDS + kind as usize) * SQUARES + sq
}

/// Where the tables per side and point (`reverse_index`, `reverse_from`, `check_zone`,
/// `check_arrival`: what that side's pieces do to the point) keep the entry of `sq`.
#[inline]
pub(crate) fn side_point(side: Side, sq: usize) -> usize {
    side.index() * SQUARES + sq
}

/// Red-frame rectangle → bitboard of Red-frame points.
fn region_mask(c: &Clause, name: &str, r: &data::Region) -> Result<u128, SpecError> {
    let f = |ch: char| -> Result<i32, SpecError> {
        if ('a'..='i').contains(&ch) {
            Ok(ch as i32 - 'a' as i32)
        } else {
            Err(err(c, format!("region `{name}`: file `{ch}` is not a–i")))
        }
    };
    let (f0, f1) = (f(r.files[0])?, f(r.files[1])?);
    let (r0, r1) = (r.ranks[0] as i32, r.ranks[1] as i32);
    if f0 > f1 || r0 > r1 || r1 >= RANKS as i32 {
        return Err(err(
            c,
            format!("region `{name}`: empty or off-board rectangle"),
        ));
    }
    let mut m = 0u128;
    for sq in Square::all() {
        let (x, y) = (sq.file() as i32, sq.rank() as i32);
        if (f0..=f1).contains(&x) && (r0..=r1).contains(&y) {
            m |= 1u128 << sq.index();
        }
    }
    Ok(m)
}

/// Rotate a Red-frame bitboard to `side`'s absolute points.
pub(crate) fn to_side(mask_red: u128, side: Side) -> u128 {
    match side {
        Side::Red => mask_red,
        Side::Black => {
            let mut m = 0u128;
            for sq in Square::all() {
                if mask_red >> sq.index() & 1 == 1 {
                    m |= 1u128 << sq.relative_to(Side::Black).index();
                }
            }
            m
        }
    }
}

fn parse_point(c: &Clause, s: &str) -> Result<Square, SpecError> {
    Square::parse(s).ok_or_else(|| err(c, format!("`{s}` is not a point (a0–i9)")))
}

/// The clause families of movement and check: an edition with none of them has no VM rules.
const FAMILIES: [&str; 5] = ["board.", "pieces.", "play.", "movement.", "check."];

/// Records the error of `r`, if any, and gives its value.
fn note<T>(r: Result<T, SpecError>, errors: &mut Vec<SpecError>) -> Option<T> {
    r.map_err(|e| errors.push(e)).ok()
}

/// `board.grid`: the VM's 9 × 10 coordinates.
fn grid(ed: &Edition) -> Result<(), SpecError> {
    let grid_clause = require(ed, "board.grid")?;
    let grid: data::Grid = typed(grid_clause)?;
    if grid.files != FILES || grid.ranks != RANKS {
        return Err(err(
            grid_clause,
            format!(
                "the VM's coordinates are 9 files × 10 ranks; this edition has {} × {}",
                grid.files, grid.ranks
            ),
        ));
    }
    Ok(())
}

/// Regions (Red frame) from every board clause that names some; every bad one recorded.
fn regions(ed: &Edition, errors: &mut Vec<SpecError>) -> BTreeMap<String, u128> {
    let mut regions: BTreeMap<String, u128> = BTreeMap::new();
    for c in ed
        .clauses_with_prefix("board.")
        .filter(|c| has_key(c, "regions"))
    {
        let Some(r) = note(
            serde_yaml::from_value::<data::Regions>(c.data.clone())
                .map_err(|e| err(c, format!("data: {e}"))),
            errors,
        ) else {
            continue;
        };
        for (name, rect) in &r.regions {
            let Some(m) = note(region_mask(c, name, rect), errors) else {
                continue;
            };
            if regions.insert(name.clone(), m).is_some() {
                errors.push(err(c, format!("region `{name}` is defined twice")));
            }
        }
    }
    regions
}

/// `pieces.kinds`: the kinds and the royal one; every bad kind recorded.
fn kinds<'a>(
    ed: &'a Edition,
    errors: &mut Vec<SpecError>,
) -> Option<(&'a Clause, Vec<KindInfo>, KindId)> {
    let kinds_clause = note(require(ed, "pieces.kinds"), errors)?;
    let kinds_data: data::Kinds = read(kinds_clause, errors)?;
    if kinds_data.kinds.is_empty() || kinds_data.kinds.len() > MAX_KINDS {
        errors.push(err(
            kinds_clause,
            format!("between 1 and {MAX_KINDS} kinds are supported"),
        ));
        return None;
    }
    let before = errors.len();
    let mut kinds: Vec<KindInfo> = Vec::new();
    let mut royal = None;
    for (i, k) in kinds_data.kinds.iter().enumerate() {
        if kinds.iter().any(|x| x.name == k.kind) {
            errors.push(err(kinds_clause, format!("kind `{}` listed twice", k.kind)));
        }
        if k.fen.is_empty() {
            errors.push(err(
                kinds_clause,
                format!("kind `{}` has no FEN letter", k.kind),
            ));
        }
        for &l in &k.fen {
            if !l.is_ascii_lowercase() {
                errors.push(err(
                    kinds_clause,
                    format!(
                        "kind `{}`: FEN letter `{l}` must be a lower-case ASCII letter",
                        k.kind
                    ),
                ));
            }
            if let Some(o) = kinds.iter().find(|x| x.fen.contains(&l)) {
                errors.push(err(
                    kinds_clause,
                    format!(
                        "FEN letter `{l}` is used by both `{}` and `{}`",
                        o.name, k.kind
                    ),
                ));
            }
        }
        if k.royal {
            if royal.is_some() {
                errors.push(err(kinds_clause, "exactly one kind may be royal"));
            }
            royal = Some(i as KindId);
        }
        if [&k.names.red, &k.names.black]
            .iter()
            .any(|n| n.chars().count() != 1)
        {
            errors.push(err(
                kinds_clause,
                format!("kind `{}` needs a one-character name for each side", k.kind),
            ));
        }
        kinds.push(KindInfo {
            name: k.kind.clone(),
            gloss: k.gloss.clone(),
            royal: k.royal,
            count: 0,
            fen: k.fen.clone(),
            names: k.names.clone().into(),
        });
    }
    let royal = note(
        royal.ok_or_else(|| err(kinds_clause, "one kind must be royal (the general)")),
        errors,
    );
    (errors.len() == before).then_some((kinds_clause, kinds, royal?))
}

/// The kind named `name` in `kinds`, or the error at clause `c`.
pub(crate) fn kind_id(kinds: &[KindInfo], c: &Clause, name: &str) -> Result<KindId, SpecError> {
    kinds
        .iter()
        .position(|k| k.name == name)
        .map(|i| i as KindId)
        .ok_or_else(|| {
            err(
                c,
                format!(
                    "unknown piece kind `{name}` (pieces.kinds defines {})",
                    kinds
                        .iter()
                        .map(|k| k.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })
}

/// The pieces of each side (Red, Black) with their points.
type SidePieces = [Vec<(KindId, Square)>; 2];

/// `pieces.setup`: the pieces of each side; the kinds' counts follow from it.
fn setup<'a>(
    ed: &'a Edition,
    kinds: &mut [KindInfo],
    royal: KindId,
    errors: &mut Vec<SpecError>,
) -> Option<(&'a Clause, SidePieces)> {
    let setup_clause = note(require(ed, "pieces.setup"), errors)?;
    let setup_data: data::Setup = read(setup_clause, errors)?;
    let before = errors.len();
    let mut setup: SidePieces = [Vec::new(), Vec::new()];
    let mut occupied = 0u128;
    for (name, points) in &setup_data.points {
        let Some(k) = note(kind_id(kinds, setup_clause, name), errors) else {
            continue;
        };
        if points.is_empty() {
            errors.push(err(
                setup_clause,
                format!("`points.{name}` lists no point (a kind not set up is left out)"),
            ));
            continue;
        }
        for p in points {
            let Some(sq) = note(parse_point(setup_clause, p), errors) else {
                continue;
            };
            for side in Side::BOTH {
                let abs = sq.relative_to(side);
                if occupied >> abs.index() & 1 == 1 {
                    errors.push(err(setup_clause, format!("two pieces set up on {abs}")));
                    continue;
                }
                occupied |= 1u128 << abs.index();
                setup[side.index()].push((k, abs));
            }
        }
        kinds[k as usize].count = points.len() as u8;
    }
    if errors.len() == before && kinds[royal as usize].count != 1 {
        errors.push(err(
            setup_clause,
            "the setup must have exactly one royal piece per side",
        ));
    }
    (errors.len() == before).then_some((setup_clause, setup))
}

/// `play.turns`: who moves first and how many moves make a round.
fn turns(ed: &Edition, errors: &mut Vec<SpecError>) -> Option<(Side, u8)> {
    let turns_clause = note(require(ed, "play.turns"), errors)?;
    let turns: data::Turns = read(turns_clause, errors)?;
    let first_to_move = match turns.first_to_move.as_str() {
        "red" => Some(Side::Red),
        "black" => Some(Side::Black),
        other => {
            errors.push(err(
                turns_clause,
                format!("first_to_move is `red` or `black`, not `{other}`"),
            ));
            None
        }
    };
    let counted = positive(
        turns_clause,
        "moves_per_round",
        Some(turns.moves_per_round.into()),
        errors,
    );
    counted.then_some((first_to_move?, turns.moves_per_round))
}

/// Check, mate, stalemate and self-kill (`check.*`).
struct CheckRules {
    in_check_status: Status,
    forbid_attacked: bool,
    forbid_facing: bool,
    status_rules: Vec<StatusRule>,
}

fn check_rules(ed: &Edition, facing: bool, errors: &mut Vec<SpecError>) -> Option<CheckRules> {
    let before = errors.len();
    let def = note(require(ed, "check.definition"), errors)
        .and_then(|c| Some((c, read::<data::CheckDefinition>(c, errors)?)));
    let mut in_check_status = None;
    if let Some((def_clause, def)) = def {
        if def.target != "royal" {
            errors.push(err(
                def_clause,
                "check targets the royal kind (`target: royal`)",
            ));
        }
        in_check_status = note(
            Status::parse(&def.status)
                .ok_or_else(|| err(def_clause, format!("unknown status `{}`", def.status))),
            errors,
        );
    }
    let sk = note(require(ed, "check.self_kill"), errors)
        .and_then(|c| Some((c, read::<data::SelfKill>(c, errors)?)));
    let (forbid_attacked, forbid_facing) = match &sk {
        Some((sk_clause, sk)) => {
            let attacked = sk
                .forbidden_after_move
                .contains(&Forbidden::OwnRoyalAttacked);
            let facing_forbidden = sk.forbidden_after_move.contains(&Forbidden::RoyalsFacing);
            if facing_forbidden && !facing {
                errors.push(err(
                    sk_clause,
                    "forbids `royals_facing`, but no movement clause defines facing (`line:`)",
                ));
            }
            (attacked, facing_forbidden)
        }
        None => (false, false),
    };
    let mut status_rules = Vec::new();
    for c in ed.clauses_with_prefix("check.") {
        if has_key(c, "when") {
            let Some(r) = read::<data::StatusRule>(c, errors) else {
                continue;
            };
            let Some(status) = note(
                Status::parse(&r.status)
                    .ok_or_else(|| err(c, format!("unknown status `{}`", r.status))),
                errors,
            ) else {
                continue;
            };
            status_rules.push(StatusRule {
                in_check: r.when.in_check,
                has_legal_move: r.when.has_legal_move,
                status,
            });
        } else if has_key(c, "must_answer") {
            let Some(r) = read::<data::CheckResponse>(c, errors) else {
                continue;
            };
            if r.must_answer && sk.is_some() && !forbid_attacked {
                errors.push(err(c, "a check must be answered, but check.self_kill does not forbid leaving the general attacked"));
            }
        }
    }
    (errors.len() == before).then_some(CheckRules {
        in_check_status: in_check_status?,
        forbid_attacked,
        forbid_facing,
        status_rules,
    })
}

/// Compiles the movement and check clauses of `ed` into [`Rules`]: `None` when the edition
/// has none of them (no `board.*`, `pieces.*`, `play.*`, `movement.*` or `check.*` clause),
/// else the rules or every error found, each at its clause. A step whose input failed
/// (the kinds, for the setup and the moves) is not run, so no error follows from another.
pub fn compile(ed: &Edition) -> Result<Option<Rules>, Vec<SpecError>> {
    if !FAMILIES
        .iter()
        .any(|f| ed.clauses_with_prefix(f).next().is_some())
    {
        return Ok(None);
    }
    let mut errors = Vec::new();
    note(grid(ed), &mut errors);
    let regions = regions(ed, &mut errors);
    let mut kinds = kinds(ed, &mut errors);
    let setup = match &mut kinds {
        Some((_, kinds, royal)) => setup(ed, kinds, *royal, &mut errors),
        None => None,
    };
    let turns = turns(ed, &mut errors);
    let movement = match kinds {
        Some((kinds_clause, kinds, royal)) => {
            movement(ed, kinds_clause, &kinds, royal, &regions, &mut errors)
                .map(|m| (kinds, royal, m))
        }
        None => None,
    };
    let check = check_rules(
        ed,
        movement.as_ref().is_none_or(|m| m.2.facing.is_some()),
        &mut errors,
    );
    let file_numerals = note(super::record::file_numerals(ed), &mut errors);
    let record = match (&movement, &file_numerals) {
        (Some((kinds, _, _)), Some(numerals)) => super::record::compile(ed, kinds, numerals)
            .map_err(|mut e| errors.append(&mut e))
            .ok(),
        _ => None,
    };
    let (
        Some((setup_clause, setup)),
        Some((kinds, royal, movement)),
        Some((first_to_move, moves_per_round)),
        Some(check),
        Some(file_numerals),
        Some(record),
    ) = (setup, movement, turns, check, file_numerals, record)
    else {
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let parts = Parts {
        setup_clause,
        setup,
        kinds,
        royal,
        movement,
        first_to_move,
        moves_per_round,
        check,
        file_numerals,
        record,
        regions,
    };
    build_rules(ed, parts).map(Some)
}

/// Every part of the rules compiled from its clauses without error, before the derived
/// tables are built from them.
struct Parts<'a> {
    setup_clause: &'a Clause,
    setup: SidePieces,
    kinds: Vec<KindInfo>,
    royal: KindId,
    movement: moves::Movement<'a>,
    first_to_move: Side,
    moves_per_round: u8,
    check: CheckRules,
    file_numerals: super::record::FileNumerals,
    record: Option<super::record::Record>,
    regions: BTreeMap<String, u128>,
}

/// The [`Rules`] from its compiled parts: the leap, ray, check and reachability tables
/// derived, then the meaning checks of the kinds and the bound of the move buffer.
fn build_rules(ed: &Edition, parts: Parts) -> Result<Rules, Vec<SpecError>> {
    let m = parts.movement;
    let t = leap_tables(&m.leap_lists);
    let ray_mask = ray_masks();
    let check_zone = check_zones(&t, &ray_mask);
    let (line_attackers, has_rays) = line_attackers(&m.rays, parts.kinds.len());
    let check_arrival = check_arrivals(&t, &ray_mask, &line_attackers);
    let mut rules = Rules {
        edition_id: ed.id.clone(),
        record: parts.record,
        file_numerals: parts.file_numerals,
        kinds: parts.kinds,
        royal: parts.royal,
        first_to_move: parts.first_to_move,
        moves_per_round: parts.moves_per_round,
        setup: parts.setup,
        leap_index: t.leap_index,
        leap_to: t.leap_to,
        leaps: t.leaps,
        rays: m.rays,
        has_rays,
        masks: m.masks,
        reverse_index: t.reverse_index,
        reverse: t.reverse,
        check_zone,
        check_arrival,
        reverse_from: t.reverse_from,
        any_line_attackers: [
            line_attackers[0].iter().fold(0, |a, b| a | b),
            line_attackers[1].iter().fold(0, |a, b| a | b),
        ],
        line_attackers,
        max_screens: m.max_screens,
        facing: m.facing,
        forbid_attacked: parts.check.forbid_attacked,
        forbid_facing: parts.check.forbid_facing,
        status_rules: parts.check.status_rules,
        in_check_status: parts.check.in_check_status,
        reachable: [[0; 8]; 2],
        lines_through: ray_mask
            .iter()
            .map(|r| r.iter().fold(0, |m, d| m | d))
            .collect(),
        ray_mask,
        kind_clause: m.movement_clauses.iter().map(|c| c.id.clone()).collect(),
        regions: parts.regions,
    };
    rules.reachable = reachability(&rules);
    meaning::check_kinds(
        &rules,
        &m.movement_clauses,
        &m.confinement,
        parts.setup_clause,
    )
    .map_err(|e| vec![e])?;
    let bound = move_bound(&rules);
    if bound > super::position_internals::MAX_MOVES {
        return Err(vec![err(
            parts.setup_clause,
            format!("these pieces could have up to {bound} moves in one position; the VM's move buffer holds {}", super::position_internals::MAX_MOVES),
        )]);
    }
    Ok(rules)
}
