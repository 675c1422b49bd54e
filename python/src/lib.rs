//! `xqspec._xqspec`: the Python binding of xqspec. Every answer is the protocol's answer
//! (`conformance/PROTOCOL.md`) given by the library's reference implementation, turned into
//! Python objects; every refusal an exception of `xqspec._errors` with its place. Nothing
//! here knows a rule: the queries go to `xqspec::reference`, records through
//! `xqspec::records` (`batch.rs`), the suite through `xqspec::runner`
//! (`suite.rs`).
//!
//! A crate of its own (`xqspec-python`, its own `[workspace]`, excluded from the root
//! package), built by maturin with PyO3 on the stable ABI (`abi3-py39`): `pip install
//! ./python` builds it from the checkout. It depends on the library only (`xqspec` with
//! `default-features = false`: no command line), pyo3 and serde_json.
//!
//! - The queries go to `reference::Reference::answer_query` (typed) or
//!   `conform::protocol::answer_ask` (by name, as `serve` answers), and the answer's JSON
//!   becomes Python values (`convert.rs`); a rejection becomes the exception of its reject
//!   kind (`xqspec/_errors.py`), its place read from the typed error (`line::after` for a
//!   FEN's column and a move's ply, the message for an event's index).
//! - `batch.rs`: the batch calls over record files, streamed by `notation::stream` as the
//!   commands stream them; `iter_*` hand the items over one by one from a thread of their
//!   own (a bounded channel; dropped, the stream stops through `stream::Options::stop`).
//! - `convert.rs` reads paths and numbers itself: a lone surrogate or a number out of range
//!   is a `ValueError` naming the argument, never a panic of PyO3's conversion.
//! - `suite.rs`: a Python object put to `conform::runner::run` (a `KeyboardInterrupt` or
//!   `SystemExit` of a method unwinds the runner and is raised).
//! - `xqspec/dask_jobs.py`: the batch calls as Dask tasks.
//!
//! Invariants: no rule, no reading of input and no answer built here that the library does
//! not give (a new query needs no code beyond its name in the stubs); every entry point runs
//! inside `errors::guard` (`catch_unwind`: a panic is `xqspec.InternalError`, never a dead
//! interpreter); queries that take microseconds keep the GIL, the others release it.
//!
//! Tests: `python/tests/` (pytest; the fuzz test feeds random bytes, text and queries to
//! every entry point; the Dask test compares a two-worker local cluster with the command
//! line); `python/bench.py` times calls against the same calls in Rust (`_rust_time`).

mod batch;
mod convert;
mod errors;
mod suite;

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Map, Value};

use xqspec::protocol;
use xqspec::LineError;
use xqspec::Reference;
use xqspec::RuleSet;
use xqspec::{About, Implementation};
use xqspec::{Answer, Query};
use xqspec::{Overlay, Spec};

use convert::{from_py, map_to_py, to_py};
use errors::{class_of_kind, error, guard, number_after, Place};

/// The start position, as `startpos` is read by every query.
const STARTPOS: &str = "startpos";

/// The built-in spec and the reference over it: compiled once per process.
pub(crate) struct State {
    pub spec: Spec,
    pub reference: Reference,
    pub about: About,
}

static STATE: OnceLock<Result<State, String>> = OnceLock::new();

pub(crate) fn state() -> PyResult<&'static State> {
    STATE
        .get_or_init(|| {
            std::panic::catch_unwind(|| {
                let spec = Spec::builtin().map_err(|e| e.to_string())?;
                let reference = Reference::new(&spec);
                let about = Implementation::about(&reference);
                Ok(State {
                    spec,
                    reference,
                    about,
                })
            })
            .unwrap_or_else(|_| Err("internal error (panic) loading the spec".into()))
        })
        .as_ref()
        .map_err(|e| {
            error(
                "SpecError",
                format!("the built-in spec does not load: {e}"),
                Place::default(),
            )
        })
}

/// A rule set named by the caller: an edition id, or `edition+overlay` for a shipped
/// overlay, plus an overlay given apart (a shipped overlay's id, or the overlay as a dict).
pub(crate) struct Rules {
    pub edition: String,
    pub overlay: Option<Overlay>,
}

pub(crate) fn rules_named(
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<Rules> {
    let st = state()?;
    let id = edition.unwrap_or(xqspec::DEFAULT_EDITION);
    let mut rules = if st.about.editions.iter().any(|e| e == id) {
        Rules {
            edition: id.to_string(),
            overlay: None,
        }
    } else if let Some(o) = st.spec.overlays().iter().find(|o| o.ruleset_id() == id) {
        Rules {
            edition: o.edition.clone(),
            overlay: Some(o.clone()),
        }
    } else {
        // The library's own message, with every known id.
        let message = match st.spec.ruleset(id) {
            Err(e) => e.to_string(),
            Ok(_) => format!("unknown rule set `{id}`"),
        };
        return Err(error(
            "SpecError",
            message,
            Place::of_kind("unknown_ruleset"),
        ));
    };
    if let Some(o) = overlay.filter(|o| !o.is_none()) {
        if rules.overlay.is_some() {
            return Err(error(
                "SpecError",
                format!("rule set `{id}` has an overlay already"),
                Place::default(),
            ));
        }
        let o = match o.extract::<String>() {
            Ok(name) => st.spec.overlay(&name).cloned().ok_or_else(|| {
                let known: Vec<&str> = st
                    .spec
                    .overlays()
                    .iter()
                    .map(|o| o.overlay.as_str())
                    .collect();
                error(
                    "SpecError",
                    format!("unknown overlay `{name}` (shipped: {})", known.join(", ")),
                    Place::of_kind("unknown_overlay"),
                )
            })?,
            Err(_) => {
                let v = from_py(o)?;
                serde_json::from_value::<Overlay>(v).map_err(|e| {
                    error(
                        "SpecError",
                        format!("not an overlay: {e}"),
                        Place::of_kind("overlay"),
                    )
                })?
            }
        };
        if o.edition != rules.edition {
            return Err(error(
                "SpecError",
                format!(
                    "overlay {} applies to {}, not to {}",
                    o.overlay, o.edition, rules.edition
                ),
                Place::of_kind("overlay_edition"),
            ));
        }
        rules.overlay = Some(o);
    }
    Ok(rules)
}

impl Rules {
    fn ruleset(&self) -> PyResult<Arc<RuleSet>> {
        let st = state()?;
        guard("ruleset", || {
            st.reference
                .ruleset(&self.edition, self.overlay.as_ref())
                .map_err(|e| error("SpecError", e, Place::default()))
        })
    }
}

/// The answer of the reference to `query` under `rules`. Queries that take microseconds
/// (legal moves, status, a FEN, a move) keep the GIL, which costs less than releasing it;
/// the others (perft, rulings, games, batches) release it, so that Python threads run
/// meanwhile.
fn answer(py: Python<'_>, rules: &Rules, query: &Query) -> PyResult<Answer> {
    let st = state()?;
    let (edition, overlay) = (rules.edition.as_str(), rules.overlay.as_ref());
    let run = || {
        guard(query.name(), || {
            Ok(st.reference.answer_query(edition, overlay, query))
        })
    };
    match query {
        Query::Perft { .. } => py.allow_threads(run),
        _ => run(),
    }
}

/// The result object of an answer, or the exception for a rejection, an `unsupported` or
/// an `error`. `input` (the query's fen and moves) serves to find the place of a FEN or
/// move rejection through the one line reader.
fn result_of(
    rules: &Rules,
    answer: Answer,
    fen_moves: Option<(&str, &[String])>,
) -> PyResult<Map<String, Value>> {
    match answer {
        Answer::Value(m) => Ok(m),
        Answer::Reject { kind, message } => Err(rejection(rules, &kind, &message, fen_moves)),
        Answer::Unsupported { reason } => Err(error("UnsupportedError", reason, Place::default())),
        Answer::Error { message } if message.starts_with("bad input") => {
            Err(error("QueryError", message, Place::of_kind("bad_input")))
        }
        Answer::Error { message } if message.starts_with("internal error") => {
            Err(error("InternalError", message, Place::default()))
        }
        Answer::Error { message } => Err(error("QueryError", message, Place::default())),
    }
}

/// The exception of a rejection, with its place: a FEN's column and stage, a move's ply
/// (read again through `line::after`, which gave the rejection), an event's number.
fn rejection(
    rules: &Rules,
    kind: &str,
    message: &str,
    fen_moves: Option<(&str, &[String])>,
) -> PyErr {
    let mut place = Place {
        kind: Some(kind.to_string()),
        ..Place::default()
    };
    let line_error = match fen_moves {
        Some((fen, moves)) if kind.starts_with("fen") || kind.starts_with("move") => {
            rules.ruleset().ok().and_then(|rs| {
                guard("place", || Ok(xqspec::line_after(&rs.vm, fen, moves).err()))
                    .ok()
                    .flatten()
            })
        }
        _ => None,
    };
    match &line_error {
        Some(LineError::Fen(f)) => fen_place(f, &mut place),
        Some(LineError::MoveSyntax { index, .. }) | Some(LineError::Illegal { index, .. }) => {
            place.ply = Some(*index)
        }
        None => {
            place.ply = number_after(message, "move");
            place.event = errors::index_in(message, "events[");
            place.column = number_after(message, "column");
        }
    }
    error(class_of_kind(kind), message, place)
}

/// The column and stage (`syntax` or `position`) of a FEN's error, in `place`.
fn fen_place(f: &xqspec::FenError, place: &mut Place) {
    place.column = f.problems().first().and_then(|p| p.column());
    place.stage = Some(match f {
        xqspec::FenError::Syntax(_) => "syntax",
        xqspec::FenError::Position(_) => "position",
    });
}

/// `fen` and `moves` as a person gives them (the moves in any notation the command line
/// reads: Chinese, WXF, ICCS, move numbers allowed), read by the library's one reader
/// (`xqspec::line_given`) into the FEN and the ICCS moves the queries take. Moves all in
/// ICCS pass as they are: the query says which one is illegal, with its ply.
fn line_given(
    rules: &Rules,
    fen: &str,
    moves: Option<Vec<String>>,
) -> PyResult<(String, Vec<String>)> {
    let moves = moves.unwrap_or_default();
    if moves.iter().all(|m| xqspec::Move::is_iccs(m)) {
        return Ok((fen.to_string(), moves));
    }
    let rs = rules.ruleset()?;
    let given = guard("moves", || Ok(xqspec::line_given(&rs.vm, fen, &moves)))?;
    given.map(|g| (g.fen, g.moves)).map_err(|e| {
        let kind = e.reject_kind();
        let mut place = Place {
            kind: Some(kind.to_string()),
            ..Place::default()
        };
        match &e {
            xqspec::GivenError::Fen(f) => fen_place(f, &mut place),
            xqspec::GivenError::Move { ply, .. } => place.ply = Some(*ply),
            xqspec::GivenError::Text { .. } => {}
        }
        error(class_of_kind(kind), e.to_string(), place)
    })
}

fn field(py: Python<'_>, m: &Map<String, Value>, name: &str) -> PyResult<PyObject> {
    to_py(py, m.get(name).unwrap_or(&Value::Null))
}

/// A query on the position after `moves` from `fen` (already read by `line_given`), made
/// by `query`: answered under `rules`, its field `name` returned; a rejection raised with
/// the place.
fn on_position(
    py: Python<'_>,
    rules: &Rules,
    (fen, moves): (String, Vec<String>),
    query: impl FnOnce(String, Vec<String>) -> Query,
    name: &str,
) -> PyResult<PyObject> {
    let q = query(fen.clone(), moves.clone());
    let a = answer(py, rules, &q)?;
    let m = result_of(rules, a, Some((&fen, &moves)))?;
    field(py, &m, name)
}

/// A function of the module on the position after `moves` (in any notation: Chinese, WXF,
/// ICCS) from `fen`, under the rule set named by `edition` and `overlay`: its own
/// arguments first, then `fen="startpos", moves=None, *, edition=None, overlay=None`. The
/// statements in brackets run first (reading its own arguments); the body has the rule set
/// as `rules` and the line read into ICCS as `line` (`(fen, moves)`).
macro_rules! on_line {
    (
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $t:ty),*) $([$($first:stmt;)*])?
        |$py:ident, $rules:ident, $line:ident| $body:block
    ) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = ($($arg,)* fen="startpos", moves=None, *, edition=None, overlay=None))]
        #[allow(clippy::too_many_arguments)]
        fn $name(
            $py: Python<'_>,
            $($arg: $t,)*
            fen: &str,
            moves: Option<Vec<String>>,
            edition: Option<&str>,
            overlay: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyObject> {
            $($($first;)*)?
            let $rules = rules_named(edition, overlay)?;
            let $line = line_given(&$rules, fen, moves)?;
            $body
        }
    };
}

on_line! {
    /// The legal moves of the side to move after `moves` (in any notation: Chinese, WXF, ICCS)
    /// from `fen`, in ICCS, sorted.
    fn legal_moves() |py, rules, line| {
        on_position(py, &rules, line, |fen, moves| Query::LegalMoves { fen, moves }, "moves")
    }
}

on_line! {
    /// The number of legal move sequences of `depth` plies (perft).
    fn perft(depth: &Bound<'_, PyAny>) [
        let depth = convert::int_in(depth, "depth", 0, u32::MAX.into())? as u32;
    ] |py, rules, line| {
        on_position(py, &rules, line, |fen, moves| Query::Perft { fen, moves, depth }, "nodes")
    }
}

on_line! {
    /// `ongoing`, `check`, `checkmate` or `stalemate` for the side to move.
    fn status() |py, rules, line| {
        on_position(py, &rules, line, |fen, moves| Query::Status { fen, moves }, "status")
    }
}

/// `True` when the FEN gives a position the rules allow; a `FenError` (with `kind`,
/// `column` and `stage`) otherwise.
#[pyfunction]
#[pyo3(signature = (fen, *, edition=None, overlay=None))]
fn validate_fen(
    py: Python<'_>,
    fen: String,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let rules = rules_named(edition, overlay)?;
    let q = Query::ValidateFen { fen };
    let a = answer(py, &rules, &q)?;
    let Query::ValidateFen { fen } = &q else {
        unreachable!()
    };
    result_of(&rules, a, Some((fen, &[])))?;
    Ok(true)
}

on_line! {
    /// A move written in a notation (`chinese`, `wxf`, `iccs` … the protocol's ids) read into ICCS.
    fn parse_move(text: String, notation: String) |py, rules, line| {
        let query = |fen, moves| Query::ParseMove {
            fen,
            moves,
            notation,
            text,
        };
        on_position(py, &rules, line, query, "move")
    }
}

on_line! {
    /// A move given in ICCS written in a notation.
    fn format_move(r#move: String, notation: String) |py, rules, line| {
        let query = |fen, moves| Query::FormatMove {
            fen,
            moves,
            notation,
            mv: r#move,
        };
        on_position(py, &rules, line, query, "text")
    }
}

/// The fen and moves of an input object, for the place of a rejection.
fn fen_moves_of(input: &Map<String, Value>) -> (String, Vec<String>) {
    let fen = input
        .get("fen")
        .and_then(Value::as_str)
        .unwrap_or(STARTPOS)
        .to_string();
    let moves = input
        .get("moves")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (fen, moves)
}

fn input_map(input: &Bound<'_, PyAny>) -> PyResult<Map<String, Value>> {
    match from_py(input)? {
        Value::Object(m) => Ok(m),
        _ => Err(pyo3::exceptions::PyTypeError::new_err(
            "a query's input is a dict",
        )),
    }
}

/// Any query of the protocol by name with its input object: the result object (a dict)
/// exactly as the protocol's answer carries it, or the exception of a rejection.
#[pyfunction]
#[pyo3(signature = (query, input, *, edition=None, overlay=None))]
fn ask(
    py: Python<'_>,
    query: &str,
    input: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let input = input_map(input)?;
    let a = protocol_answer(py, &rules, query, &input)?;
    let (fen, moves) = fen_moves_of(&input);
    let m = result_of(&rules, a, Some((&fen, &moves)))?;
    Ok(map_to_py(py, &m)?.into_any().unbind())
}

/// The answer `xqspec serve` gives to an ask (`conform::protocol::answer_ask`: edition and
/// query checked, input read into the typed query, a panic an `error`).
fn protocol_answer(
    py: Python<'_>,
    rules: &Rules,
    query: &str,
    input: &Map<String, Value>,
) -> PyResult<Answer> {
    let st = state()?;
    py.allow_threads(|| {
        guard(query, || {
            let mut r = &st.reference;
            Ok(protocol::answer_ask(
                &mut r,
                &st.about,
                &rules.edition,
                rules.overlay.as_ref(),
                query,
                input,
                "python",
            ))
        })
    })
}

/// The protocol's whole answer object to an ask, never an exception for what the protocol
/// answers: `{"result": …}`, `{"reject": {kind, message}}`, `{"unsupported": {reason}}` or
/// `{"error": {message}}`.
#[pyfunction]
#[pyo3(signature = (query, input, *, edition=None, overlay=None))]
fn answer_json(
    py: Python<'_>,
    query: &str,
    input: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let input = input_map(input)?;
    let a = protocol_answer(py, &rules, query, &input)?;
    to_py(py, &protocol::answer_json(&a))
}

/// The protocol's answer to `query` with an input object made of a function's keywords:
/// its result's field `name`, or the exception of a rejection (with its place).
fn asked(
    py: Python<'_>,
    rules: &Rules,
    query: &str,
    input: Map<String, Value>,
    name: &str,
) -> PyResult<PyObject> {
    let a = protocol_answer(py, rules, query, &input)?;
    let (fen, moves) = fen_moves_of(&input);
    let m = result_of(rules, a, Some((&fen, &moves)))?;
    field(py, &m, name)
}

/// A keyword argument as the JSON value the protocol's input carries (`TypeError` or
/// `ValueError` naming it when it is none).
fn json_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    from_py(obj).map_err(|e| {
        let py = obj.py();
        let message = format!("{name}: {}", e.value(py));
        if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
            pyo3::exceptions::PyTypeError::new_err(message)
        } else {
            PyValueError::new_err(message)
        }
    })
}

/// A keyword argument that is a list (`events=`, `games=`), as JSON.
fn list_arg(obj: Option<&Bound<'_, PyAny>>, name: &str) -> PyResult<Vec<Value>> {
    match obj.filter(|o| !o.is_none()).map(|o| json_arg(o, name)) {
        None => Ok(Vec::new()),
        Some(Ok(Value::Array(a))) => Ok(a),
        Some(Ok(_)) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name}: a list is wanted"
        ))),
        Some(Err(e)) => Err(e),
    }
}

on_line! {
    /// The 棋例 ruling on the cycle at the end of `moves` (in any notation: Chinese, WXF, ICCS)
    /// from `fen`: verdict, classes of the plies with their reasons, patterns, clauses and
    /// articles, basis.
    fn ruling() |py, rules, line| {
        let (fen, moves) = line;
        let input = serde_json::json!({ "fen": fen, "moves": moves });
        asked(py, &rules, "ruling", into_map(input), "ruling")
    }
}

fn into_map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

on_line! {
    /// How a game stands after `moves` (in any notation) from `fen`: ended or not, repetitions,
    /// orders, the natural limit. A record that goes on after the game ended by the rules is
    /// judged up to that end, as `xqspec status` judges it, and the answer says how far it goes
    /// on (`continues`); `ask("game_status", …)` refuses it as the protocol does.
    fn game_status() |py, rules, line| {
        let (fen, moves) = line;
        let rs = rules.ruleset()?;
        let q = xqspec::StatusQuery {
            fen: fen.clone(),
            moves: moves.clone(),
        };
        let a = py.allow_threads(|| guard("game_status", || Ok(xqspec::record_status(&rs, &q))))?;
        let m = result_of(&rules, a, Some((&fen, &moves)))?;
        field(py, &m, "game_status")
    }
}

/// The result of a game: `moves` (in any notation) from `fen` and the arbiter's `events`
/// (claims, offers, clock, fouls … as PROTOCOL.md's `outcome` writes them), the moves
/// placed among the events where an event `{"pgn": N}` or `{"pgn": "rest"}` says, else
/// before them all, as `xqspec outcome --pgn` places a record's moves. Judged up to the end
/// of the game, the answer saying how far the record goes on after it (`continues`);
/// events are numbered with the moves placed among them.
#[pyfunction]
#[pyo3(signature = (fen="startpos", moves=None, events=None, *, edition=None, overlay=None))]
fn outcome(
    py: Python<'_>,
    fen: &str,
    moves: Option<Vec<String>>,
    events: Option<&Bound<'_, PyAny>>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    use xqspec::{ArbiterError, OutcomeQuery};
    let rules = rules_named(edition, overlay)?;
    let (fen, moves) = line_given(&rules, fen, moves)?;
    let events = list_arg(events, "events")?;
    let events = OutcomeQuery::events_with_moves(events, &moves).map_err(|e| match e {
        ArbiterError::Fen(f) => rejection(&rules, f.reject_kind(), &f.to_string(), None),
        ArbiterError::Reject { kind, message } => rejection(&rules, kind.code(), &message, None),
    })?;
    let rs = rules.ruleset()?;
    let q = OutcomeQuery {
        fen: Some(fen.clone()),
        events,
    };
    let a = py.allow_threads(|| guard("outcome", || Ok(xqspec::record_outcome(&rs, &q))))?;
    let m = result_of(&rules, a, Some((&fen, &[])))?;
    field(py, &m, "outcome")
}

/// The moves allowed after touching the pieces on `touches` (points, in the order touched;
/// `simultaneous`: at the same time), after `moves` (in any notation) from `fen`.
#[pyfunction]
#[pyo3(signature = (fen="startpos", moves=None, *, touches, simultaneous=false, edition=None, overlay=None))]
#[allow(clippy::too_many_arguments)]
fn touch_move(
    py: Python<'_>,
    fen: &str,
    moves: Option<Vec<String>>,
    touches: Vec<String>,
    simultaneous: bool,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let (fen, moves) = line_given(&rules, fen, moves)?;
    let input = serde_json::json!({
        "fen": fen, "moves": moves, "touches": touches, "simultaneous": simultaneous,
    });
    asked(py, &rules, "touch_move", into_map(input), "touch")
}

/// The clock `events` (in order) under the clock scheme `scheme` of the rule set, with
/// `settings` for the numbers the scheme leaves open.
#[pyfunction]
#[pyo3(signature = (scheme, events, *, settings=None, edition=None, overlay=None))]
fn clock(
    py: Python<'_>,
    scheme: &str,
    events: &Bound<'_, PyAny>,
    settings: Option<&Bound<'_, PyAny>>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let mut input = Map::new();
    input.insert("scheme".into(), Value::from(scheme));
    input.insert(
        "events".into(),
        Value::Array(list_arg(Some(events), "events")?),
    );
    if let Some(s) = settings.filter(|s| !s.is_none()) {
        input.insert("settings".into(), json_arg(s, "settings")?);
    }
    asked(py, &rules, "clock", input, "clock")
}

/// The knockout play-off chain `chain` and the `games` played so far (each `{red, result,
/// chose?}`), `better_ranked` the player placed better before, when known.
#[pyfunction]
#[pyo3(signature = (chain, games=None, *, better_ranked=None, edition=None, overlay=None))]
fn playoff(
    py: Python<'_>,
    chain: &str,
    games: Option<&Bound<'_, PyAny>>,
    better_ranked: Option<&Bound<'_, PyAny>>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let mut input = Map::new();
    input.insert("chain".into(), Value::from(chain));
    input.insert("games".into(), Value::Array(list_arg(games, "games")?));
    if let Some(b) = better_ranked.filter(|b| !b.is_none()) {
        input.insert("better_ranked".into(), json_arg(b, "better_ranked")?);
    }
    asked(py, &rules, "playoff", input, "playoff")
}

/// Standings of a tournament, given as a dict in the shape of a tournament file
/// (`conformance/tournament-example.yaml`).
#[pyfunction]
#[pyo3(signature = (tournament, *, edition=None, overlay=None))]
fn standings(
    py: Python<'_>,
    tournament: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let mut input = Map::new();
    input.insert("tournament".into(), json_arg(tournament, "tournament")?);
    asked(py, &rules, "standings", input, "standings")
}

/// Moves written in one notation rewritten in another (`to`: a protocol notation id),
/// played one after another from `fen`. `from_` names the notation of the texts (detected
/// per move when `None`). A move that does not read is a `NotationError`, one that reads but
/// is not legal an `IllegalMoveError`, each with its `ply`.
#[pyfunction]
#[pyo3(signature = (moves, to, fen="startpos", from_=None, *, edition=None, overlay=None))]
fn convert_moves(
    py: Python<'_>,
    moves: Vec<String>,
    to: &str,
    fen: &str,
    from_: Option<&str>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    use xqspec::ErrorKind;
    let rules = rules_named(edition, overlay)?;
    let rs = rules.ruleset()?;
    let (to_n, to_style) = xqspec::notation_by_id(to).ok_or_else(|| unknown_notation(to))?;
    let from_n = match from_ {
        None => None,
        Some(f) => Some(
            xqspec::notation_by_id(f)
                .ok_or_else(|| unknown_notation(f))?
                .0,
        ),
    };
    enum Fail {
        Fen(xqspec::FenError),
        Other(String),
        Move(usize, &'static str, String),
    }
    let out = py.allow_threads(|| {
        guard("convert_moves", || {
            let mut pos = match xqspec::line_after(&rs.vm, fen, &[]) {
                Ok((p, _)) => p,
                Err(LineError::Fen(f)) => return Ok(Err(Fail::Fen(f))),
                Err(e) => return Ok(Err(Fail::Other(e.to_string()))),
            };
            let mut out = Vec::with_capacity(moves.len());
            for (i, text) in moves.iter().enumerate() {
                let read = match from_n {
                    Some(n) => xqspec::parse_move(&rs.vm, &pos, n, text),
                    None => xqspec::parse_move_any(&rs.vm, &pos, text),
                };
                let mv = match read {
                    Ok(m) => m,
                    Err(e) => {
                        let kind = match e.kind() {
                            ErrorKind::Syntax => "notation.syntax",
                            ErrorKind::Ambiguous => "notation.ambiguous",
                            _ => "notation.no_match",
                        };
                        return Ok(Err(Fail::Move(
                            i + 1,
                            kind,
                            format!("move {} `{text}`: {e}", i + 1),
                        )));
                    }
                };
                match xqspec::format_move(&rs.vm, &pos, mv, to_n, to_style) {
                    Ok(t) => out.push(t),
                    Err(e) => {
                        return Ok(Err(Fail::Move(
                            i + 1,
                            "notation.unsupported",
                            format!("move {} `{text}`: {e}", i + 1),
                        )))
                    }
                }
                if let Err(e) = pos.play(&rs.vm, mv) {
                    return Ok(Err(Fail::Move(
                        i + 1,
                        "move.illegal",
                        format!("move {} `{text}`: {e}", i + 1),
                    )));
                }
            }
            Ok(Ok(out))
        })
    })?;
    out.map_err(|f| match f {
        Fail::Fen(f) => {
            let mut place = Place {
                kind: Some(f.reject_kind().into()),
                ..Place::default()
            };
            fen_place(&f, &mut place);
            error("FenError", f.to_string(), place)
        }
        Fail::Other(m) => error(
            "FenError",
            m,
            Place {
                kind: Some("fen".into()),
                stage: Some("syntax"),
                ..Place::default()
            },
        ),
        Fail::Move(ply, kind, m) => {
            let class = if kind == "notation.unsupported" {
                "UnsupportedError"
            } else {
                class_of_kind(kind)
            };
            error(
                class,
                m,
                Place {
                    kind: Some(kind.into()),
                    ply: Some(ply),
                    ..Place::default()
                },
            )
        }
    })
}

fn unknown_notation(id: &str) -> PyErr {
    error(
        "QueryError",
        format!("unknown notation `{id}` (iccs, iccs-upper, wxf, wxf-fullwidth, chinese, chinese-fullwidth, chinese-traditional, chinese-traditional-fullwidth, chinese-abbreviated, chinese-abbreviated-fullwidth)"),
        Place::of_kind("notation"),
    )
}

/// The rule-set ids: the editions, then each edition with a shipped overlay (`edition+overlay`).
#[pyfunction]
fn rulesets() -> PyResult<Vec<String>> {
    guard("rulesets", || {
        let st = state()?;
        Ok(st
            .about
            .editions
            .iter()
            .cloned()
            .chain(st.spec.overlays().iter().map(|o| o.ruleset_id()))
            .collect())
    })
}

/// The editions (rule sets without an overlay).
#[pyfunction]
fn editions() -> PyResult<Vec<String>> {
    Ok(state()?.about.editions.clone())
}

/// The shipped event overlays, each as the dict an ask carries (`overlay`, `name`,
/// `edition`, `provenance`, `changes`).
#[pyfunction]
fn overlays(py: Python<'_>) -> PyResult<PyObject> {
    let st = state()?;
    let v: Vec<Value> = st
        .spec
        .overlays()
        .iter()
        .map(|o| serde_json::to_value(o).unwrap_or(Value::Null))
        .collect();
    to_py(py, &Value::Array(v))
}

/// An overlay read from a YAML file, as a dict to pass as `overlay=`; a `SpecError` with
/// `file`, `line` and `column` when it does not read.
#[pyfunction]
fn load_overlay(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let path = convert::path_arg(path, "path")?;
    let o = guard("load_overlay", || {
        Ok(Overlay::load(&path).map_err(|e| {
            let first = e.0.first();
            error(
                "SpecError",
                e.to_string(),
                Place {
                    kind: Some("spec".into()),
                    file: first
                        .map(|f| f.location.file.clone())
                        .or_else(|| Some(path.display().to_string())),
                    line: first.map(|f| f.location.line),
                    column: first.map(|f| f.location.column),
                    clause: first.and_then(|f| f.clause.clone()),
                    ..Place::default()
                },
            )
        }))
    })??;
    to_py(
        py,
        &serde_json::to_value(&o).map_err(|e| PyValueError::new_err(e.to_string()))?,
    )
}

/// A rule set: `{"edition": {id, name …}, "clauses": [{id, article, summary, data …}]}`.
#[pyfunction]
#[pyo3(signature = (edition=None, *, overlay=None))]
fn clauses(
    py: Python<'_>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let st = state()?;
    let ed = match &rules.overlay {
        None => st.spec.edition(&rules.edition).cloned().ok_or_else(|| {
            error(
                "SpecError",
                format!("unknown edition {}", rules.edition),
                Place::default(),
            )
        })?,
        Some(o) => guard("clauses", || {
            st.spec
                .with_overlay(o)
                .map_err(|e| error("SpecError", e.to_string(), Place::default()))
        })?,
    };
    let clauses: Vec<Value> = ed
        .clauses_with_prefix("")
        .map(|c| st.spec.clause_json(c))
        .collect();
    to_py(
        py,
        &serde_json::json!({ "edition": ed.to_json(), "clauses": clauses }),
    )
}

/// The hello the reference answers with (name, version, editions, queries, limits).
#[pyfunction]
fn hello(py: Python<'_>) -> PyResult<PyObject> {
    to_py(py, &protocol::hello_json(&state()?.about))
}

/// Times `n` answers of the reference to `query` in Rust alone (no Python in the loop),
/// for `bench.py`: microseconds per call.
#[pyfunction]
#[pyo3(signature = (query, input, n, *, edition=None))]
fn _rust_time(
    py: Python<'_>,
    query: &str,
    input: &Bound<'_, PyAny>,
    n: &Bound<'_, PyAny>,
    edition: Option<&str>,
) -> PyResult<f64> {
    let n = convert::int_in(n, "n", 0, u32::MAX.into())? as u32;
    let rules = rules_named(edition, None)?;
    let input = input_map(input)?;
    let q = guard("_rust_time", || {
        Query::from_parts(query, &input).map_err(|e| error("QueryError", e, Place::default()))
    })?;
    let st = state()?;
    let n = n.max(1);
    py.allow_threads(|| {
        guard("_rust_time", || {
            let t = Instant::now();
            for _ in 0..n {
                std::hint::black_box(st.reference.answer_query(
                    &rules.edition,
                    None,
                    std::hint::black_box(&q),
                ));
            }
            Ok(t.elapsed().as_secs_f64() * 1e6 / f64::from(n))
        })
    })
}

/// Panics inside the library on purpose: the test that a panic is an `InternalError`.
#[pyfunction]
fn _panic_for_test() -> PyResult<()> {
    guard("_panic_for_test", || panic!("a panic on purpose"))
}

#[pymodule]
fn _xqspec(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("PROTOCOL_VERSION", protocol::PROTOCOL_VERSION)?;
    m.add("DEFAULT_EDITION", xqspec::DEFAULT_EDITION)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(status, m)?)?;
    m.add_function(wrap_pyfunction!(validate_fen, m)?)?;
    m.add_function(wrap_pyfunction!(parse_move, m)?)?;
    m.add_function(wrap_pyfunction!(format_move, m)?)?;
    m.add_function(wrap_pyfunction!(convert_moves, m)?)?;
    m.add_function(wrap_pyfunction!(ruling, m)?)?;
    m.add_function(wrap_pyfunction!(outcome, m)?)?;
    m.add_function(wrap_pyfunction!(game_status, m)?)?;
    m.add_function(wrap_pyfunction!(touch_move, m)?)?;
    m.add_function(wrap_pyfunction!(clock, m)?)?;
    m.add_function(wrap_pyfunction!(playoff, m)?)?;
    m.add_function(wrap_pyfunction!(standings, m)?)?;
    m.add_function(wrap_pyfunction!(ask, m)?)?;
    m.add_function(wrap_pyfunction!(answer_json, m)?)?;
    m.add_function(wrap_pyfunction!(rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(editions, m)?)?;
    m.add_function(wrap_pyfunction!(overlays, m)?)?;
    m.add_function(wrap_pyfunction!(load_overlay, m)?)?;
    m.add_function(wrap_pyfunction!(clauses, m)?)?;
    m.add_function(wrap_pyfunction!(hello, m)?)?;
    m.add_function(wrap_pyfunction!(batch::adjudicate_files, m)?)?;
    m.add_function(wrap_pyfunction!(batch::replay_files, m)?)?;
    m.add_function(wrap_pyfunction!(batch::iter_adjudicate_files, m)?)?;
    m.add_function(wrap_pyfunction!(batch::iter_replay_files, m)?)?;
    m.add_class::<batch::Items>()?;
    m.add_function(wrap_pyfunction!(batch::adjudicate_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(batch::replay_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(batch::record_moves, m)?)?;
    m.add_function(wrap_pyfunction!(batch::games, m)?)?;
    m.add_function(wrap_pyfunction!(suite::run_suite, m)?)?;
    m.add_function(wrap_pyfunction!(suite::cases, m)?)?;
    m.add_function(wrap_pyfunction!(_rust_time, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    Ok(())
}
