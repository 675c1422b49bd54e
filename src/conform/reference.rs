//! The reference implementation: xqspec's own rule VM answering the
//! protocol's queries. `xqspec serve` speaks the protocol with it, and the
//! `cargo test` harness runs every case against it.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::board::Move;
use crate::fen::{self, FenError};
use crate::ruleset::RuleSet;
use crate::spec::{Overlay, Spec};
use crate::vm::{Position, Rules};

use super::case::{locate_key, Case, Expected, Problem};
use super::protocol::{About, Ask, Implementation, Limits};
use super::query::{is_iccs, Answer, Query};

/// The most positions one `perft` of the reference visits (every ply counted, the last in
/// bulk; `crate::perft::perft_within`): about a second of work on a laptop core. The
/// suite's largest perft visits about 1.5 million. Declared in the hello as
/// `limits.perft_nodes`; a perft beyond it is answered with an `error`.
pub const PERFT_NODE_BUDGET: u64 = 20_000_000;

/// The most moves of one `ruling` query: the cycle search compares positions pairwise and
/// every move of a cycle is classified with a forcing search, so the work grows faster
/// than the line. Declared in the hello as `limits.ruling_plies`.
pub const MAX_RULING_PLIES: usize = 1_000;

/// A compiled rule set, or why it does not compile.
type Compiled = Result<Arc<RuleSet>, String>;

/// xqspec's rule VM as an implementation under test.
pub struct Reference {
    spec: Spec,
    editions: Vec<String>,
    rulesets: BTreeMap<String, Compiled>,
    /// Rule sets made by applying an overlay sent with an ask, by rule-set id.
    with_overlays: Mutex<BTreeMap<String, Compiled>>,
}

/// The reject kind (vocabulary.yaml) of a FEN error (`crate::fen` kinds).
pub fn fen_reject_kind(e: &FenError) -> &'static str {
    e.reject_kind()
}

impl Reference {
    /// The reference over the spec built into the crate.
    pub fn builtin() -> Result<Reference, String> {
        Spec::builtin()
            .map(|s| Reference::new(&s))
            .map_err(|e| e.to_string())
    }

    /// The reference over a loaded spec; every edition is compiled.
    pub fn new(spec: &Spec) -> Reference {
        let rulesets = spec
            .editions()
            .iter()
            .map(|e| {
                (
                    e.id.clone(),
                    RuleSet::compile(e.clone()).map(Arc::new).map_err(|err| err.to_string()),
                )
            })
            .collect();
        Reference {
            spec: spec.clone(),
            editions: spec.editions().iter().map(|e| e.id.clone()).collect(),
            rulesets,
            with_overlays: Mutex::new(BTreeMap::new()),
        }
    }

    /// The compiled rule set of an edition, with an overlay applied when one is given.
    pub fn ruleset(&self, edition: &str, overlay: Option<&Overlay>) -> Result<Arc<RuleSet>, String> {
        let Some(o) = overlay else {
            return match self.rulesets.get(edition) {
                Some(Ok(r)) => Ok(r.clone()),
                Some(Err(e)) => Err(format!("edition {edition} does not compile: {e}")),
                None => Err(format!("unknown edition {edition}")),
            };
        };
        if o.edition != edition {
            return Err(format!("overlay {} applies to {}, not to {edition}", o.overlay, o.edition));
        }
        let mut cache = self.with_overlays.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .entry(o.ruleset_id())
            .or_insert_with(|| {
                let ed = self.spec.with_overlay(o).map_err(|e| e.to_string())?;
                RuleSet::compile(ed).map(Arc::new).map_err(|e| e.to_string())
            })
            .clone()
    }

    /// The compiled movement rules of an edition.
    pub fn rules(&self, edition: &str) -> Result<&Rules, String> {
        match self.rulesets.get(edition) {
            Some(Ok(r)) => Ok(&r.vm),
            Some(Err(e)) => Err(format!("edition {edition} does not compile: {e}")),
            None => Err(format!("unknown edition {edition}")),
        }
    }
}

/// The position after `moves` from `fen`, or the rejection.
pub fn position(rules: &Rules, fen: &str, moves: &[String]) -> Result<Position, Answer> {
    let (mut pos, _) =
        fen::parse(rules, fen).map_err(|e| Answer::reject(fen_reject_kind(&e), e.to_string()))?;
    for (i, text) in moves.iter().enumerate() {
        let m = play_move(text).ok_or_else(|| {
            Answer::reject(
                "move.syntax",
                format!("move {}: `{text}` is not ICCS", i + 1),
            )
        })?;
        pos.play(rules, m)
            .map_err(|e| Answer::reject("move.illegal", format!("move {}: {e}", i + 1)))?;
    }
    Ok(pos)
}

fn play_move(text: &str) -> Option<Move> {
    if is_iccs(text) {
        Move::parse_iccs(text)
    } else {
        None
    }
}

impl Implementation for Reference {
    fn about(&self) -> About {
        About {
            name: "xqspec".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            language: Some("Rust".into()),
            homepage: None,
            editions: self.editions.clone(),
            queries: super::query::KNOWN_QUERIES.iter().map(|s| s.to_string()).collect(),
            overlays: true,
            limits: Limits {
                perft_nodes: Some(PERFT_NODE_BUDGET),
                ruling_plies: Some(MAX_RULING_PLIES as u64),
                line_bytes: None,
            },
        }
    }

    fn answer(&mut self, edition: &str, query: &Query) -> Answer {
        self.answer_shared(&Ask { edition, overlay: None, query })
    }

    fn answer_ask(&mut self, ask: &Ask) -> Answer {
        self.answer_shared(ask)
    }
}

impl Reference {
    /// [`Implementation::answer_ask`] without `&mut`: the reference keeps no state
    /// (but a cache of rule sets made with overlays).
    pub fn answer_shared(&self, ask: &Ask) -> Answer {
        let ruleset = match self.ruleset(ask.edition, ask.overlay) {
            Ok(r) => r,
            Err(e) => return Answer::unsupported(e),
        };
        answer_under(&ruleset, ask.query)
    }
}

/// The reference's answer to `query` under a compiled rule set.
pub fn answer_under(ruleset: &RuleSet, query: &Query) -> Answer {
    let rules = &ruleset.vm;
    let result = (|| -> Result<Answer, Answer> {
        Ok(match query {
            Query::LegalMoves { fen, moves } => {
                let pos = position(rules, fen, moves)?;
                // Sorted, for people reading `xqspec serve` (the protocol allows any order).
                let mut list: Vec<String> = pos.legal_moves(rules).iter().map(|m| m.iccs()).collect();
                list.sort_unstable();
                Answer::moves(list)
            }
            Query::Perft { fen, moves, depth } => {
                let mut pos = position(rules, fen, moves)?;
                match crate::perft::perft_within(&mut pos, rules, *depth, PERFT_NODE_BUDGET) {
                    Ok(n) => Answer::nodes(n),
                    Err(e) => Answer::error(format!("perft depth {depth} stopped: {e}, limits.perft_nodes")),
                }
            }
            Query::Status { fen, moves } => {
                Answer::status(position(rules, fen, moves)?.status(rules).name())
            }
            Query::ValidateFen { fen } => {
                position(rules, fen, &[])?;
                Answer::valid()
            }
            Query::ParseMove { fen, moves, notation, text } => {
                let pos = position(rules, fen, moves)?;
                match crate::notation::answer_parse_move(rules, &pos, notation, text) {
                    Ok(m) => Answer::parsed_move(m),
                    Err(r) if r.kind == "unsupported" => Answer::unsupported(r.message),
                    Err(r) => Answer::reject(r.kind, r.message),
                }
            }
            Query::FormatMove { fen, moves, notation, mv } => {
                let pos = position(rules, fen, moves)?;
                match crate::notation::answer_format_move(rules, &pos, notation, mv) {
                    Ok(t) => Answer::text(t),
                    Err(r) if r.kind == "unsupported" => Answer::unsupported(r.message),
                    Err(r) => Answer::reject(r.kind, r.message),
                }
            }
            Query::Outcome(q) => {
                let arbiter = arbiter_rules(ruleset)?;
                let o = arbiter.outcome(rules, q).map_err(arbiter_reject)?;
                Answer::Value([("outcome".to_string(), o.to_json())].into_iter().collect())
            }
            Query::TouchMove(q) => {
                let arbiter = arbiter_rules(ruleset)?;
                let t = arbiter.touch_move(rules, q).map_err(arbiter_reject)?;
                Answer::Value([("touch".to_string(), t.to_json())].into_iter().collect())
            }
            Query::Clock(q) => match &ruleset.clock {
                None => Answer::unsupported(format!("rule set {} has no clock clauses", ruleset.id())),
                Some(c) => match c.answer_clock(q) {
                    Ok(v) => Answer::one("clock", v),
                    Err(e) => Answer::reject(e.reject_kind(), e.to_string()),
                },
            },
            Query::Playoff(q) => match &ruleset.clock {
                None => Answer::unsupported(format!("rule set {} has no clock clauses", ruleset.id())),
                Some(c) => match c.answer_playoff(q) {
                    Ok(v) => Answer::one("playoff", v),
                    Err(e) => Answer::reject(e.kind.reject_kind(), e.message),
                },
            },
            Query::Standings(q) => match &ruleset.competition {
                None => Answer::unsupported(format!("rule set {} has no competition clauses", ruleset.id())),
                Some(rules) => match crate::competition::answer(rules, q) {
                    Ok(v) => Answer::one("standings", v),
                    Err(e) => Answer::reject(e.reject_kind(), e.to_string()),
                },
            },
            Query::Ruling(q) if q.moves.len() > MAX_RULING_PLIES => Answer::error(format!(
                "{} moves: a ruling takes at most {MAX_RULING_PLIES} (limits.ruling_plies)",
                q.moves.len()
            )),
            Query::Ruling(q) => match &ruleset.repetition {
                None => Answer::unsupported(format!("rule set {} has no repetition (棋例) clauses", ruleset.id())),
                Some(rep) => match crate::repetition::rule(rules, rep, q) {
                    Ok(r) => Answer::one("ruling", r.to_json(rep)),
                    Err(e) => Answer::reject(e.reject_kind(), e.to_string()),
                },
            },
            other => Answer::unsupported(format!(
                "the reference does not answer `{}` yet",
                other.name()
            )),
        })
    })();
    result.unwrap_or_else(|a| a)
}

/// The arbiter's rules of a rule set, or the answer that it has none.
fn arbiter_rules(ruleset: &RuleSet) -> Result<&crate::arbiter::ArbiterRules, Answer> {
    ruleset
        .arbiter
        .as_ref()
        .ok_or_else(|| Answer::unsupported(format!("rule set {} has no arbiter's clauses (result.*, touch.*, foul.* …)", ruleset.id())))
}

/// The rejection of an input the arbiter refuses.
fn arbiter_reject(e: crate::arbiter::ArbiterError) -> Answer {
    match e {
        crate::arbiter::ArbiterError::Fen(f) => Answer::reject(fen_reject_kind(&f), f.to_string()),
        crate::arbiter::ArbiterError::Reject { kind, message } => Answer::reject(kind, message),
    }
}

/// The checks of `cases check` that need the rule VM: outside `validate_fen`
/// cases, FENs are canonical and the `moves` input is playable (unless the
/// case expects that very rejection).
pub fn reference_problems(reference: &Reference, case: &Case, text: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(fen) = case.input.get("fen").and_then(|v| v.as_str()) else {
        return out;
    };
    if case.query == "validate_fen" {
        return out;
    }
    let moves: Vec<String> = case
        .input
        .get("moves")
        .and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    for edition in &case.editions {
        let Ok(rules) = reference.rules(edition) else {
            continue;
        };
        let expects_reject = matches!(case.expected(edition), Some(Expected::Reject(_)));
        match fen::parse(rules, fen) {
            Ok((pos, _)) => {
                let canonical = pos.to_fen(rules);
                if canonical != fen {
                    out.push(Problem::new(
                        &case.path,
                        locate_key(text, "input"),
                        format!("the FEN is not canonical; write `{canonical}`"),
                    ));
                    break;
                }
            }
            Err(e) if !expects_reject => {
                out.push(Problem::new(
                    &case.path,
                    locate_key(text, "input"),
                    format!("{edition}: the FEN is refused: {e}"),
                ));
                continue;
            }
            Err(_) => continue,
        }
        if !expects_reject {
            if let Err(a) = position(rules, fen, &moves) {
                out.push(Problem::new(
                    &case.path,
                    locate_key(text, "input"),
                    format!("{edition}: the moves cannot be played: {a}"),
                ));
            }
        }
    }
    out.dedup();
    out
}
