//! Issue 17: `merge`'s two lists have distinct identities, as two Java objects do.
//!
//! `this` and `other` used to be decoded into two arenas that both put their header at id 0, so
//! `self.header == other.header` held where Java's `header == other.header` never does, and the
//! mutants that read `self.header` for `other.header` survived. Both lists now live in one arena
//! under distinct ids; the tests below show that, and hand-write those two mutants' effect to
//! show that merge's inputs now kill them.

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use sorted_list::{Call, ListRef, SortedList, SortedListBench};

const BENCH: SortedListBench = SortedListBench;
const MERGE: usize = 3;

/// The ids of the entries on the ring of the list with header `header`.
fn ring(list: &SortedList, header: Option<usize>) -> HashSet<usize> {
    let h = header.expect("a header");
    let mut ids = HashSet::from([h]);
    let mut e = list.entries[h].next.expect("a ring");
    while e != h {
        ids.insert(e);
        e = list.entries[e].next.expect("a ring");
    }
    ids
}

#[test]
fn merge_inputs_give_this_and_other_distinct_identities() {
    for n in 1..=4 {
        for call in testing::method_inputs(&BENCH, MERGE, n) {
            let other = call.other.expect("merge has an argument");
            assert_ne!(call.list.header, other.header);
            let this_ids = ring(&call.list, call.list.header);
            let other_ids = ring(&call.list, other.header);
            assert!(
                this_ids.is_disjoint(&other_ids),
                "{}",
                BENCH.render(MERGE, &call)
            );
        }
    }
}

/// The iterations a hand-written mutant may run before it counts as a timeout (the harness's
/// tick budget kills the metamutant's version of it the same way).
const BUDGET: usize = 1000;

/// `merge` with `other.header` replaced by `self.header` where `f` starts (the mutant
/// `let mut f = self.entry(self.header).next`).
fn merge_starting_at_self_header(list: &mut SortedList, other: ListRef) {
    let mut e = list.entry(list.header).next;
    let mut f = list.entry(list.header).next;
    let mut budget = BUDGET;
    while f != other.header {
        budget = budget.checked_sub(1).expect("timeout");
        let y = list.value(f);
        while e != list.header && list.value(e) <= y {
            e = list.entry(e).next;
        }
        list.add_before(y, e);
        f = list.entry(f).next;
    }
}

/// `merge` with `other.header` replaced by `self.header` in the loop's test (the mutant
/// `while f != self.header`).
fn merge_until_self_header(list: &mut SortedList, other: ListRef) {
    let mut e = list.entry(list.header).next;
    let mut f = list.entry(other.header).next;
    let mut budget = BUDGET;
    while f != list.header {
        budget = budget.checked_sub(1).expect("timeout");
        let y = list.value(f);
        while e != list.header && list.value(e) <= y {
            e = list.entry(e).next;
        }
        list.add_before(y, e);
        f = list.entry(f).next;
    }
}

/// Whether some merge input of `scope` tells `mutant` from the original: it panics or times
/// out, breaks the invariant, or leaves other elements than the original.
fn killed(mutant: fn(&mut SortedList, ListRef), scope: u32) -> bool {
    testing::method_inputs(&BENCH, MERGE, scope)
        .into_iter()
        .any(|call| {
            let mut original = call.clone();
            BENCH.run(MERGE, &mut original);
            let mut mutated: Call = call.clone();
            let other = call.other.expect("merge has an argument");
            let ran = catch_unwind(AssertUnwindSafe(|| mutant(&mut mutated.list, other)));
            ran.is_err()
                || !BENCH.invariant(&mutated)
                || BENCH.abstraction(&mutated) != BENCH.abstraction(&original)
        })
}

#[test]
fn mutants_that_read_this_header_for_other_header_are_killed() {
    assert!(killed(merge_starting_at_self_header, 1));
    assert!(killed(merge_until_self_header, 1));
}

/// The hand-written mutants are faithful: without them the same harness sees no difference.
#[test]
fn the_original_is_not_killed_by_the_same_check() {
    fn original(list: &mut SortedList, other: ListRef) {
        list.merge(other);
    }
    assert!(!killed(original, 3));
}
