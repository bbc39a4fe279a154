//! SearchTree, the paper's running example (Sec. 2, Appendix A), as a Ferastrau benchmark.
//!
//! Target methods `add(x)` and `remove(x)` with `x` over the scope's `n` values; their inputs
//! are (tree, x) pairs that Korat generates jointly. Outputs are compared by the set of
//! elements (the abstraction); the postconditions are the paper's JML `ensures` clauses.

// The code under test compares links with `== None` on purpose: it mirrors Java's `== null`
// one for one, so the operator mutants (`==` ↔ `!=`) are the paper's.
#![allow(clippy::partialeq_to_none)]

pub mod dedicated;
pub mod invariant;
pub mod program;
pub mod space;
pub mod tree;

use ferastrau_sdk::generator::{Beside, Generated};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::structure::serialize;
use ferastrau_sdk::Benchmark;

use ferastrau_sdk::korat::view::{Real, Root, View};
use invariant::rep_ok;
use space::{render_tree, Fields};
pub use tree::SearchTree;

/// The benchmark.
pub struct SearchTreeBench;

/// One call: the receiver and the argument.
#[derive(Clone, Debug)]
pub struct Call {
    pub tree: SearchTree,
    pub x: i64,
}

const METHODS: &[&str] = &["add", "remove"];

impl SearchTreeBench {
    /// The elements of a tree in order (the abstraction; the tree satisfies the invariant).
    pub fn elements(t: &SearchTree) -> Vec<i64> {
        fn go(t: &SearchTree, n: Option<usize>, out: &mut Vec<i64>) {
            if let Some(n) = n {
                go(t, t.nodes[n].left, out);
                out.push(t.nodes[n].info);
                go(t, t.nodes[n].right, out);
            }
        }
        let mut v = Vec::new();
        go(t, t.root, &mut v);
        v
    }
}

impl Benchmark for SearchTreeBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = bool;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(&format!("SearchTree_{}", METHODS[method]), scope, true)
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
        let x = c.int(f.extra("x").expect("each finitization carries x"), 0);
        Call {
            tree: SearchTree::decode(c, f),
            x,
        }
    }

    fn run(&self, method: usize, input: &mut Call) -> bool {
        match method {
            0 => input.tree.add(input.x),
            _ => input.tree.remove(input.x),
        }
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.tree))
    }

    fn abstraction(&self, input: &Call) -> Vec<i64> {
        Self::elements(&input.tree)
    }

    const STRUCTURE: bool = true;

    /// Java serialization of the tree object: `root`, `size`, and every node `root` reaches
    /// with its `left`, `right` and `info` (Fig. 1's declaration order).
    fn structure(&self, input: &Call) -> String {
        serialize(&input.tree)
    }

    fn postcondition(
        &self,
        method: usize,
        pre: &Call,
        post: &Call,
        ret: &bool,
    ) -> Result<(), String> {
        let was_in = Self::elements(&pre.tree).contains(&pre.x);
        let is_in = Self::elements(&post.tree).contains(&pre.x);
        match method {
            // ensures repOk() && contains(info) && \result == !\old(contains(info))
            0 if !is_in => Err(format!("{} is absent after add", pre.x)),
            0 if *ret == was_in => Err(format!(
                "add returned {ret} but {} was {}present",
                pre.x,
                if was_in { "" } else { "not " }
            )),
            // ensures repOk() && !contains(info) && \result == \old(contains(info))
            1 if is_in => Err(format!("{} is still present after remove", pre.x)),
            1 if *ret != was_in => Err(format!(
                "remove returned {ret} but {} was {}present",
                pre.x,
                if was_in { "" } else { "not " }
            )),
            _ => Ok(()),
        }
    }

    fn render(&self, method: usize, input: &Call) -> String {
        format!(
            "{}({}) on {}",
            METHODS[method],
            input.x,
            render_tree(&input.tree)
        )
    }

    /// The tree built by `add`ing its keys in pre-order, which gives back its shape and its
    /// arena's numbering (Korat's decoding numbers the nodes in pre-order too), then the call.
    fn construct(&self, _method: usize, input: &Call) -> Option<String> {
        fn pre_order(t: &SearchTree, n: Option<usize>, out: &mut Vec<String>) {
            if let Some(n) = n {
                out.push(format!("tree.add({});", t.nodes[n].info));
                pre_order(t, t.nodes[n].left, out);
                pre_order(t, t.nodes[n].right, out);
            }
        }
        let mut adds = Vec::new();
        pre_order(&input.tree, input.tree.root, &mut adds);
        let mutable = if adds.is_empty() { "" } else { "mut " };
        let mut lines = vec![
            "let bench = search_tree::SearchTreeBench;".to_string(),
            format!("let {mutable}tree = search_tree::SearchTree::default();"),
        ];
        lines.extend(adds);
        lines.push(format!(
            "let mut input = search_tree::Call {{ tree, x: {} }};",
            input.x
        ));
        Some(lines.join("\n    "))
    }

    /// Sequences start from the empty tree.
    fn initial(&self, _scope: u32) -> Option<Call> {
        Some(Call {
            tree: SearchTree::default(),
            x: 0,
        })
    }

    /// `add(arg)` or `remove(arg)` on `state`'s tree.
    fn with_argument(&self, _method: usize, state: &Call, arg: i64) -> Call {
        Call {
            tree: state.tree.clone(),
            x: arg,
        }
    }
}

ferastrau_sdk::export!(
    SearchTreeBench,
    generator: Generated::new(Beside(program::SearchTreeProgram))
);
