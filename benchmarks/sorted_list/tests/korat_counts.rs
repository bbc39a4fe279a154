//! The counts that prove the search: the paper's input counts per method and scope, a
//! brute-force check of soundness, completeness and optimality on small scopes, and the
//! original's postconditions on every input of a small scope.

use std::ops::ControlFlow;

use ferastrau_sdk::korat;
use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use sorted_list::invariant::rep_ok;
use sorted_list::space::{finitization, Args};
use sorted_list::{SortedList, SortedListBench};

const BENCH: SortedListBench = SortedListBench;

/// The paper's `# inputs` per scope 1..7 (insert + remove + sort + merge).
const PAPER: [u64; 7] = [7, 36, 188, 1066, 7427, 73263, 1047608];

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Per method at scope n: insert and remove n·C(2n, n), sort Σ_{k≤n} n^k, merge C(3n−1, n−1).
fn expected(n: u64) -> [u64; 4] {
    let sorted = binomial(2 * n, n);
    let any: u64 = (0..=n as u32).map(|k| n.pow(k)).sum();
    [n * sorted, n * sorted, any, binomial(3 * n - 1, n - 1)]
}

/// All seven scopes (about 1.3 million candidates at scope 7, a second or two).
#[test]
fn inputs_match_the_paper() {
    testing::assert_counts(&BENCH, &PAPER, |n, methods| {
        let found: Vec<u64> = methods.iter().map(|s| s.valid).collect();
        assert_eq!(found, expected(u64::from(n)), "scope {n}");
    });
}

#[test]
fn sorted_lists_are_the_central_binomial_coefficients() {
    let want = [2, 6, 20, 70, 252, 924, 3432];
    for n in 1..=7u32 {
        let (fin, f) = finitization("SortedList", n, Args::None);
        let s = korat::search(
            &fin,
            |c| rep_ok(&mut View::new(c, &f), 0, true),
            |_| ControlFlow::Continue(()),
        );
        assert_eq!(s.valid, want[n as usize - 1], "scope {n}");
    }
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    // Sorted lists are the methods' structure; `sort`'s inputs are any list.
    let found = testing::assert_exact_against_brute_force(&BENCH, 2, |_| Ok(1));
    for (per_method, n) in found.iter().zip(1u64..) {
        assert_eq!(per_method[..], expected(n), "scope {n}");
    }
}

/// Runs every method on every input of `scope` and checks the invariant of the decoded
/// pre-state (for `sort`, the unsorted one), the postcondition and the invariant after.
fn check_original_on_all_inputs(scope: u32) -> u64 {
    testing::check_postconditions_with(&BENCH, scope, |m, pre, _, _| {
        if m != 2 {
            testing::require_invariant(&BENCH, pre)?;
        }
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_original_meets_every_postcondition() {
    for n in 1..=4u32 {
        assert_eq!(check_original_on_all_inputs(n), PAPER[n as usize - 1]);
    }
}

#[test]
fn the_postconditions_and_the_invariant_reject_wrong_outputs() {
    let b = SortedListBench;
    let mut unsorted = 0;
    testing::for_each_input(&b, 2, 3, |pre| {
        let els = sorted_list::space::elements(&pre.list);
        let is_sorted = els.windows(2).all(|w| w[0] <= w[1]);
        // sort's inputs include unsorted lists, which the class invariant rejects.
        assert_eq!(b.invariant(&pre), is_sorted, "{}", b.render(2, &pre));
        if !is_sorted {
            unsorted += 1;
            let ret = b.run(2, &mut pre.clone());
            assert!(b.postcondition(2, &pre, &pre, &ret).is_err());
        }
    });
    assert!(unsorted > 0);
    // An insert that loses its element is caught.
    let mut call = sorted_list::Call {
        list: SortedList::new(),
        x: 2,
        other: None,
    };
    call.list.insert(1);
    let pre = call.clone();
    let ret = b.run(0, &mut call);
    assert!(b.postcondition(0, &pre, &call, &ret).is_ok());
    assert!(b.postcondition(0, &pre, &pre, &ret).is_err());
}

#[test]
fn inputs_render_readably_and_distinctly() {
    assert_eq!(
        testing::renders(&BENCH, 3, 2),
        [
            "merge([]) on []",
            "merge([1]) on []",
            "merge([2]) on []",
            "merge([]) on [1]",
            "merge([]) on [2]",
        ]
    );
    for m in 0..4 {
        let r = testing::renders(&BENCH, m, 3);
        let distinct: std::collections::HashSet<_> = r.iter().collect();
        assert_eq!(distinct.len(), r.len());
    }
    assert!(testing::renders(&BENCH, 2, 3).contains(&"sort() on [3, 1, 2]".to_string()));
}
