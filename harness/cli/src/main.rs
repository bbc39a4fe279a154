//! The `ferastrau` command line.

fn main() -> std::process::ExitCode {
    ferastrau::cli::main::<ferastrau::cli::Cli>()
}
