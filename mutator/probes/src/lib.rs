//! What the mutated code calls at run time.
//!
//! A metamutant holds every mutant at once; each mutation point asks [`active`] which mutant
//! (if any) is switched on. The worker process runs one mutant at a time, single-threaded, so
//! process-wide relaxed atomics are enough: a relaxed load compiles to a plain load.
//!
//! The same rewrite inserts coverage probes ([`cover`], and for branches [`branch`],
//! [`probe_iter`] and [`probe_try`]), counted only while coverage is switched on, and budget
//! ticks ([`tick`]) at every loop iteration and function entry of the mutated code: a mutant
//! that runs more than its budget of ticks panics with [`BudgetExceeded`], a deterministic
//! stand-in for a wall-clock timeout.
//!
//! With coverage off, a probe is one relaxed load and a predictable branch; the counting
//! itself is out of line ([`record`] is `#[cold]`). Reach markers ([`reach`]) tell which mutation
//! points a call of the original evaluated (see the `reach` module).

use std::sync::atomic::{
    AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed,
};
use std::sync::Mutex;

mod reach;

pub use reach::{reach, reaching, set_reaching, take_reached};

/// Mutant ids start at 1; 0 means "the original program".
pub const ORIGINAL: u32 = 0;

/// Probes with ids below this are counted in a static array, without locks; the rest (only
/// for unusually large programs) in a vector behind a mutex.
const FAST_PROBES: usize = 1 << 14;

static ACTIVE: AtomicU32 = AtomicU32::new(ORIGINAL);
static COVERAGE_ON: AtomicBool = AtomicBool::new(false);
/// Ticks left before the budget is exceeded (counting down keeps [`tick`] to one load, one
/// store and one compare).
static LEFT: AtomicU64 = AtomicU64::new(u64::MAX);
/// The budget of the current run, to report [`ticks`].
static BUDGET: AtomicU64 = AtomicU64::new(u64::MAX);
static HITS: [AtomicU64; FAST_PROBES] = [const { AtomicU64::new(0) }; FAST_PROBES];
/// One more than the largest fast probe id hit since the last [`take_coverage`]: bounds its scan.
static HIT_END: AtomicUsize = AtomicUsize::new(0);
static OVERFLOW: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// The active mutant (0 for none).
#[inline(always)]
pub fn active() -> u32 {
    ACTIVE.load(Relaxed)
}

/// Switches mutant `id` on (0 switches every mutant off).
pub fn set_active(id: u32) {
    ACTIVE.store(id, Relaxed);
}

/// Whether coverage is being counted. Generated functions read it once on entry into a local
/// and test that local at each probe ([`cover_if`], [`branch_if`]): a register test instead
/// of a load per statement.
#[inline(always)]
pub fn coverage() -> bool {
    COVERAGE_ON.load(Relaxed)
}

/// Counts a hit of probe `id` if `on` (the caller's copy of [`coverage`]).
#[inline(always)]
pub fn cover_if(on: bool, id: u32) {
    if on {
        record(id);
    }
}

/// [`branch`] with the caller's copy of [`coverage`].
#[inline(always)]
pub fn branch_if(on: bool, cond: bool, if_true: u32, if_false: u32) -> bool {
    if on {
        record(if cond { if_true } else { if_false });
    }
    cond
}

/// Counts a hit of coverage probe `id`, if coverage is on.
#[inline(always)]
pub fn cover(id: u32) {
    if COVERAGE_ON.load(Relaxed) {
        record(id);
    }
}

/// A two-way branch on `cond`: counts probe `if_true` or `if_false` (if coverage is on) and
/// returns `cond` unchanged. Wraps `if` and `while` conditions and the left operand of
/// `&&`/`||`.
#[inline(always)]
pub fn branch(cond: bool, if_true: u32, if_false: u32) -> bool {
    if COVERAGE_ON.load(Relaxed) {
        record(if cond { if_true } else { if_false });
    }
    cond
}

/// Marks probe `id` as hit. Coverage only asks whether a probe was hit, so the fast path is a
/// load and, the first time, a store — no read-modify-write per probe (Korat runs the
/// specification's probes millions of times while generating).
#[inline(always)]
fn record(id: u32) {
    let i = id as usize;
    if i < FAST_PROBES {
        if HITS[i].load(Relaxed) == 0 {
            first_hit(i);
        }
    } else {
        record_overflow(i - FAST_PROBES);
    }
}

#[cold]
#[inline(never)]
fn first_hit(i: usize) {
    HITS[i].store(1, Relaxed);
    // A maximum, not a load and a store: the worker's input search runs preconditions on
    // several threads, and two first hits at once must not leave the smaller end.
    HIT_END.fetch_max(i + 1, Relaxed);
}

#[cold]
#[inline(never)]
fn record_overflow(j: usize) {
    let mut hits = OVERFLOW.lock().unwrap_or_else(|e| e.into_inner());
    if hits.len() <= j {
        hits.resize(j + 1, 0);
    }
    hits[j] += 1;
}

/// Switches coverage counting on or off.
pub fn set_coverage(on: bool) {
    COVERAGE_ON.store(on, Relaxed);
}

/// Probe ids hit at least once since the last [`take_coverage`], in increasing order, and
/// clears the counts.
pub fn take_coverage() -> Vec<u32> {
    let end = HIT_END.swap(0, Relaxed);
    let mut ids: Vec<u32> = HITS[..end]
        .iter()
        .enumerate()
        .filter(|(_, n)| n.swap(0, Relaxed) > 0)
        .map(|(i, _)| i as u32)
        .collect();
    let mut overflow = OVERFLOW.lock().unwrap_or_else(|e| e.into_inner());
    ids.extend(
        overflow
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(j, _)| (j + FAST_PROBES) as u32),
    );
    overflow.clear();
    ids
}

/// An iterator that counts probe `exhausted` when its inner iterator runs out: the exit
/// outcome of a `for` loop (the loop-again outcome is a [`cover`] at the top of its body).
pub struct Probed<I> {
    inner: I,
    exhausted: u32,
}

impl<I: Iterator> Iterator for Probed<I> {
    type Item = I::Item;

    #[inline(always)]
    fn next(&mut self) -> Option<I::Item> {
        let next = self.inner.next();
        if next.is_none() {
            cover(self.exhausted);
        }
        next
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// Wraps the iterable of a `for` loop, see [`Probed`].
#[inline(always)]
pub fn probe_iter<I: IntoIterator>(iterable: I, exhausted: u32) -> Probed<I::IntoIter> {
    Probed {
        inner: iterable.into_iter(),
        exhausted,
    }
}

/// Values that the `?` operator either unwraps (continue) or returns early with.
pub trait TryOutcome {
    /// Whether `?` continues with the unwrapped value.
    fn continues(&self) -> bool;
}

impl<T> TryOutcome for Option<T> {
    fn continues(&self) -> bool {
        self.is_some()
    }
}

impl<T, E> TryOutcome for Result<T, E> {
    fn continues(&self) -> bool {
        self.is_ok()
    }
}

impl<B, C> TryOutcome for std::ops::ControlFlow<B, C> {
    fn continues(&self) -> bool {
        self.is_continue()
    }
}

/// The two outcomes of `value?`: counts `continues` or `returns`, then hands the value on.
#[inline(always)]
pub fn probe_try<T: TryOutcome>(value: T, continues: u32, returns: u32) -> T {
    if COVERAGE_ON.load(Relaxed) {
        record(if value.continues() {
            continues
        } else {
            returns
        });
    }
    value
}

/// The panic payload of a run that exceeded its tick budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetExceeded;

/// One unit of work of the mutated code (a loop iteration or a function entry).
#[inline(always)]
pub fn tick() {
    let left = LEFT.load(Relaxed);
    LEFT.store(left.wrapping_sub(1), Relaxed);
    if left == 0 {
        exceeded();
    }
}

#[cold]
#[inline(never)]
fn exceeded() -> ! {
    // Disarm first, so code that runs while unwinding cannot trip the budget again; the
    // count stays at budget + 1.
    let budget = BUDGET.load(Relaxed);
    BUDGET.store(u64::MAX, Relaxed);
    LEFT.store(u64::MAX - budget.saturating_add(1), Relaxed);
    let hook = ON_EXCEEDED.load(Relaxed);
    if !hook.is_null() {
        // SAFETY: only `on_exceeded` stores here, and only a `fn()` cast to a pointer.
        let hook: fn() = unsafe { std::mem::transmute::<*mut (), fn()>(hook) };
        hook();
    }
    std::panic::panic_any(BudgetExceeded)
}

/// The hook [`on_exceeded`] set (a `fn()` as a pointer; null for none).
static ON_EXCEEDED: AtomicPtr<()> = AtomicPtr::new(std::ptr::null_mut());

/// Sets what runs when a run exceeds its budget, before the [`BudgetExceeded`] panic: the
/// worker process's hook never returns when the call is deep in a recursion, so that the
/// thousands of frames it would unwind are abandoned instead (unwinding a recursion that
/// never ends cost ~90% of such a mutant's time); when it returns, the panic follows as
/// before. The budget is already disarmed when the hook runs. `None` removes the hook.
pub fn on_exceeded(hook: Option<fn()>) {
    let ptr = hook.map_or(std::ptr::null_mut(), |h| h as *mut ());
    ON_EXCEEDED.store(ptr, Relaxed);
}

/// Resets the tick count and sets the budget for the next run (`u64::MAX` for none).
pub fn start_run(budget: u64) {
    BUDGET.store(budget, Relaxed);
    LEFT.store(budget, Relaxed);
}

/// Ticks counted since the last [`start_run`].
pub fn ticks() -> u64 {
    BUDGET.load(Relaxed).wrapping_sub(LEFT.load(Relaxed))
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
        cover(FAST_PROBES as u32 + 2);
        assert_eq!(take_coverage(), vec![3, 5, FAST_PROBES as u32 + 2]);
        assert!(take_coverage().is_empty(), "taking clears the counts");

        assert!(branch(true, 10, 11));
        assert!(!branch(false, 12, 13));
        let sum: u32 = probe_iter(1..3, 14).sum();
        assert_eq!(sum, 3);
        assert_eq!(probe_try(Some(1), 15, 16), Some(1));
        assert_eq!(probe_try(Err::<(), _>(2), 17, 18), Err(2));
        assert_eq!(take_coverage(), vec![10, 13, 14, 15, 18]);
        set_coverage(false);
        assert!(branch(true, 19, 20));
        assert!(take_coverage().is_empty());

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
