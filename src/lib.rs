#![warn(missing_docs)]
// Without the `cli` feature the report tables are left out, and with them the only users of
// a few crate-private helpers (table of contents lookups, display of tiebreak values). Dead
// code is still found: CI lints the default build, where everything is used.
#![cfg_attr(not(feature = "cli"), allow(dead_code, unused_imports))]
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
//! # Embedding the rules
//!
//! Without the command line, the library builds alone: depend on it with
//! `xqspec = { version = "0.1", default-features = false }` (the default feature `cli` adds
//! the command line, the reports and their tables, and their crates). Legal moves, a 棋例
//! ruling with its classes and articles, and a record adjudicated from its moves:
//!
//! ```
//! use xqspec::batch::{adjudicate_files, Item};
//! use xqspec::notation::stream::Options;
//! use xqspec::repetition::ruling::{rule, RulingQuery};
//! use xqspec::ruleset::RuleSet;
//!
//! let rs = RuleSet::builtin("cxa-2020").expect("the built-in rules compile");
//!
//! // The legal moves of the start position, in ICCS.
//! let start = rs.vm.start_position();
//! let moves: Vec<String> = start.legal_moves(&rs.vm).iter().map(|m| m.iccs()).collect();
//! assert_eq!(moves.len(), 44);
//! assert!(moves.contains(&"h2e2".to_string()));
//!
//! // A cannon that goes back and forth threatening mate (长杀), ruled by the 棋例.
//! let q = RulingQuery {
//!     fen: "3aka3/4n4/4b4/4C4/p3p3p/9/2c6/2C6/4K4/9 w - - 0 1".into(),
//!     moves: ["c2g2", "c3g3", "g2c2", "g3c3", "c2g2", "c3g3"].map(String::from).to_vec(),
//! };
//! let ruling = rule(&rs.vm, rs.repetition.as_ref().unwrap(), &q).expect("legal moves");
//! assert_eq!(ruling.verdict.name(), "red_must_change");
//! let first = &ruling.plies[0];
//! println!("ply {}: {}", first.ply, first.reason);
//! for c in &ruling.clauses {
//!     println!("decided by {} (art. {})", c.clause, c.article.as_deref().unwrap_or("—"));
//! }
//!
//! // A record file (any notation and encoding, many games a file), adjudicated from its
//! // moves on every core; games come back in file order.
//! let record = std::env::temp_dir().join("xqspec-doc-example.pgn");
//! let game = "[FEN \"3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. 车八进二 1-0\n";
//! std::fs::write(&record, game).unwrap();
//! let mut results = Vec::new();
//! adjudicate_files(&rs, &[record], &Options::default(), true, &mut |item| {
//!     if let Item::Game(row) = item {
//!         let found = row.found.expect("the game replays");
//!         let clause = found.clause.as_ref().expect("a result names its clause");
//!         results.push(format!("{} by {} (art. {})", found.result_name(), clause.clause, clause.article.as_deref().unwrap()));
//!     }
//! })
//! .expect("2020 has the arbiter's clauses");
//! assert_eq!(results, ["red_wins by result.checkmate (art. 4.1.1)"]);
//! ```
//!
//! # Running the suite from a test
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

pub mod answer;
pub mod arbiter;
pub mod batch;
pub mod board;
pub mod input;
pub mod line;
pub mod perft;
pub mod ruleset;
pub mod spec;
pub mod spec_check;
pub mod vm;
// Generated reports (needs the `cli` feature: tables and text diffs).
#[cfg(feature = "cli")]
pub mod report;
// Markdown and terminal tables (needs the `cli` feature).
pub mod clock;
pub mod competition;
pub mod conform;
pub mod diagram;
#[cfg(feature = "cli")]
pub mod markdown;
pub mod notation;
pub mod output;
pub mod query;
pub mod reference;
pub mod repetition;
