//! The class invariant with dedicated generators (the paper's Sec. 5): the same checks as
//! [`crate::invariant::rep_ok`], in the same order of reads, but each link read says which
//! nodes it must not point to (those already visited: `is_tree`), `size` which count it must
//! equal, and each `info` which open interval it must fall in (ordering). Korat then never
//! assigns a value these rule out, so the valid trees are exactly the same, in the same order,
//! from fewer candidates.

use ferastrau_sdk::korat::dedicated::is_tree;
use ferastrau_sdk::korat::{Candidate, Visited};

use crate::space::Fields;

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let Some(root) = c.obj(f.root, 0) else {
        return c.int_is(f.size, 0, 0);
    };
    let mut visited = Visited::new();
    visited.insert(root);
    if !is_tree(
        c,
        &mut visited,
        &[f.nodes.left, f.nodes.right],
        |_, _, _| true,
    ) {
        return false;
    }
    // The size is the number of nodes.
    c.int_is(f.size, 0, visited.len() as i64) && ordered(c, f, root, i64::MIN, i64::MAX)
}

/// Strict order below `n` within the open interval (`lo`, `hi`).
pub fn ordered(c: &mut Candidate<'_>, f: &Fields, n: u32, lo: i64, hi: i64) -> bool {
    let Some(info) = c.int_in(f.nodes.info, n, lo.saturating_add(1)..hi) else {
        return false;
    };
    if let Some(l) = c.obj(f.nodes.left, n) {
        if !ordered(c, f, l, lo, info) {
            return false;
        }
    }
    match c.obj(f.nodes.right, n) {
        Some(r) => ordered(c, f, r, info, hi),
        None => true,
    }
}
