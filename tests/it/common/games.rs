//! The real master games of `../shared/data/games/`, which the tests read when present.

use std::path::{Path, PathBuf};

/// The `.pgn` files of `../shared/data/games/`, sorted; `None` (and a line saying it was
/// skipped) where that folder is absent.
pub fn shared_pgn_files() -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/games");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} not found", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    Some(files)
}
