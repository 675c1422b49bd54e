//! The layering of ARCHITECTURE.md, enforced: every module of `src/` is in one layer of its
//! table, uses (through a `crate::` path outside comments) only modules of its own layer or
//! below, and the modules use each other without a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The layers table of ARCHITECTURE.md: module → layer number.
fn layers(text: &str) -> BTreeMap<String, u32> {
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .expect("ARCHITECTURE.md has a Layers section");
    let mut out = BTreeMap::new();
    for line in section.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(n) = cells.get(1).and_then(|c| c.parse::<u32>().ok()) else {
            continue;
        };
        for m in cells[2].split('`').skip(1).step_by(2) {
            assert!(
                out.insert(m.to_string(), n).is_none(),
                "`{m}` is in two layers"
            );
        }
    }
    out
}

/// The top module a file of `src/` belongs to (`vm` for `src/vm/fen.rs`), none for the
/// crate roots (`lib.rs`, and the binary under `bin/`, which reaches the library as `xqspec::`).
fn top_module(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "bin")).then(|| name.to_string())
}

/// The modules a line of Rust names through `crate::` paths (comments left out).
fn uses(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a::X, b}`: each item's first segment.
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// Every `.rs` file of `src/` in path order: its path below `src/` (with `/`) and its text
/// (read by `sizes` and `shapes`).
pub(crate) fn src_files() -> Vec<(String, String)> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).unwrap().to_string_lossy();
            (rel.replace('\\', "/"), std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// module → (module it uses → the first place it does).
fn graph(src: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    // Only modules count: `crate::Item` of a crate root (a type, a function) is no module.
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| top_module(f.strip_prefix(src).unwrap()))
        .collect();
    let mut g: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(src).unwrap();
        let Some(from) = top_module(rel) else {
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap();
        g.entry(from.clone()).or_default();
        for (n, line) in text.lines().enumerate() {
            for to in uses(line) {
                if to != from && modules.contains(&to) {
                    g.get_mut(&from)
                        .unwrap()
                        .entry(to)
                        .or_insert_with(|| format!("src/{}:{}", rel.display(), n + 1));
                }
            }
        }
    }
    g
}

/// A cycle of the graph, if there is one (as the list of modules around it).
fn cycle(g: &BTreeMap<String, BTreeMap<String, String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        g: &BTreeMap<String, BTreeMap<String, String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut c = path[i..].to_vec();
            c.push(m.to_string());
            return Some(c);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for to in g.get(m).into_iter().flat_map(|e| e.keys()) {
            if let Some(c) = visit(to, g, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    g.keys()
        .find_map(|m| visit(m, g, &mut Vec::new(), &mut done))
}

#[test]
fn every_import_follows_the_layers_of_architecture_md() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let layer = layers(&text);
    let g = graph(&root().join("src"));
    let mut wrong = Vec::new();
    for (from, tos) in &g {
        let Some(&lf) = layer.get(from) else {
            wrong.push(format!("module `{from}` is in no layer of ARCHITECTURE.md"));
            continue;
        };
        for (to, at) in tos {
            match layer.get(to) {
                Some(&lt) if lt <= lf => {}
                Some(&lt) => wrong.push(format!(
                    "{at}: `{from}` (layer {lf}) uses `{to}` (layer {lt}), a layer above it"
                )),
                None => wrong.push(format!("{at}: `{to}` is in no layer of ARCHITECTURE.md")),
            }
        }
    }
    for m in layer.keys() {
        if !g.contains_key(m) {
            wrong.push(format!(
                "ARCHITECTURE.md lists `{m}`, which is no module of src/"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_modules_use_each_other_without_a_cycle() {
    let g = graph(&root().join("src"));
    if let Some(c) = cycle(&g) {
        let steps: Vec<String> = c
            .windows(2)
            .map(|w| format!("{} → {} ({})", w[0], w[1], g[&w[0]][&w[1]]))
            .collect();
        panic!("a cycle of modules:\n{}", steps.join("\n"));
    }
}

#[test]
fn the_checks_see_an_import_against_the_layers_and_a_cycle() {
    // The reading of paths, on lines as they are written.
    assert_eq!(uses("use crate::vm::{Position, Rules};"), ["vm"]);
    assert_eq!(
        uses("use crate::{board::Side, vm::fen}; // crate::spec"),
        ["board", "vm"]
    );
    assert!(uses("//! see [`crate::report`]").is_empty());
    // A cycle is found and a chain is not.
    let edge = |a: &str, b: &str| (a.to_string(), BTreeMap::from([(b.to_string(), "x".into())]));
    let chain: BTreeMap<_, _> = [edge("a", "b"), edge("b", "c")].into();
    assert_eq!(cycle(&chain), None);
    let ring: BTreeMap<_, _> = [edge("a", "b"), edge("b", "a")].into();
    assert_eq!(cycle(&ring), Some(vec!["a".into(), "b".into(), "a".into()]));
    // The table is read with its layer numbers.
    let l = layers(
        "# A\n\n## Layers\n\n| layer | modules |\n|---|---|\n| 1 | `a`, `b` |\n| 2 | `c` |\n",
    );
    assert_eq!(l["b"], 1);
    assert_eq!(l["c"], 2);
}
