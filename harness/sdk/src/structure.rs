//! A state's concrete structure as Java serialization sees it, for [`crate::Benchmark::structure`]
//! (`evaluate --compare structural`).
//!
//! Serialization writes an object's fields in a fixed order and every object it reaches the
//! first time it meets it, later meetings as a back-reference to that first one. Two states
//! then serialize alike exactly when they are the same graph of objects up to renaming: the
//! same shape, the same values, however the objects are numbered. An arena benchmark's
//! indices are such a numbering — a mutant may allocate the same structure in another order —
//! so they must never show: [`Writer`] replaces them with the order of first meeting.
//! `#[derive(Korat)]` writes [`Graph`] and [`Object`] for a structure of one arena; by hand:
//!
//! ```
//! use ferastrau_sdk::structure::{Graph, Writer};
//!
//! /// A singly linked list in an arena: `head`, and per node its value and `next`.
//! struct List { head: Option<usize>, nodes: Vec<(i64, Option<usize>)> }
//!
//! impl Graph for List {
//!     type Id = usize;
//!     fn fields(&self, id: usize, w: &mut Writer<usize>) {
//!         let (value, next) = self.nodes[id];
//!         w.int(value);
//!         w.object(self, next);
//!     }
//! }
//!
//! let a = List { head: Some(0), nodes: vec![(1, Some(1)), (2, None)] };
//! let b = List { head: Some(1), nodes: vec![(2, None), (1, Some(0))] };
//! let mut wa = Writer::new();
//! wa.object(&a, a.head);
//! let mut wb = Writer::new();
//! wb.object(&b, b.head);
//! assert_eq!(wa.finish(), wb.finish(), "the same list, allocated in another order");
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::Hash;

/// A state's objects and their fields.
pub trait Graph {
    /// How the state names an object (an arena index, say).
    type Id: Copy + Eq + Hash;
    /// Writes the fields of object `id`, always in the same order: values with
    /// [`Writer::int`] and [`Writer::flag`], references with [`Writer::object`].
    fn fields(&self, id: Self::Id, w: &mut Writer<Self::Id>);
}

/// An object's fields in declaration order, its links through `graph` (what
/// `#[derive(Korat)]` writes for a structure of one arena and for its node type).
pub trait Object<Id> {
    /// Writes the fields of `self`.
    fn write<G: Graph<Id = Id>>(&self, graph: &G, w: &mut Writer<Id>);
}

/// Java serialization of `state`: its own fields, then every object they reach.
pub fn serialize<S: Graph + Object<<S as Graph>::Id>>(state: &S) -> String {
    let mut w = Writer::new();
    state.write(state, &mut w);
    w.finish()
}

/// The serialization being written (see the module's documentation).
#[derive(Debug)]
pub struct Writer<Id> {
    /// Each object met, by the order it was first met in.
    seen: HashMap<Id, usize>,
    out: String,
}

impl<Id: Copy + Eq + Hash> Default for Writer<Id> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Id: Copy + Eq + Hash> Writer<Id> {
    /// An empty serialization.
    pub fn new() -> Self {
        Writer {
            seen: HashMap::new(),
            out: String::new(),
        }
    }

    /// An integer field.
    pub fn int(&mut self, v: i64) {
        let _ = write!(self.out, "{v} ");
    }

    /// A null value in a field that holds a value or null (an `Integer`).
    pub fn null(&mut self) {
        self.out.push_str("null ");
    }

    /// A reference to an object the code under test cannot allocate (an element object of a
    /// class without an arena), written as its identity, or null.
    pub fn opaque(&mut self, id: Option<usize>) {
        match id {
            Some(i) => {
                let _ = write!(self.out, "#{i} ");
            }
            None => self.out.push_str("null "),
        }
    }

    /// A boolean field.
    pub fn flag(&mut self, v: bool) {
        self.out.push_str(if v { "t " } else { "f " });
    }

    /// A reference field: `null`, an object met before (by the order it was first met in),
    /// or a new object, numbered next and written with its fields.
    pub fn object<G: Graph<Id = Id>>(&mut self, graph: &G, r: Option<Id>) {
        let Some(id) = r else {
            self.out.push_str("null ");
            return;
        };
        if let Some(n) = self.seen.get(&id) {
            let _ = write!(self.out, "@{n} ");
            return;
        }
        let n = self.seen.len();
        self.seen.insert(id, n);
        self.out.push('{');
        graph.fields(id, self);
        self.out.push_str("} ");
    }

    /// The serialization.
    pub fn finish(self) -> String {
        self.out.trim_end().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A doubly linked ring through a header, in an arena: (value, next, previous).
    struct Ring(Vec<(i64, usize, usize)>);

    impl Graph for Ring {
        type Id = usize;
        fn fields(&self, id: usize, w: &mut Writer<usize>) {
            let (v, next, previous) = self.0[id];
            w.int(v);
            w.object(self, Some(next));
            w.object(self, Some(previous));
        }
    }

    fn of(r: &Ring, start: usize) -> String {
        let mut w = Writer::new();
        w.object(r, Some(start));
        w.finish()
    }

    #[test]
    fn renaming_does_not_show_and_any_change_of_shape_or_value_does() {
        // header 0 -> 1 -> 2 -> header, and the same ring with entries 1 and 2 swapped in
        // the arena.
        let a = Ring(vec![(0, 1, 2), (5, 2, 0), (7, 0, 1)]);
        let b = Ring(vec![(0, 2, 1), (7, 0, 2), (5, 1, 0)]);
        assert_eq!(of(&a, 0), of(&b, 0));
        assert_eq!(of(&a, 0), "{0 {5 {7 @0 @1 } @0 } @2 }");
        // The same values in the other order: another structure.
        let c = Ring(vec![(0, 1, 2), (7, 2, 0), (5, 0, 1)]);
        assert_ne!(of(&a, 0), of(&c, 0));
        // A link that skips an entry (the values are still all there).
        let d = Ring(vec![(0, 1, 2), (5, 2, 0), (7, 0, 0)]);
        assert_ne!(of(&a, 0), of(&d, 0));
        // Where the walk starts is part of the structure (a field points there).
        assert_ne!(of(&a, 0), of(&a, 1));
    }

    #[test]
    fn null_flags_and_back_references_are_distinct_tokens() {
        let mut w: Writer<usize> = Writer::new();
        w.flag(true);
        w.flag(false);
        w.int(-3);
        w.object(&Ring(vec![]), None);
        w.null();
        w.opaque(Some(2));
        w.opaque(None);
        assert_eq!(w.finish(), "t f -3 null null #2 null");
    }
}
