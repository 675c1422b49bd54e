use super::*;

#[test]
fn arrows_parse() {
    let a = Arrow::parse("h2-e2:chase").unwrap();
    assert_eq!(
        (a.from.to_string(), a.to.to_string(), a.label.as_deref()),
        ("h2".into(), "e2".into(), Some("chase"))
    );
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
    // The characters and the coordinates are outlines, named for readers and tools;
    // none is `<text>`.
    for ch in ["帅", "卒", "九", "1", "楚", "河", "汉", "界", "a", "i", "0"] {
        let c = ch.chars().next().unwrap();
        assert!(
            svg.contains(&format!(
                r##"<use aria-label="{ch}" href="#{}" "##,
                glyph_id(c)
            )),
            "{ch}: {svg}"
        );
        // Each outline is written once, however often it is drawn.
        assert_eq!(
            svg.matches(&format!(r#"<path id="{}" "#, glyph_id(c)))
                .count(),
            1,
            "{ch}"
        );
    }
    assert!(svg.matches(r##"href="#g5175""##).count() >= 5, "five 兵");
    assert!(!svg.contains("<text"), "{svg}");
}

#[test]
fn the_glyph_table_is_sorted_and_a_character_without_an_outline_falls_back_to_text() {
    assert!(glyphs::GLYPHS.windows(2).all(|w| w[0].ch < w[1].ch));
    let style = Style::middle(24.0, "red");
    let mut s = String::new();
    outlined(&mut s, "帅", 10.0, 20.0, &style);
    assert!(
        s.starts_with(
            r##"<use aria-label="帅" href="#g5e05" transform="translate(-2 20) scale(0.024)""##
        ) && !s.contains("<text"),
        "{s}"
    );
    // 㐀 (U+3400) is no character of the diagrams: the whole text falls back.
    let mut s = String::new();
    outlined(
        &mut s,
        "a 㐀",
        10.0,
        20.0,
        &Style {
            halo: Some(("white", 3.0)),
            ..style
        },
    );
    assert_eq!(
        s,
        format!(
            r#"<text x="10" y="20" font-size="24" font-family="{FONT_LATIN},{FONT_CJK}" text-anchor="middle" fill="red" stroke="white" stroke-width="3" paint-order="stroke">a 㐀</text>"#
        )
    );
    assert_eq!(
        (num(0.024), num(-0.0001), num(12.0), num(1.5)),
        ("0.024".into(), "0".into(), "12".into(), "1.5".into())
    );
}

#[test]
fn a_text_is_laid_out_by_the_advance_widths_from_its_anchor() {
    let (a, sp, b) = (
        glyph('a').unwrap().advance,
        glyph(' ').unwrap().advance,
        glyph('捉').unwrap().advance,
    );
    assert!(
        a < 1000 && sp < a && b == 1000 && glyph(' ').unwrap().d.is_empty(),
        "Latin is proportional, CJK square"
    );
    // From its start: the group at x, each glyph at its pen position in font units; a
    // space advances the pen and draws nothing.
    let mut s = String::new();
    outlined(
        &mut s,
        "a 捉",
        12.0,
        20.0,
        &Style {
            anchor: Anchor::Start,
            ..Style::middle(10.0, "black")
        },
    );
    assert!(s.starts_with(r##"<g aria-label="a 捉" transform="translate(12 20) scale(0.01)" fill="black"><use href="#g61"/>"##), "{s}");
    assert!(
        s.contains(&format!(r##"<use href="#g6349" x="{}"/>"##, a + sp)) && s.ends_with("\"/></g>"),
        "{s}"
    );
    assert_eq!(s.matches("<use ").count(), 2, "{s}");
    // Centred: shifted left by half the width.
    let mut m = String::new();
    outlined(&mut m, "a 捉", 12.0, 20.0, &Style::middle(10.0, "black"));
    let left = 12.0 - (a + sp + b) as f64 * 0.01 / 2.0;
    assert!(
        m.starts_with(&format!(
            r#"<g aria-label="a 捉" transform="translate({} 20)"#,
            num(left)
        )),
        "{m}"
    );
    // A halo: the strokes under the fills, its width in font units, the same paths twice.
    let mut h = String::new();
    outlined(
        &mut h,
        "捉",
        0.0,
        0.0,
        &Style {
            halo: Some(("#fff", 3.0)),
            ..Style::middle(12.0, "green")
        },
    );
    assert!(h.starts_with(r##"<g aria-label="捉" transform="translate(-6 0) scale(0.012)" fill="green"><g fill="none" stroke="#fff" stroke-width="250" stroke-linejoin="round"><use href="#g6349"/>"##), "{h}");
    assert_eq!(h.matches(r##"<use href="#g6349"/>"##).count(), 2, "{h}");
    // Text is escaped in the label.
    let mut e = String::new();
    outlined(&mut e, "a<b&\"", 0.0, 0.0, &Style::middle(12.0, "black"));
    assert!(e.starts_with(r#"<g aria-label="a&lt;b&amp;&quot;""#), "{e}");
}

#[test]
fn options_past_the_bounds_are_refused_by_check_and_clipped_by_svg() {
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    let (pos, _) = position_after(&rs, "startpos", &[]).unwrap();
    let plain = svg(&rs, &pos, &DiagramOptions::default()).len();
    let huge = DiagramOptions {
        caption: Some("捉".repeat(1_000_000)),
        arrows: vec![Arrow::parse(&format!("a0a9:{}", "将".repeat(10_000))).unwrap(); 1000],
        ..Default::default()
    };
    let e = huge.check().unwrap_err();
    assert!(e.contains("MAX_CAPTION_CHARS"), "{e}");
    let e = DiagramOptions {
        caption: None,
        ..huge.clone()
    }
    .check()
    .unwrap_err();
    assert!(e.contains("MAX_ARROWS"), "{e}");
    let one = DiagramOptions {
        caption: None,
        arrows: huge.arrows[..1].to_vec(),
        ..Default::default()
    };
    assert!(one.check().unwrap_err().contains("MAX_LABEL_CHARS"));
    // Drawn anyway, only the bounds' worth: some tens of kilobytes, not gigabytes.
    let drawn = svg(&rs, &pos, &huge);
    assert!(drawn.len() < plain + 200_000, "{} bytes", drawn.len());
    assert_eq!(drawn.matches("<line ").count(), 30 + MAX_ARROWS);
    let fits = DiagramOptions {
        caption: Some("c".repeat(MAX_CAPTION_CHARS)),
        arrows: vec![
            Arrow::parse(&format!("a0a9:{}", "x".repeat(MAX_LABEL_CHARS))).unwrap();
            MAX_ARROWS
        ],
        ..Default::default()
    };
    assert_eq!(fits.check(), Ok(()));
}

#[test]
fn a_sheet_writes_each_outline_once_for_all_its_boards() {
    let rs = RuleSet::builtin("cxa-2020").unwrap();
    let (pos, _) = position_after(&rs, "startpos", &[]).unwrap();
    let board = svg(&rs, &pos, &DiagramOptions::default());
    let sheet = sheet(
        &[board.clone(), board.clone(), board.clone()],
        2,
        Some("帅 and 将"),
    );
    // 帅 on every board and in the title: one outline.
    assert_eq!(sheet.matches(r#"<path id="g5e05" "#).count(), 1);
    assert_eq!(sheet.matches(r##"href="#g5e05""##).count(), 3 + 1);
    assert_eq!(sheet.matches(GLYPH_DEFS).count(), 1);
    assert_eq!(sheet.matches(r#"<g id="disc-red">"#).count(), 1);
    // Three boards cost three bodies and one set of outlines.
    let outlines = board
        .lines()
        .find(|l| l.starts_with(GLYPH_DEFS))
        .unwrap()
        .len();
    assert!(outlines > 10_000, "{outlines}");
    assert!(
        sheet.len() < 3 * (board.len() - outlines) + outlines + 1_000,
        "{} bytes",
        sheet.len()
    );
}

/// What `scripts/glyphs.py` draws whatever the spec holds (`FIXED`): printable ASCII,
/// the punctuation of captions and titles, Chinese move notation (simplified and
/// traditional), full-width digits and signs, the river's words.
const FIXED: &str = "·–—…→−≤§：，、（）《》“”‘’\
        帅帥仕士相象马馬傌车車俥炮砲包兵卒将將进進退平前中后後一二三四五六七八九\
        ０１２３４５６７８９＋－．＝楚河汉界棋例";

#[test]
fn every_character_a_caption_label_or_title_can_hold_has_an_outline() {
    let mut wanted: Vec<(String, char)> = (' '..='~')
        .chain(FIXED.chars())
        .map(|c| ("the fixed set".to_string(), c))
        .collect();
    let spec = crate::spec::Spec::builtin().unwrap();
    let ids = spec.ruleset_ids();
    assert!(ids.len() >= 4, "{ids:?}");
    for id in &ids {
        let rs = RuleSet::of_spec(&spec, id).unwrap();
        let rep = rs
            .repetition
            .as_ref()
            .unwrap_or_else(|| panic!("{id} has 棋例 clauses"));
        let names = &rep.words.cycle;
        let words = rep
            .classes
            .iter()
            .map(|c| (format!("class {}", c.name), &c.zh))
            .chain(
                names
                    .numerals
                    .iter()
                    .chain([&names.perpetual, &names.many])
                    .map(|w| ("cycle_names".to_string(), w)),
            )
            .chain(
                rs.vm
                    .kinds()
                    .iter()
                    .flat_map(|k| k.names.iter())
                    .map(|n| ("a kind's name".to_string(), n)),
            );
        for (what, word) in words {
            wanted.extend(word.chars().map(|c| (format!("{id}: {what} {word}"), c)));
        }
    }
    let missing: Vec<String> = wanted
        .iter()
        .filter(|(_, c)| glyph(*c).is_none())
        .map(|(what, c)| format!("{c:?} (U+{:04X}, {what})", *c as u32))
        .collect();
    assert!(
        missing.is_empty(),
        "no outline (run scripts/glyphs.py): {missing:?}"
    );
    assert_eq!(
        (num(0.024), num(-0.0001), num(12.0), num(1.5)),
        ("0.024".into(), "0".into(), "12".into(), "1.5".into())
    );
}
