//! `xqspec`: the command line, which lives in the library as [`xqspec::cli`] (feature `cli`).

fn main() -> std::process::ExitCode {
    xqspec::cli::main()
}
