//! The counts that prove the search: the paper's list and input counts per scope, a
//! brute-force check of soundness, completeness and optimality on small scopes, and the
//! original's postconditions on every input of a small scope.

use ferastrau_sdk::korat::view::View;
use std::ops::ControlFlow;

use ferastrau_sdk::korat::{self, Candidate};
use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use linked_list::invariant::rep_ok;
use linked_list::space::{finitization, Fields};
use linked_list::LinkedListBench;

const BENCH: LinkedListBench = LinkedListBench;

/// Lists (the bare structure) per scope 1..7.
const LISTS: [u64; 7] = [3, 8, 23, 75, 278, 1155, 5295];
/// (list, o) pairs per scope 1..7.
const PAIRS: [u64; 7] = [6, 21, 73, 276, 1153, 5293, 26440];
/// The paper's `# inputs` per scope 1..7 (lists + 2·pairs).
const PAPER: [u64; 7] = [15, 50, 169, 627, 2584, 11741, 58175];

fn pred(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

fn count(n: u32, with_arg: bool) -> korat::Stats {
    let (fin, f) = finitization("LinkedList", n, with_arg);
    korat::search(&fin, pred(&f), |_| ControlFlow::Continue(()))
}

#[test]
fn lists_and_pairs_match_the_paper() {
    testing::assert_counts(&BENCH, &PAPER, |n, methods| {
        let i = n as usize - 1;
        assert_eq!(count(n, false).valid, LISTS[i], "lists at scope {n}");
        assert_eq!(count(n, true).valid, PAIRS[i], "pairs at scope {n}");
        let per_method: Vec<u64> = methods.iter().map(|s| s.valid).collect();
        assert_eq!(per_method, [PAIRS[i], PAIRS[i], LISTS[i]], "scope {n}");
    });
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    let found = testing::assert_exact_against_brute_force(&BENCH, 2, |n| {
        let (fin, f) = finitization("LinkedList", n, false);
        let lists = testing::check_search_against_brute_force(&fin, pred(&f))?;
        assert_eq!(lists, LISTS[n as usize - 1]);
        Ok(lists)
    });
    for (i, per_method) in found.iter().enumerate() {
        assert_eq!(
            per_method,
            &[PAIRS[i], PAIRS[i], LISTS[i]],
            "scope {}",
            i + 1
        );
    }
}

#[test]
fn the_original_meets_every_postcondition() {
    testing::assert_postconditions(&BENCH, &PAPER[..4]);
}

#[test]
fn the_postconditions_and_the_invariant_reject_wrong_outputs() {
    let b = LinkedListBench;
    let mut seen = 0;
    testing::for_each_input(&b, 2, 3, |pre| {
        if pre.list.size < 2 {
            return;
        }
        // Reversing every entry but not the header breaks the ring's back links.
        let mut bad = pre.clone();
        let h = bad.list.header;
        let mut e = bad.list.entry(h).next;
        while e != h {
            let entry = bad.list.entry_mut(e);
            std::mem::swap(&mut entry.next, &mut entry.previous);
            e = bad.list.entry(e).previous;
        }
        assert!(!b.invariant(&bad), "{}", b.render(2, &pre));
        // A list left as it was is not its reverse unless it reads the same both ways.
        let mut post = pre.clone();
        let ret = b.run(2, &mut post);
        assert!(b.postcondition(2, &pre, &post, &ret).is_ok());
        let unchanged = b.postcondition(2, &pre, &pre, &ret);
        let els = linked_list::space::elements(&pre.list);
        let palindrome = els.iter().eq(els.iter().rev());
        assert_eq!(unchanged.is_ok(), palindrome, "{}", b.render(2, &pre));
        // Claiming a result that reverse does not return is caught.
        let wrong = linked_list::Outcome {
            result: Some(true),
            contains_after: None,
        };
        assert!(b.postcondition(2, &pre, &post, &wrong).is_err());
        seen += 1;
    });
    assert!(seen > 0);
}

#[test]
fn inputs_render_readably_and_distinctly() {
    assert_eq!(
        testing::renders(&BENCH, 2, 2),
        [
            "reverse() on []",
            "reverse() on [null]",
            "reverse() on [o0]",
            "reverse() on [null, null]",
            "reverse() on [null, o0]",
            "reverse() on [o0, null]",
            "reverse() on [o0, o0]",
            "reverse() on [o0, o1]",
        ]
    );
    for m in 0..2 {
        let r = testing::renders(&BENCH, m, 3);
        let distinct: std::collections::HashSet<_> = r.iter().collect();
        assert_eq!(distinct.len(), r.len());
        assert!(r.contains(&format!("{}(o2) on [o0, o1]", BENCH.methods()[m])));
    }
}
