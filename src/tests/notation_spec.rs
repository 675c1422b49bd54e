//! The recording characters live in the spec (`pieces.kinds`, `notation.*`,
//! `board.file_numbering`); the pest grammar keeps the character classes it needs. These
//! tests check that the two agree character by character, and that the formatter writes
//! what the YAML says (edit the YAML, and the text changes).

use std::collections::{BTreeMap, BTreeSet};

use crate::notation::syntax::chinese::ChineseParser;
use crate::notation::syntax::chinese::Rule;
use crate::Record;
use crate::Rules;
use crate::Spec;
use crate::{format_move, parse_move, Notation, Style};
use crate::{Move, Position, Side};
use pest::Parser;

fn rules(id: &str) -> Rules {
    Rules::builtin(id).unwrap()
}

/// Every character the grammar might accept: the CJK block, ASCII and full-width forms.
fn candidates() -> impl Iterator<Item = char> {
    ('\u{4E00}'..='\u{9FFF}')
        .chain('!'..='~')
        .chain('\u{FF01}'..='\u{FF5E}')
}

/// The characters `rule` accepts as a whole token.
fn accepted_by(rule: Rule) -> BTreeSet<char> {
    candidates()
        .filter(|c| {
            let s = c.to_string();
            ChineseParser::parse(rule, &s).is_ok_and(|p| p.as_str() == s)
        })
        .collect()
}

/// A spelling and its full-width form (records write both widths).
fn with_widths(s: &str) -> Vec<char> {
    let mut out: Vec<char> = s.chars().collect();
    out.extend(
        s.chars()
            .filter(|c| ('!'..='~').contains(c))
            .filter_map(|c| char::from_u32(c as u32 - 0x21 + 0xFF01)),
    );
    out
}

/// The kind and side classes of the grammar's `piece` rule, per character:
/// `(kind rule, side)` where side is `None` for characters both sides use.
fn grammar_pieces() -> BTreeMap<char, (String, Option<Side>)> {
    let mut out = BTreeMap::new();
    for c in candidates() {
        let s = c.to_string();
        let Ok(pairs) = ChineseParser::parse(Rule::piece, &s) else {
            continue;
        };
        let names: Vec<String> = pairs
            .flatten()
            .map(|p| format!("{:?}", p.as_rule()))
            .collect();
        // piece > kind > kind_side
        let kind = names[1].clone();
        let side = match names[2].rsplit('_').next() {
            Some("red") => Some(Side::Red),
            Some("black") => Some(Side::Black),
            Some("either") => None,
            other => panic!(
                "grammar rule {} for {c} has no side suffix ({other:?})",
                names[2]
            ),
        };
        out.insert(c, (kind, side));
    }
    out
}

/// The same map from the spec's record table.
fn spec_pieces(rules: &Rules, record: &Record) -> BTreeMap<char, (String, Option<Side>)> {
    let mut sides: BTreeMap<char, (String, BTreeSet<Side>)> = BTreeMap::new();
    for (k, pair) in record.pieces.iter().enumerate() {
        for side in Side::BOTH {
            for s in pair[side.index()].spellings() {
                let c = s.chars().next().unwrap();
                let e = sides
                    .entry(c)
                    .or_insert_with(|| (rules.kinds()[k].name.clone(), BTreeSet::new()));
                assert_eq!(
                    e.0,
                    rules.kinds()[k].name,
                    "{c} names two kinds in the spec"
                );
                e.1.insert(side);
            }
        }
    }
    sides
        .into_iter()
        .map(|(c, (kind, set))| {
            (
                c,
                (
                    kind,
                    if set.len() == 2 {
                        None
                    } else {
                        set.into_iter().next()
                    },
                ),
            )
        })
        .collect()
}

#[test]
fn grammar_and_spec_agree_on_every_piece_character() {
    for id in ["cxa-2020", "cxa-2011", "cxa-1999"] {
        let rules = rules(id);
        let record = rules.record().expect("the editions have notation clauses");
        let spec = spec_pieces(&rules, record);
        let grammar = grammar_pieces();
        assert_eq!(
            grammar, spec,
            "{id}: the grammar's piece classes (left) differ from the spec (right)"
        );
        // Names and variants: 7 kinds × 2 sides written, plus the variants.
        assert!(spec.len() >= 14, "{spec:?}");
    }
}

#[test]
fn grammar_and_spec_agree_on_actions_numerals_and_tandem_words() {
    let rules = rules("cxa-2020");
    let r = rules.record().unwrap();
    for (i, rule) in [Rule::advance, Rule::retreat, Rule::traverse]
        .into_iter()
        .enumerate()
    {
        let spec: BTreeSet<char> = [&r.full, &r.abbreviated]
            .iter()
            .flat_map(|f| f.actions[i].spellings())
            .flat_map(with_widths)
            .collect();
        assert_eq!(accepted_by(rule), spec, "action {i} ({rule:?})");
    }
    // Files: the numerals of both sides, in both widths.
    let files: BTreeSet<char> = r
        .numerals
        .iter()
        .flatten()
        .flat_map(|n| with_widths(n))
        .collect();
    assert_eq!(accepted_by(Rule::file), files);
    // Tandem words: front, middle, rear; the n-th of larger groups with the `more`
    // numerals, up to the most pieces of one kind a side has (five soldiers).
    for (rule, word) in [
        (Rule::front, "front"),
        (Rule::middle, "middle"),
        (Rule::rear, "rear"),
    ] {
        let spec: BTreeSet<char> = r.tandem.words[word]
            .spellings()
            .flat_map(str::chars)
            .collect();
        assert_eq!(accepted_by(rule), spec, "{word}");
    }
    let most = rules.kinds().iter().map(|k| k.count).max().unwrap();
    let nth: BTreeSet<char> = (1..=most)
        .flat_map(|n| r.numeral(r.tandem.more, n).chars().collect::<Vec<_>>())
        .collect();
    assert_eq!(accepted_by(Rule::nth), nth);
}

#[test]
fn every_spelling_of_the_spec_resolves_to_its_kind() {
    let rules = rules("cxa-2020");
    let r = rules.record().unwrap();
    let pos = rules.start_position();
    // Red's cannon h2 to e2 under every cannon spelling and every traverse word.
    let cannon = rules.kind_by_name("cannon").unwrap() as usize;
    for piece in r.pieces[cannon][Side::Red.index()].spellings() {
        for word in r.full.actions[2].spellings() {
            let text = format!(
                "{piece}{}{word}{}",
                r.numeral(Side::Red, 2),
                r.numeral(Side::Red, 5)
            );
            assert_eq!(
                parse_move(&rules, &pos, Notation::Chinese, &text)
                    .unwrap()
                    .iccs(),
                "h2e2",
                "{text}"
            );
        }
    }
}

/// The built-in spec with one textual edit to one cxa-2020 file (`file` below
/// `spec/cxa-2020/`), compiled for cxa-2020.
fn edited_2020(file: &str, from: &str, to: &str) -> Rules {
    let spec = super::spec_edit::edited(&[(&format!("cxa-2020/{file}"), from, to)]);
    Rules::of_edition(spec.edition("cxa-2020").unwrap()).unwrap()
}

#[test]
fn the_formatter_writes_what_the_yaml_says() {
    use Notation::{Chinese, ChineseAbbreviated as Abbreviated};
    let base = rules("cxa-2020");
    let pos = base.start_position();
    let horse = Move::parse_iccs("h0g2").unwrap();
    let cannon = Move::parse_iccs("h2e2").unwrap();
    let trad = Style::from_name("traditional").unwrap();
    let full = Style::from_name("fullwidth").unwrap();
    let plain = Style::default();
    assert_eq!(
        format_move(&base, &pos, horse, Chinese, trad).unwrap(),
        "傌二進三"
    );
    // Each edit of a cxa-2020 file (file, from, to), then the moves written under it:
    // (move, notation, style, as written).
    let rows = [
        // Red's horse written 馬 in traditional script.
        (
            (
                "notation.yaml",
                "red: {traditional: 傌, variants: [馬]}",
                "red: {traditional: 馬, variants: [傌]}",
            ),
            vec![(horse, Chinese, trad, "馬二進三")],
        ),
        // The abbreviated form writes = for traverse, and full-width when asked.
        (
            (
                "notation.yaml",
                "traverse: {write: \".\", also: [\"=\"]}",
                "traverse: {write: \"=\", also: [\".\"]}",
            ),
            vec![
                (cannon, Abbreviated, plain, "炮2=5"),
                (cannon, Abbreviated, full, "炮２＝５"),
            ],
        ),
        // Red writing Arabic numerals in the full form.
        (
            (
                "notation.yaml",
                "numerals: {red: red, black: black}",
                "numerals: {red: black, black: black}",
            ),
            vec![(cannon, Chinese, plain, "炮2平5")],
        ),
        // The piece name itself comes from pieces.kinds.
        (
            (
                "pieces.yaml",
                "names: {red: 炮, black: 炮}",
                "names: {red: 砲, black: 炮}",
            ),
            vec![(cannon, Chinese, plain, "砲二平五")],
        ),
    ];
    for ((file, from, to), written) in rows {
        let r = edited_2020(file, from, to);
        for (m, n, style, want) in written {
            let got = format_move(&r, &pos, m, n, style).unwrap();
            assert_eq!(got, want, "{file}: {from} → {to}");
        }
    }
}

#[test]
fn chinese_numerals_are_read_with_board_file_numbering() {
    // 1.1 as written: 八 is Red's file 8 (b), 五 its file 5 (e); Black's 2 its file 2 (b).
    let base = rules("cxa-2020");
    let pos = base.start_position();
    let read = |r: &Rules, pos: &Position, n: Notation, text: &str| {
        parse_move(r, pos, n, text).unwrap().iccs()
    };
    assert_eq!(read(&base, &pos, Notation::Chinese, "炮八平五"), "b2e2");
    // Red's numerals listed the other way round: 八 now numbers Red's file 2 (h), and the
    // abbreviated form still reads Arabic digits as numbers from each side's right.
    let r = edited_2020(
        "board.yaml",
        "red: [一, 二, 三, 四, 五, 六, 七, 八, 九]",
        "red: [九, 八, 七, 六, 五, 四, 三, 二, 一]",
    );
    assert_eq!(read(&r, &pos, Notation::Chinese, "炮八平五"), "h2e2");
    assert_eq!(
        read(&r, &pos, Notation::ChineseAbbreviated, "炮2.5"),
        "h2e2"
    );
    assert_eq!(read(&r, &pos, Notation::Chinese, "炮２平５"), "h2e2");
    // Black numbering its files with Chinese numerals too: Black's 二 is its file 2.
    let r = edited_2020(
        "board.yaml",
        "black: [\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", \"8\", \"9\"]",
        "black: [一, 二, 三, 四, 五, 六, 七, 八, 九]",
    );
    let black = r.start_position();
    let mut black = black;
    black.play(&r, Move::parse_iccs("h2e2").unwrap()).unwrap();
    assert_eq!(read(&r, &black, Notation::Chinese, "炮二平五"), "b7e7");
    // A digit is no longer any side's numeral: it names no file.
    assert!(parse_move(&r, &black, Notation::Chinese, "炮2平5").is_err());
}

#[test]
fn without_notation_clauses_chinese_cannot_be_written() {
    let mut files = Spec::builtin_files();
    files.retain(|(p, _)| p != "cxa-2020/notation.yaml" && p != "cxa-1999/notation.yaml");
    let spec = Spec::from_files(files).unwrap();
    let r = Rules::of_edition(spec.edition("cxa-2020").unwrap()).unwrap();
    assert!(r.record().is_none());
    let pos = r.start_position();
    let e = format_move(
        &r,
        &pos,
        Move::parse_iccs("h2e2").unwrap(),
        Notation::Chinese,
        Style::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind().code(), "no_record_forms");
    // The protocol answers `unsupported` (the rule set does not say), not `move.illegal`.
    let r2 = crate::notation::answer_notation(
        &r,
        &pos,
        "chinese",
        crate::notation::NotationAsk::Format("h2e2"),
    )
    .unwrap_err();
    assert_eq!(r2.kind.code(), "unsupported");
    // WXF and ICCS need no record forms.
    assert_eq!(
        format_move(
            &r,
            &pos,
            Move::parse_iccs("h2e2").unwrap(),
            Notation::Wxf,
            Style::default()
        )
        .unwrap(),
        "C2.5"
    );
}

#[test]
fn record_errors_name_the_clause() {
    let spec = super::spec_edit::edited(&[(
        "cxa-2020/notation.yaml",
        "red: {traditional: 帥}",
        "red: {traditional: 帥帥}",
    )]);
    let e = Rules::of_edition(spec.edition("cxa-2020").unwrap()).unwrap_err();
    assert_eq!(e.0[0].clause.as_deref(), Some("notation.characters"), "{e}");
    assert!(
        e.to_string().contains("cxa-2020/notation.yaml:")
            && e.0[0].message.contains("not one character"),
        "{e}"
    );
}
