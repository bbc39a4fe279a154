//! How far the searches of this process have got, readable while they run.
//!
//! A search returns its [`Stats`](crate::Stats) only when it ends, and a large scope's search
//! can take minutes: a caller that wants to show the count climbing (Ferastrau's worker, which
//! reports it to the harness drawing a progress line) cannot get it from the return value. So every
//! search adds what it has counted to process-wide counters every [`PUBLISH_EVERY`] candidates
//! and when it ends, and [`counts`] reads them from any thread. The counters are the process's,
//! not a search's: they sum every search it ran, which for a process that runs one scope's
//! searches (as Ferastrau's workers do) is that scope's progress.
//!
//! Cost: one comparison per candidate and one atomic add per [`PUBLISH_EVERY`] of them,
//! nothing next to the predicate's call (see the crate's "Speed" notes).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Candidates judged between two publications of a search's counts: a reader polling a few
/// times a second sees them move (at 50-100 ns a candidate, every 0.2-0.4 ms), and the shared
/// cache line is written too rarely to slow a search down on many threads.
pub const PUBLISH_EVERY: u64 = 4096;

static VALID: AtomicU64 = AtomicU64::new(0);
static EXPLORED: AtomicU64 = AtomicU64::new(0);

/// What the searches of this process have counted so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Valid inputs found ([`crate::Stats::valid`], summed).
    pub valid: u64,
    /// Candidates explored ([`crate::Stats::explored`], summed).
    pub explored: u64,
}

/// The counts of every search of this process so far, up to the last [`PUBLISH_EVERY`]
/// candidates of each one still running (a finished search's are all in).
pub fn counts() -> Counts {
    Counts {
        valid: VALID.load(Relaxed),
        explored: EXPLORED.load(Relaxed),
    }
}

/// Adds what a search counted since `published` (its figures when last published) to the
/// process's counters; returns the new mark. The search passes its figures, not its stats, so
/// that this module needs nothing of the search's. Out of line: it runs once per
/// [`PUBLISH_EVERY`] candidates.
#[inline(never)]
pub(crate) fn publish(counted: Counts, published: Counts) -> Counts {
    VALID.fetch_add(counted.valid.saturating_sub(published.valid), Relaxed);
    EXPLORED.fetch_add(counted.explored.saturating_sub(published.explored), Relaxed);
    counted
}
