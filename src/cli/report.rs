//! `xqspec report` and `xqspec diff`.

use std::path::{Path, PathBuf};

use clap::Args;

use super::conform::CasesDir;
use crate::spec::Spec;

/// Options of `xqspec report`.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Write every report (and its diagrams) into the reports folder, and remove the ones
    /// it wrote there before and no longer generates: only those, as listed in the folder's
    /// `xqspec-manifest`. A folder holding files it did not write is refused.
    #[arg(long, conflicts_with = "check")]
    pub write: bool,
    /// With --write: write into a folder that holds files this command did not write. They
    /// are kept (listed as kept in the manifest) and never removed; a file of the same name
    /// as a report is overwritten.
    #[arg(long, requires = "write")]
    pub force: bool,
    /// Fail when a report is stale or missing, a diagram is no longer used, a clause is
    /// uncovered or an exemption needless (CI).
    #[arg(long)]
    pub check: bool,
    /// The reports folder.
    #[arg(long, value_name = "DIR", default_value = crate::report::DIR)]
    pub dir: PathBuf,
    #[command(flatten)]
    pub cases: CasesDir,
}

/// Options of `xqspec diff`.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// The rule set to compare from: an edition (`cxa-2011`), another rule set (`axf`) or
    /// an edition with a shipped overlay (`cxa-2011+provincial-2012-open`).
    pub a: String,
    /// The rule set to compare to.
    pub b: String,
    /// Write the Markdown to this file, and the diagrams it links into `diagrams/` beside it
    /// (never over a file the command reads, nor through a symbolic link out of that folder).
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    #[command(flatten)]
    pub cases: CasesDir,
    /// Print the differences as JSON (summary lines, certainty of every clause pair,
    /// behaviour) instead of Markdown.
    #[arg(long, conflicts_with = "write")]
    pub json: bool,
}

/// The files `report` and `diff` read: the spec's and the cases' (no output is one of them).
fn inputs(spec_dir: Option<&Path>, cases: Option<&Path>) -> crate::output::Outputs {
    let mut o = super::outputs(spec_dir, None);
    let cases = cases.unwrap_or(Path::new("conformance"));
    o.input_dir(cases, "a file of the cases", &[".yaml", ".yml"]);
    o
}

/// `xqspec report`.
pub fn report(spec_dir: Option<&Path>, a: &ReportArgs) -> Result<(), String> {
    // A folder holding files this command did not write is refused before anything is
    // computed.
    if a.write {
        crate::output::OwnedDir::check(&a.dir, crate::report::WRITER, a.force)
            .map_err(|e| crate::output::said(&e))?;
    }
    let spec = Spec::load(spec_dir).map_err(|e| e.to_string())?;
    let suite = a.cases.load()?;
    let g = crate::report::generate(&spec, &suite)?;
    for (file, why) in &g.skipped {
        eprintln!("note: {file} not generated: {why}");
    }
    if a.check {
        let problems = crate::report::check(&a.dir, &g);
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        println!(
            "reports ok: {} files in {} are current",
            g.files.len(),
            a.dir.display()
        );
    } else if a.write {
        let mut outputs = inputs(spec_dir, a.cases.path());
        let written = crate::report::write(&a.dir, &g, &mut outputs, a.force)?;
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
    let spec = Spec::load(spec_dir).map_err(|e| e.to_string())?;
    let suite = a.cases.load()?;
    // Every file is claimed before anything is computed or written.
    let mut outputs = inputs(spec_dir, a.cases.path());
    let file = match &a.write {
        Some(f) => Some(outputs.claim(f, "--write").map_err(|e| e.to_string())?),
        None => None,
    };
    let d = crate::report::diff::diff(&spec, &suite, &a.a, &a.b)?;
    match &a.write {
        None if a.json => println!(
            "{}",
            serde_json::to_string_pretty(&d.to_json()).map_err(|e| e.to_string())?
        ),
        None => print!("{}", d.markdown),
        Some(path) => {
            let beside = path.parent().unwrap_or(Path::new("."));
            let diagrams = d
                .diagrams
                .iter()
                .map(|(name, svg)| {
                    let rel = Path::new("diagrams").join(name);
                    outputs
                        .claim_in(beside, &rel, "a diagram of --write")
                        .map(|t| (t, svg))
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            let file = file.expect("claimed with --write");
            file.write(d.markdown.as_bytes())
                .map_err(|e| e.to_string())?;
            println!("wrote {}", path.display());
            for (t, svg) in &diagrams {
                t.write(svg.as_bytes()).map_err(|e| e.to_string())?;
            }
            if !diagrams.is_empty() {
                println!(
                    "wrote {} diagrams into {}",
                    diagrams.len(),
                    beside.join("diagrams").display()
                );
            }
        }
    }
    Ok(())
}
