use super::*;
use crate::conform::protocol::Implementation;
use crate::conform::subject::InProcess;
use crate::query::Answer;

/// Answers perft with 1 under cxa-1999 and 2 otherwise; panics on depth 9.
struct ByEdition;
impl Implementation for ByEdition {
    fn about(&self) -> About {
        About {
            editions: vec!["cxa-1999".into(), "cxa-2020".into()],
            queries: vec!["perft".into()],
            ..About::named("by-edition", "1")
        }
    }
    fn answer(&mut self, edition: &str, q: &Query) -> Answer {
        match q {
            Query::Perft { depth: 9, .. } => panic!("depth nine"),
            _ => Answer::nodes(if edition == "cxa-1999" { 1 } else { 2 }),
        }
    }
}

fn suite() -> Suite {
    let mut files = crate::conform::suite::embedded_files(&["vocabulary.yaml", "features.yaml"]);
    let head =
        "description: d\nclauses: [c.d]\neditions: [cxa-1999, cxa-2011, cxa-2020]\nquery: perft\n";
    files.push((
            "perft/differs.yaml".into(),
            format!("id: differs\n{head}input: {{fen: f, depth: 1}}\nexpect_by_edition:\n  cxa-1999: {{nodes: 1}}\n  cxa-2011: {{nodes: 2}}\n  cxa-2020: {{nodes: 2}}\n"),
        ));
    files.push((
        "perft/same.yaml".into(),
        format!("id: same\n{head}input: {{fen: f, depth: 1}}\nexpect: {{nodes: 2}}\n"),
    ));
    files.push((
        "perft/panics.yaml".into(),
        format!("id: panics\n{head}input: {{fen: f, depth: 9}}\nexpect: {{nodes: 2}}\n"),
    ));
    Suite::from_files(files)
}

#[test]
fn each_edition_is_judged_by_its_own_expectation() {
    let s = suite();
    let mut subject = InProcess::new(ByEdition);
    let results = run(&s, &mut subject, &RunOptions::default(), &mut |_| {})
        .unwrap()
        .results;
    let got: Vec<(String, String, Status)> = results
        .iter()
        .map(|r| (r.id.clone(), r.edition.clone(), r.status))
        .collect();
    let want: Vec<(String, String, Status)> = [
        ("differs", "cxa-1999", Status::Pass),
        ("differs", "cxa-2011", Status::Skip),
        ("differs", "cxa-2020", Status::Pass),
        ("panics", "cxa-1999", Status::Crash),
        ("panics", "cxa-2011", Status::Skip),
        ("panics", "cxa-2020", Status::Crash),
        ("same", "cxa-1999", Status::Fail),
        ("same", "cxa-2011", Status::Skip),
        ("same", "cxa-2020", Status::Pass),
    ]
    .iter()
    .map(|(i, e, s)| (i.to_string(), e.to_string(), *s))
    .collect();
    assert_eq!(got, want);
    assert_eq!(results[1].detail, "edition cxa-2011 not supported");
    assert_eq!(results[3].detail, "panicked: depth nine");
    assert_eq!(
        Summary::of(&results).line(),
        "3 passed, 3 failed, 0 known failures, 3 skipped"
    );
    #[cfg(feature = "cli")]
    {
        let table = area_table(&results, true);
        assert!(
            table.contains("| perft | 3      | 3      | 3       |"),
            "{table}"
        );
    }
}
