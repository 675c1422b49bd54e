//! `cargo bench --bench standings`: the standings of a 9-round Swiss with 500 players
//! (2,250 games, results and pairings from a fixed pseudo-random sequence; pairings are
//! input, not computed). Measures the ranking of a validated tournament, validation plus
//! ranking from the raw records, and the whole file from YAML text; prints the best of
//! several runs of each. The target: under 20 ms.
//!
//! Then the growth (issue 16: linear time) at 1×, 10× and 100× the input: a 10-round Swiss
//! of 1,000 to 100,000 games (validation, ranking and both tables), one round of 1,000 to
//! 100,000 players, and a file whose every game is a double booking.

mod common;

use xqspec::RuleSet;
use xqspec::{read_tournament as read_file, RawTournament};
use xqspec::{standings, Tournament};

#[path = "../tests/it/common/load.rs"]
mod load;

fn best<F: FnMut()>(runs: usize, f: F) -> f64 {
    load::seconds(runs, f) * 1e3
}

fn main() {
    let runs: usize = common::setting("STANDINGS_RUNS", 20);
    let rules = RuleSet::builtin("cxa-2020")
        .expect("built-in spec")
        .competition
        .expect("competition clauses");
    for order in ["opponent_scores", "progressive_scores"] {
        let text = load::swiss_yaml(500, 9, order);
        let raw = RawTournament::from_yaml("bench.yaml", &text).expect("reads");
        let t: Tournament = Tournament::validate(&raw, &rules).expect("valid");
        let rank = best(runs, || {
            let st = standings(&t, &rules);
            assert_eq!(st.rows.len(), 500);
        });
        let validate = best(runs, || {
            let t = Tournament::validate(&raw, &rules).expect("valid");
            standings(&t, &rules);
        });
        let file = best(runs.min(5), || {
            let t = read_file("bench.yaml", &text, &rules).expect("valid");
            standings(&t, &rules);
        });
        println!("swiss 500 players, 9 rounds, order {order}: ranking {rank:.2} ms; validation + ranking {validate:.2} ms; YAML file + validation + ranking {file:.2} ms (best of {runs})");
    }

    // Growth. The YAML text is read before timing (its reader is another part's); timed:
    // validation, locating the errors in the text, ranking and the tables.
    let runs = runs.min(3);
    let raw = |text: &String| RawTournament::from_yaml("bench.yaml", text).expect("reads");
    let rank_and_draw = |raw: &RawTournament| {
        let t = Tournament::validate(raw, &rules).expect("valid");
        let st = standings(&t, &rules);
        xqspec::render_standings(&t, &rules, &st, false);
    };
    load::growth(
        "swiss, 10 rounds, games (validation + ranking + tables)",
        1_000,
        runs,
        |games| raw(&load::swiss_yaml(games / 5, 10, "opponent_scores")),
        rank_and_draw,
    );
    load::growth(
        "one round, players (validation + ranking + tables)",
        1_000,
        runs,
        |players| raw(&load::swiss_yaml(players, 1, "opponent_scores")),
        rank_and_draw,
    );
    load::growth(
        "double-booked games (validation + errors located in the file)",
        1_000,
        runs,
        load::double_booked_yaml,
        |text| {
            read_file("bench.yaml", text, &rules).expect_err("double bookings");
        },
    );
}
