//! Board diagrams: a position drawn as SVG, for people reading rulings, reports and
//! conformance failures (`xqspec board`, `xqspec diff`, `xqspec conform --report`).
//!
//! What is drawn comes from the rule set: the grid of `board.grid`, the river between the
//! halves of `board.river`, the palace diagonals of `board.palace`, the file numerals of
//! `board.file_numbering` and the pieces' names of `pieces.kinds`. The drawing itself
//! (sizes, colours, fonts) is this module's. Red is at the bottom, as printed diagrams
//! show it (1.3). The output is deterministic, so generated reports can be checked for
//! staleness byte by byte.
//!
//! Pieces are discs with a ring in the side's colour and the kind's character; a reader
//! without a CJK font still sees whose piece stands where (and `tests/diagram.rs`
//! checks the rendered pixels without depending on glyphs).

use std::fmt::Write as _;

use crate::board::{Move, Side, Square, FILES, RANKS};
use crate::ruleset::RuleSet;
use crate::vm::Position;

/// Spacing of the points, in SVG units.
pub const CELL: i32 = 48;
/// Room around the grid for file numerals and coordinates.
pub const MARGIN: i32 = 44;
/// Radius of a piece disc.
pub const PIECE_RADIUS: i32 = 21;

/// Colours, named for tests that check rendered pixels.
pub mod colour {
    /// The board's background.
    pub const BOARD: &str = "#f3dcaa";
    /// The grid lines.
    pub const LINE: &str = "#6b4423";
    /// The face of a piece.
    pub const PIECE: &str = "#fbf3e2";
    /// Red pieces: ring and character.
    pub const RED: &str = "#c8102e";
    /// Black pieces: ring and character.
    pub const BLACK: &str = "#1f1f1f";
    /// The last move's points.
    pub const LAST_MOVE: &str = "#2e7dd7";
    /// Arrows.
    pub const ARROW: &str = "#1a9850";
}

/// An arrow drawn over the board (an attack, a chase, a move considered).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub from: Square,
    pub to: Square,
    /// Short text shown at the arrow's middle, if any (`chase`, `check`).
    pub label: Option<String>,
}

impl Arrow {
    /// Reads `h2e2`, `h2-e2` or `h2e2:chase` (a label after a colon).
    pub fn parse(text: &str) -> Option<Arrow> {
        let (points, label) = match text.split_once(':') {
            Some((p, l)) => (p, Some(l.trim().to_string()).filter(|l| !l.is_empty())),
            None => (text, None),
        };
        let points = points.trim().replace('-', "");
        if points.len() != 4 {
            return None;
        }
        Some(Arrow { from: Square::parse(&points[..2])?, to: Square::parse(&points[2..])?, label })
    }
}

/// What to draw besides the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiagramOptions {
    /// The move that led to the position: its two points are marked.
    pub last_move: Option<Move>,
    pub arrows: Vec<Arrow>,
    /// A caption under the board (a case id, a FEN).
    pub caption: Option<String>,
}

/// The board's features read from the rule set's clauses.
struct BoardFeatures {
    /// The river lies between this rank and the next (Red's frame), if `board.river` says.
    river_after: Option<u8>,
    /// Palace diagonals for Red, as point pairs (Black's are the 180° rotation).
    diagonals: Vec<(Square, Square)>,
    /// File numerals, `[red, black]`, 1 to 9 from each side's right.
    numerals: [Vec<String>; 2],
}

fn features(ruleset: &RuleSet) -> BoardFeatures {
    let ed = &ruleset.edition;
    let data = |id: &str| ed.clause(id).map(|c| &c.data);
    let ranks = |r: &serde_yaml::Value| -> Option<(u64, u64)> {
        let rs = r.get("ranks")?.as_sequence()?;
        Some((rs.first()?.as_u64()?, rs.get(1)?.as_u64()?))
    };
    // The river: the end of the region of board.river that starts at Red's back rank.
    let river_after = data("board.river")
        .and_then(|d| d.get("regions")?.as_mapping().cloned())
        .and_then(|m| m.values().filter_map(ranks).find(|&(lo, hi)| lo == 0 && hi + 1 < RANKS as u64).map(|(_, hi)| hi as u8));
    let point = |v: &serde_yaml::Value| v.as_str().and_then(Square::parse);
    let diagonals = data("board.palace")
        .and_then(|d| d.get("diagonals")?.as_sequence().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|pair| {
            let p = pair.as_sequence()?;
            Some((point(p.first()?)?, point(p.get(1)?)?))
        })
        .collect();
    let list = |side: &str| -> Vec<String> {
        data("board.file_numbering")
            .and_then(|d| d.get("numerals")?.get(side)?.as_sequence().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string).or_else(|| v.as_u64().map(|n| n.to_string())))
            .collect()
    };
    BoardFeatures { river_after, diagonals, numerals: [list("red"), list("black")] }
}

/// SVG x of a file (0 = file a, Red's left).
pub fn x_of(file: u8) -> i32 {
    MARGIN + file as i32 * CELL
}

/// SVG y of a rank (0 = Red's back rank, at the bottom).
pub fn y_of(rank: u8) -> i32 {
    MARGIN + (RANKS as i32 - 1 - rank as i32) * CELL
}

/// Width and height of the drawing.
pub fn size() -> (i32, i32) {
    (2 * MARGIN + (FILES as i32 - 1) * CELL, MARGIN + (RANKS as i32 - 1) * CELL + BOTTOM + CAPTION)
}

/// Room under the grid for Red's numerals and the ICCS letters.
const BOTTOM: i32 = 62;
/// Height reserved for the caption.
const CAPTION: i32 = 18;

const FONT_CJK: &str = "'Noto Serif CJK SC','Noto Sans CJK SC','Source Han Serif SC','Songti SC','SimSun','WenQuanYi Zen Hei',serif";
const FONT_LATIN: &str = "'DejaVu Sans',Verdana,Arial,sans-serif";

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The position drawn as a standalone SVG document.
pub fn svg(ruleset: &RuleSet, pos: &Position, opts: &DiagramOptions) -> String {
    let f = features(ruleset);
    let (w, h) = size();
    let mut s = String::with_capacity(8192);
    let _ = writeln!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_LATIN}">"#);
    let _ = writeln!(
        s,
        r#"<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker></defs>"#,
        colour::ARROW
    );
    let _ = writeln!(s, r#"<rect x="0" y="0" width="{w}" height="{h}" fill="{}"/>"#, colour::BOARD);
    grid(&mut s, &f);
    labels(&mut s, &f);
    if let Some(m) = opts.last_move {
        for (sq, dash) in [(m.from, r#" stroke-dasharray="4 3""#), (m.to, "")] {
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="3"{dash}/>"#,
                x_of(sq.file()) - CELL / 2 + 2,
                y_of(sq.rank()) - CELL / 2 + 2,
                CELL - 4,
                CELL - 4,
                colour::LAST_MOVE
            );
        }
    }
    pieces(&mut s, ruleset, pos);
    for a in &opts.arrows {
        arrow(&mut s, a);
    }
    if let Some(c) = &opts.caption {
        let _ = writeln!(s, r#"<text x="{}" y="{}" font-size="12" font-family="{FONT_LATIN},{FONT_CJK}" text-anchor="middle" fill="{}">{}</text>"#, w / 2, h - 6, colour::LINE, escape(c));
    }
    s.push_str("</svg>\n");
    s
}

fn line(s: &mut String, (x1, y1): (i32, i32), (x2, y2): (i32, i32), width: f32) {
    let _ = writeln!(s, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="{width}"/>"#, colour::LINE);
}

fn grid(s: &mut String, f: &BoardFeatures) {
    let (left, right) = (x_of(0), x_of(FILES - 1));
    let (bottom, top) = (y_of(0), y_of(RANKS - 1));
    // Outer frame, a little outside the grid.
    let _ = writeln!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="3"/>"#,
        left - 6,
        top - 6,
        right - left + 12,
        bottom - top + 12,
        colour::LINE
    );
    for r in 0..RANKS {
        line(s, (left, y_of(r)), (right, y_of(r)), 1.5);
    }
    for file in 0..FILES {
        let edge = file == 0 || file == FILES - 1;
        match f.river_after {
            // Inner files stop at the river (河界: the lines are broken there).
            Some(r) if !edge => {
                line(s, (x_of(file), y_of(0)), (x_of(file), y_of(r)), 1.5);
                line(s, (x_of(file), y_of(r + 1)), (x_of(file), y_of(RANKS - 1)), 1.5);
            }
            _ => line(s, (x_of(file), bottom), (x_of(file), top), 1.5),
        }
    }
    for &(a, b) in &f.diagonals {
        for side in Side::BOTH {
            let (a, b) = (a.relative_to(side), b.relative_to(side));
            line(s, (x_of(a.file()), y_of(a.rank())), (x_of(b.file()), y_of(b.rank())), 1.5);
        }
    }
}

fn labels(s: &mut String, f: &BoardFeatures) {
    // Black's numerals along the top (Black counts from its right: Red's left), Red's
    // along the bottom (from Red's right); ICCS letters and ranks in small grey.
    for file in 0..FILES {
        let x = x_of(file);
        if let Some(n) = f.numerals[Side::Black.index()].get(file as usize) {
            let _ = writeln!(s, r#"<text x="{x}" y="{}" font-size="14" text-anchor="middle" fill="{}">{}</text>"#, MARGIN - 24, colour::LINE, escape(n));
        }
        if let Some(n) = f.numerals[Side::Red.index()].get((FILES - 1 - file) as usize) {
            let _ = writeln!(
                s,
                r#"<text x="{x}" y="{}" font-size="14" font-family="{FONT_CJK}" text-anchor="middle" fill="{}">{}</text>"#,
                y_of(0) + 42,
                colour::LINE,
                escape(n)
            );
        }
        let _ = writeln!(s, r##"<text x="{x}" y="{}" font-size="9" text-anchor="middle" fill="#8a7a66">{}</text>"##, y_of(0) + 56, (b'a' + file) as char);
    }
    for r in 0..RANKS {
        let _ = writeln!(s, r##"<text x="{}" y="{}" font-size="9" text-anchor="middle" fill="#8a7a66">{r}</text>"##, MARGIN - 34, y_of(r) + 3);
    }
}

fn pieces(s: &mut String, ruleset: &RuleSet, pos: &Position) {
    let kinds = ruleset.vm.kinds();
    for sq in Square::all() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let (x, y) = (x_of(sq.file()), y_of(sq.rank()));
        let c = match p.side {
            Side::Red => colour::RED,
            Side::Black => colour::BLACK,
        };
        let name = kinds.get(p.kind as usize).map(|k| k.names[p.side.index()].as_str()).unwrap_or("?");
        let _ = writeln!(
            s,
            r#"<g class="piece {}"><circle cx="{x}" cy="{y}" r="{PIECE_RADIUS}" fill="{}" stroke="{c}" stroke-width="3"/><circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="{c}" stroke-width="1"/><text x="{x}" y="{}" font-size="24" font-family="{FONT_CJK}" text-anchor="middle" fill="{c}">{}</text></g>"#,
            p.side.name(),
            colour::PIECE,
            PIECE_RADIUS - 5,
            y + 8,
            escape(name)
        );
    }
}

fn arrow(s: &mut String, a: &Arrow) {
    let (x1, y1) = (x_of(a.from.file()) as f64, y_of(a.from.rank()) as f64);
    let (x2, y2) = (x_of(a.to.file()) as f64, y_of(a.to.rank()) as f64);
    let len = ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt().max(1.0);
    // Stop short of the target's centre so the head sits on the piece's rim.
    let shorten = (PIECE_RADIUS as f64 * 0.6).min(len / 2.0);
    let (ex, ey) = (x2 - (x2 - x1) / len * shorten, y2 - (y2 - y1) / len * shorten);
    let _ = writeln!(
        s,
        r#"<line x1="{x1}" y1="{y1}" x2="{ex:.1}" y2="{ey:.1}" stroke="{}" stroke-width="5" stroke-opacity="0.85" stroke-linecap="round" marker-end="url(#arrowhead)"/>"#,
        colour::ARROW
    );
    if let Some(l) = &a.label {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" font-size="12" font-family="{FONT_LATIN},{FONT_CJK}" text-anchor="middle" fill="{}" stroke="{}" stroke-width="3" paint-order="stroke">{}</text>"#,
            (x1 + x2) / 2.0,
            (y1 + y2) / 2.0 - 6.0,
            colour::ARROW,
            colour::BOARD,
            escape(l)
        );
    }
}

/// Room between the boards of a sheet, and above them for its title.
const SHEET_GAP: i32 = 12;
const SHEET_TITLE: i32 = 28;

/// Where board `n` of a sheet with `per_row` boards to a row has its top-left corner.
pub fn sheet_origin(n: usize, per_row: usize, titled: bool) -> (i32, i32) {
    let (w, h) = size();
    let per_row = per_row.max(1);
    let head = if titled { SHEET_TITLE } else { 0 };
    (SHEET_GAP + (n % per_row) as i32 * (w + SHEET_GAP), head + SHEET_GAP + (n / per_row) as i32 * (h + SHEET_GAP))
}

/// The most diagrams one sheet holds (about 10 KB each): a whole game of 250 moves a
/// side. Commands refuse a larger sheet, naming this limit, rather than write one
/// document of hundreds of megabytes.
pub const MAX_SHEET_DIAGRAMS: usize = 500;

/// Several diagrams on one sheet, `per_row` to a row, under an optional title: one SVG
/// document that holds, say, every move of a repetition cycle. Each board keeps its own
/// arrowhead marker, renamed so that the ids of the sheet stay unique.
pub fn sheet(boards: &[String], per_row: usize, title: Option<&str>) -> String {
    let (w, h) = size();
    let per_row = per_row.max(1).min(boards.len().max(1));
    let rows = boards.len().div_ceil(per_row).max(1);
    let head = if title.is_some() { SHEET_TITLE } else { 0 };
    let (sw, sh) = (per_row as i32 * (w + SHEET_GAP) + SHEET_GAP, head + rows as i32 * (h + SHEET_GAP) + SHEET_GAP);
    let mut s = String::with_capacity(boards.iter().map(String::len).sum::<usize>() + 512);
    let _ = writeln!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{sw}" height="{sh}" viewBox="0 0 {sw} {sh}" font-family="{FONT_LATIN}">"#);
    let _ = writeln!(s, r#"<rect x="0" y="0" width="{sw}" height="{sh}" fill="white"/>"#);
    if let Some(t) = title {
        let _ = writeln!(s, r#"<text x="{SHEET_GAP}" y="20" font-size="15" font-family="{FONT_LATIN},{FONT_CJK}">{}</text>"#, escape(t));
    }
    for (n, board) in boards.iter().enumerate() {
        let (x, y) = sheet_origin(n, per_row, title.is_some());
        let board = board.replacen("<svg ", &format!(r#"<svg x="{x}" y="{y}" "#), 1);
        s.push_str(&board.replace(r#"id="arrowhead""#, &format!(r#"id="arrowhead-{n}""#)).replace("url(#arrowhead)", &format!("url(#arrowhead-{n})")));
    }
    s.push_str("</svg>\n");
    s
}

/// The position of `fen` after `moves` (ICCS) under `ruleset`, and the last move
/// (`crate::line::after`).
pub fn position_after(ruleset: &RuleSet, fen: &str, moves: &[String]) -> Result<(Position, Option<Move>), String> {
    crate::line::after(&ruleset.vm, fen, moves).map_err(|e| e.to_string())
}

/// The diagram of the position a query's input gives (`fen`, then `moves` if any), with
/// the last move marked: what a conformance case or a ruling is about. `None` when the
/// input has no FEN or the rule set refuses it.
pub fn of_input(ruleset: &RuleSet, input: &serde_json::Map<String, serde_json::Value>, caption: &str) -> Option<String> {
    let fen = input.get("fen")?.as_str()?;
    let moves: Vec<String> = input
        .get("moves")
        .and_then(|m| m.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let (pos, last_move) = position_after(ruleset, fen, &moves).ok()?;
    Some(svg(ruleset, &pos, &DiagramOptions { last_move, arrows: Vec::new(), caption: Some(caption.to_string()) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_parse() {
        let a = Arrow::parse("h2-e2:chase").unwrap();
        assert_eq!((a.from.to_string(), a.to.to_string(), a.label.as_deref()), ("h2".into(), "e2".into(), Some("chase")));
        assert_eq!(Arrow::parse("h2e2").unwrap().label, None);
        assert!(Arrow::parse("h2e").is_none() && Arrow::parse("z9e2").is_none());
    }

    #[test]
    fn the_start_position_has_thirty_two_pieces_and_the_board_features() {
        let rs = RuleSet::builtin("cxa-2020").unwrap();
        let (pos, _) = position_after(&rs, "startpos", &[]).unwrap();
        let svg = svg(&rs, &pos, &DiagramOptions::default());
        assert_eq!(svg.matches(r#"<g class="piece red">"#).count(), 16);
        assert_eq!(svg.matches(r#"<g class="piece black">"#).count(), 16);
        // 10 ranks + 2 edge files + 7 inner files broken in two + 4 palace diagonals.
        assert_eq!(svg.matches("<line ").count(), 10 + 2 + 14 + 4);
        assert!(svg.contains(">帅<") && svg.contains(">卒<") && svg.contains(">九<"), "{svg}");
    }
}
