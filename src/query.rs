//! The protocol's questions and answers, typed (`conformance/PROTOCOL.md`): what the
//! reference (`crate::reference`) answers and the runner (`crate::conform`) asks and judges.
//! A leaf: it knows the rule domains' query types, nothing of the suite or the reference.

use std::fmt;

use serde_json::{json, Map, Value};

/// A question put to an implementation, typed. The wire form is a query
/// name plus an input object ([`Query::name`], [`Query::input`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// The legal moves of the position after `moves` from `fen`.
    LegalMoves {
        /// The position, in FEN (or `startpos`).
        fen: String,
        /// Moves played from it first, in canonical ICCS (`h2e2`).
        moves: Vec<String>,
    },
    /// The number of legal move sequences of `depth` plies (perft).
    Perft {
        /// The position, in FEN (or `startpos`).
        fen: String,
        /// Moves played from it first, in canonical ICCS.
        moves: Vec<String>,
        /// The number of plies.
        depth: u32,
    },
    /// Whether the side to move is in check (将), checkmated (将死) or stalemated (困毙).
    Status {
        /// The position, in FEN (or `startpos`).
        fen: String,
        /// Moves played from it first, in canonical ICCS.
        moves: Vec<String>,
    },
    /// Whether a FEN gives a position the rules allow.
    ValidateFen {
        /// The FEN text.
        fen: String,
    },
    /// A move written in a notation, read into ICCS.
    ParseMove {
        /// The position, in FEN (or `startpos`).
        fen: String,
        /// Moves played from it first, in canonical ICCS.
        moves: Vec<String>,
        /// The notation id (`chinese`, `wxf`, `iccs`).
        notation: String,
        /// The move as written (`炮二平五`).
        text: String,
    },
    /// A move given in ICCS, written in a notation.
    FormatMove {
        /// The position, in FEN (or `startpos`).
        fen: String,
        /// Moves played from it first, in canonical ICCS.
        moves: Vec<String>,
        /// The notation id (`chinese`, `wxf`, `iccs`).
        notation: String,
        /// The move to write, in canonical ICCS.
        mv: String,
    },
    /// The result of a game given as events (the arbiter's rules).
    Outcome(crate::arbiter::OutcomeQuery),
    /// The moves allowed after touching pieces (touch-move, 摸子走子).
    TouchMove(crate::arbiter::TouchQuery),
    /// How a game in progress stands: ended or not, repetitions, orders, natural limit.
    GameStatus(crate::arbiter::StatusQuery),
    /// Clock events under a clock scheme (`src/clock`).
    Clock(crate::clock::ClockQuery),
    /// A knockout play-off chain and the games played so far (`src/clock/playoff.rs`).
    Playoff(crate::clock::PlayoffQuery),
    /// A 棋例 ruling on a cycle of moves (`src/repetition`).
    Ruling(crate::repetition::RulingQuery),
    /// Standings of a tournament (`src/competition`).
    Standings(crate::competition::StandingsQuery),
    /// A query this version of xqspec has no type for (a later protocol's `ruling`, …).
    Other {
        /// The query's name.
        name: String,
        /// Its input fields.
        input: Map<String, Value>,
    },
}

/// The queries this version knows, in protocol spelling.
pub(crate) const KNOWN_QUERIES: &[&str] = &[
    "legal_moves",
    "perft",
    "status",
    "validate_fen",
    "parse_move",
    "format_move",
    "outcome",
    "touch_move",
    "game_status",
    "clock",
    "playoff",
    "standings",
    "ruling",
];

impl Query {
    /// Builds a typed query from its wire name and input object.
    pub fn from_parts(name: &str, input: &Map<String, Value>) -> Result<Query, String> {
        let s = |k: &str| -> Result<String, String> {
            match input.get(k) {
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(format!("input `{k}` is a string")),
                None => Err(format!("input `{k}` is missing")),
            }
        };
        let moves = || -> Result<Vec<String>, String> {
            match input.get("moves") {
                None => Ok(Vec::new()),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|m| {
                        m.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| "input `moves` is a list of strings".to_string())
                    })
                    .collect(),
                Some(_) => Err("input `moves` is a list of strings".into()),
            }
        };
        Ok(match name {
            "legal_moves" => Query::LegalMoves {
                fen: s("fen")?,
                moves: moves()?,
            },
            "perft" => {
                let depth = match input.get("depth") {
                    Some(Value::Number(n)) => n
                        .as_u64()
                        .filter(|&d| d <= 64)
                        .ok_or("input `depth` is an integer from 0 to 64")?
                        as u32,
                    Some(_) => return Err("input `depth` is an integer".into()),
                    None => return Err("input `depth` is missing".into()),
                };
                Query::Perft {
                    fen: s("fen")?,
                    moves: moves()?,
                    depth,
                }
            }
            "status" => Query::Status {
                fen: s("fen")?,
                moves: moves()?,
            },
            "validate_fen" => Query::ValidateFen { fen: s("fen")? },
            "parse_move" => Query::ParseMove {
                fen: s("fen")?,
                moves: moves()?,
                notation: s("notation")?,
                text: s("text")?,
            },
            "format_move" => Query::FormatMove {
                fen: s("fen")?,
                moves: moves()?,
                notation: s("notation")?,
                mv: s("move")?,
            },
            "outcome" => Query::Outcome(domain_input(input)?),
            "touch_move" => Query::TouchMove(domain_input(input)?),
            "game_status" => Query::GameStatus(domain_input(input)?),
            "clock" => Query::Clock(domain_input(input)?),
            "playoff" => Query::Playoff(domain_input(input)?),
            "standings" => Query::Standings(domain_input(input)?),
            "ruling" => Query::Ruling(domain_input(input)?),
            other => Query::Other {
                name: other.to_string(),
                input: input.clone(),
            },
        })
    }

    /// The query's name on the wire (`legal_moves` …).
    pub fn name(&self) -> &str {
        match self {
            Query::LegalMoves { .. } => "legal_moves",
            Query::Perft { .. } => "perft",
            Query::Status { .. } => "status",
            Query::ValidateFen { .. } => "validate_fen",
            Query::ParseMove { .. } => "parse_move",
            Query::FormatMove { .. } => "format_move",
            Query::Outcome(_) => "outcome",
            Query::TouchMove(_) => "touch_move",
            Query::GameStatus(_) => "game_status",
            Query::Clock(_) => "clock",
            Query::Playoff(_) => "playoff",
            Query::Standings(_) => "standings",
            Query::Ruling(_) => "ruling",
            Query::Other { name, .. } => name,
        }
    }

    /// The input object in protocol form.
    pub fn input(&self) -> Map<String, Value> {
        let v = match self {
            Query::LegalMoves { fen, moves } | Query::Status { fen, moves } => {
                json!({"fen": fen, "moves": moves})
            }
            Query::Perft { fen, moves, depth } => {
                json!({"fen": fen, "moves": moves, "depth": depth})
            }
            Query::ValidateFen { fen } => json!({ "fen": fen }),
            Query::ParseMove {
                fen,
                moves,
                notation,
                text,
            } => {
                json!({"fen": fen, "moves": moves, "notation": notation, "text": text})
            }
            Query::FormatMove {
                fen,
                moves,
                notation,
                mv,
            } => {
                json!({"fen": fen, "moves": moves, "notation": notation, "move": mv})
            }
            Query::Outcome(q) => serde_json::to_value(q).unwrap_or(Value::Null),
            Query::TouchMove(q) => serde_json::to_value(q).unwrap_or(Value::Null),
            Query::GameStatus(q) => serde_json::to_value(q).unwrap_or(Value::Null),
            Query::Clock(q) => serde_json::to_value(q).unwrap_or(Value::Null),
            Query::Playoff(q) => serde_json::to_value(q).unwrap_or(Value::Null),
            Query::Standings(q) => serde_json::to_value(q).unwrap_or(Value::Null),
            Query::Ruling(q) => serde_json::to_value(q).unwrap_or(Value::Null),
            Query::Other { input, .. } => return input.clone(),
        };
        match v {
            Value::Object(m) => m,
            _ => unreachable!("json! of an object literal, or a domain query struct"),
        }
    }
}

/// The answer field of a known query (`legal_moves` → `moves`).
pub(crate) fn answer_field(query: &str) -> Option<&'static str> {
    Some(match query {
        "legal_moves" => "moves",
        "perft" => "nodes",
        "status" => "status",
        "validate_fen" => "valid",
        "parse_move" => "move",
        "format_move" => "text",
        "outcome" => "outcome",
        "touch_move" => "touch",
        "game_status" => "game_status",
        "clock" => "clock",
        "playoff" => "playoff",
        "standings" => "standings",
        "ruling" => "ruling",
        _ => return None,
    })
}

/// What an implementation says to a query.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The input was accepted; the answer object (`{"moves": [...]}`).
    Value(Map<String, Value>),
    /// The input was refused with a reject kind (`fen.board_shape`).
    Reject {
        /// The reject kind, from `conformance/vocabulary.yaml`.
        kind: String,
        /// Why, in words.
        message: String,
    },
    /// The implementation does not answer this query or case (a skip).
    Unsupported {
        /// Why not, in words.
        reason: String,
    },
    /// The implementation failed to answer (a bug or an internal error).
    Error {
        /// What went wrong, in words.
        message: String,
    },
}

impl Answer {
    /// An accepted answer with one field (`{"clock": {...}}`).
    pub fn one(field: &str, v: Value) -> Answer {
        let mut m = Map::new();
        m.insert(field.to_string(), v);
        Answer::Value(m)
    }
    /// Answer to `legal_moves`: ICCS moves in any order.
    pub fn moves<I: IntoIterator<Item = S>, S: Into<String>>(moves: I) -> Answer {
        Answer::one(
            "moves",
            Value::Array(moves.into_iter().map(|m| Value::String(m.into())).collect()),
        )
    }
    /// Answer to `perft`.
    pub fn nodes(n: u64) -> Answer {
        Answer::one("nodes", json!(n))
    }
    /// Answer to `status` (`ongoing`, `check`, `checkmate`, `stalemate`).
    pub fn status(s: &str) -> Answer {
        Answer::one("status", json!(s))
    }
    /// Answer to `validate_fen` when the FEN is accepted.
    pub fn valid() -> Answer {
        Answer::one("valid", json!(true))
    }
    /// Answer to `parse_move`: the ICCS move.
    pub fn parsed_move(mv: impl Into<String>) -> Answer {
        Answer::one("move", Value::String(mv.into()))
    }
    /// Answer to `format_move`: the move's text.
    pub fn text(t: impl Into<String>) -> Answer {
        Answer::one("text", Value::String(t.into()))
    }
    /// A refusal of the input: a reject kind (`fen`, `move.illegal` …) and why.
    pub fn reject(kind: impl Into<String>, message: impl Into<String>) -> Answer {
        Answer::Reject {
            kind: kind.into(),
            message: message.into(),
        }
    }
    /// Not answered: the query or case is not supported (the case is skipped).
    pub fn unsupported(reason: impl Into<String>) -> Answer {
        Answer::Unsupported {
            reason: reason.into(),
        }
    }
    /// A failure to answer: a bug or an internal error.
    pub fn error(message: impl Into<String>) -> Answer {
        Answer::Error {
            message: message.into(),
        }
    }
}

impl Answer {
    /// The answer for display, with a move list sorted (answers may come in any order).
    pub fn display_sorted(&self) -> String {
        match self {
            Answer::Value(m) => {
                let mut m = m.clone();
                if let Some(Value::Array(list)) = m.get_mut("moves") {
                    list.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
                }
                Value::Object(m).to_string()
            }
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Value(m) => write!(f, "{}", Value::Object(m.clone())),
            Answer::Reject { kind, message } if message.is_empty() => write!(f, "reject {kind}"),
            Answer::Reject { kind, message } => write!(f, "reject {kind} ({message})"),
            Answer::Unsupported { reason } => write!(f, "unsupported: {reason}"),
            Answer::Error { message } => write!(f, "error: {message}"),
        }
    }
}

/// A rule domain's query type read from the input object (its fields are the domain's). An
/// error names the field it is in (`input.touches[0]: invalid type …`).
fn domain_input<T: serde::de::DeserializeOwned>(input: &Map<String, Value>) -> Result<T, String> {
    serde_path_to_error::deserialize(Value::Object(input.clone())).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." {
            format!("input: {inner}")
        } else {
            format!("input.{path}: {inner}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_domain_input_error_names_its_field() {
        let input = |v: Value| v.as_object().unwrap().clone();
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let err = |v: Value| Query::from_parts("touch_move", &input(v)).err().unwrap();
        assert_eq!(
            err(json!({"fen": fen, "touches": ["e3", 5]})),
            "input.touches[1]: invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            err(json!({"fen": fen, "touches": ["e3"], "simultaneous": "yes"})),
            "input.simultaneous: invalid type: string \"yes\", expected a boolean"
        );
        let unknown = err(json!({"fen": fen, "touchez": ["e3"]}));
        assert!(
            unknown.starts_with("input")
                && unknown.contains(": unknown field `touchez`, expected one of `fen`"),
            "{unknown}"
        );
    }

    #[test]
    fn queries_round_trip_through_the_wire_form() {
        let q = Query::Perft {
            fen: "f".into(),
            moves: vec!["h2e2".into()],
            depth: 3,
        };
        assert_eq!(Query::from_parts(q.name(), &q.input()).unwrap(), q);
        for name in KNOWN_QUERIES {
            assert!(answer_field(name).is_some());
        }
        assert!(Query::from_parts("perft", &Map::new()).is_err());
        assert!(matches!(
            Query::from_parts("replay_pgn", &Map::new()).unwrap(),
            Query::Other { .. }
        ));
    }
}
