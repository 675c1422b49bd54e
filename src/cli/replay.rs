//! `xqspec replay`: record files replayed (and converted) on all cores, a status line per
//! game and a closing summary; the library replays ([`xqspec::notation::replay`]) and
//! streams the files ([`xqspec::notation::stream`]).

use std::path::{Path, PathBuf};

use xqspec::notation::replay::{write_game, GameReplay, Remark, ReplayError};
use xqspec::notation::{KindMap, Notation, Style};
use xqspec::vm::Rules;

/// Options of `xqspec replay`.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// Text encoding of the inputs; detected when `None`.
    pub encoding: Option<String>,
    /// Write converted records in this notation.
    pub(crate) to: Option<Notation>,
    /// Style of converted records.
    pub(crate) style: Style,
    /// Where converted records go: a file (one input) or a directory; stdout when `None`.
    pub(crate) out: Option<PathBuf>,
    /// Print only errors and the summary.
    pub quiet: bool,
    /// Threads (all cores when `None`).
    pub threads: Option<usize>,
    /// The files the command reads besides the records (`--spec`, `--overlay`): no output
    /// may be one of them.
    pub(crate) outputs: xqspec::output::Outputs,
}

/// Totals of a replay run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games found (replayed or not).
    pub(crate) games: usize,
    /// Games replayed without error, variations included.
    pub(crate) replayed: usize,
    /// Moves replayed, variations included.
    pub moves: usize,
    /// Runs of text that are no game.
    pub(crate) not_games: usize,
    /// Files that could not be read.
    pub(crate) unread: usize,
    /// Files read to the end or refused.
    pub files: usize,
    /// What failed, in order: `game 501, line 9012: comment never closed` (the first few).
    pub(crate) failures: Named,
    /// Remarks, in order: `game 3, line 5, column 1: …` (the first few).
    pub(crate) remarks: Named,
}

/// A count of things of which the first few are named: memory stays bounded over a
/// database of any size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Named {
    count: usize,
    first: Vec<String>,
}

impl Named {
    pub(crate) fn push(&mut self, what: String) {
        self.count += 1;
        if self.first.len() < SUMMARY_FAILURES {
            self.first.push(what);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.count
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The first few, joined.
    pub(crate) fn join(&self, with: &str) -> String {
        self.first.join(with)
    }
}

/// How many failures and remarks the summary line names.
const SUMMARY_FAILURES: usize = 3;

/// `1234567` → `1,234,567`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n things (the first three; 2 more)`.
fn counted(n: usize, one: &str, many: &str, named: Option<&Named>) -> String {
    let mut s = format!("{} {}", thousands(n), if n == 1 { one } else { many });
    if let Some(named) = named.filter(|n| !n.is_empty()) {
        let mut shown: Vec<String> = named.first.clone();
        if named.len() > SUMMARY_FAILURES {
            shown.push(format!(
                "{} more",
                thousands(named.len() - SUMMARY_FAILURES)
            ));
        }
        s.push_str(&format!(" ({})", shown.join("; ")));
    }
    s
}

impl Totals {
    /// Games found (replayed or not).
    pub fn games(&self) -> usize {
        self.games
    }

    /// Errors: games that failed, runs of text that are no game, files not read.
    pub(crate) fn errors(&self) -> usize {
        self.failures.len()
    }

    /// The closing line: `1,000 games found, 999 replayed, 1 error (game 501, line 9012:
    /// comment never closed); 119,880 moves`, and the remarks when there are any.
    pub(crate) fn summary(&self) -> String {
        let games = if self.games == 1 { "game" } else { "games" };
        let mut s = format!(
            "{} {games} found, {} replayed, {}; {}",
            thousands(self.games),
            thousands(self.replayed),
            counted(self.errors(), "error", "errors", Some(&self.failures)),
            counted(self.moves, "move", "moves", None)
        );
        if !self.remarks.is_empty() {
            s.push_str(&format!(
                "; {}",
                counted(self.remarks.len(), "remark", "remarks", Some(&self.remarks))
            ));
        }
        s
    }
}

/// What `xqspec replay` keeps of a game, computed where it was replayed.
struct Replayed {
    title: String,
    moves: usize,
    variations: usize,
    error: Option<ReplayError>,
    variation_error: Option<ReplayError>,
    remarks: Vec<Remark>,
    /// The game written in the notation converted to.
    converted: Option<String>,
}

/// Replay files as `xqspec replay` does, printing per-game status lines and a closing
/// line. Status goes to `report`; converted records to stdout unless `--out` is given.
/// Files are streamed over all cores by [`stream`](xqspec::notation::stream::stream) (the games the
/// [`records`](xqspec::notation::records) path finds, numbered alike, given back in file order);
/// `judge` gives the end the moves of a replayed game reach, if any, for the remark on a
/// recorded result that contradicts it. `tick` sees the totals after each game, file or
/// problem (for progress). Returns the totals.
pub fn run(
    rules: &Rules,
    files: &[PathBuf],
    opts: &ReplayOptions,
    judge: &(dyn Fn(&GameReplay) -> Option<xqspec::notation::records::Ending> + Sync),
    report: &mut dyn std::io::Write,
    tick: &mut dyn FnMut(&Totals),
) -> std::io::Result<Totals> {
    use xqspec::notation::stream::{stream, Found};
    let kinds = KindMap::new(rules);
    let mut totals = Totals::default();
    let encoding = match &opts.encoding {
        Some(name) => match xqspec::notation::encoding::by_name(name) {
            Ok(e) => Some(e),
            Err(e) => {
                writeln!(report, "error: {e}")?;
                totals.failures.push(e.to_string());
                writeln!(report, "{}", totals.summary())?;
                return Ok(totals);
            }
        },
        None => None,
    };
    let work = |g: xqspec::notation::records::GameEntry<'_, ()>| {
        let r = &g.replay;
        Replayed {
            title: r.title.clone(),
            moves: r.moves.len(),
            variations: r.variations,
            error: r.error.clone(),
            variation_error: r.variation_errors.first().cloned(),
            converted: opts
                .to
                .map(|n| write_game(rules, &kinds, &g.game, r, n, opts.style)),
            remarks: g.remarks,
        }
    };
    let stream_opts = xqspec::notation::stream::Options {
        encoding,
        threads: opts.threads,
        ..Default::default()
    };
    // Where each file's converted records go, every one claimed before anything is read
    // or written: none is a file read, none is another's, none leads out of the folder.
    let mut targets: Vec<Option<xqspec::output::Target>> = Vec::new();
    if let (Some(n), Some(out)) = (opts.to, &opts.out) {
        let mut outputs = opts.outputs.clone();
        for f in files {
            outputs.input(f, "the record file");
        }
        let folder = out.is_dir() || files.len() > 1;
        for f in files {
            let claimed = if folder {
                let what = format!("the records converted from {} (--out)", f.display());
                outputs.claim_in(out, Path::new(&converted_name(f, n)), &what)
            } else {
                outputs.claim(out, "--out")
            };
            targets.push(Some(claimed.map_err(std::io::Error::other)?));
        }
    }
    // Converted records of the file being read, when they go to files.
    let mut target: Option<(usize, xqspec::output::Partial)> = None;
    let named = |what: &str, p: &Path, e: std::io::Error| {
        std::io::Error::new(e.kind(), format!("{}: cannot {what}: {e}", p.display()))
    };
    let open_target = |index: usize,
                       target: &mut Option<(usize, xqspec::output::Partial)>|
     -> std::io::Result<()> {
        let Some(Some(t)) = targets.get(index) else {
            return Ok(());
        };
        if target.as_ref().is_some_and(|t| t.0 == index) {
            return Ok(());
        }
        let file = t.create().map_err(std::io::Error::other)?;
        *target = Some((index, file));
        Ok(())
    };
    let mut failed: std::io::Result<()> = Ok(());
    let mut unread = None;
    let mut sink = |found: Found<Replayed>| {
        if failed.is_err() {
            return;
        }
        let step = || -> std::io::Result<()> {
            match found {
                Found::Note { file, note } => {
                    if !opts.quiet {
                        writeln!(report, "{}: {note}", files[file].display())?;
                    }
                }
                Found::Unread { file, error } => {
                    unread = Some(file);
                    writeln!(report, "{error}")?;
                    totals.unread += 1;
                    totals.failures.push(error.to_string());
                }
                Found::NotAGame { file, problem } => {
                    let path = &files[file];
                    writeln!(report, "{}: {problem}", path.display())?;
                    totals.not_games += 1;
                    let where_ = if files.len() > 1 {
                        format!("{} ", path.display())
                    } else {
                        String::new()
                    };
                    totals.failures.push(format!(
                        "{where_}line {}: text that is no game",
                        problem.place.line
                    ));
                }
                Found::Game {
                    file,
                    number,
                    work: r,
                } => {
                    let path = &files[file];
                    let where_ = |what: String| {
                        if files.len() > 1 {
                            format!("{} {what}", path.display())
                        } else {
                            what
                        }
                    };
                    totals.games += 1;
                    totals.moves += r.moves;
                    let variations = match r.variations {
                        0 => String::new(),
                        1 => ", 1 variation".to_string(),
                        n => format!(", {n} variations"),
                    };
                    match (&r.error, &r.variation_error) {
                        (None, None) => {
                            totals.replayed += 1;
                            if !opts.quiet {
                                writeln!(
                                    report,
                                    "{}: game {number} ({}): ok, {} moves{variations}",
                                    path.display(),
                                    r.title,
                                    r.moves
                                )?;
                            }
                        }
                        (Some(e), _) => {
                            totals
                                .failures
                                .push(where_(format!("game {number}, {}", e.short())));
                            writeln!(
                                report,
                                "{}: game {number} ({}): error: {e}",
                                path.display(),
                                r.title
                            )?;
                        }
                        (None, Some(e)) => {
                            totals.failures.push(where_(format!(
                                "game {number}, in a variation, {}",
                                e.short()
                            )));
                            writeln!(
                                report,
                                "{}: game {number} ({}): error in a variation: {e}",
                                path.display(),
                                r.title
                            )?;
                        }
                    }
                    for m in &r.remarks {
                        totals.remarks.push(where_(format!("game {number}, {m}")));
                        if !opts.quiet {
                            writeln!(
                                report,
                                "{}: game {number} ({}): remark: {m}",
                                path.display(),
                                r.title
                            )?;
                        }
                    }
                    if let Some(text) = &r.converted {
                        if opts.out.is_none() {
                            print!("{text}");
                        } else {
                            open_target(file, &mut target)?;
                            let (i, w) = target.as_mut().expect("opened");
                            std::io::Write::write_all(w, text.as_bytes()).map_err(|e| {
                                named("write", targets[*i].as_ref().expect("claimed").path(), e)
                            })?;
                        }
                    }
                }
                Found::Done { file, .. } => {
                    totals.files += 1;
                    if opts.to.is_some()
                        && opts.out.is_some()
                        && !matches!(&target, Some((i, ..)) if *i == file)
                    {
                        // A file read without games gets its (empty) converted file too.
                        if unread != Some(file) {
                            open_target(file, &mut target)?;
                        }
                    }
                    if let Some((i, w)) = target.take() {
                        w.finish().map_err(std::io::Error::other)?;
                        writeln!(
                            report,
                            "{}: wrote {}",
                            files[file].display(),
                            targets[i].as_ref().expect("claimed").path().display()
                        )?;
                    }
                }
            }
            Ok(())
        };
        // A closure so that `?` ends the step; the first failure stops the output.
        #[allow(clippy::redundant_closure_call)]
        {
            failed = step();
        }
        tick(&totals);
    };
    stream(
        rules,
        files,
        &stream_opts,
        &|r| ((), judge(r)),
        &work,
        &mut sink,
    );
    failed?;
    writeln!(report, "{}", totals.summary())?;
    Ok(totals)
}

fn converted_name(path: &Path, n: Notation) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "games".into());
    format!("{stem}.{}.pgn", n.name())
}

/// `xqspec replay` from command-line strings: checks the `--to` and
/// `--style` names, runs [`run`] with the status report on stdout (stderr
/// when converted records go to stdout), and fails when there is an error: a game that
/// failed, text that is no game, a file not read (remarks do not fail the run).
#[allow(clippy::too_many_arguments)]
pub fn command(
    rules: &Rules,
    files: &[PathBuf],
    encoding: Option<String>,
    to: Option<&str>,
    style: &str,
    out: Option<PathBuf>,
    quiet: bool,
    threads: Option<usize>,
    outputs: xqspec::output::Outputs,
    judge: &(dyn Fn(&GameReplay) -> Option<xqspec::notation::records::Ending> + Sync),
    tick: &mut dyn FnMut(&Totals),
) -> Result<(), String> {
    if files.is_empty() {
        return Err("no record files given".into());
    }
    let to = match to {
        None => None,
        Some(name) => Some(Notation::from_name(name).ok_or_else(|| {
            format!("unknown notation `{name}` (use iccs, wxf, chinese or chinese-abbreviated)")
        })?),
    };
    if matches!(to, Some(Notation::Chinese | Notation::ChineseAbbreviated))
        && rules.record().is_none()
    {
        return Err(format!(
            "rule set {} has no notation.* clauses (how records are written, 7.5): cannot write Chinese notation",
            rules.edition_id()
        ));
    }
    let style = Style::from_name(style).ok_or_else(|| {
        format!("unknown style `{style}` (words: simplified, traditional, halfwidth, fullwidth, lower, upper, joined by +)")
    })?;
    let opts = ReplayOptions {
        encoding,
        to,
        style,
        out: out.clone(),
        quiet,
        threads,
        outputs,
    };
    let totals = if to.is_some() && out.is_none() {
        run(
            rules,
            files,
            &opts,
            judge,
            &mut std::io::stderr().lock(),
            tick,
        )
    } else {
        run(
            rules,
            files,
            &opts,
            judge,
            &mut std::io::stdout().lock(),
            tick,
        )
    }
    .map_err(|e| e.to_string())?;
    if totals.errors() == 0 {
        return Ok(());
    }
    let failed = totals.games - totals.replayed;
    let mut said = Vec::new();
    if failed > 0 {
        said.push(format!(
            "{failed} of {} games failed to replay",
            totals.games
        ));
    }
    if totals.not_games > 0 {
        let runs = if totals.not_games == 1 {
            "run of text is no game"
        } else {
            "runs of text are no game"
        };
        said.push(format!("{} {runs}", totals.not_games));
    }
    if totals.unread > 0 {
        said.push(format!(
            "{} of {} files could not be read",
            totals.unread,
            files.len()
        ));
    }
    if said.is_empty() {
        said.push(totals.failures.join("; "));
    }
    Err(said.join(", "))
}
