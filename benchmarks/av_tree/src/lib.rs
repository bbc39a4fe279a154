//! AVTree: the Intentional Naming System's attribute–value name-tree as a Ferastrau benchmark.
//!
//! Target method `lookup(query)` (INS's LOOKUP-NAME, helper `extract`); its inputs are
//! (name-tree, query) pairs that Korat generates jointly ([`space::finitization`]). The output is the set of conforming records; `lookup` does not
//! change the tree, and the abstraction (the whole arena) checks that a mutant does not either.

// Clippy reads `#[korat(objects(VName, n), objects(AName, n))]`'s two `n`s as one attribute
// given twice.
#![allow(clippy::duplicated_attributes)]

pub mod av_tree;
pub mod invariant;
pub mod space;

use ferastrau_sdk::korat::view::{Real, View};
use ferastrau_sdk::korat::{Candidate, Finitization};
use ferastrau_sdk::Benchmark;

pub use av_tree::AvTree;
use av_tree::{RecordId, WILDCARD};
use invariant::rep_ok;
use space::{render_query, render_tree, Fields};

/// The benchmark.
pub struct AvTreeBench;

/// One call: the name-tree (whose arena also holds the query) and the query's first
/// top-level attribute (`None`: the empty query).
#[derive(Clone, Debug)]
pub struct Call {
    pub tree: AvTree,
    pub query: Option<usize>,
}

const METHODS: &[&str] = &["lookup"];

impl AvTreeBench {
    /// The specification of conformance, independent of the code under test: record `r`
    /// conforms to the query when the query is a subtree of `r`'s name — the union of the
    /// paths from the root to the values that hold `r` — a query wildcard matching any value.
    pub fn conforming(call: &Call) -> Vec<RecordId> {
        let t = &call.tree;
        let root = t.root.expect("the name-tree has a root");
        (0..t.records.len())
            .filter(|&r| holds_below(t, root, r) && matches(t, root, call.query, r))
            .collect()
    }
}

/// Whether value `v` or a value below it holds record `r` (`v` is on `r`'s name).
fn holds_below(t: &AvTree, v: usize, r: usize) -> bool {
    let mut rec = t.values[v].record;
    while let Some(x) = rec {
        if x == r {
            return true;
        }
        rec = t.records[x].next;
    }
    pairs(t, t.values[v].attributes)
        .into_iter()
        .any(|(_, c)| holds_below(t, c, r))
}

/// The (attribute name, value) pairs of the attribute list starting at `first`.
fn pairs(t: &AvTree, first: Option<usize>) -> Vec<(i64, usize)> {
    let mut out = Vec::new();
    let mut a = first;
    while let Some(ai) = a {
        let mut c = t.attributes[ai].values;
        while let Some(ci) = c {
            out.push((t.attributes[ai].name, ci));
            c = t.values[ci].next;
        }
        a = t.attributes[ai].next;
    }
    out
}

/// Whether the query av-pairs starting at `query` are a subtree of `r`'s name below the
/// name-tree value `v`.
fn matches(t: &AvTree, v: usize, query: Option<usize>, r: usize) -> bool {
    pairs(t, query).into_iter().all(|(qa, qv)| {
        pairs(t, t.values[v].attributes)
            .into_iter()
            .any(|(ta, tv)| {
                ta == qa
                    && holds_below(t, tv, r)
                    && (t.values[qv].name == WILDCARD
                        || (t.values[tv].name == t.values[qv].name
                            && matches(t, tv, t.values[qv].attributes, r)))
            })
    })
}

impl Benchmark for AvTreeBench {
    type Fields = Fields;
    type Input = Call;
    type Ret = Vec<RecordId>;
    type Abstraction = AvTree;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn finitize(&self, _method: usize, scope: u32) -> (Finitization, Fields) {
        space::finitization(scope)
    }

    /// The precondition is `rep_ok` for every method: one structure search serves them all.
    fn precondition_is_invariant(&self, _method: usize) -> bool {
        true
    }

    fn precondition(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut View::new(c, f), |v| v.c.obj(space::query(v.f), 0))
    }

    fn decode(&self, _method: usize, f: &Fields, c: &mut Candidate<'_>) -> Call {
        let (tree, query) = space::decode(c, f);
        Call { tree, query }
    }

    fn run(&self, _method: usize, input: &mut Call) -> Vec<RecordId> {
        input.tree.lookup(input.query)
    }

    fn invariant(&self, input: &Call) -> bool {
        rep_ok(&mut Real(&input.tree), |_| input.query.map(|q| q as u32))
    }

    fn abstraction(&self, input: &Call) -> AvTree {
        input.tree.clone()
    }

    fn postcondition(
        &self,
        _method: usize,
        pre: &Call,
        post: &Call,
        ret: &Vec<RecordId>,
    ) -> Result<(), String> {
        // ensures repOk() && \result == { r | query ⊑ name(r) } && the tree is unchanged
        if post.tree != pre.tree {
            return Err("lookup changed the name-tree".into());
        }
        let expected = Self::conforming(pre);
        if *ret != expected {
            return Err(format!(
                "returned {ret:?}, the conforming records are {expected:?}"
            ));
        }
        Ok(())
    }

    fn render(&self, _method: usize, input: &Call) -> String {
        format!(
            "lookup({}) on {}",
            render_query(&input.tree, input.query),
            render_tree(&input.tree)
        )
    }
}

ferastrau_sdk::export!(AvTreeBench);
