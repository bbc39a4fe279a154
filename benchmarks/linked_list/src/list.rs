//! The code under test: `java.util.LinkedList` (JDK 1.3/1.4) on an arena, written from the
//! JDK's documented behaviour.
//!
//! The list is circular and doubly linked through a *header* entry that holds no element:
//! `header.next` is the first entry, `header.previous` the last, and an empty list's header
//! points to itself both ways. Java's `Entry` references become `Option<EntryId>` into
//! `entries`; `e.next` reads become `self.entry(e).next`, which panics on `None` exactly where
//! Java throws a `NullPointerException`. Elements are arbitrary objects that are equal only to
//! themselves (identity `equals`), so an element is an `Option<ElemId>`: `None` is Java's
//! `null`, `Some(ElemId(k))` the `k`-th element object.
//!
//! `reverse()` is not a `LinkedList` method in the JDK; the Korat-annotated LinkedList the paper
//! took its benchmark from defines it as `Collections.reverse(this)`, whose JDK 1.3 algorithm
//! (two list iterators swapping elements) is inlined here.
//!
//! Links and elements are compared with `== None` / `!= None`, as Java compares with `null`,
//! so that the mutator's operator mutations (`==` ↔ `!=`) apply to them.
#![allow(clippy::partialeq_to_none)]

/// Index of an entry in the arena.
pub type EntryId = usize;

/// An element object (Java's `Object`, equal only to itself), by its index in the pool of
/// element objects. A type of its own, so that an element can never stand for an entry (in
/// Java they are different types, and the mutator only swaps values of one type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ferastrau_sdk::Korat)]
pub struct ElemId(pub usize);

/// A list entry (`LinkedList.Entry`).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Entry {
    pub element: Option<ElemId>,
    pub next: Option<EntryId>,
    pub previous: Option<EntryId>,
}

/// A list of objects (nulls and duplicates allowed). Its `#[korat]` attributes give
/// `finLinkedList(n)`: n + 1 entries (the header and n data entries) or null, `size` 0..n, each
/// element null or one of n element objects (class `Elem`, no arena: an element keeps its
/// candidate index), which take part in isomorphism breaking as objects do.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
#[korat(objects(Elem, n))]
pub struct LinkedList {
    pub header: Option<EntryId>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(pool(n + 1))]
    pub entries: Vec<Entry>,
}

/// The list iterator (`LinkedList.ListItr`): a cursor between two entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListItr {
    /// The entry returned by the last call to `next`.
    pub last_returned: Option<EntryId>,
    /// The entry the next call to `next` returns.
    pub next: Option<EntryId>,
    /// The index of `next`.
    pub next_index: i64,
}

impl LinkedList {
    /// An empty list: a header linked to itself.
    pub fn new() -> Self {
        LinkedList {
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

    /// Java's `new Entry(element, next, previous)`.
    pub fn new_entry(
        &mut self,
        element: Option<ElemId>,
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

    /// Appends `o` to the end of the list; always returns true (`Collection.add`).
    pub fn add(&mut self, o: Option<ElemId>) -> bool {
        self.add_before(o, self.header);
        true
    }

    /// Removes the first occurrence of `o` (`o == null ? e == null : o.equals(e)`); returns
    /// whether the list contained it.
    pub fn remove(&mut self, o: Option<ElemId>) -> bool {
        if o == None {
            let mut e = self.entry(self.header).next;
            while e != self.header {
                if self.entry(e).element == None {
                    self.remove_entry(e);
                    return true;
                }
                e = self.entry(e).next;
            }
        } else {
            let mut e = self.entry(self.header).next;
            while e != self.header {
                if o == self.entry(e).element {
                    self.remove_entry(e);
                    return true;
                }
                e = self.entry(e).next;
            }
        }
        false
    }

    /// Reverses the order of the elements in place: JDK 1.3's `Collections.reverse(this)`, the
    /// algorithm for lists without random access. Two list iterators, one from each end, meet
    /// in the middle; each step takes the front iterator's `next()`, sets the element the back
    /// iterator's `previous()` returns in its place, and the taken one in the back's. Entries
    /// and links stay where they are; elements move.
    pub fn reverse(&mut self) {
        let mut fwd = self.list_iterator(0);
        let mut rev = self.list_iterator(self.size);
        let mut i = 0;
        let n = self.size / 2;
        while i < n {
            let tmp = fwd.next(self);
            fwd.set(rev.previous(self), self);
            rev.set(tmp, self);
            i += 1;
        }
    }

    /// Whether the list holds `o` (`indexOf(o) != -1`).
    pub fn contains(&self, o: Option<ElemId>) -> bool {
        self.index_of(o) != -1
    }

    /// The index of the first occurrence of `o`, or -1. JDK 1.3's `indexOf`: a loop over the
    /// entries from `header.next` back to the header with an index counter (`for (Entry e =
    /// header.next; e != header; e = e.next)`), not the list iterator, so it ends where the ring
    /// does, whatever `size` says.
    pub fn index_of(&self, o: Option<ElemId>) -> i64 {
        let mut index = 0;
        if o == None {
            let mut e = self.entry(self.header).next;
            while e != self.header {
                if self.entry(e).element == None {
                    return index;
                }
                index += 1;
                e = self.entry(e).next;
            }
        } else {
            let mut e = self.entry(self.header).next;
            while e != self.header {
                if o == self.entry(e).element {
                    return index;
                }
                index += 1;
                e = self.entry(e).next;
            }
        }
        -1
    }

    /// Inserts `o` before the entry `e` (`addBefore`); returns the new entry. Statement for
    /// statement the JDK's: the links are read through the new entry (`newEntry.previous.next
    /// = newEntry`), not through locals the Java code does not have.
    pub fn add_before(&mut self, o: Option<ElemId>, e: Option<EntryId>) -> Option<EntryId> {
        let new_entry = self.new_entry(o, e, self.entry(e).previous);
        self.entry_mut(self.entry(new_entry).previous).next = new_entry;
        self.entry_mut(self.entry(new_entry).next).previous = new_entry;
        self.size += 1;
        new_entry
    }

    /// Unlinks the entry `e` (the private `remove(Entry)`). Removing the header is Java's
    /// `NoSuchElementException`.
    pub fn remove_entry(&mut self, e: Option<EntryId>) {
        if e == self.header {
            panic!("NoSuchElementException");
        }
        self.entry_mut(self.entry(e).previous).next = self.entry(e).next;
        self.entry_mut(self.entry(e).next).previous = self.entry(e).previous;
        self.size -= 1;
    }

    /// A list iterator positioned before the element at `index` (`listIterator(index)`): it
    /// walks from whichever end of the list is nearer.
    pub fn list_iterator(&self, index: i64) -> ListItr {
        if index < 0 || index > self.size {
            panic!(
                "IndexOutOfBoundsException: Index: {index}, Size: {}",
                self.size
            );
        }
        let mut it = ListItr {
            last_returned: self.header,
            next: None,
            next_index: 0,
        };
        if index < (self.size >> 1) {
            it.next = self.entry(self.header).next;
            it.next_index = 0;
            while it.next_index < index {
                it.next = self.entry(it.next).next;
                it.next_index += 1;
            }
        } else {
            it.next = self.header;
            it.next_index = self.size;
            while it.next_index > index {
                it.next = self.entry(it.next).previous;
                it.next_index -= 1;
            }
        }
        it
    }
}

impl ListItr {
    /// Whether `next` would return an element.
    pub fn has_next(&self, list: &LinkedList) -> bool {
        self.next_index != list.size
    }

    /// Returns the next element and advances (`ListItr.next`); past the end it is Java's
    /// `NoSuchElementException`.
    pub fn next(&mut self, list: &LinkedList) -> Option<ElemId> {
        if self.next_index == list.size {
            panic!("NoSuchElementException");
        }
        self.last_returned = self.next;
        self.next = list.entry(self.next).next;
        self.next_index += 1;
        list.entry(self.last_returned).element
    }

    /// Returns the previous element and moves back (`ListItr.previous`); at the front it is
    /// Java's `NoSuchElementException`. Java's `lastReturned = next = next.previous` is two
    /// statements here.
    pub fn previous(&mut self, list: &LinkedList) -> Option<ElemId> {
        if self.next_index == 0 {
            panic!("NoSuchElementException");
        }
        self.next = list.entry(self.next).previous;
        self.last_returned = self.next;
        self.next_index -= 1;
        list.entry(self.last_returned).element
    }

    /// Replaces the element `next` or `previous` returned last (`ListItr.set`); with none
    /// returned it is Java's `IllegalStateException`. The list comes last so that a call can
    /// take its element from another iterator, as `fwd.set(rev.previous())` does.
    pub fn set(&self, o: Option<ElemId>, list: &mut LinkedList) {
        if self.last_returned == list.header {
            panic!("IllegalStateException");
        }
        list.entry_mut(self.last_returned).element = o;
    }
}

impl Default for LinkedList {
    fn default() -> Self {
        Self::new()
    }
}
