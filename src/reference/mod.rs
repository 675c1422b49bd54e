//! The reference implementation: xqspec's own rule domains answering the protocol's
//! queries ([`crate::query`]). `xqspec serve` speaks the protocol with it, the runner puts
//! the suite to it in process (`conform::subject`), and the diff reports compute answers
//! under rule sets no case is written for.
//!
//! - [`Reference`]: every edition of a spec compiled once, and the rule sets made with an
//!   overlay sent with an ask, cached by the overlay's content ([`cache`]: at most
//!   [`OVERLAY_RULESETS`] of them).
//! - `answer_under`: one query under one compiled rule set, dispatched to `answers`,
//!   one function per query or kind of query, each calling its domain.
//!
//! A cached rule set is found by a digest of the whole overlay, never by its id; it is made
//! outside the lock, shared by the threads asking for the same one, and the least recently
//! used goes first: the one cache across the requests of `serve`, `web` and the Python
//! package. The work of one query is bounded (`PERFT_NODE_BUDGET`, `MAX_RULING_PLIES`).
//!
//! Depends on the rule domains and `query`; nothing of the suite or the runner. Used by
//! `conform` (the in-process subject, the harness, `cases check`), `report` (behaviour under
//! overlays), `xqspec serve` and `xqspec web`.

pub(crate) mod answers;
pub mod cache;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::arbiter::AfterEnd;
use crate::notation::NotationAsk;
use crate::query::{Answer, Query};
use crate::ruleset::RuleSet;
use crate::spec::{Edition, Overlay, Spec, SpecErrors};
use crate::vm::Rules;

pub(crate) use answers::position;
pub use answers::{record_outcome, record_status};

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

/// The most rule sets made with an overlay sent with an ask that the reference keeps (a
/// compiled rule set takes about 0.6 MB): beyond it the least recently used is dropped
/// and made again when next asked for. The conformance suite sends a handful of overlays;
/// `xqspec web` sent 1,200 distinct ones grows by some 80 MB (700 MB without the bound:
/// `tests/it/hostile_web.rs`).
pub const OVERLAY_RULESETS: usize = 64;

/// A compiled rule set, or why it does not compile.
type Compiled = Result<Arc<RuleSet>, String>;

/// xqspec's rule domains as an implementation under test.
pub struct Reference {
    spec: Spec,
    editions: Vec<String>,
    rulesets: BTreeMap<String, Compiled>,
    /// Rule sets made by applying an overlay sent with an ask, by the digest of the
    /// overlay's whole content (never by its id: two clients may send one id with
    /// different data), at most [`OVERLAY_RULESETS`].
    with_overlays: cache::Bounded<cache::Digest, Compiled>,
}

impl Reference {
    /// The reference over the spec built into the crate.
    pub fn builtin() -> Result<Reference, String> {
        let spec = Spec::builtin().map_err(|e| e.to_string())?;
        // The built-in rule sets are compiled once per process (`RuleSet::builtin`).
        Ok(Reference::of(&spec, |e| RuleSet::builtin(&e.id)))
    }

    /// The reference over a loaded spec; every edition is compiled.
    pub fn new(spec: &Spec) -> Reference {
        Reference::of(spec, |e| RuleSet::compile(e.clone()))
    }

    /// The reference over `spec`, its editions' rule sets made by `compile`.
    fn of(spec: &Spec, compile: impl Fn(&Edition) -> Result<RuleSet, SpecErrors>) -> Reference {
        let rulesets = spec
            .editions()
            .iter()
            .map(|e| {
                (
                    e.id.clone(),
                    compile(e).map(Arc::new).map_err(|err| err.to_string()),
                )
            })
            .collect();
        Reference {
            spec: spec.clone(),
            editions: spec.editions().iter().map(|e| e.id.clone()).collect(),
            rulesets,
            with_overlays: cache::Bounded::new(OVERLAY_RULESETS),
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
        self.with_overlays.get_or_make(overlay_digest(o), || {
            let ed = self.spec.with_overlay(o).map_err(|e| e.to_string())?;
            RuleSet::compile(ed)
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
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

/// The digest of everything the rule set of an overlay (or its error) is made from: every
/// field of the overlay, with the file and lines its errors name. (The spec it applies to
/// is the reference's own, fixed for its life.)
fn overlay_digest(o: &Overlay) -> cache::Digest {
    cache::Digest::of(|w| {
        serde_json::to_writer(&mut *w, o).map_err(std::io::Error::other)?;
        // The fields serde skips, after a separator no JSON text holds.
        w.write_all(b"\0")?;
        w.write_all(o.file.as_bytes())?;
        for l in &o.locations {
            write!(w, "\0{}:{}:{}", l.file, l.line, l.column)?;
        }
        Ok(())
    })
}

/// The reference's answer to `query` under a compiled rule set (one already made, as
/// [`Reference::ruleset`] gives it).
pub fn answer_under(ruleset: &RuleSet, query: &Query) -> Answer {
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
        } => a::notation_query(ruleset, fen, moves, notation, NotationAsk::Parse(text)),
        Query::FormatMove {
            fen,
            moves,
            notation,
            mv,
        } => a::notation_query(ruleset, fen, moves, notation, NotationAsk::Format(mv)),
        Query::Outcome(q) => a::judge_game(ruleset, a::GameQuery::Outcome(q), AfterEnd::Refuse),
        Query::TouchMove(q) => a::touch_move(ruleset, q),
        Query::GameStatus(q) => a::judge_game(ruleset, a::GameQuery::Status(q), AfterEnd::Refuse),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped overlay `provincial-2012-open` with its natural limit set to `rounds`
    /// (its id unchanged), or with a change of a clause the edition lacks.
    fn overlay(rounds: Option<u64>) -> Overlay {
        static SHIPPED: std::sync::OnceLock<Overlay> = std::sync::OnceLock::new();
        let mut o = SHIPPED
            .get_or_init(|| {
                let spec = Spec::builtin().unwrap();
                spec.overlay("provincial-2012-open").unwrap().clone()
            })
            .clone();
        let change = o
            .changes
            .iter_mut()
            .find(|c| c.clause == "draw.natural_limit")
            .unwrap();
        match rounds {
            Some(n) => change.data["rounds"] = n.into(),
            None => change.clause = "no.such_clause".into(),
        }
        o
    }

    fn rounds(r: &Reference, o: &Overlay) -> Result<u64, String> {
        r.ruleset("cxa-2011", Some(o)).map(|rs| {
            rs.edition.clause("draw.natural_limit").unwrap().data["rounds"]
                .as_u64()
                .unwrap()
        })
    }

    #[test]
    fn overlays_with_one_id_and_other_data_each_get_their_own_rule_set() {
        let r = Reference::builtin().unwrap();
        let (forty, fifty, bad) = (overlay(Some(40)), overlay(Some(50)), overlay(None));
        assert_eq!(rounds(&r, &forty), Ok(40));
        assert_eq!(rounds(&r, &fifty), Ok(50));
        // An invalid overlay after a valid one with its id is refused; a valid one after
        // it is accepted.
        let e = rounds(&r, &bad).unwrap_err();
        assert!(e.contains("no.such_clause"), "{e}");
        assert_eq!(rounds(&r, &forty), Ok(40));
        let r = Reference::builtin().unwrap();
        assert!(rounds(&r, &bad).is_err());
        assert_eq!(rounds(&r, &fifty), Ok(50));
    }

    #[test]
    fn many_threads_get_their_own_overlay_s_rule_set_and_the_cache_stays_bounded() {
        let r = Reference::builtin().unwrap();
        std::thread::scope(|s| {
            for t in 0..8u64 {
                let r = &r;
                s.spawn(move || {
                    for i in 0..12u64 {
                        // Two overlays of one id shared by every thread, and some of the
                        // thread's own to push entries out.
                        let n = if (t + i) % 2 == 0 { 40 } else { 50 };
                        assert_eq!(rounds(r, &overlay(Some(n))), Ok(n));
                        let own = 100 + t * 1000 + i;
                        assert_eq!(rounds(r, &overlay(Some(own))), Ok(own));
                    }
                });
            }
        });
        assert!(r.with_overlays.len() <= OVERLAY_RULESETS);
    }
}
