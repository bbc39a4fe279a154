//! The `ferastrau` command line.

use std::process::ExitCode;

use clap::Parser;

use ferastrau::cli::{run, Cli};
use ferastrau::exit_code::{self, Exit};

fn main() -> ExitCode {
    // `ferastrau ... | head`: end quietly when stdout closes, as a Unix filter does, instead
    // of panicking on the failed write. (No pipe the harness writes to is at risk: it never
    // writes to a child's stdin.)
    // SAFETY: restoring the default disposition of one signal before any thread starts.
    let _ = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGPIPE,
            nix::sys::signal::SigHandler::SigDfl,
        )
    };
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            print!("{e}");
            return Exit::Success.into();
        }
        Err(e) => {
            // One line: clap's first, without the usage block.
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return Exit::Usage.into();
        }
    };
    if let Err(e) = ferastrau::interrupt::install() {
        eprintln!("error: {e:#}");
        return Exit::Error.into();
    }
    match run(cli) {
        Ok(()) => Exit::Success.into(),
        Err(e) => {
            eprintln!("error: {e:#}");
            exit_code::of(&e).into()
        }
    }
}
