//! Korat's side: the finitization, the space of candidate inputs per scope. The rest of
//! Korat's glue is `#[derive(ferastrau_sdk::Korat)]`'s, on the types of `set.rs`: the field
//! ids (`IntSetFields`, found by name in the finitization), the view the invariant reads
//! (`IntSetView` over `NodeView`: `head()`, `size()`, `next(n)`, `value(n)`), that view of a
//! candidate (`View::new(c, f)`, whose reads Korat records) and of a real set (`Real(&set)`),
//! and the decoder (`IntSet::decode(c, f)`).

use ferastrau_sdk::korat::view::Root;
use ferastrau_sdk::korat::{Domain, Finitization, FinitizationBuilder, ROOT};

use crate::set::IntSet;

pub use crate::set::IntSetFields as Fields;

/// At most `n` nodes, `size` over 0..=n, values (and `x`) over 1..=n. The root object holds
/// the receiver's fields (named as in `IntSet`, class `Node` as its type) and the method's
/// arguments, so that both are generated jointly; an argument is the fields' `extra("x")`.
pub fn finitization(root_name: &str, n: u32, with_x: bool) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let node = b.class("Node", n);
    b.field(ROOT, "head", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    if with_x {
        b.field(ROOT, "x", Domain::ints(1, n64));
    }
    b.field(node, "next", Domain::nullable(node));
    b.field(node, "value", Domain::ints(1, n64));
    let fin = b.build();
    let fields = IntSet::fields(&fin);
    (fin, fields)
}

/// The elements in list order (the abstraction of a set that satisfies the invariant).
pub fn elements(s: &IntSet) -> Vec<i64> {
    let mut out = Vec::new();
    let mut current = s.head;
    while let Some(n) = current {
        out.push(s.nodes[n].value);
        current = s.nodes[n].next;
    }
    out
}
