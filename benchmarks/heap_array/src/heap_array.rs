//! The code under test: an array-based max-heap (priority queue) after Cormen–Leiserson–Rivest
//! (MAX-HEAP-INSERT with the sift-up of HEAP-INCREASE-KEY, HEAP-EXTRACT-MAX with MAX-HEAPIFY),
//! 0-based: the parent of slot `i` is `(i − 1) / 2`, its children `2i + 1` and `2i + 2`.
//!
//! The Java class holds `int size` and `int[] array`; the slots at or past `size` hold `-1`
//! ([`EMPTY`]). Java's `array[i]` is [`HeapArray::at`] / [`HeapArray::set`], which panic
//! outside the array exactly where Java throws an `ArrayIndexOutOfBoundsException`.
//! `insert` on a full array grows it to `2 · length + 1` slots (the new ones empty), so every
//! valid heap accepts an insertion; it rejects a negative element, which the heap could not
//! tell from an empty slot. `extract_max` on an empty heap signals underflow.

/// The marker of an empty slot.
pub const EMPTY: i64 = -1;

/// Largest array `insert` may allocate; beyond it the call fails like a JVM out of memory.
pub const MAX_ARRAY: i64 = 1 << 20;

/// The exception a call raises on a valid receiver (Java's exceptional output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exception {
    /// `insert` of a negative element (IllegalArgumentException).
    IllegalArgument,
    /// `extract_max` on an empty heap (CLR's "heap underflow").
    Underflow,
}

/// A max-heap of non-negative integers in `array[0..size]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct HeapArray {
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(ints(-1, n), array(0, n))]
    pub array: Vec<i64>,
}

/// Java's array indexing: a negative index is out of bounds.
fn index(i: i64) -> usize {
    usize::try_from(i).expect("array index out of bounds")
}

/// Java's `new int[len]` for this class: `len` empty slots (a negative length throws, a huge
/// one runs out of memory).
pub fn empty_array(len: i64) -> Vec<i64> {
    assert!(len <= MAX_ARRAY, "out of memory");
    vec![EMPTY; usize::try_from(len).expect("negative array size")]
}

impl HeapArray {
    /// `array.length`.
    pub fn length(&self) -> i64 {
        self.array.len() as i64
    }

    /// `array[i]`; panics outside the array.
    pub fn at(&self, i: i64) -> i64 {
        self.array[index(i)]
    }

    /// `array[i] = v`; panics outside the array.
    pub fn set(&mut self, i: i64, v: i64) {
        self.array[index(i)] = v;
    }

    /// Adds `x` (MAX-HEAP-INSERT): it goes into the first free slot, growing a full array,
    /// and is sifted up.
    pub fn insert(&mut self, x: i64) -> Result<(), Exception> {
        if x < 0 {
            return Err(Exception::IllegalArgument);
        }
        if self.size >= self.length() {
            let mut grown = empty_array(2 * self.length() + 1);
            let mut i = 0;
            while i < self.size {
                grown[index(i)] = self.at(i);
                i += 1;
            }
            self.array = grown;
        }
        self.set(self.size, x);
        self.heapify_up(self.size);
        self.size += 1;
        Ok(())
    }

    /// Removes and returns the largest element (HEAP-EXTRACT-MAX): the last element moves to
    /// the top, its old slot becomes empty, and it is sifted down.
    pub fn extract_max(&mut self) -> Result<i64, Exception> {
        if self.size < 1 {
            return Err(Exception::Underflow);
        }
        let max = self.at(0);
        self.size -= 1;
        self.set(0, self.at(self.size));
        self.set(self.size, EMPTY);
        self.heapify_down(0);
        Ok(max)
    }

    /// Moves the element at `index` up while it is larger than its parent.
    pub fn heapify_up(&mut self, index: i64) {
        let mut child = index;
        while child > 0 && self.at((child - 1) / 2) < self.at(child) {
            let parent = (child - 1) / 2;
            let tmp = self.at(child);
            self.set(child, self.at(parent));
            self.set(parent, tmp);
            child = parent;
        }
    }

    /// Moves the element at `index` down while a child is larger (MAX-HEAPIFY, iterative):
    /// it swaps with the larger child.
    pub fn heapify_down(&mut self, index: i64) {
        let mut current = index;
        loop {
            let left = 2 * current + 1;
            let right = 2 * current + 2;
            let mut largest = current;
            if left < self.size && self.at(left) > self.at(largest) {
                largest = left;
            }
            if right < self.size && self.at(right) > self.at(largest) {
                largest = right;
            }
            if largest == current {
                break;
            }
            let tmp = self.at(current);
            self.set(current, self.at(largest));
            self.set(largest, tmp);
            current = largest;
        }
    }
}
