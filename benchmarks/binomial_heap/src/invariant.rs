//! The class invariant (`repOk`), written once over a read-only view.
//!
//! Korat runs it on candidates (a `View`, whose reads are recorded) and the runner runs it on
//! real post-states (a `Real`), both `#[derive(Korat)]`'s (`crate::heap`). A binomial heap
//! of `size` nodes is a forest of binomial trees whose degrees are the positions of the 1 bits
//! of `size`, in increasing order along the root list; a root has no parent; the children of a
//! node of degree k have degrees k−1, …, 0 in list order and point back to it; no node is met
//! twice; a child's key is at least its parent's (duplicates allowed).
//!
//! Read order: `size`, `head`, then the shape in a depth-first walk of the root list in which
//! each node reads `parent`, `degree`, its children (recursively) and finally `sibling`; then
//! every key, in the walk's order. Reading `size` first fixes every root's degree, so a wrong
//! degree fails at its first read; reading the keys last (Korat backtracks on the last field
//! read first) enumerates key assignments only for complete, well-formed shapes.

use ferastrau_sdk::korat::Visited;

pub use crate::heap::BinomialHeapView as HeapView;

/// Largest degree the invariant accepts (2^62 nodes); keeps the shifts below in range on the
/// arbitrary states a faulty mutant may build.
const MAX_DEGREE: i64 = 62;

/// The class invariant.
pub fn rep_ok(v: &mut impl HeapView) -> bool {
    let size = v.size();
    if size < 0 {
        return false;
    }
    let mut x = v.head();
    // The 1 bits of `remaining` are the degrees of the roots not yet seen.
    let mut remaining = size;
    let mut visited = Visited::new();
    while let Some(root) = x {
        if !visited.insert(root) {
            return false;
        }
        if v.parent(root).is_some() {
            return false;
        }
        let d = v.degree(root);
        if !(0..=MAX_DEGREE).contains(&d) {
            return false;
        }
        // The next root's degree is the lowest remaining 1 bit of size.
        if remaining & ((1i64 << d) - 1) != 0 || remaining & (1i64 << d) == 0 {
            return false;
        }
        remaining -= 1i64 << d;
        if !is_binomial_tree(v, root, d, &mut visited) {
            return false;
        }
        x = v.sibling(root);
    }
    if remaining != 0 {
        return false;
    }
    // Heap order, in the walk's order (a parent before its children).
    for i in 0..visited.len() {
        let n = visited.get(i);
        if let Some(p) = v.parent(n) {
            if v.key(n) < v.key(p) {
                return false;
            }
        }
    }
    true
}

/// Whether `n`, of degree `d` (already checked), roots a binomial tree B_d of nodes not
/// visited before: its children have degrees d−1, …, 0 and `n` as their parent.
pub fn is_binomial_tree(v: &mut impl HeapView, n: u32, d: i64, visited: &mut Visited) -> bool {
    let mut c = v.child(n);
    let mut k = d - 1;
    while k >= 0 {
        let child = match c {
            None => return false,
            Some(child) => child,
        };
        if !visited.insert(child) {
            return false;
        }
        if v.parent(child) != Some(n) {
            return false;
        }
        if v.degree(child) != k {
            return false;
        }
        if !is_binomial_tree(v, child, k, visited) {
            return false;
        }
        c = v.sibling(child);
        k -= 1;
    }
    c.is_none()
}
