//! The counts that prove the search (the paper's structure and input counts), a brute-force
//! check of soundness, completeness and optimality on small scopes, and the postconditions of
//! the original code on every input of small scopes.

use std::ops::ControlFlow;

use binomial_heap::invariant::{rep_ok, RealHeap};
use binomial_heap::space::{finitization, other_heap, CandidateHeap, Fields};
use binomial_heap::{BinomialHeap, BinomialHeapBench, Call, DELETE, EXTRACT_MIN, INSERT, UNION};
use ferastrau_worker::korat::{self, Candidate};
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

fn check_inputs(n: u32) {
    let heaps = heap_search(n);
    assert_eq!(
        heaps.valid,
        STRUCTURES[n as usize - 1],
        "structures at scope {n}"
    );
    let mut total = 0;
    for m in 0..BinomialHeapBench.methods().len() {
        let s = testing::search_method(&BinomialHeapBench, m, n);
        // The argument is read by no precondition: Korat enumerates it after each valid heap,
        // so each of its d values beyond the first costs one more candidate per heap.
        let d = match m {
            INSERT | DELETE => u64::from(n) + 1,
            UNION => u64::from(n),
            _ => 1,
        };
        assert_eq!(s.valid, heaps.valid * d, "method {m} at scope {n}");
        assert_eq!(s.explored, heaps.explored + heaps.valid * (d - 1));
        total += s.valid;
    }
    assert_eq!(total, PAPER_INPUTS[n as usize - 1], "inputs at scope {n}");
    assert_eq!(total, 3 * (u64::from(n) + 1) * heaps.valid);
}

/// Up to the paper's largest scope, 7 (2,577,984 inputs; about 2 s in release mode).
#[test]
fn structures_and_inputs_match_the_paper_up_to_scope_7() {
    for n in 1..=7 {
        check_inputs(n);
    }
}

fn pred_for(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut CandidateHeap { c, f })
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    for n in 1..=2u32 {
        let (fin, f) = finitization("BinomialHeap", n, None);
        let heaps = testing::check_search_against_brute_force(&fin, pred_for(&f))
            .unwrap_or_else(|e| panic!("scope {n}, heaps: {e}"));
        assert!(heaps > 0);
        for m in 0..BinomialHeapBench.methods().len() {
            let found = testing::check_against_brute_force(&BinomialHeapBench, m, n)
                .unwrap_or_else(|e| panic!("scope {n}, method {m}: {e}"));
            assert!(found > 0);
        }
    }
}

fn inputs(m: usize, n: u32) -> Vec<Call> {
    testing::method_inputs(&BinomialHeapBench, m, n)
}

#[test]
fn the_original_meets_every_postcondition_on_every_input_up_to_scope_6() {
    for n in 1..=6u32 {
        let checked = testing::check_postconditions_with(&BinomialHeapBench, n, |_, pre, _, _| {
            testing::require_invariant(&BinomialHeapBench, pre)
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(checked, PAPER_INPUTS[n as usize - 1], "scope {n}");
    }
}

#[test]
fn inputs_render_and_decode_as_expected() {
    let calls = inputs(EXTRACT_MIN, 3);
    let shown: Vec<String> = calls
        .iter()
        .map(|c| BinomialHeapBench.render(EXTRACT_MIN, c))
        .collect();
    assert_eq!(shown.len(), 28);
    assert_eq!(shown[0], "extractMin() on []");
    assert!(
        shown.contains(&"extractMin() on [2 0(1)]".to_string()),
        "{shown:?}"
    );
    // Every decoded heap of scope 3 is distinct (isomorphic inputs would render equally).
    let distinct: std::collections::HashSet<String> = shown.iter().map(|s| s.to_string()).collect();
    assert_eq!(distinct.len(), 28);
}

#[test]
fn the_second_heap_of_union_is_a_valid_heap_of_k_large_keys() {
    for n in 1..=7i64 {
        for k in 1..=n {
            let h = other_heap(k, n);
            assert!(rep_ok(&mut RealHeap(&h)), "k={k}, n={n}");
            let keys = BinomialHeapBench::keys(&h);
            assert_eq!(keys, ((n - k)..n).collect::<Vec<_>>());
        }
    }
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
