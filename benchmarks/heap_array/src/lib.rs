//! HeapArray (the paper's Table 1): an array-based max-heap, as a Ferastrau benchmark.
//!
//! Target methods `insert(x)` with `x` over −1..n (generated jointly with the heap, not
//! restricted by the precondition) and `extractMax()`; helpers `heapify_up`, `heapify_down`.
//! Outputs are compared by the return value (exceptions included) and the concrete post-state
//! (`size` and the array: its length and every slot), which is what Java's comparison of two
//! `HeapArray` objects sees; the postconditions check the multiset of elements.

pub mod dedicated;
pub mod heap_array;
pub mod invariant;
pub mod program;
pub mod space;

use ferastrau_sdk::generator::{Beside, Generated};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::Benchmark;

use ferastrau_sdk::korat::view::{Real, Root, View};
pub use heap_array::{Exception, HeapArray, EMPTY};
use invariant::rep_ok;
use space::{render_heap, Fields};

/// The benchmark.
pub struct HeapArrayBench;

/// One call: the receiver and the argument (unused by `extractMax`).
#[derive(Clone, Debug)]
pub struct Call {
    pub heap: HeapArray,
    pub x: i64,
}

/// What a call returns: `insert`'s nothing (`Ok(None)`), `extractMax`'s element, or the
/// exception.
pub type Ret = Result<Option<i64>, Exception>;

const METHODS: &[&str] = &["insert", "extractMax"];
const INSERT: usize = 0;

impl HeapArrayBench {
    /// The elements of a heap, sorted (the abstraction: a multiset).
    pub fn elements(h: &HeapArray) -> Vec<i64> {
        let mut v = h.array[..h.size as usize].to_vec();
        v.sort_unstable();
        v
    }
}

impl Benchmark for HeapArrayBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Ret;
    /// The whole heap: see [`Benchmark::abstraction`] below.
    type Abstraction = HeapArray;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(
            &format!("HeapArray_{}", METHODS[method]),
            scope,
            method == INSERT,
        )
    }

    /// The precondition is `rep_ok` for every method: one structure search serves them all.
    fn precondition_is_invariant(&self, _method: usize) -> bool {
        true
    }

    fn precondition(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut View::new(c, f))
    }

    const HAS_DEDICATED: bool = true;

    fn precondition_dedicated(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        dedicated::rep_ok_dedicated(c, f)
    }

    fn decode(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        let x = f.extra("x").map_or(0, |fx| c.int(fx, 0));
        Call {
            heap: HeapArray::decode(c, f),
            x,
        }
    }

    fn run(&self, method: usize, input: &mut Call) -> Ret {
        match method {
            INSERT => input.heap.insert(input.x).map(|()| None),
            _ => input.heap.extract_max().map(Some),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.heap))
    }

    /// The post-state as Java compares it: the paper's HeapArray is nothing but `int size` and
    /// `int[] array`, so equality of two heaps is `size == o.size && Arrays.equals(array,
    /// o.array)` (what Ferastrau's comparison through serialization sees too): the array's
    /// length and every slot, the empty `-1` slots included, in order. A mutant that grows the
    /// array to another capacity, or leaves the same elements in other slots (e.g. sifting down
    /// into the right child when the left one is equal), changes the output, as in Java.
    fn abstraction(&self, input: &Call) -> HeapArray {
        input.heap.clone()
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Ret,
    ) -> Result<(), String> {
        let before = Self::elements(&pre.heap);
        let after = Self::elements(&post.heap);
        let expect = |ok: bool, what: &str| if ok { Ok(()) } else { Err(what.to_string()) };
        if method == INSERT {
            if pre.x < 0 {
                // signals IllegalArgumentException; the heap is unchanged
                expect(
                    *ret == Err(Exception::IllegalArgument),
                    "insert(-1) did not throw",
                )?;
                return expect(after == before, "a rejected insert changed the heap");
            }
            // ensures: the elements are the old ones plus x
            expect(*ret == Ok(None), "insert returned a value or threw")?;
            let mut plus = before;
            plus.push(pre.x);
            plus.sort_unstable();
            return expect(
                after == plus,
                &format!(
                    "elements {after:?} after insert({}), expected {plus:?}",
                    pre.x
                ),
            );
        }
        // extractMax
        match before.last() {
            None => {
                expect(
                    *ret == Err(Exception::Underflow),
                    "extractMax on empty did not throw",
                )?;
                expect(after.is_empty(), "extractMax on empty changed the heap")
            }
            Some(&max) => {
                // ensures: \result is the largest element, removed once
                expect(
                    *ret == Ok(Some(max)),
                    &format!("extractMax returned {ret:?}, max is {max}"),
                )?;
                expect(
                    after[..] == before[..before.len() - 1],
                    &format!("elements {after:?} after extractMax of {before:?}"),
                )
            }
        }
    }

    fn render(&self, method: usize, input: &Call) -> String {
        if method == INSERT {
            format!("insert({}) on {}", input.x, render_heap(&input.heap))
        } else {
            format!("extractMax() on {}", render_heap(&input.heap))
        }
    }
}

ferastrau_sdk::export!(
    HeapArrayBench,
    generator: Generated::new(Beside(program::HeapArrayProgram))
);
