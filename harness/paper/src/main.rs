//! The `ferastrau-paper` command line: `ferastrau` with the paper's commands (`reproduce`,
//! `table3`). `ferastrau`'s main routine, so that both end, report errors and exit alike.

mod cli;

fn main() -> std::process::ExitCode {
    ferastrau::cli::main::<cli::PaperCli>()
}
