//! Sequences of the heap's calls (`ferastrau sequences`) against Korat's heaps.

use ferastrau_sdk::call_sequences::reach;
use fibonacci_heap::FibonacciHeapBench;

/// Every node of Korat's heaps is marked (`space::MARK`), and three calls mark none: a node is
/// marked only when it loses a child while it is a child itself, which takes a tree of three
/// levels (a consolidation of four nodes, five calls or more) and a delete. So of Korat's 136
/// heaps at scope 3 only the empty one is reached.
#[test]
fn sequences_of_three_calls_reach_only_the_empty_heap_of_scope_3() {
    assert_eq!(reach(&FibonacciHeapBench, 3, 3), (1, 136));
}
