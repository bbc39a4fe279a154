//! `java.util.TreeMap` (a red-black tree with parent links) as a Ferastrau benchmark.
//!
//! Target methods `put(k)` and `remove(k)` with `k` over the scope's `n` keys; their inputs are
//! (map, k) pairs that Korat generates jointly. The paper's helpers `get` and `containsKey` are
//! exercised the way the paper's JML postconditions exercise them: after the call, the
//! post-state is queried with `containsKey(k)` and `get(k)` and those answers are part of the
//! call's output (a mutant in them changes the output, as a failing runtime-checked
//! postcondition did in the paper). The abstraction is the sorted list of (key, value) pairs.
//! The structure (for `--compare structural` and `ferastrau sequences`) is every field of every
//! entry the root reaches.

// The file keeps its first name: the committed reports name places in it
// (`src/generators.rs:43 black_height`) until a reproduction writes them again.
#[path = "generators.rs"]
pub mod dedicated;
pub mod invariant;
pub mod program;
pub mod space;
pub mod tree_map;

use ferastrau_sdk::generator::{Beside, Generated};
use ferastrau_sdk::korat::view::{Real, Root, View};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::structure::serialize;
use ferastrau_sdk::Benchmark;

use invariant::rep_ok;
use space::{render_map, Fields, VALUE};
pub use tree_map::TreeMap;

/// The benchmark.
pub struct TreeMapBench;

/// One call: the receiver and the key argument.
#[derive(Clone, Debug)]
pub struct Call {
    pub map: TreeMap,
    pub key: i64,
}

/// What a call returns, together with what the postcondition asks the post-state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The method's result: the previous value mapped to the key (Java's null is `None`).
    pub result: Option<i64>,
    /// `containsKey(k)` on the post-state.
    pub contains_after: bool,
    /// `get(k)` on the post-state.
    pub get_after: Option<i64>,
}

const METHODS: &[&str] = &["put", "remove"];

impl TreeMapBench {
    /// The (key, value) pairs of a map in key order (the abstraction; the map satisfies the
    /// invariant).
    pub fn mappings(m: &TreeMap) -> Vec<(i64, i64)> {
        fn go(m: &TreeMap, e: Option<usize>, out: &mut Vec<(i64, i64)>) {
            if let Some(e) = e {
                go(m, m.entries[e].left, out);
                out.push((m.entries[e].key, m.entries[e].value));
                go(m, m.entries[e].right, out);
            }
        }
        let mut v = Vec::new();
        go(m, m.root, &mut v);
        v
    }
}

impl Benchmark for TreeMapBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Outcome;
    type Abstraction = Vec<(i64, i64)>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(&format!("TreeMap_{}", METHODS[method]), scope, true)
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
        let key = c.int(f.extra("k").expect("each finitization carries k"), 0);
        Call {
            map: TreeMap::decode(c, f),
            key,
        }
    }

    fn run(&self, method: usize, input: &mut Call) -> Outcome {
        let result = match method {
            0 => input.map.put(input.key, VALUE),
            _ => input.map.remove(input.key),
        };
        Outcome {
            result,
            contains_after: input.map.contains_key(input.key),
            get_after: input.map.get(input.key),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.map))
    }

    fn abstraction(&self, input: &Call) -> Vec<(i64, i64)> {
        Self::mappings(&input.map)
    }

    const STRUCTURE: bool = true;

    /// Java serialization of the map object: `root`, `size`, and every entry `root` reaches
    /// with its `key`, `value`, `left`, `right`, `parent` and `color` (`TreeMap.Entry`'s
    /// declaration order).
    fn structure(&self, input: &Call) -> String {
        serialize(&input.map)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &Outcome,
    ) -> Result<(), String> {
        let k = pre.key;
        let before = Self::mappings(&pre.map);
        let old = before.iter().find(|&&(key, _)| key == k).map(|&(_, v)| v);
        let mut expected: Vec<(i64, i64)> = before
            .iter()
            .copied()
            .filter(|&(key, _)| key != k)
            .collect();
        if method == 0 {
            // ensures repOk() && containsKey(k) && get(k) == v && \result == \old(get(k))
            //   && the other mappings are unchanged
            expected.push((k, VALUE));
            expected.sort_unstable();
        }
        // remove: ensures repOk() && !containsKey(k) && \result == \old(get(k))
        //   && the other mappings are unchanged
        let after = Self::mappings(&post.map);
        if after != expected {
            return Err(format!("mappings {after:?}, expected {expected:?}"));
        }
        if ret.result != old {
            return Err(format!(
                "returned {:?}, the old value was {old:?}",
                ret.result
            ));
        }
        let present = method == 0;
        if ret.contains_after != present {
            return Err(format!("containsKey({k}) is {} after", ret.contains_after));
        }
        if ret.get_after != present.then_some(VALUE) {
            return Err(format!("get({k}) is {:?} after", ret.get_after));
        }
        if post.map.size != after.len() as i64 {
            return Err(format!(
                "size {} with {} entries",
                post.map.size,
                after.len()
            ));
        }
        Ok(())
    }

    fn render(&self, method: usize, input: &Call) -> String {
        format!(
            "{}({}) on {}",
            METHODS[method],
            input.key,
            render_map(&input.map)
        )
    }

    /// Sequences start from the empty map.
    fn initial(&self, _scope: u32) -> Option<Call> {
        Some(Call {
            map: TreeMap::default(),
            key: 0,
        })
    }

    /// `put(arg)` (of [`VALUE`], as every call puts) or `remove(arg)` on `state`'s map: the
    /// arguments 1..=n are Korat's keys at scope n.
    fn with_argument(&self, _method: usize, state: &Call, arg: i64) -> Call {
        Call {
            map: state.map.clone(),
            key: arg,
        }
    }
}

ferastrau_sdk::export!(
    TreeMapBench,
    generator: Generated::new(Beside(program::TreeMapProgram))
);
