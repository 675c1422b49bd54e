#![warn(missing_docs)]
// Without the `cli` feature the report tables are left out, and with them the only users of
// a few crate-private helpers (table of contents lookups, display of tiebreak values). Dead
// code is still found: CI lints the default build, where everything is used.
#![cfg_attr(not(feature = "cli"), allow(dead_code, unused_imports))]
//! xqspec: the Chinese Xiangqi Association's competition rules (《象棋竞赛规则》, editions
//! 1999, 2011 and 2020) as executable data, and a conformance suite any xiangqi program can
//! be tested against.
//!
//! The crate holds four things:
//!
//! * **The rules as data.** Every rule fact is a YAML clause with a stable id
//!   (`movement.horse`), the article it encodes and its provenance ([`Spec`], [`Clause`]).
//!   A small rule VM compiles movement and check into tables ([`Rules`], [`Position`]); the
//!   other rule domains — the repetition rules (棋例, [`RepetitionRules`]), the arbiter's
//!   rules (裁判), time (计时, [`ClockRules`]) and the competition rules (比赛通则,
//!   [`CompetitionRules`]) — compile their own clauses. [`RuleSet::builtin`] compiles one
//!   edition for every domain at once into a [`RuleSet`].
//! * **The reference implementation.** [`Reference`] answers every query of the protocol
//!   ([`Query`], answered by an [`Answer`]) from those rules.
//! * **The conformance suite.** The cases of `conformance/`, embedded in the crate
//!   ([`Suite::embedded`]), each naming the clauses it tests and the answer the rules give;
//!   [`runner`] puts them to a program speaking the protocol (`conformance/PROTOCOL.md`,
//!   [`protocol`]), a UCI engine ([`Engine`]) or a Rust type ([`InProcess`]).
//! * **The harness.** [`Harness`] runs the suite against your [`Implementation`] from one
//!   `#[test]`.
//!
//! # The public surface
//!
//! What an embedder uses is re-exported here, at the root: the rule set and its spec,
//! positions, FEN and moves, the notations and record files, each domain's queries and
//! answers, the reference implementation, and the suite with its runner and harness. A few
//! groups of functions keep a namespace of their own ([`protocol`], [`runner`],
//! [`harness`], [`records`]). The modules themselves are the crate's own (`ARCHITECTURE.md`
//! maps them and the direction of their dependencies); the command line is `cli`, which
//! the binary calls (feature `cli`).
//!
//! # Embedding the rules
//!
//! Without the command line, the library builds alone: depend on it with
//! `xqspec = { version = "0.1", default-features = false }` (the default feature `cli` adds
//! the command line, the reports and their tables, and their crates). Legal moves, a 棋例
//! ruling with its classes and articles, and a record adjudicated from its moves:
//!
//! ```
//! use xqspec::{adjudicate_files, rule, Item, RuleSet, RulingQuery, StreamOptions};
//!
//! let rs = RuleSet::builtin("cxa-2020").expect("the built-in rules compile");
//!
//! // The legal moves of the start position, in ICCS.
//! let start = rs.vm.start_position();
//! let moves: Vec<String> = start.legal_moves(&rs.vm).iter().map(|m| m.iccs()).collect();
//! assert_eq!(moves.len(), 44);
//! assert!(moves.contains(&"h2e2".to_string()));
//!
//! // A cannon that goes back and forth threatening mate (长杀), ruled by the 棋例.
//! let q = RulingQuery {
//!     fen: "3aka3/4n4/4b4/4C4/p3p3p/9/2c6/2C6/4K4/9 w - - 0 1".into(),
//!     moves: ["c2g2", "c3g3", "g2c2", "g3c3", "c2g2", "c3g3"].map(String::from).to_vec(),
//! };
//! let ruling = rule(&rs.vm, rs.repetition.as_ref().unwrap(), &q).expect("legal moves");
//! assert_eq!(ruling.verdict.name(), "red_must_change");
//! let first = &ruling.plies[0];
//! println!("ply {}: {}", first.ply, first.reason);
//! for c in &ruling.clauses {
//!     println!("decided by {} (art. {})", c.clause, c.article.as_deref().unwrap_or("—"));
//! }
//!
//! // A record file (any notation and encoding, many games a file), adjudicated from its
//! // moves on every core; games come back in file order.
//! let record = std::env::temp_dir().join("xqspec-doc-example.pgn");
//! let game = "[FEN \"3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. 车八进二 1-0\n";
//! std::fs::write(&record, game).unwrap();
//! let mut results = Vec::new();
//! adjudicate_files(&rs, &[record], &StreamOptions::default(), true, &mut |item| {
//!     if let Item::Game(row) = item {
//!         let found = row.found.expect("the game replays");
//!         let clause = found.clause.as_ref().expect("a result names its clause");
//!         results.push(format!("{} by {} (art. {})", found.result_name(), clause.clause, clause.article.as_deref().unwrap()));
//!     }
//! })
//! .expect("2020 has the arbiter's clauses");
//! assert_eq!(results, ["red_wins by result.checkmate (art. 4.1.1)"]);
//! ```
//!
//! # Running the suite from a test
//!
//! Two cases of the suite — the generals may not face each other (将帅对面) — put to the
//! reference implementation under the 2020 rules:
//!
//! ```
//! use xqspec::{CaseStatus, Harness, Reference, Suite};
//!
//! let mut suite = Suite::embedded();
//! suite.cases.retain(|case| case.id.starts_with("fen-generals-facing"));
//!
//! let reference = Reference::builtin().expect("the built-in spec loads");
//! let results = Harness::new(&reference)
//!     .suite(suite)
//!     .edition("cxa-2020")
//!     .results()
//!     .expect("the run starts");
//!
//! assert_eq!(results.len(), 2);
//! for r in &results {
//!     assert_eq!(r.status, CaseStatus::Pass, "{}: {}", r.id, r.detail);
//! }
//! ```
//!
//! An implementation of your own answers the queries it declares in
//! [`About::queries`] and is skipped on the others; see [`Harness`].

#[macro_use]
mod codes;

// The modules are the crate's own (ARCHITECTURE.md maps them); what an embedder uses is
// re-exported below, at the root.
mod answer;
mod arbiter;
mod batch;
mod board;
mod clock;
mod competition;
mod conform;
mod diagram;
mod input;
mod line;
#[cfg(feature = "cli")]
mod markdown;
mod notation;
mod output;
mod perft;
mod query;
mod reference;
mod repetition;
#[cfg(feature = "cli")]
mod report;
mod ruleset;
mod spec;
mod spec_check;
mod vm;

/// The command line (`xqspec`), for the binary: `src/bin/xqspec/main.rs` calls [`cli::main`].
#[cfg(feature = "cli")]
pub mod cli;

// The crate under its own name, for the test helpers `tests/it` shares with `src/tests/`.
#[cfg(test)]
extern crate self as xqspec;
#[cfg(test)]
mod tests;

// Rules and positions: a rule set of every domain, the spec it compiles from, the board.
pub use board::{GameResult, Move, Piece, Side, Square};
pub use ruleset::{RuleSet, DEFAULT as DEFAULT_EDITION};
pub use spec::{
    Clause, Edition, Overlay, ProvenanceStatus, ReadingBasis, RuleRef, Spec, SpecError, SpecErrors,
};
pub use spec_check::check as check_spec;
pub use vm::fen::{parse as parse_fen, validate as validate_fen, FenError, FenProblemKind};
pub use vm::record::Record;
pub use vm::{IllegalMove, IllegalReason, Position, Rules, Status};

// Counting moves.
pub use perft::{divide as perft_divide, perft, perft_within, BudgetExhausted};

// A line of moves from a position.
pub use line::{after as line_after, given as line_given, Given, GivenError, LineError};

// Notation: moves in every notation, records and their files.
pub use notation::encoding::decode as decode_text;
pub use notation::pgn::{parse as parse_pgn, PgnError};
pub use notation::records::{Entry, GameEntry, RecordFile};
pub use notation::replay::{
    answer_replay_pgn, replay_text, write_game, GameAnswer, ReplayError, Replayer,
};
pub use notation::stream::{
    max_threads, stream as stream_records, Found, Options as StreamOptions,
};
pub use notation::{
    detect, format_move, format_with, notation_by_id, parse_move, parse_move_any, parse_move_with,
    parse_syntax, BoardView, ErrorKind, KindMap, Notation, NotationError, PieceKind,
    RejectKind as NotationRejectKind, RulesBoard, Script, Style, Width,
};

// The 棋例 (repetition rules).
pub use repetition::readings::without as without_reading;
pub use repetition::ruling::rule_every_move;
pub use repetition::{rule, ChaseKind, RepetitionRules, Ruling, RulingError, RulingQuery, Verdict};

// The arbiter (裁判): results, touch-move, a game's status.
pub use arbiter::{
    Adjudication, ArbiterError, BoardRules, OutcomeQuery, RejectKind as ArbiterRejectKind,
    StatusQuery, TouchQuery, EVENT_KINDS,
};

// Time (计时).
pub use clock::sim::{parse_events as parse_clock_events, simulate as simulate_clock};
#[cfg(feature = "cli")]
pub use clock::table::timeline_table;
pub use clock::{ClockError, ClockQuery, ClockRules, PlayoffQuery};

// Competitions (比赛通则): tournaments and standings.
#[cfg(feature = "cli")]
pub use competition::render::render as render_standings;
pub use competition::standings::{standings, PLAY_OFF, SHARED_PLACE};
pub use competition::tournament::{
    locate as locate_tournament, read_file as read_tournament, MAX_ROUNDS,
};
pub use competition::{
    ordered_lineups, CompetitionRules, RawTournament, ReadError, Standings, Tournament,
    TournamentErrorKind, Value, MAX_REPORTED_ERRORS,
};

// Many records adjudicated at once.
pub use batch::{adjudicate_files, stream_items, Item, Placed, Tally};

// The protocol's queries and answers, and the reference implementation.
pub use answer::{round_trip as answer_round_trip, ToAnswer, DOMAIN_ANSWER_FIELDS};
pub use query::{Answer, Query};
pub use reference::{
    record_outcome, record_status, Reference, MAX_GAME_MOVES, MAX_RULING_PLIES, PERFT_NODE_BUDGET,
};

// The conformance suite, its runner and harness, the programs it talks to.
pub use conform::case::Expect;
pub use conform::harness::Harness;
pub use conform::protocol::{Ask, Request, MAX_LINE_BYTES};
pub use conform::runner::{KnownFailures, RunOptions, Status as CaseStatus, Summary};
pub use conform::subject::{panic_message, Adapter, InProcess, Reply, Subject};
pub use conform::uci::{Dialect, Engine, EngineRuling, RankBase, Score, Searcher};
pub use conform::{About, Identity, Implementation, Suite};

/// The protocol (`conformance/PROTOCOL.md`): the hello, the answers on the wire, a program
/// served over stdin and stdout.
pub mod protocol {
    pub use crate::conform::protocol::{
        answer_ask, answer_json, decode_answer, hello_json, hello_request, parse_hello, serve,
        PROTOCOL_VERSION,
    };
}

/// Running the suite against a program: the cases selected, their results, and the results
/// written as `xqspec conform` writes them (JSON lines, tables, a known-failures file).
pub mod runner {
    #[cfg(feature = "cli")]
    pub use crate::conform::runner::area_table;
    pub use crate::conform::runner::{
        json_case, json_header, json_summary, known_failures_yaml, problem_lines, run, select,
        CaseResult, Run, Stall, StallKind, Tally, FAULTS_AFTER, STALL_AFTER,
    };
}

/// The checks `tests/conformance.rs` runs, one per case file.
pub mod harness {
    pub use crate::conform::harness::{
        check_case_file, check_reference_case_in, check_suite_files, edition_pattern,
    };
}

/// Record files read and their games replayed one by one (the path `xqspec replay` and
/// `xqspec adjudicate` read by).
pub mod records {
    pub use crate::batch::{final_position, judge, place, row};
    pub use crate::notation::encoding::by_name as encoding_by_name;
    pub use crate::notation::records::{from_bytes, games, read};
}
