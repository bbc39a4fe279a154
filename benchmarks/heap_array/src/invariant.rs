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
    /// Whether `array` is non-null.
    #[inline(always)]
    fn has_array(&mut self) -> bool {
        self.array().is_some()
    }
    /// `array.length`.
    #[inline(always)]
    fn length(&mut self) -> i64 {
        let a = self.array().expect("array is never null");
        self.array_len(a)
    }
    /// `array[i]` (`i < length`).
    #[inline(always)]
    fn slot(&mut self, i: u32) -> i64 {
        let a = self.array().expect("array is never null");
        self.array_at(a, i)
    }
}

impl<V: HeapArrayView> HeapView for V {}

/// The class invariant.
pub fn rep_ok(v: &mut impl HeapView) -> bool {
    if !v.has_array() {
        return false;
    }
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
