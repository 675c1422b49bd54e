//! JSON values ↔ Python objects: answers are protocol JSON turned into dicts and lists,
//! query inputs and a Python implementation's answers the other way.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Nesting deeper than this is refused (the library's input layer allows 64 levels).
const MAX_DEPTH: usize = 64;

/// A JSON value as a Python object: objects → dict, arrays → list, numbers → int or
/// float, strings → str, null → None.
pub fn to_py(py: Python<'_>, v: &Value) -> PyResult<PyObject> {
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any().unbind()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any().unbind()
            } else {
                n.as_f64()
                    .unwrap_or(f64::NAN)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any().unbind(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Value::Object(m) => map_to_py(py, m)?.into_any().unbind(),
    })
}

/// A JSON object as a dict.
pub fn map_to_py<'py>(py: Python<'py>, m: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, x) in m {
        d.set_item(k, to_py(py, x)?)?;
    }
    Ok(d)
}

/// A Python object as a JSON value: dict (string keys), list, tuple, str, int, float
/// (finite), bool, None. Anything else is a `TypeError`, a cycle or nesting deeper than 64
/// levels a `ValueError`.
pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    from_py_at(obj, 0)
}

fn from_py_at(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "nested deeper than {MAX_DEPTH} levels"
        )));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.downcast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::Number(i.into()));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::Number(u.into()));
        }
        return Err(PyValueError::new_err("an integer beyond 64 bits"));
    }
    if let Ok(f) = obj.downcast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err("a float that is not finite"));
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = obj.downcast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            let key = k
                .downcast::<PyString>()
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "a dict key is not a str: {}",
                        k.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?
                .to_cow()?
                .into_owned();
            m.insert(key, from_py_at(&v, depth + 1)?);
        }
        return Ok(Value::Object(m));
    }
    // A list or a tuple: an array.
    let items: Option<Vec<Bound<'_, PyAny>>> = if let Ok(l) = obj.downcast::<PyList>() {
        Some(l.iter().collect())
    } else if let Ok(t) = obj.downcast::<PyTuple>() {
        Some(t.iter().collect())
    } else {
        None
    };
    if let Some(items) = items {
        return items
            .iter()
            .map(|x| from_py_at(x, depth + 1))
            .collect::<PyResult<Vec<_>>>()
            .map(Value::Array);
    }
    Err(PyTypeError::new_err(format!(
        "not a JSON value: an object of type {}",
        type_name(obj)
    )))
}

/// The name of `obj`'s Python type (`?` when it has none to give), for the messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `e` with `name` and `what` said, as a `ValueError` (or a `TypeError` for a value of the
/// wrong type); a `KeyboardInterrupt` or `SystemExit` passes as it is.
fn named_error(py: Python<'_>, e: PyErr, name: &str, what: &str) -> PyErr {
    use pyo3::exceptions::{PyKeyboardInterrupt, PySystemExit};
    if e.is_instance_of::<PyKeyboardInterrupt>(py) || e.is_instance_of::<PySystemExit>(py) {
        return e;
    }
    let message = format!("{name}: {what} ({})", e.value(py));
    if e.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(message)
    } else {
        PyValueError::new_err(message)
    }
}

/// A path argument (`str`, `bytes` or `os.PathLike`) as the file system names it, read
/// here rather than by PyO3 (whose conversion panics on a `str` the file system encoding
/// cannot write, such as a lone surrogate): such a path is a `ValueError` naming `name`.
pub fn path_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<std::path::PathBuf> {
    let py = obj.py();
    let encoded = PyModule::import(py, "os")?
        .getattr("fsencode")?
        .call1((obj,))
        .map_err(|e| named_error(py, e, name, "not a path the file system can name"))?;
    let bytes = encoded
        .downcast::<pyo3::types::PyBytes>()
        .map_err(|_| PyTypeError::new_err(format!("{name}: not a path")))?
        .as_bytes();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(std::ffi::OsStr::from_bytes(bytes).into())
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes).map(Into::into).map_err(|_| {
            PyValueError::new_err(format!("{name}: not a path the file system can name"))
        })
    }
}

/// One path or a list of paths: a `str`, `bytes` or `os.PathLike` is one path
/// ([`path_arg`], named `name`), anything else is iterated ([`path_arg`] each, named
/// `name[i]`).
pub fn paths_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<std::path::PathBuf>> {
    let py = obj.py();
    let path_like = PyModule::import(py, "os")?.getattr("PathLike")?;
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<pyo3::types::PyBytes>()
        || obj.is_instance(&path_like)?
    {
        return Ok(vec![path_arg(obj, name)?]);
    }
    let items = obj
        .try_iter()
        .map_err(|e| named_error(py, e, name, "a path or a list of paths"))?;
    items
        .enumerate()
        .map(|(i, item)| path_arg(&item?, &format!("{name}[{i}]")))
        .collect()
}

/// An integer argument from `lo` to `hi`: another integer (one beyond any machine word
/// too, which PyO3 would raise as an `OverflowError`) is a `ValueError` naming `name`.
pub fn int_in(obj: &Bound<'_, PyAny>, name: &str, lo: i128, hi: i128) -> PyResult<i128> {
    let out_of_range = || {
        PyValueError::new_err(format!(
            "{name}: a whole number from {lo} to {hi} is wanted"
        ))
    };
    if !obj.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name}: a whole number is wanted, not an object of type {}",
            type_name(obj)
        )));
    }
    match obj.extract::<i128>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(out_of_range()),
    }
}
