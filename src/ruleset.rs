//! A rule set: one edition, possibly with an event overlay applied, compiled once for
//! every rule domain. Movement and check (`vm`) are always there; the other domains
//! (棋例, the arbiter's rules, time, competition) are `None` when the edition has none of
//! their clauses (the AXF rule set has no clock schemes, for instance).
//!
//! Every command, the reference implementation and the runner get their rules here, so
//! an edition, the AXF rule set and an edition with an overlay are handled alike.

use std::path::Path;

use crate::spec::{Edition, Overlay, Spec, SpecError, SpecErrors};
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
    /// Compiles every domain of `edition`; every error of every domain is reported.
    pub fn compile(edition: Edition) -> Result<RuleSet, SpecErrors> {
        let mut errors: Vec<SpecError> = Vec::new();
        let vm = Rules::compile(&edition).map_err(|e| errors.push(e)).ok();
        let arbiter = crate::arbiter::ArbiterRules::compile(&edition).map_err(|e| errors.extend(e)).ok().flatten();
        let first = vm.as_ref().map_or(crate::board::Side::Red, Rules::first_to_move);
        let clock = crate::clock::ClockRules::compile(&edition, first).map_err(|e| errors.extend(e)).ok().flatten();
        let competition = match crate::competition::CompetitionRules::compile(&edition) {
            None => None,
            Some(r) => r.map_err(|e| errors.push(e)).ok(),
        };
        let repetition = match &vm {
            Some(vm) => crate::repetition::RepetitionRules::compile(&edition, vm).map_err(|e| errors.extend(e)).ok().flatten(),
            None => None,
        };
        match vm {
            Some(vm) if errors.is_empty() => Ok(RuleSet { edition, vm, arbiter, clock, competition, repetition }),
            _ => Err(SpecErrors(errors)),
        }
    }

    /// The rule set's id: the edition id, or `EDITION+OVERLAY`.
    pub fn id(&self) -> &str {
        &self.edition.id
    }

    /// A rule set of a loaded spec by id (an edition, or an edition with a shipped overlay).
    pub fn of_spec(spec: &Spec, id: &str) -> Result<RuleSet, SpecErrors> {
        RuleSet::compile(spec.ruleset(id)?)
    }

    /// A rule set of the built-in spec.
    pub fn builtin(id: &str) -> Result<RuleSet, SpecErrors> {
        RuleSet::of_spec(&Spec::builtin()?, id)
    }
}

/// The rule set a command runs under: the spec from `spec_dir` (or the built-in one), the
/// rule set `id`, and, when given, the overlay read from `overlay_file` (whose `edition`
/// must be `id` itself).
pub fn load(spec_dir: Option<&Path>, id: &str, overlay_file: Option<&Path>) -> Result<RuleSet, String> {
    let spec = match spec_dir {
        Some(d) => Spec::load_dir(d),
        None => Spec::builtin(),
    }
    .map_err(|e| e.to_string())?;
    let edition = match overlay_file {
        None => spec.ruleset(id).map_err(|e| e.to_string())?,
        Some(f) => {
            let o: Overlay = Overlay::load(f).map_err(|e| e.to_string())?;
            if o.edition != id {
                return Err(format!(
                    "{}: the overlay applies to edition `{}`, but the command runs under `{id}` (give --edition {})",
                    f.display(),
                    o.edition,
                    o.edition
                ));
            }
            spec.with_overlay(&o).map_err(|e| e.to_string())?
        }
    };
    RuleSet::compile(edition).map_err(|e| e.to_string())
}
