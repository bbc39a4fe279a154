//! Test data for the engine: a set of integers kept as a strictly increasing singly linked
//! chain in an arena. Small on purpose — a few dozen inputs per scope, a hundred-odd mutants —
//! yet every mutation family has work here:
//!
//! - operator: integer `+ -` (`size + 1`), relational `< <= > >=` and `== !=` on values and on
//!   links, `&&` between conditions;
//! - variable: locals and fields of one type (`prev`/`current`/`self.head`, `x`/`self.size`),
//!   read and written;
//! - call: `contains` and `is_empty` share a signature shape, so do `before` and `last`;
//! - constant: `1` in `size + 1` and `size - 1`.
//!
//! The loops in `before` and `contains` make mutants that never end (ticks), `self.link(None)`
//! makes panics, and the invariant catches broken order or size. `testdata/README.md` says
//! which tests use it.

#![allow(clippy::partialeq_to_none)]

use ferastrau_sdk::korat::{
    Candidate, Domain, FieldId, Finitization, FinitizationBuilder, Visited, ROOT,
};
use ferastrau_sdk::Benchmark;

/// Index of a node in the arena.
pub type NodeId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub next: Option<NodeId>,
    pub value: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    pub head: Option<NodeId>,
    pub size: i64,
    pub nodes: Vec<Node>,
}

impl Chain {
    /// The node `n` points to; `None` is a null dereference (a panic).
    pub fn link(&self, n: Option<NodeId>) -> &Node {
        &self.nodes[n.expect("null dereference")]
    }

    /// The node `n` points to, for writing.
    pub fn link_mut(&mut self, n: Option<NodeId>) -> &mut Node {
        &mut self.nodes[n.expect("null dereference")]
    }

    /// Whether the chain is empty.
    pub fn is_empty(&self, _x: i64) -> bool {
        self.head == None
    }

    /// Whether `x` is in the chain; stops at the first larger value.
    pub fn contains(&self, x: i64) -> bool {
        let mut current = self.head;
        while current != None && self.link(current).value < x {
            current = self.link(current).next;
        }
        current != None && self.link(current).value == x
    }

    /// The last node whose value is below `x`, or `None` when `x` belongs at the head.
    pub fn before(&self, x: i64) -> Option<NodeId> {
        let mut prev: Option<NodeId> = None;
        let mut current = self.head;
        while current != None && self.link(current).value < x {
            prev = current;
            current = self.link(current).next;
        }
        prev
    }

    /// The last node, or `None` when the chain is empty.
    pub fn last(&self, _x: i64) -> Option<NodeId> {
        let mut current = self.head;
        while current != None && self.link(current).next != None {
            current = self.link(current).next;
        }
        current
    }

    /// Adds `x`; returns whether it was absent.
    pub fn insert(&mut self, x: i64) -> bool {
        if self.contains(x) {
            return false;
        }
        let prev = self.before(x);
        self.nodes.push(Node { next: None, value: x });
        let added = Some(self.nodes.len() - 1);
        if prev == None {
            self.link_mut(added).next = self.head;
            self.head = added;
        } else {
            self.link_mut(added).next = self.link(prev).next;
            self.link_mut(prev).next = added;
        }
        self.size = self.size + 1;
        true
    }

    /// Removes `x`; returns whether it was present.
    pub fn remove(&mut self, x: i64) -> bool {
        if !self.contains(x) {
            return false;
        }
        let prev = self.before(x);
        if prev == None {
            self.head = self.link(self.head).next;
        } else {
            let gone = self.link(prev).next;
            self.link_mut(prev).next = self.link(gone).next;
        }
        self.size = self.size - 1;
        true
    }

    /// The values from the head on (the abstraction).
    pub fn values(&self) -> Vec<i64> {
        let mut out = Vec::new();
        let mut n = self.head;
        while let Some(id) = n {
            out.push(self.nodes[id].value);
            n = self.nodes[id].next;
        }
        out
    }
}

/// Read access to a chain, by node id: the invariant is written once for candidates and for
/// real post-states.
pub trait View {
    fn head(&mut self) -> Option<u32>;
    fn size(&mut self) -> i64;
    fn next(&mut self, n: u32) -> Option<u32>;
    fn value(&mut self, n: u32) -> i64;
}

/// The invariant: acyclic, `size` nodes, strictly increasing values.
pub fn rep_ok(v: &mut impl View) -> bool {
    let mut seen = Visited::new();
    let mut current = v.head();
    let mut last: Option<i64> = None;
    while let Some(n) = current {
        if !seen.insert(n) {
            return false;
        }
        let value = v.value(n);
        if last.is_some_and(|l| l >= value) {
            return false;
        }
        last = Some(value);
        current = v.next(n);
    }
    seen.len() as i64 == v.size()
}

/// Field ids of the finitization.
pub struct Fields {
    head: FieldId,
    size: FieldId,
    x: FieldId,
    next: FieldId,
    value: FieldId,
}

/// At most `n` nodes, values and argument over 1..n, size 0..n.
fn finitization(method: &str, n: u32) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(&format!("Chain_{method}"));
    let node = b.class("Node", n);
    b.field(ROOT, "head", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    b.field(ROOT, "x", Domain::ints(1, n64));
    b.field(node, "next", Domain::nullable(node));
    b.field(node, "value", Domain::ints(1, n64));
    let fin = b.build();
    let f = Fields {
        head: fin.field(ROOT, "head"),
        size: fin.field(ROOT, "size"),
        x: fin.field(ROOT, "x"),
        next: fin.field(node, "next"),
        value: fin.field(node, "value"),
    };
    (fin, f)
}

struct CandidateChain<'c, 'a> {
    c: &'c mut Candidate<'a>,
    f: &'c Fields,
}

impl View for CandidateChain<'_, '_> {
    fn head(&mut self) -> Option<u32> {
        self.c.obj(self.f.head, 0)
    }
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    fn next(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.next, n)
    }
    fn value(&mut self, n: u32) -> i64 {
        self.c.int(self.f.value, n)
    }
}

struct RealChain<'a>(&'a Chain);

impl View for RealChain<'_> {
    fn head(&mut self) -> Option<u32> {
        self.0.head.map(|n| n as u32)
    }
    fn size(&mut self) -> i64 {
        self.0.size
    }
    fn next(&mut self, n: u32) -> Option<u32> {
        self.0.nodes[n as usize].next.map(|n| n as u32)
    }
    fn value(&mut self, n: u32) -> i64 {
        self.0.nodes[n as usize].value
    }
}

pub struct ChainBench;

const METHODS: &[&str] = &["insert", "remove"];

impl Benchmark for ChainBench {
    type Fields = Fields;
    type Input = (Chain, i64);
    type Ret = bool;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }
    fn finitize(&self, method: usize, scope: u32) -> (Finitization, Fields) {
        finitization(METHODS[method], scope)
    }
    fn precondition(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> bool {
        rep_ok(&mut CandidateChain { c, f })
    }
    fn decode(&self, _m: usize, f: &Fields, c: &mut Candidate<'_>) -> (Chain, i64) {
        let mut view = CandidateChain { c, f };
        let mut chain = Chain {
            head: None,
            size: view.size(),
            nodes: Vec::new(),
        };
        // Nodes renumbered from the head on, each linked to the next one pushed.
        let mut current = view.head();
        while let Some(n) = current {
            let id = chain.nodes.len();
            chain.nodes.push(Node {
                next: None,
                value: view.value(n),
            });
            match id {
                0 => chain.head = Some(0),
                _ => chain.nodes[id - 1].next = Some(id),
            }
            current = view.next(n);
        }
        let x = c.int(f.x, 0);
        (chain, x)
    }
    fn run(&self, method: usize, input: &mut (Chain, i64)) -> bool {
        match method {
            0 => input.0.insert(input.1),
            _ => input.0.remove(input.1),
        }
    }
    fn invariant(&self, input: &(Chain, i64)) -> bool {
        rep_ok(&mut RealChain(&input.0))
    }
    fn abstraction(&self, input: &(Chain, i64)) -> Vec<i64> {
        input.0.values()
    }
    fn postcondition(
        &self,
        method: usize,
        pre: &(Chain, i64),
        post: &(Chain, i64),
        ret: &bool,
    ) -> Result<(), String> {
        let x = pre.1;
        let was = pre.0.values().contains(&x);
        let is = post.0.values().contains(&x);
        match method {
            0 if !is => Err(format!("{x} is absent after insert")),
            1 if is => Err(format!("{x} is still present after remove")),
            0 if *ret == was => Err(format!("insert returned {ret}")),
            1 if *ret != was => Err(format!("remove returned {ret}")),
            _ => Ok(()),
        }
    }
    fn render(&self, method: usize, input: &(Chain, i64)) -> String {
        format!("{}({}) on {:?}", METHODS[method], input.1, input.0.values())
    }
}

ferastrau_sdk::export!(ChainBench);
