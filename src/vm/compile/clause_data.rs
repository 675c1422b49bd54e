//! The compile helpers every domain uses: a clause's data typed (errors at the key's line
//! and column), positive counts, required clauses, errors at a clause.

use super::*;

pub(crate) fn err(c: &Clause, msg: impl Into<String>) -> SpecError {
    SpecError::new(c.location.clone(), Some(&c.id), msg)
}

/// The error at the place field `path` of clause `c`'s data was written, when known (an
/// overlay's change), else at the clause.
pub(crate) fn err_at(c: &Clause, path: &str, msg: impl Into<String>) -> SpecError {
    SpecError::new(c.at(path), Some(&c.id), msg)
}

pub(crate) fn typed<T: DeserializeOwned>(c: &Clause) -> Result<T, SpecError> {
    serde_yaml::from_value(c.data.clone()).map_err(|e| {
        let m = with_path::<T>(&c.data, e);
        // `rounds: invalid type …`: the path before the first `: `.
        let path = m.split(": ").next().unwrap_or("");
        err_at(c, path, format!("data: {m}"))
    })
}

/// A shape error with the path of the field it concerns (`rounds: invalid value …`): the
/// data is read again from its text, whose errors name the path (a value's do not).
pub(super) fn with_path<T: DeserializeOwned>(
    data: &serde_yaml::Value,
    e: serde_yaml::Error,
) -> String {
    let again = serde_yaml::to_string(data)
        .ok()
        .and_then(|t| serde_yaml::from_str::<T>(&t).err());
    match again {
        Some(e2) => {
            let m = e2.to_string();
            m.find(" at line ").map(|i| m[..i].to_string()).unwrap_or(m)
        }
        None => e.to_string(),
    }
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
