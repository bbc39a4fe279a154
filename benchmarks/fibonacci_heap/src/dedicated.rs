//! The class invariant with dedicated generators (the paper's Sec. 5): the checks of
//! [`crate::invariant::rep_ok`] in the same order of reads, each read saying which values it
//! must hold. Each ring is a circular doubly-linked list of nodes not visited yet
//! (`korat::dedicated::is_ring`), of exactly `degree` nodes below a parent; each node's
//! `parent` is the ring's; `child` is null exactly when the degree is 0 and otherwise a node
//! not visited yet; `size` is the count; `min` is a visited node; no key is below its bound
//! (the min's key for a root, the parent's for a child), read before it. Korat never assigns
//! what they rule out: the same heaps in the same order from fewer candidates.

use ferastrau_sdk::korat::dedicated::is_ring;
use ferastrau_sdk::korat::{Candidate, Visited};

use crate::space::Fields;

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let Some(first) = c.obj(f.nodes, 0) else {
        return c.int_is(f.size, 0, 0) && c.obj_is(f.min, 0, None);
    };
    let mut visited = Visited::new();
    visited.insert(first);
    if !ring(c, f, &mut visited, first, None, None) {
        return false;
    }
    if !c.int_is(f.size, 0, visited.len() as i64) {
        return false;
    }
    let seen = &visited;
    let Some(Some(min)) = c.obj_where(f.min, 0, |t| t.is_some_and(|m| seen.contains(m))) else {
        return false;
    };
    if !c.obj_is(f.pool.parent, min, None) {
        return false;
    }
    let min_key = c.int(f.pool.key, min);
    for i in 0..visited.len() {
        let x = visited.get(i);
        let bound = match c.obj(f.pool.parent, x) {
            None => min_key,
            Some(p) => c.int(f.pool.key, p),
        };
        if c.int_in(f.pool.key, x, bound..).is_none() {
            return false;
        }
    }
    true
}

/// The ring through `first` (already visited): each node with parent `parent`, `len` nodes
/// if given, and below each node of positive degree a ring of that many children.
fn ring(
    c: &mut Candidate<'_>,
    f: &Fields,
    visited: &mut Visited,
    first: u32,
    parent: Option<u32>,
    len: Option<u64>,
) -> bool {
    is_ring(
        c,
        visited,
        first,
        [f.pool.right, f.pool.left],
        len,
        |c, x, visited| {
            if !c.obj_is(f.pool.parent, x, parent) {
                return false;
            }
            let degree = c.int(f.pool.degree, x);
            let seen = &*visited;
            let child = c.obj_where(f.pool.child, x, |t| match t {
                None => degree == 0,
                Some(n) => degree > 0 && !seen.contains(n),
            });
            match child {
                None => false,
                Some(None) => true,
                Some(Some(ch)) => {
                    visited.insert(ch);
                    ring(c, f, visited, ch, Some(x), Some(degree as u64))
                }
            }
        },
    )
    .is_some()
}
