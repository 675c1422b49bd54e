//! (Moved from tests/it: the geometry and colours are `diagram`'s own.) Board diagrams rendered with a real SVG renderer (resvg), checked pixel by pixel at
//! known points: a red piece's ring on its point, a black one, the river gap, the last
//! move and an arrow. Every text of a board or a sheet (characters, coordinates, captions,
//! labels, titles) is outlines in the SVG itself, so the tests render with no font at all
//! and find them; no check depends on a font installed.
//! Set `XQSPEC_DIAGRAM_PNG=DIR` to keep the rendered images for a look.

use super::assert::assert_contains;
use crate::diagram::{
    self, colour, position_after, x_of, y_of, Arrow, DiagramOptions, PIECE_RADIUS,
};
use crate::RuleSet;
use crate::Square;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;

/// Renders with no font (an empty font database: `<text>` would draw nothing, as on a
/// machine without fonts).
fn render(svg: &str, name: &str) -> Pixmap {
    let opt = usvg::Options::default();
    let tree = usvg::Tree::from_str(svg, &opt).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    if let Some(dir) = std::env::var_os("XQSPEC_DIAGRAM_PNG") {
        pixmap
            .save_png(std::path::Path::new(&dir).join(format!("{name}.png")))
            .unwrap();
    }
    pixmap
}

fn rgb(p: &Pixmap, x: i32, y: i32) -> (u8, u8, u8) {
    let c = p
        .pixel(x as u32, y as u32)
        .expect("inside the image")
        .demultiply();
    (c.red(), c.green(), c.blue())
}

fn hex(h: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(h.trim_start_matches('#'), 16).unwrap();
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// Whether two colours are within `tol` in every channel.
fn near(a: (u8, u8, u8), b: (u8, u8, u8), tol: u8) -> bool {
    a.0.abs_diff(b.0) <= tol && a.1.abs_diff(b.1) <= tol && a.2.abs_diff(b.2) <= tol
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// A point on the ring of the piece standing on `s` (right of its centre).
fn ring(s: &str) -> (i32, i32) {
    let p = sq(s);
    (x_of(p.file()) + PIECE_RADIUS, y_of(p.rank()))
}

#[test]
fn pieces_river_last_move_and_arrows_are_where_they_should_be() {
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    let (pos, last) = position_after(&rs, "startpos", &["h2e2".into()]).unwrap();
    let opts = DiagramOptions {
        last_move: last,
        arrows: vec![Arrow::parse("b0c2").unwrap()],
        caption: Some("h2e2".into()),
    };
    let img = render(&diagram::svg(&rs, &pos, &opts), "start-h2e2");
    let [red, black, board] = [colour::RED, colour::BLACK, colour::BOARD].map(hex);

    // Pieces: the rings of a red chariot, the red cannon that moved to e2, a black horse.
    for s in ["a0", "e2", "i0", "e3"] {
        let (x, y) = ring(s);
        assert!(near(rgb(&img, x, y), red, 40), "{s}: {:?}", rgb(&img, x, y));
    }
    for s in ["b9", "e9", "b7"] {
        let (x, y) = ring(s);
        assert!(
            near(rgb(&img, x, y), black, 40),
            "{s}: {:?}",
            rgb(&img, x, y)
        );
    }
    // h2 is empty now: no ring there, the board shows.
    let (x, y) = ring("h2");
    assert!(
        !near(rgb(&img, x, y), red, 60),
        "h2 is empty: {:?}",
        rgb(&img, x, y)
    );

    // The river: inner files are broken between ranks 4 and 5, the edge files are not.
    let mid_river = (y_of(4) + y_of(5)) / 2;
    let mid_own = (y_of(3) + y_of(4)) / 2;
    for file in 1..8u8 {
        let x = x_of(file);
        assert!(
            near(rgb(&img, x, mid_river), board, 6),
            "file {file} in the river: {:?}",
            rgb(&img, x, mid_river)
        );
        assert!(
            !near(rgb(&img, x, mid_own), board, 30),
            "file {file} between ranks 3 and 4 has its line: {:?}",
            rgb(&img, x, mid_own)
        );
    }
    for file in [0u8, 8] {
        assert!(
            !near(rgb(&img, x_of(file), mid_river), board, 30),
            "edge file {file} crosses the river"
        );
    }

    // The last move: both points framed in its colour (near the frame's top-left corner,
    // where the dashed frame of the from-point starts with a dash).
    let blue = hex(colour::LAST_MOVE);
    for s in ["h2", "e2"] {
        let p = sq(s);
        let x = x_of(p.file()) - diagram::CELL / 2 + 3;
        let y = y_of(p.rank()) - diagram::CELL / 2 + 2;
        assert!(
            near(rgb(&img, x, y), blue, 50),
            "{s}: {:?}",
            rgb(&img, x, y)
        );
    }
    // The arrow from b0 to c2: at its middle.
    let (x, y) = ((x_of(1) + x_of(2)) / 2, (y_of(0) + y_of(2)) / 2);
    assert!(
        near(rgb(&img, x, y), hex(colour::ARROW), 60),
        "arrow: {:?}",
        rgb(&img, x, y)
    );
}

/// Runs `xqspec board ARGS` or `xqspec ruling ARGS` in this process: the command's own
/// options parsed as the command line parses them, then the command under the built-in
/// spec, in English (`tests/it` runs the binary: its global options and other commands).
fn run_command(args: &[&str]) -> Result<(), String> {
    use crate::cli::{diagram::BoardArgs, repetition::RulingArgs};
    #[derive(clap::Parser)]
    enum Command {
        Board(BoardArgs),
        Ruling(RulingArgs),
    }
    let args = std::iter::once("xqspec").chain(args.iter().copied());
    let global = crate::cli::GlobalOptions {
        spec: None,
        overlay: None,
    };
    let load = |id: &str| crate::cli::load_ruleset(&global, id);
    let outputs = crate::output::Outputs::new;
    match <Command as clap::Parser>::try_parse_from(args).map_err(|e| e.to_string())? {
        Command::Board(a) => crate::cli::diagram::run(&load(&a.edition)?, &a, outputs()),
        Command::Ruling(a) => {
            let lang = crate::cli::Lang::En;
            crate::cli::repetition::run(&load(&a.edition)?, &a, outputs(), lang)
        }
    }
}

/// Runs `xqspec ARGS --svg FILE` in a fresh folder named after `name`; it must succeed.
/// Returns the folder (to remove) and the SVG written. The command runs in this process
/// ([`run_command`]).
fn xqspec_svg(name: &str, args: &[&str]) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("xqspec-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.svg"));
    let file_arg = file.to_str().unwrap();
    let all: Vec<&str> = args.iter().copied().chain(["--svg", file_arg]).collect();
    run_command(&all).unwrap();
    let svg = std::fs::read_to_string(&file).unwrap();
    (dir, svg)
}

#[test]
fn the_board_command_writes_an_svg_that_renders() {
    let (dir, svg) = xqspec_svg(
        "board",
        &[
            "board",
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "--arrow",
            "d0-d9:check",
        ],
    );
    let img = render(&svg, "two-generals");
    let (x, y) = ring("d0");
    assert!(near(rgb(&img, x, y), hex(colour::RED), 40));
    let (x, y) = ring("e9");
    assert!(near(rgb(&img, x, y), hex(colour::BLACK), 40));
    assert!(
        svg.contains(r#"<g aria-label="check" "#) && !svg.contains("<text"),
        "the arrow's label, as outlines: {svg}"
    );
    // A bad arrow and a bad move are refused with a message.
    let e = run_command(&["board", "--arrow", "d0"]).unwrap_err();
    assert_contains(&e, "--arrow `d0`");
    let e = run_command(&["board", "--moves", "h2h8"]).unwrap_err();
    assert_contains(&e, "move 1");
    std::fs::remove_dir_all(&dir).ok();
}

/// The README's example of `xqspec ruling`: the red chariot chases the unprotected cannon
/// on every move.
const README_CHASE: [&str; 7] = [
    "--fen",
    "3k5/R8/2c6/9/9/9/9/9/9/4K4 w - - 0 1",
    "--moves",
    "a8a7",
    "c7c8",
    "a7a8",
    "c8c7",
];

#[test]
fn a_ruling_draws_its_cycle_with_the_chases_as_arrows() {
    // The README's example: the red chariot chases the unprotected cannon on every move.
    let args: Vec<&str> = ["ruling"].into_iter().chain(README_CHASE).collect();
    let (dir, svg) = xqspec_svg("ruling", &args);
    // The start of the cycle and one board per move judged; every arrowhead id unique.
    assert_eq!(svg.matches("<svg ").count(), 1 + 5, "{svg}");
    assert_eq!(svg.matches("<marker id=\"arrowhead-").count(), 5);
    // The sheet's title in words, not codes (红方须变着 Red must change, not red_must_change).
    assert!(
        svg.contains("红方长捉，禁止 · 黑方两闲，允许 · 红方须变着 Red must change")
            && !svg.contains("red_must_change"),
        "{svg}"
    );
    assert!(!svg.contains("<text"), "{svg}");
    let img = render(&svg, "ruling-cycle");
    let [red, black, arrow, blue] =
        [colour::RED, colour::BLACK, colour::ARROW, colour::LAST_MOVE].map(hex);
    let at = |n: usize, (x, y): (i32, i32)| {
        let (ox, oy) = diagram::sheet_origin(n, 4, true);
        rgb(&img, ox + x, oy + y)
    };
    // Board 0, the cycle's start: the chariot on a8, the cannon on c7; no arrow.
    assert!(near(at(0, ring("a8")), red, 40) && near(at(0, ring("c7")), black, 40));
    let between_b7_c7 = (x_of(1) + diagram::CELL / 4, y_of(7) + 1);
    assert!(
        !near(at(0, between_b7_c7), arrow, 60),
        "no arrow before the cycle: {:?}",
        at(0, between_b7_c7)
    );
    // Board 1, after 车九退一 (a8a7): the move framed on a7, the chase a7 → c7 drawn.
    let frame = |s: &str| {
        let p = sq(s);
        (
            x_of(p.file()) - diagram::CELL / 2 + 3,
            y_of(p.rank()) - diagram::CELL / 2 + 2,
        )
    };
    assert!(
        near(at(1, frame("a7")), blue, 50),
        "a7 framed: {:?}",
        at(1, frame("a7"))
    );
    assert!(
        near(at(1, between_b7_c7), arrow, 60),
        "the chase a7 → c7: {:?}",
        at(1, between_b7_c7)
    );
    // Board 2, after the cannon's idle move c7c8: no arrow on rank 7 any more.
    assert!(!near(at(2, between_b7_c7), arrow, 60));
    // Board 3, after a7a8: the chase a8 → c8.
    let between_b8_c8 = (x_of(1) + diagram::CELL / 4, y_of(8) + 1);
    assert!(
        near(at(3, between_b8_c8), arrow, 60),
        "the chase a8 → c8: {:?}",
        at(3, between_b8_c8)
    );
    // The title, drawn without a font: ink along its line, above the first board.
    let white = (255, 255, 255);
    let title = count(&img, (160, 15), 6, None, |p| !near(p, white, 60));
    assert!(title >= 30, "the title: {title} pixels");
    // Each board's caption under it (`ply 1: red 车九退一 · 捉 chase`).
    let board_h = (img.height() as i32 - diagram::sheet_origin(0, 4, true).1 - 2 * 12) / 2;
    for n in 0..5 {
        let (ox, oy) = diagram::sheet_origin(n, 4, true);
        let ink = count(&img, (ox + x_of(4), oy + board_h - 10), 5, None, |p| {
            near(p, hex(colour::CAPTION), 60)
        });
        assert!(ink >= 10, "board {n}'s caption: {ink} pixels");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The contents of the SVG's `<text>` elements.
fn texts(svg: &str) -> Vec<&str> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once('>')?.1.split_once("</text>").map(|(t, _)| t))
        .collect()
}

/// How many pixels of the square of half side `half` around `(cx, cy)`, and within `radius`
/// of it if given, are `hit`.
fn count(
    img: &Pixmap,
    (cx, cy): (i32, i32),
    half: i32,
    radius: Option<i32>,
    hit: impl Fn((u8, u8, u8)) -> bool,
) -> usize {
    let mut n = 0;
    for y in cy - half..=cy + half {
        for x in cx - half..=cx + half {
            let inside = radius.is_none_or(|r| (x - cx).pow(2) + (y - cy).pow(2) <= r * r);
            if inside && hit(rgb(img, x, y)) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_board_draws_its_characters_without_any_font() {
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    let (pos, _) = position_after(&rs, "startpos", &[]).unwrap();
    let opts = DiagramOptions {
        caption: Some("ply 1: red 车九退一 · 捉 chase".into()),
        ..Default::default()
    };
    let svg = diagram::svg(&rs, &pos, &opts);
    // No text at all: the characters, coordinates and caption are outlines.
    assert!(texts(&svg).is_empty(), "{:?}", texts(&svg));

    let img = render(&svg, "start-without-fonts");
    let [red, black, line, board] =
        [colour::RED, colour::BLACK, colour::LINE, colour::BOARD].map(hex);
    let like = |c: (u8, u8, u8)| move |p| near(p, c, 60);
    let inked = |p| !near(p, board, 30);
    // Every piece's character: strokes of its side's colour inside the inner ring (radius
    // PIECE_RADIUS - 5), where a piece without its character shows only its face.
    let inner = PIECE_RADIUS - 8;
    for s in Square::all() {
        let Some(p) = pos.piece_at(s) else { continue };
        let c = if p.side == crate::Side::Red {
            red
        } else {
            black
        };
        let n = count(
            &img,
            (x_of(s.file()), y_of(s.rank())),
            inner,
            Some(inner),
            like(c),
        );
        assert!(n >= 25, "{s}: {n} pixels of the character");
    }
    // An empty point has none.
    assert_eq!(
        count(&img, (x_of(4), y_of(1)), inner, Some(inner), like(red)),
        0
    );
    // The river's words, a character between each two files: 楚 河 on Red's left half,
    // 汉 界 on the right; nothing between the middle files.
    let mid = (y_of(4) + y_of(5)) / 2;
    let between = |file: u8| x_of(file) + diagram::CELL / 2;
    for file in [1, 2, 5, 6] {
        let n = count(&img, (between(file), mid), 12, None, like(line));
        assert!(
            n >= 40,
            "the river between files {file} and {}: {n} pixels",
            file + 1
        );
    }
    for file in [0, 3, 4, 7] {
        assert_eq!(
            count(&img, (between(file), mid), 12, None, inked),
            0,
            "the river between files {file} and {}",
            file + 1
        );
    }
    // The file numerals: Black's along the top, Red's along the bottom.
    for file in 0..9u8 {
        for (y, whose) in [(diagram::MARGIN - 29, "black"), (y_of(0) + 37, "red")] {
            let n = count(&img, (x_of(file), y), 7, None, inked);
            assert!(n >= 10, "{whose}'s numeral on file {file}: {n} pixels");
        }
    }
    // The coordinates: the file letters under Red's numerals, the rank digits left of the
    // board.
    for file in 0..9u8 {
        let n = count(&img, (x_of(file), y_of(0) + 53), 3, None, inked);
        assert!(n >= 3, "letter of file {file}: {n} pixels");
    }
    for rank in 0..10u8 {
        let n = count(&img, (diagram::MARGIN - 34, y_of(rank)), 3, None, inked);
        assert!(n >= 3, "digit of rank {rank}: {n} pixels");
    }
    // The caption, centred under the board.
    let h = img.height() as i32;
    let n = count(&img, (x_of(4), h - 10), 5, None, like(line));
    assert!(n >= 10, "the caption: {n} pixels");

    // An arrow through the empty middle of the river, labelled: the label stands on the
    // shaft, centred, in the arrow's colour on a halo of board; its Latin word reaches right
    // of the shaft, where the river is bare.
    let opts = DiagramOptions {
        arrows: vec![Arrow::parse("e1e8:捉 chase").unwrap()],
        ..Default::default()
    };
    let svg = diagram::svg(&rs, &pos, &opts);
    assert!(texts(&svg).is_empty(), "{:?}", texts(&svg));
    let img = render(&svg, "arrow-label-without-fonts");
    let label = (y_of(1) + y_of(8)) / 2 - 6 - 4;
    let n = count(&img, (x_of(4) + 14, label), 6, None, inked);
    assert!(n >= 10, "the arrow's label: {n} pixels");
}

#[test]
fn a_ruling_sheet_of_every_built_in_rule_set_is_drawn_without_text() {
    let spec = crate::Spec::builtin().unwrap();
    let ids = spec.ruleset_ids();
    assert!(ids.len() >= 4, "{ids:?}");
    for id in &ids {
        // The README's chase; the title names the rule set, the patterns and the verdict.
        let args: Vec<&str> = ["ruling", "--edition", id]
            .into_iter()
            .chain(README_CHASE)
            .collect();
        let (dir, svg) = xqspec_svg(&format!("sheet-{id}"), &args);
        assert!(
            svg.contains(&format!(r#"<g aria-label="{id} 棋例 · "#)),
            "{id}: the title"
        );
        assert_eq!(
            svg.matches(r#"<g aria-label="ply "#).count(),
            4,
            "{id}: the captions"
        );
        assert!(
            !svg.contains("<text"),
            "{id}: a text without outlines: {:?}",
            texts(&svg)
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn every_built_in_rule_set_has_an_outline_for_every_character_its_board_draws() {
    let spec = crate::Spec::builtin().unwrap();
    let ids = spec.ruleset_ids();
    let mut seen = 0;
    for id in ids {
        let rs = RuleSet::of_spec(&spec, &id).unwrap();
        let (pos, _) = position_after(&rs, "startpos", &[]).unwrap();
        let svg = diagram::svg(&rs, &pos, &DiagramOptions::default());
        // A character without an outline would be written as text (`scripts/glyphs.py`
        // lists the characters to regenerate the table with).
        assert!(texts(&svg).is_empty(), "{id}: {:?}", texts(&svg));
        seen += 1;
    }
    assert!(seen >= 4, "{seen}");
}
