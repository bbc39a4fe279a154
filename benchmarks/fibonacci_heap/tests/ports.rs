//! Issue 17: `union`'s two heaps have distinct identities, as two Java objects do.
//!
//! SortedList's `merge` used to decode its two lists into arenas that both started at id 0, so
//! `this.header == other.header` held where Java's never does. `union` here moves the second
//! heap's nodes into the receiver's arena after its own (`adopt`) before the mutated code runs:
//! no node of one heap can pass for a node of the other. This checks that on every input.

use std::collections::HashSet;

use ferastrau_sdk::testing;
use fibonacci_heap::heap::{FibonacciHeap, NodeId};
use fibonacci_heap::{FibonacciHeapBench, UNION};

/// The nodes reachable from `head` along `child`, `left` and `right`.
fn reachable(heap: &FibonacciHeap, head: Option<NodeId>) -> HashSet<NodeId> {
    let mut seen = HashSet::new();
    let mut work: Vec<NodeId> = head.into_iter().collect();
    while let Some(n) = work.pop() {
        if seen.insert(n) {
            let node = &heap.pool[n];
            work.extend(node.child);
            work.extend(node.left);
            work.extend(node.right);
        }
    }
    seen
}

#[test]
fn union_sees_the_two_heaps_under_distinct_identities() {
    let mut both = 0;
    for n in 1..=4 {
        for call in testing::method_inputs(&FibonacciHeapBench, UNION, n) {
            let mut heap = call.heap.clone();
            let other = call.other.clone().expect("union has a second heap");
            let h2 = heap.adopt(other.clone());
            let mine = reachable(&heap, heap.nodes);
            let theirs = reachable(&heap, h2.nodes);
            assert!(mine.is_disjoint(&theirs));
            assert_eq!(mine.len(), reachable(&call.heap, call.heap.nodes).len());
            assert_eq!(theirs.len(), reachable(&other, other.nodes).len());
            if heap.nodes.is_some() && h2.nodes.is_some() {
                assert_ne!(heap.nodes, h2.nodes);
                assert_ne!(heap.min, h2.min);
                both += 1;
            }
        }
    }
    assert!(both > 0);
}
