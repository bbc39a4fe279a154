//! The code under test: a set of integers kept as a sorted singly linked list in an arena
//! (`Vec<Node>` + indices instead of references).
//!
//! Written plainly, the way the mutator reads it: it swaps operators, same-typed variables
//! and fields, integer constants and compatible calls inside the functions that
//! `[package.metadata.ferastrau] mutate` names.

/// Index of a node in the arena.
pub type NodeId = usize;

/// A list node.
#[derive(Clone, Debug, PartialEq, Eq{{korat:, ferastrau_sdk::Korat}})]
pub struct Node {
    pub next: Option<NodeId>,
    {{korat:#[korat(ints(1, n))]}}
    pub value: i64,
}

/// A set of integers: a strictly increasing list from `head`, with its length in `size`.
#[derive(Clone, Debug, Default, PartialEq, Eq{{korat:, ferastrau_sdk::Korat}})]
pub struct IntSet {
    pub head: Option<NodeId>,
    {{korat:#[korat(ints(0, n))]}}
    pub size: i64,
    {{korat:#[korat(pool(n))]}}
    pub nodes: Vec<Node>,
}

impl IntSet {
    /// Whether `x` is in the set.
    pub fn contains(&self, x: i64) -> bool {
        let mut current = self.head;
        while let Some(n) = current {
            let value = self.nodes[n].value;
            if value == x {
                return true;
            }
            if value > x {
                return false;
            }
            current = self.nodes[n].next;
        }
        false
    }

    /// Adds `x` in order; returns whether it was absent.
    pub fn add(&mut self, x: i64) -> bool {
        if self.contains(x) {
            return false;
        }
        let mut previous: Option<NodeId> = None;
        let mut current = self.head;
        while let Some(n) = current {
            if self.nodes[n].value > x {
                break;
            }
            previous = current;
            current = self.nodes[n].next;
        }
        self.nodes.push(Node {
            next: current,
            value: x,
        });
        let added = Some(self.nodes.len() - 1);
        match previous {
            None => self.head = added,
            Some(p) => self.nodes[p].next = added,
        }
        self.size += 1;
        true
    }

    /// Removes and returns the smallest element. Like Java's `removeFirst`, it fails (panics)
    /// on an empty set: its inputs (see the benchmark in lib.rs) leave the empty set out,
    /// because the original must not fail on any generated input.
    pub fn remove_first(&mut self) -> i64 {
        let first = self.head.expect("remove_first on an empty set");
        self.head = self.nodes[first].next;
        self.size -= 1;
        self.nodes[first].value
    }
}
