//! `xqspec board`: a position drawn as SVG.

use std::path::PathBuf;

use clap::Args;

use crate::diagram::{position_after, svg, Arrow, DiagramOptions};
use crate::output::Outputs;
use crate::ruleset::RuleSet;

/// Options of `xqspec board`.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// Position in FEN, or `startpos`.
    #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
    pub fen: String,
    /// Moves (ICCS) played from the position first; the last one is marked.
    #[arg(long, num_args = 0..)]
    pub moves: Vec<String>,
    /// Write the SVG to this file instead of printing it (never over a file the command
    /// reads: --overlay, a file of --spec).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// An arrow from one point to another (`h2e2`, `h2-e2`, `h2e2:chase` with a label); repeatable.
    #[arg(long, value_name = "FROM-TO")]
    pub arrow: Vec<String>,
    /// A caption under the board.
    #[arg(long)]
    pub caption: Option<String>,
    #[arg(long, default_value = crate::ruleset::DEFAULT)]
    pub edition: String,
}

/// Runs `xqspec board` under `ruleset`.
pub fn run(ruleset: &RuleSet, a: &BoardArgs, mut outputs: Outputs) -> Result<(), String> {
    let file = match &a.svg {
        Some(path) => Some(outputs.claim(path, "--svg").map_err(|e| e.to_string())?),
        None => None,
    };
    let (pos, last_move) = position_after(ruleset, &a.fen, &a.moves)?;
    let arrows = a
        .arrow
        .iter()
        .map(|t| {
            Arrow::parse(t).ok_or_else(|| {
                format!("--arrow `{t}`: write two points, like h2e2, h2-e2 or h2e2:chase")
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let opts = DiagramOptions {
        last_move,
        arrows,
        caption: a.caption.clone(),
    };
    opts.check()?;
    let text = svg(ruleset, &pos, &opts);
    match &file {
        Some(f) => {
            f.write(text.as_bytes()).map_err(|e| e.to_string())?;
            println!("wrote {}", f.path().display());
        }
        None => print!("{text}"),
    }
    Ok(())
}
