//! Sequences of the heap's calls (`ferastrau sequences`) against Korat's heaps.

use binomial_heap::BinomialHeapBench;
use ferastrau_sdk::call_sequences::reach;
use ferastrau_sdk::Benchmark;

/// Korat's 28 heaps at scope 3 (keys 0..2, at most three nodes) are all reached by three
/// calls: argument `a` stands for key `a − 1`, so inserts of the keys in any order give every
/// heap of up to three keys — the first two make the tree B_1 (the smaller on top), the third
/// the tree B_0 before it — and a binomial heap's shape depends on its size alone.
#[test]
fn sequences_of_three_calls_reach_every_heap_of_scope_3() {
    assert_eq!(reach(&BinomialHeapBench, 3, 3), (28, 28));
}

/// `with_argument`: argument `a` is key `a − 1`; `union`'s second heap is the one node
/// holding it; `extractMin` takes none.
#[test]
fn with_argument_calls_each_method_on_the_key_below_the_argument() {
    let bench = BinomialHeapBench;
    let start = bench.initial(3).unwrap();
    let shown: Vec<String> = (0..4)
        .map(|m| bench.render(m, &bench.with_argument(m, &start, 2)))
        .collect();
    assert_eq!(
        shown,
        [
            "insert(1) on []",
            "extractMin() on []",
            "union([1]) on []",
            "delete(1) on []"
        ]
    );
}
