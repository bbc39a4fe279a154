//! The counts that prove the search (the paper's structure and input counts), a brute-force
//! check of soundness, completeness and optimality on small scopes, and the postconditions of
//! the original code on every input of small scopes.

use std::ops::ControlFlow;

use binomial_heap::invariant::{rep_ok, RealHeap};
use binomial_heap::space::{finitization, other_heap, CandidateHeap, Fields};
use binomial_heap::{BinomialHeap, BinomialHeapBench, Call, DELETE, EXTRACT_MIN, INSERT, UNION};
use ferastrau_worker::korat::{self, Candidate};
use ferastrau_worker::priority_queue::checks;
use ferastrau_worker::testing;
use ferastrau_worker::Benchmark;

/// Non-isomorphic binomial heaps at scopes 1..7 (the paper's structure counts).
const STRUCTURES: [u64; 7] = [2, 6, 28, 120, 936, 7602, 107416];
/// The paper's `# inputs` at scopes 1..7.
const PAPER_INPUTS: [u64; 7] = [12, 54, 336, 1800, 16848, 159642, 2577984];

fn heap_search(n: u32) -> korat::Stats {
    let (fin, f) = finitization("BinomialHeap", n, None);
    korat::search(
        &fin,
        |c| rep_ok(&mut CandidateHeap { c, f: &f }),
        |_| ControlFlow::Continue(()),
    )
}

/// Up to the paper's largest scope, 7.
#[test]
fn structures_and_inputs_match_the_paper_up_to_scope_7() {
    checks::assert_inputs(&BinomialHeapBench, &STRUCTURES, &PAPER_INPUTS, heap_search);
}

fn pred_for(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut CandidateHeap { c, f })
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    testing::assert_exact_against_brute_force(&BinomialHeapBench, 2, |n| {
        let (fin, f) = finitization("BinomialHeap", n, None);
        testing::check_search_against_brute_force(&fin, pred_for(&f))
    });
}

fn inputs(m: usize, n: u32) -> Vec<Call> {
    testing::method_inputs(&BinomialHeapBench, m, n)
}

#[test]
fn the_original_meets_every_postcondition_on_every_input_up_to_scope_6() {
    checks::assert_postconditions(&BinomialHeapBench, &PAPER_INPUTS[..6]);
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
    let ok = |h: &BinomialHeap| rep_ok(&mut RealHeap(h));
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
    let call = inputs(DELETE, 3)
        .into_iter()
        .find(|c| c.heap.size == 3 && c.x == 1 && BinomialHeapBench::keys(&c.heap).contains(&1))
        .expect("a heap of three keys holding 1");
    for m in [INSERT, EXTRACT_MIN, UNION, DELETE] {
        let mut pre = call.clone();
        if m == UNION {
            pre.other = Some(other_heap(1, 3));
        }
        let mut post = pre.clone();
        let ret = BinomialHeapBench.run(m, &mut post);
        assert!(BinomialHeapBench
            .postcondition(m, &pre, &post, &ret)
            .is_ok());
        // The unchanged pre-state is a wrong post-state for every method here.
        let wrong = BinomialHeapBench.postcondition(m, &pre, &pre, &ret);
        assert!(wrong.is_err(), "method {m}");
    }
    let mut post = call.clone();
    let ret = BinomialHeapBench.run(DELETE, &mut post);
    assert!(BinomialHeapBench
        .postcondition(DELETE, &call, &post, &binomial_heap::Ret::Bool(false))
        .is_err());
    assert_eq!(ret, binomial_heap::Ret::Bool(true));
}

#[test]
fn long_operation_sequences_keep_the_invariant_and_the_multiset() {
    // A deterministic pseudo-random mix of the four operations against a sorted Vec.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m) as i64
    };
    let mut h = BinomialHeap::default();
    let mut model: Vec<i64> = Vec::new();
    for step in 0..4000 {
        // Mostly extractions once the heap is large, to keep each step's checks cheap.
        let op = if model.len() > 60 { 2 } else { next(5) };
        match op {
            0 | 1 => {
                let k = next(20);
                h.insert(k);
                model.push(k);
            }
            2 => {
                model.sort_unstable();
                let expected = (!model.is_empty()).then(|| model.remove(0));
                assert_eq!(h.extract_min(), expected, "step {step}");
            }
            3 => {
                let k = next(20);
                let at = model.iter().position(|&x| x == k);
                if let Some(i) = at {
                    model.remove(i);
                }
                assert_eq!(h.delete(k), at.is_some(), "step {step}");
            }
            _ => {
                let k = next(6) + 1;
                let other = other_heap(k, 20);
                model.extend(BinomialHeapBench::keys(&other));
                h.union_heap(other);
            }
        }
        assert!(rep_ok(&mut RealHeap(&h)), "step {step}");
        model.sort_unstable();
        assert_eq!(BinomialHeapBench::keys(&h), model, "step {step}");
    }
}
