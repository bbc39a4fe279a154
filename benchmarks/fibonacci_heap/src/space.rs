//! Korat's side: the finitization (the heap plus the method's argument in the root object),
//! the candidate view, decoding a valid candidate, and rendering.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};

use crate::heap::{FibonacciHeap, Node, NodeId};
use crate::invariant::HeapView;

/// The one value of `mark` in generated inputs (1 = marked). Every node starts marked, so a
/// `delete` below the second level cuts a whole chain of ancestors (CASCADING-CUT's recursive
/// branch); with unmarked nodes that branch could never run within one call.
pub const MARK: i64 = 1;

/// Field ids of a Fibonacci-heap finitization.
pub struct Fields {
    /// The scope the finitization was built for.
    pub scope: u32,
    pub nodes: FieldId,
    pub min: FieldId,
    pub size: FieldId,
    pub key: FieldId,
    pub degree: FieldId,
    pub parent: FieldId,
    pub child: FieldId,
    pub left: FieldId,
    pub right: FieldId,
    pub mark: FieldId,
    /// The method's integer argument; absent for the bare structure and for `extractMin`.
    pub arg: Option<FieldId>,
}

/// The heap at scope `n`: at most `n` nodes (or null) for `nodes`, `min` and every link; size
/// 0..n; key 0..n−1; degree 0..n−1; mark fixed to [`MARK`]. With `arg = Some((lo, hi))` the
/// root object also holds the method's argument over lo..hi, generated jointly with the heap.
/// Slots: nodes, min, size, [arg], then per node key, degree, parent, child, left, right, mark
/// (the declaration order).
pub fn finitization(root_name: &str, n: u32, arg: Option<(i64, i64)>) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let node = b.class("Node", n);
    b.field(ROOT, "nodes", Domain::nullable(node));
    b.field(ROOT, "min", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    if let Some((lo, hi)) = arg {
        b.field(ROOT, "x", Domain::ints(lo, hi));
    }
    b.field(node, "key", Domain::ints(0, n64 - 1));
    b.field(node, "degree", Domain::ints(0, n64 - 1));
    b.field(node, "parent", Domain::nullable(node));
    b.field(node, "child", Domain::nullable(node));
    b.field(node, "left", Domain::nullable(node));
    b.field(node, "right", Domain::nullable(node));
    b.field(node, "mark", Domain::ints(MARK, MARK));
    let fin = b.build();
    let fields = Fields {
        scope: n,
        nodes: fin.field(ROOT, "nodes"),
        min: fin.field(ROOT, "min"),
        size: fin.field(ROOT, "size"),
        key: fin.field(node, "key"),
        degree: fin.field(node, "degree"),
        parent: fin.field(node, "parent"),
        child: fin.field(node, "child"),
        left: fin.field(node, "left"),
        right: fin.field(node, "right"),
        mark: fin.field(node, "mark"),
        arg: arg.map(|_| fin.field(ROOT, "x")),
    };
    (fin, fields)
}

/// A candidate seen as a heap; every first read of a field is recorded by Korat.
pub struct CandidateHeap<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl HeapView for CandidateHeap<'_, '_> {
    fn nodes(&mut self) -> Option<u32> {
        self.c.obj(self.f.nodes, 0)
    }
    fn min(&mut self) -> Option<u32> {
        self.c.obj(self.f.min, 0)
    }
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    fn key(&mut self, n: u32) -> i64 {
        self.c.int(self.f.key, n)
    }
    fn degree(&mut self, n: u32) -> i64 {
        self.c.int(self.f.degree, n)
    }
    fn parent(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.parent, n)
    }
    fn child(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.child, n)
    }
    fn left(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.left, n)
    }
    fn right(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.right, n)
    }
}

/// Builds the real heap of a valid candidate: the reachable nodes, numbered in the order a
/// depth-first walk of the rings (from `nodes`, rightwards, children before the next sibling)
/// meets them.
pub fn decode_heap(c: &mut Candidate<'_>, f: &Fields) -> FibonacciHeap {
    let mut order: Vec<u32> = Vec::new();
    let mut v = CandidateHeap { c, f };
    if let Some(first) = v.nodes() {
        collect(&mut v, first, &mut order);
    }
    let real = |n: Option<u32>| n.map(|n| order.iter().position(|&o| o == n).expect("reached"));
    let mut heap = FibonacciHeap {
        nodes: real(v.nodes()),
        min: real(v.min()),
        size: v.size(),
        pool: Vec::with_capacity(order.len()),
    };
    for &n in &order {
        heap.pool.push(Node {
            key: v.key(n),
            degree: v.degree(n),
            parent: real(v.parent(n)),
            child: real(v.child(n)),
            left: real(v.left(n)),
            right: real(v.right(n)),
            mark: v.c.int(f.mark, n) != 0,
        });
    }
    heap
}

fn collect(v: &mut CandidateHeap<'_, '_>, first: u32, order: &mut Vec<u32>) {
    let mut x = first;
    loop {
        order.push(x);
        if let Some(c) = v.child(x) {
            collect(v, c, order);
        }
        x = v.right(x).expect("a valid ring");
        if x == first {
            break;
        }
    }
}

/// The second heap of `union(k)` at scope `n`: `k` one-node roots (1 ≤ k ≤ n) holding the keys
/// n−1, n−2, …, n−k in ring order, `nodes` at the first (the largest key) and `min` at the
/// last, unmarked, as k calls of FIB-HEAP-INSERT would leave them; built directly, not
/// through the code under test.
pub fn other_heap(k: i64, n: i64) -> FibonacciHeap {
    let mut heap = FibonacciHeap::default();
    let count = k as usize;
    for i in 0..count {
        heap.pool.push(Node {
            key: n - 1 - i as i64,
            degree: 0,
            parent: None,
            child: None,
            left: Some((i + count - 1) % count),
            right: Some((i + 1) % count),
            mark: false,
        });
    }
    heap.nodes = Some(0);
    heap.min = Some(count - 1);
    heap.size = k;
    heap
}

/// Renders a heap as its root ring from `nodes` in brackets, each tree as `key(child ring)`,
/// the minimum starred: `[2 *0(1)]`, `[]` for the empty heap.
pub fn render_heap(h: &FibonacciHeap) -> String {
    fn ring(h: &FibonacciHeap, first: NodeId, out: &mut String) {
        let mut x = first;
        loop {
            if Some(x) == h.min {
                out.push('*');
            }
            out.push_str(&h.pool[x].key.to_string());
            if let Some(c) = h.pool[x].child {
                out.push('(');
                ring(h, c, out);
                out.push(')');
            }
            x = h.pool[x].right.expect("a valid ring");
            if x == first {
                break;
            }
            out.push(' ');
        }
    }
    let mut s = String::from("[");
    if let Some(first) = h.nodes {
        ring(h, first, &mut s);
    }
    s.push(']');
    s
}
