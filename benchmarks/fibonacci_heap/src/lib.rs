//! FibonacciHeap (the paper's Table 1; Cormen–Leiserson–Rivest ch. 20) as a Ferastrau
//! benchmark.
//!
//! The four target methods, their inputs, calls, postconditions and rendering are the shared
//! priority-queue adapter's ([`ferastrau_sdk::priority_queue`]); at scope n each heap is
//! paired with every argument value: `insert(x)` and `delete(x)` with x over 0..n,
//! `extractMin()` alone, `union(k)` with k over 1..n (a second heap of k one-node trees holding the keys
//! n−k..n−1, [`space::other_heap`]). Together 3(n+1) inputs per heap, the paper's `# inputs`.
//! This crate gives the heap: its finitization, invariant, decoder and operations, and its
//! empty heap, from which `ferastrau sequences` calls them.

pub mod dedicated;
pub mod heap;
pub mod invariant;
pub mod space;

use ferastrau_sdk::korat::view::{Real, View};
use ferastrau_sdk::korat::Candidate;
use ferastrau_sdk::priority_queue::{self, PriorityQueue};
pub use ferastrau_sdk::priority_queue::{
    arg_domain, Ret, DELETE, EXTRACT_MIN, INSERT, METHODS, UNION,
};
use ferastrau_sdk::structure::serialize;

pub use heap::FibonacciHeap;
use invariant::rep_ok;
use space::{other_heap, render_heap, Fields};

/// The benchmark.
pub struct FibonacciHeapBench;

/// One call: the receiver, the argument, and for `union` the second heap built from it.
pub type Call = priority_queue::Call<FibonacciHeap>;

impl FibonacciHeapBench {
    /// The keys of a heap, sorted (the abstraction; the heap satisfies the invariant).
    pub fn keys(h: &FibonacciHeap) -> Vec<i64> {
        fn ring(h: &FibonacciHeap, first: usize, out: &mut Vec<i64>) {
            let mut x = first;
            loop {
                out.push(h.pool[x].key);
                if let Some(c) = h.pool[x].child {
                    ring(h, c, out);
                }
                x = h.pool[x].right.expect("a valid ring");
                if x == first {
                    break;
                }
            }
        }
        let mut v = Vec::new();
        if let Some(first) = h.nodes {
            ring(h, first, &mut v);
        }
        v.sort_unstable();
        v
    }
}

impl PriorityQueue for FibonacciHeapBench {
    type Heap = FibonacciHeap;

    fn name(&self) -> &'static str {
        "FibonacciHeap"
    }
    fn candidate_ok(&self, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut View::new(c, f))
    }
    const HAS_DEDICATED: bool = true;
    fn candidate_ok_dedicated(&self, f: &Fields, c: &mut Candidate<'_>) -> bool {
        dedicated::rep_ok_dedicated(c, f)
    }
    fn other_heap(&self, k: i64, n: i64) -> FibonacciHeap {
        other_heap(k, n)
    }
    fn rep_ok(&self, h: &FibonacciHeap) -> bool {
        rep_ok(&mut Real(h))
    }
    fn sorted_keys(&self, h: &FibonacciHeap) -> Vec<i64> {
        Self::keys(h)
    }
    const STRUCTURE: bool = true;
    /// Java serialization of the heap object: `nodes`, `min`, `size`, and every node they
    /// reach with all its fields.
    fn structure(&self, h: &FibonacciHeap) -> String {
        serialize(h)
    }
    fn render_heap(&self, h: &FibonacciHeap) -> String {
        render_heap(h)
    }
    fn insert(&self, h: &mut FibonacciHeap, x: i64) {
        h.insert(x)
    }
    fn extract_min(&self, h: &mut FibonacciHeap) -> Option<i64> {
        h.extract_min()
    }
    fn union(&self, h: &mut FibonacciHeap, other: FibonacciHeap) {
        h.union_heap(other)
    }
    fn delete(&self, h: &mut FibonacciHeap, x: i64) -> bool {
        h.delete(x)
    }
}

ferastrau_sdk::export!(FibonacciHeapBench);
