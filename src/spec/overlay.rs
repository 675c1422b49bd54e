//! Event overlays (补充规定): an event's supplementary rules as data that overrides the
//! data of an edition's clauses.
//!
//! An overlay is the same kind of thing as a derived edition (data that overrides data),
//! with a stricter contract: it names one edition, may only change the `data` of clauses
//! that edition has, and may not change their shape. Its changes are merged into the
//! clause data key by key: a mapping in the overlay changes only the keys it names, every
//! other value (scalar or list) replaces the old one, which must be of the same kind.
//!
//! ```yaml
//! overlay: provincial-2012-open          # equals the file name without .yaml
//! name: "2012 provincial amateur open: supplementary rules"
//! edition: cxa-2011
//! provenance: {status: verified, source: digest, ref: "§10"}
//! changes:
//!   - clause: draw.natural_limit
//!     data: {rounds: 40, checks_counted: 8}
//! ```
//!
//! Applied with [`Spec::with_overlay`], an overlay gives an [`Edition`] whose id is
//! `EDITION+OVERLAY`, usable everywhere an edition is.

use std::fmt;
use std::path::Path;

use serde::Serialize;

use super::{Edition, Location, Provenance, Spec, SpecError, SpecErrors, UnencodedDifference};

shapes! {
    /// One change of an overlay: new data for one clause.
    #[derive(PartialEq, Serialize)]
    pub struct OverlayChange {
        /// The clause id (`draw.natural_limit`).
        pub clause: String,
        /// The keys and values that change; merged into the clause's data.
        pub data: serde_yaml::Value,
        /// Why, in the event's terms (optional, for reports).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) note: Option<String>,
        /// Where this change was read, when not where the overlay's other terms were (a term of
        /// another page, or one the event states only in effect): replaces the overlay's
        /// provenance for this clause.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub(crate) provenance: Option<Provenance>,
    }

    /// An event's supplementary rules as clause-data changes to one edition.
    #[derive(PartialEq, Serialize)]
    pub struct Overlay {
        /// Stable id, lower-case words and hyphens.
        pub overlay: String,
        /// What the event is, one line.
        pub name: String,
        /// The edition it applies to.
        pub edition: String,
        /// How sure we are of the changes and where they were read.
        pub(crate) provenance: Provenance,
        pub(crate) changes: Vec<OverlayChange>,
        /// The event's terms that no clause encodes (a procedure the rules' data cannot say),
        /// each with why: the diff reports name them beside the changes.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub(crate) unencoded_differences: Vec<UnencodedDifference>,
        /// Per change, where each key of its data was written (name, place).
        #[serde(skip)]
        pub(crate) fields: Vec<Vec<(String, Location)>>,
        /// Where each change was written (file, line of `- clause:`), filled by [`Overlay::parse`].
        #[serde(skip)]
        pub(crate) locations: Vec<Location>,
        /// File the overlay was read from.
        #[serde(skip)]
        pub(crate) file: String,
    }
}

impl fmt::Display for Overlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.overlay, self.name)
    }
}

impl Overlay {
    /// Reads an overlay from YAML text; errors carry `file`, line and column.
    pub fn parse(file: &str, text: &str) -> Result<Overlay, SpecErrors> {
        let mut o: Overlay = super::raw::read(file, text).map_err(|mut e| {
            e.message = format!("overlay: {}", e.message);
            SpecErrors(vec![e])
        })?;
        o.file = file.to_string();
        let mut locs = super::raw::entry_locations(file, text, "clause");
        if locs.len() != o.changes.len() {
            locs = vec![
                Location {
                    file: file.into(),
                    line: 1,
                    column: 1
                };
                o.changes.len()
            ];
        }
        o.fields = data_keys(file, text, &locs);
        o.locations = locs;
        let stem = Path::new(file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("");
        let mut errors = Vec::new();
        let at1 = Location {
            file: file.into(),
            line: 1,
            column: 1,
        };
        if !valid_overlay_id(&o.overlay) {
            errors.push(SpecError::new(
                at1.clone(),
                None,
                format!(
                    "overlay id `{}` is not lower-case words joined by hyphens",
                    o.overlay
                ),
            ));
        }
        if !stem.is_empty() && file.ends_with(".yaml") && stem != o.overlay {
            errors.push(SpecError::new(
                at1.clone(),
                None,
                format!(
                    "overlay id `{}` differs from its file name `{stem}.yaml`",
                    o.overlay
                ),
            ));
        }
        if o.changes.is_empty() {
            errors.push(SpecError::new(
                at1,
                None,
                "an overlay changes at least one clause",
            ));
        }
        if errors.is_empty() {
            Ok(o)
        } else {
            Err(SpecErrors(errors))
        }
    }

    /// Reads an overlay file from disk.
    pub fn load(path: &Path) -> Result<Overlay, SpecErrors> {
        let text = crate::input::read_file(path).map_err(|mut e| {
            e.what = format!("overlay: {}", e.what);
            SpecErrors(vec![e.into()])
        })?;
        Overlay::parse(&path.display().to_string(), &text)
    }

    /// Every source the overlay cites: its provenance's, its changes' own, its unencoded
    /// terms'.
    pub(crate) fn cites(&self) -> impl Iterator<Item = &str> {
        std::iter::once(&self.provenance)
            .chain(self.changes.iter().filter_map(|c| c.provenance.as_ref()))
            .chain(self.unencoded_differences.iter().map(|u| &u.provenance))
            .map(|p| p.source.as_str())
    }

    /// The id of the rule set the overlay makes: `EDITION+OVERLAY`.
    pub fn ruleset_id(&self) -> String {
        format!("{}+{}", self.edition, self.overlay)
    }
}

/// Where the keys of each change's `data` were written: in the lines from its `- clause:`
/// to the next, every `key:` after `data:` and indented deeper than it (or on its line).
fn data_keys(file: &str, text: &str, changes: &[Location]) -> Vec<Vec<(String, Location)>> {
    let lines: Vec<&str> = text.lines().collect();
    changes
        .iter()
        .enumerate()
        .map(|(i, at)| {
            let end = changes.get(i + 1).map_or(lines.len(), |n| n.line - 1);
            let mut out: Vec<(String, Location)> = Vec::new();
            let mut data_indent: Option<usize> = None;
            for (n, line) in lines
                .iter()
                .enumerate()
                .take(end)
                .skip(at.line.saturating_sub(1))
            {
                let indent = line.len() - line.trim_start().len();
                let (from, scan) = match data_indent {
                    None => match line.find("data:") {
                        Some(p) if line[..p].trim_matches([' ', '-']).is_empty() => {
                            data_indent = Some(p);
                            (p + 5, true)
                        }
                        _ => (0, false),
                    },
                    Some(d) if indent > d || line.trim().is_empty() => (0, true),
                    Some(_) => break,
                };
                if !scan {
                    continue;
                }
                for (col, key) in keys_in(&line[from..]) {
                    if !out.iter().any(|(k, _)| k == key) {
                        out.push((
                            key.to_string(),
                            Location {
                                file: file.into(),
                                line: n + 1,
                                column: from + col + 1,
                            },
                        ));
                    }
                }
            }
            out
        })
        .collect()
}

/// The mapping keys written on one line of YAML (`{rounds: 40, checks_counted: 8}`, `- {time:
/// 30m}`, `increment: 20s`), with their byte offsets; text in quotes and after `#` is skipped.
fn keys_in(line: &str) -> Vec<(usize, &str)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut quote: Option<u8> = None;
    let mut start: Option<usize> = None;
    for (i, &c) in b.iter().enumerate() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => {
                quote = Some(c);
                start = None;
            }
            b'#' if i == 0 || b[i - 1] == b' ' => break,
            b':' => {
                if let Some(s) = start.take() {
                    if b.get(i + 1).is_none_or(|&n| n == b' ') {
                        out.push((s, &line[s..i]));
                    }
                }
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 => {
                if start.is_none() {
                    start = Some(i);
                }
            }
            _ => start = None,
        }
    }
    out
}

fn valid_overlay_id(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// What kind of YAML value this is, for messages.
fn kind_of(v: &serde_yaml::Value) -> &'static str {
    use serde_yaml::Value::*;
    match v {
        Null => "null",
        Bool(_) => "a boolean",
        Number(_) => "a number",
        String(_) => "a string",
        Sequence(_) => "a list",
        Mapping(_) => "a mapping",
        Tagged(_) => "a tagged value",
    }
}

/// Whether `new` has the shape of `old`: the same kind; a mapping's keys are a subset of
/// the old keys with compatible values; a list's items each fit one of the old items.
fn fits(old: &serde_yaml::Value, new: &serde_yaml::Value) -> bool {
    use serde_yaml::Value::*;
    match (old, new) {
        (Null, _) => true,
        (Mapping(a), Mapping(b)) => b.iter().all(|(k, v)| a.get(k).is_some_and(|o| fits(o, v))),
        (Sequence(a), Sequence(b)) => {
            a.is_empty() || b.iter().all(|n| a.iter().any(|o| fits(o, n)))
        }
        (Number(_), Number(_)) | (String(_), String(_)) | (Bool(_), Bool(_)) => true,
        _ => false,
    }
}

/// Where a list's new items do not have the shape of the old ones: the first item that
/// fits none, and in it the first key no old item has, or its kind.
fn misfit(old: &[serde_yaml::Value], new: &[serde_yaml::Value], path: &str) -> String {
    use serde_yaml::Value::*;
    let Some((i, item)) = new
        .iter()
        .enumerate()
        .find(|(_, n)| !old.iter().any(|o| fits(o, n)))
    else {
        return format!("`{path}`: the new list's items do not have the shape of the old ones");
    };
    let here = format!("{path}[{i}]");
    let keys = |v: &serde_yaml::Value| -> Vec<std::string::String> {
        match v {
            Mapping(m) => m
                .keys()
                .map(|k| k.as_str().map_or_else(|| format!("{k:?}"), str::to_string))
                .collect(),
            _ => Vec::new(),
        }
    };
    let known: Vec<std::string::String> = old.iter().flat_map(keys).collect();
    if let Mapping(m) = item {
        if let Some(k) = m
            .keys()
            .map(|k| k.as_str().map_or_else(|| format!("{k:?}"), str::to_string))
            .find(|k| !known.contains(k))
        {
            return format!(
                "`{here}.{k}` is not in the shape of the list's items (they have {})",
                known.join(", ")
            );
        }
        return format!("`{here}`: its values do not have the shape of the list's items");
    }
    format!(
        "`{here}` is {}, the list's items are {}",
        kind_of(item),
        old.first().map_or("of no kind", kind_of)
    )
}

/// Merges `patch` into `base` (see the module doc). `path` names the place for errors.
pub fn merge_data(
    base: &serde_yaml::Value,
    patch: &serde_yaml::Value,
    path: &str,
) -> Result<serde_yaml::Value, (String, String)> {
    use serde_yaml::Value::*;
    match (base, patch) {
        (Mapping(b), Mapping(p)) => {
            let mut out = b.clone();
            for (k, pv) in p {
                let key: std::string::String = k
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{k:?}"));
                let here = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                let Some(bv) = b.get(k) else {
                    let known: Vec<std::string::String> = b
                        .keys()
                        .filter_map(|k| k.as_str().map(str::to_string))
                        .collect();
                    return Err((
                        here.clone(),
                        format!(
                            "`{here}` is not in the clause's data (it has {})",
                            known.join(", ")
                        ),
                    ));
                };
                out.insert(k.clone(), merge_data(bv, pv, &here)?);
            }
            Ok(Mapping(out))
        }
        (Sequence(_), Sequence(_)) if fits(base, patch) => Ok(patch.clone()),
        (Sequence(old), Sequence(new)) => Err((path.to_string(), misfit(old, new, path))),
        _ if fits(base, patch) => Ok(patch.clone()),
        _ => Err((
            path.to_string(),
            format!(
                "`{}` changes shape: it is {} in the edition, the overlay gives {}",
                if path.is_empty() { "data" } else { path },
                kind_of(base),
                kind_of(patch)
            ),
        )),
    }
}

/// Change `i` of an overlay applied to its clause: the clause now placed at the overlay's
/// line `loc`, its data merged with the change's, its provenance the change's own (else the
/// overlay's, with the change's note) and its data from the overlay's rule set.
fn apply_change(
    clause: &mut super::Clause,
    overlay: &Overlay,
    i: usize,
    ch: &OverlayChange,
    loc: Location,
    errors: &mut Vec<SpecError>,
) {
    clause.location = loc.clone();
    clause.fields = overlay.fields.get(i).cloned().unwrap_or_default();
    match merge_data(&clause.data, &ch.data, "") {
        Ok(d) => {
            clause.data = d;
            let own = ch.provenance.as_ref();
            clause.provenance = own.unwrap_or(&overlay.provenance).clone();
            if let Some(n) = ch
                .note
                .as_ref()
                .filter(|_| own.is_none_or(|p| p.note.is_none()))
            {
                clause.provenance.note = Some(n.clone());
            }
            clause.inherited_from = None;
            clause.data_from = overlay.ruleset_id();
            clause.restated_at = Some(loc);
        }
        Err((path, m)) => errors.push(SpecError::new(clause.at(&path), Some(&ch.clause), m)),
    }
}

impl Spec {
    /// The edition `overlay.edition` with the overlay's changes applied: a new edition whose
    /// id is `EDITION+OVERLAY`. Every problem is reported, each at the overlay's line.
    pub fn with_overlay(&self, overlay: &Overlay) -> Result<Edition, SpecErrors> {
        let file_loc = Location {
            file: overlay.file.clone(),
            line: 1,
            column: 1,
        };
        let Some(base) = self.edition(&overlay.edition) else {
            let known: Vec<&str> = self.editions().iter().map(|e| e.id.as_str()).collect();
            return Err(SpecErrors(vec![SpecError::new(
                file_loc,
                None,
                format!(
                    "overlay `{}` names unknown edition `{}` (known: {})",
                    overlay.overlay,
                    overlay.edition,
                    known.join(", ")
                ),
            )]));
        };
        let mut errors = Vec::new();
        self.check_cited(&overlay.provenance, &file_loc, &mut errors);
        for u in &overlay.unencoded_differences {
            self.check_cited(&u.provenance, &file_loc, &mut errors);
            super::raw::check_summary_zh(
                &u.summary_zh,
                &file_loc,
                &format!("unencoded difference {}", u.articles),
                &mut errors,
            );
        }
        let mut ed = base.clone();
        ed.id = overlay.ruleset_id();
        ed.name = format!("{}（{}）", base.name, overlay.name);
        ed.name_en = format!("{} with the overlay {}", base.name_en, overlay.overlay);
        ed.derives_from = Some(base.id.clone());
        // The base's differences from its own base are not the overlay's; the event's terms
        // no clause encodes are.
        ed.unencoded_differences = overlay.unencoded_differences.clone();
        let mut seen = std::collections::BTreeSet::new();
        for (i, ch) in overlay.changes.iter().enumerate() {
            let loc = overlay
                .locations
                .get(i)
                .cloned()
                .unwrap_or_else(|| file_loc.clone());
            if !seen.insert(ch.clause.as_str()) {
                errors.push(SpecError::new(
                    loc,
                    Some(&ch.clause),
                    "changed twice in one overlay",
                ));
                continue;
            }
            let Some(idx) = ed.index.get(&ch.clause).copied() else {
                errors.push(SpecError::new(
                    loc,
                    Some(&ch.clause),
                    format!(
                        "edition `{}` has no such clause; an overlay only changes existing clauses",
                        base.id
                    ),
                ));
                continue;
            };
            if let Some(p) = &ch.provenance {
                self.check_cited(p, &loc, &mut errors);
            }
            apply_change(&mut ed.clauses[idx], overlay, i, ch, loc, &mut errors);
        }
        if errors.is_empty() {
            Ok(ed)
        } else {
            Err(SpecErrors(errors))
        }
    }

    /// Whether provenance `p` cites a source `spec/sources.yaml` lists (else an error at
    /// `at`).
    fn check_cited(&self, p: &Provenance, at: &Location, errors: &mut Vec<SpecError>) {
        if !self.sources().any(|s| s.id == p.source) {
            errors.push(SpecError::new(
                at.clone(),
                None,
                format!(
                    "provenance cites source `{}`, which spec/sources.yaml does not list",
                    p.source
                ),
            ));
        }
    }

    /// The overlays shipped in `spec/overlays/` (or the `overlays/` folder of a spec
    /// directory), by id. A file that does not parse is an error.
    pub fn overlays(&self) -> &[Overlay] {
        &self.overlays
    }

    /// A shipped overlay by id.
    pub fn overlay(&self, id: &str) -> Option<&Overlay> {
        self.overlays.iter().find(|o| o.overlay == id)
    }

    /// A rule set by id: an edition (`cxa-2020`) or an edition with a shipped overlay
    /// (`cxa-2011+provincial-2012-open`).
    pub fn ruleset(&self, id: &str) -> Result<Edition, SpecErrors> {
        if let Some(e) = self.edition(id) {
            return Ok(e.clone());
        }
        match self.overlays.iter().find(|o| o.ruleset_id() == id) {
            Some(o) => self.with_overlay(o),
            None => Err(SpecErrors(vec![self.unknown_ruleset(id).into()])),
        }
    }

    /// Every rule-set id of the spec: the editions, then the editions with their shipped overlays.
    pub fn ruleset_ids(&self) -> Vec<String> {
        self.editions()
            .iter()
            .map(|e| e.id.clone())
            .chain(self.overlays.iter().map(Overlay::ruleset_id))
            .collect()
    }

    /// The error for `id` when no rule set of the spec has it .
    pub(crate) fn unknown_ruleset(&self, id: &str) -> UnknownRuleSet {
        UnknownRuleSet {
            id: id.to_string(),
            known: self.ruleset_ids(),
        }
    }

    /// Whether `id` names a rule set of the spec.
    pub(crate) fn knows_ruleset(&self, id: &str) -> bool {
        self.ruleset_ids().iter().any(|k| k == id)
    }
}

/// A rule-set id that names no edition of the spec and no edition with a shipped overlay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleSet {
    /// The id asked for.
    pub id: String,
    /// The ids the spec knows (`Spec::ruleset_ids`).
    pub known: Vec<String>,
}

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set `{}` (known: {})",
            self.id,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl From<UnknownRuleSet> for SpecError {
    fn from(u: UnknownRuleSet) -> SpecError {
        SpecError::new(Location::default(), None, u.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::switch_tests::y;

    #[test]
    fn merges_named_keys_and_keeps_the_rest() {
        let base = y("{rounds: 60, checks_counted: 10, reducible: true}");
        let got = merge_data(&base, &y("{rounds: 40, checks_counted: 8}"), "").unwrap();
        assert_eq!(got, y("{rounds: 40, checks_counted: 8, reducible: true}"));
    }

    #[test]
    fn refuses_new_keys_and_changed_shapes() {
        let base = y("{rounds: 60, periods: [{minutes: 90, moves: 40}]}");
        assert!(merge_data(&base, &y("{round: 40}"), "")
            .unwrap_err()
            .1
            .contains("`round` is not in"));
        assert!(merge_data(&base, &y("{rounds: forty}"), "")
            .unwrap_err()
            .1
            .contains("changes shape"));
        assert!(merge_data(&base, &y("{periods: [{minutes: 60}]}"), "").is_ok());
        assert!(merge_data(&base, &y("{periods: [{seconds: 60}]}"), "").is_err());
        assert!(merge_data(&base, &y("{periods: 3}"), "").is_err());
    }

    #[test]
    fn parse_locates_changes_and_checks_the_id() {
        let text = "overlay: x-1\nname: n\nedition: cxa-2020\nprovenance: {status: verified, source: digest}\nchanges:\n  - clause: a.b\n    data: {k: 1}\n";
        let o = Overlay::parse("overlays/x-1.yaml", text).unwrap();
        assert_eq!(o.locations[0].line, 6);
        assert_eq!(o.ruleset_id(), "cxa-2020+x-1");
        let e = Overlay::parse("overlays/other.yaml", text).unwrap_err();
        assert!(e.to_string().contains("differs from its file name"), "{e}");
        let e = Overlay::parse("o.yaml", "overlay: x\nname: n\n").unwrap_err();
        assert!(e.0[0].location.line > 0, "{e}");
    }

    #[test]
    fn data_keys_are_located_in_flow_and_block_mappings() {
        let text = "overlay: x-1\nname: n\nedition: cxa-2020\nprovenance: {status: verified, source: digest}\nchanges:\n  - clause: a.b\n    data: {k: 1, \"q: r\": 2, m: 3}\n    note: \"n: o\"\n  - clause: c.d\n    data:\n      periods:\n        - {time: 20m}  # a: comment\n    note: x\n";
        let o = Overlay::parse("overlays/x-1.yaml", text).unwrap();
        let at = |i: usize, k: &str| {
            o.fields[i]
                .iter()
                .find(|(f, _)| f == k)
                .map(|(_, l)| (l.line, l.column))
        };
        assert_eq!(at(0, "k"), Some((7, 12)));
        assert_eq!(at(0, "m"), Some((7, 29)));
        // Text in quotes, a comment and the keys after `data:` are no keys of the data.
        for (i, k) in [(0, "q"), (0, "note"), (0, "n"), (1, "a"), (1, "note")] {
            assert_eq!(at(i, k), None, "{k}");
        }
        assert_eq!(at(1, "periods"), Some((11, 7)));
        assert_eq!(at(1, "time"), Some((12, 12)));
    }
}
