//! A tournament as written: the records of the file (or of the `standings` query's
//! `tournament` object) before validation, read from YAML or JSON, and the lines and columns
//! of a file's records.

use super::*;
use crate::board::SideCounts;

shapes! {
    /// A tournament as written (the file, or the `standings` query's `tournament` object).
    #[derive(PartialEq, Serialize)]
    pub struct RawTournament {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        /// The event's name.
        pub name: Option<String>,
        /// The rule set the file is meant for (the CLI's default; the query checks it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub edition: Option<String>,
        /// An event overlay (id of `spec/overlays/<id>.yaml`) the file is meant for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub overlay: Option<String>,
        /// A format name: `round_robin` for the clause `tiebreak.round_robin`.
        pub(crate) format: String,
        /// A named order of the format's clause, when not the one in force (14.3.1 / 14.3.2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) order: Option<String>,
        /// 队员总分制: the format of the individual event.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) individual_format: Option<String>,
        /// Number of rounds of the event.
        pub(crate) rounds: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub(crate) players: Vec<RawPlayer>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub(crate) teams: Vec<RawTeam>,
        /// Team events: boards per match.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) boards: Option<u32>,
        /// Team events: the line-up system, a `lineup.*` clause name (`boards_with_reserves`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) lineup: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        /// Individual games: every game of an individual event.
        pub games: Vec<RawGame>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub(crate) matches: Vec<RawMatch>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub(crate) byes: Vec<RawBye>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub(crate) sanctions: Vec<RawSanction>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub(crate) withdrawals: Vec<RawWithdrawal>,
    }

    #[derive(PartialEq, Serialize)]
    pub(crate) struct RawPlayer {
        pub id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
    }

    #[derive(PartialEq, Serialize)]
    pub(crate) struct RawTeam {
        pub id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
        /// Player ids in registration (board) order, reserves last.
        pub(crate) players: Vec<String>,
    }

    #[derive(PartialEq, Serialize)]
    /// One game as written.
    pub struct RawGame {
        /// Individual events: the round. Inside a team match: omitted (the match's round).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) round: Option<u32>,
        /// Inside a team match: the board.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) board: Option<u32>,
        pub(crate) red: String,
        pub(crate) black: String,
        /// `red`, `black`, `draw`; without play: `+-` (Red wins), `-+` (Black wins), `--`.
        pub(crate) result: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        /// Fouls (犯规) charged in the game, per side.
        pub(crate) fouls: Option<SideCounts>,
        /// N+1: the final between the two leaders (10.4.3.1).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub r#final: bool,
        /// N+1: who won the play-off games when the final's slow game was drawn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) play_off_winner: Option<String>,
    }

    #[derive(PartialEq, Serialize)]
    pub(crate) struct RawMatch {
        pub(crate) round: u32,
        pub(crate) teams: [String; 2],
        pub games: Vec<RawGame>,
    }

    #[derive(PartialEq, Serialize)]
    pub(crate) struct RawBye {
        pub(crate) round: u32,
        pub(crate) entrant: String,
    }

    #[derive(PartialEq, Serialize)]
    pub(crate) struct RawSanction {
        pub(crate) entrant: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) round: Option<u32>,
        /// A kind of `sanction.ranking` (`warning`, `game_disqualification`).
        pub kind: String,
    }

    #[derive(PartialEq, Serialize)]
    pub(crate) struct RawWithdrawal {
        pub(crate) entrant: String,
        /// The last round the entrant played (0: withdrew before round 1).
        pub(crate) after_round: u32,
    }
}

impl RawTournament {
    /// Reads a tournament file's YAML text; errors carry `file`, line and column.
    pub fn from_yaml(file: &str, text: &str) -> Result<RawTournament, SyntaxError> {
        crate::input::yaml(text, &crate::input::Origin::named(file)).map_err(|e| {
            let (line, column) = if e.line == 0 {
                (None, None)
            } else {
                (Some(e.line), Some(e.column))
            };
            SyntaxError {
                place: Place {
                    file: Some(e.origin),
                    record: String::new(),
                    line,
                    column,
                },
                message: e.what,
            }
        })
    }

    /// Reads the `standings` query's tournament object.
    pub fn from_json(v: &serde_json::Value) -> Result<RawTournament, SyntaxError> {
        serde_json::from_value(v.clone()).map_err(|e| SyntaxError {
            place: Place::default(),
            message: format!("tournament: {e}"),
        })
    }
}

/// Reads and validates a tournament file under `rules`; errors carry file, line, column.
pub fn read_file(
    file: &str,
    text: &str,
    rules: &CompetitionRules,
) -> Result<Tournament, ReadError> {
    let raw = RawTournament::from_yaml(file, text).map_err(ReadError::Syntax)?;
    Tournament::validate(&raw, rules).map_err(|mut errs| {
        let lines = Lines::of(text);
        for e in &mut errs.errors {
            e.place.file = Some(file.to_string());
            if let Some((l, c)) = lines.locate(&e.place.record) {
                e.place.line = Some(l);
                e.place.column = Some(c);
            }
        }
        ReadError::Invalid(errs)
    })
}

/// Line and column (1-based) of a record path (`games[3]`, `matches[1].games[0]`,
/// `teams[2].players`) in block-style YAML. A record inside a flow collection (`[…]`,
/// `{…}`) is located at the line of the collection. `None` when the path is not found.
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    Lines::of(text).locate(path)
}

/// A line of block-style YAML: (1-based number, indentation of the content, content),
/// list markers split off: "  - red: a" gives an item marker at 2 and the content
/// "red: a" at 4.
#[derive(Clone, Copy)]
struct L<'a> {
    no: usize,
    ind: usize,
    item: bool,
    text: &'a str,
}

/// A text split into [`L`]ines once, to locate many record paths in it (each error of a
/// file: the split is linear in the text, each path linear in the lines it walks).
struct Lines<'a>(Vec<L<'a>>);

impl<'a> Lines<'a> {
    fn of(text: &'a str) -> Lines<'a> {
        let mut lines: Vec<L> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let t = raw.trim_start();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let ind = raw.len() - t.len();
            if let Some(rest) = t.strip_prefix("- ").or_else(|| (t == "-").then_some("")) {
                lines.push(L {
                    no: i + 1,
                    ind,
                    item: true,
                    text: rest,
                });
                let r = rest.trim_start();
                if !r.is_empty() {
                    lines.push(L {
                        no: i + 1,
                        ind: ind + 2 + (rest.len() - r.len()),
                        item: false,
                        text: r,
                    });
                }
            } else {
                lines.push(L {
                    no: i + 1,
                    ind,
                    item: false,
                    text: t,
                });
            }
        }
        Lines(lines)
    }

    fn locate(&self, path: &str) -> Option<(usize, usize)> {
        let lines = &self.0;
        let mut segs: Vec<Result<&str, usize>> = Vec::new();
        for part in path.split('.').filter(|p| !p.is_empty()) {
            let (key, rest) = part.split_once('[').unwrap_or((part, ""));
            if !key.is_empty() {
                segs.push(Ok(key));
            }
            for idx in rest.split('[') {
                if let Ok(n) = idx.trim_end_matches(']').parse::<usize>() {
                    segs.push(Err(n));
                }
            }
        }
        let (mut lo, mut hi) = (0usize, lines.len());
        let mut found: Option<(usize, usize)> = None;
        let mut min_ind = 0usize;
        for seg in segs {
            let window = &lines[lo..hi];
            match seg {
                Ok(key) => {
                    let k = window.iter().position(|l| {
                        !l.item
                            && l.ind >= min_ind
                            && l.text
                                .strip_prefix(key)
                                .is_some_and(|r| r.trim_start().starts_with(':'))
                    })?;
                    let l = window[k];
                    found = Some((l.no, l.ind + 1));
                    let after = l.text[key.len()..].trim_start()[1..].trim();
                    if after.starts_with('[') || after.starts_with('{') {
                        return found; // a flow collection: its records are on this line
                    }
                    let start = lo + k + 1;
                    let end = lines[start..hi]
                        .iter()
                        .position(|x| x.ind <= l.ind && !(x.item && x.ind == l.ind))
                        .map(|p| start + p)
                        .unwrap_or(hi);
                    lo = start;
                    hi = end;
                    min_ind = l.ind;
                }
                Err(n) => {
                    let item_ind = window.iter().find(|l| l.item)?.ind;
                    let items: Vec<usize> = window
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| l.item && l.ind == item_ind)
                        .map(|(i, _)| lo + i)
                        .collect();
                    let &s = items.get(n)?;
                    let l = lines[s];
                    found = Some((l.no, l.ind + 1));
                    let end = items.get(n + 1).copied().unwrap_or(hi);
                    lo = s + 1;
                    hi = end;
                    min_ind = item_ind + 1;
                }
            }
        }
        found
    }
}
