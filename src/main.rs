//! `xqspec`: the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use xqspec::board::Move;
use xqspec::spec::{self, Spec};
use xqspec::ruleset::RuleSet;
use xqspec::vm::{Position, Rules};

#[derive(Parser)]
#[command(name = "xqspec", version, about = "Xiangqi competition rules as executable data, and their conformance suite")]
struct Cli {
    /// Load the spec from this directory instead of the copy built into the binary.
    #[arg(long, global = true, value_name = "DIR")]
    spec: Option<PathBuf>,
    /// Apply an event overlay (补充规定, a YAML file changing clause data of the edition).
    #[arg(long, global = true, value_name = "FILE")]
    overlay: Option<PathBuf>,
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
    Report(xqspec::report::cli::ReportArgs),
    /// How two rule sets differ: clauses by article, provenance, and conformance cases answered differently.
    Diff(xqspec::report::cli::DiffArgs),
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
        #[arg(long, default_value = "cxa-2020")]
        edition: String,
    },
    /// Replay game records: every move parsed, resolved and checked legal; per-game status and totals.
    Replay(ReplayArgs),
    /// Print the legal moves, one per line, sorted, in ICCS.
    Moves {
        /// Position in FEN, or `startpos`.
        #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
        fen: String,
        /// Moves (ICCS) played from the position first.
        #[arg(long, num_args = 0..)]
        moves: Vec<String>,
        #[arg(long, default_value = "cxa-2020")]
        edition: String,
    },
    /// Run the conformance suite against the reference, an adapter (--adapter) or a UCI engine (--uci).
    Conform(xqspec::conform::cli::ConformArgs),
    /// Speak the conformance protocol (conformance/PROTOCOL.md) on stdin/stdout as the reference.
    Serve,
    /// The arbiter's decision on a game given as events (YAML, or a PGN plus events): result, clause, fouls.
    Outcome(xqspec::arbiter::cli::OutcomeArgs),
    /// The moves allowed after touching pieces (touch-move, 5.1–5.5), and the step that decided.
    Touch(xqspec::arbiter::cli::TouchArgs),
    /// Simulate a game's clock events under a clock scheme (a table of both clocks), or list the schemes.
    Clock(xqspec::clock::cli::ClockArgs),
    /// Draw a position as SVG: the board with river and palaces, the pieces, the last move, arrows.
    Board(xqspec::diagram::cli::BoardArgs),
    /// Standings of a tournament file: the crosstable and the ranking with every tiebreak value.
    Standings(xqspec::competition::cli::StandingsArgs),
    /// The 棋例 ruling on a cycle of moves: every move's class with its reason, each side's pattern, the verdict.
    Ruling(xqspec::repetition::cli::RulingArgs),
    /// Check the conformance cases, their schema and clause coverage; dump them as JSON lines.
    Cases {
        #[command(subcommand)]
        command: xqspec::conform::cli::CasesCommand,
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
    #[arg(long, default_value = "default")]
    style: String,
    /// Where converted records go (a file, or a directory for several inputs); stdout when absent.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print only failing games and the closing line.
    #[arg(long)]
    quiet: bool,
    #[arg(long, default_value = "cxa-2020")]
    edition: String,
}

#[derive(Subcommand)]
enum SpecCommand {
    /// Load and compile every edition and overlay (and `--overlay FILE`): shape and meaning
    /// checks, perft of the start position; print clauses per edition and per provenance.
    Check,
}

fn load_spec(dir: &Option<PathBuf>) -> Result<Spec, String> {
    let r = match dir {
        Some(d) => Spec::load_dir(d),
        None => Spec::builtin(),
    };
    r.map_err(|e| e.to_string())
}

/// The rule set a command runs under (`--spec`, `--edition`, `--overlay`). A rule set the
/// spec does not know is refused at its place, the `--edition` option.
fn load_ruleset(cli: &GlobalOptions, edition: &str) -> Result<RuleSet, String> {
    xqspec::ruleset::load(cli.spec.as_deref(), edition, cli.overlay.as_deref()).map_err(|e| e.named_at("--edition"))
}

/// The same for a rule set named elsewhere (an events file): the caller names the place.
fn load_named_ruleset(cli: &GlobalOptions, edition: &str) -> Result<RuleSet, String> {
    xqspec::ruleset::load(cli.spec.as_deref(), edition, cli.overlay.as_deref()).map_err(|e| e.to_string())
}

fn load_rules(cli: &GlobalOptions, edition: &str) -> Result<Rules, String> {
    Ok(load_ruleset(cli, edition)?.vm)
}

/// The options every command takes.
struct GlobalOptions {
    spec: Option<PathBuf>,
    overlay: Option<PathBuf>,
}

fn position(rules: &Rules, fen: &str, moves: &[String]) -> Result<Position, String> {
    let mut pos = Position::from_fen(rules, fen).map_err(|e| format!("invalid FEN: {e}"))?;
    for (i, text) in moves.iter().enumerate() {
        let m = Move::parse_iccs(text).ok_or_else(|| format!("move {}: `{text}` is not ICCS (like h2e2)", i + 1))?;
        pos.play(rules, m).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(pos)
}

fn run(cli: Cli) -> Result<(), String> {
    let g = GlobalOptions { spec: cli.spec.clone(), overlay: cli.overlay.clone() };
    match cli.command {
        Command::Spec { command: SpecCommand::Check } => spec_check(&cli.spec, cli.overlay.as_deref()),
        Command::Conform(args) => xqspec::conform::cli::conform(cli.spec.as_deref(), args),
        Command::Serve => xqspec::conform::cli::serve(cli.spec.as_deref()),
        Command::Standings(a) => xqspec::competition::cli::run(cli.spec.as_deref(), cli.overlay.as_deref(), &a),
        Command::Cases { command } => xqspec::conform::cli::cases(cli.spec.as_deref(), command),
        Command::Outcome(a) => {
            let flagged = a.edition.is_some();
            xqspec::arbiter::cli::outcome(&a, |e| if flagged { load_ruleset(&g, e) } else { load_named_ruleset(&g, e) })
        }
        Command::Touch(a) => xqspec::arbiter::cli::touch(&a, &load_ruleset(&g, &a.edition)?),
        Command::Replay(a) => {
            let rules = load_rules(&g, &a.edition)?;
            xqspec::notation::replay::cli(&rules, &a.files, a.encoding, a.to.as_deref(), &a.style, a.out, a.quiet)
        }
        Command::Report(a) => xqspec::report::cli::report(cli.spec.as_deref(), &a),
        Command::Diff(a) => xqspec::report::cli::diff(cli.spec.as_deref(), &a),
        Command::Board(a) => xqspec::diagram::cli::run(&load_ruleset(&g, &a.edition)?, &a),
        Command::Ruling(a) => xqspec::repetition::cli::run(&load_ruleset(&g, &a.edition)?, &a),
        Command::Clock(a) => xqspec::clock::cli::run(&load_ruleset(&g, &a.edition)?, &a),
        Command::Perft { fen, depth, divide, edition } => {
            let rules = load_rules(&g, &edition)?;
            let mut pos = position(&rules, &fen, &[])?;
            if divide {
                let rows = xqspec::perft::divide(&mut pos, &rules, depth);
                let mut total = 0;
                for (m, n) in &rows {
                    println!("{m}: {n}");
                    total += n;
                }
                println!();
                println!("{total}");
            } else {
                println!("{}", xqspec::perft::perft(&mut pos, &rules, depth));
            }
            Ok(())
        }
        Command::Moves { fen, moves, edition } => {
            let rules = load_rules(&g, &edition)?;
            let pos = position(&rules, &fen, &moves)?;
            let mut list: Vec<String> = pos.legal_moves(&rules).iter().map(|m| m.iccs()).collect();
            list.sort();
            for m in list {
                println!("{m}");
            }
            Ok(())
        }
    }
}

fn spec_check(dir: &Option<PathBuf>, overlay: Option<&std::path::Path>) -> Result<(), String> {
    let spec = load_spec(dir)?;
    let extra = match overlay {
        Some(f) => Some(spec::Overlay::load(f).map_err(|e| e.to_string())?),
        None => None,
    };
    let report = xqspec::spec_check::check(&spec, extra.as_ref());
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
        let given = if extra.is_some() { " and the overlay given" } else { "" };
        println!("spec ok: {} editions, {} overlays{given}", spec.editions().len(), spec.overlays().len());
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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    // A closed stdout (`xqspec moves … | head`) ends a command quietly, as it does other Unix
    // tools. `conform` keeps Rust's default (SIGPIPE ignored): it writes to the pipes of the
    // programs it tests and must report one that died rather than die with it.
    if !matches!(cli.command, Command::Conform(_)) {
        end_quietly_on_closed_stdout();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
