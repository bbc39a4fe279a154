//! Reach markers: which mutation points one call of the original evaluated.
//!
//! A mutated function has, besides its guarded copy and its plain copy (the one that runs when
//! none of its mutants is active), a marked copy: the plain one with, where the guarded copy
//! has a mutation point's guard, a marker naming the point by the range of its mutant ids. A mutant differs from the original only once its guard is
//! evaluated, and the code under test is deterministic: on an input whose original run never
//! evaluates the marker, the mutant behaves exactly as the original, so the runner can skip it.
//!
//! The marked copy runs instead of the plain one while [`set_reaching`] is on: in the
//! original's checking run, over the whole judged call — the method, then the invariant and the
//! abstraction on its post-state, which run with the mutant still active in a mutant's run and
//! may call mutated code. Every other run pays one test of the switch per call of a mutated
//! function, and nothing per marker. (Not the coverage switch: coverage is off while the
//! post-state is judged, which is specification.)
//!
//! A marker is a load of the point's mark and of the current call's number, and a
//! compare: a point is marked with the number of the call that marked it last, so starting a
//! new call ([`take_reached`]) clears every mark at once by counting up. The first mark of a
//! point in a call appends it to a fixed list (no lock, no allocation: the worker runs the code
//! under test on one thread, and these are process-wide like the other switches).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Points whose first id is below this are marked in static arrays; the rest (only for
/// unusually large catalogs) in a list behind a mutex.
const FAST_POINTS: usize = 1 << 14;

static REACHING: AtomicBool = AtomicBool::new(false);
/// The current call's number (starts at 1: a mark of 0 is "never").
static CALL: AtomicU32 = AtomicU32::new(1);
/// Per point (by first id): the number of the call that marked it last.
static MARKED: [AtomicU32; FAST_POINTS] = [const { AtomicU32::new(0) }; FAST_POINTS];
/// The points marked in the current call, in the order of their first marks: first ids in
/// `FIRSTS[..LEN]`, last ids in `LASTS`.
static FIRSTS: [AtomicU32; FAST_POINTS] = [const { AtomicU32::new(0) }; FAST_POINTS];
static LASTS: [AtomicU32; FAST_POINTS] = [const { AtomicU32::new(0) }; FAST_POINTS];
static LEN: AtomicUsize = AtomicUsize::new(0);
static SLOW: Mutex<Vec<(u32, u32)>> = Mutex::new(Vec::new());

/// Whether the marked copies run (a mutated function asks on entry).
#[inline(always)]
pub fn reaching() -> bool {
    REACHING.load(Relaxed)
}

/// Switches the marked copies on or off.
pub fn set_reaching(on: bool) {
    REACHING.store(on, Relaxed);
}

/// Marks the mutation point whose mutants are `first..=last` as evaluated (the marked copies
/// call it; they run only while [`reaching`] is on).
#[inline(always)]
pub fn reach(first: u32, last: u32) {
    let i = first as usize;
    if i >= FAST_POINTS || MARKED[i].load(Relaxed) != CALL.load(Relaxed) {
        first_mark(first, last);
    }
}

#[cold]
#[inline(never)]
fn first_mark(first: u32, last: u32) {
    let i = first as usize;
    if i < FAST_POINTS {
        MARKED[i].store(CALL.load(Relaxed), Relaxed);
        // At most one entry per fast point per call, so the list cannot overflow.
        let n = LEN.load(Relaxed);
        FIRSTS[n].store(first, Relaxed);
        LASTS[n].store(last, Relaxed);
        LEN.store(n + 1, Relaxed);
    } else {
        let mut slow = SLOW.lock().unwrap_or_else(|e| e.into_inner());
        if !slow.iter().any(|&(f, _)| f == first) {
            slow.push((first, last));
        }
    }
}

/// Moves the points marked since the last call into `into` (cleared first; in the order they
/// were first marked, those with ids past the static arrays last) and clears the marks.
pub fn take_reached(into: &mut Vec<(u32, u32)>) {
    into.clear();
    let n = LEN.swap(0, Relaxed);
    into.extend((0..n).map(|k| (FIRSTS[k].load(Relaxed), LASTS[k].load(Relaxed))));
    into.append(&mut SLOW.lock().unwrap_or_else(|e| e.into_inner()));
    let next = CALL.load(Relaxed).wrapping_add(1);
    if next == 0 {
        // After 2³² − 1 calls: a mark of 0 must stay "never", so wipe the marks instead.
        MARKED.iter().for_each(|m| m.store(0, Relaxed));
        CALL.store(1, Relaxed);
    } else {
        CALL.store(next, Relaxed);
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_each_point_once_per_call_until_taken() {
        let mut got = Vec::new();
        take_reached(&mut got);
        assert!(got.is_empty(), "nothing marked yet");
        reach(3, 5);
        reach(9, 9);
        reach(3, 5);
        let big = FAST_POINTS as u32 + 7;
        reach(big, big + 2);
        reach(big, big + 2);
        take_reached(&mut got);
        assert_eq!(got, vec![(3, 5), (9, 9), (big, big + 2)]);
        take_reached(&mut got);
        assert!(got.is_empty(), "taking clears the marks");
        reach(9, 9);
        take_reached(&mut got);
        assert_eq!(got, vec![(9, 9)], "a cleared point is marked again");
        assert!(!reaching());
        set_reaching(true);
        assert!(reaching());
        set_reaching(false);
    }
}
