//! The library's refusals as Python exceptions (the classes live in `xqspec/_errors.py`),
//! each with the place the library gives: file, line, column, ply, event.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::PyDict;

static ERRORS: GILOnceCell<Py<PyModule>> = GILOnceCell::new();

/// Where an error is, as far as the library says.
#[derive(Default, Clone, Debug)]
pub struct Place {
    pub kind: Option<String>,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub ply: Option<usize>,
    pub event: Option<usize>,
    pub stage: Option<&'static str>,
    pub clause: Option<String>,
}

impl Place {
    /// A place that names only the kind of the refusal.
    pub fn of_kind(kind: &str) -> Place {
        Place {
            kind: Some(kind.to_string()),
            ..Place::default()
        }
    }
}

/// An exception of class `class` (a name of `xqspec._errors`) with `message` and the place.
pub fn error(class: &str, message: impl Into<String>, place: Place) -> PyErr {
    let message = message.into();
    Python::with_gil(|py| match build(py, class, &message, &place) {
        Ok(e) => e,
        Err(e) => e,
    })
}

fn build(py: Python<'_>, class: &str, message: &str, p: &Place) -> PyResult<PyErr> {
    let module = ERRORS.get_or_try_init(py, || {
        PyModule::import(py, "xqspec._errors").map(Bound::unbind)
    })?;
    let cls = module.bind(py).getattr(class)?;
    let kw = PyDict::new(py);
    kw.set_item("kind", &p.kind)?;
    kw.set_item("file", &p.file)?;
    kw.set_item("line", p.line)?;
    kw.set_item("column", p.column)?;
    kw.set_item("ply", p.ply)?;
    kw.set_item("event", p.event)?;
    if let Some(s) = p.stage {
        kw.set_item("stage", s)?;
    }
    if let Some(c) = &p.clause {
        kw.set_item("clause", c)?;
    }
    let e = cls.call((message,), Some(&kw))?;
    Ok(PyErr::from_value(e))
}

/// The first number after `word ` in `text` (`move 3: …` → 3).
pub fn number_after(text: &str, word: &str) -> Option<usize> {
    index_in(text, &format!("{word} "))
}

/// The number right after the first `open` in `text` (`events[3]: …` with `events[` → 3).
pub fn index_in(text: &str, open: &str) -> Option<usize> {
    let at = text.find(open)? + open.len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The exception class of a protocol reject kind: the FEN's, a move or notation text that
/// does not read, a move that reads but is not legal, or another rule's refusal.
pub fn class_of_kind(kind: &str) -> &'static str {
    match kind {
        k if k == "fen" || k.starts_with("fen.") => "FenError",
        "move.syntax" | "notation.syntax" | "move" => "NotationError",
        "move.illegal" | "notation.no_match" | "notation.ambiguous" | "notation" => {
            "IllegalMoveError"
        }
        _ => "RuleError",
    }
}

/// Runs `f`, turning a panic inside the library into `xqspec.InternalError`: a Python
/// caller gets an exception, never a dead interpreter.
pub fn guard<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = xqspec::panic_message(p.as_ref());
            Err(error(
                "InternalError",
                format!("internal error (panic) in {what}: {msg}"),
                Place::default(),
            ))
        }
    }
}
