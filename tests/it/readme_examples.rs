//! The examples of the README and of docs/ run as written. In a fenced block, a line `$ COMMAND` is run by
//! `sh` (with the built `xqspec` first on the PATH) in a scratch directory, and the lines up
//! to the next `$ ` are its expected output (a line `…` stands for any number of lines;
//! no lines: only success is checked). `$ cat NAME` followed by text, or a YAML block whose
//! first line is `# NAME`, writes that file for the commands after it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The fenced blocks of a Markdown text, each as its lines.
fn blocks(text: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    let mut cur: Option<Vec<&str>> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            match cur.take() {
                Some(b) => out.push(b),
                None => cur = Some(Vec::new()),
            }
        } else if let Some(b) = cur.as_mut() {
            b.push(line);
        }
    }
    out
}

/// Whether `got` matches `want`, where a `want` line `…` matches any run of lines.
fn matches(want: &[&str], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w.trim() == "…" => (0..=got.len()).any(|i| matches(rest, &got[i..])),
        Some((w, rest)) => got
            .first()
            .is_some_and(|g| g.trim_end() == w.trim_end() && matches(rest, &got[1..])),
    }
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xqspec-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs every example of one Markdown file; returns how many commands ran.
fn run_examples(file: &Path, dir: &Path) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_xqspec"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for b in blocks(&text) {
        if let Some(name) = b
            .first()
            .and_then(|l| l.strip_prefix("# "))
            .filter(|n| n.ends_with(".yaml") && !n.contains(' '))
        {
            std::fs::write(dir.join(name), b[1..].join("\n") + "\n").unwrap();
            continue;
        }
        let mut i = 0;
        while i < b.len() {
            let Some(cmd) = b[i].strip_prefix("$ ") else {
                i += 1;
                continue;
            };
            let end = (i + 1..b.len())
                .find(|&j| b[j].starts_with("$ "))
                .unwrap_or(b.len());
            let body = &b[i + 1..end];
            if let Some(name) = cmd.strip_prefix("cat ") {
                std::fs::write(dir.join(name.trim()), body.join("\n") + "\n").unwrap();
            } else {
                let out = Command::new("sh")
                    .arg("-c")
                    .arg(cmd)
                    .current_dir(dir)
                    .env("PATH", &path)
                    .output()
                    .unwrap();
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(
                    out.status.success(),
                    "{}: `{cmd}` failed:\n{stdout}{}",
                    file.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
                let got: Vec<&str> = stdout.lines().collect();
                assert!(
                    body.is_empty() || matches(body, &got),
                    "{}: `{cmd}` printed\n{stdout}\nwhere the example shows\n{}",
                    file.display(),
                    body.join("\n")
                );
                ran += 1;
            }
            i = end;
        }
    }
    ran
}

#[test]
fn the_readme_examples_run_as_written() {
    let dir = scratch();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The README and the pages of docs/ it sends its readers to.
    let mut ran = 0;
    for page in [
        "README.md",
        "docs/commands.md",
        "docs/desk.md",
        "docs/python.md",
    ] {
        ran += run_examples(&root.join(page), &dir);
    }
    assert!(
        ran >= 6,
        "only {ran} commands found in the README and docs/"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_example_that_differs_is_caught() {
    assert!(matches(&["a", "…", "d"], &["a", "b", "c", "d"]));
    assert!(matches(&["a", "…"], &["a"]));
    assert!(!matches(&["a", "d"], &["a", "b", "d"]));
    assert!(!matches(&["a", "…", "e"], &["a", "b", "d"]));
}
