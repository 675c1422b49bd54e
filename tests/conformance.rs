//! Every conformance case, once per edition it applies to, against the
//! reference implementation; every case file through `cases check`; and the
//! suite-wide checks (coverage report current, every clause covered).
//!
//! Test names: `cxa_2020::movement/horse-leg-blocked.yaml`,
//! `well_formed::movement/horse-leg-blocked.yaml`, `suite::vocabulary.yaml`.
//! All checking logic lives in `xqspec::harness`.

use std::path::Path;

use datatest_stable::Utf8Path;
use xqspec::harness;

/// The editions run here; `suite` fails if they differ from the spec's.
const EDITIONS: [&str; 4] = ["axf", "cxa-1999", "cxa-2011", "cxa-2020"];
const ROOT: &str = "conformance";

fn run(edition: &str, path: &Utf8Path, contents: String) -> datatest_stable::Result<()> {
    Ok(harness::check_reference_case_in(
        Path::new(ROOT),
        edition,
        path.as_str(),
        &contents,
    )?)
}

fn axf(path: &Utf8Path, contents: String) -> datatest_stable::Result<()> {
    run("axf", path, contents)
}

fn cxa_1999(path: &Utf8Path, contents: String) -> datatest_stable::Result<()> {
    run("cxa-1999", path, contents)
}

fn cxa_2011(path: &Utf8Path, contents: String) -> datatest_stable::Result<()> {
    run("cxa-2011", path, contents)
}

fn cxa_2020(path: &Utf8Path, contents: String) -> datatest_stable::Result<()> {
    run("cxa-2020", path, contents)
}

fn well_formed(path: &Utf8Path, _contents: String) -> datatest_stable::Result<()> {
    Ok(harness::check_case_file(Path::new(ROOT), path.as_str())?)
}

fn suite(_path: &Utf8Path, _contents: String) -> datatest_stable::Result<()> {
    Ok(harness::check_suite_files(
        Path::new(ROOT),
        Path::new("reports/coverage.md"),
        &EDITIONS,
    )?)
}

datatest_stable::harness! {
    { test = axf, root = ROOT, pattern = harness::edition_pattern(ROOT, "axf") },
    { test = cxa_1999, root = ROOT, pattern = harness::edition_pattern(ROOT, "cxa-1999") },
    { test = cxa_2011, root = ROOT, pattern = harness::edition_pattern(ROOT, "cxa-2011") },
    { test = cxa_2020, root = ROOT, pattern = harness::edition_pattern(ROOT, "cxa-2020") },
    { test = well_formed, root = ROOT, pattern = r"^[^/]+/.+\.yaml$" },
    { test = suite, root = ROOT, pattern = r"^vocabulary\.yaml$" },
}
