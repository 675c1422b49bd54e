//! A rule set: one edition, possibly with an event overlay applied, compiled once for
//! every rule domain. Movement and check (`vm`) are always there; the other domains
//! (棋例, the arbiter's rules, time, competition) are `None` when the edition has none of
//! their clauses (the AXF rule set has no clock schemes, for instance).
//!
//! Every command, the reference implementation and the runner get their rules here, so
//! an edition, the AXF rule set and an edition with an overlay are handled alike.
//!
//! Every domain's compile step has one contract, `Result<Option<T>, Vec<SpecError>>`: `None`
//! without the domain's clauses, else the rules or every error found, each at its clause (a
//! step whose input failed is skipped, so that no error follows from another). [`load`]
//! returns a typed [`LoadError`] (`UnknownRuleSet` for an id the spec does not know), and
//! [`DEFAULT`] is the one rule set a command runs under when none is named. Overlays
//! (`src/spec/overlay.rs`) are data that overrides data, like a derived edition, with a
//! stricter contract (existing clauses only, shapes kept, keys merged).

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use crate::spec::{Edition, Overlay, Spec, SpecError, SpecErrors, UnknownRuleSet};
use crate::vm::Rules;

/// The rule set a command runs under when none is named (`--edition`, or the file's
/// `edition`): the 2020 edition.
pub const DEFAULT: &str = "cxa-2020";

/// An edition compiled for every rule domain.
#[derive(Clone, Debug)]
pub struct RuleSet {
    /// The resolved edition (with the overlay's changes when there is one).
    pub edition: Edition,
    /// Movement, check and status (`src/vm`).
    pub vm: Rules,
    /// The arbiter's rules: results, draws, touch-move, irregularities, fouls (`src/arbiter`).
    pub arbiter: Option<crate::arbiter::ArbiterRules>,
    /// Clock schemes, clock rules and play-offs (`src/clock`); `None` without clock clauses.
    pub clock: Option<crate::clock::ClockRules>,
    /// The repetition rules, 棋例 (`src/repetition`); `None` without `repetition.*` clauses.
    pub repetition: Option<crate::repetition::RepetitionRules>,
    /// Scoring, tiebreak orders, byes, withdrawals, line-ups (`src/competition`).
    pub competition: Option<crate::competition::CompetitionRules>,
}

impl RuleSet {
    /// Judges `moves` from `fen` as `xqspec ruling` does (`arbiter::rule_line`):
    /// refused under a rule set without 棋例 clauses.
    pub fn rule_line(
        &self,
        fen: String,
        moves: Vec<String>,
        every_move: bool,
        cut_at_end: bool,
    ) -> Result<crate::arbiter::LineRuling, String> {
        let rep = self
            .repetition
            .as_ref()
            .ok_or_else(|| format!("rule set {} has no repetition (棋例) clauses", self.id()))?;
        crate::arbiter::rule_line(
            &self.vm,
            self.arbiter.as_ref(),
            rep,
            fen,
            moves,
            every_move,
            cut_at_end,
        )
    }

    /// Compiles every domain of `edition`; every error of every domain is reported.
    pub fn compile(edition: Edition) -> Result<RuleSet, SpecErrors> {
        let mut errors: Vec<SpecError> = Vec::new();
        let vm = match Rules::compile(&edition) {
            Ok(Some(vm)) => Some(vm),
            Ok(None) => {
                errors.push(crate::vm::no_movement_rules(&edition));
                None
            }
            Err(e) => {
                errors.extend(e);
                None
            }
        };
        let arbiter = crate::arbiter::ArbiterRules::compile(&edition)
            .map_err(|e| errors.extend(e))
            .ok()
            .flatten();
        let first = vm
            .as_ref()
            .map_or(crate::board::Side::Red, Rules::first_to_move);
        let clock = crate::clock::ClockRules::compile(&edition, first)
            .map_err(|e| errors.extend(e))
            .ok()
            .flatten();
        let competition = crate::competition::CompetitionRules::compile(&edition)
            .map_err(|e| errors.extend(e))
            .ok()
            .flatten();
        let repetition = match &vm {
            Some(vm) => crate::repetition::RepetitionRules::compile(&edition, vm)
                .map_err(|e| errors.extend(e))
                .ok()
                .flatten(),
            None => None,
        };
        match vm {
            Some(vm) if errors.is_empty() => Ok(RuleSet {
                edition,
                vm,
                arbiter,
                clock,
                competition,
                repetition,
            }),
            _ => Err(SpecErrors(errors)),
        }
    }

    /// The rule set's id: the edition id, or `EDITION+OVERLAY`.
    pub fn id(&self) -> &str {
        &self.edition.id
    }

    /// The rules the board decides by: the VM and the 棋例, if any.
    pub fn board(&self) -> crate::arbiter::BoardRules<'_> {
        crate::arbiter::BoardRules {
            vm: &self.vm,
            repetition: self.repetition.as_ref(),
        }
    }

    /// The arbiter's rules, or, for a rule set without them, the error that says so.
    pub fn require_arbiter(&self) -> Result<&crate::arbiter::ArbiterRules, String> {
        self.arbiter
            .as_ref()
            .ok_or_else(|| format!("rule set {} has no arbiter's clauses", self.id()))
    }

    /// A rule set of a loaded spec by id (an edition, or an edition with a shipped overlay).
    pub fn of_spec(spec: &Spec, id: &str) -> Result<RuleSet, SpecErrors> {
        RuleSet::compile(spec.ruleset(id)?)
    }

    /// A rule set of the built-in spec.
    ///
    /// Each is compiled once per process and handed out as a copy: the embedded spec cannot
    /// change, and the cache holds at most one rule set per id that spec knows (an unknown id
    /// is refused before it is looked up).
    pub fn builtin(id: &str) -> Result<RuleSet, SpecErrors> {
        let spec = Spec::builtin_read().as_ref().map_err(Clone::clone)?;
        if !spec.knows_ruleset(id) {
            return RuleSet::of_spec(spec, id);
        }
        let cache = builtin_compiled();
        let known = cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned();
        // Compiled outside the lock; two threads asking at once both compile, one is kept.
        let compiled = known.unwrap_or_else(|| {
            let made = Arc::new(RuleSet::of_spec(spec, id));
            let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
            map.entry(id.to_string()).or_insert(made).clone()
        });
        (*compiled).clone()
    }
}

/// A built-in rule set as compiled, or why it does not compile.
type Compiled = Arc<Result<RuleSet, SpecErrors>>;

/// The built-in rule sets compiled so far in this process, by id ([`RuleSet::builtin`]).
fn builtin_compiled() -> &'static Mutex<BTreeMap<String, Compiled>> {
    static COMPILED: OnceLock<Mutex<BTreeMap<String, Compiled>>> = OnceLock::new();
    COMPILED.get_or_init(Mutex::default)
}

/// Why [`load`] found no rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The spec, the overlay file or the rule set has errors (every one, each at its place).
    Spec(SpecErrors),
    /// The id names no rule set of the spec.
    UnknownRuleSet(UnknownRuleSet),
    /// The overlay file applies to another edition than the one the command runs under.
    OverlayEdition {
        /// The overlay file.
        file: String,
        /// The edition the overlay names.
        overlay_edition: String,
        /// The rule set the command runs under.
        ruleset: String,
    },
}

impl LoadError {
    /// The message, with `place` (the option or field that named the rule set, like
    /// `--edition`) in front when the rule set is unknown: the place is where it is wrong.
    pub fn named_at(&self, place: &str) -> String {
        match self {
            LoadError::UnknownRuleSet(_) => format!("{place}: {self}"),
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Spec(e) => write!(f, "{e}"),
            LoadError::UnknownRuleSet(u) => write!(f, "{u}"),
            LoadError::OverlayEdition { file, overlay_edition, ruleset } => write!(
                f,
                "{file}: the overlay applies to edition `{overlay_edition}`, but the command runs under `{ruleset}` (give --edition {overlay_edition})"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

wraps!(LoadError {
    Spec(SpecErrors),
});

/// The rule set a command runs under: the spec from `spec_dir` (or the built-in one), the
/// rule set `id`, and, when given, the overlay read from `overlay_file` (whose `edition`
/// must be `id` itself).
pub fn load(
    spec_dir: Option<&Path>,
    id: &str,
    overlay_file: Option<&Path>,
) -> Result<RuleSet, LoadError> {
    let spec = match spec_dir {
        Some(d) => Spec::load_dir(d),
        None => Spec::builtin(),
    }?;
    let edition = match overlay_file {
        None if !spec.knows_ruleset(id) => {
            return Err(LoadError::UnknownRuleSet(spec.unknown_ruleset(id)))
        }
        None => spec.ruleset(id)?,
        Some(f) => {
            let o: Overlay = Overlay::load(f)?;
            if o.edition != id {
                return Err(LoadError::OverlayEdition {
                    file: f.display().to_string(),
                    overlay_edition: o.edition,
                    ruleset: id.to_string(),
                });
            }
            spec.with_overlay(&o)?
        }
    };
    Ok(RuleSet::compile(edition)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_rule_sets_are_kept_only_for_the_ids_the_spec_knows() {
        let spec = Spec::builtin().unwrap();
        let ids = spec.ruleset_ids();
        for id in &ids {
            // Asked twice: the copy handed out is the rule set of that id each time.
            assert_eq!(RuleSet::builtin(id).unwrap().id(), id);
            assert_eq!(RuleSet::builtin(id).unwrap().id(), id);
        }
        for unknown in ["cxa-1066", "cxa-2020+nothing", ""] {
            let refused = RuleSet::builtin(unknown).unwrap_err();
            assert_eq!(refused, RuleSet::of_spec(&spec, unknown).unwrap_err());
        }
        let kept = builtin_compiled().lock().unwrap();
        assert!(kept.keys().all(|k| ids.contains(k)), "{:?}", kept.keys());
        assert!(!kept.is_empty());
    }
}
