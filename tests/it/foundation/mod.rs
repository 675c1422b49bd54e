//! Tests of the foundation: spec loader, FEN, perft (the movement VM against an independent
//! reference is in `src/tests/foundation/`).

mod loader;
mod perft;
