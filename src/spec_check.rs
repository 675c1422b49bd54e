//! `xqspec spec check`: every edition and every overlay of a spec (and an overlay given
//! with `--overlay`) compiled for every rule domain — the compile steps hold the shape and
//! meaning checks, so this only gathers their errors — plus the perft of the start position
//! of each rule set, compared with its base's.
//!
//! A rule set's base is the edition it derives from (an overlay's: the edition it applies
//! to). A perft that differs from the base's while no `movement.*` clause differs is a
//! warning: the moves changed through some other clause (board, pieces, check), which is
//! worth a look but may be meant.

use std::collections::BTreeMap;

use crate::ruleset::RuleSet;
use crate::spec::{Edition, Overlay, Spec};

/// The depth of the perft `spec check` reports.
pub(crate) const PERFT_DEPTH: u32 = 3;

/// What `spec check` found.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// One line per rule set and per overlay, for people.
    pub lines: Vec<String>,
    /// Accepted, but worth a look.
    pub warnings: Vec<String>,
    /// Refused: the spec does not pass.
    pub errors: Vec<String>,
}

struct Compiled {
    id: String,
    base: Option<String>,
    perft: u64,
    movement: BTreeMap<String, serde_yaml::Value>,
}

fn movement_data(ed: &Edition) -> BTreeMap<String, serde_yaml::Value> {
    ed.clauses_with_prefix("movement.")
        .map(|c| (c.id.clone(), c.data.clone()))
        .collect()
}

fn compiled(ed: Edition, base: Option<String>) -> Result<Compiled, String> {
    let movement = movement_data(&ed);
    let rs = RuleSet::compile(ed).map_err(|e| e.to_string())?;
    let mut pos = rs.vm.start_position();
    let perft = crate::perft::perft(&mut pos, &rs.vm, PERFT_DEPTH);
    Ok(Compiled {
        id: rs.id().to_string(),
        base,
        perft,
        movement,
    })
}

/// Checks every edition and shipped overlay of `spec`, and `extra` (an overlay read from a
/// file) when given.
pub fn check(spec: &Spec, extra: Option<&Overlay>) -> CheckReport {
    let mut r = CheckReport::default();
    if spec.editions().is_empty() {
        r.errors
            .push("the spec holds no edition (no <edition>/edition.yaml)".into());
        return r;
    }
    for code in missing_words(spec.words()) {
        r.errors.push(format!(
            "{code}: an answer can carry this code, but spec/words.yaml gives it no words"
        ));
    }
    let mut done: Vec<Compiled> = Vec::new();
    for ed in spec.editions() {
        match compiled(ed.clone(), ed.derives_from.clone()) {
            Ok(c) => done.push(c),
            Err(e) => r.errors.push(format!("edition {}: {e}", ed.id)),
        }
    }
    let overlays: Vec<(&Overlay, bool)> = spec
        .overlays()
        .iter()
        .map(|o| (o, false))
        .chain(extra.map(|o| (o, true)))
        .collect();
    for (o, given) in overlays {
        let what = if given {
            format!("overlay {} ({})", o.overlay, o.file)
        } else {
            format!("overlay {}", o.overlay)
        };
        match spec
            .with_overlay(o)
            .map_err(|e| e.to_string())
            .and_then(|ed| compiled(ed, Some(o.edition.clone())))
        {
            Ok(c) => {
                r.lines.push(format!(
                    "{what}: {} change(s) to {}",
                    o.changes.len(),
                    o.edition
                ));
                done.push(c);
            }
            Err(e) => r.errors.push(format!("{what}: {e}")),
        }
    }
    for c in &done {
        r.lines.push(format!(
            "{}: perft(start, {PERFT_DEPTH}) = {}",
            c.id, c.perft
        ));
        let Some(base) = c
            .base
            .as_ref()
            .and_then(|b| done.iter().find(|d| &d.id == b))
        else {
            continue;
        };
        if c.perft != base.perft && c.movement == base.movement {
            r.warnings.push(format!(
                "{}: perft(start, {PERFT_DEPTH}) = {} differs from {}'s {}, while no movement.* clause differs (a board, pieces or check clause changed the moves)",
                c.id, c.perft, base.id, base.perft
            ));
        }
    }
    r
}

/// The codes (`group.code`) the answers can carry in a field of a group of
/// `spec/words.yaml` that have no words there.
pub(crate) fn missing_words(words: &crate::spec::Words) -> Vec<String> {
    use crate::arbiter::{data::Trigger, Decision, EVENT_KINDS};
    use crate::board::GameResult;
    let groups: [(&str, Vec<&str>); 13] = [
        (
            "result",
            GameResult::ALL
                .iter()
                .map(|r| r.name())
                .chain(["undecided"])
                .collect(),
        ),
        ("state", vec!["ongoing", "ended"]),
        (
            "position",
            crate::vm::Status::ALL.iter().map(|s| s.name()).collect(),
        ),
        ("how", Trigger::ALL.iter().map(|t| t.name()).collect()),
        ("decision", Decision::ALL.iter().map(|d| d.name()).collect()),
        (
            "verdict",
            crate::repetition::Verdict::ALL
                .iter()
                .map(|v| v.name())
                .collect(),
        ),
        ("judged", vec!["repetition", "shuffle", "none"]),
        (
            "side",
            crate::board::Side::BOTH.iter().map(|s| s.name()).collect(),
        ),
        (
            "by",
            [crate::arbiter::By::Board, crate::arbiter::By::Arbiter]
                .iter()
                .map(|b| b.name())
                .collect(),
        ),
        (
            "basis",
            crate::spec::ReadingBasis::ALL
                .iter()
                .map(|b| b.name())
                .collect(),
        ),
        ("event", EVENT_KINDS.to_vec()),
        (
            "chase",
            crate::repetition::ChaseKind::ALL
                .iter()
                .map(|k| k.name())
                .collect(),
        ),
        ("reason", crate::repetition::ruling::REASON_KEYS.to_vec()),
    ];
    groups
        .iter()
        .flat_map(|(g, codes)| codes.iter().map(move |c| (*g, *c)))
        .filter(|(g, c)| words.get(g, c).is_none())
        .map(|(g, c)| format!("{g}.{c}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code an answer can carry in a field of a group has its words, and no word is
    /// empty or without Chinese.
    #[test]
    fn every_code_has_its_words() {
        let w = crate::spec::Spec::builtin().unwrap().words().clone();
        assert_eq!(
            missing_words(&w),
            Vec::<String>::new(),
            "codes without words"
        );
        assert_eq!(w.problems(), Vec::<String>::new());
        // The check can fail: a spec without the file misses them all.
        assert!(missing_words(&crate::spec::Words::default()).len() > 50);
    }
}
