//! The class invariant of a lookup input (a name-tree and a query), written once over a
//! read-only view and parameterised by the finitization's [`Config`].
//!
//! Name-tree: the root value exists and has no siblings; walking breadth-first from it along
//! `attributes` / `values` and the sibling links `next`, no value and no attribute is met twice
//! (so each non-root value has exactly one parent attribute and each attribute one parent
//! value); every attribute has at least one child value; a wildcard value has no attributes;
//! siblings are ordered by name (per [`Siblings`]); records hang under values as the config
//! says. Query: the same, plus exactly one value per attribute; its values hold no records.

use ferastrau_sdk::korat::Visited;

use crate::av_tree::{AvTree, WILDCARD};
use crate::space::{Config, Records, RootName, Siblings};

/// Read access to a lookup input. `q` selects the query's pools when the finitization gives
/// the query pools of its own (the real structure ignores it: one arena holds both).
pub trait AvView {
    fn root(&mut self) -> Option<u32>;
    fn query(&mut self) -> Option<u32>;
    fn value_name(&mut self, q: bool, v: u32) -> i64;
    fn value_attributes(&mut self, q: bool, v: u32) -> Option<u32>;
    fn value_next(&mut self, q: bool, v: u32) -> Option<u32>;
    fn value_record(&mut self, q: bool, v: u32) -> Option<u32>;
    fn attribute_name(&mut self, q: bool, a: u32) -> i64;
    fn attribute_values(&mut self, q: bool, a: u32) -> Option<u32>;
    fn attribute_next(&mut self, q: bool, a: u32) -> Option<u32>;
    fn record_next(&mut self, r: u32) -> Option<u32>;
}

/// The objects met so far.
pub struct Seen {
    values: Visited,
    attributes: Visited,
    records: Visited,
}

impl Seen {
    fn new() -> Self {
        Seen {
            values: Visited::new(),
            attributes: Visited::new(),
            records: Visited::new(),
        }
    }
}

/// The invariant of `lookup`'s input under `cfg`.
pub fn rep_ok(v: &mut impl AvView, cfg: &Config) -> bool {
    let root = match v.root() {
        None => return false,
        Some(r) => r,
    };
    let mut seen = Seen::new();
    if !is_name_tree(v, cfg, root, &mut seen) {
        return false;
    }
    let query = v.query();
    if cfg.query_root_value && query.is_none() {
        return false;
    }
    if cfg.shared_pools && cfg.disjoint {
        is_query(v, cfg, query, &mut seen)
    } else {
        is_query(v, cfg, query, &mut Seen::new())
    }
}

/// The name-tree below `root`.
pub fn is_name_tree(v: &mut impl AvView, cfg: &Config, root: u32, seen: &mut Seen) -> bool {
    walk(v, cfg, Some(root), false, seen)
}

/// The query: a name-tree with exactly one value per attribute and no records, given by its
/// root value or (INS's name-specifier) by its list of top-level attributes, null when empty.
pub fn is_query(v: &mut impl AvView, cfg: &Config, query: Option<u32>, seen: &mut Seen) -> bool {
    walk(v, cfg, query, true, seen)
}

/// Whether `name` may follow the sibling names in `mask` (last one `prev`).
fn sibling_ok(cfg: &Config, prev: Option<i64>, mask: &mut u128, name: i64) -> bool {
    match cfg.siblings {
        Siblings::Sorted => prev.is_none_or(|p| p < name),
        Siblings::Distinct => {
            let bit = 1u128 << (name.clamp(0, 127) as u32);
            if *mask & bit != 0 {
                return false;
            }
            *mask |= bit;
            true
        }
        Siblings::Free => true,
    }
}

/// Walks a name-tree (or a query) from its root value, or for a query without a root value
/// from its list of top-level attributes.
fn walk(
    v: &mut impl AvView,
    cfg: &Config,
    start: Option<u32>,
    query: bool,
    seen: &mut Seen,
) -> bool {
    // The query reads its own pools when it has them.
    let q = query && !cfg.shared_pools;
    let wildcards_allowed = if query {
        cfg.query_wildcards
    } else {
        cfg.tree_wildcards
    };
    let lowest_name =
        if (cfg.shared_pools && (cfg.tree_wildcards || cfg.query_wildcards)) || wildcards_allowed {
            WILDCARD
        } else {
            1
        };
    // The visited set doubles as the work list: its insertion order is the BFS queue.
    let mut next = seen.values.len();
    let root = if !query || cfg.query_root_value {
        let start = start.expect("a root value");
        if !seen.values.insert(start) {
            return false;
        }
        if cfg.root_name == RootName::Fixed && v.value_name(q, start) != lowest_name {
            return false;
        }
        if v.value_next(q, start).is_some() {
            return false;
        }
        Some(start)
    } else {
        if !attributes_ok(v, cfg, q, query, wildcards_allowed, start, seen) {
            return false;
        }
        None
    };
    while next < seen.values.len() {
        let current = seen.values.get(next);
        let is_root = Some(current) == root;
        next += 1;
        let attributes = v.value_attributes(q, current);
        if !is_root && attributes.is_some() && v.value_name(q, current) == WILDCARD {
            return false;
        }
        if !records_ok(
            v,
            cfg,
            q,
            query,
            current,
            is_root,
            attributes.is_some(),
            seen,
        ) {
            return false;
        }
        if !attributes_ok(v, cfg, q, query, wildcards_allowed, attributes, seen) {
            return false;
        }
    }
    true
}

/// A list of sibling attributes starting at `first`, each with its values (added to the
/// visited values, which the caller walks next).
fn attributes_ok(
    v: &mut impl AvView,
    cfg: &Config,
    q: bool,
    query: bool,
    wildcards_allowed: bool,
    first: Option<u32>,
    seen: &mut Seen,
) -> bool {
    let mut a = first;
    let mut prev_a = None;
    let mut mask_a = 0u128;
    while let Some(ai) = a {
        if !seen.attributes.insert(ai) {
            return false;
        }
        let an = v.attribute_name(q, ai);
        if !sibling_ok(cfg, prev_a, &mut mask_a, an) {
            return false;
        }
        prev_a = Some(an);
        let first = match v.attribute_values(q, ai) {
            None => return false,
            Some(x) => x,
        };
        let mut x = Some(first);
        let mut prev_v = None;
        let mut mask_v = 0u128;
        while let Some(xi) = x {
            if !seen.values.insert(xi) {
                return false;
            }
            let vn = v.value_name(q, xi);
            if vn == WILDCARD && !wildcards_allowed {
                return false;
            }
            if !sibling_ok(cfg, prev_v, &mut mask_v, vn) {
                return false;
            }
            prev_v = Some(vn);
            x = v.value_next(q, xi);
            if query && x.is_some() {
                return false;
            }
        }
        a = v.attribute_next(q, ai);
    }
    true
}

/// The records under value `current`.
#[allow(clippy::too_many_arguments)]
fn records_ok(
    v: &mut impl AvView,
    cfg: &Config,
    q: bool,
    query: bool,
    current: u32,
    is_root: bool,
    has_attributes: bool,
    seen: &mut Seen,
) -> bool {
    if cfg.records == Records::Absent || (query && !cfg.query_records_null) {
        return true;
    }
    let first = v.value_record(q, current);
    if first.is_none() {
        return true;
    }
    if query || (is_root && !cfg.root_records) || (cfg.leaf_records && has_attributes) {
        return false;
    }
    if cfg.records == Records::Lists {
        let mut r = first;
        while let Some(ri) = r {
            if !seen.records.insert(ri) {
                return false;
            }
            r = v.record_next(ri);
        }
    }
    true
}

/// A real input seen through [`AvView`]: the name-tree and the query in one arena.
pub struct RealAv<'a> {
    pub tree: &'a AvTree,
    pub query: Option<usize>,
}

impl AvView for RealAv<'_> {
    fn root(&mut self) -> Option<u32> {
        self.tree.root.map(|x| x as u32)
    }
    fn query(&mut self) -> Option<u32> {
        self.query.map(|x| x as u32)
    }
    fn value_name(&mut self, _q: bool, v: u32) -> i64 {
        self.tree.values[v as usize].name
    }
    fn value_attributes(&mut self, _q: bool, v: u32) -> Option<u32> {
        self.tree.values[v as usize].attributes.map(|x| x as u32)
    }
    fn value_next(&mut self, _q: bool, v: u32) -> Option<u32> {
        self.tree.values[v as usize].next.map(|x| x as u32)
    }
    fn value_record(&mut self, _q: bool, v: u32) -> Option<u32> {
        self.tree.values[v as usize].record.map(|x| x as u32)
    }
    fn attribute_name(&mut self, _q: bool, a: u32) -> i64 {
        self.tree.attributes[a as usize].name
    }
    fn attribute_values(&mut self, _q: bool, a: u32) -> Option<u32> {
        self.tree.attributes[a as usize].values.map(|x| x as u32)
    }
    fn attribute_next(&mut self, _q: bool, a: u32) -> Option<u32> {
        self.tree.attributes[a as usize].next.map(|x| x as u32)
    }
    fn record_next(&mut self, r: u32) -> Option<u32> {
        self.tree.records[r as usize].next.map(|x| x as u32)
    }
}
