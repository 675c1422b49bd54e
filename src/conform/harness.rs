//! Running the suite from `cargo test`.
//!
//! * [`Harness`]: for Rust implementers — the embedded cases against your
//!   [`Implementation`], from one `#[test]`.
//! * `check_reference_case`, `check_case_file`, `check_suite_files`,
//!   [`edition_pattern`]: the helpers of this crate's own
//!   `tests/conformance.rs` (datatest-stable), which runs every case file once
//!   per edition against the reference implementation.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::case::{Case, Problem};
use super::check::check_suite;
use super::coverage::Coverage;
use super::known::UPDATE_REFERENCE;
use super::protocol::Implementation;
use super::runner::{self, CaseResult, KnownFailure, KnownFailures, RunOptions, Status, Summary};
use super::subject::InProcess;
use super::suite::{SpecFacts, Suite};
use crate::reference::Reference;
use crate::spec::Spec;

/// Runs the suite against a Rust implementation, in-process.
///
/// An implementation answers the queries its [`About`](super::About) declares; cases of
/// the others are skipped. Here "your engine" answers `status` (checkmate, stalemate or
/// neither) by asking xqspec's own reference, where yours would call your engine:
///
/// ```
/// use xqspec::Harness;
/// use xqspec::{About, Answer, Implementation, Query};
/// use xqspec::Reference;
///
/// struct Mine(Reference);
///
/// impl Implementation for Mine {
///     fn about(&self) -> About {
///         About {
///             editions: vec!["cxa-2020".into()],
///             queries: vec!["status".into()], // undeclared queries are skipped
///             ..About::named("mine", "0.1.0")
///         }
///     }
///
///     fn answer(&mut self, edition: &str, query: &Query) -> Answer {
///         match query {
///             Query::Status { .. } => self.0.answer(edition, query),
///             _ => Answer::unsupported("not implemented"),
///         }
///     }
/// }
///
/// let mine = Mine(Reference::builtin().expect("the built-in spec loads"));
/// Harness::new(mine)
///     .edition("cxa-2020")
///     .skip("fen-*") // leave out cases by id or path
///     .run(); // prints a table per area; panics listing every failure
/// ```
pub struct Harness<I> {
    imp: I,
    suite: Option<Suite>,
    opts: RunOptions,
    ignored: Vec<String>,
    known_files: Vec<PathBuf>,
}

impl<I: Implementation> Harness<I> {
    /// A harness over the cases embedded in this crate.
    pub fn new(imp: I) -> Self {
        Harness {
            imp,
            suite: None,
            opts: RunOptions {
                timeout: Duration::from_secs(60),
                overlays: builtin_overlays(),
                ..RunOptions::default()
            },
            ignored: Vec::new(),
            known_files: Vec::new(),
        }
    }

    /// Use these cases instead of the embedded ones.
    pub fn suite(mut self, suite: Suite) -> Self {
        self.suite = Some(suite);
        self
    }

    /// Run only this edition (call again for more); default: every edition.
    pub fn edition(mut self, edition: &str) -> Self {
        self.opts.editions.push(edition.to_string());
        self
    }

    /// Cases (by id) known to fail, in any way. They are still run: one that passes fails
    /// the harness, so the list stays true.
    pub fn ignore<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Self {
        self.ignored.extend(ids.into_iter().map(Into::into));
        self
    }

    /// A known-failures file (`conformance/README.md`, "Known failures"): each listed case
    /// must fail with the entry's `answer:`; one that passes, or fails otherwise, fails the
    /// harness.
    pub fn known_failures(mut self, file: impl Into<PathBuf>) -> Self {
        self.known_files.push(file.into());
        self
    }

    /// Run only cases whose id or path matches this glob (repeatable: any of them).
    pub fn only(mut self, glob: &str) -> Self {
        self.opts.run.push(glob.to_string());
        self
    }

    /// Do not run cases whose id or path matches this glob.
    pub fn skip(mut self, glob: &str) -> Self {
        self.opts.skip.push(glob.to_string());
        self
    }

    /// Do not run cases tagged with this feature (e.g. `slow`).
    pub fn skip_feature(mut self, feature: &str) -> Self {
        self.opts.skip_features.push(feature.to_string());
        self
    }

    /// Runs and returns every result.
    pub fn results(self) -> Result<Vec<CaseResult>, String> {
        let suite = self.suite.unwrap_or_else(Suite::embedded);
        let mut opts = self.opts;
        for f in &self.known_files {
            let text = crate::input::read_file(f).map_err(|e| e.to_string())?;
            let known =
                KnownFailures::parse(&f.display().to_string(), &text, &suite).map_err(|errs| {
                    errs.iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join("\n")
                })?;
            opts.known.entries.extend(known.entries);
        }
        let mut unknown = Vec::new();
        for id in self.ignored {
            if suite.case(&id).is_none() {
                unknown.push(id.clone());
            }
            opts.known.entries.push(KnownFailure {
                id,
                edition: None,
                reason: "ignored by the implementer".into(),
                answer: None,
            });
        }
        if !unknown.is_empty() {
            return Err(format!(
                "ignored ids that are no case: {}",
                unknown.join(", ")
            ));
        }
        let mut subject = InProcess::new(self.imp);
        runner::run(&suite, &mut subject, &opts, &mut |_| {}).map(|run| run.results)
    }

    /// Runs, prints a per-area table, and panics if a case failed (or an
    /// ignored case passed).
    pub fn run(self) {
        let results = self.results().unwrap_or_else(|e| panic!("{e}"));
        let summary = Summary::of(&results);
        // The per-area table needs the command line's table crate; the closing line below
        // carries the same counts without it.
        #[cfg(feature = "cli")]
        println!("{}", runner::area_table(&results, false));
        let problems = runner::problem_lines(&results, false);
        for l in &problems {
            println!("{l}");
        }
        println!("{}", summary.line());
        if !summary.ok() {
            panic!(
                "{} conformance cases failed:\n{}",
                summary.failed,
                problems.join("\n")
            );
        }
    }
}

/// A failed check, printed as plain text by test harnesses (which show errors with `{:?}`).
pub struct Failure(pub String);

impl std::fmt::Debug for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure(s)
    }
}

/// The event overlays shipped with the built-in spec.
/// The built-in spec's overlays, read once per process (reading the spec costs more than
/// most cases' runs).
fn builtin_overlays() -> Vec<crate::spec::Overlay> {
    static OVERLAYS: OnceLock<Vec<crate::spec::Overlay>> = OnceLock::new();
    OVERLAYS
        .get_or_init(|| {
            Spec::builtin()
                .map(|s| s.overlays().to_vec())
                .unwrap_or_default()
        })
        .clone()
}

fn reference() -> &'static Reference {
    static REF: OnceLock<Reference> = OnceLock::new();
    REF.get_or_init(|| {
        Reference::builtin().unwrap_or_else(|e| panic!("the built-in spec does not load: {e}"))
    })
}

/// Runs one case file under one edition against the reference implementation.
/// The one check of `tests/conformance.rs`: an error says what differs.
#[cfg(test)]
pub(crate) fn check_reference_case(
    edition: &str,
    path: &str,
    contents: &str,
) -> Result<(), Failure> {
    check_reference_case_in(Path::new("conformance"), edition, path, contents)
}

/// `check_reference_case` for the suite under `root`: a case that the suite's
/// `reference-known-failures.yaml` lists must fail with the entry's `answer:` (and the check
/// passes); a listed case that passes (take it off the list) or fails otherwise (update its
/// answer) is an error.
pub fn check_reference_case_in(
    root: &Path,
    edition: &str,
    path: &str,
    contents: &str,
) -> Result<(), Failure> {
    let case = Case::parse(path, contents).map_err(|p| p.to_string())?;
    if !case.editions.iter().any(|e| e == edition) {
        return Err(format!(
            "{path} does not apply to {edition}; the edition pattern selected it wrongly"
        )
        .into());
    }
    let mut subject = InProcess::new(reference());
    let known = checked(root).known.clone()?;
    let opts = RunOptions {
        timeout: Duration::from_secs(3600),
        overlays: builtin_overlays(),
        known,
        ..RunOptions::default()
    };
    let r = runner::run_one(&case, edition, &mut subject, &opts);
    if let Some(changed) = &r.known_changed {
        return Err(format!(
            "{} under {edition}, listed in conformance/reference-known-failures.yaml: {changed}\n  \
             if the new wrong answer is the one to expect, update the answers: {UPDATE_REFERENCE}",
            case.id
        )
        .into());
    }
    match (r.status, &r.known) {
        (Status::Pass, Some(_)) => Err(format!(
            "{} under {edition} passes, but conformance/reference-known-failures.yaml lists it: take it off the list",
            case.id
        )
        .into()),
        (Status::Fail | Status::Error, Some(_)) => Ok(()),
        (Status::Pass, None) => Ok(()),
        (Status::Skip, _) => Err(format!(
            "the reference must answer every case, but skipped it: {}",
            r.detail
        )
        .into()),
        (s, _) => Err(format!(
            "{} under {edition}: {}\n  {}\n  expected: {}\n  got:      {}",
            case.id,
            s.name(),
            r.detail,
            r.expected,
            r.got
        )
        .into()),
    }
}

struct Checked {
    problems: Vec<Problem>,
    suite: &'static Suite,
    spec: Spec,
    /// The suite's `reference-known-failures.yaml`, read once (or what is wrong with it).
    known: Result<KnownFailures, String>,
}

/// The suite under `root`, read once per process: the edition patterns, the cases' runs and
/// the suite checks share it (a read error is kept and told to each).
fn suite_at(root: &Path) -> Result<&'static Suite, String> {
    type Loaded = Result<&'static Suite, String>;
    static SUITES: OnceLock<Mutex<HashMap<PathBuf, Loaded>>> = OnceLock::new();
    let mut map = SUITES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    map.entry(root.to_path_buf())
        .or_insert_with(|| {
            Suite::load_dir(root)
                .map(|s| &*Box::leak(Box::new(s)))
                .map_err(|e| format!("cannot read {}: {e}", root.display()))
        })
        .clone()
}

/// The checked suite under `root`, computed once per root for the whole test run.
fn checked(root: &Path) -> &'static Checked {
    static CHECKED: OnceLock<Mutex<HashMap<PathBuf, &'static Checked>>> = OnceLock::new();
    let mut map = CHECKED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    map.entry(root.to_path_buf()).or_insert_with(|| {
        let suite = suite_at(root).unwrap_or_else(|e| panic!("{e}"));
        let spec =
            Spec::builtin().unwrap_or_else(|e| panic!("the built-in spec does not load: {e}"));
        let known = suite.reference_known_failures().map_err(|e| {
            e.iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        });
        Box::leak(Box::new(Checked {
            problems: check_suite(suite, &spec),
            suite,
            spec,
            known,
        }))
    })
}

/// `cases check` for one case file of the suite at `root` (problems of other files are not reported).
pub fn check_case_file(root: &Path, path: &str) -> Result<(), Failure> {
    let c = checked(root);
    let mine: Vec<String> = c
        .problems
        .iter()
        .filter(|p| p.file == path)
        .map(|p| p.to_string())
        .collect();
    if mine.is_empty() {
        Ok(())
    } else {
        Err(Failure(mine.join("\n")))
    }
}

/// The suite-wide checks: problems outside case files, the coverage report
/// being current (`report`), the case schema being current, every clause covered or exempt, and `editions`
/// (the editions the harness runs) being exactly the spec's.
pub fn check_suite_files(root: &Path, report: &Path, editions: &[&str]) -> Result<(), Failure> {
    let c = checked(root);
    let mut errors: Vec<String> = c
        .problems
        .iter()
        .filter(|p| !c.suite.texts.contains_key(&p.file))
        .map(|p| p.to_string())
        .collect();
    let spec_editions: Vec<&str> = c.spec.editions().iter().map(|e| e.id.as_str()).collect();
    if spec_editions != editions {
        errors.push(format!(
            "tests/conformance.rs runs editions {editions:?}, the spec has {spec_editions:?}"
        ));
    }
    let cov = Coverage::compute(c.suite, &SpecFacts::from_spec(&c.spec));
    match std::fs::read_to_string(report) {
        Ok(text) if text == cov.markdown() => {}
        _ => errors.push(format!(
            "{} is stale: run `cargo run -- cases coverage --write`",
            report.display()
        )),
    }
    let schema = root.join("case.schema.json");
    if std::fs::read_to_string(&schema).ok()
        != Some(super::schema::case_schema(&c.suite.vocabulary))
    {
        errors.push(format!(
            "{} is stale: run `cargo run -- cases schema --write`",
            schema.display()
        ));
    }
    let uncovered = cov.uncovered();
    if !uncovered.is_empty() {
        errors.push(format!(
            "clauses cited by no case and not exempt: {}",
            uncovered.join(", ")
        ));
    }
    let needless = cov.needless_exemptions(c.suite);
    if !needless.is_empty() {
        errors.push(format!(
            "exempt clauses that cases cite after all: {}",
            needless.join(", ")
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Failure(errors.join("\n")))
    }
}

/// A datatest-stable pattern matching exactly the case files under `root`
/// that apply to `edition` (and every file that does not parse, so that it
/// fails under each edition).
pub fn edition_pattern(root: &str, edition: &str) -> String {
    let suite = match suite_at(Path::new(root)) {
        Ok(s) => s,
        Err(_) => return r"^\.yaml$".into(),
    };
    let mut paths: Vec<&str> = suite
        .cases
        .iter()
        .filter(|c| c.editions.iter().any(|e| e == edition))
        .map(|c| c.path.as_str())
        .collect();
    paths.extend(
        suite
            .problems
            .iter()
            .filter(|p| suite.texts.contains_key(&p.file))
            .map(|p| p.file.as_str()),
    );
    if paths.is_empty() {
        return "^$".into();
    }
    let alts: Vec<String> = paths.iter().map(|p| regex_escape(p)).collect();
    format!("^(?:{})$", alts.join("|"))
}

fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary suite: the real vocabularies plus the given case files.
    fn temp_suite(name: &str, cases: &[(&str, &str)]) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xqspec-harness-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in [
            "vocabulary.yaml",
            "features.yaml",
            "exemptions.yaml",
            "retired-ids.txt",
        ] {
            let text = super::super::suite::EMBEDDED
                .get_file(f)
                .unwrap()
                .contents();
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(f), text).unwrap();
        }
        for (path, text) in cases {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        dir
    }

    const CASE_2020: &str = "id: only-2020\ndescription: d\nclauses: [check.definition]\neditions: [cxa-2020]\nquery: status\ninput: {fen: \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"}\nexpect: {status: ongoing}\norigin: authored\nbasis: rule\nnote: art. 3, no check\n";

    #[test]
    fn edition_patterns_select_exactly_the_applying_files() {
        let dir = temp_suite(
            "pattern",
            &[
                ("check/only-2020.yaml", CASE_2020),
                ("check/broken.yaml", "id: ["),
            ],
        );
        let root = dir.to_str().unwrap();
        assert_eq!(
            edition_pattern(root, "cxa-2020"),
            r"^(?:check/only\-2020\.yaml|check/broken\.yaml)$"
        );
        assert_eq!(
            edition_pattern(root, "cxa-1999"),
            r"^(?:check/broken\.yaml)$"
        );
        assert!(check_reference_case("cxa-2020", "check/only-2020.yaml", CASE_2020).is_ok());
        let wrong = CASE_2020.replace("ongoing", "check");
        let err = check_reference_case("cxa-2020", "check/only-2020.yaml", &wrong)
            .unwrap_err()
            .0;
        assert!(
            err.contains("expected: {\"status\":\"check\"}")
                && err.contains("got:      {\"status\":\"ongoing\"}"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `check_reference_case_in` with the case expecting check where the reference sees none,
    /// and `reference-known-failures.yaml` listing it with `answer` (an `answer:` line or none).
    fn check_listed(name: &str, answer: &str) -> Result<(), String> {
        let wrong = CASE_2020.replace("ongoing", "check");
        let list = format!(
            "# listed\n- id: only-2020\n  edition: cxa-2020\n  reason: we see no check\n{answer}"
        );
        let dir = temp_suite(
            name,
            &[
                ("check/only-2020.yaml", &wrong),
                ("reference-known-failures.yaml", &list),
            ],
        );
        let r = check_reference_case_in(&dir, "cxa-2020", "check/only-2020.yaml", &wrong)
            .map_err(|f| f.0);
        std::fs::remove_dir_all(&dir).unwrap();
        r
    }

    #[test]
    fn a_listed_case_must_fail_with_the_listed_answer() {
        assert_eq!(
            check_listed("known-same", "  answer: {status: ongoing}\n"),
            Ok(())
        );
        let err = check_listed("known-changed", "  answer: {status: stalemate}\n").unwrap_err();
        assert!(
            err.starts_with(
                "only-2020 under cxa-2020, listed in conformance/reference-known-failures.yaml: the known failure changed: \
                 listed as answering {\"status\":\"stalemate\"}; now: {\"status\":\"ongoing\"} (expected status \"stalemate\", got \"ongoing\")"
            ) && err.ends_with(UPDATE_REFERENCE),
            "{err}"
        );
        assert_eq!(
            check_listed("known-unanswered", "").unwrap_err(),
            "reference-known-failures.yaml:2:1: entry 1 (`only-2020`): a known failure needs an `answer:`: what is answered \
             instead of the case's `expect`, in the same shape (`--write-known-failures FILE` writes it)"
        );
    }

    #[test]
    fn the_harness_takes_a_known_failures_file() {
        let wrong = CASE_2020.replace("ongoing", "check");
        let dir = temp_suite("harness-known", &[("check/only-2020.yaml", &wrong)]);
        let mine = dir.join("mine.yaml");
        let run = |list: &str| {
            std::fs::write(&mine, list).unwrap();
            Harness::new(reference())
                .suite(Suite::load_dir(&dir).unwrap())
                .known_failures(&mine)
                .results()
        };
        let tallies = |answer: &str| -> Vec<runner::Tally> {
            let list = format!("- id: only-2020\n  reason: we see no check\n  answer: {answer}\n");
            run(&list).unwrap().iter().map(|r| r.tally()).collect()
        };
        assert_eq!(tallies("{status: ongoing}"), [runner::Tally::KnownFailure]);
        assert_eq!(
            tallies("{status: stalemate}"),
            [runner::Tally::ChangedKnownFailure]
        );
        let err = run("- id: only-2020\n  reason: we see no check\n").unwrap_err();
        assert!(err.ends_with("mine.yaml:1:1: entry 1 (`only-2020`): a known failure needs an `answer:`: what is answered \
             instead of the case's `expect`, in the same shape (`--write-known-failures FILE` writes it)"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn suite_checks_find_stale_reports_and_uncovered_clauses() {
        let dir = temp_suite("suite", &[("check/only-2020.yaml", CASE_2020)]);
        let err = check_suite_files(&dir, &dir.join("coverage.md"), &["cxa-2020"])
            .unwrap_err()
            .0;
        assert!(
            err.contains("tests/conformance.rs runs editions [\"cxa-2020\"]"),
            "{err}"
        );
        assert!(err.contains("coverage.md is stale"), "{err}");
        assert!(err.contains("case.schema.json is stale"), "{err}");
        assert!(
            err.contains("clauses cited by no case and not exempt: ")
                && err.contains("cxa-1999 board.grid,"),
            "{err}"
        );
        assert!(check_case_file(&dir, "check/only-2020.yaml").is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
