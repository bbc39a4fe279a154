//! Issue 17: `union`'s two heaps have distinct identities, as two Java objects do.
//!
//! SortedList's `merge` used to decode its two lists into arenas that both started at id 0, so
//! `this.header == other.header` held where Java's never does. `union` here moves the second
//! heap's nodes into the receiver's arena after its own (`adopt`) before the mutated code runs:
//! no node of one heap can pass for a node of the other. This checks that on every input.

use std::collections::HashSet;

use binomial_heap::heap::{BinomialHeap, NodeId};
use binomial_heap::{BinomialHeapBench, UNION};
use ferastrau_sdk::testing;

/// The nodes reachable from `head` along `child` and `sibling`.
fn reachable(heap: &BinomialHeap, head: Option<NodeId>) -> HashSet<NodeId> {
    let mut seen = HashSet::new();
    let mut work: Vec<NodeId> = head.into_iter().collect();
    while let Some(n) = work.pop() {
        if seen.insert(n) {
            let node = &heap.nodes[n];
            work.extend(node.child);
            work.extend(node.sibling);
        }
    }
    seen
}

#[test]
fn union_sees_the_two_heaps_under_distinct_identities() {
    let mut both = 0;
    for n in 1..=4 {
        for call in testing::method_inputs(&BinomialHeapBench, UNION, n) {
            let mut heap = call.heap.clone();
            let other = call.other.clone().expect("union has a second heap");
            let h2 = heap.adopt(other.clone());
            let mine = reachable(&heap, heap.head);
            let theirs = reachable(&heap, h2.head);
            assert!(mine.is_disjoint(&theirs));
            assert_eq!(mine.len(), reachable(&call.heap, call.heap.head).len());
            assert_eq!(theirs.len(), reachable(&other, other.head).len());
            if heap.head.is_some() && h2.head.is_some() {
                assert_ne!(heap.head, h2.head);
                both += 1;
            }
        }
    }
    assert!(both > 0);
}
