//! Memory is bounded by the window, not by the input (issue 45): `replay` and `adjudicate`
//! given thousands of small record files keep nothing per file to the end. The peak
//! resident memory of the command (its own, read from /proc while it runs) is
//! measured over 1,000 and 4,000 generated files: it may not grow with their number
//! (before the fix each file kept a 256 KiB read buffer: 1,000 files took 270 MB, 4,000
//! took 1 GB).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::hostile_files::temp;

/// `n` small record files (a game of a few moves each, a few hundred bytes) in `dir`.
fn small_files(dir: &Path, n: usize) -> Vec<PathBuf> {
    let moves = [
        "h2e2 h9g7",
        "h0g2 i9h9",
        "i0h0 b9c7",
        "b2a2 h7i7",
        "b0c2 b7b3",
        "a0b0 c6c5",
    ];
    (0..n)
        .map(|i| {
            let p = dir.join(format!("g{i:05}.pgn"));
            let mut text =
                format!("[Event \"game {i}\"]\n[Red \"red {i}\"]\n[Black \"black\"]\n\n");
            for (k, m) in moves.iter().take(1 + i % moves.len()).enumerate() {
                text.push_str(&format!("{}. {m} ", k + 1));
            }
            text.push_str("*\n");
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect()
}

/// The peak resident memory in KiB of `xqspec ARGS FILES` (its status must be success):
/// the high-water mark of its own memory after `exec` (`VmHWM` of `/proc/PID/status`),
/// read until it exits. (The `ru_maxrss` of `wait4` would count the memory of this test
/// process, which the child shares until `exec`.)
#[cfg(target_os = "linux")]
fn peak_kib(args: &[&str], files: &[PathBuf]) -> u64 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xqspec"))
        .args(args)
        .args(files)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            // Before `exec` the child is still this program: its numbers are not the child's.
            if text.lines().any(|l| l == "Name:\txqspec") {
                let hwm = text
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok());
                peak = peak.max(hwm.unwrap_or(0));
            }
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    assert!(status.success(), "{args:?} failed: {status}");
    assert!(peak > 0, "{args:?}: no memory read");
    peak
}

#[cfg(target_os = "linux")]
#[test]
fn replay_and_adjudicate_keep_nothing_per_file() {
    let d = temp("memory");
    let all = small_files(&d, 4000);
    for cmd in ["replay", "adjudicate"] {
        let few = peak_kib(&[cmd, "--quiet"], &all[..1000]);
        let many = peak_kib(&[cmd, "--quiet"], &all);
        // The 3,000 more paths on the command line cost a few hundred KiB: allow 12 MiB,
        // a twentieth of what one file cost before.
        assert!(
            many - few < 12 << 10,
            "{cmd}: {few} KiB for 1,000 files, {many} KiB for 4,000: memory grows with the files"
        );
        assert!(many < 200 << 10, "{cmd}: {many} KiB for 4,000 small files");
    }
    std::fs::remove_dir_all(&d).ok();
}
