//! The counts that prove the search (the paper's structure and input counts), a brute-force
//! check of soundness, completeness and optimality on small scopes, and the postconditions of
//! the original code on every input of small scopes.

use ferastrau_sdk::korat::view::{Real, View};
use std::ops::ControlFlow;

use ferastrau_sdk::korat::{self, Candidate};
use ferastrau_sdk::priority_queue::checks;
use ferastrau_sdk::testing;
use fibonacci_heap::heap::Node;
use fibonacci_heap::invariant::rep_ok;
use fibonacci_heap::space::{render_heap, Fields};
use fibonacci_heap::{FibonacciHeap, FibonacciHeapBench};

/// Non-isomorphic Fibonacci heaps at scopes 1..5 (the paper's structure counts).
const STRUCTURES: [u64; 5] = [2, 12, 136, 2310, 52281];
/// The paper's `# inputs` at scopes 1..5.
const PAPER_INPUTS: [u64; 5] = [12, 108, 1632, 34650, 941058];

fn heap_search(n: u32) -> korat::Stats {
    let (fin, f) = FibonacciHeap::finitization("FibonacciHeap", n, &[]);
    korat::search(
        &fin,
        |c| rep_ok(&mut View::new(c, &f)),
        |_| ControlFlow::Continue(()),
    )
}

/// Up to the paper's largest scope, 5.
#[test]
fn structures_and_inputs_match_the_paper_up_to_scope_5() {
    checks::assert_inputs(&FibonacciHeapBench, &STRUCTURES, &PAPER_INPUTS, heap_search);
}

fn pred_for(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    testing::assert_exact_against_brute_force(&FibonacciHeapBench, 2, |n| {
        let (fin, f) = FibonacciHeap::finitization("FibonacciHeap", n, &[]);
        testing::check_search_against_brute_force(&fin, pred_for(&f))
    });
}

#[test]
fn the_original_meets_every_postcondition_on_every_input_up_to_scope_5() {
    testing::assert_postconditions(&FibonacciHeapBench, &PAPER_INPUTS[..5]);
}

#[test]
fn inputs_render_and_decode_as_expected() {
    checks::assert_extract_min_inputs(&FibonacciHeapBench, 3, 136, "extractMin() on [*0 2 1]");
}

#[test]
fn the_second_heap_of_union_is_a_valid_heap_of_k_large_keys() {
    checks::assert_second_heaps(&FibonacciHeapBench, 5);
}

fn ok(h: &FibonacciHeap) -> bool {
    rep_ok(&mut Real(h))
}

#[test]
fn the_invariant_rejects_broken_heaps() {
    // Three inserts and an extraction leave one tree 1(2).
    let mut h = FibonacciHeap::default();
    for k in [0, 1, 2] {
        h.insert(k);
    }
    assert_eq!(h.extract_min(), Some(0));
    assert!(ok(&h));
    let root = h.nodes.unwrap();
    let child = h.pool[root].child.unwrap();
    assert_eq!((h.pool[root].key, h.pool[child].key), (1, 2));
    let mut bad = h.clone();
    bad.size = 3;
    assert!(!ok(&bad), "size");
    let mut bad = h.clone();
    bad.pool[child].key = 0;
    assert!(!ok(&bad), "heap order");
    let mut bad = h.clone();
    bad.pool[child].parent = None;
    assert!(!ok(&bad), "parent");
    let mut bad = h.clone();
    bad.pool[root].degree = 2;
    assert!(!ok(&bad), "degree");
    let mut bad = h.clone();
    bad.min = Some(child);
    assert!(!ok(&bad), "min is not a root");
    let mut bad = h.clone();
    bad.nodes = Some(child);
    assert!(!ok(&bad), "nodes is not a root");
    let mut bad = h.clone();
    bad.pool[child].right = Some(root);
    assert!(!ok(&bad), "ring");
    // Two roots 1 and 0: min must be the 0.
    let mut h = FibonacciHeap::default();
    h.insert(1);
    h.insert(0);
    assert!(ok(&h));
    let mut bad = h.clone();
    bad.min = bad.nodes;
    assert!(!ok(&bad), "min does not hold the smallest key");
    let mut bad = h;
    let other = bad.pool[0].right;
    bad.pool[0].left = Some(0);
    assert!(!ok(&bad), "left link, right is {other:?}");
}

#[test]
fn a_decrease_below_marked_ancestors_cuts_the_whole_chain() {
    // The chain 0(1(2(3))), every node marked as in the generated inputs.
    let mut h = FibonacciHeap::default();
    for k in 0..4 {
        h.pool.push(Node {
            key: k,
            degree: if k < 3 { 1 } else { 0 },
            parent: if k > 0 { Some(k as usize - 1) } else { None },
            child: if k < 3 { Some(k as usize + 1) } else { None },
            left: Some(k as usize),
            right: Some(k as usize),
            mark: true,
        });
    }
    h.nodes = Some(0);
    h.min = Some(0);
    h.size = 4;
    assert!(ok(&h));
    assert!(h.decrease(Some(3), -1));
    assert!(ok(&h));
    // 3 is cut, and CASCADING-CUT cuts its marked ancestors 2 and 1: four one-node roots.
    assert_eq!(h.min, Some(3));
    assert!(h.pool.iter().all(|n| n.degree == 0 && n.parent.is_none()));
    // Cut nodes are unmarked; the root, where the cascade stops, keeps its mark.
    assert!(h.pool[1..].iter().all(|n| !n.mark));
    assert!(h.pool[0].mark);
    assert_eq!(render_heap(&h), "[0 1 2 *-1]");
    assert!(h.delete(-1));
    assert_eq!(FibonacciHeapBench::keys(&h), vec![0, 1, 2]);
    assert!(ok(&h));
}

#[test]
fn the_postconditions_catch_wrong_outputs() {
    checks::assert_postconditions_reject_wrong_outputs(&FibonacciHeapBench);
}

#[test]
fn long_operation_sequences_keep_the_invariant_and_the_multiset() {
    checks::assert_long_sequences(&FibonacciHeapBench, FibonacciHeap::default());
}
