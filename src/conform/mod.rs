//! The conformance suite: case format, checks, coverage, the implementer
//! protocol, the runner and the harness for Rust implementers.
//!
//! The case format is defined in `conformance/README.md`, the protocol in
//! `conformance/PROTOCOL.md`.
//!
//! Code map:
//! - `case`: one case file parsed into a `Case` (or a located `Problem`).
//! - [`conditions`]: `qili-conditions.yaml`, the conditions of every sentence of the 棋例
//!   texts, which cases name as holding or just failing.
//! - [`suite`]: every file of `conformance/` (from disk or embedded), the closed
//!   vocabularies, and the checks of `xqspec cases check` that need no rule VM (a room
//!   each: `suite/load.rs`, `vocabulary.rs`, `well_formed.rs`, `one_edit.rs`).
//! - `judge`: `judge()`, the one comparison of an answer with an
//!   expectation, and the checks of answer values. The typed [`Query`] and [`Answer`]
//!   are `crate::query`'s (re-exported here).
//! - [`check`]: the checks of `xqspec cases check`, those that need the rule VM through
//!   the reference.
//! - [`protocol`]: wire messages, the [`Implementation`] trait, its hello ([`About`], one
//!   type, the message as it goes on the wire), [`protocol::serve`].
//! - [`subject`]: what the runner talks to: in-process (also the reference,
//!   `crate::reference`, as an [`Implementation`]), or an adapter process
//!   (restarted after a crash, hang, garbage or wrong id).
//! - `process`: a child process in a process group of its own, with timed and bounded reads
//!   (a line, the output per request), ended with its whole group (used by adapters and UCI);
//!   `with_transcript` records the lines exchanged, for bug reports.
//! - [`uci`]: a UCI or UCCI engine as a subject (perft and legal moves through `go perft`, or
//!   through `banmoves` and `go depth 1`); one `Engine` with a `Dialect`; `ruling` read from
//!   the score of a search of the move that completes the cycle, for the engines
//!   `SEARCHERS` lists.
//! - [`runner`]: selection and the plan (a case whose answer is the same under every rule
//!   set runs once), one case × edition at a time, statuses, the stop rules (`not_asked`),
//!   known failures; `runner/output.rs` tables (failures by basis), JSON lines, Markdown.
//!   The runner stops
//!   asking after `STALL_AFTER` time-outs or `FAULTS_AFTER` faults in a row, the declared
//!   cases left `not_asked`.
//! - [`issue`]: bug reports fit to paste: one failing case in the program's terms
//!   (`conform --issue`), and a run's failures grouped, each by its smallest case.
//! - [`known`]: known-failures files (`{id, edition?, reason, answer}`): parsing and
//!   checking, whether a failure is the listed one, writing and updating the files. Each
//!   entry's `answer` is the wrong answer expected instead of the case's, judged like an
//!   expectation; `reference-known-failures.yaml` is the reference's.
//! - [`coverage`], [`schema`]: generated `reports/coverage.md` and
//!   `conformance/case.schema.json`.
//! - [`harness`]: `cargo test` entry points (this crate's datatest harness,
//!   and [`harness::Harness`] for Rust implementers).
//!
//! A case's `basis`, `runs` and `fixed` are set or proposed by `scripts/basis.py` and
//! `scripts/fixed.py` and checked by `cases check`. `conformance/adapters/` is not part of
//! the suite (the loaders skip it). The commands `conform`, `serve` and `cases` are
//! `src/cli/conform.rs`. Depends on `query`, `reference` (the in-process subject, the
//! harness and `cases check` only) and the domains; nothing depends on it but `report` and
//! the command line.
//!
//! Invariants: every answer is judged by `judge()` and nowhere else; a fault
//! of an implementation costs one case, never the run; a malformed case file
//! is reported with its place and never stops the loading of the others.

pub mod case;
pub mod check;
pub mod conditions;
pub mod coverage;
pub mod glob;
pub mod harness;
pub mod issue;
pub(crate) mod judge;
pub mod known;
pub(crate) mod process;
pub mod protocol;
pub mod runner;
pub mod schema;
pub mod subject;
pub mod suite;
pub mod uci;

pub(crate) use judge::{judge, Judgement};
pub use process::{end_programs_on_interrupt, with_transcript};
pub use protocol::{About, Identity, Implementation};
pub use suite::Suite;
