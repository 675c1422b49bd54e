//! The 棋例 sheet of `xqspec ruling --svg`: a judged cycle drawn on one SVG sheet.

use crate::arbiter::LineRuling;
use crate::diagram::{self, Arrow, DiagramOptions};
use crate::repetition::Ruling;
use crate::ruleset::RuleSet;
use crate::vm::Position;

/// A judged line's cycle as one sheet (`ruling --svg`, the desk's `/api/sheet`): the
/// position before the first move judged, then the board after each; refused past
/// [`diagram::MAX_SHEET_DIAGRAMS`].
pub fn line_sheet(rs: &RuleSet, j: &LineRuling) -> Result<String, String> {
    sheet_fits(j.ruling.plies.len())?;
    let from = j
        .ruling
        .plies
        .first()
        .map_or(j.line.moves.len(), |p| p.ply - 1);
    Ok(cycle_sheet(
        rs,
        &j.ruling,
        &j.line.positions[from..],
        from,
        &j.chinese,
    ))
}

/// Whether a sheet of `judged` moves (and the position before them) fits on one sheet.
pub fn sheet_fits(judged: usize) -> Result<(), String> {
    let boards = judged + 1;
    if boards > diagram::MAX_SHEET_DIAGRAMS {
        return Err(format!(
            "the sheet would hold {boards} diagrams (the start and {judged} moves judged); a sheet holds at most {} (MAX_SHEET_DIAGRAMS): judge fewer moves",
            diagram::MAX_SHEET_DIAGRAMS
        ));
    }
    Ok(())
}

/// The judged cycle on one sheet: the position it starts from, then the board after every
/// move judged, with the move framed, each chase (or piece met) as an arrow labelled with
/// the move's class, and a caption naming the move. `positions[i]` stands before move
/// `from + i + 1` (`from`: the moves before the first judged, the last position after
/// the last move).
pub fn cycle_sheet(
    rs: &RuleSet,
    r: &Ruling,
    positions: &[Position],
    from: usize,
    chinese: &[String],
) -> String {
    let Some(rep) = rs.repetition.as_ref() else {
        return diagram::sheet(&[], 1, None);
    };
    let first = r
        .plies
        .first()
        .map_or(from + positions.len() - 1, |p| p.ply - 1);
    let mut boards = vec![diagram::svg(
        rs,
        &positions[first - from],
        &DiagramOptions {
            caption: Some(if r.plies.is_empty() {
                format!("after ply {first}: nothing judged")
            } else {
                format!("the cycle starts: before ply {}", first + 1)
            }),
            ..Default::default()
        },
    )];
    for p in &r.plies {
        let c = &rep.classes[p.facts.class];
        let arrows = p
            .arrows
            .iter()
            .map(|&(from, to)| Arrow {
                from,
                to,
                label: Some(c.zh.clone()),
            })
            .collect();
        let caption = format!(
            "ply {}: {} {} · {} {}",
            p.ply,
            p.facts.side.name(),
            chinese[p.ply - 1],
            c.zh,
            c.name
        );
        boards.push(diagram::svg(
            rs,
            &positions[p.ply - from],
            &DiagramOptions {
                last_move: Some(p.facts.mv),
                arrows,
                caption: Some(caption),
            },
        ));
    }
    // In words: 红方长捉，禁止 · 黑方两闲，允许 · 红方须变着 Red must change (by the rulebook's
    // text). The basis in English: its Chinese words have characters the outlines lack.
    let words = rs.edition.words();
    let v = words.word("verdict", r.verdict.name());
    let verdict = match &r.patterns {
        Some(ps) => {
            let b = r.basis.said(words);
            let side = |p: &crate::repetition::ruling::SidePattern| {
                format!("{}{}，{}", p.side_zh, p.zh, p.status_zh)
            };
            format!(
                "{} 棋例 · {} · {} · {} {} (by {})",
                rs.id(),
                side(&ps[0]),
                side(&ps[1]),
                v.zh,
                v.en,
                b.en
            )
        }
        None => format!("{} 棋例 · {} {}", rs.id(), v.zh, v.en),
    };
    diagram::sheet(&boards, 4, Some(&verdict))
}
