//! Rebuild when a file under `spec/` or `conformance/` is added, changed or
//! removed: both directories are embedded with `include_dir!`, which tracks
//! only the files that existed at the last build.

fn main() {
    println!("cargo:rerun-if-changed=spec");
    println!("cargo:rerun-if-changed=conformance");
}
