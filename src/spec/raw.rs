//! Raw YAML shapes of `spec/` and their resolution into [`Spec`].

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

use super::{
    Clause, Edition, Location, Provenance, Source, Spec, SpecError, SpecErrors, SpecFiles,
};

shapes! {
    struct RawEdition {
        id: String,
        name: String,
        name_en: String,
        year: Option<u16>,
        publisher: String,
        derives_from: Option<String>,
        inherited_provenance: Option<Provenance>,
        #[serde(default)]
        removes: Vec<String>,
        /// Only inherited clauses whose id starts with one of these prefixes are kept (a rule
        /// set that takes, say, only the movement rules of its parent).
        keeps: Option<Vec<String>>,
        /// Differences from the base edition that no clause encodes (not decidable by a
        /// program, or too little of the text known), so that the diff reports still name them.
        #[serde(default)]
        unencoded_differences: Vec<super::UnencodedDifference>,
    }

    /// `spec/sources.yaml`: the one list of sources.
    struct RawSources {
        sources: Vec<Source>,
    }

    /// `spec/domains.yaml`: the rule domains, most consequential first.
    struct RawDomains {
        domains: Vec<super::Domain>,
    }
}

/// The file at the spec's root that lists every source.
pub(super) const SOURCES_FILE: &str = "sources.yaml";
/// The file at the spec's root that lists the rule domains.
pub(super) const DOMAINS_FILE: &str = "domains.yaml";
/// The file at the spec's root that gives the answers' codes their words.
pub(super) const WORDS_FILE: &str = "words.yaml";

shapes! {
    struct RawClauseFile {
        clauses: Vec<RawClause>,
    }

    /// A clause as written. In a base edition every field but `article` is required; in a
    /// derived edition an entry with an inherited id gives only the fields it changes.
    struct RawClause {
        id: String,
        #[serde(default, deserialize_with = "present")]
        article: Option<Option<String>>,
        summary: Option<String>,
        summary_zh: Option<String>,
        provenance: Option<Provenance>,
        data: Option<serde_yaml::Value>,
    }
}

/// Distinguish `article: null` (the edition has no such article) from an absent field.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

struct EditionDraft {
    raw: RawEdition,
    file: String,
    clauses: Vec<(RawClause, Location)>,
}

/// A YAML file of the spec read through the reading layer (`crate::input`).
pub(super) fn read<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, SpecError> {
    let blank = |l: &str| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "---" || t == "..."
    };
    if text.lines().all(blank) {
        return Err(SpecError::new(
            Location::whole(file),
            None,
            "the file is empty: it holds no YAML document",
        ));
    }
    crate::input::yaml(text, &crate::input::Origin::named(file)).map_err(SpecError::from)
}

/// Lines and columns of the list entries of a YAML file that open with `- <key>:` (`- id:`
/// in a clause file, `- clause:` in an overlay), in order; the column is the key's.
pub(crate) fn entry_locations(file: &str, text: &str, key: &str) -> Vec<Location> {
    text.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let t = l.trim_start();
            let entry = t.strip_prefix("- ")?.strip_prefix(key)?.starts_with(':');
            entry.then(|| Location {
                file: file.to_string(),
                line: i + 1,
                column: l.len() - t.len() + 3,
            })
        })
        .collect()
}

/// The spec's files sorted by their job, as read so far: the edition drafts, the clause and
/// overlay files still to read, the tables of contents, the root files' contents.
#[derive(Default)]
struct SortedFiles {
    drafts: BTreeMap<String, EditionDraft>,
    clause_files: Vec<(String, String, String)>, // (dir, file, text)
    overlay_files: Vec<(String, String)>,
    /// Tables of contents (`articles.yaml`), by edition folder.
    tocs: BTreeMap<String, super::Toc>,
    /// Editions with a file that could not be read: their children are not resolved, so
    /// that one typo is reported once rather than as every inherited clause gone missing.
    broken: HashSet<String>,
    sources_file: Option<(String, String)>,
    domains: Vec<super::Domain>,
    words: super::Words,
}

impl SortedFiles {
    /// Every file to its job: root files read, edition folders' files sorted, a file
    /// anywhere else refused.
    fn sort(files: &SpecFiles, errors: &mut Vec<SpecError>) -> SortedFiles {
        let mut sorted = SortedFiles::default();
        for (path, text) in files {
            let Some((dir, name)) = path.rsplit_once('/') else {
                sorted.root_file(path, text, errors);
                continue;
            };
            if dir == "overlays" {
                sorted.overlay_files.push((path.clone(), text.clone()));
                continue;
            }
            if dir.contains('/') {
                errors.push(SpecError::new(
                    Location::whole(path.clone()),
                    None,
                    "spec files live directly in an edition folder (spec/<edition>/<topic>.yaml)",
                ));
                continue;
            }
            sorted.edition_file(dir, name, path, text, errors);
        }
        sorted
    }

    /// A file at the spec's root: the list of sources (kept to declare later), the list of
    /// domains, the words; nothing else.
    fn root_file(&mut self, path: &str, text: &str, errors: &mut Vec<SpecError>) {
        if path == SOURCES_FILE {
            self.sources_file = Some((path.to_string(), text.to_string()));
        } else if path == DOMAINS_FILE {
            match read::<RawDomains>(path, text) {
                Ok(d) => self.domains = d.domains,
                Err(e) => errors.push(e),
            }
        } else if path == WORDS_FILE {
            match read::<super::Words>(path, text) {
                Ok(w) => {
                    for p in w.problems() {
                        errors.push(SpecError::new(Location::whole(path), None, p));
                    }
                    self.words = w;
                }
                Err(e) => errors.push(e),
            }
        } else {
            errors.push(SpecError::new(
                Location { file: path.to_string(), ..Default::default() },
                None,
                format!("the spec's root holds only {SOURCES_FILE}, {DOMAINS_FILE} and {WORDS_FILE}; edition files live in spec/<edition>/"),
            ));
        }
    }

    /// A file of edition folder `dir`: its table of contents, its `edition.yaml` (the id
    /// must be the folder's; a file that does not read marks the edition broken), or a
    /// clause file kept to read once every edition is known.
    fn edition_file(
        &mut self,
        dir: &str,
        name: &str,
        path: &str,
        text: &str,
        errors: &mut Vec<SpecError>,
    ) {
        if name == "articles.yaml" {
            match super::toc::parse(path, text) {
                Ok(t) => {
                    self.tocs.insert(dir.to_string(), t);
                }
                Err(e) => errors.extend(e),
            }
        } else if name == "edition.yaml" {
            match read::<RawEdition>(path, text) {
                Ok(raw) => {
                    if raw.id != dir {
                        errors.push(SpecError::new(
                            Location::start_of(path.to_string()),
                            None,
                            format!(
                                "edition id `{}` differs from its folder name `{dir}`",
                                raw.id
                            ),
                        ));
                    }
                    self.drafts.insert(
                        dir.to_string(),
                        EditionDraft {
                            raw,
                            file: path.to_string(),
                            clauses: Vec::new(),
                        },
                    );
                }
                Err(e) => {
                    self.broken.insert(dir.to_string());
                    errors.push(e);
                }
            }
        } else {
            self.clause_files
                .push((dir.to_string(), path.to_string(), text.to_string()));
        }
    }
}

/// The spec from its files: files sorted by job, clause files read into their editions,
/// sources declared, editions resolved in dependency order (children of a broken edition
/// skipped), tables of contents, domains and overlays attached; every error collected.
pub(super) fn resolve(files: SpecFiles) -> Result<Spec, SpecErrors> {
    let mut errors = Vec::new();
    let SortedFiles {
        mut drafts,
        clause_files,
        overlay_files,
        tocs,
        mut broken,
        sources_file,
        domains,
        words,
    } = SortedFiles::sort(&files, &mut errors);

    read_clause_files(clause_files, &mut drafts, &mut broken, &mut errors);

    // A spec without editions (nothing to cite) needs no list of sources.
    let (source_list, sources) = if sources_file.is_none() && drafts.is_empty() {
        Default::default()
    } else {
        declare_sources(sources_file, &mut errors)
    };

    // Resolve editions in dependency order.
    let mut resolver = Resolver {
        drafts: &drafts,
        sources: &sources,
        resolved: BTreeMap::new(),
        visiting: HashSet::new(),
        errors: &mut errors,
    };
    for id in drafts.keys() {
        if !depends_on_broken(id, &drafts, &broken) {
            resolver.resolve(id);
        }
    }
    let mut resolved = resolver.resolved;

    attach_tocs(tocs, &sources, &drafts, &broken, &mut resolved, &mut errors);
    check_domains(&domains, &resolved, &mut errors);
    let words = std::sync::Arc::new(words);
    for e in resolved.values_mut() {
        e.words = words.clone();
    }
    let mut spec = Spec {
        words,
        editions: resolved.into_values().collect(),
        overlays: Vec::new(),
        sources: source_list,
        domains,
    };
    add_overlays(&mut spec, overlay_files, &mut errors);
    if errors.is_empty() {
        Ok(spec)
    } else {
        Err(SpecErrors(errors))
    }
}

/// Reads every clause file into the draft of its edition folder, each clause with the place
/// of its `- id:` line; an edition with a file that does not read is marked broken.
fn read_clause_files(
    clause_files: Vec<(String, String, String)>,
    drafts: &mut BTreeMap<String, EditionDraft>,
    broken: &mut HashSet<String>,
    errors: &mut Vec<SpecError>,
) {
    // Folders whose edition.yaml does not read: that error is said; their files wait.
    let no_edition = broken.clone();
    for (dir, path, text) in clause_files {
        if no_edition.contains(&dir) {
            continue;
        }
        let Some(draft) = drafts.get_mut(&dir) else {
            errors.push(SpecError::new(
                Location::whole(path.clone()),
                None,
                format!("folder `{dir}` has no edition.yaml"),
            ));
            continue;
        };
        match read::<RawClauseFile>(&path, &text) {
            Ok(cf) => {
                let locs = entry_locations(&path, &text, "id");
                let aligned = locs.len() == cf.clauses.len();
                for (i, c) in cf.clauses.into_iter().enumerate() {
                    let loc = if aligned {
                        locs[i].clone()
                    } else {
                        Location::start_of(path.clone())
                    };
                    draft.clauses.push((c, loc));
                }
            }
            Err(e) => {
                broken.insert(dir.clone());
                errors.push(e);
            }
        }
    }
}

/// The sources `spec/sources.yaml` lists, in its order and by id: each listed once, the
/// file required.
fn declare_sources(
    file: Option<(String, String)>,
    errors: &mut Vec<SpecError>,
) -> (Vec<Source>, HashMap<String, Source>) {
    let Some((path, text)) = file else {
        errors.push(SpecError::new(
            Location::whole(SOURCES_FILE),
            None,
            format!("the spec has no {SOURCES_FILE}, the list of the sources its clauses cite"),
        ));
        return (Vec::new(), HashMap::new());
    };
    let list = match read::<RawSources>(&path, &text) {
        Ok(r) => r.sources,
        Err(e) => {
            errors.push(e);
            return (Vec::new(), HashMap::new());
        }
    };
    let mut by_id: HashMap<String, Source> = HashMap::new();
    for s in &list {
        if by_id.insert(s.id.clone(), s.clone()).is_some() {
            errors.push(SpecError::new(
                Location::whole(path.clone()),
                None,
                format!("source `{}` is listed twice", s.id),
            ));
        }
    }
    (list, by_id)
}

/// Every clause id's first word must be a listed domain (when the spec lists domains), and
/// each domain listed once.
fn check_domains(
    domains: &[super::Domain],
    resolved: &BTreeMap<String, Edition>,
    errors: &mut Vec<SpecError>,
) {
    if domains.is_empty() {
        return;
    }
    let mut seen = HashSet::new();
    for d in domains {
        if !seen.insert(d.id.as_str()) {
            errors.push(SpecError::new(
                Location::whole(DOMAINS_FILE),
                None,
                format!("domain `{}` is listed twice", d.id),
            ));
        }
    }
    for ed in resolved.values() {
        for c in ed.clauses() {
            if c.inherited_from.is_none() && !seen.contains(super::domain_of(&c.id)) {
                errors.push(SpecError::new(
                    c.restated_at.clone().unwrap_or_else(|| c.location.clone()),
                    Some(&c.id),
                    format!(
                        "the clause's domain `{}` is not listed in {DOMAINS_FILE}",
                        super::domain_of(&c.id)
                    ),
                ));
            }
        }
    }
}

/// Gives each resolved edition its table of contents (`articles.yaml`), whose source must be
/// declared and whose folder must be an edition's.
fn attach_tocs(
    tocs: BTreeMap<String, super::Toc>,
    sources: &HashMap<String, Source>,
    drafts: &BTreeMap<String, EditionDraft>,
    broken: &HashSet<String>,
    resolved: &mut BTreeMap<String, Edition>,
    errors: &mut Vec<SpecError>,
) {
    for (dir, toc) in tocs {
        // A folder whose edition.yaml does not read: that error is said already.
        if broken.contains(&dir) {
            continue;
        }
        if !sources.contains_key(&toc.source) {
            errors.push(SpecError::new(
                Location::start_of(toc.file.clone()),
                None,
                format!("the table of contents cites source `{}`, which spec/sources.yaml does not list", toc.source),
            ));
        }
        match resolved.get_mut(&dir) {
            Some(ed) => ed.toc = Some(toc),
            None if drafts.contains_key(&dir) => {}
            None => errors.push(SpecError::new(
                Location::whole(toc.file.clone()),
                None,
                format!("folder `{dir}` has no edition.yaml"),
            )),
        }
    }
}

/// Adds the event overlays: each must parse, have a unique id and apply to its edition.
fn add_overlays(
    spec: &mut Spec,
    overlay_files: Vec<(String, String)>,
    errors: &mut Vec<SpecError>,
) {
    for (path, text) in overlay_files {
        match super::Overlay::parse(&path, &text) {
            Ok(o) => {
                if spec.overlays.iter().any(|p| p.overlay == o.overlay) {
                    errors.push(SpecError::new(
                        Location::start_of(path.clone()),
                        None,
                        format!("overlay `{}` is defined twice", o.overlay),
                    ));
                    continue;
                }
                if errors.is_empty() {
                    if let Err(e) = spec.with_overlay(&o) {
                        errors.extend(e.0);
                    }
                }
                spec.overlays.push(o);
            }
            Err(e) => errors.extend(e.0),
        }
    }
}

/// Whether `id` or an edition it derives from had a file that could not be read.
fn depends_on_broken(
    id: &str,
    drafts: &BTreeMap<String, EditionDraft>,
    broken: &HashSet<String>,
) -> bool {
    let mut cur = Some(id.to_string());
    let mut steps = 0;
    while let Some(c) = cur {
        if broken.contains(&c) {
            return true;
        }
        steps += 1;
        if steps > drafts.len() {
            return false;
        }
        cur = drafts.get(&c).and_then(|d| d.raw.derives_from.clone());
    }
    false
}

fn check_provenance(
    p: &Provenance,
    loc: &Location,
    id: &str,
    sources: &HashMap<String, Source>,
    errors: &mut Vec<SpecError>,
) {
    if !sources.contains_key(&p.source) {
        errors.push(SpecError::new(
            loc.clone(),
            Some(id),
            format!(
                "provenance cites source `{}`, which spec/sources.yaml does not list",
                p.source
            ),
        ));
    }
}

/// Editions resolved in dependency order, each after the one it derives from.
struct Resolver<'a> {
    drafts: &'a BTreeMap<String, EditionDraft>,
    sources: &'a HashMap<String, Source>,
    resolved: BTreeMap<String, Edition>,
    /// The editions being resolved: one met again derives from itself.
    visiting: HashSet<String>,
    errors: &'a mut Vec<SpecError>,
}

impl Resolver<'_> {
    /// One edition: its parent's clauses first (cycles refused), then its own written over
    /// them.
    fn resolve(&mut self, id: &str) -> bool {
        if self.resolved.contains_key(id) {
            return true;
        }
        let (drafts, sources) = (self.drafts, self.sources);
        let draft = &drafts[id];
        let ed_loc = Location::start_of(draft.file.clone());
        if !self.visiting.insert(id.to_string()) {
            self.errors.push(SpecError::new(
                ed_loc,
                None,
                format!("edition `{id}` derives from itself through `derives_from`"),
            ));
            return false;
        }
        let Some(mut clauses) = self.inherited_clauses(id, draft, &ed_loc) else {
            return false;
        };
        written_clauses(id, draft, drafts, sources, &mut clauses, self.errors);
        for u in &draft.raw.unencoded_differences {
            check_summary_zh(
                &u.summary_zh,
                &ed_loc,
                &format!("unencoded difference {}", u.articles),
                self.errors,
            );
            check_provenance(
                &u.provenance,
                &ed_loc,
                &format!("unencoded difference {}", u.articles),
                sources,
                self.errors,
            );
        }
        let edition = edition(id, draft, clauses);
        self.resolved.insert(id.to_string(), edition);
        self.visiting.remove(id);
        true
    }

    /// The clauses a derived edition inherits (`derives_from`, `keeps`, `removes`, `inherited_provenance`); `None` when its parent cannot be resolved.
    fn inherited_clauses(
        &mut self,
        id: &str,
        draft: &EditionDraft,
        ed_loc: &Location,
    ) -> Option<BTreeMap<String, Clause>> {
        let mut clauses: BTreeMap<String, Clause> = BTreeMap::new();
        if let Some(parent) = &draft.raw.derives_from {
            if !self.drafts.contains_key(parent) {
                self.errors.push(SpecError::new(
                    ed_loc.clone(),
                    None,
                    format!("derives_from names unknown edition `{parent}`"),
                ));
                return None;
            }
            if !self.resolve(parent) {
                return None;
            }
            let Some(inh) = &draft.raw.inherited_provenance else {
                self.errors.push(SpecError::new(
                    ed_loc.clone(),
                    None,
                    "a derived edition must say, in inherited_provenance, how sure its inherited clauses are",
                ));
                return None;
            };
            check_provenance(inh, ed_loc, id, self.sources, self.errors);
            for c in self.resolved[parent].clauses() {
                let mut c = c.clone();
                if c.inherited_from.is_none() {
                    c.inherited_from = Some(parent.clone());
                }
                // The readings go with the data: an inherited clause keeps its parent's.
                let readings = std::mem::take(&mut c.provenance.readings);
                c.provenance = inh.clone();
                c.provenance.readings = readings;
                clauses.insert(c.id.clone(), c);
            }
            if let Some(prefixes) = &draft.raw.keeps {
                clauses.retain(|id, _| prefixes.iter().any(|p| id.starts_with(p.as_str())));
            }
            for r in &draft.raw.removes {
                if clauses.remove(r).is_none() {
                    self.errors.push(SpecError::new(
                        ed_loc.clone(),
                        Some(r),
                        format!("removes `{r}`, which `{parent}` does not have"),
                    ));
                }
            }
        } else if draft.raw.inherited_provenance.is_some()
            || !draft.raw.removes.is_empty()
            || draft.raw.keeps.is_some()
        {
            self.errors.push(SpecError::new(
                ed_loc.clone(),
                None,
                "inherited_provenance, removes and keeps only make sense with derives_from",
            ));
        }
        Some(clauses)
    }
}

/// The clauses an edition writes: each id once and well formed, an override or a new clause.
fn written_clauses(
    id: &str,
    draft: &EditionDraft,
    drafts: &BTreeMap<String, EditionDraft>,
    sources: &HashMap<String, Source>,
    clauses: &mut BTreeMap<String, Clause>,
    errors: &mut Vec<SpecError>,
) {
    // The editions this one derives from, nearest first, and the clause files they have:
    // a file of this edition that restates clauses none of them has, and that none of them
    // has a file of its name for, points at a file missing there (the cause to report),
    // not at clauses missing fields here.
    let mut ancestors = Vec::new();
    let mut cur = draft.raw.derives_from.as_deref();
    while let Some(p) = cur.filter(|p| ancestors.len() < drafts.len() && !ancestors.contains(p)) {
        ancestors.push(p);
        cur = drafts.get(p).and_then(|d| d.raw.derives_from.as_deref());
    }
    let files: HashSet<&str> = ancestors
        .iter()
        .filter_map(|a| drafts.get(*a))
        .flat_map(|d| d.clauses.iter().map(|(_, l)| l.file.as_str()))
        .collect();
    let missing_file = |loc: &Location| -> Option<String> {
        let root = ancestors.last()?;
        let name = loc.file.rsplit('/').next()?;
        let has = ancestors
            .iter()
            .any(|a| files.contains(format!("{a}/{name}").as_str()));
        (!has).then(|| format!("{root}/{name}"))
    };
    let mut orphans: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    let mut seen: HashMap<&str, &Location> = HashMap::new();
    for (raw, loc) in &draft.clauses {
        if let Some(prev) = seen.insert(raw.id.as_str(), loc) {
            errors.push(SpecError::new(
                loc.clone(),
                Some(&raw.id),
                format!("duplicate clause id (first at {prev})"),
            ));
            continue;
        }
        if !valid_id(&raw.id) {
            errors.push(SpecError::new(
                loc.clone(),
                Some(&raw.id),
                "clause ids are lower-case dotted words (`movement.horse`)",
            ));
        }
        if draft.raw.removes.contains(&raw.id) {
            errors.push(SpecError::new(
                loc.clone(),
                Some(&raw.id),
                "clause is both written and listed in removes",
            ));
        }
        let incomplete = raw.article.is_none()
            || raw.summary.is_none()
            || raw.provenance.is_none()
            || raw.data.is_none();
        match clauses.get_mut(&raw.id) {
            Some(existing) => override_clause(existing, raw, loc, id, sources, errors),
            None => match missing_file(loc).filter(|_| incomplete) {
                Some(file) => orphans
                    .entry(file)
                    .or_insert_with(|| (loc.file.clone(), Vec::new()))
                    .1
                    .push(raw.id.clone()),
                None => new_clause(clauses, raw, loc, id, draft, sources, errors),
            },
        }
    }
    for (file, (restating, ids)) in orphans {
        let shown: Vec<&str> = ids.iter().take(3).map(String::as_str).collect();
        let more = if ids.len() > 3 { ", …" } else { "" };
        errors.push(SpecError::new(
            Location::whole(file.clone()),
            None,
            format!(
                "no such file, but {restating} restates {} clauses as if it were there ({}{more}): edition `{id}` derives from `{}`, and no edition it derives from has these clauses",
                ids.len(),
                shown.join(", "),
                ancestors.first().copied().unwrap_or_default()
            ),
        ));
    }
}

/// An override of an inherited clause: its own provenance, and what it restates.
fn override_clause(
    existing: &mut Clause,
    raw: &RawClause,
    loc: &Location,
    id: &str,
    sources: &HashMap<String, Source>,
    errors: &mut Vec<SpecError>,
) {
    // Override of an inherited clause: it must say where its own facts come from.
    let Some(p) = &raw.provenance else {
        errors.push(SpecError::new(
            loc.clone(),
            Some(&raw.id),
            "an override must give its own provenance",
        ));
        return;
    };
    check_provenance(p, loc, &raw.id, sources, errors);
    // Readings the override does not restate stay as they were, for the switches its data
    // (restated or not) still has.
    let kept = std::mem::take(&mut existing.provenance.readings);
    existing.provenance = p.clone();
    let data = raw.data.as_ref().unwrap_or(&existing.data);
    for (field, r) in kept {
        if super::switches(data).iter().any(|(n, _)| *n == field)
            || super::choices(data).iter().any(|(n, _)| *n == field)
        {
            existing.provenance.readings.entry(field).or_insert(r);
        }
    }
    existing.inherited_from = None;
    existing.restated_at = Some(loc.clone());
    if let Some(a) = &raw.article {
        existing.article = a.clone();
    }
    if raw.summary.is_some() != raw.summary_zh.is_some() {
        errors.push(SpecError::new(
            loc.clone(),
            Some(&raw.id),
            "a restated summary needs both `summary` and `summary_zh` (English and Chinese)",
        ));
    }
    if let Some(s) = &raw.summary {
        existing.summary = s.clone();
    }
    if let Some(s) = &raw.summary_zh {
        check_summary_zh(s, loc, &raw.id, errors);
        existing.summary_zh = s.clone();
    }
    if let Some(d) = &raw.data {
        existing.data = d.clone();
        existing.location = loc.clone();
        existing.data_from = id.to_string();
    }
}

/// A Chinese summary (`summary_zh`): one non-empty line in Chinese, without an English
/// word (a run of Latin letters not all capitals, as FEN or N: what the page's 中文 mode
/// must not show; clause ids too are said in words).
pub(super) fn check_summary_zh(s: &str, loc: &Location, id: &str, errors: &mut Vec<SpecError>) {
    let english = s
        .split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| w.len() > 1 && w.chars().any(|c| c.is_ascii_lowercase()));
    if s.contains('\n') || !super::words::has_chinese(s) {
        errors.push(SpecError::new(
            loc.clone(),
            Some(id),
            format!("summary_zh must be one line in Chinese, not `{s}`"),
        ));
    } else if let Some(w) = english {
        errors.push(SpecError::new(
            loc.clone(),
            Some(id),
            format!("summary_zh holds the English word `{w}`: say it in Chinese"),
        ));
    }
}

/// A new clause: every field given, a one-line summary in English and in Chinese.
fn new_clause(
    clauses: &mut BTreeMap<String, Clause>,
    raw: &RawClause,
    loc: &Location,
    id: &str,
    draft: &EditionDraft,
    sources: &HashMap<String, Source>,
    errors: &mut Vec<SpecError>,
) {
    let missing: Vec<&str> = [
        ("article", raw.article.is_none()),
        ("summary", raw.summary.is_none()),
        ("summary_zh", raw.summary_zh.is_none()),
        ("provenance", raw.provenance.is_none()),
        ("data", raw.data.is_none()),
    ]
    .into_iter()
    .filter_map(|(field, absent)| absent.then_some(field))
    .collect();
    if !missing.is_empty() {
        let why = if draft.raw.derives_from.is_some() {
            " (the id is not inherited, so this is a new clause)"
        } else {
            ""
        };
        errors.push(SpecError::new(
            loc.clone(),
            Some(&raw.id),
            format!("missing field(s): {}{why}", missing.join(", ")),
        ));
        return;
    }
    let (Some(p), Some(summary), Some(summary_zh), Some(article), Some(data)) = (
        raw.provenance.clone(),
        raw.summary.clone(),
        raw.summary_zh.clone(),
        raw.article.clone(),
        raw.data.clone(),
    ) else {
        return;
    };
    check_provenance(&p, loc, &raw.id, sources, errors);
    if summary.contains('\n') || summary.trim().is_empty() {
        errors.push(SpecError::new(
            loc.clone(),
            Some(&raw.id),
            "summary must be one non-empty line",
        ));
    }
    check_summary_zh(&summary_zh, loc, &raw.id, errors);
    clauses.insert(
        raw.id.clone(),
        Clause {
            id: raw.id.clone(),
            article,
            summary,
            summary_zh,
            provenance: p,
            data,
            inherited_from: None,
            data_from: id.to_string(),
            location: loc.clone(),
            restated_at: None,
            fields: Vec::new(),
        },
    );
}

/// The resolved edition: its header, its clauses in id order.
fn edition(_id: &str, draft: &EditionDraft, clauses: BTreeMap<String, Clause>) -> Edition {
    let clauses: Vec<Clause> = clauses.into_values().collect();
    let index = clauses
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.clone(), i))
        .collect();
    Edition {
        id: draft.raw.id.clone(),
        name: draft.raw.name.clone(),
        name_en: draft.raw.name_en.clone(),
        year: draft.raw.year,
        publisher: draft.raw.publisher.clone(),
        derives_from: draft.raw.derives_from.clone(),
        scope: draft.raw.keeps.clone(),
        unencoded_differences: draft.raw.unencoded_differences.clone(),
        clauses,
        index,
        toc: None,
        words: Default::default(),
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.split('.').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
}
