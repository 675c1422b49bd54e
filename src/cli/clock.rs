//! `xqspec clock`: simulate a game's clock events under a scheme, or list the schemes of a
//! rule set (the tables: `crate::clock::table`).

use std::path::PathBuf;

use crate::clock::{sim, table, ClockError, ClockQuery};
use crate::ruleset::RuleSet;

/// Arguments of `xqspec clock`.
#[derive(clap::Args, Debug)]
pub struct ClockArgs {
    /// The clock events of one game (YAML); see `xqspec clock --help` and README.
    #[arg(required_unless_present = "list")]
    pub file: Option<PathBuf>,
    /// The scheme id (`xqspec clock --list` shows them); default: the file's `scheme:`.
    #[arg(long)]
    pub scheme: Option<String>,
    /// List the schemes of the rule set with their parameters.
    #[arg(long, conflicts_with = "file")]
    pub list: bool,
    /// Print the answer object of the `clock` query instead of the table.
    #[arg(long)]
    pub json: bool,
    #[arg(long, default_value = crate::ruleset::DEFAULT)]
    pub edition: String,
}

/// `xqspec clock`.
pub fn run(ruleset: &RuleSet, args: &ClockArgs) -> Result<(), String> {
    let rules = ruleset
        .clock
        .as_ref()
        .ok_or_else(|| format!("rule set {} has no clock clauses", ruleset.id()))?;
    if args.list {
        print!("{}", table::schemes_text(rules));
        return Ok(());
    }
    let path = args
        .file
        .as_deref()
        .ok_or("give an event file, or --list")?;
    let (file_scheme, settings, events) = table::read_event_file(path)?;
    let scheme = args.scheme.clone().or(file_scheme).ok_or(
        "give --scheme ID (or `scheme:` in the event file); `xqspec clock --list` shows the ids",
    )?;
    let query = ClockQuery {
        scheme,
        settings,
        events,
    };
    let at = |e: ClockError| format!("{}: {e}", path.display());
    if args.json {
        let v = rules.answer_clock(&query).map_err(at)?;
        println!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    let scheme = rules.scheme(&query.scheme).map_err(at)?;
    let control = rules.control(scheme, query.settings.as_ref()).map_err(at)?;
    let events = sim::parse_events(&query.events).map_err(|e| at(ClockError::Event(e)))?;
    let t =
        sim::simulate(&control, &rules.timing, &events).map_err(|e| at(ClockError::Event(e)))?;
    let class = rules
        .class_of(scheme, &control)
        .map(|c| format!(", class {c}"))
        .unwrap_or_default();
    println!(
        "{} — scheme `{}` (art. {}: {}{class})\n",
        ruleset.id(),
        scheme.id,
        scheme.article.clone().unwrap_or_default(),
        scheme.name
    );
    println!("{}", table::timeline_table(rules, &control, &events, &t));
    match (&t.flag, t.ended_at) {
        (Some(f), _) => println!("\n{}'s flag fell at event {}.", f.side, f.event),
        (None, Some(n)) => println!("\nThe game ended on the clock at event {n}."),
        (None, None) => println!(
            "\nNo flag: {} left for red, {} for black.",
            table::clock_text(t.left[0]),
            table::clock_text(t.left[1])
        ),
    }
    Ok(())
}
