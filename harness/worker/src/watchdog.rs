//! The wall-clock limit of each call, which the tick budget cannot enforce alone.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A wall-clock limit per call, enforced by a watchdog thread: when a call runs past its
/// deadline the watchdog calls `on_timeout` (which should end the process). This catches
/// loops the tick budget cannot see (code without probes, e.g. a plain single-mutant crate,
/// or the original, which runs without a budget).
pub struct Watchdog {
    started: Instant,
    /// Nanoseconds since `started` after which the current call is over time; 0 = none.
    deadline: &'static AtomicU64,
    /// The limit armed last, for the timeout's report.
    limit: &'static AtomicU64,
}

impl Watchdog {
    /// Starts the watchdog thread; `on_timeout` gets the limit that was exceeded.
    ///
    /// The thread gets a small stack (it only sleeps and reports), so that it costs little of
    /// the process's address-space limit; if it cannot start even so, the error says that the
    /// worker itself, not the code under test, is short of memory.
    pub fn start(on_timeout: fn(Duration)) -> std::io::Result<Watchdog> {
        let deadline: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let limit: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let started = Instant::now();
        std::thread::Builder::new()
            .name("ferastrau-watchdog".into())
            .stack_size(256 << 10)
            .spawn(move || loop {
                std::thread::sleep(Duration::from_millis(5));
                let d = deadline.load(Relaxed);
                if d != 0 && started.elapsed().as_nanos() as u64 > d {
                    on_timeout(Duration::from_nanos(limit.load(Relaxed)));
                }
            })
            .map_err(|e| {
                std::io::Error::other(format!(
                    "the worker cannot start its watchdog thread ({e}): Ferastrau's own worker needs more memory than --memory-limit leaves it, before any code under test runs; raise --memory-limit"
                ))
            })?;
        Ok(Watchdog {
            started,
            deadline,
            limit,
        })
    }

    /// Arms the limit for the next call.
    pub fn arm(&self, limit: Duration) {
        let now = self.started.elapsed().as_nanos() as u64;
        let nanos = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
        self.limit.store(nanos, Relaxed);
        self.deadline
            .store(now.saturating_add(nanos).max(1), Relaxed);
    }

    /// Disarms it after the call.
    pub fn disarm(&self) {
        self.deadline.store(0, Relaxed);
    }
}
