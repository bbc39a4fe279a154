//! The exit status of `ferastrau`, one value per kind of ending, so that CI can tell a weak
//! test suite from a broken run from a typo.
//!
//! Errors carry their kind as a marker type in the `anyhow` chain ([`Broken`], [`Usage`],
//! [`Interrupted`]); anything else is an internal or environment error.

use std::fmt;
use std::process::ExitCode;

/// Every status `ferastrau` exits with (documented in the book, `docs/src/command-line.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The command did what it was asked; for `evaluate`, the run is sound.
    Success = 0,
    /// An internal or environment error: I/O, a crate that does not build, an output
    /// directory held by another run.
    Error = 1,
    /// The command line or the benchmark crate's declaration is wrong.
    Usage = 2,
    /// `gate`: the run is weaker than its baseline.
    GateFailed = 3,
    /// The results would be meaningless: the original program fails (a crash, a loop, a
    /// panic, a broken post-state, a postcondition violation in `check`), the limits are ones
    /// the original itself cannot meet, or the results look like an infrastructure failure.
    Broken = 4,
    /// Stopped by Ctrl-C or SIGTERM, or between scopes by `--max-time`; `--resume` continues.
    Interrupted = 130,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// Marks an error as [`Exit::Broken`].
#[derive(Debug)]
pub struct Broken(pub String);

/// Marks an error as [`Exit::Usage`].
#[derive(Debug)]
pub struct Usage(pub String);

/// Marks an error as [`Exit::Interrupted`].
#[derive(Debug)]
pub struct Interrupted(pub String);

/// Marks an error as [`Exit::GateFailed`].
#[derive(Debug)]
pub struct GateFailed(pub String);

macro_rules! marker {
    ($t:ty) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl std::error::Error for $t {}
    };
}
marker!(Broken);
marker!(Usage);
marker!(Interrupted);
marker!(GateFailed);

/// A [`Broken`] error.
pub fn broken(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Broken(message.into()))
}

/// A [`Usage`] error.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(message.into()))
}

/// The exit status for an error: the first marker found in its chain.
pub fn of(err: &anyhow::Error) -> Exit {
    for cause in err.chain() {
        if cause.is::<Broken>() {
            return Exit::Broken;
        }
        if cause.is::<Usage>() {
            return Exit::Usage;
        }
        if cause.is::<Interrupted>() {
            return Exit::Interrupted;
        }
        if cause.is::<GateFailed>() {
            return Exit::GateFailed;
        }
    }
    Exit::Error
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn markers_survive_context() {
        let e = Err::<(), _>(broken("the original loops"))
            .context("at scope 3")
            .unwrap_err();
        assert_eq!(of(&e), Exit::Broken);
        assert_eq!(of(&anyhow::anyhow!("disk full")), Exit::Error);
        assert_eq!(of(&usage("bad")), Exit::Usage);
        assert_eq!(Exit::Interrupted as u8, 130);
    }
}
