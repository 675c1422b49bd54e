//! The text of `xqspec standings`: the crosstable and the ranking of a tournament, with
//! every criterion's value and what separated each pair of neighbours.

use std::collections::HashMap;

use tabled::builder::Builder;

use super::criteria::fmt_number;
use super::data::System;
use super::standings::{encounters, Outcome, Standings};
use super::tournament::Tournament;
use super::CompetitionRules;

fn table(b: Builder, markdown: bool) -> String {
    crate::markdown::table_text(b, markdown)
}

/// The crosstable and the ranking, as text tables or Markdown.
pub fn render(t: &Tournament, rules: &CompetitionRules, st: &Standings, markdown: bool) -> String {
    let mut out = String::new();
    let title = t.name.clone().unwrap_or_else(|| "Tournament".into());
    let head = format!(
        "{title}: {} ({}, article {}), rule set {}, order `{}`",
        st.format,
        st.clause,
        t.format.article.clone().unwrap_or_else(|| "—".into()),
        st.ruleset,
        st.order
    );
    if markdown {
        out.push_str(&format!("# {head}\n\n## Crosstable\n\n"));
    } else {
        out.push_str(&format!("{head}\n\nCrosstable\n"));
    }
    match crosstable(t, rules, st) {
        Some(b) => out.push_str(&table(b, markdown)),
        None => {
            let (rows, columns) = crosstable_size(t);
            out.push_str(&format!(
                "(not drawn: {rows} rows × {columns} columns; a crosstable has at most {MAX_CROSSTABLE_COLUMNS} columns and {MAX_CROSSTABLE_CELLS} cells. The ranking below, and --json, give every result.)"
            ));
        }
    }
    out.push('\n');
    push_ranking(&mut out, "Ranking", st, markdown);
    if !st.annulled.is_empty() {
        out.push_str(&format!(
            "\nResults annulled by withdrawal (not ranked): {}\n",
            st.annulled.join(", ")
        ));
    }
    if let Some(ind) = &st.individual {
        push_ranking(&mut out, "Individual ranking", ind, markdown);
    }
    out
}

/// Appends a ranking under its `title`, after a blank line.
fn push_ranking(out: &mut String, title: &str, st: &Standings, markdown: bool) {
    out.push_str(&if markdown {
        format!("\n## {title}\n\n")
    } else {
        format!("\n{title}\n")
    });
    out.push_str(&table(ranking(st), markdown));
    out.push('\n');
}

fn ranking(st: &Standings) -> Builder {
    let mut b = Builder::default();
    let mut head = vec!["place".to_string(), "entrant".to_string()];
    head.extend(st.criteria.iter().cloned());
    head.push("separated from the one above by".into());
    b.push_record(head);
    for r in &st.rows {
        let mut row = vec![
            r.place.to_string(),
            if r.withdrawn {
                format!("{} (withdrawn)", r.entrant)
            } else {
                r.entrant.clone()
            },
        ];
        for c in &st.criteria {
            row.push(
                r.values
                    .iter()
                    .find(|(k, _)| k == c)
                    .map(|(_, v)| v.display())
                    .unwrap_or_else(|| "—".into()),
            );
        }
        row.push(r.separated_by.clone().unwrap_or_default());
        b.push_record(row);
    }
    b
}

/// The most columns a crosstable is drawn with (entrants of a round robin, rounds of a
/// Swiss): a wider one would be unreadable, and its size would grow with the square of
/// the entrants (or with a `rounds` count no games fill) rather than with the file.
pub(crate) const MAX_CROSSTABLE_COLUMNS: usize = 200;
/// The most cells (entrants × columns) a crosstable is drawn with: 100,000 entrants of a
/// 20-round Swiss.
pub(crate) const MAX_CROSSTABLE_CELLS: usize = 2_000_000;

fn round_robin(t: &Tournament) -> bool {
    t.game_format().system == Some(System::RoundRobin)
}

/// Rows and columns of the crosstable: a row per entrant; a column per entrant in a
/// round robin, per round otherwise.
fn crosstable_size(t: &Tournament) -> (usize, usize) {
    let rows = if t.team_event() {
        t.teams.len()
    } else {
        t.players.len()
    };
    (
        rows,
        if round_robin(t) {
            rows
        } else {
            t.rounds as usize
        },
    )
}

/// Round robin: entrant × entrant, the points scored in each encounter. Swiss: entrant ×
/// round, the opponent (b when the entrant had Black) and the points. `None` beyond
/// [`MAX_CROSSTABLE_COLUMNS`].
fn crosstable(t: &Tournament, rules: &CompetitionRules, st: &Standings) -> Option<Builder> {
    let (rows, columns) = crosstable_size(t);
    if columns > MAX_CROSSTABLE_COLUMNS || rows.saturating_mul(columns) > MAX_CROSSTABLE_CELLS {
        return None;
    }
    let enc = encounters(t, rules);
    let ids: Vec<&str> = t.entrant_ids();
    let index: HashMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    // Rows in ranking order, then the unranked.
    let mut order: Vec<usize> = st
        .rows
        .iter()
        .filter_map(|r| index.get(r.entrant.as_str()).copied())
        .collect();
    let mut listed = vec![false; ids.len()];
    for &i in &order {
        listed[i] = true;
    }
    order.extend((0..ids.len()).filter(|&i| !listed[i]));
    let points = |e: &super::standings::Encounter| {
        if t.team_event() || t.game_format().unit == super::data::Unit::Match {
            e.match_points
        } else {
            e.game_points
        }
    };
    let mut b = Builder::default();
    if round_robin(t) {
        let mut head = vec!["#".to_string(), "entrant".to_string()];
        head.extend((1..=order.len()).map(|k| k.to_string()));
        b.push_record(head);
        for (r, &i) in order.iter().enumerate() {
            let mut row = vec![(r + 1).to_string(), ids[i].to_string()];
            for &j in &order {
                if i == j {
                    row.push("×".into());
                    continue;
                }
                let cells: Vec<String> = enc[i]
                    .iter()
                    .filter(|e| e.opponent == Some(j))
                    .map(|e| fmt_number(points(e)))
                    .collect();
                row.push(cells.join(" "));
            }
            b.push_record(row);
        }
    } else {
        let mut head = vec!["entrant".to_string()];
        head.extend((1..=t.rounds).map(|k| format!("R{k}")));
        b.push_record(head);
        for &i in &order {
            let mut row = vec![ids[i].to_string()];
            for round in 1..=t.rounds {
                let cells: Vec<String> = enc[i]
                    .iter()
                    .filter(|e| e.round == round)
                    .map(|e| match e.opponent {
                        None => format!("bye {}", fmt_number(points(e))),
                        Some(o) => {
                            let colour = if e.black_games > 0 && !t.team_event() {
                                " b"
                            } else {
                                ""
                            };
                            let mark = match e.outcome {
                                Outcome::Win => "+",
                                Outcome::Draw => "=",
                                Outcome::Loss => "-",
                            };
                            format!("{mark}{}{colour} {}", ids[o], fmt_number(points(e)))
                        }
                    })
                    .collect();
                row.push(cells.join(", "));
            }
            b.push_record(row);
        }
    }
    Some(b)
}
