//! The class invariant of the red-black tree, written once over a read-only view.
//!
//! Korat runs it on candidates (a `View`, whose reads are recorded) and the runner runs it on
//! real post-states (a `Real`), both `#[derive(Korat)]`'s (`crate::tree_map`). Order of the
//! checks (and so of the first reads, which drive Korat's pruning): `root`, the root's
//! `parent`, a breadth-first walk along `left`/`right` that checks each child's `parent`, the
//! entry count against `size`, the colours (a red entry has black children; every path from an
//! entry down to a null has the same number of black entries), and last the keys (strict
//! binary-search-tree order). As in the paper's benchmark, the root is **not** required to be
//! black.

use ferastrau_sdk::korat::Visited;

pub use crate::tree_map::TreeMapView as MapView;
use crate::tree_map::{BLACK, RED};

/// The class invariant.
pub fn rep_ok(v: &mut impl MapView) -> bool {
    // an empty map has size zero
    let root = match v.root() {
        None => return v.size() == 0,
        Some(r) => r,
    };
    // the root has no parent
    if v.parent(root).is_some() {
        return false;
    }
    // the entries form a tree whose parent links are right, with `size` entries
    match is_tree(v, root) {
        Some(count) if count == v.size() => {}
        _ => return false,
    }
    // red entries have black children and black heights agree
    if !is_red_black(v, root) {
        return false;
    }
    // keys are in strict binary-search-tree order
    is_ordered(v, root, None, None)
}

/// Breadth-first walk from `root`: fails on a second visit of any entry or on a child whose
/// `parent` is not the entry it hangs from; otherwise returns the number of entries.
pub fn is_tree(v: &mut impl MapView, root: u32) -> Option<i64> {
    // The visited set doubles as the work list: its insertion order is the BFS queue.
    let mut visited = Visited::new();
    visited.insert(root);
    let mut next = 0;
    while next < visited.len() {
        let current = visited.get(next);
        next += 1;
        if let Some(l) = v.left(current) {
            if !visited.insert(l) || v.parent(l) != Some(current) {
                return None;
            }
        }
        if let Some(r) = v.right(current) {
            if !visited.insert(r) || v.parent(r) != Some(current) {
                return None;
            }
        }
    }
    Some(visited.len() as i64)
}

/// Whether no red entry has a red child and every path has the same number of black entries.
pub fn is_red_black(v: &mut impl MapView, root: u32) -> bool {
    black_height(v, Some(root)) >= 0
}

/// The number of black entries on every path from `n` down to a null (null itself counts 0),
/// or −1 if the paths disagree or a red entry has a red child below `n`.
pub fn black_height(v: &mut impl MapView, n: Option<u32>) -> i64 {
    let n = match n {
        None => return 0,
        Some(n) => n,
    };
    let color = v.color(n);
    let left = v.left(n);
    let right = v.right(n);
    if color == RED {
        if let Some(l) = left {
            if v.color(l) == RED {
                return -1;
            }
        }
        if let Some(r) = right {
            if v.color(r) == RED {
                return -1;
            }
        }
    }
    let in_left = black_height(v, left);
    if in_left < 0 {
        return -1;
    }
    let in_right = black_height(v, right);
    if in_right != in_left {
        return -1;
    }
    in_left + i64::from(color == BLACK)
}

/// Strict binary-search-tree order of the keys below `n`, with exclusive bounds.
pub fn is_ordered(v: &mut impl MapView, n: u32, min: Option<i64>, max: Option<i64>) -> bool {
    let key = v.key(n);
    if min.is_some_and(|m| key <= m) || max.is_some_and(|m| key >= m) {
        return false;
    }
    if let Some(l) = v.left(n) {
        if !is_ordered(v, l, min, Some(key)) {
            return false;
        }
    }
    if let Some(r) = v.right(n) {
        if !is_ordered(v, r, Some(key), max) {
            return false;
        }
    }
    true
}
