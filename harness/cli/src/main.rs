//! The `ferastrau` command line.

use std::process::ExitCode;

use ferastrau::cli::{parse_from, run};
use ferastrau_harness::exit_code::{self, Exit};
use ferastrau_harness::term::{paint, style};

/// An error line on stderr, its `error:` coloured where colour is on.
fn error(message: &str) {
    let message = message.strip_prefix("error: ").unwrap_or(message);
    anstream::eprintln!("{} {message}", paint(style::BAD, "error:"));
}

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
    let cli = match parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own rendering: `--help` and `--version` on stdout; a mistake on stderr
            // with its usage line and, for a misspelt command or option, "a similar ... exists"
            // (bare `ferastrau` prints the help there). Coloured as `--color` says (set
            // globally by `parse_from` before parsing).
            let _ = e.print();
            return match e.use_stderr() {
                false => Exit::Success.into(),
                true => Exit::Usage.into(),
            };
        }
    };
    // The workers' opt-level comes from the environment (`FERASTRAU_OPT_LEVEL`): a bad one is
    // refused like a bad option, before anything runs.
    if let Err(e) = ferastrau_mutator::compile::opt_level() {
        error(&format!("{e:#}"));
        return Exit::Usage.into();
    }
    if let Err(e) = ferastrau_harness::interrupt::install() {
        error(&format!("{e:#}"));
        return Exit::Error.into();
    }
    match run(cli) {
        Ok(()) => Exit::Success.into(),
        Err(e) => {
            let exit = exit_code::of(&e);
            match exit {
                // Ctrl-C is the user's doing, not an error: say where the results are.
                Exit::Interrupted => anstream::eprintln!("{e:#}"),
                _ => error(&format!("{e:#}")),
            }
            exit.into()
        }
    }
}
