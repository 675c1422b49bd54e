//! The batch calls over record files, in ONE place: every file read by
//! `xqspec::records` (the path `xqspec replay` and `xqspec adjudicate` read by),
//! every game replayed by one `Replayer`; a file that cannot be read, a folder, text that is
//! no game are items of the answer with their place, and the rest is processed.
//!
//! `adjudicate` items are the objects `xqspec adjudicate --json` prints, key for key (the
//! Dask test compares them). Files are streamed by `xqspec::stream_records` as the
//! commands stream them (texts given as bytes go through `notation::records::games`);
//! nothing else here reads records.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use serde_json::{json, Value};

use xqspec::records;
use xqspec::Item;
use xqspec::RuleSet;
use xqspec::{Entry, GameEntry, RecordFile};
use xqspec::{Notation, Style};
use xqspec::{ReplayError, Replayer};

use crate::convert::to_py;
use crate::errors::{error, guard, Place};
use crate::rules_named;

/// What a batch does with each game.
#[derive(Clone, Copy)]
enum Mode {
    /// Replay, and (with a notation) write the game in it.
    Replay(Option<(Notation, Style)>),
    /// Replay and adjudicate from the moves alone.
    Adjudicate,
}

/// A replayed game as a `replay_files` item, without its place (`place`, `file`, `game`:
/// the caller knows them). The game is judged as `xqspec replay` judges it (a final mate or
/// stalemate only) and, with `to`, written in that notation.
fn replay_item(
    rs: &RuleSet,
    kinds: &Replayer<'_>,
    g: &GameEntry<'_, ()>,
    to: Option<(Notation, Style)>,
) -> Value {
    let remarks: Vec<Value> = g.remarks.iter().map(|r| r.to_json()).collect();
    let recorded = g.recorded().map_or(Value::Null, |r| json!(r));
    let mut headers = serde_json::Map::new();
    for (name, value) in g.game.tag_pairs() {
        headers.entry(name).or_insert_with(|| json!(value));
    }
    let r = &g.replay;
    // The position the moves start from: the record's, else the rules' start.
    let fen = match &r.start {
        Some(p) => p.to_fen(&rs.vm),
        None => rs.vm.start_position().to_fen(&rs.vm),
    };
    let converted =
        to.map(|(n, style)| xqspec::write_game(&rs.vm, kinds.kinds(), &g.game, r, n, style));
    json!({
        "title": r.title,
        "headers": headers,
        "ok": r.is_ok(),
        "fen": fen,
        "moves": r.moves.iter().map(|m| m.iccs()).collect::<Vec<_>>(),
        "variations": r.variations,
        "error": r.error.as_ref().map_or(Value::Null, ReplayError::to_json),
        "variation_errors": r.variation_errors.iter().map(ReplayError::to_json).collect::<Vec<_>>(),
        "recorded": recorded,
        "disagrees": g.disagrees,
        "remarks": remarks,
        "converted": converted,
    })
}

/// `item` with the place of game `number` of `path` put first.
fn placed(path: &Path, number: usize, item: Value) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("place".into(), json!(records::place(path, number)));
    m.insert("file".into(), json!(path.display().to_string()));
    m.insert("game".into(), json!(number));
    if let Value::Object(rest) = item {
        m.extend(rest);
    }
    Value::Object(m)
}

/// Every game of a record given as text, in order, as JSON items: adjudicated as
/// `xqspec adjudicate --json`, or replayed ([`replay_item`]).
fn run_text(
    rs: &RuleSet,
    path: &Path,
    file: &RecordFile,
    mode: Mode,
) -> Result<Vec<Value>, String> {
    let mut items = Vec::new();
    let mut replayer = Replayer::new(&rs.vm);
    let not_a_game = |problem| {
        Item::NotAGame {
            file: path.display().to_string(),
            problem,
        }
        .to_json()
    };
    match mode {
        Mode::Adjudicate => {
            let judge = records::judge(rs, true)?;
            for entry in records::games(file, &mut replayer, judge) {
                items.push(match entry {
                    Entry::Game(g) => {
                        let place = records::place(path, g.number);
                        Item::Game(records::row(*g, place)).to_json()
                    }
                    Entry::NotAGame(problem) => not_a_game(problem),
                });
            }
        }
        Mode::Replay(to) => {
            let final_position = records::final_position(rs);
            let kinds = Replayer::new(&rs.vm);
            for entry in records::games(file, &mut replayer, |r| ((), final_position(r))) {
                items.push(match entry {
                    Entry::Game(g) => placed(path, g.number, replay_item(rs, &kinds, &g, to)),
                    Entry::NotAGame(problem) => not_a_game(problem),
                });
            }
        }
    }
    Ok(items)
}

/// Every game of every file, streamed as `xqspec replay` and `xqspec adjudicate` stream
/// them (over every core, memory bounded by the window, not by the files), as JSON items
/// to `sink` in file order: adjudicated as `xqspec adjudicate --json`, or replayed
/// ([`replay_item`]).
fn run_files(
    rs: &RuleSet,
    paths: &[PathBuf],
    opts: &xqspec::StreamOptions,
    mode: Mode,
    sink: &mut dyn FnMut(Value),
) -> Result<(), String> {
    let Mode::Replay(to) = mode else {
        return xqspec::adjudicate_files(rs, paths, opts, true, &mut |item| {
            if !matches!(item, Item::FileDone) {
                sink(item.to_json());
            }
        });
    };
    let final_position = records::final_position(rs);
    let kinds = Replayer::new(&rs.vm);
    let work = |g: GameEntry<'_, ()>| replay_item(rs, &kinds, &g, to);
    let judge = &|r: &_| ((), final_position(r));
    xqspec::stream_items(rs, paths, opts, judge, &work, &mut |item| match item {
        Item::Game(g) => sink(placed(g.file, g.number, g.work)),
        problem => {
            // A file done says nothing here.
            if let Some(v) = problem.problem_json() {
                sink(v);
            }
        }
    });
    Ok(())
}

/// Items of a batch over files handed over one by one as they are found
/// (`iter_adjudicate_files`, `iter_replay_files`): the files are streamed on a thread of
/// their own, a few windows ahead of the caller, so that memory stays bounded by the
/// window whatever the number of files. Dropped unfinished, it stops the stream.
#[pyclass(module = "xqspec._xqspec")]
pub struct Items {
    rx: std::sync::Mutex<std::sync::mpsc::Receiver<Result<Value, String>>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    what: &'static str,
    /// The games of this one file only (`games`): text that is no game left out, a file
    /// that cannot be read a `RecordError`.
    games_of: Option<PathBuf>,
}

/// Items handed over ahead of the caller, at most (besides the windows in flight).
const ITEMS_AHEAD: usize = 1024;

impl Items {
    fn start(
        what: &'static str,
        rs: std::sync::Arc<RuleSet>,
        paths: Vec<PathBuf>,
        encoding: Option<&'static encoding_rs::Encoding>,
        mode: Mode,
    ) -> Items {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::sync_channel(ITEMS_AHEAD);
        let opts = xqspec::StreamOptions {
            encoding,
            stop: Some(stop.clone()),
            ..Default::default()
        };
        let halt = stop.clone();
        std::thread::spawn(move || {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_files(&rs, &paths, &opts, mode, &mut |v| {
                    // The caller is gone: stop reading.
                    if tx.send(Ok(v)).is_err() {
                        halt.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                })
            }));
            let end = match run {
                Ok(Ok(())) => return,
                Ok(Err(e)) => e,
                Err(p) => format!(
                    "internal error (panic) in {what}: {}",
                    xqspec::panic_message(p.as_ref())
                ),
            };
            let _ = tx.send(Err(end));
        });
        Items {
            rx: std::sync::Mutex::new(rx),
            stop,
            what,
            games_of: None,
        }
    }

    /// The next item as JSON, `None` at the end; waiting without the GIL, a tenth of a
    /// second at a time, so that Ctrl-C is seen (and stops the stream).
    fn recv(&self, py: Python<'_>) -> PyResult<Option<Value>> {
        use std::sync::mpsc::RecvTimeoutError;
        let rx = &self.rx;
        loop {
            let got = py.allow_threads(|| {
                rx.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .recv_timeout(std::time::Duration::from_millis(100))
            });
            match got {
                Ok(Ok(v)) => return Ok(Some(v)),
                Ok(Err(e)) if e.starts_with("internal error") => {
                    return Err(error("InternalError", e, Place::default()))
                }
                Ok(Err(e)) => return Err(error("SpecError", e, Place::default())),
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
                        return Err(e);
                    }
                }
            }
        }
    }

    /// The next item handed over: with `games_of`, the next game (text that is no game
    /// skipped, a file not read a `RecordError`).
    fn next_item(&self, py: Python<'_>) -> PyResult<Option<Value>> {
        let Some(path) = &self.games_of else {
            return self.recv(py);
        };
        while let Some(v) = self.recv(py)? {
            if v.get("game").is_some() {
                return Ok(Some(v));
            }
            if let Some(e) = v.get("file_error") {
                self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
                return Err(error(
                    "RecordError",
                    format!("{}: {}", path.display(), e.as_str().unwrap_or("")),
                    Place {
                        kind: Some("file".into()),
                        file: Some(path.display().to_string()),
                        ..Place::default()
                    },
                ));
            }
        }
        Ok(None)
    }
}

#[pymethods]
impl Items {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        match self.next_item(py)? {
            Some(v) => to_py(py, &v).map(Some),
            None => Ok(None),
        }
    }

    fn __repr__(&self) -> String {
        format!("<xqspec items of {}>", self.what)
    }
}

impl Drop for Items {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The encoding named, or detection.
fn encoding_named(name: Option<&str>) -> PyResult<Option<&'static encoding_rs::Encoding>> {
    match name {
        None => Ok(None),
        Some(n) => records::encoding_by_name(n)
            .map(Some)
            .map_err(|e| error("QueryError", e.to_string(), Place::of_kind("encoding"))),
    }
}

/// `to=` and `style=` as `xqspec replay --to --style` takes them: `style=` only with `to=`.
fn mode_of(to: Option<&str>, style: Option<&str>) -> PyResult<Option<(Notation, Style)>> {
    let Some(to) = to else {
        return match style {
            None => Ok(None),
            Some(_) => Err(error(
                "QueryError",
                "style= is the style of converted records: give to= too",
                Place::of_kind("style"),
            )),
        };
    };
    let style = style.unwrap_or("simplified");
    let n = Notation::from_name(to).ok_or_else(|| {
        error(
            "QueryError",
            format!("unknown notation `{to}` (use iccs, wxf, chinese or chinese-abbreviated)"),
            Place::of_kind("notation"),
        )
    })?;
    let s = Style::from_name(style).ok_or_else(|| {
        error("QueryError", format!("unknown style `{style}` (words: simplified, traditional, halfwidth, fullwidth, lower, upper, joined by +)"), Place::of_kind("style"))
    })?;
    Ok(Some((n, s)))
}

/// The one entry of every batch call: files (or texts) read, run, turned into Python.
fn batch(
    py: Python<'_>,
    what: &str,
    rules: crate::Rules,
    inputs: Inputs,
    encoding: Option<&str>,
    mode: Mode,
) -> PyResult<PyObject> {
    let rs = rules.ruleset()?;
    let enc = encoding_named(encoding)?;
    let items = py
        .allow_threads(|| {
            guard(what, || {
                Ok(match inputs {
                    // Files take the command line's path: streamed over every core, items in
                    // file order (`xqspec adjudicate --json`'s objects for adjudication).
                    Inputs::Paths(paths) => {
                        let opts = xqspec::StreamOptions {
                            encoding: enc,
                            ..Default::default()
                        };
                        let mut items = Vec::new();
                        run_files(&rs, &paths, &opts, mode, &mut |v| items.push(v)).map(|()| items)
                    }
                    Inputs::Text(name, bytes) => {
                        let p = PathBuf::from(name);
                        let f = records::from_bytes(&p, bytes, enc);
                        run_text(&rs, &p, &f, mode)
                    }
                })
            })
        })?
        .map_err(|e| error("SpecError", e, Place::default()))?;
    // Each item is dropped once it is a Python object: the answer is not held twice.
    let list = pyo3::types::PyList::empty(py);
    for item in items {
        list.append(to_py(py, &item)?)?;
    }
    Ok(list.into_any().unbind())
}

enum Inputs {
    Paths(Vec<PathBuf>),
    Text(String, Vec<u8>),
}

/// A record given as `str` (UTF-8) or `bytes`/`bytearray` (any encoding, detected); a
/// list of numbers is no record.
fn text_bytes(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    use pyo3::types::{PyByteArray, PyBytes, PyString};
    if let Ok(s) = text.downcast::<PyString>() {
        return Ok(s.to_cow()?.into_owned().into_bytes());
    }
    if let Ok(b) = text.downcast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(b) = text.downcast::<PyByteArray>() {
        return Ok(b.to_vec());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "text: a record is a str, bytes or bytearray",
    ))
}

/// Adjudicates every game of every file from its moves alone, as `xqspec adjudicate --json`:
/// one dict per game (`result`, `ply`, `clause`, `article`, `how`, `recorded`,
/// `disagrees`, `remarks`, `place` …), per run of text that is no game (`not_a_game`,
/// `line`, `column`, `byte`) and per file that cannot be read (`file_error`), in order.
#[pyfunction]
#[pyo3(signature = (paths, *, edition=None, overlay=None, encoding=None))]
pub fn adjudicate_files(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
) -> PyResult<PyObject> {
    let paths = crate::convert::paths_arg(paths, "paths")?;
    let rules = rules_named(edition, overlay)?;
    batch(
        py,
        "adjudicate_files",
        rules,
        Inputs::Paths(paths),
        encoding,
        Mode::Adjudicate,
    )
}

/// Replays every game of every file: one dict per game (`moves` in ICCS, `ok`, `error`
/// with its `line`, `column`, `ply`, `remarks`, and with `to` the game written in that
/// notation as `converted`), per run of text that is no game and per file not read.
#[pyfunction]
#[pyo3(signature = (paths, *, edition=None, overlay=None, encoding=None, to=None, style=None))]
#[allow(clippy::too_many_arguments)]
pub fn replay_files(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
    to: Option<&str>,
    style: Option<&str>,
) -> PyResult<PyObject> {
    let paths = crate::convert::paths_arg(paths, "paths")?;
    let rules = rules_named(edition, overlay)?;
    let m = mode_of(to, style)?;
    batch(
        py,
        "replay_files",
        rules,
        Inputs::Paths(paths),
        encoding,
        Mode::Replay(m),
    )
}

/// [`adjudicate_files`] as an iterator: each item handed over as it is found, the files
/// streamed a few windows ahead, so that memory does not grow with the number of files.
#[pyfunction]
#[pyo3(signature = (paths, *, edition=None, overlay=None, encoding=None))]
pub fn iter_adjudicate_files(
    paths: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
) -> PyResult<Items> {
    let paths = crate::convert::paths_arg(paths, "paths")?;
    let rs = rules_named(edition, overlay)?.ruleset()?;
    // A rule set without arbiter's clauses is refused now, not at the first item.
    if let Err(e) = records::judge(&rs, true) {
        return Err(error("SpecError", e, Place::default()));
    }
    let enc = encoding_named(encoding)?;
    Ok(Items::start(
        "iter_adjudicate_files",
        rs,
        paths,
        enc,
        Mode::Adjudicate,
    ))
}

/// [`replay_files`] as an iterator (see [`iter_adjudicate_files`]).
#[pyfunction]
#[pyo3(signature = (paths, *, edition=None, overlay=None, encoding=None, to=None, style=None))]
pub fn iter_replay_files(
    paths: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
    to: Option<&str>,
    style: Option<&str>,
) -> PyResult<Items> {
    let paths = crate::convert::paths_arg(paths, "paths")?;
    let rs = rules_named(edition, overlay)?.ruleset()?;
    let m = mode_of(to, style)?;
    let enc = encoding_named(encoding)?;
    Ok(Items::start(
        "iter_replay_files",
        rs,
        paths,
        enc,
        Mode::Replay(m),
    ))
}

/// [`adjudicate_files`] of one record given as text (`str`) or bytes, named `name`.
#[pyfunction]
#[pyo3(signature = (text, *, name="<text>", edition=None, overlay=None, encoding=None))]
pub fn adjudicate_pgn(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    name: &str,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let bytes = text_bytes(text)?;
    batch(
        py,
        "adjudicate_pgn",
        rules,
        Inputs::Text(name.to_string(), bytes),
        encoding,
        Mode::Adjudicate,
    )
}

/// [`replay_files`] of one record given as text (`str`) or bytes, named `name`.
#[pyfunction]
#[pyo3(signature = (text, *, name="<text>", edition=None, overlay=None, encoding=None, to=None, style=None))]
#[allow(clippy::too_many_arguments)]
pub fn replay_pgn(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    name: &str,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
    to: Option<&str>,
    style: Option<&str>,
) -> PyResult<PyObject> {
    let rules = rules_named(edition, overlay)?;
    let bytes = text_bytes(text)?;
    let m = mode_of(to, style)?;
    batch(
        py,
        "replay_pgn",
        rules,
        Inputs::Text(name.to_string(), bytes),
        encoding,
        Mode::Replay(m),
    )
}

/// The games of one record file, one dict each as they are read (the file read once,
/// streamed a few windows ahead): `replay_files`'s items (`game`, `headers`, `fen` the
/// position the moves start from, `moves` in ICCS, `ok`, `error` with its place,
/// `recorded`, `remarks` …). Text that is no game is left out (`iter_replay_files` reports
/// it); a file that cannot be read is a `RecordError`.
#[pyfunction]
#[pyo3(signature = (path, *, edition=None, overlay=None, encoding=None))]
pub fn games(
    path: &Bound<'_, PyAny>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
) -> PyResult<Items> {
    let path = crate::convert::path_arg(path, "path")?;
    let rs = rules_named(edition, overlay)?.ruleset()?;
    let enc = encoding_named(encoding)?;
    let mut items = Items::start("games", rs, vec![path.clone()], enc, Mode::Replay(None));
    items.games_of = Some(path);
    Ok(items)
}

/// The moves of game `game` (from 1) of a record file, in ICCS: the `--pgn FILE --game N`
/// of the commands. The file is read up to that game only; `games(path)` walks them all in
/// one reading. A `RecordError` with `file`, `line`, `column` and `ply` when the file
/// cannot be read, has no such game, or the game does not replay.
#[pyfunction]
#[pyo3(
    signature = (path, game=None, *, edition=None, overlay=None, encoding=None),
    text_signature = "(path, game=1, *, edition=None, overlay=None, encoding=None)"
)]
pub fn record_moves(
    py: Python<'_>,
    path: &Bound<'_, PyAny>,
    game: Option<&Bound<'_, PyAny>>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
) -> PyResult<Vec<String>> {
    let n = match game {
        Some(g) => crate::convert::int_in(g, "game", 1, usize::MAX as i128)? as usize,
        None => 1,
    };
    let items = games(path, edition, overlay, encoding)?;
    let path = items.games_of.clone().unwrap_or_default();
    let file = Some(path.display().to_string());
    let mut count = 0;
    let g = loop {
        match items.next_item(py)? {
            Some(g) if g["game"].as_u64() == Some(n as u64) => break g,
            Some(_) => count += 1,
            None => {
                return Err(error(
                    "RecordError",
                    format!(
                        "{}: no game {n} (the file holds {count} games)",
                        path.display()
                    ),
                    Place {
                        kind: Some("no_game".into()),
                        file,
                        ..Place::default()
                    },
                ))
            }
        }
    };
    // `items` dropped on return: the stream stops.
    if let Some(e) = g.get("error").filter(|e| !e.is_null()) {
        let at = |k: &str| e.get(k).and_then(Value::as_u64).map(|x| x as usize);
        return Err(error(
            "RecordError",
            format!(
                "{} game {n}: {}",
                path.display(),
                e["message"].as_str().unwrap_or("")
            ),
            Place {
                kind: e["kind"].as_str().map(str::to_string),
                file,
                line: at("line"),
                column: at("column"),
                ply: at("ply"),
                ..Place::default()
            },
        ));
    }
    Ok(g["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default())
}
