//! Ctrl-C and SIGTERM: the first one asks the run to stop cleanly (children are killed, the
//! journal stays consistent, `--resume` continues); a second one ends the process at once.
//!
//! Installed before a command writes anything, so that no window exists in which a signal
//! kills the harness half-way through a file.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use anyhow::{Context, Result};
use signal_hook::consts::{SIGINT, SIGTERM};

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Installs the handlers (idempotent).
pub fn install() -> Result<()> {
    if FLAG.get().is_some() {
        return Ok(());
    }
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM] {
        // The second signal exits with status 130 at once; the first sets the flag.
        signal_hook::flag::register_conditional_shutdown(sig, 130, Arc::clone(&flag))
            .context("cannot install the signal handlers")?;
        signal_hook::flag::register(sig, Arc::clone(&flag))
            .context("cannot install the signal handlers")?;
    }
    let _ = FLAG.set(flag);
    Ok(())
}

/// Whether a stop was requested.
pub fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// Asks the run to stop, as a signal would (for a fatal error in one of many threads).
pub fn request() {
    if let Some(f) = FLAG.get() {
        f.store(true, Ordering::Relaxed);
    }
}
