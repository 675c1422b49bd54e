//! Whether a case's `fixed:` input differs from its `input:` in one place only.

/// Whether `after` differs from `before` in one place: a scalar or string replaced (a FEN:
/// one field, and in the board at most two points: a piece removed, added, changed or
/// moved; or one rank added, removed or rewritten), one item of a list changed, added or
/// removed, one key of an object changed, added or removed. `Err` says where else.
pub(crate) fn one_edit(
    field: &str,
    before: &serde_json::Value,
    after: &serde_json::Value,
) -> Result<(), String> {
    use serde_json::Value;
    if before == after {
        return Err("it changes nothing".into());
    }
    match (before, after) {
        (Value::String(a), Value::String(b)) if field == "fen" => fen_one_edit(a, b),
        (Value::Array(a), Value::Array(b)) => {
            let diff = list_diff(a, b);
            match diff {
                Some((i, None)) => Err(format!("the lists differ from item {i} on")),
                Some((i, Some((x, y)))) => {
                    one_edit(field, x, y).map_err(|m| format!("item {i}: {m}"))
                }
                None => Ok(()),
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            let changed: Vec<&String> = a
                .keys()
                .chain(b.keys().filter(|k| !a.contains_key(*k)))
                .filter(|k| a.get(*k) != b.get(*k))
                .collect();
            match changed.as_slice() {
                [k] => match (a.get(*k), b.get(*k)) {
                    (Some(x), Some(y)) => one_edit(k, x, y).map_err(|m| format!("`{k}`: {m}")),
                    _ => Ok(()),
                },
                many => Err(format!(
                    "keys {} change",
                    many.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        _ => Ok(()),
    }
}

/// Two lists that differ by one item changed (`Some((i, Some((a, b))))`), added or removed
/// (`None`), or otherwise (`Some((i, None))`, where they start to differ).
#[allow(clippy::type_complexity)]
fn list_diff<'a>(
    a: &'a [serde_json::Value],
    b: &'a [serde_json::Value],
) -> Option<(
    usize,
    Option<(&'a serde_json::Value, &'a serde_json::Value)>,
)> {
    let first = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    if a.len() == b.len() {
        return if a[first + 1..] == b[first + 1..] {
            Some((first, Some((&a[first], &b[first]))))
        } else {
            Some((first, None))
        };
    }
    let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
    if long.len() == short.len() + 1 && long[first + 1..] == short[first..] {
        None
    } else {
        Some((first, None))
    }
}

/// [`one_edit`] for FENs.
fn fen_one_edit(a: &str, b: &str) -> Result<(), String> {
    let (fa, fb): (Vec<&str>, Vec<&str>) = (
        a.split_whitespace().collect(),
        b.split_whitespace().collect(),
    );
    let differing: Vec<usize> = (0..fa.len().max(fb.len()))
        .filter(|&i| fa.get(i) != fb.get(i))
        .collect();
    let trailing = fa.len() != fb.len() && differing.iter().all(|&i| i >= fa.len().min(fb.len()));
    match differing.as_slice() {
        [0] => board_one_edit(fa[0], fb[0]),
        [_] => Ok(()),
        // Fields added or removed at the end (the counters of a FEN that had none).
        _ if trailing => Ok(()),
        _ => Err(format!(
            "FEN fields {} differ",
            differing
                .iter()
                .map(|i| (i + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// [`one_edit`] for the board field of two FENs: at most two points differ, or one rank.
fn board_one_edit(a: &str, b: &str) -> Result<(), String> {
    let expand = |board: &str| -> Vec<String> {
        board
            .split('/')
            .map(|rank| {
                rank.chars()
                    .flat_map(|c| match c.to_digit(10) {
                        Some(n) => vec!['.'; n as usize],
                        None => vec![c],
                    })
                    .collect()
            })
            .collect()
    };
    let (ra, rb) = (expand(a), expand(b));
    let values = |v: &[String]| {
        v.iter()
            .map(|r| serde_json::Value::String(r.clone()))
            .collect::<Vec<_>>()
    };
    if ra.len() != rb.len() {
        return match list_diff(&values(&ra), &values(&rb)) {
            None => Ok(()),
            _ => Err("the boards differ in more than one rank".into()),
        };
    }
    let ranks: Vec<usize> = (0..ra.len()).filter(|&i| ra[i] != rb[i]).collect();
    let same_shape = ranks
        .iter()
        .all(|&i| ra[i].chars().count() == rb[i].chars().count());
    // One rank of another shape, or written in the other side's letters.
    let other_case = |i: usize| {
        ra[i]
            .chars()
            .zip(rb[i].chars())
            .all(|(x, y)| x.eq_ignore_ascii_case(&y))
    };
    if ranks.len() == 1 && (!same_shape || other_case(ranks[0])) {
        return Ok(());
    }
    let points: usize = ranks
        .iter()
        .map(|&i| {
            ra[i]
                .chars()
                .zip(rb[i].chars())
                .filter(|(x, y)| x != y)
                .count()
        })
        .sum();
    if same_shape && points <= 2 {
        Ok(())
    } else {
        Err(format!(
            "the boards differ on {points} points of {} ranks",
            ranks.len()
        ))
    }
}
