//! `generate`'s shared structure search and its parallel search give every benchmark's methods
//! exactly the inputs, the order and the counts of their own sequential searches.

use ferastrau_sdk::inputs::generate_scope;
use ferastrau_sdk::korat::SearchSwitches;
use ferastrau_sdk::testing::check_generation;
use ferastrau_sdk::Benchmark;

/// Checks `scopes`; `shared` lists the methods whose inputs must come from the shared
/// structure search (so that the check is about it, not about a fallback).
fn check<B: Benchmark>(bench: &B, scopes: std::ops::RangeInclusive<u32>, shared: &[usize]) {
    for scope in scopes {
        if let Err(e) = check_generation(bench, scope, 2) {
            panic!("{e}");
        }
        let runs = generate_scope(bench, scope, 0, SearchSwitches::default(), 1, false);
        let got: Vec<usize> = (0..runs.len()).filter(|&m| runs[m].shared).collect();
        assert_eq!(got, shared, "scope {scope}: methods of the shared search");
    }
}

#[test]
fn search_tree() {
    check(&search_tree::SearchTreeBench, 1..=5, &[0, 1]);
}

#[test]
fn heap_array() {
    check(&heap_array::HeapArrayBench, 1..=5, &[0, 1]);
}

#[test]
fn binomial_heap() {
    check(&binomial_heap::BinomialHeapBench, 1..=4, &[0, 1, 2, 3]);
}

#[test]
fn disj_set() {
    check(&disj_set::DisjSetBench, 1..=3, &[0, 1]);
}

#[test]
fn fibonacci_heap() {
    check(&fibonacci_heap::FibonacciHeapBench, 1..=3, &[0, 1, 2, 3]);
}

#[test]
fn linked_list() {
    // `reverse` takes no argument object, so its finitization has no pool of them: the
    // structure does not carry over and it is searched on its own.
    check(&linked_list::LinkedListBench, 1..=5, &[0, 1]);
}

#[test]
fn sorted_list() {
    check(&sorted_list::SortedListBench, 1..=4, &[0, 1]);
}

#[test]
fn tree_map() {
    check(&tree_map::TreeMapBench, 1..=5, &[0, 1]);
}

#[test]
fn hash_set() {
    check(&hash_set::HashSetBench, 1..=5, &[0, 1]);
}

#[test]
fn av_tree() {
    check(&av_tree::AvTreeBench, 1..=3, &[]);
}
