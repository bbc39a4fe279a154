//! The counts that prove the search (the paper's structure and input counts), a brute-force
//! check of soundness, completeness and optimality on small scopes, and the postconditions of
//! the original code on every input of small scopes.

use ferastrau_sdk::korat::view::{Real, View};
use std::ops::ControlFlow;

use binomial_heap::invariant::rep_ok;
use binomial_heap::space::Fields;
use binomial_heap::{BinomialHeap, BinomialHeapBench};
use ferastrau_sdk::korat::{self, Candidate};
use ferastrau_sdk::priority_queue::checks;
use ferastrau_sdk::testing;

/// Non-isomorphic binomial heaps at scopes 1..7 (the paper's structure counts).
const STRUCTURES: [u64; 7] = [2, 6, 28, 120, 936, 7602, 107416];
/// The paper's `# inputs` at scopes 1..7.
const PAPER_INPUTS: [u64; 7] = [12, 54, 336, 1800, 16848, 159642, 2577984];

fn heap_search(n: u32) -> korat::Stats {
    let (fin, f) = BinomialHeap::finitization("BinomialHeap", n, &[]);
    korat::search(
        &fin,
        |c| rep_ok(&mut View::new(c, &f)),
        |_| ControlFlow::Continue(()),
    )
}

/// Up to the paper's largest scope, 7.
#[test]
fn structures_and_inputs_match_the_paper_up_to_scope_7() {
    checks::assert_inputs(&BinomialHeapBench, &STRUCTURES, &PAPER_INPUTS, heap_search);
}

fn pred_for(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    testing::assert_exact_against_brute_force(&BinomialHeapBench, 2, |n| {
        let (fin, f) = BinomialHeap::finitization("BinomialHeap", n, &[]);
        testing::check_search_against_brute_force(&fin, pred_for(&f))
    });
}

#[test]
fn the_original_meets_every_postcondition_on_every_input_up_to_scope_6() {
    testing::assert_postconditions(&BinomialHeapBench, &PAPER_INPUTS[..6]);
}

#[test]
fn inputs_render_and_decode_as_expected() {
    checks::assert_extract_min_inputs(&BinomialHeapBench, 3, 28, "extractMin() on [2 0(1)]");
}

#[test]
fn the_second_heap_of_union_is_a_valid_heap_of_k_large_keys() {
    checks::assert_second_heaps(&BinomialHeapBench, 7);
}

#[test]
fn the_invariant_rejects_broken_heaps() {
    // 0(1) with size 2 is valid; break it field by field.
    let mut h = BinomialHeap::default();
    h.insert(1);
    h.insert(0);
    let ok = |h: &BinomialHeap| rep_ok(&mut Real(h));
    assert!(ok(&h));
    let root = h.head.unwrap();
    let child = h.nodes[root].child.unwrap();
    let mut bad = h.clone();
    bad.size = 3;
    assert!(!ok(&bad), "size");
    let mut bad = h.clone();
    bad.nodes[child].key = -1;
    assert!(!ok(&bad), "heap order");
    let mut bad = h.clone();
    bad.nodes[child].parent = None;
    assert!(!ok(&bad), "parent");
    let mut bad = h.clone();
    bad.nodes[root].sibling = Some(root);
    bad.size = 3;
    assert!(!ok(&bad), "cycle");
    let mut bad = h.clone();
    bad.nodes[child].sibling = Some(child);
    assert!(!ok(&bad), "child list");
    let mut bad = h;
    bad.nodes[root].degree = 0;
    bad.size = 1;
    assert!(!ok(&bad), "degree");
}

#[test]
fn the_postconditions_catch_wrong_outputs() {
    checks::assert_postconditions_reject_wrong_outputs(&BinomialHeapBench);
}

#[test]
fn long_operation_sequences_keep_the_invariant_and_the_multiset() {
    checks::assert_long_sequences(&BinomialHeapBench, BinomialHeap::default());
}
