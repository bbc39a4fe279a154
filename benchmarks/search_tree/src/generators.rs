//! The class invariant with dedicated generators (the paper's Sec. 5): the same checks as
//! [`crate::invariant::rep_ok`], in the same order of reads, but each link read says which
//! nodes it must not point to (those already visited: `is_tree`), `size` which count it must
//! equal, and each `info` which open interval it must fall in (ordering). Korat then never
//! assigns a value these rule out, so the valid trees are exactly the same, in the same order,
//! from fewer candidates.

use ferastrau_worker::korat::{Candidate, Value, Visited};

use crate::space::Fields;

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_generators(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let Some(root) = c.obj(f.root, 0) else {
        return c.get_where(f.size, 0, |v| v == Value::Int(0)).is_some();
    };
    // is_tree: a breadth-first walk whose links never point back to a visited node.
    let mut visited = Visited::new();
    visited.insert(root);
    let mut next = 0;
    while next < visited.len() {
        let current = visited.get(next);
        next += 1;
        for link in [f.left, f.right] {
            let fresh = |v: Value| v.obj().is_none_or(|n| !visited.contains(n));
            match c.get_where(link, current, fresh) {
                None => return false,
                Some(Value::Obj(_, n)) => {
                    visited.insert(n);
                }
                Some(_) => {}
            }
        }
    }
    // The size is the number of nodes.
    let count = visited.len() as i64;
    if c.get_where(f.size, 0, |v| v == Value::Int(count)).is_none() {
        return false;
    }
    ordered(c, f, root, i64::MIN, i64::MAX)
}

/// Strict order below `n` within the open interval (`lo`, `hi`).
fn ordered(c: &mut Candidate<'_>, f: &Fields, n: u32, lo: i64, hi: i64) -> bool {
    let within = |v: Value| v.int().is_some_and(|i| lo < i && i < hi);
    let Some(Value::Int(info)) = c.get_where(f.info, n, within) else {
        return false;
    };
    if let Some(l) = c.obj(f.left, n) {
        if !ordered(c, f, l, lo, info) {
            return false;
        }
    }
    match c.obj(f.right, n) {
        Some(r) => ordered(c, f, r, info, hi),
        None => true,
    }
}
