//! What the mutated code calls at run time.
//!
//! A metamutant holds every mutant at once; each mutation point asks [`active`] which mutant
//! (if any) is switched on. The worker process runs one mutant at a time, single-threaded, so
//! process-wide relaxed atomics are enough: a relaxed load compiles to a plain load.
//!
//! The same rewrite inserts coverage probes ([`cover`]), counted only while coverage is
//! switched on, and budget ticks ([`tick`]) at every loop iteration and function entry of the
//! mutated code: a mutant that runs more than its budget of ticks panics with
//! [`BudgetExceeded`], a deterministic stand-in for a wall-clock timeout.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Mutant ids start at 1; 0 means "the original program".
pub const ORIGINAL: u32 = 0;

static ACTIVE: AtomicU32 = AtomicU32::new(ORIGINAL);
static COVERAGE_ON: AtomicBool = AtomicBool::new(false);
static TICKS: AtomicU64 = AtomicU64::new(0);
static BUDGET: AtomicU64 = AtomicU64::new(u64::MAX);
static HITS: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// The active mutant (0 for none).
#[inline(always)]
pub fn active() -> u32 {
    ACTIVE.load(Relaxed)
}

/// Switches mutant `id` on (0 switches every mutant off).
pub fn set_active(id: u32) {
    ACTIVE.store(id, Relaxed);
}

/// Counts a hit of coverage probe `id`, if coverage is on.
#[inline(always)]
pub fn cover(id: u32) {
    if COVERAGE_ON.load(Relaxed) {
        record(id);
    }
}

#[cold]
fn record(id: u32) {
    let mut hits = HITS.lock().unwrap_or_else(|e| e.into_inner());
    let i = id as usize;
    if hits.len() <= i {
        hits.resize(i + 1, 0);
    }
    hits[i] += 1;
}

/// Switches coverage counting on or off.
pub fn set_coverage(on: bool) {
    COVERAGE_ON.store(on, Relaxed);
}

/// Probe ids hit at least once since the last [`take_coverage`], and clears the counts.
pub fn take_coverage() -> Vec<u32> {
    let mut hits = HITS.lock().unwrap_or_else(|e| e.into_inner());
    let ids = hits
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(i, _)| i as u32)
        .collect();
    hits.clear();
    ids
}

/// The panic payload of a run that exceeded its tick budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded;

/// One unit of work of the mutated code (a loop iteration or a function entry).
#[inline(always)]
pub fn tick() {
    let t = TICKS.load(Relaxed) + 1;
    TICKS.store(t, Relaxed);
    if t > BUDGET.load(Relaxed) {
        exceeded();
    }
}

#[cold]
#[inline(never)]
fn exceeded() -> ! {
    // Disarm first, so code that runs while unwinding cannot trip the budget again.
    BUDGET.store(u64::MAX, Relaxed);
    std::panic::panic_any(BudgetExceeded)
}

/// Resets the tick count and sets the budget for the next run (`u64::MAX` for none).
pub fn start_run(budget: u64) {
    TICKS.store(0, Relaxed);
    BUDGET.store(budget, Relaxed);
}

/// Ticks counted since the last [`start_run`].
pub fn ticks() -> u64 {
    TICKS.load(Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test: the runtime's state is process-wide.
    #[test]
    fn switch_coverage_and_budget() {
        assert_eq!(active(), ORIGINAL);
        set_active(7);
        assert_eq!(active(), 7);
        set_active(ORIGINAL);

        cover(3);
        assert!(take_coverage().is_empty(), "coverage is off by default");
        set_coverage(true);
        cover(3);
        cover(5);
        cover(3);
        assert_eq!(take_coverage(), vec![3, 5]);
        set_coverage(false);

        start_run(10);
        for _ in 0..10 {
            tick();
        }
        assert_eq!(ticks(), 10);
        let over = std::panic::catch_unwind(tick).unwrap_err();
        assert!(over.downcast_ref::<BudgetExceeded>().is_some());
        start_run(u64::MAX);
    }
}
