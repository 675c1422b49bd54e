//! The crates.io crate `chessai` (a xiangqi engine with u128 bitboards) measured by the xqspec
//! conformance suite, in-process, as its author would measure it with
//! `xqspec::Harness`.
//!
//! The adapter only translates: FEN and ICCS text go to chessai's own parsers, and its answers
//! come back in the protocol's spelling (ICCS without the hyphen chessai writes, its error enum
//! as `fen.*` kinds). Every rule decision is chessai's:
//!
//! - `legal_moves`: `Engine::legal_moves`.
//! - `perft`: a recursion over `Engine::legal_moves`, `Engine::make_move` and
//!   `Engine::undo_move` (the last ply counted as the length of the move list).
//! - `status`: `Position::is_in_check` for the side to move and whether
//!   `Engine::legal_moves` is empty (chessai has no status call of its own).
//! - `validate_fen`: whether `Engine::set_fen` accepts the FEN (chessai's only FEN check).
//! - `parse_move`, `format_move` for the ICCS notations: `Move::from_iccs` / `Move::to_iccs`,
//!   legality by membership in `Engine::legal_moves`; other notations are `unsupported`.
//!
//! Every other query (rulings, the arbiter, clocks, standings, …) has no counterpart in
//! chessai and is not declared, so its cases are skipped.
//!
//! Output: the JSON lines of `xqspec conform --json` on stdout; the per-area table and the
//! closing line on stderr. Exit status 1 when a case failed. `--plain` prints the table, the
//! lines of the cases not passing and the closing line on stdout instead of JSON.

use std::process::ExitCode;

use chessai::{ChessAIError, Engine, Move, STARTING_FEN};
use xqspec::Harness;
use xqspec::Summary;
use xqspec::runner;
use xqspec::{About, Answer, Identity, Implementation, Query};

/// The rule sets chessai can claim: it follows "the rules" without naming an edition, and its
/// movement rules are those all four share.
const EDITIONS: [&str; 4] = ["cxa-1999", "cxa-2011", "cxa-2020", "axf"];

/// The queries chessai answers with its own public API.
const QUERIES: [&str; 6] = ["legal_moves", "perft", "status", "validate_fen", "parse_move", "format_move"];

/// The notation ids whose text chessai reads and writes (`Move::from_iccs`, `Move::to_iccs`).
const ICCS_NOTATIONS: [&str; 2] = ["iccs", "iccs-upper"];

struct ChessAi {
    engine: Engine,
}

impl ChessAi {
    fn new() -> Self {
        // No search is run: the smallest transposition table, no opening book.
        ChessAi { engine: Engine::builder().hash_size(1).use_book(false).threads(1).build() }
    }

    /// Sets up the position of `fen` after `moves`, or the rejection chessai gives.
    fn setup(&mut self, fen: &str, moves: &[String]) -> Result<(), Answer> {
        let fen = if fen == "startpos" { STARTING_FEN } else { fen };
        self.engine.set_fen(fen).map_err(|e| fen_reject(&e))?;
        for (i, text) in moves.iter().enumerate() {
            let mv = Move::from_iccs(text)
                .map_err(|e| Answer::reject("move.syntax", format!("moves[{i}] `{text}`: {e}")))?;
            if !self.engine.make_move(mv) {
                return Err(Answer::reject("move.illegal", format!("moves[{i}] `{text}`: Engine::make_move refused it")));
            }
        }
        Ok(())
    }

    fn legal(&mut self) -> Vec<Move> {
        self.engine.legal_moves()
    }

    /// The number of legal move sequences of `depth` plies from the engine's position.
    fn perft(&mut self, depth: u32) -> Result<u64, String> {
        if depth == 0 {
            return Ok(1);
        }
        let moves = self.legal();
        if depth == 1 {
            return Ok(moves.len() as u64);
        }
        let mut nodes = 0;
        for mv in moves {
            if !self.engine.make_move(mv) {
                return Err(format!("Engine::make_move refused {mv}, which Engine::legal_moves listed, in {}", self.engine.fen()));
            }
            nodes += self.perft(depth - 1)?;
            self.engine.undo_move();
        }
        Ok(nodes)
    }
}

/// A move in the protocol's ICCS: chessai writes `h2-e2`, the protocol `h2e2`.
fn iccs(mv: Move) -> String {
    mv.to_iccs().replace('-', "")
}

/// chessai's FEN error as a reject kind: the kind its variant names, or the family `fen`.
fn fen_reject(e: &ChessAIError) -> Answer {
    let kind = match e {
        ChessAIError::EmptyFen | ChessAIError::InvalidFenChar { .. } => "fen.syntax",
        ChessAIError::FenRankOverflow { .. } | ChessAIError::FenRankUnderflow => "fen.board_shape",
        ChessAIError::BadSideToMove { .. } => "fen.side_to_move",
        _ => "fen",
    };
    Answer::reject(kind, format!("Engine::set_fen: {e}"))
}

impl Implementation for ChessAi {
    fn about(&self) -> About {
        About {
            implementation: Identity {
                name: "chessai".into(),
                version: "1.0.1".into(),
                language: Some("Rust".into()),
                homepage: Some("https://github.com/atopx/chessai".into()),
            },
            editions: EDITIONS.iter().map(|s| s.to_string()).collect(),
            queries: QUERIES.iter().map(|s| s.to_string()).collect(),
            ..About::default()
        }
    }

    fn answer(&mut self, _edition: &str, query: &Query) -> Answer {
        let result = match query {
            Query::LegalMoves { fen, moves } => self.setup(fen, moves).map(|()| Answer::moves(self.legal().into_iter().map(iccs))),
            Query::Perft { fen, moves, depth } => self.setup(fen, moves).map(|()| match self.perft(*depth) {
                Ok(n) => Answer::nodes(n),
                Err(m) => Answer::error(m),
            }),
            Query::Status { fen, moves } => self.setup(fen, moves).map(|()| {
                let check = self.engine.position().is_in_check(self.engine.side_to_move());
                let can_move = !self.legal().is_empty();
                Answer::status(match (check, can_move) {
                    (false, true) => "ongoing",
                    (true, true) => "check",
                    (true, false) => "checkmate",
                    (false, false) => "stalemate",
                })
            }),
            Query::ValidateFen { fen } => self.engine.set_fen(fen).map(|()| Answer::valid()).map_err(|e| fen_reject(&e)),
            Query::ParseMove { fen, moves, notation, text } if ICCS_NOTATIONS.contains(&notation.as_str()) => {
                self.setup(fen, moves).map(|()| match Move::from_iccs(text) {
                    Err(e) => Answer::reject("notation.syntax", format!("Move::from_iccs: {e}")),
                    Ok(mv) if self.legal().contains(&mv) => Answer::parsed_move(iccs(mv)),
                    Ok(mv) => Answer::reject("notation.no_match", format!("{mv} is not among Engine::legal_moves")),
                })
            }
            Query::FormatMove { fen, moves, notation, mv } if ICCS_NOTATIONS.contains(&notation.as_str()) => {
                self.setup(fen, moves).map(|()| match Move::from_iccs(mv) {
                    Err(e) => Answer::reject("move.syntax", format!("Move::from_iccs: {e}")),
                    Ok(m) if !self.legal().contains(&m) => {
                        Answer::reject("move.illegal", format!("{m} is not among Engine::legal_moves"))
                    }
                    Ok(m) if notation == "iccs" => Answer::text(iccs(m)),
                    Ok(m) => Answer::text(m.to_iccs().to_uppercase()),
                })
            }
            Query::ParseMove { notation, .. } | Query::FormatMove { notation, .. } => {
                Ok(Answer::unsupported(format!("chessai reads and writes ICCS only, not `{notation}`")))
            }
            other => Ok(Answer::unsupported(format!("chessai has no counterpart of `{}`", other.name()))),
        };
        result.unwrap_or_else(|rejected| rejected)
    }
}

fn main() -> ExitCode {
    let plain = std::env::args().skip(1).any(|a| a == "--plain");
    // A panic inside chessai is recorded as the case's crash (with its message); the default
    // hook would also print it to stderr.
    std::panic::set_hook(Box::new(|_| {}));
    let imp = ChessAi::new();
    let about = imp.about();
    let results = match Harness::new(imp).results() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("the suite could not be run: {e}");
            return ExitCode::FAILURE;
        }
    };
    let summary = Summary::of(&results);
    if plain {
        println!("{}", runner::area_table(&results, false));
        for line in runner::problem_lines(&results, false) {
            println!("{line}");
        }
        println!("{}", summary.line());
    } else {
        let editions: Vec<String> = match xqspec::Spec::builtin() {
            Ok(spec) => spec.editions().iter().map(|e| e.id.clone()).collect(),
            Err(_) => about.editions.clone(),
        };
        println!("{}", runner::json_header(&about, &editions));
        for r in &results {
            println!("{}", runner::json_case(r));
        }
        println!("{}", runner::json_summary(&summary, None));
        eprintln!("{}", runner::area_table(&results, false));
        eprintln!("{}", summary.line());
    }
    if summary.ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
