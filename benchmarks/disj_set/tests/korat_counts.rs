//! The counts that prove the search: the structure counts and the paper's input counts, a
//! brute-force check of soundness, completeness and optimality on small scopes, and the
//! original's postconditions on every input of a small scope.

use std::ops::ControlFlow;

use disj_set::invariant::rep_ok;
use disj_set::space::{finitization, Fields};
use disj_set::{Call, DisjSet, DisjSetBench, Exception, Record};
use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::korat::{self, Candidate, Stats};
use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;

/// Structures per scope 1..5 (BENCHMARKS.md).
const STRUCTURES: [u64; 5] = [2, 5, 38, 914, 41546];
/// The paper's `# inputs` per scope 1..5.
const PAPER_INPUTS: [u64; 5] = [4, 30, 456, 18280, 1246380];

fn pred_for(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

fn structure_search(n: u32) -> Stats {
    let (fin, f) = finitization("DisjSet", n, 0);
    korat::search(&fin, pred_for(&f), |_| ControlFlow::Continue(()))
}

#[test]
fn structure_counts_match() {
    for n in 1..=5u32 {
        assert_eq!(
            structure_search(n).valid,
            STRUCTURES[n as usize - 1],
            "scope {n}"
        );
    }
}

#[test]
fn union_and_find_inputs_match_the_paper() {
    // Scope 5 (1,246,380 inputs) takes under a second at opt-level 3.
    testing::assert_counts(&DisjSetBench, &PAPER_INPUTS, |n, methods| {
        let structures = structure_search(n);
        let (union, find) = (&methods[0], &methods[1]);
        let n64 = u64::from(n);
        // Arguments are never read by the precondition: every index 0..n−1, for every structure.
        assert_eq!(union.valid, structures.valid * n64 * n64, "scope {n}");
        assert_eq!(find.valid, structures.valid * n64, "scope {n}");
        // Joint generation with unread arguments over d values adds found·(d − 1) candidates.
        assert_eq!(
            union.explored,
            structures.explored + structures.valid * (n64 * n64 - 1)
        );
        assert_eq!(
            find.explored,
            structures.explored + structures.valid * (n64 - 1)
        );
        println!(
            "scope {n}: {} structures / {} candidates; union {} / {}, find {} / {} ({:.2} s)",
            structures.valid,
            structures.explored,
            union.valid,
            union.explored,
            find.valid,
            find.explored,
            union.seconds + find.seconds
        );
    });
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    testing::assert_exact_against_brute_force(&DisjSetBench, 3, |n| {
        let (fin, f) = finitization("DisjSet", n, 0);
        testing::check_search_against_brute_force(&fin, pred_for(&f))
    });
}

#[test]
fn the_original_meets_its_postconditions_on_every_input_up_to_scope_five() {
    // Exactly the (structure, arguments) pairs with an argument outside 0..size throw; the
    // numbers come from enumerating the invariant independently (structures by size).
    let throws = [[1, 1], [7, 3], [42, 10], [563, 85], [18767, 2119]];
    for n in 1..=5u32 {
        let (mut calls, mut threw) = ([0u64; 2], [0u64; 2]);
        let checked = testing::check_postconditions_with(&DisjSetBench, n, |m, pre, _, ret| {
            calls[m] += 1;
            threw[m] += u64::from(ret.is_err());
            testing::require_invariant(&DisjSetBench, pre)
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let n64 = u64::from(n);
        for m in 0..2 {
            assert_eq!(calls[m], STRUCTURES[n as usize - 1] * [n64 * n64, n64][m]);
            assert_eq!(threw[m], throws[n as usize - 1][m], "scope {n}, method {m}");
        }
        assert_eq!(checked, calls[0] + calls[1]);
    }
}

#[test]
fn postconditions_reject_wrong_outputs() {
    // A set {0, 1} (0 under 1) and singletons {2}.
    let pre = Call {
        set: DisjSet {
            elements: vec![
                disj_set::Record { parent: 1, rank: 0 },
                disj_set::Record { parent: 1, rank: 1 },
                disj_set::Record { parent: 2, rank: 0 },
            ],
            size: 3,
        },
        a: 0,
        b: 2,
    };
    assert!(DisjSetBench.invariant(&pre));
    // union(0, 2) that does nothing
    let r = DisjSetBench.postcondition(0, &pre, &pre, &Ok(None));
    assert!(r.is_err());
    // find(0) returning 0 instead of the root 1
    assert!(DisjSetBench
        .postcondition(1, &pre, &pre, &Ok(Some(0)))
        .is_err());
    // find(3): out of range must throw
    let out = Call {
        a: 3,
        ..pre.clone()
    };
    assert!(DisjSetBench
        .postcondition(1, &out, &out, &Ok(Some(1)))
        .is_err());
    assert!(DisjSetBench
        .postcondition(1, &out, &out, &Err(Exception::IndexOutOfBounds))
        .is_ok());
    // a post-state with a cycle breaks the invariant
    let mut broken = pre.clone();
    broken.set.elements[1].parent = 0;
    assert!(!DisjSetBench.invariant(&broken));
    // and the real union/find produce what the postconditions expect
    let mut post = pre.clone();
    let ret = DisjSetBench.run(0, &mut post);
    assert_eq!(ret, Ok(None));
    assert_eq!(DisjSetBench::partition(&post.set), vec![0, 0, 0]);

    assert!(DisjSetBench.postcondition(0, &pre, &post, &ret).is_ok());
}

#[test]
fn unions_from_singletons_keep_the_invariant() {
    // A longer run than the scopes reach: unions over 8 singletons, then finds everywhere.
    let mut s = DisjSet::new(8);
    for (a, b) in [
        (0, 1),
        (2, 3),
        (0, 2),
        (4, 5),
        (6, 7),
        (4, 6),
        (0, 4),
        (7, 3),
    ] {
        s.union(a, b).unwrap();
        assert!(DisjSetBench.invariant(&Call {
            set: s.clone(),
            a: 0,
            b: 0
        }));
    }
    let root = s.find(0).unwrap();
    for i in 0..8 {
        assert_eq!(s.find(i), Ok(root));
        assert_eq!(s.elements[i as usize].parent, root);
    }
    assert_eq!(s.elements[root as usize].rank, 3);
    assert_eq!(s.find(8), Err(Exception::IndexOutOfBounds));
    assert_eq!(s.union(-1, 0), Err(Exception::IndexOutOfBounds));
}

#[test]
fn outputs_compare_the_records_not_only_the_sets() {
    // 0 → 1 → 2: find(0) compresses the path, so 0 points straight at 2 afterwards.
    let rec = |parent, rank| Record { parent, rank };
    let chain = DisjSet {
        elements: vec![rec(1, 0), rec(2, 1), rec(2, 2)],
        size: 3,
    };
    let pre = Call {
        set: chain.clone(),
        a: 0,
        b: 0,
    };
    assert!(DisjSetBench.invariant(&pre));
    let mut post = pre.clone();
    assert_eq!(DisjSetBench.run(1, &mut post), Ok(Some(2)));
    assert!(DisjSetBench
        .postcondition(1, &pre, &post, &Ok(Some(2)))
        .is_ok());
    // A find that forgot to compress leaves the same partition but other records: an
    // output that differs, as in the paper's comparison of the post-states.
    assert_eq!(
        DisjSetBench::partition(&pre.set),
        DisjSetBench::partition(&post.set)
    );
    assert_ne!(
        DisjSetBench.abstraction(&pre),
        DisjSetBench.abstraction(&post)
    );
    assert_eq!(DisjSetBench.abstraction(&post)[0], rec(2, 0));
}
