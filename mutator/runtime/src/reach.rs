//! Reach markers: which mutation points one call of the original evaluated.
//!
//! The plain copy of a mutated function (the one that runs when none of its mutants is active)
//! carries, where the guarded copy has a mutation point's guard, a marker naming the point by
//! the range of its mutant ids. A mutant differs from the original only once its guard is
//! evaluated, and the code under test is deterministic: on an input whose original run never
//! evaluates the marker, the mutant behaves exactly as the original, so the runner can skip it.
//!
//! Markers count only while [`set_reaching`] is on: in the original's checking run, over the
//! whole judged call — the method, then the invariant and the abstraction on its post-state,
//! which run with the mutant still active in a mutant's run and may call mutated code. The
//! plain copy reads the switch once on entry, so the mutants' processes pay one test of a
//! register per marker. (Not the coverage switch: coverage is off while the post-state is
//! judged, which is specification.) The first time a point is marked in a call
//! it goes on a list ([`take_reached`] hands it over and clears the marks); later marks are a
//! load and a predictable branch, like the coverage probes.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Mutex;

/// Points whose first id is below this are marked in a static array; the rest (only for
/// unusually large catalogs) are looked up in the list.
const FAST_POINTS: usize = 1 << 14;

static REACHING: AtomicBool = AtomicBool::new(false);
static MARKED: [AtomicBool; FAST_POINTS] = [const { AtomicBool::new(false) }; FAST_POINTS];

/// The points marked since the last [`take_reached`], as `(first, last)` mutant ids. Process-
/// wide like the other switches (the worker runs the code under test on one thread); locked
/// only on a point's first mark in a call.
static REACHED: Mutex<Vec<(u32, u32)>> = Mutex::new(Vec::new());

/// Whether reach markers count. Plain copies read it once on entry into a local.
#[inline(always)]
pub fn reaching() -> bool {
    REACHING.load(Relaxed)
}

/// Switches the reach markers on or off.
pub fn set_reaching(on: bool) {
    REACHING.store(on, Relaxed);
}

/// Marks the mutation point whose mutants are `first..=last` as evaluated, if `on` (the
/// caller's copy of [`reaching`]).
#[inline(always)]
pub fn reach_if(on: bool, first: u32, last: u32) {
    if on {
        mark(first, last);
    }
}

/// [`reach_if`] for code inside closures, which reads the switch itself.
#[inline(always)]
pub fn reach(first: u32, last: u32) {
    if reaching() {
        mark(first, last);
    }
}

#[inline(always)]
fn mark(first: u32, last: u32) {
    let i = first as usize;
    if i >= FAST_POINTS || !MARKED[i].load(Relaxed) {
        first_mark(first, last);
    }
}

#[cold]
#[inline(never)]
fn first_mark(first: u32, last: u32) {
    let i = first as usize;
    if i < FAST_POINTS {
        MARKED[i].store(true, Relaxed);
    }
    let mut r = REACHED.lock().unwrap_or_else(|e| e.into_inner());
    if i < FAST_POINTS || !r.iter().any(|&(f, _)| f == first) {
        r.push((first, last));
    }
}

/// Moves the points marked since the last call into `into` (cleared first; in the order they
/// were first marked) and clears the marks.
pub fn take_reached(into: &mut Vec<(u32, u32)>) {
    into.clear();
    std::mem::swap(
        &mut *REACHED.lock().unwrap_or_else(|e| e.into_inner()),
        into,
    );
    for &(first, _) in into.iter() {
        if let Some(m) = MARKED.get(first as usize) {
            m.store(false, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_each_point_once_until_taken() {
        let mut got = Vec::new();
        take_reached(&mut got);
        reach_if(false, 3, 5);
        take_reached(&mut got);
        assert!(got.is_empty(), "off: nothing is marked");
        reach_if(true, 3, 5);
        reach_if(true, 9, 9);
        reach_if(true, 3, 5);
        let big = FAST_POINTS as u32 + 7;
        reach_if(true, big, big + 2);
        reach_if(true, big, big + 2);
        take_reached(&mut got);
        assert_eq!(got, vec![(3, 5), (9, 9), (big, big + 2)]);
        take_reached(&mut got);
        assert!(got.is_empty(), "taking clears the marks");
        reach_if(true, 9, 9);
        take_reached(&mut got);
        assert_eq!(got, vec![(9, 9)], "a cleared point is marked again");
        reach(4, 4);
        set_reaching(true);
        reach(5, 6);
        set_reaching(false);
        take_reached(&mut got);
        assert_eq!(got, vec![(5, 6)], "closures' markers follow the switch");
    }
}
