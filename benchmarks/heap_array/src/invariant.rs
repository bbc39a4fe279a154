//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (through [`crate::space::CandidateHeap`], whose reads are
//! recorded) and the runner on real post-states (through [`RealHeap`]). Read order: the
//! `array` reference, `size` against the array's length, the slots below `size` (each against
//! its parent), then the slots from `size` on.

use crate::heap_array::{HeapArray, EMPTY};

/// Read access to a heap.
pub trait HeapView {
    /// Whether `array` is non-null.
    fn has_array(&mut self) -> bool;
    fn size(&mut self) -> i64;
    /// `array.length`.
    fn length(&mut self) -> i64;
    /// `array[i]` (`i < length`).
    fn slot(&mut self, i: u32) -> i64;
}

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

/// A real heap seen through [`HeapView`].
pub struct RealHeap<'a>(pub &'a HeapArray);

impl HeapView for RealHeap<'_> {
    fn has_array(&mut self) -> bool {
        true
    }
    fn size(&mut self) -> i64 {
        self.0.size
    }
    fn length(&mut self) -> i64 {
        self.0.array.len() as i64
    }
    fn slot(&mut self, i: u32) -> i64 {
        self.0.array[i as usize]
    }
}
