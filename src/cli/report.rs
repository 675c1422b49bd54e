//! `xqspec report` and `xqspec diff`.

use std::path::{Path, PathBuf};

use clap::Args;

use super::conform::load_suite;
use xqspec::spec::Spec;

/// Options of `xqspec report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Write every report (and its diagrams) into the reports folder.
    #[arg(long, conflicts_with = "check")]
    pub write: bool,
    /// Fail when a report is stale or missing, a diagram is no longer used, a clause is
    /// uncovered or an exemption needless (CI).
    #[arg(long)]
    pub check: bool,
    /// The reports folder.
    #[arg(long, value_name = "DIR", default_value = xqspec::report::DIR)]
    pub dir: PathBuf,
    /// Read the cases from this directory instead of `conformance/` (or the built-in copy).
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
}

/// Options of `xqspec diff`.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// The rule set to compare from: an edition (`cxa-2011`), another rule set (`axf`) or
    /// an edition with a shipped overlay (`cxa-2011+provincial-2012-open`).
    pub a: String,
    /// The rule set to compare to.
    pub b: String,
    /// Write the Markdown to this file, and the diagrams it links into `diagrams/` beside it.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Read the cases from this directory instead of `conformance/` (or the built-in copy).
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
    /// Print the differences as JSON (summary lines, certainty of every clause pair,
    /// behaviour) instead of Markdown.
    #[arg(long, conflicts_with = "write")]
    pub json: bool,
}

fn load_spec(dir: Option<&Path>) -> Result<Spec, String> {
    match dir {
        Some(d) => Spec::load_dir(d),
        None => Spec::builtin(),
    }
    .map_err(|e| e.to_string())
}

/// `xqspec report`.
pub fn report(spec_dir: Option<&Path>, a: &ReportArgs) -> Result<(), String> {
    let spec = load_spec(spec_dir)?;
    let suite = load_suite(a.cases.as_deref())?;
    let g = xqspec::report::generate(&spec, &suite)?;
    for (file, why) in &g.skipped {
        eprintln!("note: {file} not generated: {why}");
    }
    if a.check {
        let problems = xqspec::report::check(&a.dir, &g);
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        println!(
            "reports ok: {} files in {} are current",
            g.files.len(),
            a.dir.display()
        );
    } else if a.write {
        let written = xqspec::report::write(&a.dir, &g)?;
        for w in &written {
            println!("wrote {w}");
        }
        println!("{} of {} files changed", written.len(), g.files.len());
        let mut problems = g
            .uncovered
            .iter()
            .map(|u| format!("clause {u} is neither cited by a case nor exempt"))
            .collect::<Vec<_>>();
        problems.extend(
            g.needless_exemptions
                .iter()
                .map(|n| format!("clause {n} is exempt but a case cites it")),
        );
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
    } else {
        for (path, text) in &g.files {
            if path.ends_with(".md") {
                println!("{path}: {} lines", text.lines().count());
            }
        }
        println!(
            "(print only: --write writes them into {}, --check compares)",
            a.dir.display()
        );
    }
    Ok(())
}

/// `xqspec diff`.
pub fn diff(spec_dir: Option<&Path>, a: &DiffArgs) -> Result<(), String> {
    let spec = load_spec(spec_dir)?;
    let suite = load_suite(a.cases.as_deref())?;
    let d = xqspec::report::diff::diff(&spec, &suite, &a.a, &a.b)?;
    match &a.write {
        None if a.json => println!(
            "{}",
            serde_json::to_string_pretty(&d.to_json()).map_err(|e| e.to_string())?
        ),
        None => print!("{}", d.markdown),
        Some(file) => {
            std::fs::write(file, &d.markdown).map_err(|e| format!("{}: {e}", file.display()))?;
            println!("wrote {}", file.display());
            if !d.diagrams.is_empty() {
                let dir = file.parent().unwrap_or(Path::new(".")).join("diagrams");
                std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                for (name, svg) in &d.diagrams {
                    std::fs::write(dir.join(name), svg)
                        .map_err(|e| format!("{}: {e}", dir.join(name).display()))?;
                }
                println!("wrote {} diagrams into {}", d.diagrams.len(), dir.display());
            }
        }
    }
    Ok(())
}
