//! A run written out: the JSON lines of `xqspec conform --json` (header, a line per case,
//! summary), the tables by area and by basis, the problem lines and the Markdown report.

use super::*;

/// The header's `implementation`: the hello without `type` and `protocol`, the fields of
/// its `implementation` beside the rule sets, queries, overlays and limits it declares.
fn implementation_json(about: &About) -> Value {
    let Ok(Value::Object(mut m)) = serde_json::to_value(about) else {
        return Value::Null;
    };
    m.remove("type");
    m.remove("protocol");
    if let Some(Value::Object(who)) = m.remove("implementation") {
        m.extend(who);
    }
    Value::Object(m)
}

/// The JSON-lines header of a run.
pub fn json_header(about: &About, editions: &[String]) -> String {
    json!({
        "type": "header",
        "suite": SUITE_VERSION,
        "protocol": PROTOCOL_VERSION,
        "runner": format!("xqspec {}", env!("CARGO_PKG_VERSION")),
        "implementation": implementation_json(about),
        "editions": editions,
        "started": std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
    })
    .to_string()
}

/// One JSON line per case result.
pub fn json_case(r: &CaseResult) -> String {
    json!({
        "type": "case",
        "id": r.id,
        "path": r.path,
        "area": r.area,
        "edition": r.edition,
        "rule_sets": r.rule_sets,
        "basis": r.basis.map(Basis::name),
        "status": r.status.name(),
        "known_failure": r.known,
        "known_failure_changed": r.known_changed,
        "detail": r.detail,
        "expected": r.expected,
        "got": r.got,
        "ms": r.millis as u64,
    })
    .to_string()
}

/// The closing JSON line of `xqspec conform --json`: the counts, and why the run stopped
/// asking (`stopped`, null when it did not).
pub fn json_summary(s: &Summary, stall: Option<&Stall>) -> String {
    json!({
        "type": "summary",
        "passed": s.passed,
        "failed": s.failed,
        "skipped": s.skipped,
        "not_asked": s.not_asked,
        "failed_by_basis": s.failed_by_basis,
        "known_failures": s.known_failures,
        "unexpected_passes": s.unexpected_passes,
        "changed_known_failures": s.changed_known_failures,
        "stopped": stall.map(Stall::to_json),
    })
    .to_string()
}

/// Per-area counts as a table (`markdown` for reports; needs the `cli` feature).
#[cfg(feature = "cli")]
pub fn area_table(results: &[CaseResult], markdown: bool) -> String {
    const TALLIES: [Tally; 7] = [
        Tally::Passed,
        Tally::Failed,
        Tally::Skipped,
        Tally::NotAsked,
        Tally::KnownFailure,
        Tally::UnexpectedPass,
        Tally::ChangedKnownFailure,
    ];
    let mut areas: BTreeMap<&str, [usize; 7]> = BTreeMap::new();
    for r in results {
        let row = areas.entry(r.area.as_str()).or_default();
        let i = TALLIES
            .iter()
            .position(|t| *t == r.tally())
            .expect("every tally");
        row[i] += 1;
    }
    let mut b = Builder::default();
    b.push_record([
        "area",
        "passed",
        "failed",
        "skipped",
        "not asked",
        "known failures",
        "listed but passing",
        "listed, answer changed",
    ]);
    let mut total = [0usize; 7];
    for (area, row) in &areas {
        for (t, v) in total.iter_mut().zip(row) {
            *t += v;
        }
        let mut rec = vec![area.to_string()];
        rec.extend(row.iter().map(|v| v.to_string()));
        b.push_record(rec);
    }
    let mut rec = vec!["total".to_string()];
    rec.extend(total.iter().map(|v| v.to_string()));
    b.push_record(rec);
    crate::markdown::table_text(b, markdown)
}

/// The failed results of each area by the basis of their answer (`rule`: the rules say
/// otherwise; `convention`: the suite's choice; `optional`: a feature the program may leave
/// out), `None` when nothing failed. Needs the `cli` feature.
#[cfg(feature = "cli")]
pub fn basis_table(results: &[CaseResult], markdown: bool) -> Option<String> {
    let mut areas: BTreeMap<&str, BTreeMap<&'static str, usize>> = BTreeMap::new();
    for r in results.iter().filter(|r| r.tally().fails()) {
        *areas
            .entry(r.area.as_str())
            .or_default()
            .entry(basis_name(r.basis))
            .or_default() += 1;
    }
    if areas.is_empty() {
        return None;
    }
    let mut columns: Vec<&str> = Basis::ALL.iter().map(|b| b.name()).collect();
    if areas.values().any(|m| m.contains_key("none")) {
        columns.push("none");
    }
    let mut b = Builder::default();
    let mut head = vec!["failed, by basis".to_string()];
    head.extend(columns.iter().map(|c| c.to_string()));
    b.push_record(head);
    let mut total: BTreeMap<&str, usize> = BTreeMap::new();
    for (area, m) in &areas {
        let mut rec = vec![area.to_string()];
        for c in &columns {
            let n = m.get(c).copied().unwrap_or(0);
            *total.entry(c).or_default() += n;
            rec.push(n.to_string());
        }
        b.push_record(rec);
    }
    let mut rec = vec!["total".to_string()];
    rec.extend(columns.iter().map(|c| total[c].to_string()));
    b.push_record(rec);
    Some(crate::markdown::table_text(b, markdown))
}

/// The most characters of a case's detail on the one line of a known failure (the whole
/// detail and the reason with `reasons`).
const KNOWN_DETAIL_CHARS: usize = 100;

/// Lines describing every result that is not a plain pass or skip. A known failure is one
/// short line (its case, edition and what it answers, cut to a hundred characters) after
/// the others: it is expected, not news; with `reasons` (`xqspec conform --verbose`), its
/// whole detail and the reason it is listed.
pub fn problem_lines(results: &[CaseResult], reasons: bool) -> Vec<String> {
    let (mut lines, mut known) = (Vec::new(), Vec::new());
    for r in results {
        let tag = match r.tally() {
            Tally::Passed | Tally::Skipped | Tally::NotAsked => continue,
            Tally::Failed => r.status.name().to_uppercase(),
            Tally::KnownFailure if !reasons => {
                let detail = r.detail.split_whitespace().collect::<Vec<_>>().join(" ");
                let mut line = format!("known failure {} [{}]", r.id, r.edition);
                if !detail.is_empty() {
                    let cut: String = detail.chars().take(KNOWN_DETAIL_CHARS).collect();
                    let more = if cut.len() < detail.len() { "…" } else { "" };
                    let _ = write!(line, ": {cut}{more}");
                }
                known.push(line);
                continue;
            }
            Tally::KnownFailure => format!("known {}", r.status.name()),
            Tally::UnexpectedPass => "LISTED BUT PASSES".to_string(),
            Tally::ChangedKnownFailure => "KNOWN FAILURE CHANGED".to_string(),
        };
        let mut line = format!("{tag} {} [{}] {}", r.id, r.edition, r.path);
        if let Some(b) = r.basis {
            let _ = write!(line, " ({})", b.name());
        }
        if let Some(c) = &r.known_changed {
            let _ = write!(line, ": {c}");
        } else if !r.detail.is_empty() {
            let _ = write!(line, ": {}", r.detail);
        }
        if let Some(k) = &r.known {
            let _ = write!(line, " (known failure: {k})");
        }
        lines.push(line);
    }
    lines.extend(known);
    lines
}

/// A Markdown report of a run. `diagrams` maps `(case id, edition)` of results that did
/// not pass to the relative path of a diagram of the case's position, shown under the
/// table. Needs the `cli` feature.
#[cfg(feature = "cli")]
pub fn markdown_report(
    about: &About,
    results: &[CaseResult],
    diagrams: &BTreeMap<(String, String), String>,
) -> String {
    let s = Summary::of(results);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Conformance report: {} {}\n",
        about.name(),
        about.version()
    );
    let _ = writeln!(
        out,
        "Suite {SUITE_VERSION}, protocol {PROTOCOL_VERSION}. Editions: {}.\n",
        results
            .iter()
            .map(|r| r.edition.as_str())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(out, "{}\n", area_table(results, true));
    if let Some(t) = basis_table(results, true) {
        let _ = writeln!(out, "{t}\n");
    }
    let problems = problem_lines(results, false);
    if !problems.is_empty() {
        let mut b = Builder::default();
        b.push_record(["case", "edition", "basis", "status", "detail"]);
        for r in results
            .iter()
            .filter(|r| !matches!(r.tally(), Tally::Passed | Tally::Skipped | Tally::NotAsked))
        {
            let status = match r.tally() {
                Tally::KnownFailure => format!("{} (known)", r.status.name()),
                Tally::UnexpectedPass => "pass (listed as known failure)".into(),
                Tally::ChangedKnownFailure => {
                    format!("{} (known failure changed)", r.status.name())
                }
                _ => r.status.name().into(),
            };
            b.push_record([
                format!("`{}`", r.id),
                r.edition.clone(),
                basis_name(r.basis).to_string(),
                status,
                r.known_changed
                    .as_ref()
                    .unwrap_or(&r.detail)
                    .replace('|', "\\|"),
            ]);
        }
        let mut t = b.build();
        t.with(Style::markdown());
        let _ = writeln!(out, "## Not passing\n\n{t}\n");
        let shown: Vec<&CaseResult> = results
            .iter()
            .filter(|r| diagrams.contains_key(&(r.id.clone(), r.edition.clone())))
            .collect();
        if !shown.is_empty() {
            let _ = writeln!(out, "## Positions of the cases not passing\n");
            for r in shown {
                let path = &diagrams[&(r.id.clone(), r.edition.clone())];
                let _ = writeln!(
                    out,
                    "### `{}` [{}]\n\nexpected `{}`, got `{}`\n\n![the position of {}]({path})\n",
                    r.id,
                    r.edition,
                    r.expected.replace('`', "'"),
                    r.got.replace('`', "'"),
                    r.id
                );
            }
        }
    }
    let _ = writeln!(out, "{}", s.line());
    out
}
