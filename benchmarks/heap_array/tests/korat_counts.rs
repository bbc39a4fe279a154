//! The counts that prove the search: the structure counts and the paper's input counts, a
//! brute-force check of soundness, completeness and optimality on small scopes, and the
//! original's postconditions on every input of a small scope.

use std::ops::ControlFlow;

use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::korat::{self, Candidate, Stats};
use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use heap_array::invariant::rep_ok;
use heap_array::space::{finitization, Fields};
use heap_array::{Call, Exception, HeapArray, HeapArrayBench, EMPTY};

/// Structures per scope 1..7 (BENCHMARKS.md).
const STRUCTURES: [u64; 7] = [4, 15, 66, 320, 1919, 13139, 117562];
/// The paper's `# inputs` per scope 1..7.
const PAPER_INPUTS: [u64; 7] = [16, 75, 396, 2240, 15352, 118251, 1175620];

fn pred_for(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

fn structure_search(n: u32) -> Stats {
    let (fin, f) = finitization("HeapArray", n, false);
    korat::search(&fin, pred_for(&f), |_| ControlFlow::Continue(()))
}

#[test]
fn structure_counts_match() {
    for n in 1..=7u32 {
        assert_eq!(
            structure_search(n).valid,
            STRUCTURES[n as usize - 1],
            "scope {n}"
        );
    }
}

#[test]
fn insert_and_extract_max_inputs_match_the_paper() {
    // Scope 7 (1,175,620 inputs) takes under a second at opt-level 3.
    testing::assert_counts(&HeapArrayBench, &PAPER_INPUTS, |n, methods| {
        let heaps = structure_search(n);
        let (insert, extract) = (methods[0], methods[1]);
        let d = u64::from(n) + 2; // x over −1..n
                                  // x is never read by the precondition: every value, for every heap.
        assert_eq!(insert.valid, heaps.valid * d, "scope {n}");
        assert_eq!(insert.explored, heaps.explored + heaps.valid * (d - 1));
        assert_eq!(
            extract,
            Stats {
                seconds: extract.seconds,
                ..heaps
            }
        );
        println!(
            "scope {n}: {} heaps / {} candidates; insert {} / {}, extractMax {} / {} ({:.2} s)",
            heaps.valid,
            heaps.explored,
            insert.valid,
            insert.explored,
            extract.valid,
            extract.explored,
            insert.seconds + extract.seconds
        );
    });
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    testing::assert_exact_against_brute_force(&HeapArrayBench, 3, |n| {
        let (fin, f) = finitization("HeapArray", n, false);
        testing::check_search_against_brute_force(&fin, pred_for(&f))
    });
}

#[test]
fn the_original_meets_its_postconditions_on_every_input_up_to_scope_seven() {
    for n in 1..=7u32 {
        let heaps = STRUCTURES[n as usize - 1];
        let (mut calls, mut threw, mut full, mut grew) = ([0u64; 2], [0; 2], [0; 2], [0; 2]);
        let checked =
            testing::check_postconditions_with(&HeapArrayBench, n, |m, pre, post, ret| {
                calls[m] += 1;
                threw[m] += u64::from(ret.is_err());
                let was_full = pre.heap.size == pre.heap.array.len() as i64;
                full[m] += u64::from(m == 0 && was_full && pre.x >= 0);
                if post.heap.array.len() != pre.heap.array.len() {
                    grew[m] += 1;
                    if post.heap.array.len() != 2 * pre.heap.array.len() + 1 {
                        return Err(format!("grew to length {}", post.heap.array.len()));
                    }
                }
                testing::require_invariant(&HeapArrayBench, pre)
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(checked, calls[0] + calls[1]);
        for m in 0..2 {
            assert_eq!(calls[m], [heaps * (u64::from(n) + 2), heaps][m]);
            // insert(−1) throws on every heap; extractMax on the n + 1 empty ones (one per
            // array length 0..n).
            assert_eq!(
                threw[m],
                [heaps, u64::from(n) + 1][m],
                "scope {n}, method {m}"
            );
            // Exactly the insertions into a full array grow it (and extractMax never does).
            assert_eq!(grew[m], [full[0], 0][m], "scope {n}, method {m}");
            assert_eq!(grew[m] > 0, m == 0);
        }
    }
}

#[test]
fn postconditions_reject_wrong_outputs() {
    let pre = Call {
        heap: HeapArray {
            size: 3,
            array: vec![3, 1, 2, EMPTY],
        },
        x: 4,
    };
    assert!(HeapArrayBench.invariant(&pre));
    // insert that forgets the element
    assert!(HeapArrayBench
        .postcondition(0, &pre, &pre, &Ok(None))
        .is_err());
    // extractMax returning a non-maximum
    assert!(HeapArrayBench
        .postcondition(1, &pre, &pre, &Ok(Some(2)))
        .is_err());
    // a post-state out of heap order breaks the invariant
    let broken = Call {
        heap: HeapArray {
            size: 3,
            array: vec![1, 3, 2, EMPTY],
        },
        x: 4,
    };
    assert!(!HeapArrayBench.invariant(&broken));
    // a free slot that is not empty breaks it too
    let dirty = Call {
        heap: HeapArray {
            size: 2,
            array: vec![3, 1, 2, EMPTY],
        },
        x: 4,
    };
    assert!(!HeapArrayBench.invariant(&dirty));
    // the real calls satisfy them
    let mut post = pre.clone();
    let ret = HeapArrayBench.run(0, &mut post);
    assert_eq!(post.heap.array, vec![4, 3, 2, 1]);
    assert!(HeapArrayBench.postcondition(0, &pre, &post, &ret).is_ok());
    let mut post = pre.clone();
    let ret = HeapArrayBench.run(1, &mut post);
    assert_eq!(ret, Ok(Some(3)));
    assert_eq!(post.heap.array, vec![2, 1, EMPTY, EMPTY]);
    assert!(HeapArrayBench.postcondition(1, &pre, &post, &ret).is_ok());
}

#[test]
fn insert_grows_a_full_array_and_rejects_negatives() {
    let mut h = HeapArray::default();
    assert_eq!(h.extract_max(), Err(Exception::Underflow));
    assert_eq!(h.insert(-1), Err(Exception::IllegalArgument));
    for x in [2, 7, 0, 7, 5, 1, 3] {
        h.insert(x).unwrap();
        assert!(HeapArrayBench.invariant(&Call {
            heap: h.clone(),
            x: 0
        }));
    }
    // lengths 0 → 1 → 3 → 7
    assert_eq!(h.array.len(), 7);
    let mut out = Vec::new();
    while let Ok(m) = h.extract_max() {
        out.push(m);
        assert!(HeapArrayBench.invariant(&Call {
            heap: h.clone(),
            x: 0
        }));
    }
    assert_eq!(out, vec![7, 7, 5, 3, 2, 1, 0]);
    assert_eq!(h.array, vec![EMPTY; 7]);
}
