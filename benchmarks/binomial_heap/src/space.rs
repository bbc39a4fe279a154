//! The second heap of `union` and rendering. The finitization, field ids, views and decoder
//! are `#[derive(Korat)]`'s (`crate::heap`): at scope n, at most n nodes (or null), size 0..n,
//! key over 0..n−1, degree 0..n; slots head, size, the method's argument `x` (the priority-queue
//! adapter's), then per node key, degree, parent, sibling, child.

pub use crate::heap::BinomialHeapFields as Fields;
use crate::heap::{BinomialHeap, Node, NodeId};

/// The second heap of `union(k)` at scope `n`: the binomial heap of `k` nodes (1 ≤ k ≤ n)
/// holding the keys n−k, …, n−1, built directly (not through the code under test). Its trees
/// follow the 1 bits of `k` from low to high; within each tree, keys increase in pre-order
/// (a node before its children, children from the highest degree down).
pub fn other_heap(k: i64, n: i64) -> BinomialHeap {
    let mut heap = BinomialHeap::default();
    let mut next_key = n - k;
    let mut tail: Option<NodeId> = None;
    let mut d = 0;
    while (1i64 << d) <= k {
        if k & (1i64 << d) != 0 {
            let root = build_tree(&mut heap, d, None, &mut next_key);
            match tail {
                None => heap.head = Some(root),
                Some(t) => heap.nodes[t].sibling = Some(root),
            }
            tail = Some(root);
        }
        d += 1;
    }
    heap.size = k;
    heap
}

fn build_tree(
    heap: &mut BinomialHeap,
    d: i64,
    parent: Option<NodeId>,
    next_key: &mut i64,
) -> NodeId {
    let id = heap.nodes.len();
    heap.nodes.push(Node {
        key: *next_key,
        degree: d,
        parent,
        sibling: None,
        child: None,
    });
    *next_key += 1;
    let mut prev: Option<NodeId> = None;
    for k in (0..d).rev() {
        let c = build_tree(heap, k, Some(id), next_key);
        match prev {
            None => heap.nodes[id].child = Some(c),
            Some(p) => heap.nodes[p].sibling = Some(c),
        }
        prev = Some(c);
    }
    id
}

/// Renders a heap as its root list in brackets, each tree as `key(children…)`:
/// `[3 1(2)]`, `[]` for the empty heap.
pub fn render_heap(h: &BinomialHeap) -> String {
    fn list(h: &BinomialHeap, mut n: Option<NodeId>, out: &mut String) {
        let mut first = true;
        while let Some(i) = n {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(&h.nodes[i].key.to_string());
            if h.nodes[i].child.is_some() {
                out.push('(');
                list(h, h.nodes[i].child, out);
                out.push(')');
            }
            n = h.nodes[i].sibling;
        }
    }
    let mut s = String::from("[");
    list(h, h.head, &mut s);
    s.push(']');
    s
}
