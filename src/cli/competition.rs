//! `xqspec standings FILE [--json] [--report FILE.md]`: the crosstable and the ranking of
//! a tournament file (the tables: `crate::competition::render`).

use crate::answer::ToAnswer;
use std::path::{Path, PathBuf};

use crate::competition::tournament::{read_file, RawTournament};

#[derive(clap::Args)]
pub struct StandingsArgs {
    /// The tournament file (YAML; conformance/tournament.schema.json, conformance/tournament-example.yaml).
    pub file: PathBuf,
    /// Print the standings as the `standings` query's JSON answer object.
    #[arg(long)]
    pub json: bool,
    /// Also write the crosstable and the ranking as Markdown tables to this file (never over
    /// the tournament file or another file the command reads).
    #[arg(long, value_name = "FILE.md")]
    pub report: Option<PathBuf>,
    /// The rule set (default: the file's `edition`, with its `overlay`, else cxa-2020).
    #[arg(long)]
    pub edition: Option<String>,
}

/// Runs the command. `spec_dir` and `overlay_file` are the global options.
pub fn run(
    spec_dir: Option<&Path>,
    overlay_file: Option<&Path>,
    a: &StandingsArgs,
) -> Result<(), String> {
    let file = a.file.display().to_string();
    let mut outputs = super::outputs(spec_dir, overlay_file);
    outputs.input(&a.file, "the tournament file");
    let report = match &a.report {
        Some(path) => Some(outputs.claim(path, "--report").map_err(|e| e.to_string())?),
        None => None,
    };
    let text = crate::input::read_file(&a.file).map_err(|e| e.to_string())?;
    let raw = RawTournament::from_yaml(&file, &text).map_err(|e| e.to_string())?;
    let id = match (&a.edition, &raw.edition, &raw.overlay) {
        (Some(e), _, _) => e.clone(),
        (None, Some(e), Some(o)) if overlay_file.is_none() => format!("{e}+{o}"),
        (None, Some(e), _) => e.clone(),
        (None, None, _) => crate::ruleset::DEFAULT.to_string(),
    };
    let ruleset =
        crate::ruleset::load(spec_dir, &id, overlay_file).map_err(|e| match a.edition {
            // The rule set named in the file: its errors name the file.
            None if raw.edition.is_some() => format!("{file}: edition: {e}"),
            Some(_) => e.named_at("--edition"),
            None => e.to_string(),
        })?;
    let rules = ruleset
        .competition
        .as_ref()
        .ok_or_else(|| format!("rule set {id} has no competition clauses"))?;
    let t = read_file(&file, &text, rules).map_err(|e| e.to_string())?;
    let st = crate::competition::standings(&t, rules);
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&st.to_json()).map_err(|e| e.to_string())?
        );
    } else {
        print!(
            "{}",
            crate::competition::render::render(&t, rules, &st, false)
        );
    }
    if let Some(f) = &report {
        f.write(crate::competition::render::render(&t, rules, &st, true).as_bytes())
            .map_err(|e| e.to_string())?;
        if !a.json {
            println!("wrote {}", f.path().display());
        }
    }
    Ok(())
}
