//! Editions and clauses as data: the loader for `spec/<edition>/`.
//!
//! The loader reads raw YAML into the private `raw` types (unknown fields rejected), then
//! validates: duplicate ids, derivations (`derives_from`), dangling source references.
//! The result is a [`Spec`]: every edition fully resolved, each clause knowing the file
//! and line it came from. The data of a clause stays a YAML value here; the VM
//! ([`crate::vm`]) gives it a typed meaning and reports errors against the same location.
//!
//! [`RuleRef`] is the clause id and article every rule domain cites in its answers.
//! [`Spec::domain_rank`] orders the rule domains as `spec/domains.yaml` lists them (the
//! diff reports' order of changes). The built-in spec is embedded in the binary
//! (`include_dir`); `--spec DIR` replaces it. Depends on `input` only.

mod overlay;
mod raw;
mod toc;
mod words;

pub use overlay::{merge_data, Overlay, UnknownRuleSet};
pub(crate) use toc::{parent_of, Toc, TocEntry};
pub use words::{Both, Words};

/// Where a rule came from, for answers: a clause's id and its article in the edition.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RuleRef {
    /// The clause id (`repetition.chase`).
    pub clause: String,
    /// The article it encodes in the edition (`24.3`), when it names one.
    pub article: Option<String>,
}

impl RuleRef {
    /// The reference to a clause.
    pub fn of(c: &Clause) -> RuleRef {
        RuleRef {
            clause: c.id.clone(),
            article: c.article.clone(),
        }
    }

    /// The numeric order of the (first) article (`"4.1.10, 22.1"` → `[4, 1, 10]`; none
    /// last): clauses that decide the same event apply in article order.
    pub(crate) fn article_order(&self) -> Vec<u32> {
        match &self.article {
            None => vec![u32::MAX],
            Some(a) => a
                .split(',')
                .next()
                .unwrap_or("")
                .trim()
                .split('.')
                .map(|p| p.trim().parse().unwrap_or(u32::MAX))
                .collect(),
        }
    }
}

#[cfg(test)]
mod rule_ref_tests {
    use super::RuleRef;

    #[test]
    fn articles_order_numerically() {
        let key = |a: Option<&str>| {
            RuleRef {
                clause: String::new(),
                article: a.map(str::to_string),
            }
            .article_order()
        };
        assert!(key(Some("4.1.9")) < key(Some("4.1.10")));
        assert!(key(Some("4.1.10, 22.1")) < key(Some("24.1")));
        assert!(key(Some("5.8")) < key(None));
    }
}

use std::collections::{BTreeMap, HashMap};

use serde_yaml::Value;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use include_dir::{include_dir, Dir};

static BUILTIN: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/spec");

shapes! {
    /// How sure we are of a clause, and where it was read.
    #[derive(PartialEq, Eq, serde::Serialize)]
    pub struct Provenance {
        /// How far the clause rests on the edition's text.
        pub status: ProvenanceStatus,
        /// Id of a source declared in some `edition.yaml`.
        pub(crate) source: String,
        /// Where in the source (article, section, page).
        pub r#ref: Option<String>,
        /// A note on the reading.
        pub(crate) note: Option<String>,
        /// The readings of the clause's switches (boolean fields of its `data` that a domain
        /// lets be switched off), by field name: what each rests on. A clause that states a
        /// switch must say here whether a text states it or only our reading of diagrams does.
        /// Inherited with the clause's data.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        pub readings: BTreeMap<String, Reading>,
    }

    /// What one reading (a switch of a clause's data) rests on.
    #[derive(PartialEq, Eq, serde::Serialize)]
    pub struct Reading {
        /// `text` when a sourced text states it, `inferred` when only diagrams we read do.
        pub basis: ReadingBasis,
        /// The article that states it, or the diagrams it was read from.
        pub r#ref: String,
        /// Where it was found: `text`, `ch8` (the 2020 book's chapter 8 图), `ch9` (its chapter
        /// 9 参考图), `axf` (the AXF diagrams and tests); the other half of the book's diagrams
        /// then measures whether it is general.
        pub found_on: FoundOn,
    }

    /// Whether a reading is stated by a text or read from diagrams.
    #[derive(Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ReadingBasis {
        /// A sourced text (an article, a quoted rule statement) states it.
        Text,
        /// No text states it: our reading of the diagrams it cites.
        Inferred,
    }
}

impl ReadingBasis {
    /// Both bases.
    pub const ALL: [ReadingBasis; 2] = [ReadingBasis::Text, ReadingBasis::Inferred];

    /// As written in the spec and in answers (`text`, `inferred`).
    pub fn name(self) -> &'static str {
        match self {
            ReadingBasis::Text => "text",
            ReadingBasis::Inferred => "inferred",
        }
    }
}

shapes! {
    /// Where a reading was found (issue 33's halves: a reading found on one half of the book's
    /// diagrams is measured on the other).
    #[derive(Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum FoundOn {
        /// In the text itself.
        Text,
        /// On chapter 8's diagrams (图) of the 2020 book.
        Ch8,
        /// On chapter 9's reference diagrams (参考图) of the 2020 book.
        Ch9,
        /// On the AXF diagrams and tests.
        Axf,
    }
}

impl FoundOn {
    /// As written in the spec.
    pub fn name(self) -> &'static str {
        match self {
            FoundOn::Text => "text",
            FoundOn::Ch8 => "ch8",
            FoundOn::Ch9 => "ch9",
            FoundOn::Axf => "axf",
        }
    }
}

/// The switches of a clause's `data` (the fields a reading names): boolean fields reached
/// through mappings only, outside `when` conditions (a special case's or a verdict's
/// conditions, and entries of lists, are the rule's own cases), with their values.
pub(crate) fn switches(data: &Value) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    collect_fields(data, &|v| v.as_bool(), &mut out);
    out
}

/// The choices of a clause's `data`: string fields reached through mappings only, outside
/// `when` conditions, with their values. A reading may name one (a choice between readings of
/// the rule, where a switch is a yes or no); switched off, the field is absent.
pub(crate) fn choices(data: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    collect_fields(data, &|v| v.as_str().map(str::to_string), &mut out);
    out
}

/// The fields of `data` whose value `leaf` takes (a switch's, a choice's), reached through
/// mappings only, outside `when` conditions, with the values it gives.
fn collect_fields<T>(data: &Value, leaf: &dyn Fn(&Value) -> Option<T>, out: &mut Vec<(String, T)>) {
    let m = match data {
        Value::Mapping(m) => m,
        Value::Tagged(t) => return collect_fields(&t.value, leaf, out),
        _ => return,
    };
    for (k, v) in m {
        match (k.as_str(), leaf(v)) {
            (Some("when"), _) => {}
            (Some(name), Some(x)) => out.push((name.to_string(), x)),
            _ => collect_fields(v, leaf, out),
        }
    }
}

/// `data` with every switch `name` off, and every choice `name` absent.
pub(crate) fn switched_off(data: &Value, name: &str) -> Value {
    match data {
        Value::Mapping(m) => Value::Mapping(
            m.iter()
                .filter(|(k, v)| !(k.as_str() == Some(name) && v.is_string()))
                .map(|(k, v)| match (k.as_str(), v) {
                    (Some("when"), _) => (k.clone(), v.clone()),
                    (Some(n), Value::Bool(_)) if n == name => (k.clone(), Value::Bool(false)),
                    _ => (k.clone(), switched_off(v, name)),
                })
                .collect(),
        ),
        Value::Tagged(t) => Value::Tagged(Box::new(serde_yaml::value::TaggedValue {
            tag: t.tag.clone(),
            value: switched_off(&t.value, name),
        })),
        other => other.clone(),
    }
}

shapes! {
    /// The certainty scale of `rules-digest.md` §0.
    #[derive(Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ProvenanceStatus {
        /// Read in the edition's own text (a seed).
        Verified,
        /// Read in a third-party reproduction that cites the edition.
        Secondary,
        /// Found only in third-party code or a single unsourced statement.
        Unverified,
        /// Reasoned here, not read anywhere.
        Inferred,
    }
}

impl ProvenanceStatus {
    /// Every status, surest first.
    pub const ALL: [ProvenanceStatus; 4] = [
        ProvenanceStatus::Verified,
        ProvenanceStatus::Secondary,
        ProvenanceStatus::Unverified,
        ProvenanceStatus::Inferred,
    ];
    /// The status as written in the spec (`verified` …).
    pub fn name(self) -> &'static str {
        match self {
            ProvenanceStatus::Verified => "verified",
            ProvenanceStatus::Secondary => "secondary",
            ProvenanceStatus::Unverified => "unverified",
            ProvenanceStatus::Inferred => "inferred",
        }
    }
}

shapes! {
    /// A source a clause may cite: one entry of `spec/sources.yaml`.
    #[derive(PartialEq, Eq, serde::Serialize)]
    pub struct Source {
        /// The label provenances cite (`seed-002`); written `source:` in the list, so that a
        /// source is never read as a clause id.
        #[serde(rename(deserialize = "source"))]
        pub id: String,
        /// What the source is.
        pub title: String,
        /// The rule sets whose facts it gives.
        pub editions: Vec<String>,
        /// Its author or publisher.
        pub by: String,
        /// How and where it was read.
        pub obtained: String,
        /// The articles or parts it covers.
        pub covers: String,
        /// How far it can be trusted, on the provenance scale.
        pub status: ProvenanceStatus,
        /// Anything else a reader should know.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
    }

    /// A difference of a derived edition from its base that no clause encodes: an article no
    /// program decides, or one whose text is known too little to encode, named so that the
    /// diff reports do not leave it out.
    #[derive(PartialEq, Eq, serde::Serialize)]
    pub struct UnencodedDifference {
        /// The articles concerned, in the base edition's numbering (`18.4`).
        pub articles: String,
        /// The difference in our own words, as the base edition has it.
        pub summary: String,
        /// The same in Chinese.
        pub summary_zh: String,
        /// Why no clause encodes it.
        pub why: String,
        /// Where it was read and how sure we are.
        pub provenance: Provenance,
    }

    /// A rule domain (`spec/domains.yaml`): the first word of clause ids, ranked most
    /// consequential first by its place in the list.
    #[derive(PartialEq, Eq)]
    pub struct Domain {
        /// The first word of the clause ids in it (`draw`).
        pub id: String,
        /// Its name in English with the Chinese term.
        pub name: String,
    }
}

/// The domain of a clause id: its first word (`draw` for `draw.natural_limit`).
pub fn domain_of(id: &str) -> &str {
    id.split('.').next().unwrap_or(id)
}

/// One rule fact of one edition.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    /// Stable id, the same in every edition (`movement.horse`).
    pub id: String,
    /// The article this clause encodes in this edition, if the edition has one.
    pub article: Option<String>,
    /// One line in our own words.
    pub(crate) summary: String,
    /// The same line in Chinese (`summary_zh`).
    pub(crate) summary_zh: String,
    /// How sure we are of it, and where it was read.
    pub provenance: Provenance,
    /// The typed data the rule domains interpret, as written.
    pub data: serde_yaml::Value,
    /// Set when the clause was taken over from a parent edition without being restated:
    /// its provenance is then the edition's `inherited_provenance`.
    pub inherited_from: Option<String>,
    /// The edition whose files hold this clause's `data`.
    pub data_from: String,
    /// Where the clause's `data` was written (file relative to the spec root, 1-based line).
    pub location: Location,
    /// Where this edition restates an inherited clause (its own article, summary, provenance).
    pub(crate) restated_at: Option<Location>,
    /// Where keys of `data` were written, when known (an overlay's change): errors about a
    /// field point at its line and column ([`Clause::at`]).
    pub(crate) fields: Vec<(String, Location)>,
}

/// A place in a spec file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Location {
    /// The file, relative to the spec root.
    pub file: String,
    /// The line, from 1; 0 for the file as a whole.
    pub line: usize,
    /// The column, from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    /// `FILE:LINE:COLUMN`, or `FILE` alone for the file as a whole (line 0).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.file)
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        }
    }
}

impl Location {
    /// The file as a whole (line 0).
    pub(crate) fn whole(file: impl Into<String>) -> Location {
        Location {
            file: file.into(),
            line: 0,
            column: 0,
        }
    }

    /// The start of `file` (line 1, column 1): where an error about the file as a whole is.
    pub(crate) fn start_of(file: impl Into<String>) -> Location {
        Location {
            file: file.into(),
            line: 1,
            column: 1,
        }
    }
}

/// A fully resolved edition.
#[derive(Clone, Debug)]
pub struct Edition {
    /// The edition's id (`cxa-2020`).
    pub id: String,
    /// Its name in the rulebook (《象棋竞赛规则》 2020).
    pub name: String,
    pub(crate) name_en: String,
    /// The year of the edition, when one is known (the AXF rule set states none here).
    pub(crate) year: Option<u16>,
    /// Who published it.
    pub publisher: String,
    /// The edition it derives from, restating only what differs.
    pub derives_from: Option<String>,
    /// The clause id prefixes the rule set encodes (`keeps` of its `edition.yaml`); `None`
    /// when it encodes every domain. A clause outside them is not part of the rule set.
    pub scope: Option<Vec<String>>,
    /// Differences from the base edition that no clause encodes (`unencoded_differences`).
    pub unencoded_differences: Vec<UnencodedDifference>,
    clauses: Vec<Clause>,
    index: HashMap<String, usize>,
    /// The edition's table of contents (`articles.yaml`), when the spec has one; not
    /// inherited by derived editions. An edition with an overlay keeps its base's.
    pub(crate) toc: Option<Toc>,
    /// The words of the answers' codes (`spec/words.yaml`), shared by every edition.
    pub(crate) words: std::sync::Arc<Words>,
}

impl Edition {
    /// The words of the answers' codes (`spec/words.yaml`).
    pub fn words(&self) -> &Words {
        &self.words
    }

    /// Clauses in id order.
    pub(crate) fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// The clause of this id, inherited or its own.
    pub fn clause(&self, id: &str) -> Option<&Clause> {
        self.index.get(id).map(|&i| &self.clauses[i])
    }

    /// This edition with the clause `id` replaced by `clause` (added when the edition has
    /// no such clause), or removed when `clause` is `None`. For experiments on rule sets
    /// (which clause makes an answer differ, `xqspec diff`); the id stays the same.
    pub(crate) fn with_clause(&self, id: &str, clause: Option<Clause>) -> Edition {
        let mut ed = self.clone();
        ed.clauses.retain(|c| c.id != id);
        if let Some(c) = clause {
            ed.clauses.push(c);
            ed.clauses.sort_by(|a, b| a.id.cmp(&b.id));
        }
        ed.index = ed
            .clauses
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        ed
    }

    /// Clauses whose id starts with `prefix` (e.g. `movement.`).
    pub fn clauses_with_prefix<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = &'a Clause> + 'a {
        self.clauses
            .iter()
            .filter(move |c| c.id.starts_with(prefix))
    }
}

impl Edition {
    /// An edition as readers see it: id, names, year, publisher, parent.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.id,
            "name": self.name,
            "name_en": self.name_en,
            "year": self.year,
            "publisher": self.publisher,
            "derives_from": self.derives_from,
        })
    }
}

impl Clause {
    /// The clause in one line, in our own words.
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// The clause in one line, in Chinese.
    pub fn summary_zh(&self) -> &str {
        &self.summary_zh
    }

    /// The one-line summary in both languages.
    pub fn summary_both(&self) -> Both {
        Both {
            en: self.summary.clone(),
            zh: self.summary_zh.clone(),
        }
    }

    /// Where the field `path` of the data was written (`rounds`, `periods[0].time`: the
    /// innermost key of the path whose place is known), else where the clause was.
    pub(crate) fn at(&self, path: &str) -> Location {
        path.split(['.', '['])
            .rev()
            .map(|k| k.trim_end_matches(']'))
            .find_map(|k| self.fields.iter().find(|(f, _)| f == k))
            .map_or_else(|| self.location.clone(), |(_, l)| l.clone())
    }
}

impl Spec {
    /// A clause as readers see it (`xqspec web`): id, article, summary, provenance with what
    /// its source is, where it was inherited from and where its data is written, its data.
    pub fn clause_json(&self, clause: &Clause) -> serde_json::Value {
        let p = &clause.provenance;
        let source = self.sources().find(|s| s.id == p.source);
        serde_json::json!({
            "id": clause.id,
            "article": clause.article,
            "summary": clause.summary,
            "summary_zh": clause.summary_zh,
            "provenance": {
                "status": p.status,
                "source": p.source,
                "source_what": source.map(|s| s.title.as_str()),
                "ref": p.r#ref,
                "note": p.note,
            },
            "inherited_from": clause.inherited_from,
            "data_from": clause.data_from,
            "written_at": format!("spec/{}:{}", clause.location.file, clause.location.line),
            "data": serde_json::to_value(&clause.data).unwrap_or(serde_json::Value::Null),
        })
    }
}

/// Every edition of a spec directory.
#[derive(Clone, Debug)]
pub struct Spec {
    editions: Vec<Edition>,
    /// Event overlays shipped in the spec's `overlays/` folder.
    overlays: Vec<Overlay>,
    /// `spec/sources.yaml`.
    sources: Vec<Source>,
    /// `spec/domains.yaml`.
    domains: Vec<Domain>,
    /// `spec/words.yaml`.
    words: std::sync::Arc<Words>,
}

/// One problem found while loading a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// Where in the spec.
    pub location: Location,
    /// The clause concerned, when there is one.
    pub clause: Option<String>,
    /// What is wrong, in words.
    pub message: String,
}

impl SpecError {
    /// An error at `location`, at clause `clause` when there is one.
    pub fn new(location: Location, clause: Option<&str>, message: impl Into<String>) -> SpecError {
        SpecError {
            location,
            clause: clause.map(str::to_string),
            message: message.into(),
        }
    }
}

impl From<crate::input::InputError> for SpecError {
    fn from(e: crate::input::InputError) -> SpecError {
        SpecError::new(
            Location {
                file: e.origin,
                line: e.line,
                column: e.column,
            },
            None,
            e.what,
        )
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.location.file.is_empty() {
            write!(f, "{}: ", self.location)?;
        }
        if let Some(c) = &self.clause {
            write!(f, "clause {c}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

/// All problems found while loading a spec; loading reports every one, not the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecErrors(pub Vec<SpecError>);

impl fmt::Display for SpecErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}

/// The text of a spec directory: `(path relative to the root, contents)`.
pub(crate) type SpecFiles = Vec<(String, String)>;

impl Spec {
    /// The spec embedded in this binary at build time (the repository's `spec/`).
    ///
    /// It is read once per process (the text cannot change under it); every call after the
    /// first gets a copy of that reading.
    pub fn builtin() -> Result<Spec, SpecErrors> {
        Spec::builtin_read().clone()
    }

    /// The one reading of the embedded spec in this process.
    pub(crate) fn builtin_read() -> &'static Result<Spec, SpecErrors> {
        static READ: OnceLock<Result<Spec, SpecErrors>> = OnceLock::new();
        READ.get_or_init(|| {
            let mut files = Vec::new();
            collect_embedded(&BUILTIN, &mut files);
            Spec::from_files(files)
        })
    }

    /// The files of the embedded spec, for tests that derive a modified spec from it.
    pub fn builtin_files() -> SpecFiles {
        let mut files = Vec::new();
        collect_embedded(&BUILTIN, &mut files);
        files.sort();
        files
    }

    /// The spec a command runs on: the folder `dir` when one is given (`--spec`), else the
    /// built-in one.
    pub fn load(dir: Option<&Path>) -> Result<Spec, SpecErrors> {
        match dir {
            Some(d) => Spec::load_dir(d),
            None => Spec::builtin(),
        }
    }

    /// Load a spec directory from disk.
    pub fn load_dir(root: &Path) -> Result<Spec, SpecErrors> {
        let mut files = Vec::new();
        let mut errors = Vec::new();
        collect_disk(root, root, &mut files, &mut errors);
        if errors.is_empty() && !files.iter().any(|(p, _)| p.ends_with("/edition.yaml")) {
            errors.push(SpecError::new(
                Location::whole(root.display().to_string()),
                None,
                "no edition here (a spec folder holds EDITION/edition.yaml and its topic files)",
            ));
        }
        if !errors.is_empty() {
            return Err(SpecErrors(errors));
        }
        Spec::from_files(files)
    }

    /// Load a spec from in-memory files (paths like `cxa-2020/movement.yaml`).
    pub fn from_files(mut files: SpecFiles) -> Result<Spec, SpecErrors> {
        files.sort();
        raw::resolve(files)
    }

    /// Every edition, in id order.
    pub fn editions(&self) -> &[Edition] {
        &self.editions
    }

    /// The edition of this id.
    pub fn edition(&self, id: &str) -> Option<&Edition> {
        self.editions.iter().find(|e| e.id == id)
    }

    /// The edition of this id, or the refusal every caller gives for an id it does not
    /// know: ``unknown edition `cxa-1066` (known: cxa-1999, cxa-2011, cxa-2020)``.
    pub fn edition_named(&self, id: &str) -> Result<&Edition, String> {
        self.edition(id).ok_or_else(|| {
            let known: Vec<&str> = self.editions.iter().map(|e| e.id.as_str()).collect();
            format!("unknown edition `{id}` (known: {})", known.join(", "))
        })
    }

    /// Every source of `spec/sources.yaml`, in its order.
    pub fn sources(&self) -> impl Iterator<Item = &Source> {
        self.sources.iter()
    }

    /// The source of this id.
    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.id == id)
    }

    /// The words of the answers' codes (`spec/words.yaml`).
    pub fn words(&self) -> &Words {
        &self.words
    }

    /// The rule domains of `spec/domains.yaml`, most consequential first.
    pub fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The rank of a clause id's domain (0 most consequential; unlisted domains last).
    pub fn domain_rank(&self, clause_id: &str) -> usize {
        let d = domain_of(clause_id);
        self.domains
            .iter()
            .position(|x| x.id == d)
            .unwrap_or(self.domains.len())
    }
}

fn collect_embedded(dir: &Dir<'static>, out: &mut SpecFiles) {
    for f in dir.files() {
        let p = f.path().to_string_lossy().replace('\\', "/");
        if p.ends_with(".yaml") {
            out.push((p, f.contents_utf8().unwrap_or_default().to_string()));
        }
    }
    for d in dir.dirs() {
        collect_embedded(d, out);
    }
}

fn collect_disk(root: &Path, dir: &Path, out: &mut SpecFiles, errors: &mut Vec<SpecError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(SpecError::new(
                Location::whole(dir.display().to_string()),
                None,
                format!("cannot read directory: {e}"),
            ));
            return;
        }
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect_disk(root, &p, out, errors);
        } else if p.extension().is_some_and(|e| e == "yaml") {
            let rel = p
                .strip_prefix(root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            match crate::input::read_file(&p) {
                Ok(text) => out.push((rel, text)),
                Err(e) => errors.push(e.into()),
            }
        }
    }
}

/// Counts for `xqspec spec check`: clauses per edition and per provenance status
/// (inherited clauses counted apart).
pub fn summary_rows(spec: &Spec) -> Vec<(String, usize, BTreeMap<String, usize>)> {
    spec.editions()
        .iter()
        .map(|e| {
            let mut by = BTreeMap::new();
            for c in e.clauses() {
                let key = if c.inherited_from.is_some() {
                    format!("{} (inherited)", c.provenance.status.name())
                } else {
                    c.provenance.status.name().to_string()
                };
                *by.entry(key).or_insert(0) += 1;
            }
            (e.id.clone(), e.clauses().len(), by)
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod switch_tests {
    use super::*;

    /// YAML text read as a value, for the tests of code that walks clause data.
    pub(crate) fn y(s: &str) -> Value {
        serde_yaml::from_str(s).unwrap()
    }

    #[test]
    fn switches_are_booleans_through_mappings_outside_conditions() {
        let out = switches(&y("{test: {wins_material: {takes_part: true, kinds: [a]}}, when: {answers_check: true}, patterns: [{same_target: true}], flight_counts: false}"));
        assert_eq!(
            out,
            [
                ("takes_part".to_string(), true),
                ("flight_counts".to_string(), false)
            ]
        );
        let off = switched_off(&y("{a: {b: true}, when: {b: true}}"), "b");
        assert_eq!(off, y("{a: {b: false}, when: {b: true}}"));
    }
}
