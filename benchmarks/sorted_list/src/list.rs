//! The code under test: a sorted list of integers that is structurally identical to
//! `java.util.LinkedList` (JDK 1.3/1.4): circular, doubly linked, with a *header* entry that
//! holds no element (`header.next` is the first entry, `header.previous` the last, an empty
//! list's header points to itself both ways). The elements are kept in non-decreasing order;
//! duplicates are allowed.
//!
//! Java's `Entry` references become `Option<EntryId>` into `entries`; `e.next` reads become
//! `self.entry(e).next`, which panics on `None` exactly where Java throws a
//! `NullPointerException`, and `self.value(e)` unboxes an element (Java's
//! `((Integer) e.element).intValue()`, which throws on the header's null element).
//!
//! - `insert(x)` walks past every element `<= x` and links a new entry there (after equal
//!   elements, so insertion is stable).
//! - `remove(x)` walks past every element `< x` and unlinks the entry it stops at if it holds
//!   `x`.
//! - `sort()` is an insertion sort on the entries themselves: each entry, in list order, is
//!   unlinked and relinked after the last earlier entry whose element is `<=` its own (the
//!   part before it is already sorted), so the sort is stable and allocates nothing.
//! - `merge(other)` is the standard merge of two sorted lists: one pass over `other`, each of
//!   its elements linked (as a new entry) into `this` before the first element greater than it,
//!   the cursor in `this` never moving back. `other` is left unchanged.
//!
//! Java has one heap: `this` and `other` are two `SortedList` objects whose entries are
//! distinct objects, so `header == other.header` is false and `f.next` means the same entry
//! whichever list it was reached from. `merge` therefore takes `other` as a [`ListRef`] (its
//! `header` and `size`) whose entries live in this list's arena, under ids of their own.
//!
//! Links are compared with `==` / `!=`, as Java compares references, so that the mutator's
//! operator mutations apply to them.
#![allow(clippy::partialeq_to_none)]

/// Index of an entry in the arena.
pub type EntryId = usize;

/// A list entry (`LinkedList.Entry` with an `Integer` element; the header's is null).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Entry {
    #[korat(ints(1, n))]
    pub element: Option<i64>,
    pub next: Option<EntryId>,
    pub previous: Option<EntryId>,
}

/// A second list whose entries already live in this list's arena: the fields of Java's
/// `other` argument of `merge`. Its ids differ from every entry of `this` (and from every entry
/// `this` allocates), as distinct Java objects are never `==`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListRef {
    pub header: Option<EntryId>,
    pub size: i64,
}

/// A sorted list of integers. Its `#[korat]` attributes give `finSortedList(n)`: n + 1 entries
/// (the header and n data entries) or null, `size` 0..n, each element null or one of 1..n;
/// `crate::space::finitization` adds a method's arguments (`insert`'s `x`, `merge`'s second
/// list over the same entries).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct SortedList {
    pub header: Option<EntryId>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(pool(n + 1))]
    pub entries: Vec<Entry>,
}

impl SortedList {
    /// An empty list: a header linked to itself.
    pub fn new() -> Self {
        SortedList {
            header: Some(0),
            size: 0,
            entries: vec![Entry {
                element: None,
                next: Some(0),
                previous: Some(0),
            }],
        }
    }

    /// The entry `e` points to; `None` is a null dereference.
    pub fn entry(&self, e: Option<EntryId>) -> &Entry {
        &self.entries[e.expect("null dereference")]
    }

    /// The entry `e` points to, for writing; `None` is a null dereference.
    pub fn entry_mut(&mut self, e: Option<EntryId>) -> &mut Entry {
        &mut self.entries[e.expect("null dereference")]
    }

    /// The element of entry `e`, unboxed; the header's null element is a null dereference.
    pub fn value(&self, e: Option<EntryId>) -> i64 {
        self.entry(e).element.expect("null dereference")
    }

    /// Java's `new Entry(element, next, previous)`.
    pub fn new_entry(
        &mut self,
        element: Option<i64>,
        next: Option<EntryId>,
        previous: Option<EntryId>,
    ) -> Option<EntryId> {
        self.entries.push(Entry {
            element,
            next,
            previous,
        });
        Some(self.entries.len() - 1)
    }

    /// Inserts `x` after every element `<= x`.
    pub fn insert(&mut self, x: i64) {
        let mut e = self.entry(self.header).next;
        while e != self.header && self.value(e) <= x {
            e = self.entry(e).next;
        }
        self.add_before(x, e);
    }

    /// Removes one occurrence of `x`; returns whether there was one.
    pub fn remove(&mut self, x: i64) -> bool {
        let mut e = self.entry(self.header).next;
        while e != self.header && self.value(e) < x {
            e = self.entry(e).next;
        }
        if e == self.header || self.value(e) != x {
            return false;
        }
        self.remove_entry(e);
        true
    }

    /// Sorts the list in place (insertion sort on the entries; stable).
    pub fn sort(&mut self) {
        let mut e = self.entry(self.header).next;
        while e != self.header {
            let next = self.entry(e).next;
            let x = self.value(e);
            let mut p = self.entry(e).previous;
            while p != self.header && self.value(p) > x {
                p = self.entry(p).previous;
            }
            if p != self.entry(e).previous {
                // Unlink e ...
                let before = self.entry(e).previous;
                self.entry_mut(before).next = next;
                self.entry_mut(next).previous = before;
                // ... and link it after p.
                let q = self.entry(p).next;
                self.entry_mut(e).previous = p;
                self.entry_mut(e).next = q;
                self.entry_mut(p).next = e;
                self.entry_mut(q).previous = e;
            }
            e = next;
        }
    }

    /// Merges the elements of the sorted list `other` (whose entries are in this arena) into
    /// this one, keeping it sorted.
    pub fn merge(&mut self, other: ListRef) {
        let mut e = self.entry(self.header).next;
        let mut f = self.entry(other.header).next;
        while f != other.header {
            let y = self.value(f);
            while e != self.header && self.value(e) <= y {
                e = self.entry(e).next;
            }
            self.add_before(y, e);
            f = self.entry(f).next;
        }
    }

    /// Whether the list holds `x`; stops at the first element greater than `x`.
    pub fn contains(&self, x: i64) -> bool {
        let mut e = self.entry(self.header).next;
        while e != self.header {
            let v = self.value(e);
            if v == x {
                return true;
            }
            if v > x {
                return false;
            }
            e = self.entry(e).next;
        }
        false
    }

    /// Inserts `x` before the entry `e` (`addBefore`); returns the new entry.
    pub fn add_before(&mut self, x: i64, e: Option<EntryId>) -> Option<EntryId> {
        let previous = self.entry(e).previous;
        let new_entry = self.new_entry(Some(x), e, previous);
        let before = self.entry(new_entry).previous;
        self.entry_mut(before).next = new_entry;
        let after = self.entry(new_entry).next;
        self.entry_mut(after).previous = new_entry;
        self.size += 1;
        new_entry
    }

    /// Unlinks the entry `e` (the private `remove(Entry)`). Removing the header is Java's
    /// `NoSuchElementException`.
    pub fn remove_entry(&mut self, e: Option<EntryId>) {
        if e == self.header {
            panic!("NoSuchElementException");
        }
        let previous = self.entry(e).previous;
        let next = self.entry(e).next;
        self.entry_mut(previous).next = next;
        self.entry_mut(next).previous = previous;
        self.size -= 1;
    }
}

impl Default for SortedList {
    fn default() -> Self {
        Self::new()
    }
}
