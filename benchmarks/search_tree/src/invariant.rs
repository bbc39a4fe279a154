//! The class invariant (`repOk` of Appendix A), written once over a read-only view.
//!
//! Korat runs it on candidates (a `View`, whose reads are recorded) and the runner runs it on
//! real post-states (a `Real`), both `#[derive(Korat)]`'s (`crate::tree`). It reads the
//! fields in the paper's order: `root`, then a breadth-first walk along `left` and `right`,
//! then the node count against `size`, then `info` in order — the order that gives the
//! original Korat's candidate counts.

use ferastrau_sdk::korat::Visited;

pub use crate::tree::SearchTreeView as TreeView;

/// The class invariant.
pub fn rep_ok(v: &mut impl TreeView) -> bool {
    // checks that empty tree has size zero
    let root = match v.root() {
        None => return v.size() == 0,
        Some(r) => r,
    };
    // checks that the input is a tree
    if !is_acyclic(v, root) {
        return false;
    }
    // checks that size is consistent
    if num_nodes(v, Some(root)) != v.size() {
        return false;
    }
    // checks that data is ordered
    if !is_ordered(v, root, None, None) {
        return false;
    }
    true
}

/// Breadth-first walk from `root` that fails on a second visit of any node.
pub fn is_acyclic(v: &mut impl TreeView, root: u32) -> bool {
    // The visited set doubles as the work list: its insertion order is the BFS queue.
    let mut visited = Visited::new();
    visited.insert(root);
    let mut next = 0;
    while next < visited.len() {
        let current = visited.get(next);
        next += 1;
        if let Some(l) = v.left(current) {
            if !visited.insert(l) {
                return false;
            }
        }
        if let Some(r) = v.right(current) {
            if !visited.insert(r) {
                return false;
            }
        }
    }
    true
}

/// Number of nodes reachable from `n`.
pub fn num_nodes(v: &mut impl TreeView, n: Option<u32>) -> i64 {
    match n {
        None => 0,
        Some(n) => {
            let l = v.left(n);
            let in_left = num_nodes(v, l);
            let r = v.right(n);
            1 + in_left + num_nodes(v, r)
        }
    }
}

/// Strict binary-search-tree order below `n`, with exclusive bounds.
pub fn is_ordered(v: &mut impl TreeView, n: u32, min: Option<i64>, max: Option<i64>) -> bool {
    let info = v.info(n);
    if min.is_some_and(|m| info <= m) || max.is_some_and(|m| info >= m) {
        return false;
    }
    if let Some(l) = v.left(n) {
        if !is_ordered(v, l, min, Some(info)) {
            return false;
        }
    }
    if let Some(r) = v.right(n) {
        if !is_ordered(v, r, Some(info), max) {
            return false;
        }
    }
    true
}
