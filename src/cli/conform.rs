//! The conformance subcommands of the `xqspec` binary: `conform`, `serve`,
//! `cases check`, `cases coverage`. `app.rs` only dispatches here.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::spec::Spec;

use crate::conform::check::check_suite;
use crate::conform::coverage::Coverage;
use crate::conform::known;
use crate::conform::protocol;
use crate::conform::runner::{self, KnownFailures, RunOptions, Summary, Tally};
use crate::conform::subject::{Adapter, InProcess, Subject};
use crate::conform::suite::{SpecFacts, Suite};
use crate::conform::uci::{Dialect, Engine, EngineRuling, RankBase};
use crate::query::Query;
use crate::reference::Reference;

use super::progress::Progress;

/// Options of `xqspec conform`.
#[derive(Args, Debug, Clone)]
pub struct ConformArgs {
    /// Run an implementation speaking conformance/PROTOCOL.md, started with this
    /// shell command line (e.g. "xqspec serve", "python3 adapter.py").
    #[arg(long, value_name = "CMD", conflicts_with_all = ["uci", "ucci"])]
    pub adapter: Option<String>,
    /// Drive a UCI engine (Pikafish, Fairy-Stockfish; a path or a command line) for perft and
    /// legal moves (`go perft`). See PROTOCOL.md §7.1 for where to get one.
    #[arg(long, value_name = "PATH", conflicts_with = "ucci")]
    pub uci: Option<String>,
    /// Drive a UCCI engine (ElephantEye and the engines Chinese GUIs load; a path or a command
    /// line) for legal moves (found with `banmoves` and `go depth 1`) and shallow perft.
    #[arg(long, value_name = "PATH")]
    pub ucci: Option<String>,
    /// How the UCI engine numbers ranks: 0 (0–9, Pikafish) or 1 (1–10, Fairy-Stockfish);
    /// detected from the UCI_Variant option when not given.
    #[arg(long, value_name = "0|1", value_parser = ["0", "1"])]
    pub uci_ranks: Option<String>,
    /// Whether to ask the engine's search for 棋例 rulings (the `ruling` query, read from its
    /// score; PROTOCOL.md §7.1): `RULESET` (e.g. `axf`) for an engine whose search follows
    /// that rule set's repetition rules, with `:N` the times the completing move must make the
    /// position stand for it to rule (default 3); `none` never. Default: as the engine names
    /// itself (Fairy-Stockfish from release 14, ElephantEye and Pikafish: `axf`).
    #[arg(long, value_name = "RULESET[:N]|none")]
    pub engine_ruling: Option<String>,
    /// Only this edition (repeatable); default: every edition.
    #[arg(long, value_name = "EDITION")]
    pub edition: Vec<String>,
    /// Only cases whose id or path (e.g. `movement/horse-*`) matches (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub run: Vec<String>,
    /// Leave out cases whose id or path matches (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub skip: Vec<String>,
    /// Leave out cases tagged with this feature (repeatable).
    #[arg(long, value_name = "FEATURE")]
    pub skip_feature: Vec<String>,
    /// Only the cases of these areas (comma-separated, repeatable): `movement,check,perft,games`.
    #[arg(long, value_name = "AREA,…", value_delimiter = ',')]
    pub areas: Vec<String>,
    /// A named selection of the suite (conformance/profiles.yaml): `engine` is movement, check,
    /// perft and real games without the slow perfts, a run of seconds.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Run this one case and print a bug report fit to paste into the program's issue tracker:
    /// the input, what was sent and what the program printed, its answer, the expected one
    /// and why (the article, for a rule).
    #[arg(long, value_name = "CASE", conflicts_with_all = ["json", "report", "write_known_failures", "update_known_failures"])]
    pub issue: Option<String>,
    /// YAML list of `{id, edition?, reason, answer}`: cases expected to fail, each with the
    /// answer expected instead of the case's (default for the built-in reference:
    /// conformance/reference-known-failures.yaml).
    #[arg(long, value_name = "FILE")]
    pub known_failures: Option<PathBuf>,
    /// Seconds allowed for one answer.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Print JSON lines (header, one line per case, summary) instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Show no progress on stderr (shown after a few seconds: cases done, failures so far,
    /// the slowest answer).
    #[arg(long)]
    pub quiet: bool,
    /// Print each known failure with its whole detail and the reason it is listed (by
    /// default one line each: the case, the edition and what is answered).
    #[arg(long)]
    pub verbose: bool,
    /// Also write a Markdown report to this file, and the positions of the cases that did
    /// not pass into `FILE-diagrams/` beside it. Like every file the run writes, it is
    /// claimed before the run: never a file it reads, never another output.
    #[arg(long, value_name = "FILE.md")]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub cases: CasesDir,
    /// Write every failing case to this file in the known-failures format, with the answer
    /// given (reasons to be edited).
    #[arg(long, value_name = "FILE")]
    pub write_known_failures: Option<PathBuf>,
    /// Run against this known-failures file (any failure of a listed case counts as known)
    /// and rewrite its `answer:`s from the answers now given, keeping its header comment,
    /// order and reasons; entries whose cases pass are removed (the one file a command
    /// rewrites in place, on purpose).
    #[arg(long, value_name = "FILE", conflicts_with = "known_failures")]
    pub update_known_failures: Option<PathBuf>,
}

/// `xqspec cases …`
#[derive(Subcommand, Debug, Clone)]
pub enum CasesCommand {
    /// Check every case file: fields, ids, editions, clauses, features, expectations.
    Check {
        #[command(flatten)]
        cases: CasesDir,
    },
    /// Clause coverage per edition: print, write or check `reports/coverage.md`.
    ///
    /// With `--check`, also fail when a clause is uncovered and not exempt.
    Coverage {
        #[command(flatten)]
        cases: CasesDir,
        #[command(flatten)]
        how: WriteOrCheck,
        #[arg(long, value_name = "FILE", default_value = "reports/coverage.md")]
        output: PathBuf,
    },
    /// Print every case × edition as one JSON line (id, path, area, edition, clauses, the
    /// clauses' articles in that edition, features, query, input, expect, basis, runs,
    /// overlay, fixed), for runners written in other languages.
    Dump {
        #[command(flatten)]
        cases: CasesDir,
        /// Only this edition (repeatable); default: every edition.
        #[arg(long, value_name = "EDITION")]
        edition: Vec<String>,
    },
    /// Print, write or check the JSON Schema of case files (`conformance/case.schema.json`).
    Schema {
        #[command(flatten)]
        cases: CasesDir,
        #[command(flatten)]
        how: WriteOrCheck,
    },
}

/// `--write` and `--check` of a command that generates a file; with neither, it prints the
/// file's text.
#[derive(Args, Debug, Clone, Copy)]
pub struct WriteOrCheck {
    /// Write the file.
    #[arg(long, conflicts_with = "check")]
    pub write: bool,
    /// Fail when the file differs from what the command generates.
    #[arg(long)]
    pub check: bool,
}

impl WriteOrCheck {
    /// Prints `text`, writes it to `path` (claimed in `outputs` as `label`), or compares it
    /// with `path`. I/O faults of a write are the error; what `--check` finds wrong (the file
    /// stale or unreadable) is the `Some`, naming `xqspec {command} --write` as the cure.
    fn apply(
        self,
        text: &str,
        path: &Path,
        mut outputs: crate::output::Outputs,
        label: &str,
        command: &str,
    ) -> Result<Option<String>, String> {
        if self.write {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            outputs
                .claim(path, label)
                .and_then(|t| t.write(text.as_bytes()))
                .map_err(|e| e.to_string())?;
            println!("wrote {}", path.display());
        } else if self.check {
            return Ok(match std::fs::read_to_string(path) {
                Ok(old) if old == text => None,
                Ok(_) => Some(format!(
                    "{} is stale: run `xqspec {command} --write`",
                    path.display()
                )),
                Err(e) => Some(format!("cannot read {}: {e}", path.display())),
            });
        } else {
            print!("{text}");
        }
        Ok(None)
    }
}

/// `--cases DIR`: the folder the suite is read from.
#[derive(Args, Debug, Clone)]
pub struct CasesDir {
    /// Read the cases from this directory instead of `conformance/` (or the built-in copy).
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
}

impl CasesDir {
    /// The folder given, if one is.
    pub fn path(&self) -> Option<&Path> {
        self.cases.as_deref()
    }

    /// The suite it names ([`load_suite`]).
    pub fn load(&self) -> Result<Suite, String> {
        load_suite(self.path())
    }
}

/// The suite from `--cases DIR`, else `./conformance` when it exists, else the built-in copy.
pub fn load_suite(dir: Option<&Path>) -> Result<Suite, String> {
    match dir {
        Some(d) => Suite::load_dir(d).map_err(|e| format!("cannot read {}: {e}", d.display())),
        None if Path::new("conformance/vocabulary.yaml").exists() => {
            Suite::load_dir(Path::new("conformance"))
                .map_err(|e| format!("cannot read conformance/: {e}"))
        }
        None => Ok(Suite::embedded()),
    }
}

/// `xqspec conform`.
pub fn conform(spec_dir: Option<&Path>, args: ConformArgs) -> Result<(), String> {
    let spec = Spec::load(spec_dir).map_err(|e| e.to_string())?;
    let suite = args.cases.load()?;
    let Claimed {
        mut outputs,
        update_file,
        report_file,
        known_file,
    } = claim_outputs(spec_dir, &args)?;
    for p in &suite.problems {
        eprintln!("warning: {p} (the file is not run; see `xqspec cases check`)");
    }
    for e in &args.edition {
        spec.edition_named(e)?;
    }
    for (flag, cmd) in [
        ("--adapter", &args.adapter),
        ("--uci", &args.uci),
        ("--ucci", &args.ucci),
    ] {
        if cmd.as_deref().is_some_and(|c| c.trim().is_empty()) {
            return Err(format!(
                "{flag} is given an empty command line: give the program to run (a path, or a command line such as `python3 adapter.py`)"
            ));
        }
    }
    // The built-in reference runs against its own list of known failures unless told otherwise.
    let in_process = args.adapter.is_none() && args.uci.is_none() && args.ucci.is_none();
    let (known, updating) = known_failures(&args, &suite, in_process)?;
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err("--timeout is a positive number of seconds".into());
    }
    let timeout = Duration::from_secs_f64(args.timeout);
    let opts = run_options(&args, &suite, &spec, known, timeout)?;
    let start_timeout = timeout.max(Duration::from_secs(10));
    // The programs run in process groups of their own: an interrupt ends them first.
    crate::conform::end_programs_on_interrupt();
    let mut subject = start_subject(&args, &spec, start_timeout, timeout)?;
    let about = subject.about().clone();
    let program = crate::conform::issue::Program {
        about: &about,
        via: match (&args.adapter, &args.uci, &args.ucci) {
            (Some(c), _, _) => format!("--adapter {}", shell_word(c)),
            (_, Some(c), _) => format!("--uci {}", shell_word(c)),
            (_, _, Some(c)) => format!("--ucci {}", shell_word(c)),
            _ => String::new(),
        },
    };
    if args.issue.is_some() {
        return issue(&spec, &suite, subject.as_mut(), &opts, &program);
    }
    if args.json {
        let editions: Vec<String> = if opts.editions.is_empty() {
            spec.editions().iter().map(|e| e.id.clone()).collect()
        } else {
            opts.editions.clone()
        };
        println!("{}", runner::json_header(&about, &editions));
    }
    let json = args.json;
    let runner::Run { results, stall } =
        run_with_progress(&suite, subject.as_mut(), &opts, &about, json, args.quiet)?;
    let summary = Summary::of(&results);

    if json {
        println!("{}", runner::json_summary(&summary, stall.as_ref()));
        eprintln!("{}", summary.line());
    } else {
        print_summary(&about, &results, &summary, &args, updating.is_some());
    }
    if let (Some(path), Some(file)) = (&args.report, &report_file) {
        let diagrams = failure_diagrams(&spec, &suite, &results, path, &mut outputs)?;
        let mut text = runner::markdown_report(&about, &results, &diagrams);
        text.push_str(&crate::conform::issue::groups_markdown(
            &results, &suite, &spec, &program,
        ));
        file.write(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    if let Some(file) = &known_file {
        file.write(runner::known_failures_yaml(&results).as_bytes())
            .map_err(|e| e.to_string())?;
    }
    if let (Some((path, text, listed)), Some(file)) = (&updating, &update_file) {
        return update_known_failures(path, text, listed, file, &results);
    }
    match stall {
        Some(s) => Err(format!(
            "the run stopped asking, {} cases left unasked: {}",
            s.unasked,
            s.reason()
        )),
        None if summary.ok() => Ok(()),
        None => Err(format!("{} failed", summary.failed)),
    }
}

/// The known failures the run judges against, and with `--update-known-failures` the file
/// to rewrite after the run (its path, its text, its entries). The built-in reference runs
/// against its own list unless told otherwise.
#[allow(clippy::type_complexity)]
fn known_failures(
    args: &ConformArgs,
    suite: &Suite,
    in_process: bool,
) -> Result<(KnownFailures, Option<(PathBuf, String, KnownFailures)>), String> {
    let read = |f: &Path| crate::input::read_file(f).map_err(|e| e.to_string());
    let lines = |errs: Vec<crate::conform::case::Problem>| {
        errs.iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut updating = None;
    let known = match (&args.known_failures, &args.update_known_failures) {
        (_, Some(f)) => {
            let text = read(f)?;
            let listed = KnownFailures::parse_for_update(&f.display().to_string(), &text, suite)
                .map_err(lines)?;
            // Any failure of a listed case is known in this run: its answer is what is rewritten.
            let mut any = listed.clone();
            any.entries.iter_mut().for_each(|k| k.answer = None);
            updating = Some((f.clone(), text, listed));
            any
        }
        (None, None) if in_process => suite.reference_known_failures().map_err(lines)?,
        (None, None) => KnownFailures::default(),
        (Some(f), None) => {
            KnownFailures::parse(&f.display().to_string(), &read(f)?, suite).map_err(lines)?
        }
    };
    Ok((known, updating))
}

/// The program under test: an adapter, a UCI or UCCI engine, or the built-in reference in
/// process.
fn start_subject(
    args: &ConformArgs,
    spec: &Spec,
    start_timeout: Duration,
    timeout: Duration,
) -> Result<Box<dyn Subject>, String> {
    Ok(if let Some(cmd) = &args.adapter {
        Box::new(Adapter::start(cmd, start_timeout, timeout)?)
    } else if let Some((path, dialect)) = args
        .uci
        .as_ref()
        .map(|p| (p, Dialect::Uci))
        .or(args.ucci.as_ref().map(|p| (p, Dialect::Ucci)))
    {
        let base = match args.uci_ranks.as_deref() {
            Some("0") => RankBase::Zero,
            Some("1") => RankBase::One,
            _ => RankBase::Detect,
        };
        let editions = spec.editions().iter().map(|e| e.id.clone()).collect();
        let ruling = match args.engine_ruling.as_deref() {
            None => EngineRuling::Known,
            Some("none") => EngineRuling::Off,
            Some(v) => {
                let (rule_set, n) = match v.split_once(':') {
                    Some((r, n)) => (
                        r,
                        Some(n.parse::<usize>().map_err(|_| {
                            format!("--engine-ruling {v}: `{n}` is not a number of times")
                        })?),
                    ),
                    None => (v, None),
                };
                EngineRuling::As {
                    rule_set: rule_set.to_string(),
                    occurrences: n,
                }
            }
        };
        Box::new(Engine::start_ruling(
            path,
            dialect,
            base,
            editions,
            start_timeout,
            ruling,
            Some(spec),
        )?)
    } else {
        Box::new(InProcess::new(Reference::new(spec)))
    })
}

/// The run's text summary: the program, the table by area (and by basis), the problems,
/// what to do about known failures that pass or answer otherwise, the closing line.
fn print_summary(
    about: &crate::conform::About,
    results: &[runner::CaseResult],
    summary: &Summary,
    args: &ConformArgs,
    updating: bool,
) {
    println!(
        "{} {} against suite {}, protocol {}",
        about.name(),
        about.version(),
        crate::conform::suite::SUITE_VERSION,
        protocol::PROTOCOL_VERSION
    );
    println!("{}", runner::area_table(results, false));
    if let Some(t) = runner::basis_table(results, false) {
        println!("{t}");
    }
    for l in runner::problem_lines(results, args.verbose) {
        println!("{l}");
    }
    if summary.known_failures > 0 && !args.verbose {
        println!(
            "(known failures: expected, each listed with its reason; --verbose prints the reasons)"
        );
    }
    if summary.unexpected_passes > 0 && !updating {
        println!(
            "{} cases listed as known failures pass: take them off the list",
            summary.unexpected_passes
        );
    }
    if summary.changed_known_failures > 0 {
        println!(
            "{} known failures answer otherwise than their `answer:`: check the answers, then update the list ({})",
            summary.changed_known_failures,
            match (&args.known_failures, args.cases.path()) {
                (None, None) => known::UPDATE_REFERENCE.to_string(),
                (Some(f), _) => format!("the same options with `--update-known-failures {}`", f.display()),
                (None, Some(d)) => format!(
                    "the same options with `--update-known-failures {}`",
                    d.join(crate::conform::suite::REFERENCE_KNOWN_FAILURES).display()
                ),
            }
        );
    }
    println!("{}", summary.line());
}

/// The files a run writes, each claimed before the run starts: none is a file it reads,
/// none is another's, and the report's diagrams folder does not lead out of its folder.
struct Claimed {
    outputs: crate::output::Outputs,
    /// `--update-known-failures`.
    update_file: Option<crate::output::Target>,
    /// `--report`.
    report_file: Option<crate::output::Target>,
    /// `--write-known-failures`.
    known_file: Option<crate::output::Target>,
}

fn claim_outputs(spec_dir: Option<&Path>, args: &ConformArgs) -> Result<Claimed, String> {
    let writes = args.report.is_some()
        || args.write_known_failures.is_some()
        || args.update_known_failures.is_some();
    let mut outputs = if writes {
        inputs(spec_dir, args.cases.path())
    } else {
        crate::output::Outputs::new()
    };
    if let Some(f) = &args.known_failures {
        outputs.input(f, "the known failures (--known-failures)");
    }
    let claim = |o: &mut crate::output::Outputs, p: &Option<PathBuf>, what: &str| {
        p.as_ref()
            .map(|p| o.claim(p, what))
            .transpose()
            .map_err(|e| e.to_string())
    };
    let update_file = args
        .update_known_failures
        .as_ref()
        .map(|p| outputs.claim_update(p, "--update-known-failures"))
        .transpose()
        .map_err(|e| e.to_string())?;
    let report_file = claim(&mut outputs, &args.report, "--report")?;
    let known_file = claim(
        &mut outputs,
        &args.write_known_failures,
        "--write-known-failures",
    )?;
    if let Some(r) = &args.report {
        // The report's diagrams folder must not lead out of the report's folder.
        outputs
            .folder_in(
                r.parent().unwrap_or(Path::new(".")),
                Path::new(&diagrams_folder(r)),
                "the diagrams of --report",
            )
            .map_err(|e| e.to_string())?;
    }
    Ok(Claimed {
        outputs,
        update_file,
        report_file,
        known_file,
    })
}

/// `--update-known-failures`: the file rewritten with this run's answers; an error when a
/// failing case is not listed in it.
fn update_known_failures(
    path: &Path,
    text: &str,
    listed: &KnownFailures,
    file: &crate::output::Target,
    results: &[runner::CaseResult],
) -> Result<(), String> {
    let updated = known::update(text, listed, results);
    file.write(updated.text.as_bytes())
        .map_err(|e| e.to_string())?;
    for n in &updated.notes {
        eprintln!("{}: {n}", path.display());
    }
    let unlisted = results
        .iter()
        .filter(|r| r.tally() == Tally::Failed)
        .count();
    eprintln!("updated the answers of {}", path.display());
    if unlisted == 0 {
        Ok(())
    } else {
        Err(format!(
            "{unlisted} failing cases are not listed in {}: add them with a reason (`--write-known-failures FILE` writes entries to start from)",
            path.display()
        ))
    }
}

/// What the run asks: the rule sets, cases, areas and features chosen (a `--profile`'s
/// added, `--issue`'s one case), the known failures, the time limit, the event overlays.
fn run_options(
    args: &ConformArgs,
    suite: &Suite,
    spec: &Spec,
    known: KnownFailures,
    timeout: Duration,
) -> Result<RunOptions, String> {
    let mut opts = RunOptions {
        editions: args.edition.clone(),
        run: args.run.clone(),
        skip: args.skip.clone(),
        skip_features: args.skip_feature.clone(),
        areas: args.areas.clone(),
        known,
        timeout,
        overlays: spec.overlays().to_vec(),
    };
    if let Some(name) = &args.profile {
        let p = suite.profiles.get(name).ok_or_else(|| {
            format!(
                "unknown profile `{name}` (conformance/profiles.yaml has {})",
                suite
                    .profiles
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        opts.areas.extend(p.areas.iter().cloned());
        opts.skip_features.extend(p.skip_features.iter().cloned());
    }
    if let Some(id) = &args.issue {
        if suite.case(id).is_none() {
            return Err(format!("--issue: no case has the id `{id}`"));
        }
        opts.run = vec![id.clone()];
    }
    Ok(opts)
}

/// The run, with its progress line (cases done, failed, the slowest answer) and, with
/// `--json`, each case's line as it comes.
fn run_with_progress(
    suite: &Suite,
    subject: &mut dyn Subject,
    opts: &RunOptions,
    about: &crate::conform::About,
    json: bool,
    quiet: bool,
) -> Result<runner::Run, String> {
    let stdout = std::io::stdout();
    let total = runner::plan(suite, opts, about)?.len();
    let mut progress = Progress::new(!quiet);
    let (mut done, mut failed) = (0, 0);
    let mut slowest: Option<(u128, String)> = None;
    let run = runner::run(suite, subject, opts, &mut |r| {
        done += 1;
        failed += usize::from(r.tally().fails());
        if slowest.as_ref().is_none_or(|(ms, _)| r.millis > *ms) {
            slowest = Some((r.millis, format!("{}@{}", r.id, r.edition)));
        }
        let secs = progress.elapsed().as_secs_f64();
        progress.tick(|| {
            let mut line = format!("conform: {done}/{total} cases, {failed} failed, {secs:.0} s");
            if let Some((ms, id)) = &slowest {
                line.push_str(&format!(
                    ", slowest answer {:.1} s ({id})",
                    *ms as f64 / 1000.0
                ));
            }
            line
        });
        if json {
            let mut out = stdout.lock();
            let _ = writeln!(out, "{}", runner::json_case(r));
            let _ = out.flush();
        }
    })?;
    progress.finish();
    Ok(run)
}

/// A command line as one shell word, quoted when it has to be.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=:".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `xqspec conform --issue CASE`: the case under each rule set the run plans for it, with
/// the lines exchanged with the program recorded, as bug reports. Fails (exit status 1) when
/// the case fails.
fn issue(
    spec: &Spec,
    suite: &Suite,
    subject: &mut dyn Subject,
    opts: &RunOptions,
    program: &crate::conform::issue::Program,
) -> Result<(), String> {
    let plan = runner::plan(suite, opts, subject.about())?;
    let mut failed = 0;
    for (case, edition) in plan {
        let (r, transcript) =
            crate::conform::with_transcript(|| runner::run_one(case, &edition, subject, opts));
        failed += usize::from(r.tally().fails());
        println!(
            "{}",
            crate::conform::issue::report(case, &r, program, spec, suite, &transcript)
        );
    }
    subject.stop();
    if failed == 0 {
        Ok(())
    } else {
        Err(format!("{failed} failed"))
    }
}

/// Diagrams of the positions of the results that did not pass, written into a folder
/// beside the report (`REPORT-diagrams/`); `(case id, edition)` → path relative to the report.
fn failure_diagrams(
    spec: &Spec,
    suite: &Suite,
    results: &[runner::CaseResult],
    report: &Path,
    outputs: &mut crate::output::Outputs,
) -> Result<std::collections::BTreeMap<(String, String), String>, String> {
    let mut out = std::collections::BTreeMap::new();
    let failing: Vec<&runner::CaseResult> = results
        .iter()
        .filter(|r| !matches!(r.tally(), runner::Tally::Passed | runner::Tally::Skipped))
        .collect();
    if failing.is_empty() {
        return Ok(out);
    }
    let folder = diagrams_folder(report);
    let beside = report.parent().unwrap_or(Path::new("."));
    let reference = Reference::new(spec);
    for r in failing {
        let Some(case) = suite.cases.iter().find(|c| c.path == r.path) else {
            continue;
        };
        let overlay = case.overlay.as_ref().and_then(|o| spec.overlay(o));
        let Ok(rs) = reference.ruleset(&r.edition, overlay) else {
            continue;
        };
        let Some(svg) =
            crate::diagram::of_input(&rs, &case.input, &format!("{} [{}]", case.id, r.edition))
        else {
            continue;
        };
        let name = format!("{}-{}.svg", case.stem_path().replace('/', "-"), r.edition);
        outputs
            .claim_in(
                beside,
                &Path::new(&folder).join(&name),
                "a diagram of --report",
            )
            .and_then(|t| t.write(svg.as_bytes()))
            .map_err(|e| e.to_string())?;
        out.insert(
            (r.id.clone(), r.edition.clone()),
            format!("{folder}/{name}"),
        );
    }
    Ok(out)
}

/// The folder of a report's diagrams, beside it: `REPORT-diagrams`.
fn diagrams_folder(report: &Path) -> String {
    let stem = report
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("report");
    format!("{stem}-diagrams")
}

/// The files the suite's commands read: the spec's and the cases' (no output is one).
fn inputs(spec_dir: Option<&Path>, cases: Option<&Path>) -> crate::output::Outputs {
    let mut o = super::outputs(spec_dir, None);
    let cases = cases.unwrap_or(Path::new("conformance"));
    o.input_dir(cases, "a file of the cases", &[".yaml", ".yml"]);
    o
}

/// `xqspec serve`: the reference implementation on stdin/stdout.
pub fn serve(spec_dir: Option<&Path>) -> Result<(), String> {
    let spec = Spec::load(spec_dir).map_err(|e| e.to_string())?;
    let mut reference = Reference::new(&spec);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    protocol::serve(&mut reference, stdin.lock(), stdout.lock()).map_err(|e| e.to_string())
}

/// `xqspec cases dump`: every run of the suite as a JSON line (its input as the query
/// reads it, its expectation under that rule set, each clause's article there).
fn cases_dump(spec: &Spec, cases: Option<&Path>, edition: Vec<String>) -> Result<(), String> {
    let suite = load_suite(cases)?;
    let opts = RunOptions {
        editions: edition,
        ..RunOptions::default()
    };
    let mut out = std::io::stdout().lock();
    let mut rulesets = std::collections::HashMap::new();
    for (case, ed) in runner::select(&suite, &opts)? {
        let input = Query::from_parts(&case.query, &case.input)
            .map(|q| q.input())
            .unwrap_or_else(|_| case.input.clone());
        let rs = rulesets
            .entry(ed.clone())
            .or_insert_with(|| spec.ruleset(&ed).ok());
        // Each clause's article in this rule set (null where it has none).
        let articles: serde_json::Map<String, serde_json::Value> = case
            .clauses
            .iter()
            .map(|c| {
                let art = rs
                    .as_ref()
                    .and_then(|r| r.clause(c))
                    .and_then(|c| c.article.clone());
                (c.clone(), art.into())
            })
            .collect();
        let line = serde_json::json!({
            "id": case.id, "path": case.path, "area": case.area(), "edition": ed,
            "clauses": case.clauses, "articles": articles, "features": case.features, "query": case.query,
            "input": input,
            "expect": case.expected(&ed).map(|e| e.to_value()).unwrap_or_default(),
            "basis": case.basis.map(|b| b.name()), "runs": case.runs.name(),
            "overlay": case.overlay, "fixed": case.fixed,
        });
        match writeln!(out, "{line}") {
            Ok(()) => {}
            // `xqspec cases dump | head` is fine.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}

/// `xqspec cases coverage`: which clauses the cases cite; fails on a clause cited by no case
/// and not exempt, and on a needless exemption.
fn cases_coverage(
    spec_dir: Option<&Path>,
    spec: &Spec,
    cases: Option<&Path>,
    how: WriteOrCheck,
    output: &Path,
) -> Result<(), String> {
    let suite = load_suite(cases)?;
    let cov = Coverage::compute(&suite, &SpecFacts::from_spec(spec));
    let text = cov.markdown();
    let outputs = inputs(spec_dir, cases);
    let mut errors: Vec<String> = how
        .apply(&text, output, outputs, "--output", "cases coverage")?
        .into_iter()
        .collect();
    let uncovered = cov.uncovered();
    if !uncovered.is_empty() {
        errors.push(format!(
            "{} clauses are cited by no case and not exempt in conformance/exemptions.yaml: {}",
            uncovered.len(),
            uncovered.join(", ")
        ));
    }
    let needless = cov.needless_exemptions(&suite);
    if !needless.is_empty() {
        errors.push(format!(
            "exempt clauses that cases cite after all (remove them from conformance/exemptions.yaml): {}",
            needless.join(", ")
        ));
    }
    if errors.is_empty() {
        if how.check {
            println!(
                "coverage ok: {} is current, every clause covered or exempt",
                output.display()
            );
        }
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// `xqspec cases …`.
pub fn cases(spec_dir: Option<&Path>, command: CasesCommand) -> Result<(), String> {
    let spec = Spec::load(spec_dir).map_err(|e| e.to_string())?;
    match command {
        CasesCommand::Check { cases } => {
            let suite = cases.load()?;
            let problems = check_suite(&suite, &spec);
            for p in &problems {
                println!("{p}");
            }
            println!(
                "{} case files, {} problems",
                suite.texts.len(),
                problems.len()
            );
            if problems.is_empty() {
                Ok(())
            } else {
                Err(format!("{} problems in the cases", problems.len()))
            }
        }
        CasesCommand::Dump { cases, edition } => cases_dump(&spec, cases.path(), edition),
        CasesCommand::Schema { cases, how } => {
            let suite = cases.load()?;
            let text = crate::conform::schema::case_schema(&suite.vocabulary);
            let path = cases
                .path()
                .unwrap_or(Path::new("conformance"))
                .join("case.schema.json");
            let outputs = inputs(spec_dir, cases.path());
            if let Some(problem) = how.apply(
                &text,
                &path,
                outputs,
                "cases schema --write",
                "cases schema",
            )? {
                return Err(problem);
            }
            if how.check {
                println!("schema ok: {} is current", path.display());
            }
            Ok(())
        }
        CasesCommand::Coverage { cases, how, output } => {
            cases_coverage(spec_dir, &spec, cases.path(), how, &output)
        }
    }
}
