//! Readings (issue 33): the switches of the 棋例 clauses, what each rests on, and what a
//! ruling rests on.
//!
//! A *switch* is a boolean field of a `repetition.*` clause's data reached through mappings
//! only, outside `when` conditions (a special case's or a verdict's conditions, and a
//! pattern's list entries, are the rule's cases, not readings of it). A switch that is on is
//! a *reading* of the rule; so is a *choice*, a string field of the same kind that the
//! clause's provenance names among its readings (one of several readings of a rule, where a
//! switch is a yes or no; switched off, the field is absent); the clause's provenance says, per field, whether a sourced text
//! states it (`text`) or only our reading of diagrams does (`inferred`), and where it was
//! found. Fields of one name in several clauses of a rule set are one reading: switched off,
//! they go off together.
//!
//! Every inferred reading is compiled once more with it switched off (a *variant*). A
//! ruling then says what it rests on: `text` when no variant changes its verdict, otherwise
//! `inferred` with the readings whose variants do ([`Basis`]). A variant that differs from
//! the rules only in [`Part`]s, each switched off, says so ([`Variant::changes`]): under it a
//! ruling judges again only the moves those parts steered.
//!
//! Compile refuses a switch without a provenance entry. Invariant: a reading's name is its
//! field's name.

use std::collections::BTreeMap;

use crate::spec::{
    choices, switched_off, switches, Clause, Edition, Reading, ReadingBasis, SpecError,
};

/// One reading of a rule set's 棋例 clauses.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadingRule {
    /// The field's name (`flight_counts`), the same in every clause that has it.
    pub name: String,
    /// The clauses whose data switch it on, in id order.
    pub clauses: Vec<String>,
    /// What it rests on (the first clause's entry).
    pub reading: Reading,
    /// The edition whose files write the first clause's data (an edition that inherits the
    /// clause reads it as its parent wrote it).
    pub data_from: String,
}

/// What a verdict rests on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Basis {
    /// The inferred readings that, switched off alone, change the verdict; empty: the verdict
    /// is the text's.
    pub rests_on: Vec<String>,
}

impl Basis {
    /// `text` or `inferred`.
    pub fn name(&self) -> &'static str {
        if self.rests_on.is_empty() {
            ReadingBasis::Text.name()
        } else {
            ReadingBasis::Inferred.name()
        }
    }

    /// `basis` and `rests_on` into an answer object (PROTOCOL.md § ruling).
    pub fn insert_into(&self, m: &mut serde_json::Map<String, serde_json::Value>) {
        m.insert("basis".into(), self.name().into());
        m.insert("rests_on".into(), self.rests_on.clone().into());
    }

    /// In short, for a benchmark's line: `basis: text`, or `basis: inferred, rests on …`.
    pub fn caption(&self) -> String {
        if self.rests_on.is_empty() {
            "basis: text".into()
        } else {
            format!("basis: inferred, rests on {}", self.rests_on.join(", "))
        }
    }

    /// In words, for a caption or a table: `the rulebook's text`, or `our reading of the
    /// diagrams, resting on the readings …` (`spec/words.yaml`: `basis`, `reason.rests_on`).
    pub fn said(&self, words: &crate::spec::Words) -> crate::spec::Both {
        let mut b = words.word("basis", self.name());
        if !self.rests_on.is_empty() {
            b.push(&words.fill(
                "reason",
                "rests_on",
                &[(
                    "readings",
                    &crate::spec::Both::same(self.rests_on.join(", ")),
                )],
            ));
        }
        b
    }
}

/// The readings of `clauses` (the rule set's `repetition.*` clauses): every switch that is
/// on, with its entry in the clause's provenance. A switch on without an entry, and an entry
/// that names no switch of the clause, are errors at the clause.
pub(crate) fn readings(clauses: &[&Clause], errors: &mut Vec<SpecError>) -> Vec<ReadingRule> {
    let mut by_name: BTreeMap<String, ReadingRule> = BTreeMap::new();
    for c in clauses {
        let found = switches(&c.data);
        let chosen = choices(&c.data);
        let named_choices = chosen
            .iter()
            .filter(|(n, _)| c.provenance.readings.contains_key(n))
            .map(|(n, _)| (n.clone(), true));
        for (name, on) in found.iter().cloned().chain(named_choices) {
            if !on {
                continue;
            }
            match c.provenance.readings.get(&name) {
                None => errors.push(super::err(
                    c,
                    format!("the switch `{name}` is on, but the clause's provenance has no `readings` entry for it (say whether a text states it, basis: text, or only diagrams do, basis: inferred)"),
                )),
                Some(r) => {
                    let e = by_name.entry(name.clone()).or_insert_with(|| ReadingRule { name: name.clone(), clauses: Vec::new(), reading: r.clone(), data_from: c.data_from.clone() });
                    e.clauses.push(c.id.clone());
                }
            }
        }
        for name in c.provenance.readings.keys() {
            if !found.iter().any(|(n, _)| n == name) && !chosen.iter().any(|(n, _)| n == name) {
                errors.push(super::err(c, format!("provenance.readings names `{name}`, which is no switch or choice of the clause's data")));
            }
        }
    }
    by_name.into_values().collect()
}

/// `ed` with the reading `name` switched off in every `repetition.*` clause.
pub fn without(ed: &Edition, name: &str) -> Edition {
    let mut out = ed.clone();
    let ids: Vec<String> = ed
        .clauses_with_prefix("repetition.")
        .map(|c| c.id.clone())
        .collect();
    for id in ids {
        let mut c = out.clause(&id).expect("listed").clone();
        let data = switched_off(&c.data, name);
        if data != c.data {
            // A choice switched off is gone from the data, and its entry with it.
            if !switches(&data).iter().any(|(n, _)| n == name) {
                c.provenance.readings.remove(name);
            }
            out = out.with_clause(&id, Some(Clause { data, ..c }));
        }
    }
    out
}

/// A reading switched off: the rules compiled without it, and what in them it changes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Variant {
    /// The reading's name.
    pub(crate) name: String,
    /// The rule set's repetition rules with the reading switched off.
    pub(crate) rules: super::RepetitionRules,
    /// The [`Part`]s (bits) in which these rules differ from the rule set's, where they differ
    /// in nothing else ([`changed_parts`]); `None` where they do.
    pub(crate) changes: Option<u8>,
}

/// A part of the compiled 棋例 rules that a judgement records wherever its value steers it
/// otherwise than the part switched off would (`Analyst::consult`; off: the reading absent
/// or false, as a variant has it). Where a variant differs from its rules in such parts
/// alone, each switched off, a move whose classification they did not steer is classed
/// under the variant as under the rules, and a cycle whose judgement they did not steer has
/// the rules' verdict (`ruling::judged`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// How newness is judged (`repetition.chase_to_chase`'s data: `parried`).
    Newness,
    /// Whether a chase test counts a check's own chases (its `with_checks`).
    CheckChases,
}

impl Part {
    /// Every part.
    const ALL: [Part; 2] = [Part::Newness, Part::CheckChases];

    /// The part's bit in a set of parts.
    pub(crate) fn bit(self) -> u8 {
        1 << self as u8
    }

    /// Whether this part of `r` is switched off (no value: the way a variant has it).
    fn off(self, r: &super::RepetitionRules) -> bool {
        match self {
            Part::Newness => r.newness.parried.is_none(),
            Part::CheckChases => !r.classes.iter().any(|c| {
                matches!(
                    c.test,
                    super::Test::WinsMaterial {
                        with_checks: true,
                        ..
                    }
                )
            }),
        }
    }

    /// `to` with this part as `from` has it.
    fn copy(self, from: &super::RepetitionRules, to: &mut super::RepetitionRules) {
        match self {
            Part::Newness => to.newness = from.newness.clone(),
            Part::CheckChases => {
                for (t, f) in to.classes.iter_mut().zip(&from.classes) {
                    if let (
                        super::Test::WinsMaterial { with_checks: t, .. },
                        super::Test::WinsMaterial { with_checks: f, .. },
                    ) = (&mut t.test, &f.test)
                    {
                        *t = *f;
                    }
                }
            }
        }
    }
}

/// The [`Part`]s (bits) in which `variant` differs from `rules`, each switched off in it,
/// where it differs in nothing else; `None` where it does. Compared field by field (a derived
/// `PartialEq`), the readings and variants left out: those of a variant are none.
pub(crate) fn changed_parts(
    rules: &super::RepetitionRules,
    variant: &super::RepetitionRules,
) -> Option<u8> {
    let bare = |r: &super::RepetitionRules| super::RepetitionRules {
        readings: Vec::new(),
        variants: Vec::new(),
        ..r.clone()
    };
    let mut like = bare(variant);
    let mut parts = 0;
    for p in Part::ALL {
        let before = like.clone();
        p.copy(rules, &mut like);
        if like != before {
            if !p.off(variant) {
                return None;
            }
            parts |= p.bit();
        }
    }
    (like == bare(rules)).then_some(parts)
}
