//! The movement VM against an independent reference (moved from tests/it: the reference reads
//! the movement clauses' typed shapes, `vm::data`, which no embedder needs).

mod properties;
mod reference;
mod variants;
