//! Rebuild when a file under `spec/` or `conformance/` is added, changed or
//! removed: both directories are embedded with `include_dir!`, which tracks
//! only the files that existed at the last build.
//!
//! `include_dir!` embeds every file under `conformance/`, and cannot leave a
//! folder out: a build folder of the example crates of `conformance/adapters/`
//! (`cargo run --manifest-path conformance/adapters/rust-chessai/Cargo.toml`
//! without `CARGO_TARGET_DIR`) would put hundreds of megabytes into the
//! binary. The build stops instead, naming the folder.

fn main() {
    println!("cargo:rerun-if-changed=spec");
    println!("cargo:rerun-if-changed=conformance");
    if let Ok(entries) = std::fs::read_dir("conformance/adapters") {
        for e in entries.flatten() {
            let target = e.path().join("target");
            if target.is_dir() {
                panic!(
                    "{} is a build folder inside conformance/, which xqspec embeds: remove it, and build the example with CARGO_TARGET_DIR set outside conformance/ (conformance/adapters/measure.py uses target/adapters)",
                    target.display()
                );
            }
        }
    }
}
