//! The suite's own tables: the closed vocabularies (`vocabulary.yaml`, `features.yaml`),
//! the named selections (`profiles.yaml`) and the clauses no case can decide
//! (`exemptions.yaml`).

use std::collections::{BTreeMap, BTreeSet};

shapes! {
    /// The query table of `vocabulary.yaml`.
    #[derive(PartialEq)]
    pub(crate) struct QuerySpec {
        pub(crate) required: Vec<String>,
        pub(crate) optional: Vec<String>,
        /// The name of the field an accepted answer carries (`moves`, `status` …).
        pub(crate) answer: String,
        /// JSON types of input fields that are not strings (`{events: array}`); the input
        /// fields of the first queries (`fen`, `moves`, `depth`, `notation`) are known.
        #[serde(default)]
        pub(crate) types: BTreeMap<String, String>,
    }
}

/// The closed vocabularies: `vocabulary.yaml` and `features.yaml`.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// The queries by name.
    pub(crate) queries: BTreeMap<String, QuerySpec>,
    pub(crate) reserved_queries: Vec<String>,
    pub(crate) statuses: BTreeMap<String, String>,
    pub(crate) notations: BTreeMap<String, String>,
    pub(crate) reject_kinds: BTreeMap<String, String>,
    /// Feature name → description.
    pub(crate) features: BTreeMap<String, String>,
    /// The features `features.yaml` marks `optional: true`: what a program may leave out. A
    /// case carrying one has `basis: optional`.
    pub(crate) optional_features: BTreeSet<String>,
}

impl Vocabulary {
    /// The optional features (`optional: true` in `features.yaml`) with their descriptions,
    /// in name order: what PROTOCOL.md lists as a program's to leave out.
    pub fn optional_features(&self) -> Vec<(&str, &str)> {
        self.optional_features
            .iter()
            .filter_map(|f| Some((f.as_str(), self.features.get(f)?.as_str())))
            .collect()
    }
}

shapes! {
    pub(super) struct RawVocabulary {
        pub(super) queries: BTreeMap<String, QuerySpec>,
        pub(super) reserved_queries: Vec<String>,
        pub(super) statuses: BTreeMap<String, String>,
        pub(super) notations: BTreeMap<String, String>,
        pub(super) reject_kinds: BTreeMap<String, String>,
    }

    pub(super) struct RawFeatures {
        pub(super) features: BTreeMap<String, RawFeature>,
    }

    pub(super) struct RawFeature {
        pub(super) description: String,
        /// A feature a program may leave out (`basis: optional` for the cases carrying it).
        #[serde(default)]
        pub(super) optional: bool,
    }

    /// A named selection of the suite (`profiles.yaml`, `xqspec conform --profile NAME`).
    #[derive(PartialEq)]
    pub struct Profile {
        /// What it is for, in one line.
        pub description: String,
        /// The areas it runs.
        pub areas: Vec<String>,
        /// The features whose cases it leaves out.
        #[serde(default)]
        pub skip_features: Vec<String>,
    }

    pub(super) struct RawProfiles {
        pub(super) profiles: BTreeMap<String, Profile>,
    }

    /// One clause no case can decide.
    #[derive(PartialEq)]
    pub(crate) struct Exemption {
        pub clause: String,
        /// The editions the exemption holds for; empty means every edition having the clause.
        #[serde(default)]
        pub(crate) editions: Vec<String>,
        pub(crate) reason: String,
    }

    pub(super) struct RawExemptions {
        pub(super) exemptions: Vec<Exemption>,
    }
}
