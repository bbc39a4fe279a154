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

/// Issue 32: `reverse` is JDK 1.3's `Collections.reverse(this)`, two list iterators swapping
/// elements through `next`, `previous` and `set`, not a rewiring of the links (the port before
/// swapped every entry's `next` and `previous` and ignored what `next()` returned). On every
/// list of scopes 1..5 the element sequence comes out reversed and every entry keeps its
/// links.
#[test]
fn reverse_moves_elements_and_leaves_the_links() {
    for n in 1..=5 {
        // reverse's inputs are the lists of the scope.
        for call in testing::method_inputs(&BENCH, 2, n) {
            let before = call.list.clone();
            let mut list = call.list.clone();
            list.reverse();
            let mut elements = BENCH.abstraction(&call);
            elements.reverse();
            let after = BENCH.abstraction(&call_of(&list));
            assert_eq!(after, elements, "{}", BENCH.render(2, &call));
            for (a, b) in before.entries.iter().zip(&list.entries) {
                assert_eq!((a.next, a.previous), (b.next, b.previous));
            }
            assert_eq!(list.size, before.size);
        }
    }
}

fn call_of(list: &LinkedList) -> linked_list::Call {
    linked_list::Call {
        list: list.clone(),
        o: None,
    }
}

/// The iterator's `previous` and `set` throw where the JDK's do.
#[test]
fn previous_at_the_front_and_set_before_any_call_throw() {
    let mut list = LinkedList::new();
    list.add(Some(ElemId(0)));
    let it = list.list_iterator(0);
    assert!(std::panic::catch_unwind(|| {
        let mut it = list.list_iterator(0);
        it.previous(&list)
    })
    .is_err());
    let mut copy = list.clone();
    assert!(std::panic::catch_unwind(move || it.set(None, &mut copy)).is_err());
    let mut it = list.list_iterator(1);
    assert_eq!(it.previous(&list), Some(ElemId(0)));
    it.set(None, &mut list);
    assert_eq!(list.index_of(None), 0);
}
