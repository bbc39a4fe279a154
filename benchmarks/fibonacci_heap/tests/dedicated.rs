//! The invariant with dedicated generators finds exactly the inputs of the plain invariant, in
//! the same order, from fewer candidates (the paper's Sec. 5, Table 2's `ded.` column).

use ferastrau_sdk::testing;
use fibonacci_heap::FibonacciHeapBench as Bench;

#[test]
fn dedicated_generators_give_the_same_heaps_in_the_same_order_from_fewer_candidates() {
    // Every method shares the one invariant: method 0's finitization stands for them all.
    let runs = testing::check_dedicated(&Bench, 0, 1..=5, 2).unwrap();
    for (n, (plain, ded)) in (1..).zip(runs) {
        println!("scope {n}: {} -> {} candidates", plain.judged, ded.judged);
        assert!(ded.explored < plain.explored, "scope {n}");
    }
}
