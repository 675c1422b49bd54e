//! The conformance suite run against a Python object: the object implements the protocol's
//! queries as methods, and is put to the library's runner as an in-process
//! `conform::Implementation` (`conform::subject::InProcess`), the way the harness runs a
//! Rust type. The results are the runner's, one dict per case and edition as `xqspec
//! conform --json` writes them.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PySystemExit};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use xqspec::protocol;
use xqspec::runner;
use xqspec::Suite;
use xqspec::{About, Ask, Implementation};
use xqspec::{Answer, Query};
use xqspec::{InProcess, Reply, Subject};
use xqspec::{KnownFailures, RunOptions};

use crate::convert::{from_py, map_to_py, to_py};
use crate::errors::{error, guard, Place};

static SUITE: OnceLock<Suite> = OnceLock::new();

fn suite() -> &'static Suite {
    SUITE.get_or_init(Suite::embedded)
}

/// A Python object as an implementation under test.
struct PyImplementation {
    obj: Py<PyAny>,
    about: About,
    /// A `KeyboardInterrupt` or `SystemExit` a method raised: the run stops, and
    /// `run_suite` raises it.
    stop: Rc<RefCell<Option<PyErr>>>,
}

/// Whether `e` is a `KeyboardInterrupt` or a `SystemExit`: what stops a run (and leaves
/// the package as it is), where any other exception of a method is that case's error.
fn stops(py: Python<'_>, e: &PyErr) -> bool {
    e.is_instance_of::<PyKeyboardInterrupt>(py) || e.is_instance_of::<PySystemExit>(py)
}

/// An exception of the object's own code (its `hello()`) as it leaves `run_suite`: a
/// `KeyboardInterrupt`, a `SystemExit` or any `Exception` as it is; another
/// `BaseException` (`GeneratorExit`, a PyO3 panic) as a `QueryError` naming it.
fn own(py: Python<'_>, e: PyErr, what: &str) -> PyErr {
    if stops(py, &e) || e.is_instance_of::<pyo3::exceptions::PyException>(py) {
        return e;
    }
    let ty = e
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    error(
        "QueryError",
        format!("{what} raised {ty}: {}", e.value(py)),
        Place::of_kind("implementation"),
    )
}

/// The runner's subject: the object in this process, stopped by a `KeyboardInterrupt` or
/// `SystemExit` of one of its methods (or a signal, as Ctrl-C, between two questions).
struct PySubject {
    inner: InProcess<PyImplementation>,
    stop: Rc<RefCell<Option<PyErr>>>,
}

/// What unwinds the runner when the run stops (caught by `run_suite`).
struct Stopped;

impl Subject for PySubject {
    fn about(&self) -> &About {
        self.inner.about()
    }

    fn ask(&mut self, id: &str, ask: &Ask, timeout: Duration) -> Reply {
        if self.stop.borrow().is_none() {
            if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                *self.stop.borrow_mut() = Some(e);
            }
        }
        if self.stop.borrow().is_none() {
            let reply = self.inner.ask(id, ask, timeout);
            if self.stop.borrow().is_none() {
                return reply;
            }
        }
        // The runner asks nothing more: it is unwound to `run_suite` (which raises the
        // exception kept), with nothing of its state needed after.
        std::panic::resume_unwind(Box::new(Stopped))
    }

    fn can_reject(&self) -> bool {
        self.inner.can_reject()
    }

    fn stop(&mut self) {
        self.inner.stop()
    }
}

/// The hello of the object: `obj.hello()` returns the protocol's hello (`implementation`,
/// `editions`, `queries`, optionally `overlays`, `limits`); `type` and `protocol` may be
/// left out.
fn about_of(obj: &Bound<'_, PyAny>) -> PyResult<About> {
    let hello = obj
        .call_method0("hello")
        .map_err(|e| own(obj.py(), e, "hello()"))?;
    let mut v = from_py(&hello)?;
    let Value::Object(m) = &mut v else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "hello() returns a dict",
        ));
    };
    m.entry("type").or_insert_with(|| "hello".into());
    m.entry("protocol")
        .or_insert_with(|| protocol::PROTOCOL_VERSION.into());
    guard("hello", || {
        protocol::parse_hello(&v.to_string())
            .map_err(|e| error("QueryError", e, Place::of_kind("hello")))
    })
}

impl PyImplementation {
    fn call(&self, edition: &str, overlay: Option<&xqspec::Overlay>, query: &Query) -> Answer {
        Python::with_gil(|py| {
            let obj = self.obj.bind(py);
            let input = match map_to_py(py, &query.input()) {
                Ok(d) => d,
                Err(e) => return Answer::error(format!("input: {e}")),
            };
            let kwargs = PyDict::new(py);
            if let Some(o) = overlay {
                if let Ok(v) = serde_json::to_value(o) {
                    if let Ok(p) = to_py(py, &v) {
                        let _ = kwargs.set_item("overlay", p);
                    }
                }
            }
            let r = obj.getattr(query.name()).and_then(|method| {
                method.call(
                    (edition, input),
                    if kwargs.is_empty() {
                        None
                    } else {
                        Some(&kwargs)
                    },
                )
            });
            match r {
                Ok(result) => match from_py(&result) {
                    Ok(Value::Object(m)) => Answer::Value(m),
                    Ok(other) => Answer::error(format!(
                        "{}() returned {other}, not a dict (the result object)",
                        query.name()
                    )),
                    Err(e) => Answer::error(format!("{}() returned no JSON: {e}", query.name())),
                },
                Err(e) if stops(py, &e) => {
                    *self.stop.borrow_mut() = Some(e);
                    Answer::error("stopped")
                }
                Err(e) => answer_of_exception(py, &e),
            }
        })
    }
}

/// An exception of the object's method as an answer: an `UnsupportedError` a skip, an
/// `XqspecError` with a `kind` a rejection, anything else an `error`.
fn answer_of_exception(py: Python<'_>, e: &PyErr) -> Answer {
    let value = e.value(py);
    let text = value.str().map(|s| s.to_string()).unwrap_or_default();
    let errors = PyModule::import(py, "xqspec._errors").ok();
    let is = |name: &str| {
        errors
            .as_ref()
            .and_then(|m| m.getattr(name).ok())
            .is_some_and(|cls| value.is_instance(&cls).unwrap_or(false))
    };
    if is("UnsupportedError") {
        return Answer::unsupported(text);
    }
    if is("XqspecError") {
        if let Ok(kind) = value.getattr("kind").and_then(|k| k.extract::<String>()) {
            return Answer::reject(kind, text);
        }
    }
    Answer::error(format!(
        "{}: {text}",
        crate::convert::type_name(value.as_any())
    ))
}

impl Implementation for PyImplementation {
    fn about(&self) -> About {
        self.about.clone()
    }
    fn answer(&mut self, edition: &str, query: &Query) -> Answer {
        self.call(edition, None, query)
    }
    fn answer_ask(&mut self, ask: &Ask) -> Answer {
        if ask.overlay.is_some() && !self.about.overlays {
            return Answer::unsupported("event overlays are not applied");
        }
        self.call(ask.edition, ask.overlay, ask.query)
    }
}

/// Runs the conformance suite against `implementation`, a Python object with a `hello()`
/// method (the protocol's hello as a dict) and one method per query it declares, called as
/// `method(edition, input)` (and `overlay=` when it declares overlays), returning the result
/// object as a dict, raising an `XqspecError` with `kind` to reject and `UnsupportedError` to
/// decline. Returns one dict per case and edition: `id`, `path`, `area`, `edition`,
/// `status` (`pass`, `fail`, `skip`, `error`, `crash`), `detail`, `expected`, `got`, `ms`,
/// `known_failure`. `known_failures` is a known-failures file (`conformance/README.md`), or
/// `"reference"` for the reference's own list.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (implementation, *, editions=None, run=None, skip=None, skip_features=None, areas=None, known_failures=None))]
pub fn run_suite(
    py: Python<'_>,
    implementation: &Bound<'_, PyAny>,
    editions: Option<Vec<String>>,
    run: Option<Vec<String>>,
    skip: Option<Vec<String>>,
    skip_features: Option<Vec<String>>,
    areas: Option<Vec<String>>,
    known_failures: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    // The options are checked as `xqspec conform` checks them, before anything is asked.
    let editions = editions.unwrap_or_default();
    for e in &editions {
        crate::state()?
            .spec
            .edition_named(e)
            .map_err(|m| error("QueryError", m, Place::of_kind("unknown_edition")))?;
    }
    let known_failures = known_failures
        .filter(|k| !k.is_none())
        .map(|k| crate::convert::path_arg(k, "known_failures"))
        .transpose()?;
    let about = about_of(implementation)?;
    let known = match known_failures {
        None => KnownFailures::default(),
        Some(p) => {
            let read = if p.as_os_str() == "reference" {
                suite().reference_known_failures()
            } else {
                let file = p.display().to_string();
                match std::fs::read_to_string(&p) {
                    Ok(text) => KnownFailures::parse(&file, &text, suite()),
                    Err(e) => {
                        return Err(error(
                            "QueryError",
                            format!("{file}: {e}"),
                            Place {
                                kind: Some("known_failures".into()),
                                file: Some(file),
                                ..Place::default()
                            },
                        ))
                    }
                }
            };
            read.map_err(|problems| {
                let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                error(
                    "QueryError",
                    text.join("; "),
                    Place::of_kind("known_failures"),
                )
            })?
        }
    };
    let overlays = crate::state()?.spec.overlays().to_vec();
    let opts = RunOptions {
        editions,
        run: run.unwrap_or_default(),
        skip: skip.unwrap_or_default(),
        skip_features: skip_features.unwrap_or_default(),
        areas: areas.unwrap_or_default(),
        timeout: Duration::from_secs(3600),
        overlays,
        known,
        ..RunOptions::default()
    };
    let stop = Rc::new(RefCell::new(None));
    let imp = PyImplementation {
        obj: implementation.clone().unbind(),
        about,
        stop: stop.clone(),
    };
    let results = guard("run_suite", || {
        let mut subject = PySubject {
            inner: InProcess::new(imp),
            stop: stop.clone(),
        };
        runner::run(suite(), &mut subject, &opts, &mut |_| {})
            .map_err(|e| error("QueryError", e, Place::of_kind("options")))
    });
    // A KeyboardInterrupt or SystemExit stopped the run: it leaves as it came.
    if let Some(e) = stop.borrow_mut().take() {
        return Err(e);
    }
    let results = results?;
    let rows: Vec<Value> = results
        .results
        .iter()
        .map(|r| serde_json::from_str::<Value>(&runner::json_case(r)).unwrap_or(Value::Null))
        .collect();
    to_py(py, &Value::Array(rows))
}

/// The suite's cases: `id`, `path`, `query`, `editions`, `clauses`, `features`, `input`.
#[pyfunction]
pub fn cases(py: Python<'_>) -> PyResult<PyObject> {
    let suite = guard("cases", || Ok(suite()))?;
    let rows: Vec<Value> = suite
        .cases
        .iter()
        .map(|c| {
            serde_json::json!({
                "id": c.id, "path": c.path, "query": c.query, "editions": c.editions,
                "clauses": c.clauses, "features": c.features, "input": c.input, "overlay": c.overlay,
            })
        })
        .collect();
    to_py(py, &Value::Array(rows))
}
