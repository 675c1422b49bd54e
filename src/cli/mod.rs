//! The commands of `xqspec`, one file per command group: their clap arguments and the glue
//! from arguments to the library (reading files, printing tables, exit messages).

pub mod adjudicate;
pub mod arbiter;
pub mod clock;
pub mod competition;
pub mod conform;
pub mod diagram;
pub mod repetition;
pub mod report;
