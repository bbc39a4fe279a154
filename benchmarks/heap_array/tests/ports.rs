//! Issue 17: HeapArray's outputs are compared as Java compares two heaps, by `size` and the
//! array (its length and every slot), not by the multiset of elements.
//!
//! Six mutants used to survive because they leave the right elements in a different array:
//! five grow a full array to another capacity (or grow one that is not full), one sifts down
//! into the right child when the left one is equal. Each is hand-written below from its change
//! and must now be killed by the inputs of a small scope, while the multiset of elements alone
//! still could not tell it from the original.

use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use heap_array::heap_array::empty_array;
use heap_array::{Call, HeapArray, HeapArrayBench};

const BENCH: HeapArrayBench = HeapArrayBench;
const INSERT: usize = 0;
const EXTRACT_MAX: usize = 1;

/// `insert` with its growth changed: the array is replaced when `grows(size, length)`, by one
/// of `capacity(length)` slots. The original is `size >= length` and `2 * length + 1`.
fn insert_growing(
    heap: &mut HeapArray,
    x: i64,
    grows: fn(i64, i64) -> bool,
    capacity: fn(i64) -> i64,
) {
    if x < 0 {
        return;
    }
    if grows(heap.size, heap.length()) {
        let mut grown = empty_array(capacity(heap.length()));
        grown[..heap.size as usize].copy_from_slice(&heap.array[..heap.size as usize]);
        heap.array = grown;
    }
    heap.set(heap.size, x);
    heap.heapify_up(heap.size);
    heap.size += 1;
}

/// `extract_max` whose sift-down takes the right child when it is `>=` the larger so far (the
/// mutant `self.at(right) >= self.at(largest)`): on a tie with the left child it goes right.
fn extract_max_right_on_ties(heap: &mut HeapArray) {
    if heap.size < 1 {
        return;
    }
    heap.size -= 1;
    heap.set(0, heap.at(heap.size));
    heap.set(heap.size, -1);
    let mut current = 0;
    loop {
        let (left, right) = (2 * current + 1, 2 * current + 2);
        let mut largest = current;
        if left < heap.size && heap.at(left) > heap.at(largest) {
            largest = left;
        }
        if right < heap.size && heap.at(right) >= heap.at(largest) {
            largest = right;
        }
        if largest == current {
            break;
        }
        let tmp = heap.at(current);
        heap.set(current, heap.at(largest));
        heap.set(largest, tmp);
        current = largest;
    }
}

/// Whether some input of `method` at `scope` kills `mutant` by the benchmark's comparison
/// (invariant, then the abstraction), while the elements alone agree on every input.
fn killed_only_by_the_array(
    method: usize,
    scope: u32,
    mutant: impl Fn(&mut HeapArray, i64),
) -> bool {
    let mut killed = false;
    for call in testing::method_inputs(&BENCH, method, scope) {
        let mut original: Call = call.clone();
        let _ = BENCH.run(method, &mut original);
        let mut mutated = call.clone();
        mutant(&mut mutated.heap, call.x);
        assert_eq!(
            HeapArrayBench::elements(&mutated.heap),
            HeapArrayBench::elements(&original.heap),
            "the elements already differ on {}",
            BENCH.render(method, &call)
        );
        killed |= !BENCH.invariant(&mutated)
            || BENCH.abstraction(&mutated) != BENCH.abstraction(&original);
    }
    killed
}

#[test]
fn growing_to_another_capacity_is_killed() {
    let full = |size, length| size >= length;
    // `2 * length + 1` → `3 * length + 1`, `1 * length + 1`, `2 * length + 2`, `(2 << length) + 1`.
    assert!(killed_only_by_the_array(INSERT, 2, |h, x| insert_growing(
        h,
        x,
        full,
        |l| 3 * l + 1
    )));
    assert!(killed_only_by_the_array(INSERT, 2, |h, x| insert_growing(
        h,
        x,
        full,
        |l| l + 1
    )));
    assert!(killed_only_by_the_array(INSERT, 2, |h, x| insert_growing(
        h,
        x,
        full,
        |l| 2 * l + 2
    )));
    assert!(killed_only_by_the_array(INSERT, 2, |h, x| insert_growing(
        h,
        x,
        full,
        |l| (2 << l) + 1
    )));
    // `size >= length` → `size <= length`: every insertion grows the array, full or not.
    assert!(killed_only_by_the_array(INSERT, 2, |h, x| {
        insert_growing(h, x, |s, l| s <= l, |l| 2 * l + 1)
    }));
}

#[test]
fn sifting_down_right_on_a_tie_is_killed() {
    // The first input that needs it: three elements whose two children are equal.
    assert!(!killed_only_by_the_array(EXTRACT_MAX, 3, |h, _| {
        extract_max_right_on_ties(h)
    }));
    assert!(killed_only_by_the_array(EXTRACT_MAX, 4, |h, _| {
        extract_max_right_on_ties(h)
    }));
}

/// The hand-written variants are faithful: with the original's choices they are not killed.
#[test]
fn the_original_choices_are_not_killed() {
    let full = |size, length| size >= length;
    assert!(!killed_only_by_the_array(INSERT, 4, |h, x| insert_growing(
        h,
        x,
        full,
        |l| 2 * l + 1
    )));
    assert!(!killed_only_by_the_array(EXTRACT_MAX, 4, |h, _| {
        let _ = h.extract_max();
    }));
}
