//! The competition domain: the tournament reader's errors (typed, located, never a
//! panic), proof that tiebreak orders and scoring tables are data (edit the YAML and the
//! standings change), the line-up primitive against 11.2's own example, and the shipped
//! example tournament against its JSON Schema.

use crate::assert::assert_contains;
use proptest::prelude::*;
use xqspec::RuleSet;
use xqspec::{locate_tournament as locate, read_tournament as read_file, RawTournament};
use xqspec::{
    ordered_lineups, standings, CompetitionRules, ReadError, Tournament, TournamentErrorKind,
};
use xqspec::{Overlay, Spec};

use crate::spec_edit::{self, Edit};

/// The competition rules of a built-in edition, compiled once.
fn rules(edition: &str) -> CompetitionRules {
    let rs = crate::rule_sets::builtin_cached(edition);
    rs.competition.clone().expect("competition clauses")
}

/// The built-in spec with one textual edit to one file, compiled for `edition`.
fn edited(file: &str, from: &str, to: &str, edition: &str) -> CompetitionRules {
    edited_all(file, &[(from, to)], edition)
}

/// cxa-2020 with one textual edit to its competition rules.
fn edited_2020(from: &str, to: &str) -> CompetitionRules {
    edited("cxa-2020/competition.yaml", from, to, "cxa-2020")
}

/// The built-in spec with textual edits to one file, compiled for `edition`.
fn edited_all(file: &str, edits: &[(&str, &str)], edition: &str) -> CompetitionRules {
    let edits: Vec<Edit> = edits.iter().map(|(from, to)| (file, *from, *to)).collect();
    let spec = spec_edit::edited(&edits);
    RuleSet::of_spec(&spec, edition)
        .unwrap_or_else(|e| panic!("edited spec compiles: {e}"))
        .competition
        .unwrap()
}

/// A round robin of four, three rounds (as a macro, so that other tournaments extend it).
macro_rules! round_robin {
    () => {
        "format: round_robin
rounds: 3
players: [{id: A}, {id: B}, {id: C}, {id: D}]
games:
  - {round: 1, red: A, black: D, result: black}
  - {round: 1, red: C, black: B, result: black}
  - {round: 2, red: C, black: A, result: draw}
  - {round: 2, red: D, black: B, result: black}
  - {round: 3, red: A, black: B, result: red}
  - {round: 3, red: D, black: C, result: red}
"
    };
}

const RR: &str = round_robin!();

fn ranking(text: &str, r: &CompetitionRules) -> Vec<(String, u32, Option<String>)> {
    let t = read_file("t.yaml", text, r).unwrap_or_else(|e| panic!("{e}"));
    standings(&t, r)
        .rows
        .into_iter()
        .map(|row| (row.entrant, row.place, row.separated_by))
        .collect()
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

#[test]
fn a_tiebreak_order_is_data() {
    const ORDER: &str = "default: [小分, 胜局, 直胜, 犯规, 后走局数, 对局时后走, 后走胜局]";
    const ONLY_FOULS: &str = "default: [犯规]";
    let unresolved = |order: &str, how: &str| {
        format!("{order}\n      byes: not_counted\n      unresolved: {how}")
    };
    // Each row: what it shows, the edit of the order (none: the shipped one), D's place and
    // what separates D from B; B is first in every row.
    let rows = [
        (
            "B and D have 4 points; B is ahead on 小分 (5 against 4)",
            None,
            2,
            "小分",
        ),
        (
            "without 小分, both won 2 games and B beat D: 直胜 decides",
            Some((
                ORDER.into(),
                "default: [胜局, 直胜, 犯规, 后走局数, 对局时后走, 后走胜局]".into(),
            )),
            2,
            "直胜",
        ),
        (
            "with only 犯规 (nobody committed one), B and D share first place",
            Some((ORDER.into(), ONLY_FOULS.into())),
            1,
            "shared place",
        ),
        (
            "a play-off instead of a shared place is data too",
            Some((
                unresolved(ORDER, "shared_place"),
                unresolved(ONLY_FOULS, "play_off"),
            )),
            1,
            "play-off required",
        ),
    ];
    for (what, edit, d_place, d_by) in rows {
        let r = match &edit {
            None => rules("cxa-2020"),
            Some((from, to)) => edited_2020(from, to),
        };
        let got = ranking(RR, &r);
        assert_eq!(got[0], ("B".into(), 1, None), "{what}");
        assert_eq!(got[1], ("D".into(), d_place, s(d_by)), "{what}");
    }
}

#[test]
fn a_scoring_table_is_data() {
    // A scoring table where a draw is worth nothing: A (a win, a draw, a loss) drops from
    // 3 points to 2, C (a draw and two losses) from 1 to 0.
    let r = edited_2020(
        "standard: {win: 2, draw_red: 1, draw_black: 1, loss: 0}",
        "standard: {win: 2, draw_red: 0, draw_black: 0, loss: 0}",
    );
    let t = read_file("t.yaml", RR, &r).unwrap();
    let st = standings(&t, &r);
    let score = |id: &str| st.rows.iter().find(|x| x.entrant == id).unwrap().score;
    // Draws now score nothing: A (win, draw, loss) has 2, C (draw, loss, loss) 0.
    assert_eq!(score("A"), 2.0);
    assert_eq!(score("C"), 0.0);
    let base = standings(
        &read_file("t.yaml", RR, &rules("cxa-2020")).unwrap(),
        &rules("cxa-2020"),
    );
    assert_eq!(
        base.rows.iter().find(|x| x.entrant == "C").unwrap().score,
        1.0
    );
}

fn value(st: &xqspec::Standings, entrant: &str, label: &str) -> f64 {
    let row = st
        .rows
        .iter()
        .find(|x| x.entrant == entrant)
        .unwrap_or_else(|| panic!("no row {entrant}"));
    match row.values.iter().find(|(l, _)| l == label) {
        Some((_, xqspec::Value::Number(x))) => *x,
        other => panic!("{entrant} {label}: {other:?}"),
    }
}

/// Two teams, one round; both games drawn with T2 on Red.
const TEAM_DRAWS: &str = include_str!("../data/tournaments/team-draws.yaml");

#[test]
fn what_decides_a_match_is_data() {
    // Under the 3/1-2/0 table (a draw worth 2 to Black), T1 has 4 game points to T2's 2
    // with no game won on either side: 局分 gives T1 the match, 胜局 draws it.
    let table = ("use: standard", "use: win3_draw_red1_black2");
    let by_points = edited_all("cxa-2020/competition.yaml", &[table], "cxa-2020");
    let rows = ranking(TEAM_DRAWS, &by_points);
    assert_eq!(rows[1], ("T2".into(), 2, s("场分")), "{rows:?}");
    let by_wins = edited_all(
        "cxa-2020/competition.yaml",
        &[table, ("decided_by: 局分", "decided_by: 胜局")],
        "cxa-2020",
    );
    let rows = ranking(TEAM_DRAWS, &by_wins);
    assert_eq!(rows[1], ("T2".into(), 2, s("全队总局分")), "{rows:?}");
    let st = standings(
        &read_file("t.yaml", TEAM_DRAWS, &by_wins).unwrap(),
        &by_wins,
    );
    assert_eq!(
        (value(&st, "T1", "场分"), value(&st, "T2", "场分")),
        (1.0, 1.0)
    );
}

/// The tournament of the conformance case `id` (in `conformance/standings/`), as a tournament
/// file's text.
fn case_tournament(id: &str) -> String {
    let path = format!("conformance/standings/{id}.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let case: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    serde_yaml::to_string(&case["input"]["tournament"]).unwrap()
}

#[test]
fn what_a_bye_scores_is_data() {
    // E won a game and had a bye: 4 points with a bye scoring a win (14.4), 3 with a draw,
    // 2 with a loss.
    // Five players, three rounds of a Swiss, a bye each round.
    let swiss_byes = case_tournament("swiss-bye-opponent-score-half-2020");
    let score = |r: &CompetitionRules| {
        standings(&read_file("t.yaml", &swiss_byes, r).unwrap(), r)
            .rows
            .into_iter()
            .find(|x| x.entrant == "E")
            .unwrap()
            .score
    };
    let bye = |result: &str| format!("    data:\n      result: {result}\n\n  - id: bye.team_score");
    for (result, want) in [("win", 4.0), ("draw", 3.0), ("loss", 2.0)] {
        let r = edited(
            "cxa-2020/competition.yaml",
            &bye("win"),
            &bye(result),
            "cxa-2020",
        );
        assert_eq!(score(&r), want, "a bye scoring a {result}");
    }
}

#[test]
fn a_drawn_bye_under_a_table_whose_draw_depends_on_colour_is_a_located_spec_error() {
    let file = "cxa-2020/competition.yaml";
    let spec = spec_edit::edited(&[
        (file, "use: standard", "use: win3_draw_red1_black2"),
        (
            file,
            "    data:\n      result: win\n\n  - id: bye.team_score",
            "    data:\n      result: draw\n\n  - id: bye.team_score",
        ),
    ]);
    let e = RuleSet::of_spec(&spec, "cxa-2020").unwrap_err().to_string();
    assert_contains(&e, "cxa-2020/competition.yaml:");
    assert_contains(&e, "clause bye.score: `result: draw`");
}

#[test]
fn the_score_a_bye_counts_as_in_opponent_scores_is_data() {
    // A beats B; C has the bye. Scores: A 2, B 0, C 2. C's 对手分 is the bye's: half (2020,
    // fewer than 7 rounds) of the lowest non-zero score, 2, or of the lowest score, 0.
    let text = "format: swiss\nrounds: 1\nplayers: [{id: A}, {id: B}, {id: C}]\ngames:\n  - {round: 1, red: A, black: B, result: red}\nbyes:\n  - {round: 1, entrant: C}\n";
    let opp = |r: &CompetitionRules| {
        value(
            &standings(&read_file("t.yaml", text, r).unwrap(), r),
            "C",
            "对手分",
        )
    };
    assert_eq!(opp(&rules("cxa-2020")), 1.0);
    let lowest = edited_2020("value: lowest_nonzero_score", "value: lowest_score");
    assert_eq!(opp(&lowest), 0.0);
}

/// Conformance case sanction-warning-placed-last-among-equals: B and D have 4 points, B
/// ahead on 小分, B warned.
const SANCTIONED: &str = concat!(
    round_robin!(),
    "sanctions:
  - {entrant: B, round: 2, kind: warning}
"
);

#[test]
fn where_sanctions_rank_is_data() {
    // Right after the score (18.5): the warning puts B below D. After the tiebreaks: 小分
    // decides first, and B stays ahead.
    let base = ranking(SANCTIONED, &rules("cxa-2020"));
    assert_eq!(
        &base[..2],
        &[("D".into(), 1, None), ("B".into(), 2, s("处分"))]
    );
    let late = edited_2020("after: rank_by", "after: tiebreaks");
    assert_eq!(
        &ranking(SANCTIONED, &late)[..2],
        &[("B".into(), 1, None), ("D".into(), 2, s("小分"))]
    );
}

#[test]
fn the_champion_rule_is_the_tiebreak_clause_with_places_whatever_its_id() {
    // 1999 15.6 under another clause id: still the rule that first place is played off,
    // and not a format.
    let text = "format: round_robin\nrounds: 3\nplayers: [{id: A}, {id: B}, {id: C}]\ngames:\n  - {round: 1, red: B, black: C, result: draw}\n  - {round: 2, red: C, black: A, result: draw}\n  - {round: 3, red: A, black: B, result: draw}\n";
    let play_off = s(xqspec::PLAY_OFF);
    assert_eq!(ranking(text, &rules("cxa-1999"))[1].2, play_off);
    let renamed = edited(
        "cxa-1999/competition.yaml",
        "id: tiebreak.champion",
        "id: tiebreak.first_place",
        "cxa-1999",
    );
    assert!(renamed.champion.is_some() && !renamed.formats.contains_key("first_place"));
    assert_eq!(ranking(text, &renamed)[1].2, play_off);
    let two = edited(
        "cxa-1999/competition.yaml",
        "places: [1]",
        "places: [2]",
        "cxa-1999",
    );
    assert_eq!(ranking(text, &two)[1].2, s(xqspec::SHARED_PLACE));
}

#[test]
fn the_competition_compile_step_reports_every_error() {
    let file = "cxa-2020/competition.yaml";
    let spec = spec_edit::edited(&[
        (file, "decided_by: 局分", "decided_by: 场分"),
        (file, "value: lowest_nonzero_score", "value: highest_score"),
    ]);
    let errors = CompetitionRules::compile(&spec.ruleset("cxa-2020").unwrap()).unwrap_err();
    let at: Vec<Option<&str>> = errors.iter().map(|e| e.clause.as_deref()).collect();
    assert_eq!(
        at,
        [Some("scoring.match"), Some("bye.opponent_score")],
        "{errors:?}"
    );
}

#[test]
fn an_overlay_switches_the_scoring_table() {
    let spec = Spec::builtin().unwrap();
    let r = RuleSet::of_spec(&spec, "cxa-2020+example-win3-progressive")
        .unwrap()
        .competition
        .unwrap();
    assert_eq!(r.game.win, 3.0);
    assert_eq!(r.formats["swiss"].default_order, "progressive_scores");
    let t = read_file("t.yaml", RR, &r).unwrap();
    assert_eq!(
        standings(&t, &r)
            .rows
            .iter()
            .find(|x| x.entrant == "B")
            .unwrap()
            .score,
        6.0
    );
}

#[test]
fn an_unknown_criterion_in_an_overlay_is_a_located_spec_error() {
    let text = "overlay: bad-order\nname: n\nedition: cxa-2020\nprovenance: {status: inferred, source: seed-002}\nchanges:\n  - clause: tiebreak.swiss\n    data: {orders: {opponent_scores: [对手分, 布赫霍尔茨]}}\n";
    let o = Overlay::parse("overlays/bad-order.yaml", text).unwrap();
    let ed = Spec::builtin().unwrap().with_overlay(&o).unwrap();
    let e = RuleSet::compile(ed).unwrap_err();
    let msg = e.to_string();
    assert_contains(&msg, "unknown criterion `布赫霍尔茨`");
    assert_eq!(e.0[0].location.line, 6, "{msg}");
}

#[test]
fn the_lineup_primitive_agrees_with_the_example_of_11_2() {
    for ed in ["cxa-1999", "cxa-2011", "cxa-2020"] {
        let r = rules(ed);
        let l = &r.lineups["boards_with_reserves"];
        let ex = l.example.expect("11.2 gives an example");
        assert_eq!(
            ordered_lineups(ex.boards + ex.reserves, ex.boards),
            ex.orders,
            "{ed}"
        );
    }
    assert_eq!(ordered_lineups(6, 4), 15);
    assert_eq!(ordered_lineups(4, 4), 1);
    assert_eq!(ordered_lineups(3, 4), 0);
}

fn errors(text: &str, ed: &str) -> Vec<(TournamentErrorKind, String, Option<usize>)> {
    match read_file("t.yaml", text, &rules(ed)) {
        Err(ReadError::Invalid(v)) => v
            .into_iter()
            .map(|e| (e.kind, e.place.record, e.place.line))
            .collect(),
        other => panic!("expected rule errors, got {other:?}"),
    }
}

#[test]
fn rule_errors_name_the_record_and_its_line() {
    let text = RR.replace(
        "{round: 2, red: D, black: B, result: black}",
        "{round: 2, red: D, black: D, result: black}",
    );
    let e = errors(&text, "cxa-2020");
    assert_eq!(
        e,
        vec![(TournamentErrorKind::SelfGame, "games[3]".into(), Some(8))]
    );

    // Every error is reported, each at its record.
    let text = RR
        .replace(
            "{round: 3, red: A, black: B, result: red}",
            "{round: 4, red: A, black: B, result: red}",
        )
        .replace(
            "{round: 1, red: C, black: B, result: black}",
            "{round: 1, red: C, black: A, result: black}",
        );
    let e = errors(&text, "cxa-2020");
    assert!(
        e.contains(&(
            TournamentErrorKind::DoubleBooking,
            "games[1]".into(),
            Some(6)
        )),
        "{e:?}"
    );
    assert!(
        e.contains(&(
            TournamentErrorKind::UnknownRound,
            "games[4]".into(),
            Some(9)
        )),
        "{e:?}"
    );

    let e = errors(
        &RR.replace("format: round_robin", "format: knockout"),
        "cxa-2020",
    );
    assert_eq!(e[0].0, TournamentErrorKind::UnknownFormat);
    assert_eq!(e[0].2, Some(1));
}

#[test]
fn line_up_errors_point_at_the_match() {
    // A line-up `boards_with_reserves` refuses; its match starts at line 11.
    let text = include_str!("../data/tournaments/team-lineup-reserves.yaml");
    let e = errors(text, "cxa-2020");
    assert_eq!(
        e,
        vec![(TournamentErrorKind::Lineup, "matches[0]".into(), Some(11))]
    );
    // Under 临时定台制 the same order is allowed.
    let ok = text.replace("lineup: boards_with_reserves", "lineup: free_boards");
    assert!(read_file("t.yaml", &ok, &rules("cxa-2020")).is_ok());
}

#[test]
fn syntax_errors_are_their_own_type_with_line_and_column() {
    match read_file("t.yaml", "format: swiss\nrounds: [\n", &rules("cxa-2020")) {
        Err(ReadError::Syntax(s)) => assert!(s.place.line.is_some(), "{s}"),
        other => panic!("{other:?}"),
    }
    match read_file(
        "t.yaml",
        "format: swiss\nrounds: 3\nprize: 100\n",
        &rules("cxa-2020"),
    ) {
        Err(ReadError::Syntax(s)) => {
            assert!(s.message.contains("prize"), "{s}");
            assert_eq!(s.place.line, Some(3));
        }
        other => panic!("{other:?}"),
    }
    // A game's fouls: a side left out has none, but no other key and no null.
    let game =
        "format: swiss\nrounds: 1\ngames:\n  - {round: 1, red: A, black: B, result: red, fouls: ";
    for (fouls, fault) in [
        ("{red: 1, white: 1}", "white"),
        ("{black: null}", "invalid type: unit value"),
    ] {
        match read_file("t.yaml", &format!("{game}{fouls}}}\n"), &rules("cxa-2020")) {
            Err(ReadError::Syntax(s)) => {
                assert!(s.message.contains(fault), "{s}");
                assert_eq!(s.place.line, Some(4));
            }
            other => panic!("{fouls}: {other:?}"),
        }
    }
}

#[test]
fn locate_finds_block_and_flow_records() {
    let text = "a: 1\nmatches:\n  - round: 1\n    games:\n      - {board: 1}\n      - board: 2\n        red: x\n  - round: 2\n    games: [{board: 1}]\n";
    assert_eq!(locate(text, "matches[0]"), Some((3, 3)));
    assert_eq!(locate(text, "matches[0].games[1]"), Some((6, 7)));
    assert_eq!(locate(text, "matches[1]"), Some((8, 3)));
    assert_eq!(locate(text, "matches[1].games[0]"), Some((9, 5)));
    assert_eq!(locate(text, "matches[2]"), None);
    assert_eq!(locate(text, "a"), Some((1, 1)));
}

#[test]
fn the_example_tournament_reads_and_matches_its_schema() {
    let text = std::fs::read_to_string("conformance/tournament-example.yaml").unwrap();
    let r = rules("cxa-2020");
    let t: Tournament = read_file("conformance/tournament-example.yaml", &text, &r)
        .unwrap_or_else(|e| panic!("{e}"));
    let st = standings(&t, &r);
    assert_eq!(st.rows.len(), 7);
    assert!(st.rows.iter().any(|x| x.withdrawn));
    // The schema's top-level properties are exactly the fields of the tournament record.
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("conformance/tournament.schema.json").unwrap(),
    )
    .unwrap();
    let mut props: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    props.sort_unstable();
    let full = r#"{"name":"n","edition":"e","overlay":"o","format":"f","order":"o","individual_format":"i","rounds":1,
        "players":[{"id":"a","name":"n"}],"teams":[{"id":"t","name":"n","players":["a"]}],"boards":1,"lineup":"l",
        "games":[{"round":1,"board":1,"red":"a","black":"b","result":"red","fouls":{"red":1,"black":0},"final":true,"play_off_winner":"a"}],
        "matches":[{"round":1,"teams":["t","u"],"games":[]}],"byes":[{"round":1,"entrant":"a"}],
        "sanctions":[{"entrant":"a","round":1,"kind":"warning"}],"withdrawals":[{"entrant":"a","after_round":1}]}"#;
    let raw = RawTournament::from_json(&serde_json::from_str(full).unwrap()).unwrap();
    let v = serde_json::to_value(&raw).unwrap();
    let mut fields: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    fields.sort_unstable();
    assert_eq!(props, fields);
    let game_props: Vec<&String> = schema["properties"]["games"]["items"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(game_props.len(), v["games"][0].as_object().unwrap().len());
}

// ---------------------------------------------------------------------------------------
// Fuzzing: nothing panics, every rule error names a record.

const ATOMS: &[&str] = &[
    "format: ",
    "round_robin",
    "swiss",
    "team_swiss",
    "team_player_places",
    "rounds: ",
    "3",
    "0",
    "-1",
    "99999999999",
    "players: ",
    "[{id: A}, {id: B}, {id: C}]",
    "teams: ",
    "[{id: T, players: [A, B]}]",
    "games:\n",
    "  - ",
    "{round: 1, red: A, black: B, result: red}",
    "{round: 2, red: B, black: A, result: draw}",
    "{round: 1, red: A, black: A, result: black}",
    "byes: [{round: 1, entrant: C}]",
    "withdrawals: [{entrant: A, after_round: 1}]",
    "sanctions: [{entrant: B, kind: warning}]",
    "individual_format: swiss",
    "boards: 2",
    "lineup: fixed_boards",
    "matches: ",
    "{",
    "}",
    "[",
    "]",
    ":",
    "\n",
    " ",
    "\"",
    "é",
    "炮",
];

fn check_no_panic(text: &str) {
    for ed in ["cxa-1999", "cxa-2020"] {
        let r = rules(ed);
        match read_file("f.yaml", text, &r) {
            Ok(t) => {
                let st = standings(&t, &r);
                let mut last = 0;
                for row in &st.rows {
                    assert!(row.place >= last.max(1), "{text:?}");
                    last = row.place;
                }
            }
            Err(ReadError::Invalid(v)) => {
                assert!(!v.is_empty());
                for e in v {
                    assert!(!e.message.is_empty());
                }
            }
            Err(ReadError::Syntax(_)) => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        check_no_panic(&text);
    }

    #[test]
    fn tournament_shaped_text_never_panics(parts in proptest::collection::vec(0..ATOMS.len(), 0..30)) {
        let text: String = parts.iter().map(|&i| ATOMS[i]).collect();
        check_no_panic(&text);
    }

    #[test]
    fn random_round_robins_rank_everyone(results in proptest::collection::vec(0usize..6, 6), fouls in proptest::collection::vec(0u32..2, 6)) {
        let names = ["red", "black", "draw", "+-", "-+", "--"];
        let pairs = [(1, "A", "B"), (1, "C", "D"), (2, "A", "C"), (2, "B", "D"), (3, "D", "A"), (3, "B", "C")];
        let mut text = String::from("format: round_robin\nrounds: 3\nplayers: [{id: A}, {id: B}, {id: C}, {id: D}]\ngames:\n");
        for (k, (r, a, b)) in pairs.iter().enumerate() {
            text.push_str(&format!("  - {{round: {r}, red: {a}, black: {b}, result: \"{}\", fouls: {{red: {}}}}}\n", names[results[k]], fouls[k]));
        }
        for ed in ["cxa-1999", "cxa-2011", "cxa-2020"] {
            let r = rules(ed);
            let t = read_file("f.yaml", &text, &r).unwrap();
            let st = standings(&t, &r);
            prop_assert_eq!(st.rows.len(), 4);
            prop_assert_eq!(st.rows[0].place, 1);
            for w in st.rows.windows(2) {
                prop_assert!(w[0].score >= w[1].score);
                let shared = w[0].place == w[1].place;
                let label = w[1].separated_by.as_deref().unwrap_or("");
                prop_assert_eq!(shared, label == "shared place" || label == "play-off required", "{:?}", st.rows);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Silent acceptances and load (issue 16).

#[test]
fn an_empty_or_blank_player_id_is_refused_at_its_record() {
    for id in ["\"\"", "\"   \""] {
        let text = format!("format: swiss\nrounds: 1\nplayers:\n  - {{id: A}}\n  - {{id: {id}}}\ngames:\n  - {{round: 1, red: A, black: {id}, result: red}}\n");
        let e = match read_file("t.yaml", &text, &rules("cxa-2020")) {
            Err(ReadError::Invalid(v)) => v,
            other => panic!("an empty id must be refused, got {other:?}"),
        };
        let first = e.first().unwrap();
        assert_eq!(
            (first.kind, first.place.record.as_str(), first.place.line),
            (TournamentErrorKind::EmptyId, "players[1]", Some(5)),
            "{e}"
        );
        assert!(first.message.contains("is empty"), "{e}");
        assert_eq!(first.kind.reject_kind(), "tournament.empty_id");
    }
    // In a team's list too.
    let text = "format: team_swiss\nrounds: 1\nboards: 1\nlineup: fixed_boards\nteams:\n  - {id: T, players: [A, \" \"]}\n";
    match read_file("t.yaml", text, &rules("cxa-2020")) {
        Err(ReadError::Invalid(v)) => assert!(
            v.errors
                .iter()
                .any(|e| e.kind == TournamentErrorKind::EmptyId
                    && e.place.record == "teams[0].players[1]"),
            "{v}"
        ),
        other => panic!("an empty id must be refused, got {other:?}"),
    }
}

#[test]
fn a_round_count_past_the_bound_is_refused_before_anything_is_ranked() {
    let text = "format: swiss\nrounds: 4000000000\nplayers:\n  - {id: A}\n  - {id: B}\ngames:\n  - {round: 1, red: A, black: B, result: red}\n";
    let started = load::Stopwatch::start();
    let got = errors(text, "cxa-2020");
    assert_eq!(
        got,
        vec![(
            TournamentErrorKind::UnknownRound,
            "rounds".to_string(),
            Some(2)
        )],
        "{got:?}"
    );
    assert!(started.seconds() < 1.0);
    let ok = text.replace("4000000000", &xqspec::MAX_ROUNDS.to_string());
    if let Err(ReadError::Invalid(v)) = read_file("t.yaml", &ok, &rules("cxa-2020")) {
        assert!(v.into_iter().all(|e| e.place.record != "rounds"), "{ok}");
    }
}

use crate::load;

#[test]
fn a_100k_game_tournament_is_validated_and_ranked_in_under_5_s() {
    let r = rules("cxa-2020");
    // 20,000 players, 10 rounds: 100,000 games.
    let text = load::swiss_yaml(20_000, 10, "opponent_scores");
    let t0 = load::Stopwatch::start();
    let t = read_file("big.yaml", &text, &r).unwrap_or_else(|e| panic!("{e}"));
    let st = standings(&t, &r);
    let out = xqspec::render_standings(&t, &r, &st, false);
    let took = t0.seconds();
    assert_eq!((t.games.len(), st.rows.len()), (100_000, 20_000));
    assert!(out.lines().count() > 40_000, "both tables drawn");
    assert!(took < 5.0, "100,000 games: {took:.2} s");
    // 100,000 players who each played once: groups of tied players of 30,000 and more.
    let text = load::swiss_yaml(100_000, 1, "opponent_scores");
    let t0 = load::Stopwatch::start();
    let t = read_file("big.yaml", &text, &r).unwrap_or_else(|e| panic!("{e}"));
    let st = standings(&t, &r);
    xqspec::render_standings(&t, &r, &st, false);
    let took = t0.seconds();
    assert_eq!(st.rows.len(), 100_000);
    assert!(took < 5.0, "100,000 players: {took:.2} s");
}

#[test]
fn a_file_with_an_error_in_every_record_is_refused_fast_with_the_first_100() {
    let text = load::double_booked_yaml(100_000);
    let t0 = load::Stopwatch::start();
    let e = match read_file("booked.yaml", &text, &rules("cxa-2020")) {
        Err(ReadError::Invalid(v)) => v,
        other => panic!("double bookings must be refused, got {other:?}"),
    };
    let took = t0.seconds();
    assert!(took < 5.0, "100,000 double bookings: {took:.2} s");
    assert_eq!(
        (e.errors.len(), e.omitted),
        (xqspec::MAX_REPORTED_ERRORS, 99_999 - 100)
    );
    let first = &e.errors[0];
    assert_eq!(
        (first.kind, first.place.record.as_str(), first.place.line),
        (
            TournamentErrorKind::DoubleBooking,
            "games[1]",
            Some(100_007)
        )
    );
    let text = ReadError::Invalid(e).to_string();
    assert_eq!(text.lines().count(), 101);
    assert!(
        text.ends_with("and 99899 more errors (only the first 100 are reported)"),
        "{}",
        text.lines().last().unwrap()
    );
}
