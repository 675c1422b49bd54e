//! `xqspec ruling`: the 棋例 ruling on a cycle of moves, as a table or as JSON.

use std::fmt::Write as _;

use tabled::builder::Builder;
use tabled::settings::Style;

use super::{rule, RulingQuery};
use crate::board::Move;
use crate::notation::{format_move, Notation};
use crate::ruleset::RuleSet;

/// Arguments of `xqspec ruling`.
#[derive(clap::Args, Debug)]
pub struct RulingArgs {
    /// The position the moves start from (FEN, or `startpos`).
    #[arg(long, allow_hyphen_values = true)]
    pub fen: String,
    /// The moves played (ICCS), the cycle at the end.
    #[arg(long, num_args = 1.., required = true)]
    pub moves: Vec<String>,
    /// Print the answer object of the `ruling` query instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Class every move given, whether or not they repeat (no verdict is meaningful then).
    #[arg(long)]
    pub every_move: bool,
    /// The rule set: cxa-1999, cxa-2011, cxa-2020, axf (or EDITION+OVERLAY).
    #[arg(long, default_value = "cxa-2020")]
    pub edition: String,
}

/// Runs `xqspec ruling`.
pub fn run(rs: &RuleSet, a: &RulingArgs) -> Result<(), String> {
    let rep = rs
        .repetition
        .as_ref()
        .ok_or_else(|| format!("rule set {} has no repetition (棋例) clauses", rs.id()))?;
    let fen = a.fen.clone();
    let q = RulingQuery { fen: fen.clone(), moves: a.moves.clone() };
    let r = if a.every_move { super::ruling::rule_every_move(&rs.vm, rep, &q) } else { rule(&rs.vm, rep, &q) }.map_err(|e| e.to_string())?;
    if a.json {
        println!("{}", r.to_json(rep));
        return Ok(());
    }
    // The position before every move, for the Chinese notation of each.
    let mut pos = crate::fen::parse(&rs.vm, &fen).map_err(|e| e.to_string())?.0;
    let mut chinese = Vec::new();
    for t in &a.moves {
        let m = Move::parse_iccs(t).ok_or_else(|| format!("`{t}` is not ICCS"))?;
        chinese.push(format_move(&rs.vm, &pos, m, Notation::Chinese, Default::default()).unwrap_or_default());
        pos.play(&rs.vm, m).map_err(|e| e.to_string())?;
    }
    let mut out = String::new();
    match r.cycle {
        Some((from, to)) => writeln!(out, "{} {}: plies {from}–{to} judged ({})", rs.id(), "棋例", r.judged).ok(),
        None => writeln!(out, "{}: the moves neither repeat a position nor form a repeating pattern", rs.id()).ok(),
    };
    if !r.plies.is_empty() {
        let mut b = Builder::default();
        b.push_record(["ply", "side", "move", "ICCS", "class", "targets", "reason"]);
        for p in &r.plies {
            let c = &rep.classes[p.facts.class];
            b.push_record([
                p.ply.to_string(),
                p.facts.side.name().to_string(),
                chinese[p.ply - 1].clone(),
                p.facts.mv.iccs(),
                format!("{} {}", c.zh, c.name),
                p.targets.join(" "),
                p.reason.clone(),
            ]);
        }
        writeln!(out, "{}", b.build().with(Style::markdown())).ok();
    }
    if let Some(ps) = &r.patterns {
        for (side, p) in ["red", "black"].iter().zip(ps.iter()) {
            writeln!(out, "{side}: {} ({}, {})", p.zh, p.pattern, super::ruling::status_name(p.status)).ok();
        }
    }
    writeln!(out, "verdict: {}", r.verdict.name()).ok();
    for c in &r.clauses {
        writeln!(out, "  {} (art. {})", c.clause, c.article.as_deref().unwrap_or("none")).ok();
    }
    print!("{out}");
    Ok(())
}
