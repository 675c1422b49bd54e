//! The runner: puts every selected case, once per edition, to a [`Subject`],
//! judges the answers, and writes the results (tables, JSON lines, Markdown).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::glob::Glob;
use serde_json::{json, Value};
#[cfg(feature = "cli")]
use tabled::{builder::Builder, settings::Style};

use super::case::{Basis, Case, Expected, Runs};
use super::judge::{judge, Judgement};
pub use super::known::{known_failures_yaml, KnownAnswer, KnownFailure, KnownFailures};
use super::protocol::{About, Ask, PROTOCOL_VERSION};
use super::subject::{Reply, Subject};
use super::suite::{Suite, SUITE_VERSION};
use crate::query::{Answer, Query};
use crate::spec::Overlay;

mod output;

#[cfg(feature = "cli")]
pub use output::{area_table, basis_table, markdown_report};
pub use output::{json_case, json_header, json_summary, problem_lines};

/// The status alphabet of a case run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// The answer is the expected one.
    Pass,
    /// The answer differs from the expected one.
    Fail,
    /// Not run: the implementation does not declare the query, edition or feature, or answered `unsupported`.
    Skip,
    /// The implementation answered `error`, or an answer the protocol does not allow.
    Error,
    /// The implementation died before answering.
    Crash,
    /// No answer within the time limit.
    Timeout,
    /// Declared by the implementation but never asked: the run stopped before it (five
    /// time-outs in a row, or faults in a row; [`Stall`]). Neither passed nor failed, counted
    /// apart.
    NotAsked,
}

impl Status {
    /// The status as printed and in JSON (`pass`, `fail` …).
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Skip => "skip",
            Status::Error => "error",
            Status::Crash => "crash",
            Status::Timeout => "timeout",
            Status::NotAsked => "not_asked",
        }
    }
}

/// The result of one case under one edition.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseResult {
    /// The case's id.
    pub id: String,
    /// The case file's path relative to the suite root.
    pub path: String,
    /// The case's area: the first folder of its path (`fen`, `ruling` …).
    pub area: String,
    /// The edition it ran under.
    pub edition: String,
    /// The rule sets the result stands for: the edition it ran under, or, for a case that
    /// runs once (`runs: once`), every rule set of the case the run selected.
    pub rule_sets: Vec<String>,
    /// What the case's answer rests on (`basis:`), when the case says.
    pub basis: Option<Basis>,
    /// Whether the case runs once for all its rule sets (`runs: once`: its known-failure
    /// entry names no edition) or once under each.
    pub runs: Runs,
    /// How it went.
    pub status: Status,
    /// The difference, the skip reason, or the fault.
    pub detail: String,
    /// The expected answer, as text.
    pub expected: String,
    /// The answer given, as text.
    pub got: String,
    /// The reason from the known-failures file, when the case is listed.
    pub known: Option<String>,
    /// When the case is listed and did not pass, but fails otherwise than the entry's
    /// `answer:` says: what it was expected to answer, what it answers now, and how they differ.
    pub known_changed: Option<String>,
    /// When the case neither passed nor was skipped: the answer given (cut down to the parts
    /// the expectation names), the rejection or the fault, as a known failure lists it.
    pub(crate) failure: Option<KnownAnswer>,
    /// How long the answer took, in milliseconds.
    pub millis: u128,
}

/// How a result counts towards the closing line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    /// Passed, not listed.
    Passed,
    /// Failed, not listed.
    Failed,
    /// Skipped.
    Skipped,
    /// Declared but not asked: the run stopped before it. Counted apart.
    NotAsked,
    /// Listed as a known failure and did not pass: counted apart (neither failed nor skipped).
    KnownFailure,
    /// Listed as a known failure but passed: counted with the failed.
    UnexpectedPass,
    /// Listed as a known failure, did not pass, but answered otherwise than the entry's
    /// `answer:`: counted with the failed.
    ChangedKnownFailure,
}

impl Tally {
    /// Whether it counts with the failed ([`Summary::failed`]).
    pub fn fails(self) -> bool {
        matches!(
            self,
            Tally::Failed | Tally::UnexpectedPass | Tally::ChangedKnownFailure
        )
    }
}

impl CaseResult {
    /// How the result counts towards the closing line.
    pub fn tally(&self) -> Tally {
        match (
            self.status,
            self.known.is_some(),
            self.known_changed.is_some(),
        ) {
            (Status::Pass, false, _) => Tally::Passed,
            (Status::Pass, true, _) => Tally::UnexpectedPass,
            (Status::Skip, _, _) => Tally::Skipped,
            (Status::NotAsked, _, _) => Tally::NotAsked,
            (_, true, true) => Tally::ChangedKnownFailure,
            (_, true, false) => Tally::KnownFailure,
            (_, false, _) => Tally::Failed,
        }
    }
}

/// What to run and how.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Editions to run; empty means every edition a case names.
    pub editions: Vec<String>,
    /// Only cases whose id or path (without `.yaml`) matches one of these globs.
    pub run: Vec<String>,
    /// Leave out cases whose id or path matches one of these globs.
    pub skip: Vec<String>,
    /// Leave out cases tagged with one of these features.
    pub skip_features: Vec<String>,
    /// Only cases of these areas (the first folder of a case's path); empty: every area.
    pub areas: Vec<String>,
    /// The known failures: listed cases must fail as their entries say.
    pub known: KnownFailures,
    /// Time limit for one answer.
    pub timeout: Duration,
    /// The event overlays cases may name (`overlay:`), from the spec's `overlays/`.
    pub overlays: Vec<Overlay>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            editions: Vec::new(),
            run: Vec::new(),
            skip: Vec::new(),
            skip_features: Vec::new(),
            areas: Vec::new(),
            known: KnownFailures::default(),
            timeout: Duration::from_secs(10),
            overlays: Vec::new(),
        }
    }
}

fn matchers(globs: &[String]) -> Result<Vec<Glob>, String> {
    globs
        .iter()
        .map(|g| Glob::new(g).map_err(|e| e.to_string()))
        .collect()
}

/// The editions of `case` the options select, in the case's order.
fn selected_editions(case: &Case, opts: &RunOptions) -> Vec<String> {
    case.editions
        .iter()
        .filter(|e| opts.editions.is_empty() || opts.editions.contains(e))
        .cloned()
        .collect()
}

/// The (case, edition) pairs selected by the options, in suite order: every case once per
/// edition it names (`xqspec cases dump`). What a run asks is `plan`.
pub fn select<'a>(suite: &'a Suite, opts: &RunOptions) -> Result<Vec<(&'a Case, String)>, String> {
    Ok(selected_cases(suite, opts)?
        .into_iter()
        .flat_map(|c| selected_editions(c, opts).into_iter().map(move |e| (c, e)))
        .collect())
}

/// The cases selected by `--run`, `--skip` and `--skip-feature`, in suite order.
fn selected_cases<'a>(suite: &'a Suite, opts: &RunOptions) -> Result<Vec<&'a Case>, String> {
    let run = matchers(&opts.run)?;
    let skip = matchers(&opts.skip)?;
    let hit = |ms: &[Glob], c: &Case| {
        ms.iter()
            .any(|m| m.is_match(&c.id) || m.is_match(c.stem_path()))
    };
    Ok(suite
        .cases
        .iter()
        .filter(|c| {
            (run.is_empty() || hit(&run, c))
                && !hit(&skip, c)
                && !c.features.iter().any(|f| opts.skip_features.contains(f))
                && (opts.areas.is_empty() || opts.areas.iter().any(|a| a == c.area()))
        })
        .collect())
}

/// What a run asks an implementation that says `about`, in suite order: each selected case
/// once per selected edition, except a case whose answer is the same under all of them
/// (`runs: once`), asked once: under the default rule set when the implementation declares
/// it, else under the first of the case's editions it declares (else the first: skipped).
pub fn plan<'a>(
    suite: &'a Suite,
    opts: &RunOptions,
    about: &About,
) -> Result<Vec<(&'a Case, String)>, String> {
    let mut out = Vec::new();
    for c in selected_cases(suite, opts)? {
        let editions = selected_editions(c, opts);
        if c.runs == Runs::Once && editions.len() > 1 {
            let declared = |e: &&String| about.editions.contains(e);
            let pick = editions
                .iter()
                .find(|e| e.as_str() == crate::ruleset::DEFAULT && declared(e))
                .or_else(|| editions.iter().find(declared))
                .unwrap_or(&editions[0]);
            out.push((c, pick.clone()));
        } else {
            out.extend(editions.into_iter().map(|e| (c, e)));
        }
    }
    Ok(out)
}

/// A case under one edition before it is asked: decided already (skipped, or malformed), or
/// the question to put.
enum Prepared<'a> {
    Done(CaseResult),
    Ask {
        r: CaseResult,
        expected: Expected,
        entry: Option<&'a KnownFailure>,
        overlay: Option<&'a Overlay>,
        query: Query,
    },
}

/// Decides what can be decided of a case without asking: an edition, query or overlay the
/// implementation does not declare, a rejection it cannot give (skipped), a malformed case
/// (an error).
fn prepare<'a>(
    case: &Case,
    edition: &str,
    subject: &dyn Subject,
    opts: &'a RunOptions,
) -> Prepared<'a> {
    let (mut r, expected, entry) = unasked(case, edition, opts);
    let about = subject.about();
    if !about.editions.iter().any(|e| e == edition) {
        r.detail = format!("edition {edition} not supported");
        return Prepared::Done(r);
    }
    if !about.queries.iter().any(|q| q == &case.query) {
        r.detail = format!("query {} not supported", case.query);
        return Prepared::Done(r);
    }
    if matches!(expected, Expected::Reject(_)) && !subject.can_reject() {
        r.detail = "expects a rejection, which this implementation cannot give".into();
        return Prepared::Done(r);
    }
    let overlay = match &case.overlay {
        None => None,
        Some(_) if !about.overlays => {
            r.detail =
                "the case applies an event overlay, which this implementation does not".into();
            return Prepared::Done(r);
        }
        Some(name) => match opts.overlays.iter().find(|o| &o.overlay == name) {
            Some(o) => Some(o),
            None => {
                r.status = Status::Error;
                r.detail = format!("the case names overlay `{name}`, which the spec does not ship");
                settle(&mut r, &case.query, &expected, entry, None);
                return Prepared::Done(r);
            }
        },
    };
    match Query::from_parts(&case.query, &case.input) {
        Ok(query) => Prepared::Ask {
            r,
            expected,
            entry,
            overlay,
            query,
        },
        Err(m) => {
            r.status = Status::Error;
            r.detail = format!("the case is malformed: {m}");
            settle(&mut r, &case.query, &expected, entry, None);
            Prepared::Done(r)
        }
    }
}

/// Runs one case under one edition against `subject`.
pub fn run_one(
    case: &Case,
    edition: &str,
    subject: &mut dyn Subject,
    opts: &RunOptions,
) -> CaseResult {
    ask_case(case, edition, subject, opts).0
}

/// [`run_one`], and whether the case was asked (`None`: decided without asking) and if so
/// whether the reply was a fault that ended the implementation's process (a crash, a
/// time-out, output that breaks the protocol): such a case costs a restart.
fn ask_case(
    case: &Case,
    edition: &str,
    subject: &mut dyn Subject,
    opts: &RunOptions,
) -> (CaseResult, Option<bool>) {
    let (mut r, expected, entry, overlay, query) = match prepare(case, edition, &*subject, opts) {
        Prepared::Done(r) => return (r, None),
        Prepared::Ask {
            r,
            expected,
            entry,
            overlay,
            query,
        } => (r, expected, entry, overlay, query),
    };
    let start = Instant::now();
    let reply = subject.ask(
        &format!("{}@{edition}", case.id),
        &Ask {
            edition,
            overlay,
            query: &query,
        },
        opts.timeout,
    );
    r.millis = start.elapsed().as_millis();
    let mut answer = None;
    let fault = !matches!(reply, Reply::Answer(_));
    let (status, detail) = match reply {
        Reply::Answer(a) => {
            r.got = a.display_sorted();
            let j = judge(&case.query, &expected, &a);
            let partial = super::judge::partial_judgement(&case.query, &expected, &a);
            answer = Some(a);
            match j {
                Judgement::Pass => (Status::Pass, partial.unwrap_or_default()),
                Judgement::Fail(d) => (Status::Fail, d),
                Judgement::Skip(d) => (Status::Skip, d),
                Judgement::Error(d) => (Status::Error, d),
            }
        }
        Reply::Crash(d) => (Status::Crash, d),
        Reply::Timeout(d) => (Status::Timeout, d),
        Reply::Garbage(d) => (Status::Error, d),
    };
    r.status = status;
    r.detail = detail;
    settle(&mut r, &case.query, &expected, entry, answer.as_ref());
    (r, Some(fault))
}

/// Fills in, for a result that neither passed nor was skipped, the failure as a known failure
/// lists it, and, when the case is listed, how it differs from the entry's `answer:`.
fn settle(
    r: &mut CaseResult,
    query: &str,
    expected: &Expected,
    entry: Option<&KnownFailure>,
    answer: Option<&Answer>,
) {
    use super::known::failure_of;
    r.failure = failure_of(query, expected, r.status, answer);
    let (Some(known), Some(_)) = (entry.and_then(|k| k.answer.as_ref()), &r.failure) else {
        return;
    };
    if let Err(d) = known.check(query, r.status, answer) {
        let like = match known {
            KnownAnswer::Answer(e) => e,
            KnownAnswer::Fault(_) => expected,
        };
        let now = match failure_of(query, like, r.status, answer) {
            Some(KnownAnswer::Fault(s)) => format!("{} ({})", s.name(), r.detail),
            Some(a) => a.to_value().to_string(),
            None => r.status.name().to_string(),
        };
        r.known_changed = Some(format!(
            "the known failure changed: listed as answering {}; now: {now} ({d})",
            known.to_value()
        ));
    }
}

/// Counts of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Cases that passed (and are not listed as known failures).
    pub passed: usize,
    /// Cases that failed, counting unexpected passes and changed known failures.
    pub failed: usize,
    /// Cases skipped: a query, edition or feature the implementation does not declare, or an
    /// answer `unsupported`.
    pub skipped: usize,
    /// Cases declared but not asked: the run stopped before them ([`Stall`]).
    pub not_asked: usize,
    /// Listed cases that fail as their `answer:` says.
    pub known_failures: usize,
    /// Listed cases that pass: take them off the list.
    pub unexpected_passes: usize,
    /// Listed cases that fail otherwise than their `answer:` says.
    pub changed_known_failures: usize,
    /// The failed cases by the basis of their answer (`rule`, `convention`, `optional`, and
    /// `none` for a case that does not say).
    pub failed_by_basis: BTreeMap<&'static str, usize>,
}

impl Summary {
    /// The counts of these results.
    pub fn of(results: &[CaseResult]) -> Summary {
        let mut s = Summary::default();
        for r in results {
            let t = r.tally();
            if t.fails() {
                *s.failed_by_basis.entry(basis_name(r.basis)).or_default() += 1;
            }
            match t {
                Tally::Passed => s.passed += 1,
                Tally::Failed => s.failed += 1,
                Tally::Skipped => s.skipped += 1,
                Tally::NotAsked => s.not_asked += 1,
                Tally::KnownFailure => s.known_failures += 1,
                Tally::UnexpectedPass => {
                    s.failed += 1;
                    s.unexpected_passes += 1
                }
                Tally::ChangedKnownFailure => {
                    s.failed += 1;
                    s.changed_known_failures += 1
                }
            }
        }
        s
    }

    /// The closing line: `N passed, N failed, N known failures, N skipped`, and `, N not
    /// asked` when the run stopped before some. It starts with `N passed, N failed` for
    /// readers that parse only that; known failures (listed cases that fail as listed) are
    /// neither failed nor skipped.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{} passed, {} failed, {} known failures, {} skipped",
            self.passed, self.failed, self.known_failures, self.skipped
        );
        if self.not_asked > 0 {
            let _ = write!(line, ", {} not asked", self.not_asked);
        }
        line
    }

    /// The failures by basis, `2 rule, 1 convention` (`None` when nothing failed).
    pub fn basis_line(&self) -> Option<String> {
        (self.failed > 0).then(|| {
            self.failed_by_basis
                .iter()
                .map(|(b, n)| format!("{n} {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
    }

    /// Whether nothing failed (known failures failing as listed do not count).
    pub fn ok(&self) -> bool {
        self.failed == 0
    }
}

/// The name of a basis in counts and JSON lines, `none` for a case that gives none.
fn basis_name(b: Option<Basis>) -> &'static str {
    b.map_or("none", Basis::name)
}

/// What [`run`] gives: a result per planned case and edition, in suite order, and why it
/// stopped asking, if it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Every planned case run (`plan`); after a stop, the declared cases left are
    /// [`Status::NotAsked`].
    pub results: Vec<CaseResult>,
    /// Set when the run stopped asking ([`Stall`]) and cases were left unasked.
    pub stall: Option<Stall>,
}

/// What stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StallKind {
    /// [`STALL_AFTER`] requests in a row got no answer in time.
    Timeouts,
    /// [`FAULTS_AFTER`] requests in a row each ended the implementation (a crash, a
    /// time-out, output that breaks the protocol, a restart that failed).
    Faults,
}

/// Why a run stopped asking: [`STALL_AFTER`] requests in a row got no answer in time, or
/// [`FAULTS_AFTER`] requests in a row each ended the implementation's process.
#[derive(Clone, Debug, PartialEq)]
pub struct Stall {
    /// Which rule stopped the run.
    pub kind: StallKind,
    /// How many cases were left unasked: those the implementation declares, each recorded
    /// as [`Status::NotAsked`] whose detail is [`Stall::detail`] (the others are skipped, as
    /// in any run).
    pub unasked: usize,
    /// The time limit of each request.
    pub timeout: Duration,
    /// The last request asked, as `id@edition`.
    pub last: String,
    /// What came of it: the detail of its fault (what the implementation printed).
    pub printed: String,
}

impl Stall {
    /// How many faults in a row stopped the run.
    pub fn after(&self) -> usize {
        match self.kind {
            StallKind::Timeouts => STALL_AFTER,
            StallKind::Faults => FAULTS_AFTER,
        }
    }

    /// Why the run stopped: `the implementation answered none of the last 5 requests
    /// within 1.0 s (the last, p-5@cxa-2020: …)`.
    pub fn reason(&self) -> String {
        match self.kind {
            StallKind::Timeouts => format!(
                "the implementation answered none of the last {STALL_AFTER} requests within {:.1} s (the last, {}: {})",
                self.timeout.as_secs_f64(),
                self.last,
                self.printed
            ),
            StallKind::Faults => format!(
                "each of the last {FAULTS_AFTER} requests ended the implementation (a crash, a time-out, output that breaks the protocol or a failed restart), and it was started again for each (the last, {}: {})",
                self.last, self.printed
            ),
        }
    }

    /// The detail of each case left unasked: `not asked: ` and the reason.
    pub fn detail(&self) -> String {
        format!("not asked: {}", self.reason())
    }

    /// The stall as the JSON summary's `stopped`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "unasked": self.unasked,
            "after": self.after(),
            "kind": match self.kind { StallKind::Timeouts => "timeouts", StallKind::Faults => "faults" },
            "timeout_s": self.timeout.as_secs_f64(),
            "last": self.last,
            "printed": self.printed,
        })
    }
}

/// Runs every planned pair (`plan`), calling `each` after every case.
pub fn run(
    suite: &Suite,
    subject: &mut dyn Subject,
    opts: &RunOptions,
    each: &mut dyn FnMut(&CaseResult),
) -> Result<Run, String> {
    let pairs = plan(suite, opts, subject.about())?;
    let mut out = Vec::with_capacity(pairs.len());
    // Requests in a row that got no answer in time, and that ended the implementation; at
    // STALL_AFTER and FAULTS_AFTER the runner stops asking.
    let (mut timeouts, mut faults) = (0, 0);
    let mut stall: Option<Stall> = None;
    for (case, edition) in pairs {
        let r = match &mut stall {
            Some(s) => not_asked(case, &edition, &*subject, opts, s),
            None => {
                let (r, asked) = ask_case(case, &edition, subject, opts);
                // A case decided without asking (a skip) breaks no row.
                if let Some(fault) = asked {
                    timeouts = if r.status == Status::Timeout {
                        timeouts + 1
                    } else {
                        0
                    };
                    faults = if fault { faults + 1 } else { 0 };
                }
                let kind = if timeouts == STALL_AFTER {
                    Some(StallKind::Timeouts)
                } else if faults == FAULTS_AFTER {
                    Some(StallKind::Faults)
                } else {
                    None
                };
                if let Some(kind) = kind {
                    stall = Some(Stall {
                        kind,
                        unasked: 0,
                        timeout: opts.timeout,
                        last: format!("{}@{}", r.id, r.edition),
                        printed: r.detail.clone(),
                    });
                }
                r
            }
        };
        each(&r);
        out.push(r);
    }
    subject.stop();
    // Stopped on the last case asked: nothing was left unasked.
    Ok(Run {
        results: out,
        stall: stall.filter(|s| s.unasked > 0),
    })
}

/// Time-outs in a row after which [`run`] asks nothing more: the rest of the run's declared
/// cases are [`Status::NotAsked`], and the run's [`Stall`] says why. Five, so that a
/// program slow on a few heavy cases in a row (deep perfts) is not taken for a dead one.
pub const STALL_AFTER: usize = 5;

/// Requests in a row that each ended the implementation (crash, time-out, output that breaks
/// the protocol, a failed restart) after which [`run`] asks nothing more, as after
/// [`STALL_AFTER`] time-outs: a program that dies on every request is not started again
/// once per case. Twenty, so that a program that crashes on a run of hostile inputs (a
/// folder of malformed FENs) is not taken for a dead one.
pub const FAULTS_AFTER: usize = 20;

/// A case's result before it is asked: skipped, with its expected answer and known-failure
/// entry.
fn unasked<'a>(
    case: &Case,
    edition: &str,
    opts: &'a RunOptions,
) -> (CaseResult, Expected, Option<&'a KnownFailure>) {
    let expected = case
        .expected(edition)
        .cloned()
        .unwrap_or(Expected::Reject(String::new()));
    let entry = opts.known.entry_of(case, edition);
    let rule_sets = match case.runs {
        Runs::Once => selected_editions(case, opts),
        Runs::PerRuleSet => vec![edition.to_string()],
    };
    let r = CaseResult {
        id: case.id.clone(),
        path: case.path.clone(),
        area: case.area().to_string(),
        edition: edition.to_string(),
        rule_sets,
        basis: case.basis,
        runs: case.runs,
        status: Status::Skip,
        detail: String::new(),
        expected: expected.to_string(),
        got: String::new(),
        known: entry.map(|k| k.reason.clone()),
        known_changed: None,
        failure: None,
        millis: 0,
    };
    (r, expected, entry)
}

/// The result of a case after the run stopped: skipped as in any run when the
/// implementation does not declare it, else not asked.
fn not_asked(
    case: &Case,
    edition: &str,
    subject: &dyn Subject,
    opts: &RunOptions,
    stall: &mut Stall,
) -> CaseResult {
    match prepare(case, edition, subject, opts) {
        Prepared::Done(r) => r,
        Prepared::Ask { mut r, .. } => {
            stall.unasked += 1;
            r.status = Status::NotAsked;
            r.detail = stall.detail();
            r
        }
    }
}

#[cfg(test)]
mod tests;
