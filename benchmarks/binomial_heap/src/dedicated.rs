//! The class invariant with dedicated generators (the paper's Sec. 5): the checks of
//! [`crate::invariant::rep_ok`] in the same order of reads, each read saying which values it
//! must hold. The size fixes the shape: `head` is null exactly when the size is 0, each root's
//! degree is the lowest 1 bit of the size not yet covered, a root's `sibling` is null exactly
//! when every bit is covered; in a binomial tree each child link must reach a node not visited
//! yet, whose `parent` and `degree` are fixed by its position, and the last link is null.
//! Heap order bounds a key by its parent's when that key is already fixed, or else the
//! parent's key by the child's ([`Candidate::fixed`]). Korat never assigns what they rule out:
//! the same heaps in the same order from fewer candidates.

use ferastrau_sdk::korat::{Candidate, FieldId, Value, Visited};

use crate::space::Fields;

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let size = c.int(f.size, 0);
    if size < 0 {
        return false;
    }
    let Some(mut x) = c.obj_where(f.head, 0, |t| t.is_some() == (size != 0)) else {
        return false;
    };
    // The 1 bits of `remaining` are the degrees of the roots not yet seen.
    let mut remaining = size;
    let mut visited = Visited::new();
    while let Some(root) = x {
        visited.insert(root);
        if !c.obj_is(f.nodes.parent, root, None) {
            return false;
        }
        let d = i64::from(remaining.trailing_zeros());
        if !c.int_is(f.nodes.degree, root, d) {
            return false;
        }
        remaining -= 1i64 << d;
        if !binomial_tree(c, f, root, d, &mut visited) {
            return false;
        }
        let seen = &visited;
        let Some(next) = c.obj_where(f.nodes.sibling, root, |t| match t {
            None => remaining == 0,
            Some(n) => remaining != 0 && !seen.contains(n),
        }) else {
            return false;
        };
        x = next;
    }
    heap_ordered(c, f, &visited)
}

/// Whether `n` of degree `d` roots a binomial tree of nodes not visited before: children of
/// degrees d−1, …, 0 along `child` then `sibling`, each with `n` as its parent, the last
/// link null.
fn binomial_tree(c: &mut Candidate<'_>, f: &Fields, n: u32, d: i64, visited: &mut Visited) -> bool {
    let mut link: (FieldId, u32) = (f.nodes.child, n);
    for k in (0..d).rev() {
        let Some(child) = c.link_fresh(link.0, link.1, visited) else {
            return false;
        };
        visited.insert(child);
        if !c.obj_is(f.nodes.parent, child, Some(n))
            || !c.int_is(f.nodes.degree, child, k)
            || !binomial_tree(c, f, child, k, visited)
        {
            return false;
        }
        link = (f.nodes.sibling, child);
    }
    c.obj_is(link.0, link.1, None)
}

/// No key below its parent's, in the walk's order (a parent before its children).
fn heap_ordered(c: &mut Candidate<'_>, f: &Fields, visited: &Visited) -> bool {
    for i in 0..visited.len() {
        let n = visited.get(i);
        let Some(p) = c.obj(f.nodes.parent, n) else {
            continue;
        };
        let ok = match c.fixed(f.nodes.key, p).and_then(Value::int) {
            Some(kp) => c.int_in(f.nodes.key, n, kp..).is_some(),
            None => {
                let kn = c.int(f.nodes.key, n);
                c.int_in(f.nodes.key, p, ..=kn).is_some()
            }
        };
        if !ok {
            return false;
        }
    }
    true
}
