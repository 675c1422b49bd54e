#![warn(missing_docs)]
//! xqspec: the Chinese Xiangqi Association's competition rules (《象棋竞赛规则》, editions
//! 1999, 2011 and 2020) as executable data, and a conformance suite any xiangqi program can
//! be tested against.
//!
//! The crate holds four things:
//!
//! * **The rules as data.** Every rule fact is a YAML clause with a stable id
//!   (`movement.horse`), the article it encodes and its provenance ([`spec`]). A small rule
//!   VM ([`vm`]) compiles movement and check into tables; the other rule domains — the
//!   repetition rules (棋例, [`repetition`]), the arbiter's rules (裁判, [`arbiter`]), time
//!   (计时, [`clock`]) and the competition rules (比赛通则, [`competition`]) — compile their
//!   own clauses. [`ruleset::load`] compiles one edition (or an event overlay on it) for
//!   every domain at once into a [`ruleset::RuleSet`].
//! * **The reference implementation.** [`reference::Reference`] answers every query of the
//!   protocol ([`query::Query`]) from those rules.
//! * **The conformance suite.** The cases of `conformance/`, embedded in the crate
//!   ([`conform::Suite::embedded`]), each naming the clauses it tests and the answer the
//!   rules give; [`conform::runner`] puts them to a program speaking the protocol
//!   (`conformance/PROTOCOL.md`), a UCI engine or a Rust type.
//! * **The harness.** [`conform::harness::Harness`] runs the suite against your
//!   [`conform::Implementation`] from one `#[test]`.
//!
//! The code map and the direction of the dependencies are in `ARCHITECTURE.md`; the
//! command line (`xqspec`) lives with the binary, not in the library.
//!
//! # Example
//!
//! Two cases of the suite — the generals may not face each other (将帅对面) — put to the
//! reference implementation under the 2020 rules:
//!
//! ```
//! use xqspec::conform::harness::Harness;
//! use xqspec::conform::runner::Status;
//! use xqspec::conform::Suite;
//! use xqspec::reference::Reference;
//!
//! let mut suite = Suite::embedded();
//! suite.cases.retain(|case| case.id.starts_with("fen-generals-facing"));
//!
//! let reference = Reference::builtin().expect("the built-in spec loads");
//! let results = Harness::new(&reference)
//!     .suite(suite)
//!     .edition("cxa-2020")
//!     .results()
//!     .expect("the run starts");
//!
//! assert_eq!(results.len(), 2);
//! for r in &results {
//!     assert_eq!(r.status, Status::Pass, "{}: {}", r.id, r.detail);
//! }
//! ```
//!
//! An implementation of your own answers the queries it declares in
//! [`conform::About::queries`] and is skipped on the others; see
//! [`conform::harness::Harness`].

#[macro_use]
mod codes;

pub mod board;
pub mod input;
pub mod spec;
pub mod ruleset;
pub mod spec_check;
pub mod vm;
pub mod arbiter;
pub mod fen;
pub mod line;
pub mod perft;
pub mod report;
pub mod markdown;
pub mod notation;
pub mod repetition;
pub mod query;
pub mod reference;
pub mod conform;
pub mod clock;
pub mod competition;
pub mod diagram;
