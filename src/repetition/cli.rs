//! `xqspec ruling`: the 棋例 ruling on a cycle of moves, as a table or as JSON.

use std::fmt::Write as _;

use tabled::builder::Builder;
use tabled::settings::Style;

use super::{rule, Ruling, RulingQuery};
use crate::board::Move;
use crate::diagram::{self, Arrow, DiagramOptions};
use crate::notation::{format_move, Notation};
use crate::ruleset::RuleSet;
use crate::vm::Position;

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
    /// Also draw the judged cycle as one SVG sheet: the position where it starts, then the
    /// board after every move judged, the move framed and each chase drawn as an arrow.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
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
    // A sheet beyond its limit is refused before anything is judged or drawn: with
    // `--every-move` every move is judged, so the count is known now.
    let sheet_limit = |path: &std::path::Path, judged: usize| -> Result<(), String> {
        let boards = judged + 1;
        if boards > diagram::MAX_SHEET_DIAGRAMS {
            return Err(format!(
                "{}: the sheet would hold {boards} diagrams (the start and {judged} moves judged); a sheet holds at most {} (MAX_SHEET_DIAGRAMS): judge fewer moves, or leave out --svg",
                path.display(),
                diagram::MAX_SHEET_DIAGRAMS
            ));
        }
        Ok(())
    };
    if let (Some(path), true) = (&a.svg, a.every_move) {
        sheet_limit(path, a.moves.len())?;
    }
    let fen = a.fen.clone();
    let q = RulingQuery { fen: fen.clone(), moves: a.moves.clone() };
    let r = if a.every_move { super::ruling::rule_every_move(&rs.vm, rep, &q) } else { rule(&rs.vm, rep, &q) }.map_err(|e| e.to_string())?;
    // The sheet needs the positions from the one before the first move judged.
    let sheet_from = match &a.svg {
        None => None,
        Some(path) => {
            sheet_limit(path, r.plies.len())?;
            Some(r.plies.first().map_or(a.moves.len(), |p| p.ply - 1))
        }
    };
    // The Chinese notation of each move, and the positions the sheet draws.
    let mut pos = crate::fen::parse(&rs.vm, &fen).map_err(|e| e.to_string())?.0;
    let mut positions = Vec::new();
    let mut chinese = Vec::new();
    for (i, t) in a.moves.iter().enumerate() {
        if sheet_from.is_some_and(|from| i >= from) {
            positions.push(pos.clone());
        }
        let m = Move::parse_iccs(t).ok_or_else(|| format!("`{t}` is not ICCS"))?;
        chinese.push(format_move(&rs.vm, &pos, m, Notation::Chinese, Default::default()).unwrap_or_default());
        pos.play(&rs.vm, m).map_err(|e| e.to_string())?;
    }
    positions.push(pos);
    if let (Some(path), Some(from)) = (&a.svg, sheet_from) {
        std::fs::write(path, cycle_sheet(rs, &r, &positions, from, &chinese)).map_err(|e| format!("{}: {e}", path.display()))?;
        if !a.json {
            println!("wrote {}", path.display());
        }
    }
    if a.json {
        println!("{}", r.to_json(rep));
        return Ok(());
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

/// The judged cycle on one sheet: the position it starts from, then the board after every
/// move judged, with the move framed, each chase (or piece met) as an arrow labelled with
/// the move's class, and a caption naming the move. `positions[i]` stands before move
/// `from + i + 1` (`from`: the moves before the first judged, the last position after
/// the last move).
pub fn cycle_sheet(rs: &RuleSet, r: &Ruling, positions: &[Position], from: usize, chinese: &[String]) -> String {
    let Some(rep) = rs.repetition.as_ref() else { return diagram::sheet(&[], 1, None) };
    let first = r.plies.first().map_or(from + positions.len() - 1, |p| p.ply - 1);
    let mut boards = vec![diagram::svg(
        rs,
        &positions[first - from],
        &DiagramOptions {
            caption: Some(if r.plies.is_empty() { format!("after move {first}: nothing judged") } else { format!("the cycle starts: before move {}", first + 1) }),
            ..Default::default()
        },
    )];
    for p in &r.plies {
        let c = &rep.classes[p.facts.class];
        let arrows = p.arrows.iter().map(|&(from, to)| Arrow { from, to, label: Some(c.zh.clone()) }).collect();
        let caption = format!("move {}: {} {} · {} {}", p.ply, p.facts.side.name(), chinese[p.ply - 1], c.zh, c.name);
        boards.push(diagram::svg(rs, &positions[p.ply - from], &DiagramOptions { last_move: Some(p.facts.mv), arrows, caption: Some(caption) }));
    }
    let verdict = match &r.patterns {
        Some([red, black]) => format!("{} 棋例 · red {} · black {} · verdict: {}", rs.id(), red.zh, black.zh, r.verdict.name()),
        None => format!("{} 棋例 · verdict: {}", rs.id(), r.verdict.name()),
    };
    diagram::sheet(&boards, 4, Some(&verdict))
}
