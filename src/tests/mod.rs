//! Unit tests that reach across modules into internals no embedder sees (the grammar's
//! rules, the 棋例's forcing-line analysis, the reports, the planning of written files):
//! moved here from `tests/it`, which tests the public API and the binary.

#[cfg(feature = "cli")]
mod diagram;
mod foundation;
mod input;
// The timing helpers of the integration tests (a thread's CPU seconds), shared as the
// benches share them.
#[path = "../../tests/it/common/load.rs"]
mod load;
mod notation_spec;
mod output;
mod repetition;
#[cfg(feature = "cli")]
mod reports;
mod spec_edit;
