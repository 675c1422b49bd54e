//! A folder of generated files loses only what its manifest says was written (moved from
//! tests/it: `output`'s planning is no embedder's API).

use super::assert::assert_contains;
use super::snapshot::snapshot;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A fresh folder for one test.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xqspec-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(unix)]
#[test]
fn report_write_follows_no_symbolic_link_out_of_its_folder() {
    use crate::output::said;
    use crate::output::Outputs;
    use crate::output::OwnedDir;
    let d = temp("report-link");
    let dir = d.join("reports");
    std::fs::create_dir_all(d.join("elsewhere")).unwrap();
    std::fs::write(d.join("elsewhere/x.svg"), "mine").unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(d.join("elsewhere"), dir.join("diagrams")).unwrap();
    let files: BTreeMap<String, String> = [
        ("README.md".to_string(), "# r\n".to_string()),
        ("diagrams/x.svg".to_string(), "<svg/>".to_string()),
    ]
    .into();
    let before = snapshot(&d);
    // Forced, as a folder of others' files would be: the link is still not followed.
    let e = said(&OwnedDir::plan(&mut Outputs::new(), &dir, &files, "t", true).unwrap_err());
    assert_contains(&e, "diagrams/x.svg");
    assert_contains(&e, "leads out of the folder");
    assert_eq!(snapshot(&d), before);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_folder_of_reports_loses_only_files_its_manifest_says_were_written() {
    use crate::output::said;
    use crate::output::Outputs;
    use crate::output::OwnedDir;
    use crate::output::MANIFEST;
    let d = temp("report-manifest");
    let dir = d.join("reports");
    let files = |names: &[&str]| -> BTreeMap<String, String> {
        names
            .iter()
            .map(|n| (n.to_string(), format!("generated {n}")))
            .collect()
    };
    let write = |names: &[&str], force: bool| {
        OwnedDir::plan(
            &mut Outputs::new(),
            &dir,
            &files(names),
            "xqspec report --write",
            force,
        )
        .map_err(|e| said(&e))
        .and_then(|p| p.apply().map_err(|e| e.to_string()))
    };
    // A new folder: written, with its manifest.
    write(&["README.md", "diff-a-b.md", "diagrams/x.svg"], false).unwrap();
    let manifest = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
    assert_contains(&manifest, "wrote diagrams/x.svg");
    // Someone's files beside them: refused, then kept with --force, and listed as kept.
    std::fs::write(dir.join("diagrams/mine.svg"), "mine").unwrap();
    std::fs::write(dir.join("diff-mine.md"), "mine").unwrap();
    let before = snapshot(&d);
    let e = write(&["README.md"], false).unwrap_err();
    assert_contains(&e, "diagrams/mine.svg");
    assert_contains(&e, "diff-mine.md");
    assert_eq!(snapshot(&d), before);
    let done = write(&["README.md"], true).unwrap();
    // The files it wrote and no longer writes are removed; the others' are kept.
    assert!(
        done.iter().any(|l| l.contains("diff-a-b.md (removed)")),
        "{done:?}"
    );
    assert!(!dir.join("diagrams/x.svg").exists());
    assert_eq!(
        std::fs::read(dir.join("diagrams/mine.svg")).unwrap(),
        b"mine"
    );
    assert_eq!(std::fs::read(dir.join("diff-mine.md")).unwrap(), b"mine");
    let manifest = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
    assert_contains(&manifest, "kept diagrams/mine.svg");
    // Listed as kept: the next run goes on without --force, and keeps them again.
    write(&["README.md", "notes.md"], false).unwrap();
    assert_eq!(std::fs::read(dir.join("diff-mine.md")).unwrap(), b"mine");
    // A manifest that does not read is refused, naming its line.
    std::fs::write(dir.join(MANIFEST), "wrote ../../etc/passwd\n").unwrap();
    let e = write(&["README.md"], true).unwrap_err();
    assert_contains(&e, MANIFEST);
    assert_contains(&e, "line 1");
    std::fs::remove_dir_all(&d).ok();
}
