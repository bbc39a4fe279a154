//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (through `View`, whose reads are recorded) and the runner on
//! real post-states (through `Real`). Read order: the
//! `array` reference, `size` against the array's length, the slots below `size` (each against
//! its parent), then the slots from `size` on.

use crate::heap_array::{HeapArrayView, EMPTY};

/// A heap's reads as `repOk` makes them, through the derived view (`HeapArrayView`: a
/// candidate or a real heap): each read of the array goes through the `array` reference.
pub trait HeapView: HeapArrayView {
    /// `array.length`.
    #[inline(always)]
    fn length(&mut self) -> i64 {
        let a = self.array();
        i64::from(self.array_len(a))
    }
    /// `array[i]` (`i < length`).
    #[inline(always)]
    fn slot(&mut self, i: u32) -> i64 {
        let a = self.array();
        self.array_at(a, i)
    }
}

impl<V: HeapArrayView> HeapView for V {}

/// The class invariant.
pub fn rep_ok(v: &mut impl HeapView) -> bool {
    // Java's `if (array == null) return false`: a `Vec` is never null, so the derived view
    // reads the array as an object and only the read remains (Korat's search follows the
    // order of the reads, which this keeps). The check would be a branch no input takes.
    v.array();
    let size = v.size();
    if size < 0 || size > v.length() {
        return false;
    }
    // the elements: none empty, none larger than its parent (duplicates allowed)
    for i in 0..size {
        let element = v.slot(i as u32);
        if element == EMPTY {
            return false;
        }
        if i > 0 && element > v.slot(((i - 1) / 2) as u32) {
            return false;
        }
    }
    // the free slots are empty
    for i in size..v.length() {
        if v.slot(i as u32) != EMPTY {
            return false;
        }
    }
    true
}
