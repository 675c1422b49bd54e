//! xqspec: the Chinese Xiangqi Association competition rules as executable data.
//!
//! See `ARCHITECTURE.md` for the code map.

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
