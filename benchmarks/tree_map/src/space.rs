//! Korat's side: the finitization (with the method's key argument beside the receiver), the
//! candidate view, decoding a valid candidate, and rendering.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};

use crate::invariant::MapView;
use crate::tree_map::{Entry, TreeMap, BLACK, RED};

/// The one value every entry maps to (the finitization fixes the `value` field), and the value
/// that `put` stores. In Java the value is an `Object`, which no `int` can stand for; here it
/// is an `i64` like `compare`'s result, the keys and `size`, so it is chosen to equal none of
/// them (−1, 0, 1; keys 1..n; sizes 0..n at any scope Korat can reach): with 0, the mutants that
/// put `cmp` for a value (`Some(cmp)`, `value = cmp`, `cmp == value`) coincided with the
/// original and survived.
pub const VALUE: i64 = 1000;

/// Field ids of a tree-map finitization.
pub struct Fields {
    pub root: FieldId,
    pub size: FieldId,
    pub key: FieldId,
    pub value: FieldId,
    pub left: FieldId,
    pub right: FieldId,
    pub parent: FieldId,
    pub color: FieldId,
    /// The method's argument (`key` of `put(key)` / `remove(key)`); absent for the bare
    /// structure.
    pub arg: Option<FieldId>,
}

/// Scope `n`: at most `n` entries (or null), `size` 0..n, keys over 1..n, the value fixed,
/// colour red (0) or black (1). With `with_arg`, the root object also holds the key argument,
/// over the same `n` keys, so that receiver and argument are generated jointly. Slots: root,
/// size, [key argument], then per entry key, value, left, right, parent, color.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let entry = b.class("Entry", n);
    b.field(ROOT, "root", Domain::nullable(entry));
    b.field(ROOT, "size", Domain::ints(0, n64));
    if with_arg {
        b.field(ROOT, "k", Domain::ints(1, n64));
    }
    b.field(entry, "key", Domain::ints(1, n64));
    b.field(entry, "value", Domain::ints(VALUE, VALUE));
    b.field(entry, "left", Domain::nullable(entry));
    b.field(entry, "right", Domain::nullable(entry));
    b.field(entry, "parent", Domain::nullable(entry));
    b.field(entry, "color", Domain::ints(0, 1));
    let fin = b.build();
    let fields = Fields {
        root: fin.field(ROOT, "root"),
        size: fin.field(ROOT, "size"),
        key: fin.field(entry, "key"),
        value: fin.field(entry, "value"),
        left: fin.field(entry, "left"),
        right: fin.field(entry, "right"),
        parent: fin.field(entry, "parent"),
        color: fin.field(entry, "color"),
        arg: with_arg.then(|| fin.field(ROOT, "k")),
    };
    (fin, fields)
}

/// A candidate seen as a red-black tree; every first read of a field is recorded by Korat.
pub struct CandidateMap<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl MapView for CandidateMap<'_, '_> {
    fn root(&mut self) -> Option<u32> {
        self.c.obj(self.f.root, 0)
    }
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    fn key(&mut self, e: u32) -> i64 {
        self.c.int(self.f.key, e)
    }
    fn left(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.left, e)
    }
    fn right(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.right, e)
    }
    fn parent(&mut self, e: u32) -> Option<u32> {
        self.c.obj(self.f.parent, e)
    }
    fn color(&mut self, e: u32) -> bool {
        if self.c.int(self.f.color, e) == 0 {
            RED
        } else {
            BLACK
        }
    }
}

/// Builds the real map of a valid candidate: the reachable entries, numbered in pre-order,
/// with the candidate's own parent links (which the invariant has checked).
pub fn decode_map(c: &mut Candidate<'_>, f: &Fields) -> TreeMap {
    let mut view = CandidateMap { c, f };
    let mut map = TreeMap {
        root: None,
        size: view.size(),
        entries: Vec::new(),
    };
    let root = view.root();
    map.root = copy(&mut view, &mut map, root, None);
    map
}

fn copy(
    v: &mut CandidateMap<'_, '_>,
    map: &mut TreeMap,
    e: Option<u32>,
    parent: Option<usize>,
) -> Option<usize> {
    let e = e?;
    let id = map.entries.len();
    let value = v.c.int(v.f.value, e);
    map.entries.push(Entry {
        key: v.key(e),
        value,
        left: None,
        right: None,
        parent,
        color: v.color(e),
    });
    let (l, r) = (v.left(e), v.right(e));
    let l = copy(v, map, l, Some(id));
    let r = copy(v, map, r, Some(id));
    map.entries[id].left = l;
    map.entries[id].right = r;
    Some(id)
}

/// Renders a map as nested parentheses of `key` + colour (`R`/`B`), e.g. `(2B (1R) (3R))`,
/// with `_` for a missing child next to a present one and `()` for the empty map.
pub fn render_map(m: &TreeMap) -> String {
    fn go(m: &TreeMap, e: usize, depth: usize, out: &mut String) {
        let entry = &m.entries[e];
        out.push('(');
        out.push_str(&entry.key.to_string());
        out.push(if entry.color == RED { 'R' } else { 'B' });
        if depth > m.entries.len() {
            // A cycle (only in a faulty post-state): stop rather than recurse forever.
            out.push_str(" ...)");
            return;
        }
        if entry.left.is_some() || entry.right.is_some() {
            for child in [entry.left, entry.right] {
                out.push(' ');
                match child {
                    Some(c) => go(m, c, depth + 1, out),
                    None => out.push('_'),
                }
            }
        }
        out.push(')');
    }
    let mut s = String::new();
    match m.root {
        None => s.push_str("()"),
        Some(r) => go(m, r, 0, &mut s),
    }
    s
}
