//! Issue 17: `indexOf` is JDK 1.3's loop over the entries, not a walk with the list iterator.
//!
//! The two agree on every valid list; they differ in what ends the walk: the JDK's loop stops
//! when it is back at the header, the iterator after `size` elements. A list whose `size`
//! understates its ring tells them apart, which is what the second test checks.

use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use linked_list::list::ElemId;
use linked_list::{LinkedList, LinkedListBench};

const BENCH: LinkedListBench = LinkedListBench;

/// The JDK's answer, from the element sequence: the index of the first element equal to `o`
/// (`null` matches `null`, an object only itself), or −1.
fn first_index(elements: &[Option<ElemId>], o: Option<ElemId>) -> i64 {
    elements
        .iter()
        .position(|&e| e == o)
        .map_or(-1, |i| i as i64)
}

#[test]
fn index_of_finds_the_first_occurrence_on_every_input() {
    for n in 1..=5 {
        // add's inputs are every (list, o) pair of the scope.
        for call in testing::method_inputs(&BENCH, 0, n) {
            let elements = BENCH.abstraction(&call);
            assert_eq!(
                call.list.index_of(call.o),
                first_index(&elements, call.o),
                "{}",
                BENCH.render(0, &call)
            );
        }
    }
}

#[test]
fn index_of_walks_the_entries_to_the_header_not_size_elements() {
    let (a, b) = (Some(ElemId(0)), Some(ElemId(1)));
    let mut list = LinkedList::new();
    list.add(a);
    list.add(b);
    assert_eq!(list.index_of(b), 1);
    assert_eq!(list.index_of(None), -1);
    // A size that stops short of the ring: the iterator would give up after one element.
    list.size = 1;
    assert_eq!(list.index_of(b), 1);
    assert!(list.contains(b));
    list.add_before(None, list.header);
    list.size = 0;
    assert_eq!(list.index_of(None), 2);
}
