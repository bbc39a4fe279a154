//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (a `View`, whose reads are recorded) and the runner runs it on
//! real post-states (a `Real`), both `#[derive(Korat)]`'s (`crate::heap`). A Fibonacci
//! heap is empty (`nodes`, `min` null, `size` 0) or a circular, doubly-linked ring of roots
//! reached from `nodes`, each root without a parent; every node of degree d has a child ring of
//! exactly d nodes whose parent it is (a node of degree 0 has no child); no node is met twice;
//! `min` is a root and no key is smaller than its key; a child's key is at least its
//! parent's (duplicates allowed); `size` is the number of nodes. `mark` is unconstrained and
//! never read.
//!
//! Read order: `nodes`; the shape, in a depth-first walk of the rings from `nodes` in which
//! each node reads `parent`, `degree`, `child` (then its child ring, recursively), `right`,
//! and its right neighbour's `left`; then `size`; then `min` and its key; then every other
//! key, in the walk's order. Korat backtracks on the last field read first, so reading the
//! keys last enumerates key assignments only for complete, well-formed shapes, and reading
//! `min` and `size` after the walk varies them only on such shapes.

use ferastrau_sdk::korat::Visited;

pub use crate::heap::FibonacciHeapView as HeapView;

/// The class invariant.
pub fn rep_ok(v: &mut impl HeapView) -> bool {
    let first = match v.nodes() {
        None => return v.size() == 0 && v.min().is_none(),
        Some(first) => first,
    };
    // The shape: the root ring has no parent and any length.
    let mut visited = Visited::new();
    if !check_ring(v, &mut visited, first, None, -1) {
        return false;
    }
    // size counts every node.
    if v.size() != visited.len() as i64 {
        return false;
    }
    // min is a root (reached, and without a parent).
    let min = match v.min() {
        None => return false,
        Some(min) => min,
    };
    if !visited.contains(min) || v.parent(min).is_some() {
        return false;
    }
    // Heap order, in the walk's order (a parent before its children): no root below min,
    // no child below its parent.
    let min_key = v.key(min);
    for i in 0..visited.len() {
        let x = visited.get(i);
        let bound = match v.parent(x) {
            None => min_key,
            Some(p) => v.key(p),
        };
        if v.key(x) < bound {
            return false;
        }
    }
    true
}

/// Whether the ring through `first` is a circular doubly-linked list of nodes not met before,
/// of `len` nodes (any length if `len` is negative), each with parent `parent` and `degree`
/// children forming such a ring below it.
pub fn check_ring(
    v: &mut impl HeapView,
    visited: &mut Visited,
    first: u32,
    parent: Option<u32>,
    len: i64,
) -> bool {
    let mut x = first;
    let mut count = 0;
    loop {
        if !visited.insert(x) {
            return false;
        }
        count += 1;
        if len >= 0 && count > len {
            return false;
        }
        if v.parent(x) != parent {
            return false;
        }
        let degree = v.degree(x);
        match v.child(x) {
            None if degree == 0 => {}
            Some(c) if degree > 0 => {
                if !check_ring(v, visited, c, Some(x), degree) {
                    return false;
                }
            }
            _ => return false,
        }
        let right = match v.right(x) {
            None => return false,
            Some(r) => r,
        };
        if v.left(right) != Some(x) {
            return false;
        }
        if right == first {
            break;
        }
        x = right;
    }
    len < 0 || count == len
}
