//! Korat's side: the finitization, the space of candidate inputs per scope. It and the rest
//! of Korat's glue are `#[derive(ferastrau_sdk::Korat)]`'s, from the types of `set.rs` and
//! their `#[korat]` attributes (each integer's domain, the arena's pool): the finitization
//! (`IntSet::finitization`), the field ids (`IntSetFields`), the view the invariant reads
//! (`IntSetView` over `NodeView`: `head()`, `size()`, `next(n)`, `value(n)`), that view of a
//! candidate (`View::new(c, f)`, whose reads Korat records) and of a real set (`Real(&set)`),
//! and the decoder (`IntSet::decode(c, f)`).

use ferastrau_sdk::korat::{Domain, Finitization};

use crate::set::IntSet;

pub use crate::set::IntSetFields as Fields;

/// At most `n` nodes, `size` over 0..=n, values (and `x`) over 1..=n. The root object holds
/// the receiver's fields and the method's arguments (`add`'s `x`, the fields' `extra("x")`),
/// so that both are generated jointly.
pub fn finitization(root_name: &str, n: u32, with_x: bool) -> (Finitization, Fields) {
    let x = [("x", Domain::ints(1, i64::from(n)))];
    IntSet::finitization(root_name, n, if with_x { &x } else { &[] })
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
