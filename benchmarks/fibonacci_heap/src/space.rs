//! The second heap of `union` and rendering. The finitization, field ids, views and decoder
//! are `#[derive(Korat)]`'s (`crate::heap`): at scope n, at most n nodes (or null) for `nodes`,
//! `min` and every link, size 0..n, key 0..n−1, degree 0..n−1, mark fixed to [`MARK`]; slots
//! nodes, min, size, the method's argument `x` (the priority-queue adapter's), then per node
//! key, degree, parent, child, left, right, mark.

pub use crate::heap::FibonacciHeapFields as Fields;
use crate::heap::{FibonacciHeap, Node, NodeId};

/// The one value of `mark` in generated inputs (1 = marked). Every node starts marked, so a
/// `delete` below the second level cuts a whole chain of ancestors (CASCADING-CUT's recursive
/// branch); with unmarked nodes that branch could never run within one call.
pub const MARK: i64 = 1;

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
