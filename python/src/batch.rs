//! The batch calls over record files, in ONE place: every file read by
//! `xqspec::notation::records` (the path `xqspec replay` and `xqspec adjudicate` read by),
//! every game replayed by one `Replayer`; a file that cannot be read, a folder, text that is
//! no game are items of the answer with their place, and the rest is processed.
//!
//! `adjudicate` items are the objects `xqspec adjudicate --json` prints, key for key (the
//! Dask test compares them). The library is getting a parallel, streaming batch API; these
//! functions will call it then, and nothing else here reads records.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use serde_json::{json, Value};

use xqspec::arbiter::batch::{self, Item};
use xqspec::notation::records::{self, Entry, FileError, RecordFile};
use xqspec::notation::replay::{ReplayError, Replayer};
use xqspec::notation::{self, Notation, Style};
use xqspec::ruleset::RuleSet;

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

fn replay_error_json(e: &ReplayError) -> Value {
    let mut v = json!({ "message": e.to_string(), "kind": e.kind().code() });
    match e {
        ReplayError::Pgn(p) => {
            v["line"] = json!(p.line);
        }
        ReplayError::Fen { line, column, .. } => {
            v["line"] = json!(line);
            v["column"] = json!(column);
        }
        ReplayError::Move {
            ply,
            move_number,
            text,
            line,
            column,
            ..
        } => {
            v["line"] = json!(line);
            v["column"] = json!(column);
            v["ply"] = json!(ply);
            v["move_number"] = json!(move_number);
            v["text"] = json!(text);
        }
        ReplayError::Encoding {
            line, column, byte, ..
        } => {
            v["line"] = json!(line);
            v["column"] = json!(column);
            v["byte"] = json!(byte);
        }
    }
    v
}

/// Every game of every file, in file order, as JSON items. Adjudication makes the command
/// line's items (`arbiter::batch`); replay judges as `xqspec replay` does (a final mate or
/// stalemate only) and gives each game's moves, errors and conversion.
fn run(
    rs: &RuleSet,
    files: Vec<(PathBuf, Result<RecordFile, FileError>)>,
    mode: Mode,
) -> Result<Vec<Value>, String> {
    let mut items = Vec::new();
    let mut replayer = Replayer::new(&rs.vm);
    let adjudicate = match mode {
        Mode::Adjudicate => Some(batch::judge(rs, true)?),
        Mode::Replay(_) => None,
    };
    let final_position = batch::final_position(rs);
    for (path, file) in files {
        let file = match file {
            Ok(f) => f,
            Err(e) => {
                items.push(Item::Unread(e).to_json());
                continue;
            }
        };
        let not_a_game = |problem| {
            Item::NotAGame {
                file: path.display().to_string(),
                problem,
            }
            .to_json()
        };
        if let Some(judge) = &adjudicate {
            for entry in records::games(&file, &mut replayer, judge) {
                items.push(match entry {
                    Entry::Game(g) => {
                        let place = format!("{} game {}", path.display(), g.number);
                        Item::Game(batch::row(*g, place)).to_json()
                    }
                    Entry::NotAGame(problem) => not_a_game(problem),
                });
            }
            continue;
        }
        let Mode::Replay(to) = mode else {
            unreachable!("adjudication is done above")
        };
        for entry in records::games(&file, &mut replayer, |r| ((), final_position(r))) {
            let g = match entry {
                Entry::Game(g) => g,
                Entry::NotAGame(problem) => {
                    items.push(not_a_game(problem));
                    continue;
                }
            };
            let place = format!("{} game {}", path.display(), g.number);
            let remarks: Vec<Value> = g
                .remarks
                .iter()
                .map(|r| json!({ "line": r.line, "column": r.column, "remark": r.message }))
                .collect();
            let recorded = g.recorded().map_or(Value::Null, |r| json!(r));
            let r = &g.replay;
            let converted = to.map(|(n, style)| {
                notation::replay::write_game(&rs.vm, replayer.kinds(), &g.game, r, n, style)
            });
            items.push(json!({
                "place": place,
                "file": path.display().to_string(),
                "game": g.number,
                "title": r.title,
                "ok": r.is_ok(),
                "moves": r.moves.iter().map(|m| m.iccs()).collect::<Vec<_>>(),
                "variations": r.variations,
                "error": r.error.as_ref().map_or(Value::Null, replay_error_json),
                "variation_errors": r.variation_errors.iter().map(replay_error_json).collect::<Vec<_>>(),
                "recorded": recorded,
                "disagrees": g.disagrees,
                "remarks": remarks,
                "converted": converted,
            }));
        }
    }
    Ok(items)
}

/// The encoding named, or detection.
fn encoding_named(name: Option<&str>) -> PyResult<Option<&'static encoding_rs::Encoding>> {
    match name {
        None => Ok(None),
        Some(n) => notation::encoding::by_name(n).map(Some).map_err(|e| {
            error(
                "QueryError",
                e.to_string(),
                Place {
                    kind: Some("encoding".into()),
                    ..Place::default()
                },
            )
        }),
    }
}

fn mode_of(to: Option<&str>, style: &str) -> PyResult<Option<(Notation, Style)>> {
    let Some(to) = to else { return Ok(None) };
    let n = Notation::from_name(to).ok_or_else(|| {
        error(
            "QueryError",
            format!("unknown notation `{to}` (use iccs, wxf, chinese or chinese-abbreviated)"),
            Place {
                kind: Some("notation".into()),
                ..Place::default()
            },
        )
    })?;
    let s = Style::from_name(style).ok_or_else(|| {
        error("QueryError", format!("unknown style `{style}` (words: simplified, traditional, halfwidth, fullwidth, lower, upper, joined by +)"), Place { kind: Some("style".into()), ..Place::default() })
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
                // Files to adjudicate take the command line's path: streamed over every core,
                // items in file order, exactly `xqspec adjudicate --json`'s objects.
                if let (Inputs::Paths(paths), Mode::Adjudicate) = (&inputs, &mode) {
                    let opts = xqspec::notation::stream::Options {
                        encoding: enc,
                        ..Default::default()
                    };
                    let mut items = Vec::new();
                    let done = xqspec::arbiter::batch::adjudicate_files(
                        &rs,
                        paths,
                        &opts,
                        true,
                        &mut |item| {
                            if !matches!(item, xqspec::arbiter::batch::Item::FileDone) {
                                items.push(item.to_json());
                            }
                        },
                    );
                    return Ok(done.map(|()| items));
                }
                let files = match inputs {
                    Inputs::Paths(paths) => paths
                        .into_iter()
                        .map(|p| {
                            let f = records::read(&p, enc);
                            (p, f)
                        })
                        .collect(),
                    Inputs::Text(name, bytes) => {
                        let p = PathBuf::from(name);
                        let f = records::from_bytes(&p, bytes, enc);
                        vec![(p, Ok(f))]
                    }
                };
                Ok(run(&rs, files, mode))
            })
        })?
        .map_err(|e| error("SpecError", e, Place::default()))?;
    to_py(py, &Value::Array(items))
}

enum Inputs {
    Paths(Vec<PathBuf>),
    Text(String, Vec<u8>),
}

/// A record given as `str` (UTF-8) or `bytes` (any encoding, detected).
fn text_bytes(text: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = text.extract::<String>() {
        return Ok(s.into_bytes());
    }
    text.extract::<Vec<u8>>()
        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("a record is a str or bytes"))
}

/// Adjudicates every game of every file from its moves alone, as `xqspec adjudicate --json`:
/// one dict per game (`result`, `ply`, `clause`, `article`, `how`, `recorded`,
/// `disagrees`, `remarks`, `place` …), per run of text that is no game (`not_a_game`,
/// `line`, `column`, `byte`) and per file that cannot be read (`file_error`), in order.
#[pyfunction]
#[pyo3(signature = (paths, *, edition=None, overlay=None, encoding=None))]
pub fn adjudicate_files(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
) -> PyResult<PyObject> {
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
#[pyo3(signature = (paths, *, edition=None, overlay=None, encoding=None, to=None, style="simplified"))]
#[allow(clippy::too_many_arguments)]
pub fn replay_files(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
    to: Option<&str>,
    style: &str,
) -> PyResult<PyObject> {
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
#[pyo3(signature = (text, *, name="<text>", edition=None, overlay=None, encoding=None, to=None, style="simplified"))]
#[allow(clippy::too_many_arguments)]
pub fn replay_pgn(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    name: &str,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
    to: Option<&str>,
    style: &str,
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

/// The moves of game `game` (from 1) of a record file, in ICCS: the `--pgn FILE --game N`
/// of the commands. A `RecordError` with `file`, `line`, `column` and `ply` when the file
/// cannot be read, has no such game, or the game does not replay.
#[pyfunction]
#[pyo3(signature = (path, game=1, *, edition=None, overlay=None, encoding=None))]
pub fn record_moves(
    py: Python<'_>,
    path: PathBuf,
    game: usize,
    edition: Option<&str>,
    overlay: Option<&Bound<'_, PyAny>>,
    encoding: Option<&str>,
) -> PyResult<Vec<String>> {
    let rules = rules_named(edition, overlay)?;
    let items = batch(
        py,
        "record_moves",
        rules,
        Inputs::Paths(vec![path.clone()]),
        encoding,
        Mode::Replay(None),
    )?;
    let items = crate::convert::from_py(items.bind(py))?;
    record_game(&path, game, &items)
}

fn record_game(path: &Path, game: usize, items: &Value) -> PyResult<Vec<String>> {
    let file = Some(path.display().to_string());
    let items = items.as_array().cloned().unwrap_or_default();
    if let Some(e) = items.iter().find_map(|i| i.get("file_error")) {
        return Err(error(
            "RecordError",
            format!("{}: {}", path.display(), e.as_str().unwrap_or("")),
            Place {
                kind: Some("file".into()),
                file,
                ..Place::default()
            },
        ));
    }
    let games: Vec<&Value> = items.iter().filter(|i| i.get("game").is_some()).collect();
    let Some(g) = games
        .iter()
        .find(|g| g["game"].as_u64() == Some(game as u64))
    else {
        return Err(error(
            "RecordError",
            format!(
                "{}: no game {game} (the file holds {} games)",
                path.display(),
                games.len()
            ),
            Place {
                kind: Some("no_game".into()),
                file,
                ..Place::default()
            },
        ));
    };
    if let Some(e) = g.get("error").filter(|e| !e.is_null()) {
        let n = |k: &str| e.get(k).and_then(Value::as_u64).map(|x| x as usize);
        return Err(error(
            "RecordError",
            format!(
                "{} game {game}: {}",
                path.display(),
                e["message"].as_str().unwrap_or("")
            ),
            Place {
                kind: e["kind"].as_str().map(str::to_string),
                file,
                line: n("line"),
                column: n("column"),
                ply: n("ply"),
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
