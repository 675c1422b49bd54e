//! The commands of `xqspec`, one file per command group: their clap arguments and the glue
//! from arguments to the library (reading files, printing tables, exit messages).

pub mod adjudicate;
pub mod arbiter;
pub mod clock;
pub mod competition;
pub mod conform;
pub mod diagram;
pub mod progress;
pub mod repetition;
pub mod report;

/// A game in progress on the command line: the rule set, the position it started from and
/// the moves played since (`touch`, `status`).
#[derive(clap::Args)]
pub struct GameArgs {
    #[arg(long, default_value = xqspec::ruleset::DEFAULT)]
    pub edition: String,
    /// Position in FEN, or `startpos`.
    #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
    pub fen: String,
    /// The moves played from the position (ICCS).
    #[arg(long, num_args = 0..)]
    pub moves: Vec<String>,
}

impl GameArgs {
    /// The starting position as a FEN (`startpos` written out under the rule set).
    pub fn fen_text(&self, rs: &xqspec::ruleset::RuleSet) -> String {
        if self.fen == "startpos" { rs.vm.start_position().to_fen(&rs.vm) } else { self.fen.clone() }
    }
}
