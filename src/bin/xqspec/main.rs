//! `xqspec`: the command line, which lives in the library as [`xqspec::cli`] (feature `cli`),
//! and the socket side of `xqspec web` ([`server`]), which lives here so that the library
//! never compiles tokio, hyper and axum.

mod server;

fn main() -> std::process::ExitCode {
    xqspec::cli::main(server::serve, || server::LIMITS.rows())
}
