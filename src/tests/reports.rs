//! The generated reports (moved from tests/it: they reach `report`'s internals): edition diffs,
//! article coverage, `report --check` catching stale files.

use super::assert::assert_contains;
use crate::report;
use crate::report::articles;
use crate::report::diff::Certainty;
use crate::report::diff::Kind;
use crate::report::diff::{diff, DiffReport};
use crate::report::MeasuredOn;
use crate::report::IMPLEMENTATIONS;
use crate::Expect;
use crate::Spec;
use crate::Suite;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The builtin spec and the repository's suite, read once per test process.
fn inputs() -> &'static (Spec, Suite) {
    static INPUTS: OnceLock<(Spec, Suite)> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
        (Spec::builtin().unwrap(), Suite::load_dir(&dir).unwrap())
    })
}

fn suite() -> &'static Suite {
    &inputs().1
}

/// Every report, generated once per test process: three tests read them (a generation
/// runs the suite under every edition).
fn generated() -> &'static report::Generated {
    static GENERATED: OnceLock<report::Generated> = OnceLock::new();
    GENERATED.get_or_init(|| report::generate(&inputs().0, suite()).unwrap())
}

/// The diff of the two editions most tests read, computed once per test process.
fn diff_2011_2020() -> &'static DiffReport {
    static DIFF: OnceLock<DiffReport> = OnceLock::new();
    DIFF.get_or_init(|| diff(&inputs().0, suite(), "cxa-2011", "cxa-2020").unwrap())
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xqspec-reports-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every difference rules-digest.md §5.1 lists between 2011 and 2020 that the spec
/// encodes, by clause (4.1's list and the team articles are not known for 2011, 18.4 is
/// not decidable, the 棋例 come with their own clauses).
const DIGEST_5_1: &[&str] = &[
    "tiebreak.round_robin",        // 14.1 adds 后手胜局, byes not counted
    "tiebreak.double_round_robin", // 14.1 double round robin
    "tiebreak.swiss",              // 14.3 adds 后走胜局
    "bye.team_score",              // 14.4 team bye
    "bye.opponent_score",          // 14.4 50 % below 7 rounds / 16 players
    "clock.classification",        // 6.3 rapid ≤ 15 min
    "clock.scheme.rapid_10m_10s",  // ch. 7 / art. 30 controls
    "clock.scheme.blitz_5m_3s",
    "clock.scheme.decider_6m_4m_3s",
    "playoff.slow_rapid_decider", // art. 30 play-off menu
    "playoff.slow_rapid_blitz_decider",
    "playoff.slow_rapid_two_blitz_decider",
    "playoff.slow_rapid_blitz_until_decisive",
    "playoff.match_two_blitz_decider",
    "playoff.match_blitz_until_decisive",
    "draw.no_early_offer",           // 4.3
    "draw.early_repetition",         // 4.3
    "irregularity.colours_reversed", // 5.8.1
    "irregularity.displaced_piece",  // 5.8.2
    "irregularity.illegal_move",     // 5.8.3
    "irregularity.knocked_over",     // 5.9
    "irregularity.between_points",   // 5.10
    "format.n_plus_one",             // 10.4.3
];

#[test]
fn the_2011_to_2020_diff_shows_every_digest_difference_with_its_provenance() {
    let d = diff_2011_2020();
    for id in DIGEST_5_1 {
        let c = d
            .clauses
            .iter()
            .find(|c| c.id == *id)
            .unwrap_or_else(|| panic!("{id} not in the diff"));
        assert_ne!(c.kind, Kind::Unchanged, "{id}");
        let row = d
            .markdown
            .lines()
            .find(|l| l.starts_with(&format!("| [`{id}`]")))
            .unwrap_or_else(|| panic!("no row for {id}"));
        assert!(
            row.contains("verified ([seed-002](sources.md#seed-002))")
                || row.contains("secondary ([web-2020-art30](sources.md#web-2020-art30))"),
            "{id}: {row}"
        );
        assert!(
            [
                "| differs (read) ",
                "| differs (resting on a secondary or inferred source) "
            ]
            .iter()
            .any(|g| row.contains(g)),
            "{id}: {row}"
        );
    }
    // The changed tiebreak order shows the added criterion side by side.
    assert!(
        d.markdown.contains("对局时后走, **后走胜局**]"),
        "the inline diff marks the added criterion"
    );
    // Irregularities 5.8.x rest on the inferred 2011 clauses.
    let c = d
        .clauses
        .iter()
        .find(|c| c.id == "irregularity.colours_reversed")
        .unwrap();
    assert!(c
        .a
        .iter()
        .chain(&c.b)
        .any(|cl| cl.provenance.status == crate::ProvenanceStatus::Inferred));
}

#[test]
fn behaviour_lists_exactly_the_cases_whose_expectations_differ() {
    let spec = &inputs().0;
    let suite = suite();
    for (a, b) in [
        ("cxa-2011", "cxa-2020"),
        ("cxa-1999", "cxa-2020"),
        ("cxa-1999", "cxa-2011"),
    ] {
        let want: BTreeSet<String> = suite
            .cases
            .iter()
            .filter(|c| c.overlay.is_none())
            .filter(|c| match &c.expect {
                Expect::ByEdition(m) => {
                    matches!((m.get(a), m.get(b)), (Some(x), Some(y)) if x != y)
                }
                Expect::Same(_) => false,
            })
            .map(|c| c.path.clone())
            .collect();
        let d = diff(spec, suite, a, b).unwrap();
        let got: BTreeSet<String> = d.behaviour.iter().map(|x| x.case.path.clone()).collect();
        assert_eq!(got, want, "{a} → {b}");
        assert!(!got.is_empty());
        for x in &d.behaviour {
            assert!(d
                .markdown
                .contains(&format!("### `{}`", x.case.stem_path())));
        }
    }
}

#[test]
fn the_reference_computes_behaviour_under_an_overlay_and_finds_the_cause() {
    let mut files = Spec::builtin_files();
    files.push((
        "overlays/test-fifty-rounds.yaml".into(),
        "overlay: test-fifty-rounds\nname: a test event\nedition: cxa-2020\nprovenance: {status: inferred, source: digest}\nchanges:\n  - clause: draw.natural_limit\n    data: {rounds: 50}\n".into(),
    ));
    let spec = Spec::from_files(files).unwrap();
    let d = diff(&spec, suite(), "cxa-2020", "cxa-2020+test-fifty-rounds").unwrap();
    let changed: Vec<&str> = d
        .clauses
        .iter()
        .filter(|c| c.kind != Kind::Unchanged)
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(changed, ["draw.natural_limit"]);
    assert_contains(&d.markdown, "| `rounds` | `60`     | `50`");
    assert!(
        !d.behaviour.is_empty(),
        "natural-limit cases answer differently with 50 rounds"
    );
    for x in &d.behaviour {
        assert_eq!(
            (x.a.from, x.b.from),
            ("case file", "reference"),
            "{}",
            x.case.path
        );
        let cause = x
            .causes
            .iter()
            .find(|c| c.clause == "draw.natural_limit")
            .unwrap_or_else(|| panic!("{}: {:?}", x.case.path, x.causes));
        assert!(cause.by_experiment, "{}", x.case.path);
    }
}

#[test]
fn report_check_finds_stale_missing_and_extra_files() {
    let g = generated();
    assert!(
        g.skipped
            .iter()
            .all(|(_, why)| why.contains("not in the spec")),
        "{:?}",
        g.skipped
    );
    assert!(
        g.files.contains_key("diff-cxa-2011-cxa-2020.md")
            && g.files.contains_key("articles.md")
            && g.files.contains_key("README.md")
    );
    assert!(g
        .files
        .keys()
        .any(|k| k.starts_with("diagrams/") && k.ends_with(".svg")));
    let dir = temp("check");
    let mut outputs = crate::output::Outputs::new();
    report::write(&dir, g, &mut outputs, false).unwrap();
    // the implementations report is measured by hand; check only reads its suite line
    std::fs::write(
        dir.join(IMPLEMENTATIONS),
        format!("# Implementations\n\n{}\n", g.suite.line()),
    )
    .unwrap();
    assert!(report::check(&dir, g).is_empty());
    std::fs::write(
        dir.join(IMPLEMENTATIONS),
        "Measured on suite 0.0.1, 1 case files, 4 runs (a case once per rule set it runs under).\n",
    )
    .unwrap();
    let problems = report::check(&dir, g).join("\n");
    assert_contains(
        &problems,
        "implementations.md says `Measured on suite 0.0.1, 1 case files",
    );
    assert_contains(&problems, "measure.py");
    std::fs::write(dir.join(IMPLEMENTATIONS), format!("{}\n", g.suite.line())).unwrap();
    std::fs::write(dir.join("articles.md"), "old").unwrap();
    std::fs::remove_file(dir.join("coverage.md")).unwrap();
    // Files an earlier run wrote (its manifest lists them) that are no longer generated,
    // and a file of someone else's beside them.
    std::fs::write(dir.join("diagrams/gone.svg"), "<svg/>").unwrap();
    std::fs::write(dir.join("diff-old-new.md"), "x").unwrap();
    std::fs::write(dir.join("diagrams/mine.svg"), "<svg>mine</svg>").unwrap();
    let manifest = dir.join(crate::output::MANIFEST);
    let listed = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        format!("{listed}wrote diagrams/gone.svg\nwrote diff-old-new.md\n"),
    )
    .unwrap();
    let problems = report::check(&dir, g).join("\n");
    for want in [
        "articles.md is stale",
        "coverage.md is missing",
        "gone.svg is no longer generated",
        "diff-old-new.md is no longer generated",
    ] {
        assert!(problems.contains(want), "{want}: {problems}");
    }
    assert!(!problems.contains("mine.svg"), "{problems}");
    // implementations.md and mine.svg were not written by the command: refused, nothing
    // touched, unless forced; then they are kept.
    let e = report::write(&dir, g, &mut crate::output::Outputs::new(), false).unwrap_err();
    assert_contains(&e, "did not write");
    assert_contains(&e, "diagrams/mine.svg");
    assert_contains(&e, "--force");
    assert_eq!(
        std::fs::read_to_string(dir.join("articles.md")).unwrap(),
        "old"
    );
    report::write(&dir, g, &mut crate::output::Outputs::new(), true).unwrap();
    assert!(report::check(&dir, g).is_empty());
    assert!(!dir.join("diagrams/gone.svg").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("diagrams/mine.svg")).unwrap(),
        "<svg>mine</svg>"
    );
    // Kept files are listed: the next run goes on without --force.
    report::write(&dir, g, &mut crate::output::Outputs::new(), false).unwrap();
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_checked_in_reports_are_current() {
    let g = generated();
    let problems = report::check(&Path::new(env!("CARGO_MANIFEST_DIR")).join("reports"), g);
    assert!(
        problems.is_empty(),
        "run `xqspec report --write`:\n{}",
        problems.join("\n")
    );
}

#[test]
fn article_reasons_and_gaps_come_from_the_table_of_contents() {
    let file = "cxa-2020/articles.yaml";
    let edit = |from: &str, to: &str| super::spec_edit::edited(&[(file, from, to)]);
    let base = articles::report(&Spec::builtin().unwrap());
    assert!(base.markdown.contains("| 1.4 "), "lists 1.4");
    // Without its reason, 1.4 is a gap; with another reason text, the text shows.
    let gap = articles::report(&edit(
        "gloss: \"board dimensions; the upright demonstration board\", not_decidable: equipment",
        "gloss: \"board dimensions\"",
    ));
    let row = gap
        .markdown
        .lines()
        .find(|l| l.starts_with("| 1.4 "))
        .unwrap();
    assert_contains(row, "**not encoded yet**");
    assert_ne!(gap.summary, base.summary);
    let reworded = articles::report(&edit(
        "sizes, colours and materials are not decidable",
        "nothing for a program to check",
    ));
    assert!(reworded.markdown.contains("nothing for a program to check"));
    // A table-of-contents error names its file and line.
    let e =
        super::spec_edit::try_edited(&[(file, "not_decidable: venue}", "not_decidable: weather}")])
            .unwrap_err()
            .to_string();
    assert_contains(&e, "cxa-2020/articles.yaml:");
    assert_contains(&e, "`weather`");
}

/// The counts of a Markdown table row (`| name | … | 1 | 2 | 3 |`): its numeric cells.
fn numbers(row: &str) -> Vec<u64> {
    row.split('|')
        .filter_map(|c| c.trim().parse().ok())
        .collect()
}

/// `reports/implementations.md` is written by `conformance/adapters/measure.py` on a
/// machine that has the implementations (never in CI); here its form is checked: a
/// scoreboard row and a totals row per implementation, with a version and a time, every
/// row counting the same runs, the suite's own run count, its failures split by basis
/// (rule, convention, optional: at most the failures), and a section per implementation
/// whose area table adds up to its totals and whose every failure group has its smallest
/// case. A 棋例 cell of verdict-only answers is marked `ᵛ`.
#[test]
fn the_implementations_report_is_well_formed() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/implementations.md"),
    )
    .unwrap();
    assert!(
        text.starts_with("# Third-party implementations on the conformance suite\n"),
        "title"
    );
    assert!(
        text.contains("Generated by `python3 conformance/adapters/measure.py` on 20"),
        "generator and date"
    );
    let totals = table_rows(&text, "## Totals");
    assert!(
        totals.len() >= 13,
        "at least thirteen implementations measured: {totals:?}"
    );
    let board = table_rows(&text, "## Scoreboard");
    assert_eq!(
        board.iter().map(|r| &r[0]).collect::<Vec<_>>(),
        totals.iter().map(|r| &r[0]).collect::<Vec<_>>(),
        "one scoreboard row per implementation"
    );
    let on = MeasuredOn::of(
        &Suite::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")).unwrap(),
    )
    .unwrap();
    for (row, cells) in totals.iter().zip(&board) {
        assert_eq!(
            row.len(),
            9,
            "name, version, passed, failed, of them rule, convention, optional, skipped, time: {row:?}"
        );
        assert!(
            !row[1].is_empty() && (row[8].ends_with(" s") || row[8].ends_with(" min")),
            "{row:?}"
        );
        let count = |c: &String| -> u64 { c.parse().unwrap() };
        let n: Vec<u64> = [&row[2], &row[3], &row[7]].into_iter().map(count).collect();
        assert!(
            row[4..7].iter().map(count).sum::<u64>() <= n[1],
            "{}: the failures by basis are failures",
            row[0]
        );
        assert_eq!(
            n.iter().sum::<u64>() as usize,
            on.runs,
            "{}: every run of the suite counted",
            row[0]
        );
        assert!(
            scoreboard_passes(&cells[1..]) <= n[0],
            "{}: the scoreboard counts no more passes than the totals",
            row[0]
        );
        check_implementation_section(&text, &row[0], &n);
    }
}

/// The rows of the first table after `heading` in `text`, cell by cell.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let part = text
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("a section {heading}"));
    part.lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            row.split('|')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// The passes of a scoreboard row's area cells: a cell is `–` or `P % p/r`, with p ≤ r.
fn scoreboard_passes(cells: &[String]) -> u64 {
    let mut passed = 0;
    for c in cells {
        if c == "–" {
            continue;
        }
        let (p, r) = c
            .trim_end_matches(" ᵛ")
            .rsplit_once(' ')
            .unwrap()
            .1
            .split_once('/')
            .unwrap_or_else(|| panic!("{c}"));
        let (p, r): (u64, u64) = (p.parse().unwrap(), r.parse().unwrap());
        assert!(p <= r && r > 0, "{c}");
        passed += p;
    }
    passed
}

/// An implementation's section: its area table adds up to its totals `n` (passed, failed,
/// skipped), every failure group has its smallest case and its reason.
fn check_implementation_section(text: &str, name: &str, n: &[u64]) {
    let section = text
        .split(&format!("\n## {name}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("a section for {name}"));
    let section = section.split("\n## ").next().unwrap();
    let area_total = section
        .lines()
        .find(|l| l.starts_with("| total |"))
        .unwrap_or_else(|| panic!("an area table for {name}"));
    assert_eq!(numbers(area_total), n, "{name}: areas add up to the totals");
    let groups = section
        .lines()
        .filter(|l| l.starts_with("- ") && l.contains(" run") && l.contains(" case"))
        .count();
    let repros = section
        .lines()
        .filter(|l| l.starts_with("  - smallest case: "))
        .count();
    assert_eq!(
        groups, repros,
        "{name}: every failure group has its smallest case"
    );
    assert!(
        !section.contains("no reason written yet"),
        "{name}: every failure has its reason (conformance/adapters/reasons/)"
    );
}

/// `report --check` fails when the implementations report was measured on another suite.
#[test]
fn the_implementations_report_was_measured_on_this_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let on = MeasuredOn::of(&Suite::load_dir(&root.join("conformance")).unwrap()).unwrap();
    let text = std::fs::read_to_string(root.join("reports").join(IMPLEMENTATIONS)).unwrap();
    assert_eq!(
        on.stale(&text),
        None,
        "rerun conformance/adapters/measure.py"
    );
    let fewer = MeasuredOn {
        case_files: on.case_files - 1,
        ..on.clone()
    };
    let why = fewer.stale(&text).expect("another suite");
    assert_contains(&why, "but the suite is now: Measured on suite");
    assert_contains(&why, "measure.py");
    assert!(on
        .stale("# a report\n")
        .unwrap()
        .starts_with("records no `Measured on suite"));
}

/// Every clause pair is one of five certainties: a clause 2011 inherits from 2020 is
/// *assumed the same*, never *read the same*; a change read in both texts is *differs
/// (read)*, one resting on a quoted page *differs (weak)*; the areas the AXF rule set does
/// not encode are *not encoded*, not removed.
#[test]
fn every_clause_pair_has_its_certainty() {
    let spec = &inputs().0;
    let suite = suite();
    let d = diff_2011_2020();
    let of = |d: &report::diff::DiffReport, id: &str| {
        d.clauses
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{id}"))
            .certainty
    };
    assert_eq!(of(d, "draw.early_repetition"), Certainty::DiffersRead);
    assert_eq!(of(d, "draw.natural_limit"), Certainty::DiffersWeak);
    assert_eq!(of(d, "movement.horse"), Certainty::AssumedSame);
    // Every pair with an inherited or inferred side is assumed, and the summary says how many of 2011's clauses are.
    for c in d
        .clauses
        .iter()
        .filter(|c| matches!(c.kind, Kind::Unchanged | Kind::Renumbered))
    {
        let inherited = c.a.as_ref().is_some_and(|x| x.inherited_from.is_some());
        assert!(
            !inherited || c.certainty == Certainty::AssumedSame,
            "{} inherited but {:?}",
            c.id,
            c.certainty
        );
    }
    let of_2011: Vec<&crate::Clause> = d.clauses.iter().filter_map(|c| c.a.as_ref()).collect();
    let assumed = of_2011
        .iter()
        .filter(|c| {
            c.inherited_from.is_some()
                || matches!(c.provenance.status.name(), "inferred" | "unverified")
        })
        .count();
    assert_eq!(d.assumed.0.assumed, assumed);
    assert!(assumed > 90, "{assumed}");
    assert!(
        d.markdown.contains(&format!(
            "**How much of cxa-2011 is assumed:** {assumed} of its {} clauses (",
            of_2011.len()
        )),
        "the summary says how much of 2011 is assumed"
    );
    assert!(d
        .clauses
        .iter()
        .all(|c| c.certainty != Certainty::NotEncoded));
    // A read-the-same pair: both sides read, neither inherited.
    let d99 = diff(spec, suite, "cxa-1999", "cxa-2020").unwrap();
    let same = d99
        .clauses
        .iter()
        .find(|c| c.certainty == Certainty::ReadSame)
        .expect("1999 and 2020 read the same somewhere");
    assert!(
        same.a.as_ref().unwrap().inherited_from.is_none()
            && same.a.as_ref().unwrap().provenance.status.name() != "inferred",
        "{}",
        same.id
    );
    // The AXF rule set encodes no clocks: not encoded, and said so.
    let axf = diff(spec, suite, "cxa-2020", "axf").unwrap();
    assert_eq!(of(&axf, "clock.classification"), Certainty::NotEncoded);
    assert_eq!(of(&axf, "movement.horse"), Certainty::AssumedSame);
    let removed = axf
        .clauses
        .iter()
        .filter(|c| c.kind == Kind::Removed)
        .count();
    let not_encoded = axf
        .clauses
        .iter()
        .filter(|c| c.certainty == Certainty::NotEncoded)
        .count();
    assert!(
        not_encoded > 50 && not_encoded <= removed,
        "{not_encoded} of {removed}"
    );
    assert!(
        axf.markdown.contains(&format!(
            "{not_encoded} clauses of cxa-2020 are not part of axf"
        )),
        "the AXF report says what it does not encode"
    );
    assert!(axf.changes.iter().all(|c| c.certainty.differs()));
}

/// The summary a person reads first: one line per real change, most consequential domain
/// first, each with its articles, its certainty, its sources and a link to its section;
/// renumberings only in their one table.
#[test]
fn the_summary_lists_every_change_in_plain_words_most_consequential_first() {
    let spec = &inputs().0;
    let d = diff_2011_2020();
    let md = &d.markdown;
    let summary = md
        .split("## What changed\n")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap();
    let lines: Vec<&str> = summary
        .lines()
        .filter(|l| l.starts_with("- ") && l.contains("[details](#"))
        .collect();
    let differing: BTreeSet<&str> = d
        .clauses
        .iter()
        .filter(|c| c.certainty.differs())
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(lines.len(), differing.len(), "one line per change");
    assert_eq!(
        summary.lines().filter(|l| l.starts_with("- ")).count(),
        differing.len() + d.unencoded.len(),
        "and one per difference no clause encodes"
    );
    for id in &differing {
        let anchor: String = id
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        let line = lines
            .iter()
            .find(|l| l.ends_with(&format!("[details](#{anchor})")))
            .unwrap_or_else(|| panic!("no line for {id}"));
        assert!(
            line.contains("differs (read)") || line.contains("differs (resting on"),
            "{line}"
        );
        assert_contains(line, "](sources.md#");
        assert!(
            md.contains(&format!("\n#### {id}\n")),
            "{id} has its section"
        );
    }
    // Results and draws before clocks and play-offs.
    let ranks: Vec<usize> = d
        .changes
        .iter()
        .map(|c| spec.domain_rank(&c.clause))
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    assert!(
        d.changes[0].clause.starts_with("draw."),
        "{}",
        d.changes[0].clause
    );
    assert!(
        lines[0].contains("cxa-2020 4.3") || lines[0].contains("4.2.4"),
        "{}",
        lines[0]
    );
    // Every difference digest §5.1 lists is a line of the summary.
    for id in DIGEST_5_1 {
        assert!(differing.contains(id), "{id} is not in the summary");
    }
    // The differences no clause encodes are named too, from the spec (cxa-2011's `unencoded_differences`).
    assert_contains(summary, "- **cxa-2020 18.4** — ");
    assert_contains(summary, "- **cxa-2020 10.4.1** — ");
    assert!(
        !diff(spec, suite(), "cxa-2011", "cxa-2011+provincial-2012-open")
            .unwrap()
            .markdown
            .contains("18.4"),
        "an overlay does not inherit its base's differences"
    );
    renumberings_in_one_table(d);
    answers_in_words(md);
}

/// Renumberings: one table in the diff, no section each.
fn renumberings_in_one_table(d: &DiffReport) {
    let md = &d.markdown;
    // Renumberings: one table, no section each.
    let renumbered: Vec<&str> = d
        .clauses
        .iter()
        .filter(|c| c.kind == Kind::Renumbered)
        .map(|c| c.id.as_str())
        .collect();
    assert!(!renumbered.is_empty());
    let table = md
        .split("## Renumbered only\n")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    for id in renumbered {
        assert!(
            table.contains(&format!("`{id}`")) && !md.contains(&format!("\n#### {id}\n")),
            "{id}"
        );
    }
}

/// Answers in the behaviour tables as words (spec/words.yaml), not JSON or raw values.
fn answers_in_words(md: &str) {
    // Answers as text, not JSON, in the behaviour tables.
    for row in md.lines().filter(|l| l.starts_with("| answer")) {
        assert!(!row.contains("{\"") && !row.contains('`'), "{row}");
    }
    // In words (spec/words.yaml), not raw values (`by: board, fouls: (black: 0, red: 0)`).
    assert!(
        md.contains("| answer | Black wins by result.perpetual_check (art. 24.1)")
            || md.contains("Black wins by result."),
        "a result with its clause"
    );
    assert!(
        !md.contains("by: board") && !md.contains("fouls: (") && md.contains("no fouls"),
        "answers in words"
    );
}

/// `reports/sources.md` explains every source label, each report links every label it
/// shows to it, and no report names a file outside the repository.
#[test]
fn every_source_label_is_explained_and_no_report_cites_a_file_outside_the_repository() {
    let (spec, g) = (&inputs().0, generated());
    let sources = &g.files["sources.md"];
    let ids: BTreeSet<&str> = spec.sources().map(|s| s.id.as_str()).collect();
    for id in &ids {
        assert!(sources.contains(&format!("\n### {id}\n")), "{id}");
    }
    for (path, text) in g.files.iter().filter(|(p, _)| p.ends_with(".md")) {
        for link in text.split("](sources.md#").skip(1) {
            let id = link.split(')').next().unwrap();
            assert!(ids.contains(id), "{path} links to unknown source {id}");
        }
        for outside in [
            "rules-digest.md",
            "sources/",
            "seeds/",
            ".txt",
            "qili-figures.yaml",
            "repetition-cases.yaml",
        ] {
            assert!(
                !text.contains(outside),
                "{path} cites {outside}, which is not in the repository"
            );
        }
    }
    assert!(g.files["diff-cxa-2011-cxa-2020.md"]
        .contains("[web-2011-art22](sources.md#web-2011-art22)"));
    // Labels named in free text (references, notes, reasons) are linked too.
    assert!(
        g.files["diff-cxa-2011-cxa-2020.md"].contains("as quoted ([digest](sources.md#digest) §4)")
    );
    assert!(g.files["articles.md"].contains("([digest](sources.md#digest) §5: not found)"));
    assert!(g.files["readings.md"].contains("quoted in [digest](sources.md#digest) §10"));
}
