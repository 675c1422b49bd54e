//! The command enum of `xqspec`, the small commands (`perft`, `moves`, `replay`, `spec
//! check`) and [`main`]; the command groups are the sibling files of `src/cli/`.

use crate::cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::ruleset::RuleSet;
use crate::ruleset::DEFAULT as DEFAULT_RULESET;
use crate::spec::{self, Spec};
use crate::vm::{Position, Rules};

#[derive(Parser)]
#[command(
    name = "xqspec",
    version,
    about = "Xiangqi competition rules as executable data, and their conformance suite"
)]
struct Cli {
    /// Load the spec from this directory instead of the copy built into the binary.
    #[arg(long, global = true, value_name = "DIR")]
    spec: Option<PathBuf>,
    /// Apply an event overlay (补充规定, a YAML file changing clause data of the edition);
    /// refused by the commands that take overlays from elsewhere (conform, serve, web,
    /// cases, report, diff).
    #[arg(long, global = true, value_name = "FILE")]
    overlay: Option<PathBuf>,
    /// The language of the rule words and sentences the commands print as text (`ruling`,
    /// `status`, `outcome`, `adjudicate`): en or zh, from spec/words.yaml as the page's.
    /// JSON output is the same in both.
    #[arg(long, global = true, value_enum, default_value = "en")]
    lang: cli::Lang,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Work with the rule spec.
    Spec {
        #[command(subcommand)]
        command: SpecCommand,
    },
    /// Write or check every generated report (reports/: coverage, article coverage, edition diffs, README).
    Report(cli::report::ReportArgs),
    /// How two rule sets differ: clauses by article, provenance, and conformance cases answered differently.
    Diff(cli::report::DiffArgs),
    /// Count the leaves of the legal move tree (the last line printed is the count).
    Perft {
        /// Position in FEN, or `startpos`.
        #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
        fen: String,
        #[arg(long)]
        depth: u32,
        /// List each first move with its count.
        #[arg(long)]
        divide: bool,
        #[arg(long, default_value = DEFAULT_RULESET)]
        edition: String,
    },
    /// Replay game records: every move parsed, resolved and checked legal; per-game status and totals.
    ///
    /// Each game is reported ok, or with its first error and its place (line, column, move number);
    /// text that is no game (binary text, junk before a tag pair on its line) with its line,
    /// column and byte offset; a file that cannot be read, or a directory, by its path. None
    /// of these is counted as a game. Remarks (a move number that is not its move's, a Format
    /// tag naming no notation, a recorded result the final mate or stalemate contradicts, a
    /// Result tag and result token that disagree) are said with their place. Exit status: 1
    /// when there is an error (a game that fails, text that is no game, a file not read), 0
    /// otherwise, remarks or not. `adjudicate` reads files the same way.
    Replay(ReplayArgs),
    /// Print the legal moves, one per line, sorted, in ICCS.
    Moves {
        /// Position in FEN, or `startpos`.
        #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
        fen: String,
        /// Moves (ICCS) played from the position first.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        #[arg(long, default_value = DEFAULT_RULESET)]
        edition: String,
    },
    /// Run the conformance suite against the reference, an adapter (--adapter) or a UCI engine (--uci).
    Conform(Box<cli::conform::ConformArgs>),
    /// Speak the conformance protocol (conformance/PROTOCOL.md) on stdin/stdout as the reference.
    Serve,
    /// The arbiter's decision on a game given as events (YAML, or a PGN plus events): result, clause, fouls.
    Outcome(cli::arbiter::OutcomeArgs),
    /// The moves allowed after touching pieces (touch-move, 5.1–5.5), and the step that decided.
    Touch(cli::arbiter::TouchArgs),
    /// Adjudicate game records from their moves alone: mate, stalemate, perpetual check, a cycle not changed, the natural limit.
    ///
    /// Files are read as `replay` reads them: the same games, numbered alike, the same
    /// remarks (a recorded result the adjudication contradicts among them, flagged
    /// DISAGREES), text that is no game and files not read reported at the same places and
    /// never counted as games. Exit status: 1 when a game cannot be adjudicated, text is no
    /// game or a file is not read; 0 otherwise, remarks or disagreements or not.
    Adjudicate(cli::adjudicate::AdjudicateArgs),
    /// How a game in progress stands: ended or not, positions repeated, orders to change, rounds to the natural limit.
    Status(cli::adjudicate::StatusArgs),
    /// Simulate a game's clock events under a clock scheme (a table of both clocks), or list the schemes.
    Clock(cli::clock::ClockArgs),
    /// Draw a position as SVG: the board with river and palaces, the pieces, the last move, arrows.
    Board(cli::diagram::BoardArgs),
    /// Standings of a tournament file: the crosstable and the ranking with every tiebreak value.
    Standings(cli::competition::StandingsArgs),
    /// The 棋例 ruling on a cycle of moves: every move's class with its reason, each side's pattern, the verdict.
    Ruling(cli::repetition::RulingArgs),
    /// The arbiter's desk: a page on this machine that sets up a position or loads a record and shows the rules' answers (PROTOCOL.md §9).
    Web(cli::web::WebArgs),
    /// Check the conformance cases, their schema and clause coverage; dump them as JSON lines.
    Cases {
        #[command(subcommand)]
        command: cli::conform::CasesCommand,
    },
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// PGN record files; each may hold several games, in any notation.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Text encoding of the files (utf-8, gbk, gb18030, big5, utf-16le, utf-16be); detected when absent.
    #[arg(long)]
    encoding: Option<String>,
    /// Write the records converted to this notation: iccs, wxf, chinese, chinese-abbreviated.
    #[arg(long)]
    to: Option<String>,
    /// Style of converted moves: simplified|traditional, halfwidth|fullwidth, lower|upper, joined by `+`.
    #[arg(long, default_value = "default", requires = "to")]
    style: String,
    /// Where converted records go (a file, or a directory for several inputs); stdout when
    /// absent. Never a record file read, never one file for two inputs (`a/g.pgn` and
    /// `b/g.pgn` into one folder are refused), never through a symbolic link out of the
    /// folder: such a run is refused before anything is written.
    #[arg(long, requires = "to")]
    out: Option<PathBuf>,
    /// Print only the errors and the closing line (which counts the remarks), and no
    /// progress line (shown on a terminal, after a few seconds).
    #[arg(long)]
    quiet: bool,
    /// Threads to spread the games over (all cores when absent; at most 4 per core).
    #[arg(long, value_parser = cli::threads_arg)]
    threads: Option<usize>,
    #[arg(long, default_value = DEFAULT_RULESET)]
    edition: String,
}

#[derive(Subcommand)]
enum SpecCommand {
    /// Load and compile every edition and overlay (and `--overlay FILE`): shape and meaning
    /// checks, perft of the start position; print clauses per edition and per provenance.
    Check,
}

/// The rule set a command runs under (`--spec`, `--edition`, `--overlay`). A rule set the
/// spec does not know is refused at its place, the `--edition` option.
pub(crate) fn load_ruleset(cli: &GlobalOptions, edition: &str) -> Result<RuleSet, String> {
    crate::ruleset::load(cli.spec.as_deref(), edition, cli.overlay.as_deref())
        .map_err(|e| e.named_at("--edition"))
}

/// The same for a rule set named elsewhere (an events file): the caller names the place.
fn load_named_ruleset(cli: &GlobalOptions, edition: &str) -> Result<RuleSet, String> {
    crate::ruleset::load(cli.spec.as_deref(), edition, cli.overlay.as_deref())
        .map_err(|e| e.to_string())
}

fn load_rules(cli: &GlobalOptions, edition: &str) -> Result<Rules, String> {
    Ok(load_ruleset(cli, edition)?.vm)
}

/// The options every command takes.
pub(crate) struct GlobalOptions {
    pub(crate) spec: Option<PathBuf>,
    pub(crate) overlay: Option<PathBuf>,
}

/// The position of `fen` after `moves`: the one path every command and query takes.
fn position(rules: &Rules, fen: &str, moves: &[String]) -> Result<Position, String> {
    crate::line::after(rules, fen, moves)
        .map(|(p, _)| p)
        .map_err(|e| e.to_string())
}

/// The commands that take no `--overlay` (they work over every rule set, or take the
/// overlays from elsewhere): given one, it is refused rather than ignored.
fn without_overlay(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Conform(_) => "conform (the suite's cases name their own overlays)",
        Command::Serve => "serve (each ask names its overlay)",
        Command::Web(_) => "web (the page names the overlay)",
        Command::Cases { .. } => "cases",
        Command::Report(_) => "report",
        Command::Diff(_) => "diff (name a rule set with its overlay: EDITION+OVERLAY)",
        _ => return None,
    })
}

/// `xqspec replay`, with its progress line on a terminal.
fn replay(g: &GlobalOptions, a: ReplayArgs) -> Result<(), String> {
    let rs = load_ruleset(g, &a.edition)?;
    let judge = crate::batch::final_position(&rs);
    let mut progress = cli::progress::Progress::on_terminal(!a.quiet);
    let files = a.files.len();
    let mut tick = |t: &cli::replay::Totals| {
        let secs = progress.elapsed().as_secs_f64();
        progress.tick(|| cli::progress::rate_line(t.files, files, t.games(), t.moves, secs))
    };
    let done = cli::replay::command(
        &rs.vm,
        &a.files,
        a.encoding,
        a.to.as_deref(),
        &a.style,
        a.out,
        a.quiet,
        a.threads,
        cli::outputs(g.spec.as_deref(), g.overlay.as_deref()),
        &judge,
        &mut tick,
    );
    progress.finish();
    done
}

/// `xqspec perft`: the number of leaf nodes at `depth`, or per first move (`--divide`).
fn perft(
    g: &GlobalOptions,
    fen: &str,
    depth: u32,
    divide: bool,
    edition: &str,
) -> Result<(), String> {
    let rules = load_rules(g, edition)?;
    let mut pos = position(&rules, fen, &[])?;
    if divide {
        let rows = crate::perft::divide(&mut pos, &rules, depth);
        let mut total = 0;
        for (m, n) in &rows {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        println!("{total}");
    } else {
        println!("{}", crate::perft::perft(&mut pos, &rules, depth));
    }
    Ok(())
}

/// `xqspec moves`: the legal moves after `moves` from `fen`, one per line, sorted.
fn legal_moves(
    g: &GlobalOptions,
    fen: &str,
    moves: &[String],
    edition: &str,
) -> Result<(), String> {
    let rules = load_rules(g, edition)?;
    let pos = position(&rules, fen, moves)?;
    let mut list: Vec<String> = pos.legal_moves(&rules).iter().map(|m| m.iccs()).collect();
    list.sort();
    for m in list {
        println!("{m}");
    }
    Ok(())
}

fn run(cli: Cli, server: &cli::web::Server) -> Result<(), String> {
    if let (Some(f), Some(command)) = (&cli.overlay, without_overlay(&cli.command)) {
        return Err(format!(
            "--overlay {}: not used by {command}; nothing done",
            f.display()
        ));
    }
    let g = GlobalOptions {
        spec: cli.spec.clone(),
        overlay: cli.overlay.clone(),
    };
    match cli.command {
        Command::Spec {
            command: SpecCommand::Check,
        } => spec_check(&cli.spec, cli.overlay.as_deref()),
        Command::Conform(args) => cli::conform::conform(cli.spec.as_deref(), *args),
        Command::Serve => cli::conform::serve(cli.spec.as_deref()),
        Command::Web(a) => Spec::load(cli.spec.as_deref())
            .map_err(|e| e.to_string())
            .and_then(|spec| cli::web::run(&spec, &a, server)),
        Command::Standings(a) => {
            cli::competition::run(cli.spec.as_deref(), cli.overlay.as_deref(), &a)
        }
        Command::Cases { command } => cli::conform::cases(cli.spec.as_deref(), command),
        Command::Outcome(a) => {
            let flagged = a.edition.is_some();
            cli::arbiter::outcome(
                &a,
                |e| {
                    if flagged {
                        load_ruleset(&g, e)
                    } else {
                        load_named_ruleset(&g, e)
                    }
                },
                cli.lang,
            )
        }
        Command::Touch(a) => cli::arbiter::touch(&a, &load_ruleset(&g, &a.game.edition)?),
        Command::Adjudicate(a) => {
            cli::adjudicate::adjudicate(&a, &load_ruleset(&g, &a.edition)?, cli.lang)
        }
        Command::Status(a) => {
            cli::adjudicate::status(&a, &load_ruleset(&g, &a.game.edition)?, cli.lang)
        }
        Command::Replay(a) => replay(&g, a),
        Command::Report(a) => cli::report::report(cli.spec.as_deref(), &a),
        Command::Diff(a) => cli::report::diff(cli.spec.as_deref(), &a),
        Command::Board(a) => cli::diagram::run(
            &load_ruleset(&g, &a.edition)?,
            &a,
            cli::outputs(g.spec.as_deref(), g.overlay.as_deref()),
        ),
        Command::Ruling(a) => cli::repetition::run(
            &load_ruleset(&g, &a.edition)?,
            &a,
            cli::outputs(g.spec.as_deref(), g.overlay.as_deref()),
            cli.lang,
        ),
        Command::Clock(a) => cli::clock::run(&load_ruleset(&g, &a.edition)?, &a),
        Command::Perft {
            fen,
            depth,
            divide,
            edition,
        } => perft(&g, &fen, depth, divide, &edition),
        Command::Moves {
            fen,
            moves,
            edition,
        } => legal_moves(&g, &fen, &moves, &edition),
    }
}

fn spec_check(dir: &Option<PathBuf>, overlay: Option<&std::path::Path>) -> Result<(), String> {
    let spec = Spec::load(dir.as_deref()).map_err(|e| e.to_string())?;
    let extra = match overlay {
        Some(f) => Some(spec::Overlay::load(f).map_err(|e| e.to_string())?),
        None => None,
    };
    let report = crate::spec_check::check(&spec, extra.as_ref());
    for l in &report.lines {
        println!("{l}");
    }
    for w in &report.warnings {
        println!("warning: {w}");
    }
    for (id, total, by) in spec::summary_rows(&spec) {
        let parts: Vec<String> = by.iter().map(|(k, n)| format!("{n} {k}")).collect();
        println!("{id}: {total} clauses ({})", parts.join(", "));
    }
    if report.errors.is_empty() {
        let given = if extra.is_some() {
            " and the overlay given"
        } else {
            ""
        };
        println!(
            "spec ok: {} editions, {} overlays{given}",
            spec.editions().len(),
            spec.overlays().len()
        );
        Ok(())
    } else {
        Err(report.errors.join("\n"))
    }
}

/// Restores the default action of SIGPIPE (end the process) that Rust's runtime ignores.
#[cfg(unix)]
fn end_quietly_on_closed_stdout() {
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn end_quietly_on_closed_stdout() {}

/// The first argument that is not UTF-8 text where text is asked for (clap says only that
/// one is not): `argument 3 (after --fen) is not UTF-8 text: "r\u{fffd}…"`. Found by
/// giving clap each argument that is not UTF-8 as text in turn: the one whose change
/// makes the complaint go away is the one.
fn non_utf8_argument(args: &[std::ffi::OsString]) -> Option<String> {
    use clap::error::ErrorKind;
    (1..args.len())
        .filter(|&i| args[i].to_str().is_none())
        .find(|&i| {
            let mut tried = args.to_vec();
            tried[i] = "x".into();
            !matches!(Cli::try_parse_from(&tried), Err(e) if e.kind() == ErrorKind::InvalidUtf8)
        })
        .map(|i| {
            let lossy = args[i].to_string_lossy();
            let shown: String = lossy.chars().take(40).collect();
            if let Some((name, _)) = lossy.split_once('=').filter(|_| lossy.starts_with("--")) {
                return format!("argument {i}, the value of {name}, is not UTF-8 text: {shown:?}");
            }
            let option = args[1..i]
                .iter()
                .rev()
                .filter_map(|a| a.to_str())
                .find(|a| a.starts_with("--"))
                .map(|a| format!(" (after {})", a.split('=').next().unwrap_or(a)))
                .unwrap_or_default();
            format!("argument {i}{option} is not UTF-8 text: {shown:?}")
        })
}

/// Runs `xqspec` on the process's arguments: the binary's `main`. `serve` and `bounds` are
/// `xqspec web`'s socket side, which the binary gives: `serve` serves a desk on a listener
/// (bound to a loopback address or not) until the process ends; `bounds` are the rows of
/// the table of its bounds (PROTOCOL.md §9).
pub fn main(
    serve: fn(cli::Desk, std::net::TcpListener, bool) -> Result<(), String>,
    bounds: fn() -> Vec<[String; 4]>,
) -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) if e.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            match non_utf8_argument(&args) {
                Some(which) => eprintln!("error: {which}"),
                None => {
                    let _ = e.print();
                }
            }
            return ExitCode::from(2);
        }
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // A closed stdout (`xqspec moves … | head`) ends a command quietly, as it does other Unix
    // tools. `conform` keeps Rust's default (SIGPIPE ignored): it writes to the pipes of the
    // programs it tests and must report one that died rather than die with it.
    if !matches!(cli.command, Command::Conform(_)) {
        end_quietly_on_closed_stdout();
    }
    match run(cli, &cli::web::Server { serve, bounds }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
