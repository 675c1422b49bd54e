//! The suite as a whole: loading every case file (from disk or embedded),
//! the closed vocabularies, and `xqspec cases check`.
//!
//! - `load`: the suite's files read from disk or from the copy embedded at build time, each
//!   parsed as far as it goes ([`Suite::from_files`]).
//! - `vocabulary`: the suite's own tables (`vocabulary.yaml`, `features.yaml`,
//!   `profiles.yaml`, `exemptions.yaml`).
//! - `well_formed`: the checks of `xqspec cases check` that need no rule VM
//!   ([`Suite::check`]), against the vocabularies and the spec's [`SpecFacts`].
//! - `one_edit`: whether a case's `fixed:` input changes one thing only.

use std::collections::{BTreeMap, BTreeSet};

use super::case::{Case, Problem};

mod load;
mod one_edit;
#[cfg(test)]
mod tests;
mod vocabulary;
mod well_formed;

#[cfg(test)]
pub(crate) use load::{embedded_files, EMBEDDED};
pub(crate) use vocabulary::Exemption;
pub use vocabulary::{Profile, Vocabulary};
pub use well_formed::SpecFacts;

/// Version of the case set; bumped when cases are added, changed or retired.
/// Independent of [`crate::conform::protocol::PROTOCOL_VERSION`].
pub const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Every file of the suite, parsed as far as it goes.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// Cases that parsed, in path order.
    pub cases: Vec<Case>,
    /// The closed vocabularies the cases are checked against.
    pub vocabulary: Vocabulary,
    pub(crate) exemptions: Vec<Exemption>,
    pub(crate) retired: BTreeSet<String>,
    /// Problems found while loading (files that did not parse).
    pub problems: Vec<Problem>,
    /// Text of each case file by path, for locating later problems.
    pub texts: BTreeMap<String, String>,
    /// Text of `reference-known-failures.yaml`: the cases xqspec's own reference is known
    /// to fail, each with its reason and answer (see [`Suite::reference_known_failures`]).
    pub(crate) reference_known_failures: Option<String>,
    /// `qili-conditions.yaml`: the conditions of the 棋例 texts cases name.
    pub conditions: super::conditions::Conditions,
    /// Its text, for locating problems.
    pub(crate) conditions_text: String,
    /// The named selections of `profiles.yaml`, by name.
    pub profiles: BTreeMap<String, Profile>,
}

impl Suite {
    /// The known failures of xqspec's reference implementation
    /// (`reference-known-failures.yaml`), checked against the cases.
    pub fn reference_known_failures(&self) -> Result<super::runner::KnownFailures, Vec<Problem>> {
        match &self.reference_known_failures {
            None => Ok(Default::default()),
            Some(t) => super::runner::KnownFailures::parse(REFERENCE_KNOWN_FAILURES, t, self),
        }
    }

    /// The case with this id.
    pub fn case(&self, id: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.id == id)
    }
}

/// The folder of the suite root that holds third-party adapters and their measuring script
/// (`adapters/`): not cases, never read as the suite.
pub const ADAPTERS: &str = "adapters";

/// The file of the reference implementation's known failures, in the suite root.
pub const REFERENCE_KNOWN_FAILURES: &str = "reference-known-failures.yaml";
