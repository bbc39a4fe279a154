//! `cargo ferastrau ...`: the `ferastrau` command line under the name cargo looks for when
//! it meets an unknown subcommand (`cargo-<name>` on the PATH). `cargo install ferastrau`
//! installs both binaries.

fn main() -> std::process::ExitCode {
    ferastrau::cli::main::<ferastrau::cli::Cli>()
}
