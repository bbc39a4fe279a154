//! `java.util.HashSet` on the JDK 1.3 `HashMap` as a Ferastrau benchmark (the paper's HashSet
//! row).
//!
//! Target methods `add(o)` and `remove(o)`, with the same inputs: (set, o) pairs that Korat
//! generates jointly, `o` being null, a key of the set or a fresh key (whose hash code ranges
//! over the n values). A call's output is its return value, the post-state's answer to
//! `contains(o)` (the query the JML `ensures` clauses make, which is how the paper's helpers
//! `contains` and `HashMap.containsKey` take part in every check), and the post-state's
//! abstraction: the set of keys.

pub mod invariant;
pub mod set;
pub mod space;

use ferastrau_sdk::korat::view::{Real, View};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::Benchmark;

use invariant::rep_ok;
use set::KeyId;
pub use set::{HashMap, HashSet};
use space::{keys, render_key, render_set, Fields};

/// The benchmark.
pub struct HashSetBench;

/// One call: the receiver and the argument.
#[derive(Clone, Debug)]
pub struct Call {
    pub set: HashSet,
    pub o: Option<KeyId>,
}

/// What a call returns: the method's result and `contains(o)` on the post-state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: bool,
    pub contains_after: bool,
}

const METHODS: &[&str] = &["add", "remove"];

impl HashSetBench {
    /// The set of keys, sorted (null first).
    pub fn elements(set: &HashSet) -> Vec<Option<KeyId>> {
        let mut k = keys(set);
        k.sort_unstable();
        k
    }
}

impl Benchmark for HashSetBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Outcome;
    type Abstraction = Vec<Option<KeyId>>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(&format!("HashSet_{}", METHODS[method]), scope, true)
    }

    /// The precondition is `rep_ok` for every method: one structure search serves them all.
    fn precondition_is_invariant(&self, _method: usize) -> bool {
        true
    }

    fn precondition(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut View::new(c, f))
    }

    fn decode(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        let (set, o) = space::decode(c, f);
        Call { set, o }
    }

    fn run(&self, method: usize, input: &mut Call) -> Outcome {
        let o = input.o;
        let result = match method {
            0 => input.set.add(o),
            _ => input.set.remove(o),
        };
        Outcome {
            result,
            contains_after: input.set.contains(o),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.set.map))
    }

    fn abstraction(&self, input: &Call) -> Vec<Option<KeyId>> {
        Self::elements(&input.set)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Outcome,
    ) -> Result<(), String> {
        let o = pre.o;
        let before = Self::elements(&pre.set);
        let was_in = before.contains(&o);
        let mut expected: Vec<Option<KeyId>> = before.into_iter().filter(|&k| k != o).collect();
        let want = match method {
            // ensures repOk() && keys == \old(keys) ∪ {o} && contains(o)
            //      && \result == !\old(contains(o))
            0 => {
                expected.push(o);
                Outcome {
                    result: !was_in,
                    contains_after: true,
                }
            }
            // ensures repOk() && keys == \old(keys) − {o} && !contains(o)
            //      && \result == \old(contains(o))
            _ => Outcome {
                result: was_in,
                contains_after: false,
            },
        };
        expected.sort_unstable();
        let after = Self::elements(&post.set);
        if after != expected {
            return Err(format!(
                "keys {after:?} after {}, expected {expected:?}",
                METHODS[method]
            ));
        }
        if *ret != want {
            return Err(format!("returned {ret:?}, expected {want:?}"));
        }
        Ok(())
    }

    fn render(&self, method: usize, input: &Call) -> String {
        format!(
            "{}({}) on {}",
            METHODS[method],
            render_key(&input.set, input.o),
            render_set(&input.set)
        )
    }
}

ferastrau_sdk::export!(HashSetBench);
