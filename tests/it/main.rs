//! The integration tests, one binary: each module is one part of the crate, tested from
//! outside through the library and the `xqspec` binary. (The conformance cases run apart,
//! through datatest-stable, in `tests/conformance.rs`.)

#[path = "common/load.rs"]
mod load;

mod adjudicate;
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
mod notation;
mod notation_cli;
mod notation_fuzz;
mod notation_pgn_cases;
mod notation_replay;
mod notation_roundtrip;
mod notation_spec;
mod readme_examples;
mod records;
mod repetition;
mod repetition_symmetry;
mod reports;
mod spec_meaning;
mod stream;
mod web;
