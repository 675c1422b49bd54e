//! `xqspec replay`: record files replayed (and converted) on all cores, a status line per
//! game and a closing summary; the library replays ([`crate::notation::replay`]) and
//! streams the files ([`crate::notation::stream`]).

use std::path::{Path, PathBuf};

use crate::notation::replay::{write_game, GameReplay, Remark, ReplayError};
use crate::notation::{KindMap, Notation, Style};
use crate::vm::Rules;

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
    pub(crate) outputs: crate::output::Outputs,
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
/// Files are streamed over all cores by [`stream`](crate::notation::stream::stream) (the games the
/// [`records`](crate::notation::records) path finds, numbered alike, given back in file order);
/// `judge` gives the end the moves of a replayed game reach, if any, for the remark on a
/// recorded result that contradicts it. `tick` sees the totals after each game, file or
/// problem (for progress). Returns the totals.
pub fn run(
    rules: &Rules,
    files: &[PathBuf],
    opts: &ReplayOptions,
    judge: &(dyn Fn(&GameReplay) -> Option<crate::notation::records::Ending> + Sync),
    report: &mut dyn std::io::Write,
    tick: &mut dyn FnMut(&Totals),
) -> std::io::Result<Totals> {
    use crate::notation::stream::{stream, Found};
    let kinds = KindMap::new(rules);
    let mut totals = Totals::default();
    let encoding = match &opts.encoding {
        Some(name) => match crate::notation::encoding::by_name(name) {
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
    let work = |g: crate::notation::records::GameEntry<'_, ()>| {
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
    let stream_opts = crate::notation::stream::Options {
        encoding,
        threads: opts.threads,
        ..Default::default()
    };
    let mut out = Output {
        files,
        opts,
        targets: claim_targets(files, opts)?,
        report,
        totals,
        target: None,
        unread: None,
    };
    let mut failed: std::io::Result<()> = Ok(());
    let mut sink = |found: Found<Replayed>| {
        // The first failure stops the output.
        if failed.is_ok() {
            failed = out.found(found);
            tick(&out.totals);
        }
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
    writeln!(out.report, "{}", out.totals.summary())?;
    Ok(out.totals)
}

/// Where each file's converted records go, every one claimed before anything is read or
/// written: none is a file read, none is another's, none leads out of the folder. Empty
/// when the records go to stdout or nowhere.
fn claim_targets(
    files: &[PathBuf],
    opts: &ReplayOptions,
) -> std::io::Result<Vec<Option<crate::output::Target>>> {
    let mut targets = Vec::new();
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
    Ok(targets)
}

/// What the replay writes as the games come in file order: the status lines, the totals,
/// the converted records.
struct Output<'a> {
    files: &'a [PathBuf],
    opts: &'a ReplayOptions,
    report: &'a mut dyn std::io::Write,
    totals: Totals,
    /// Where each file's converted records go ([`claim_targets`]).
    targets: Vec<Option<crate::output::Target>>,
    /// Converted records of the file being read, when they go to files.
    target: Option<(usize, crate::output::Partial)>,
    /// The last file that could not be read.
    unread: Option<usize>,
}

impl Output<'_> {
    /// One thing the stream found: a note, an unread file, text that is no game, a game, or
    /// the end of a file.
    fn found(&mut self, found: crate::notation::stream::Found<Replayed>) -> std::io::Result<()> {
        use crate::notation::stream::Found;
        match found {
            Found::Note { file, note } => {
                if !self.opts.quiet {
                    writeln!(self.report, "{}: {note}", self.files[file].display())?;
                }
            }
            Found::Unread { file, error } => {
                self.unread = Some(file);
                writeln!(self.report, "{error}")?;
                self.totals.unread += 1;
                self.totals.failures.push(error.to_string());
            }
            Found::NotAGame { file, problem } => {
                let path = &self.files[file];
                writeln!(self.report, "{}: {problem}", path.display())?;
                self.totals.not_games += 1;
                let where_ = if self.files.len() > 1 {
                    format!("{} ", path.display())
                } else {
                    String::new()
                };
                self.totals.failures.push(format!(
                    "{where_}line {}: text that is no game",
                    problem.place.line
                ));
            }
            Found::Game {
                file,
                number,
                work: r,
            } => self.game(file, number, &r)?,
            Found::Done { file, .. } => self.done(file)?,
        }
        Ok(())
    }

    /// A replayed game: its status line, its failures and remarks counted, its converted
    /// record written.
    fn game(&mut self, file: usize, number: usize, r: &Replayed) -> std::io::Result<()> {
        let (files, opts) = (self.files, self.opts);
        let path = &files[file];
        let where_ = |what: String| {
            if files.len() > 1 {
                format!("{} {what}", path.display())
            } else {
                what
            }
        };
        let totals = &mut self.totals;
        totals.games += 1;
        totals.moves += r.moves;
        let variations = match r.variations {
            0 => String::new(),
            1 => ", 1 variation".to_string(),
            n => format!(", {n} variations"),
        };
        let head = format!("{}: game {number} ({})", path.display(), r.title);
        match (&r.error, &r.variation_error) {
            (None, None) => {
                totals.replayed += 1;
                if !opts.quiet {
                    writeln!(self.report, "{head}: ok, {} moves{variations}", r.moves)?;
                }
            }
            (Some(e), _) => {
                totals
                    .failures
                    .push(where_(format!("game {number}, {}", e.short())));
                writeln!(self.report, "{head}: error: {e}")?;
            }
            (None, Some(e)) => {
                totals.failures.push(where_(format!(
                    "game {number}, in a variation, {}",
                    e.short()
                )));
                writeln!(self.report, "{head}: error in a variation: {e}")?;
            }
        }
        for m in &r.remarks {
            totals.remarks.push(where_(format!("game {number}, {m}")));
            if !opts.quiet {
                writeln!(self.report, "{head}: remark: {m}")?;
            }
        }
        if let Some(text) = &r.converted {
            if opts.out.is_none() {
                print!("{text}");
            } else {
                self.open_target(file)?;
                let (i, w) = self.target.as_mut().expect("opened");
                std::io::Write::write_all(w, text.as_bytes()).map_err(|e| {
                    let p = self.targets[*i].as_ref().expect("claimed").path();
                    std::io::Error::new(e.kind(), format!("{}: cannot write: {e}", p.display()))
                })?;
            }
        }
        Ok(())
    }

    /// The end of a file: its converted file finished (an empty one for a file read
    /// without games) and named.
    fn done(&mut self, file: usize) -> std::io::Result<()> {
        self.totals.files += 1;
        if self.opts.to.is_some()
            && self.opts.out.is_some()
            && !matches!(&self.target, Some((i, ..)) if *i == file)
            && self.unread != Some(file)
        {
            self.open_target(file)?;
        }
        if let Some((i, w)) = self.target.take() {
            w.finish().map_err(std::io::Error::other)?;
            writeln!(
                self.report,
                "{}: wrote {}",
                self.files[file].display(),
                self.targets[i].as_ref().expect("claimed").path().display()
            )?;
        }
        Ok(())
    }

    /// Opens the converted file of file `index`, unless it is open or has none.
    fn open_target(&mut self, index: usize) -> std::io::Result<()> {
        let Some(Some(t)) = self.targets.get(index) else {
            return Ok(());
        };
        if self.target.as_ref().is_some_and(|t| t.0 == index) {
            return Ok(());
        }
        let file = t.create().map_err(std::io::Error::other)?;
        self.target = Some((index, file));
        Ok(())
    }
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
    outputs: crate::output::Outputs,
    judge: &(dyn Fn(&GameReplay) -> Option<crate::notation::records::Ending> + Sync),
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
