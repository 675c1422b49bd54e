//! The compile helpers every domain uses: a clause's data typed (errors name the field's path
//! and stand at its line and column), positive counts, required clauses, errors at a clause.

use super::*;

pub(crate) fn err(c: &Clause, msg: impl Into<String>) -> SpecError {
    SpecError::new(c.location.clone(), Some(&c.id), msg)
}

/// The error at the place field `path` of clause `c`'s data was written, when known (an
/// overlay's change), else at the clause.
pub(crate) fn err_at(c: &Clause, path: &str, msg: impl Into<String>) -> SpecError {
    SpecError::new(c.at(path), Some(&c.id), msg)
}

/// Clause `c`'s data read as `T`; a shape error names the field's path (`rounds[2].kind:
/// invalid type …`) and stands where that field was written, when known.
pub(crate) fn typed<T: DeserializeOwned>(c: &Clause) -> Result<T, SpecError> {
    let e = match serde_path_to_error::deserialize::<_, T>(&c.data) {
        Ok(t) => return Ok(t),
        Err(e) => e,
    };
    // A number, boolean or null where a name of an enum is due: read again with that scalar
    // as text, so that the error lists the names the enum takes.
    let again = e
        .inner()
        .to_string()
        .ends_with(TAGGED)
        .then(|| scalar_as_text(&c.data, e.path()))
        .flatten()
        .and_then(|data| serde_path_to_error::deserialize::<_, T>(&data).err())
        .filter(|a| {
            a.path().to_string() == e.path().to_string()
                && a.inner().to_string().starts_with("unknown variant")
        });
    let e = again.unwrap_or(e);
    let (path, m) = shape_error(&e);
    let m = if path.is_empty() {
        m
    } else {
        format!("{path}: {m}")
    };
    Err(err_at(c, &path, format!("data: {m}")))
}

/// The end of serde_yaml's error for an enum given neither its name nor a tag.
const TAGGED: &str = "expected a Value::Tagged enum";

/// `data` with the number, boolean or null at `path` written as text (`7`, `true`, `null`),
/// or `None` when something else is there.
fn scalar_as_text(
    data: &serde_yaml::Value,
    path: &serde_path_to_error::Path,
) -> Option<serde_yaml::Value> {
    use serde_path_to_error::Segment;
    use serde_yaml::Value;
    let mut data = data.clone();
    let mut at = &mut data;
    for s in path.iter() {
        at = match (s, at) {
            (Segment::Map { key }, Value::Mapping(m)) => m.get_mut(key.as_str())?,
            (Segment::Seq { index }, Value::Sequence(v)) => v.get_mut(*index)?,
            (Segment::Enum { .. }, Value::Tagged(t)) => &mut t.value,
            _ => return None,
        };
    }
    let text = match at {
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_string(),
        _ => return None,
    };
    *at = Value::String(text);
    Some(data)
}

/// A shape error's path (empty at the data's root) and message. A field whose message names
/// its key (an unknown field, a custom error) is given the path of the map that holds it; an
/// enum given neither its name nor a tag is said in the YAML's terms, not in those of
/// serde_yaml's `Value`.
fn shape_error(e: &serde_path_to_error::Error<serde_yaml::Error>) -> (String, String) {
    use serde_path_to_error::Segment;
    let m = e
        .inner()
        .to_string()
        .replace(TAGGED, "expected a YAML tag starting with '!'");
    // The path as serde_path_to_error writes it (`.` for the root), less a last key the
    // message names.
    let mut path = e.path().to_string();
    if path == "." {
        path.clear();
    }
    if let Some(Segment::Map { key }) = e.path().iter().next_back() {
        if m.starts_with(&format!("unknown field `{key}`")) || m.starts_with(&format!("`{key}`: "))
        {
            path.truncate(path.len() - key.len());
            path.truncate(path.trim_end_matches('.').len());
        }
    }
    (path, m)
}

/// A count or limit the rules need positive: an error naming `field` when it is 0.
pub(crate) fn positive(
    c: &Clause,
    field: &str,
    value: Option<u64>,
    errors: &mut Vec<SpecError>,
) -> bool {
    if value == Some(0) {
        errors.push(err_at(
            c,
            field,
            format!("`{field}` is 0; the rules need this count or limit to be at least 1"),
        ));
        return false;
    }
    true
}

/// The typed data of clause `c`, or `None` with the error recorded (to report every
/// problem of an edition, not only the first).
pub(crate) fn read<T: DeserializeOwned>(c: &Clause, errors: &mut Vec<SpecError>) -> Option<T> {
    typed(c).map_err(|e| errors.push(e)).ok()
}

pub(crate) fn has_key(c: &Clause, key: &str) -> bool {
    c.data.as_mapping().is_some_and(|m| m.contains_key(key))
}

/// The error for an edition that lacks clause `id`, which `needed_by` says what needs.
pub(crate) fn missing(ed: &Edition, id: &str, needed_by: &str) -> SpecError {
    SpecError::new(
        crate::spec::Location::whole(format!("{}/", ed.id)),
        Some(id),
        format!(
            "edition `{}` has no clause `{id}`, which {needed_by}",
            ed.id
        ),
    )
}

pub(crate) fn require<'a>(ed: &'a Edition, id: &str) -> Result<&'a Clause, SpecError> {
    ed.clause(id).ok_or_else(|| missing(ed, id, "the VM needs"))
}
