//! A folder's files as they are, to compare before and after a command (shared by `tests/it`
//! and the crate's own tests, `src/tests/`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every file below `dir` (symbolic links as their target's text, `->` and the target),
/// relative path → bytes: compared before and after a command.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(f) = folders.pop() {
        for e in std::fs::read_dir(&f).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(dir).unwrap().to_path_buf();
            let t = e.file_type().unwrap();
            if t.is_symlink() {
                let to = std::fs::read_link(&p).unwrap();
                out.insert(rel, format!("-> {}", to.display()).into_bytes());
            } else if t.is_dir() {
                folders.push(p);
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}
