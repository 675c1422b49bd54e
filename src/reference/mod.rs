//! The reference implementation: xqspec's own rule domains answering the protocol's
//! queries ([`crate::query`]). `xqspec serve` speaks the protocol with it, the runner puts
//! the suite to it in process (`conform::subject`), and the diff reports compute answers
//! under rule sets no case is written for.
//!
//! - [`Reference`]: every edition of a spec compiled once, and the rule sets made with an
//!   overlay sent with an ask, cached.
//! - `answer_under`: one query under one compiled rule set, dispatched to `answers`,
//!   one function per query, each calling its domain.
//!
//! Depends on the rule domains and `query`; nothing of the suite or the runner.

pub(crate) mod answers;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::query::{Answer, Query};
use crate::ruleset::RuleSet;
use crate::spec::{Overlay, Spec};
use crate::vm::Rules;

pub(crate) use answers::position;
pub use answers::record_status;

/// The most positions one `perft` of the reference visits (every ply counted, the last in
/// bulk; `crate::perft::perft_within`): about a second of work on a laptop core. The
/// suite's largest perft visits about 1.5 million. Declared in the hello as
/// `limits.perft_nodes`; a perft beyond it is answered `unsupported`, naming the bound.
pub const PERFT_NODE_BUDGET: u64 = 20_000_000;

/// The most moves of one `ruling` query: the cycle search compares positions pairwise and
/// every move of a cycle is classified with a forcing search, so the work grows faster
/// than the line. Declared in the hello as `limits.ruling_plies`.
pub const MAX_RULING_PLIES: usize = 1_000;

/// The most moves of one `game_status` query, and events of one `outcome` query: the arbiter
/// watches the board move by move and rules a cycle only where a position comes back (each
/// ruling bounded per ply by `repetition.forcing`'s `ply_nodes`). Declared in the hello as
/// `limits.game_moves`.
pub const MAX_GAME_MOVES: usize = 100_000;

/// A compiled rule set, or why it does not compile.
type Compiled = Result<Arc<RuleSet>, String>;

/// xqspec's rule domains as an implementation under test.
pub struct Reference {
    spec: Spec,
    editions: Vec<String>,
    rulesets: BTreeMap<String, Compiled>,
    /// Rule sets made by applying an overlay sent with an ask, by rule-set id.
    with_overlays: Mutex<BTreeMap<String, Compiled>>,
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
                    RuleSet::compile(e.clone())
                        .map(Arc::new)
                        .map_err(|err| err.to_string()),
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

    /// The editions the reference answers under, in the spec's order.
    pub(crate) fn editions(&self) -> &[String] {
        &self.editions
    }

    /// The compiled rule set of an edition, with an overlay applied when one is given.
    pub fn ruleset(
        &self,
        edition: &str,
        overlay: Option<&Overlay>,
    ) -> Result<Arc<RuleSet>, String> {
        let Some(o) = overlay else {
            return match self.rulesets.get(edition) {
                Some(Ok(r)) => Ok(r.clone()),
                Some(Err(e)) => Err(format!("edition {edition} does not compile: {e}")),
                None => Err(format!("unknown edition {edition}")),
            };
        };
        if o.edition != edition {
            return Err(format!(
                "overlay {} applies to {}, not to {edition}",
                o.overlay, o.edition
            ));
        }
        let mut cache = self.with_overlays.lock().unwrap_or_else(|p| p.into_inner());
        cache
            .entry(o.ruleset_id())
            .or_insert_with(|| {
                let ed = self.spec.with_overlay(o).map_err(|e| e.to_string())?;
                RuleSet::compile(ed)
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
    }

    /// The compiled movement rules of an edition.
    pub(crate) fn rules(&self, edition: &str) -> Result<&Rules, String> {
        match self.rulesets.get(edition) {
            Some(Ok(r)) => Ok(&r.vm),
            Some(Err(e)) => Err(format!("edition {edition} does not compile: {e}")),
            None => Err(format!("unknown edition {edition}")),
        }
    }

    /// The answer to `query` under an edition (with an overlay applied when one is given).
    /// The reference keeps no state but a cache of rule sets made with overlays, so this
    /// takes `&self`.
    pub fn answer_query(&self, edition: &str, overlay: Option<&Overlay>, query: &Query) -> Answer {
        match self.ruleset(edition, overlay) {
            Ok(r) => answer_under(&r, query),
            Err(e) => Answer::unsupported(e),
        }
    }
}

/// The reference's answer to `query` under a compiled rule set.
pub(crate) fn answer_under(ruleset: &RuleSet, query: &Query) -> Answer {
    use answers as a;
    let result = match query {
        Query::LegalMoves { fen, moves } => a::legal_moves(ruleset, fen, moves),
        Query::Perft { fen, moves, depth } => a::perft(ruleset, fen, moves, *depth),
        Query::Status { fen, moves } => a::status(ruleset, fen, moves),
        Query::ValidateFen { fen } => a::validate_fen(ruleset, fen),
        Query::ParseMove {
            fen,
            moves,
            notation,
            text,
        } => a::parse_move(ruleset, fen, moves, notation, text),
        Query::FormatMove {
            fen,
            moves,
            notation,
            mv,
        } => a::format_move(ruleset, fen, moves, notation, mv),
        Query::Outcome(q) => a::outcome(ruleset, q),
        Query::TouchMove(q) => a::touch_move(ruleset, q),
        Query::GameStatus(q) => a::game_status(ruleset, q),
        Query::Clock(q) => a::clock(ruleset, q),
        Query::Playoff(q) => a::playoff(ruleset, q),
        Query::Standings(q) => a::standings(ruleset, q),
        Query::Ruling(q) => a::ruling(ruleset, q),
        other => Ok(Answer::unsupported(format!(
            "the reference does not answer `{}` yet",
            other.name()
        ))),
    };
    result.unwrap_or_else(|a| a)
}
