//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (through `View`, whose reads are recorded) and the runner runs
//! it on real post-states (through `Real`). For one list
//! it reads the header, the header's element, then walks the ring along `next` checking each
//! `next.previous`, reads `size`, and only then the data elements in list order (non-null and,
//! for a sorted list, non-decreasing). The view can hold two lists over one pool of entries
//! (`merge`'s receiver and argument); [`rep_ok_pair`] checks them one after the other and also
//! that they share no entry.

use ferastrau_sdk::korat::view::{ArenaOf, Real};
use ferastrau_sdk::korat::Visited;

use crate::list::{Entry, EntryView, ListRef, SortedList};

/// Read access to one or two lists (by list number, 0 = `this`, 1 = `other`) over a pool of
/// entries (the derived `EntryView`, by entry id).
pub trait ListView: EntryView {
    fn header(&mut self, list: usize) -> Option<u32>;
    fn size(&mut self, list: usize) -> i64;
}

/// The invariant of list `list`: well formed and, if `sorted`, in non-decreasing order.
/// `sort()`'s precondition is the unsorted version; every other use is the sorted one.
pub fn rep_ok(v: &mut impl ListView, list: usize, sorted: bool) -> bool {
    let mut seen = Visited::new();
    match is_well_formed(v, list, &mut seen) {
        None => false,
        Some(header) => are_elements_ok(v, header, sorted),
    }
}

/// `merge`'s precondition: both lists sorted and sharing no entry.
pub fn rep_ok_pair(v: &mut impl ListView) -> bool {
    let mut seen = Visited::new();
    for list in 0..2 {
        match is_well_formed(v, list, &mut seen) {
            None => return false,
            Some(header) => {
                if !are_elements_ok(v, header, true) {
                    return false;
                }
            }
        }
    }
    true
}

/// The shape: a header with no element; a ring along `next` back to the header in which every
/// `next.previous` is the entry it came from; `size` = entries − 1. Entries already in `seen`
/// (another list's) are rejected; this list's are added. Returns the header.
pub fn is_well_formed(v: &mut impl ListView, list: usize, seen: &mut Visited) -> Option<u32> {
    let header = v.header(list)?;
    if v.element(header).is_some() {
        return None;
    }
    if !seen.insert(header) {
        return None;
    }
    let mut entries = 1;
    let mut current = header;
    loop {
        let next = v.next(current)?;
        if v.previous(next) != Some(current) {
            return None;
        }
        if next == header {
            break;
        }
        if !seen.insert(next) {
            return None;
        }
        entries += 1;
        current = next;
    }
    if entries - 1 != v.size(list) {
        return None;
    }
    Some(header)
}

/// Every data element is non-null and, if `sorted`, no smaller than the one before it. The
/// list is well formed.
pub fn are_elements_ok(v: &mut impl ListView, header: u32, sorted: bool) -> bool {
    let mut previous: Option<i64> = None;
    let mut e = v.next(header);
    while let Some(x) = e {
        if x == header {
            break;
        }
        let element = match v.element(x) {
            None => return false,
            Some(el) => el,
        };
        if sorted && previous.is_some_and(|p| p > element) {
            return false;
        }
        previous = Some(element);
        e = v.next(x);
    }
    true
}

/// A real list seen through [`ListView`] (as list 0).
impl ListView for Real<'_, SortedList> {
    fn header(&mut self, list: usize) -> Option<u32> {
        assert_eq!(list, 0, "a real list is list 0");
        self.0.header.map(|h| h as u32)
    }
    fn size(&mut self, list: usize) -> i64 {
        assert_eq!(list, 0, "a real list is list 0");
        self.0.size
    }
}

/// `merge`'s two real lists: `this` (list 0) and `other` (list 1), whose entries share
/// `this`'s arena; seen through [`ListView`] as `Real(&Pair(..))`.
pub struct Pair<'a>(pub &'a SortedList, pub ListRef);

impl ArenaOf<Entry> for Pair<'_> {
    fn arena(&self) -> &[Entry] {
        &self.0.entries
    }
}

impl ListView for Real<'_, Pair<'_>> {
    fn header(&mut self, list: usize) -> Option<u32> {
        let header = if list == 0 {
            self.0 .0.header
        } else {
            self.0 .1.header
        };
        header.map(|h| h as u32)
    }
    fn size(&mut self, list: usize) -> i64 {
        if list == 0 {
            self.0 .0.size
        } else {
            self.0 .1.size
        }
    }
}
