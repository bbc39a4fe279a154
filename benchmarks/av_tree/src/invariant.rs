//! The class invariant of a lookup input (a name-tree and a query), written once over the
//! view `#[derive(Korat)]` gives `AvTree`, for Korat's candidates and real inputs alike.
//!
//! Name-tree: the root value exists, carries the wildcard's name (INS's root has none) and has
//! no siblings; walking breadth-first from it along `attributes` / `values` and the sibling
//! links `next`, no value and no attribute is met twice (so each non-root value has exactly one
//! parent attribute and each attribute one parent value); every attribute has at least one
//! child value; a wildcard value has no attributes; siblings have distinct names; any value
//! may hold a record. Query: given by its list of top-level attributes (null when empty), the
//! same shape with exactly one value per attribute, no records, and no object of the tree.

use ferastrau_sdk::korat::Visited;

use crate::av_tree::{AttributeView, AvTreeView, ValueView, WILDCARD};

/// The objects met so far (the tree's and then the query's: they share no object).
struct Seen {
    values: Visited,
    attributes: Visited,
}

/// The invariant of `lookup`'s input; `query` reads the query's first top-level attribute,
/// after the tree (the candidate's root field, or the real input's id).
pub fn rep_ok<V: AvTreeView>(v: &mut V, query: impl FnOnce(&mut V) -> Option<u32>) -> bool {
    let Some(root) = v.root() else {
        return false;
    };
    let mut seen = Seen {
        values: Visited::new(),
        attributes: Visited::new(),
    };
    if !walk(v, Some(root), false, &mut seen) {
        return false;
    }
    let query = query(v);
    walk(v, query, true, &mut seen)
}

/// Walks the name-tree from its root value, or the query from its top-level attributes.
fn walk<V: AvTreeView>(v: &mut V, start: Option<u32>, query: bool, seen: &mut Seen) -> bool {
    // The visited set doubles as the work list: its insertion order is the BFS queue.
    let mut next = seen.values.len();
    let root = if query {
        if !attributes_ok(v, query, start, seen) {
            return false;
        }
        None
    } else {
        let start = start.expect("a root value");
        seen.values.insert(start);
        if ValueView::name(v, start) != WILDCARD || ValueView::next(v, start).is_some() {
            return false;
        }
        Some(start)
    };
    while next < seen.values.len() {
        let current = seen.values.get(next);
        next += 1;
        let attributes = ValueView::attributes(v, current);
        if Some(current) != root && attributes.is_some() && ValueView::name(v, current) == WILDCARD
        {
            return false;
        }
        if v.record(current).is_some() && query {
            return false;
        }
        if !attributes_ok(v, query, attributes, seen) {
            return false;
        }
    }
    true
}

/// A list of sibling attributes starting at `first`, each with its values (added to the
/// visited values, which the caller walks next).
fn attributes_ok<V: AvTreeView>(
    v: &mut V,
    query: bool,
    first: Option<u32>,
    seen: &mut Seen,
) -> bool {
    let mut a = first;
    let mut names = 0u128;
    while let Some(ai) = a {
        if !seen.attributes.insert(ai) || !distinct(&mut names, AttributeView::name(v, ai)) {
            return false;
        }
        let Some(first) = AttributeView::values(v, ai) else {
            return false;
        };
        let mut x = Some(first);
        let mut value_names = 0u128;
        while let Some(xi) = x {
            if !seen.values.insert(xi) || !distinct(&mut value_names, ValueView::name(v, xi)) {
                return false;
            }
            x = ValueView::next(v, xi);
            if query && x.is_some() {
                return false;
            }
        }
        a = AttributeView::next(v, ai);
    }
    true
}

/// Whether `name` is not among the sibling names in `mask`, which it joins.
fn distinct(mask: &mut u128, name: i64) -> bool {
    let bit = 1u128 << name.clamp(0, 127);
    let fresh = *mask & bit == 0;
    *mask |= bit;
    fresh
}
