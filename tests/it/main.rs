//! The integration tests, one binary: each module is one part of the crate, tested from
//! outside through the library and the `xqspec` binary. (The conformance cases run apart,
//! through datatest-stable, in `tests/conformance.rs`.) Two test binaries, so that `cargo
//! test` links twice, not thirty times.
//!
//! - `notation*`: grammar, round-trip, fuzz, PGN and replay tests; `records`: hostile record
//!   files (`tests/data/records/`, each described in its README) through both `replay` and
//!   `adjudicate`: the same games, the same places; `stream`: streamed pieces on many threads
//!   against whole files on one.
//! - `hostile_*` (issue 45): commands that write (an output that is an input, two outputs to
//!   one name, a symbolic link out of the folder, a folder of others' files: refused, and
//!   every file byte-identical after), arguments (`--pgn` with `--fen`, `--threads`,
//!   non-UTF-8, clock and spec files blamed at their true place), the peak memory of
//!   `replay` and `adjudicate` over 1,000 and 4,000 small files (`/proc/PID/status`), engines
//!   and adapters that print an endless line, flood the handshake, hide behind a wrapper
//!   script or die at every request (each within its bound, its time and its memory, no
//!   process left), and the web server (`src/cli/web/mod.rs`).
//! - `conform_*`: the runner against fake implementations (`tests/fakes/`) that crash, hang
//!   or print garbage.
//! - `foundation/`: loader errors, perft reference counts (`tests/data/perft.yaml`),
//!   data-driven variants (edited YAML changes the moves), property tests against the slow
//!   reference generator in `common/reference.rs`, which is built from the same YAML but
//!   shares no generation code with the VM.
//! - `layers`: the layer table of ARCHITECTURE.md against every `crate::` path of `src/`.
//! - `sizes`: no file of `src/` over 1,000 lines, no function over 100.
//! - `shapes`: every type a document is read into is declared by `shapes!`, but the named
//!   exceptions.
//!
//! `tests/embed/` is a program that depends on the library with `default-features = false`
//! (its own workspace and lock file): CI builds and runs it, so the lean library keeps
//! building.

#[path = "common/assert.rs"]
mod assert;
#[path = "common/cli.rs"]
mod cli;
#[path = "common/games.rs"]
mod games;
#[path = "common/load.rs"]
mod load;
#[path = "common/random_line.rs"]
mod random_line;
#[path = "common/rule_sets.rs"]
mod rule_sets;
#[path = "common/snapshot.rs"]
mod snapshot;
#[path = "common/spec_edit.rs"]
mod spec_edit;

mod adjudicate;
mod answers;
mod arbiter;
mod arbiter_cli;
mod clock;
mod competition;
mod conform_cli;
mod conform_faults;
mod conform_harness_example;
mod conform_protocol_doc;
mod conform_serve;
mod diagram;
mod engine_ruling;
mod foundation;
mod hostile_args;
mod hostile_engines;
mod hostile_files;
mod hostile_memory;
mod hostile_web;
mod input;
mod layers;
mod notation;
mod notation_cli;
mod notation_fuzz;
mod notation_pgn_cases;
mod notation_replay;
mod notation_roundtrip;
mod readme_examples;
mod records;
mod repetition;
mod repetition_symmetry;
mod reports;
mod shapes;
mod sizes;
mod spec_meaning;
mod stream;
mod web;
