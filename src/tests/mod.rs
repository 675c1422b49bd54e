//! Unit tests that reach across modules into internals no embedder sees (the grammar's
//! rules, the movement VM against an independent reference, the 棋例's forcing-line
//! analysis, the reports, the drawings, the readers, the planning of written files): moved
//! here from `tests/it`, which tests the public API and the binary.

#[cfg(feature = "cli")]
mod diagram;
mod foundation;
mod input;
mod notation_spec;
mod output;
mod repetition;
#[cfg(feature = "cli")]
mod reports;

// Helpers shared with the integration tests (they name the crate `xqspec`, as the root's
// `extern crate self` lets them here): timing (a thread's CPU seconds), random legal lines,
// a folder's files, the built-in spec with textual edits, shared assertions.
#[path = "../../tests/it/common/assert.rs"]
mod assert;
#[path = "../../tests/it/common/load.rs"]
mod load;
#[path = "../../tests/it/common/random_line.rs"]
mod random_line;
#[path = "../../tests/it/common/snapshot.rs"]
mod snapshot;
#[path = "../../tests/it/common/spec_edit.rs"]
mod spec_edit;
