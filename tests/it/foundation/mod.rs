//! Tests of the foundation: spec loader, movement VM, FEN, perft.

#[path = "../common/reference.rs"]
mod reference;

mod loader;
mod perft;
mod properties;
mod variants;
