//! The conformance suite: case format, checks, coverage, the implementer
//! protocol, the runner and the harness for Rust implementers.
//!
//! The case format is defined in `conformance/README.md`, the protocol in
//! `conformance/PROTOCOL.md`. Every comparison of an answer with an
//! expectation goes through [`query::judge`].

pub mod case;
pub mod query;
pub mod suite;
pub mod protocol;
pub mod subject;
pub mod runner;
pub mod uci;
pub mod reference;
pub mod coverage;
pub mod cli;
pub mod harness;
pub mod schema;

pub use case::{Case, Expect, Expected, Problem};
pub use query::{judge, Answer, Judgement, Query};
pub use suite::{Suite, SpecFacts, Vocabulary};
pub use protocol::{About, Implementation};
