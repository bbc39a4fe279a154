//! The class invariant with dedicated generators (the paper's Sec. 5): the checks of
//! [`crate::invariant::rep_ok`] in the same order of reads, each read saying which values it
//! must hold — the root's parent null, each link null or an entry not visited yet and each new
//! child's parent the entry it hangs from (`is_tree`), `size` the count, a red entry's children
//! black, each key within its ancestors' open interval (ordering). Korat never assigns what
//! they rule out: the same maps in the same order from fewer candidates. The equal black
//! heights stay a plain check: they depend on colours read after the subtree's root.

use ferastrau_sdk::korat::dedicated::is_tree;
use ferastrau_sdk::korat::{Candidate, Value, Visited};

use crate::space::Fields;

/// The colour field's red (the finitization's 0; anything else is black).
const RED: Value = Value::Int(0);

/// `rep_ok` on a Korat candidate, with dedicated generators.
pub fn rep_ok_dedicated(c: &mut Candidate<'_>, f: &Fields) -> bool {
    let Some(root) = c.obj(f.root, 0) else {
        return c.int_is(f.size, 0, 0);
    };
    if !c.obj_is(f.entries.parent, root, None) {
        return false;
    }
    let mut visited = Visited::new();
    visited.insert(root);
    let parent = f.entries.parent;
    if !is_tree(
        c,
        &mut visited,
        &[f.entries.left, f.entries.right],
        |c, p, child| c.obj_is(parent, child, Some(p)),
    ) {
        return false;
    }
    c.int_is(f.size, 0, visited.len() as i64)
        && black_height(c, f, Some(root)) >= 0
        && ordered(c, f, root, i64::MIN, i64::MAX)
}

/// [`crate::invariant::black_height`] with a red entry's children read as black only.
fn black_height(c: &mut Candidate<'_>, f: &Fields, n: Option<u32>) -> i64 {
    let Some(n) = n else {
        return 0;
    };
    let red = c.get(f.entries.color, n) == RED;
    let left = c.obj(f.entries.left, n);
    let right = c.obj(f.entries.right, n);
    if red {
        for child in [left, right].into_iter().flatten() {
            if c.get_where(f.entries.color, child, |v| v != RED).is_none() {
                return -1;
            }
        }
    }
    let in_left = black_height(c, f, left);
    if in_left < 0 {
        return -1;
    }
    let in_right = black_height(c, f, right);
    if in_right != in_left {
        return -1;
    }
    in_left + i64::from(!red)
}

/// Strict order of the keys below `n` within the open interval (`lo`, `hi`).
fn ordered(c: &mut Candidate<'_>, f: &Fields, n: u32, lo: i64, hi: i64) -> bool {
    let Some(key) = c.int_in(f.entries.key, n, lo.saturating_add(1)..hi) else {
        return false;
    };
    if let Some(l) = c.obj(f.entries.left, n) {
        if !ordered(c, f, l, lo, key) {
            return false;
        }
    }
    match c.obj(f.entries.right, n) {
        Some(r) => ordered(c, f, r, key, hi),
        None => true,
    }
}
