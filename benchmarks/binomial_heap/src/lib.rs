//! BinomialHeap (the paper's Table 1; Cormen–Leiserson–Rivest ch. 19) as a Ferastrau
//! benchmark.
//!
//! The four target methods and their inputs at scope n (every heap is paired with every
//! argument value, generated jointly by Korat):
//! - `insert(x)`, x over 0..n (the n key values and one larger): n+1 inputs per heap;
//! - `extractMin()`: one input per heap;
//! - `union(k)`, k over 1..n: the heap is united with a second heap of k nodes holding the
//!   keys n−k..n−1 ([`space::other_heap`]): n inputs per heap;
//! - `delete(x)`, x over 0..n: n+1 inputs per heap.
//!
//! Together 3(n+1) inputs per heap, the paper's `# inputs`. Outputs are the return value and
//! the multiset of keys of the post-state.

pub mod heap;
pub mod invariant;
pub mod space;

use ferastrau_worker::korat::{Candidate, Finitization};
use ferastrau_worker::Benchmark;

pub use heap::BinomialHeap;
use invariant::{rep_ok, RealHeap};
use space::{decode_heap, other_heap, render_heap, CandidateHeap, Fields};

/// The benchmark.
pub struct BinomialHeapBench;

/// One call: the receiver, the argument, and for `union` the second heap built from it.
#[derive(Clone, Debug)]
pub struct Call {
    pub heap: BinomialHeap,
    /// The argument (`x` of insert/delete, `k` of union; 0 for extractMin).
    pub x: i64,
    /// `union`'s second heap.
    pub other: Option<BinomialHeap>,
}

/// A call's return value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ret {
    /// `insert` and `union` return nothing.
    Void,
    /// `delete`: whether the key was present.
    Bool(bool),
    /// `extractMin`: the smallest key, `None` on the empty heap.
    Key(Option<i64>),
}

/// Method indices, in the order of [`METHODS`].
pub const INSERT: usize = 0;
pub const EXTRACT_MIN: usize = 1;
pub const UNION: usize = 2;
pub const DELETE: usize = 3;

const METHODS: &[&str] = &["insert", "extractMin", "union", "delete"];

/// The argument domain of `method` at scope `n`, `None` for a method without argument.
pub fn arg_domain(method: usize, n: u32) -> Option<(i64, i64)> {
    let n = i64::from(n);
    match method {
        INSERT | DELETE => Some((0, n)),
        UNION => Some((1, n)),
        _ => None,
    }
}

impl BinomialHeapBench {
    /// The keys of a heap, sorted (the abstraction; the heap satisfies the invariant).
    pub fn keys(h: &BinomialHeap) -> Vec<i64> {
        fn go(h: &BinomialHeap, mut n: Option<usize>, out: &mut Vec<i64>) {
            while let Some(i) = n {
                out.push(h.nodes[i].key);
                go(h, h.nodes[i].child, out);
                n = h.nodes[i].sibling;
            }
        }
        let mut v = Vec::new();
        go(h, h.head, &mut v);
        v.sort_unstable();
        v
    }
}

impl Benchmark for BinomialHeapBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Ret;
    type Abs = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(
            &format!("BinomialHeap_{}", METHODS[method]),
            scope,
            arg_domain(method, scope),
        )
    }

    fn precondition(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut CandidateHeap { c, f })
    }

    fn decode(&self, method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        let x = match f.arg {
            Some(a) => c.int(a, 0),
            None => 0,
        };
        let other = (method == UNION).then(|| other_heap(x, i64::from(f.scope)));
        Call {
            heap: decode_heap(c, f),
            x,
            other,
        }
    }

    fn run(&self, method: usize, input: &mut Call) -> Ret {
        match method {
            INSERT => {
                input.heap.insert(input.x);
                Ret::Void
            }
            EXTRACT_MIN => Ret::Key(input.heap.extract_min()),
            UNION => {
                let other = input.other.clone().expect("union carries its second heap");
                input.heap.union_heap(other);
                Ret::Void
            }
            _ => Ret::Bool(input.heap.delete(input.x)),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut RealHeap(&input.heap))
    }

    fn abstraction(&self, input: &Call) -> Vec<i64> {
        Self::keys(&input.heap)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Ret,
    ) -> Result<(), String> {
        if !self.invariant(post) {
            return Err("the post-state violates the invariant".into());
        }
        let before = Self::keys(&pre.heap);
        let after = Self::keys(&post.heap);
        let mut expected = before.clone();
        let expected_ret = match method {
            // ensures repOk() && keys() == \old(keys()) ∪ {x}
            INSERT => {
                expected.push(pre.x);
                Ret::Void
            }
            // ensures repOk() && \result == \old(min()) && keys() == \old(keys()) − {\result}
            EXTRACT_MIN => {
                let min = before.first().copied();
                if !expected.is_empty() {
                    expected.remove(0);
                }
                Ret::Key(min)
            }
            // ensures repOk() && keys() == \old(keys()) ∪ other.keys()
            UNION => {
                let other = pre.other.as_ref().expect("union carries its second heap");
                expected.extend(Self::keys(other));
                Ret::Void
            }
            // ensures repOk() && \result == \old(contains(x)) && keys() == \old(keys()) − {x}
            _ => {
                let at = before.iter().position(|&k| k == pre.x);
                if let Some(i) = at {
                    expected.remove(i);
                }
                Ret::Bool(at.is_some())
            }
        };
        expected.sort_unstable();
        if *ret != expected_ret {
            return Err(format!("returned {ret:?}, expected {expected_ret:?}"));
        }
        if after != expected {
            return Err(format!("keys after are {after:?}, expected {expected:?}"));
        }
        Ok(())
    }

    fn render(&self, method: usize, input: &Call) -> String {
        let heap = render_heap(&input.heap);
        match method {
            EXTRACT_MIN => format!("extractMin() on {heap}"),
            UNION => format!(
                "union({}) on {heap}",
                render_heap(input.other.as_ref().expect("union carries its second heap"))
            ),
            _ => format!("{}({}) on {heap}", METHODS[method], input.x),
        }
    }
}

ferastrau_worker::export!(BinomialHeapBench);
