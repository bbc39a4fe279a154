//! Ctrl-C and SIGTERM: the first one asks the run to stop cleanly (children are killed, the
//! journal stays consistent, `--resume` continues); a second one ends the process at once.
//!
//! Installed before a command writes anything, so that no window exists in which a signal
//! kills the harness half-way through a file.
//!
//! A [`Deadline`] stops a run the same clean way when its time is up (`reproduce`'s budget for
//! the survivors at scope + 1, whose estimate can be far off): every loop that polls
//! [`requested`] sees it, but it is not the signal flag, so the caller can tell it from Ctrl-C,
//! go on after it, and a later Ctrl-C still counts as the first.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

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

/// Whether a stop was requested: by a signal, [`request`], or a [`Deadline`] that passed.
pub fn requested() -> bool {
    signalled() || deadline_passed()
}

/// Whether a signal (or [`request`]) asked for the stop, as opposed to a deadline.
pub fn signalled() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::Relaxed))
}

/// The instant deadlines are counted from (nanoseconds in [`DEADLINE`]).
static EPOCH: OnceLock<Instant> = OnceLock::new();
/// The armed deadline in nanoseconds after [`EPOCH`]; `u64::MAX` when none is armed. An atomic,
/// not a lock: [`requested`] is polled every few milliseconds by every waiting loop.
static DEADLINE: AtomicU64 = AtomicU64::new(u64::MAX);

fn nanos_since_epoch() -> u64 {
    let epoch = *EPOCH.get_or_init(Instant::now);
    u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX - 1)
}

fn deadline_passed() -> bool {
    let d = DEADLINE.load(Ordering::Relaxed);
    d != u64::MAX && nanos_since_epoch() >= d
}

/// A time limit on what runs while it is alive: once `after` has passed, [`requested`] is true
/// (and [`signalled`] is not) until it is dropped. One at a time: arming a second while one is
/// alive is a programming error.
#[must_use = "the deadline is disarmed when dropped"]
pub struct Deadline {
    armed: Instant,
}

impl Deadline {
    /// Arms a deadline `after` from now.
    pub fn arm(after: Duration) -> Deadline {
        let now = nanos_since_epoch();
        let at = u64::try_from(after.as_nanos())
            .unwrap_or(u64::MAX)
            .saturating_add(now)
            .min(u64::MAX - 1);
        let previous = DEADLINE.swap(at, Ordering::Relaxed);
        assert_eq!(previous, u64::MAX, "a deadline is already armed");
        Deadline {
            armed: Instant::now(),
        }
    }

    /// Whether the time is up.
    pub fn passed(&self) -> bool {
        deadline_passed()
    }

    /// Time since the deadline was armed.
    pub fn elapsed(&self) -> Duration {
        self.armed.elapsed()
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        DEADLINE.store(u64::MAX, Ordering::Relaxed);
    }
}

/// Asks the run to stop, as a signal would (for a fatal error in one of many threads).
pub fn request() {
    if let Some(f) = FLAG.get() {
        f.store(true, Ordering::Relaxed);
    }
}
