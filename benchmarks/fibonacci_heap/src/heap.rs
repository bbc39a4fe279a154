//! The code under test: a Fibonacci min-heap, written from Cormen, Leiserson and Rivest
//! (Introduction to Algorithms, 2nd edition, ch. 20), on an arena.
//!
//! Java's `Node` references become `Option<NodeId>` into `pool`; `x.right` reads become
//! `self.node(x).right`, which panics on `None` exactly where Java throws a
//! `NullPointerException`. The procedures follow the book's pseudocode: FIB-HEAP-INSERT
//! (`insert`), FIB-HEAP-UNION (`union`), FIB-HEAP-EXTRACT-MIN (`extract_min`), CONSOLIDATE
//! (`consolidate`), FIB-HEAP-LINK (`link`), FIB-HEAP-DECREASE-KEY (`decrease`), CUT (`cut`),
//! CASCADING-CUT (`cascading_cut`) and FIB-HEAP-DELETE (`delete`), plus the search `contains`
//! that `delete` needs to find the node holding a key.
//!
//! Sibling lists are circular and doubly linked (`left`, `right`) as in the book. Besides the
//! book's `min[H]` and `n[H]` (`min`, `size`) the heap keeps `nodes`, the handle of its root
//! list: the book's "root list of H", which operations splice into and `consolidate` walks and
//! rebuilds. `nodes` is any root; `min` is a root holding the smallest key.

// Written the way the Java reads, so that the mutation operators map onto it as they do in Java:
// `x != None` is Java's `x != null`, `a = a + b` and `mark == false` are mutable expressions of
// their own, and the book's "exchange x ↔ y" stays three assignments.
#![allow(
    clippy::partialeq_to_none,
    clippy::assign_op_pattern,
    clippy::bool_comparison,
    clippy::manual_swap
)]

/// Index of a node in the arena.
pub type NodeId = usize;

/// The book's −∞, the key `delete` decreases a node to before extracting it.
pub const MINUS_INFINITY: i64 = i64::MIN;

/// Size of `consolidate`'s degree table: more than the largest degree D(n) of any heap that
/// fits in memory (D(n) ≤ log_φ n).
pub const DEGREE_TABLE: usize = 64;

/// A node: `child` is any one of its children, `left` and `right` its neighbours in the circular,
/// doubly-linked list of siblings (or of roots).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Node {
    #[korat(ints(0, n - 1))]
    pub key: i64,
    /// Number of children.
    #[korat(ints(0, n - 1))]
    pub degree: i64,
    pub parent: Option<NodeId>,
    pub child: Option<NodeId>,
    pub left: Option<NodeId>,
    pub right: Option<NodeId>,
    /// Whether the node has lost a child since it last became a child.
    #[korat(ints(crate::space::MARK, crate::space::MARK))]
    pub mark: bool,
}

/// The header of a second heap whose nodes already live in this heap's arena: the book's H₂
/// of FIB-HEAP-UNION (Java's second `FibonacciHeap` object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapRef {
    pub nodes: Option<NodeId>,
    pub min: Option<NodeId>,
    pub size: i64,
}

/// A Fibonacci heap: `nodes` is the root list (any of its roots), `min` a root with the smallest
/// key, `pool` the arena (not a field of the Java class).
#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct FibonacciHeap {
    pub nodes: Option<NodeId>,
    pub min: Option<NodeId>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(pool(n))]
    pub pool: Vec<Node>,
}

impl FibonacciHeap {
    /// The node `n` points to; `None` is a null dereference.
    pub fn node(&self, n: Option<NodeId>) -> &Node {
        &self.pool[n.expect("null dereference")]
    }

    /// The node `n` points to, for writing; `None` is a null dereference.
    pub fn node_mut(&mut self, n: Option<NodeId>) -> &mut Node {
        &mut self.pool[n.expect("null dereference")]
    }

    /// Allocates a lone node holding `key` (Java's `new Node(key)`): degree 0, no parent or
    /// child, a one-node sibling list, unmarked.
    pub fn new_node(&mut self, key: i64) -> Option<NodeId> {
        let id = self.pool.len();
        self.pool.push(Node {
            key,
            degree: 0,
            parent: None,
            child: None,
            left: Some(id),
            right: Some(id),
            mark: false,
        });
        Some(id)
    }

    /// Moves the nodes of `other` into this heap's arena and returns its header here. Plumbing
    /// for [`FibonacciHeap::union_heap`], not part of the algorithm.
    pub fn adopt(&mut self, other: FibonacciHeap) -> HeapRef {
        let offset = self.pool.len();
        let shift = |n: Option<NodeId>| n.map(|i| i + offset);
        for n in other.pool {
            self.pool.push(Node {
                parent: shift(n.parent),
                child: shift(n.child),
                left: shift(n.left),
                right: shift(n.right),
                ..n
            });
        }
        HeapRef {
            nodes: shift(other.nodes),
            min: shift(other.min),
            size: other.size,
        }
    }

    /// Java's `union(FibonacciHeap other)` on a separate heap object: adopts its arena, then
    /// runs [`FibonacciHeap::union`].
    pub fn union_heap(&mut self, other: FibonacciHeap) {
        let h2 = self.adopt(other);
        self.union(h2);
    }

    /// Concatenates the circular list containing `b` into the one containing `a`, right after
    /// `a` (the book's "concatenate the root list containing x with the root list of H").
    pub fn splice(&mut self, a: Option<NodeId>, b: Option<NodeId>) {
        let a_right = self.node(a).right;
        let b_left = self.node(b).left;
        self.node_mut(a).right = b;
        self.node_mut(b).left = a;
        self.node_mut(b_left).right = a_right;
        self.node_mut(a_right).left = b_left;
    }

    /// Removes `x` from its circular list (its own links are left as they were).
    pub fn unlink(&mut self, x: Option<NodeId>) {
        let left = self.node(x).left;
        let right = self.node(x).right;
        self.node_mut(left).right = right;
        self.node_mut(right).left = left;
    }

    /// FIB-HEAP-INSERT: adds a one-node tree holding `key` to the root list.
    pub fn insert(&mut self, key: i64) {
        let x = self.new_node(key);
        if self.nodes == None {
            self.nodes = x;
        } else {
            self.splice(self.nodes, x);
        }
        if self.min == None || self.node(x).key < self.node(self.min).key {
            self.min = x;
        }
        self.size = self.size + 1;
    }

    /// FIB-HEAP-UNION: concatenates the root list of `h2` with this one and keeps the smaller
    /// minimum.
    pub fn union(&mut self, h2: HeapRef) {
        if self.nodes == None {
            self.nodes = h2.nodes;
        } else if h2.nodes != None {
            self.splice(self.nodes, h2.nodes);
        }
        if self.min == None || (h2.min != None && self.node(h2.min).key < self.node(self.min).key) {
            self.min = h2.min;
        }
        self.size = self.size + h2.size;
    }

    /// FIB-HEAP-EXTRACT-MIN: removes the minimum root and returns its key (`None`, the book's
    /// NIL, on the empty heap). Its children join the root list, then `consolidate` links
    /// roots of equal degree.
    pub fn extract_min(&mut self) -> Option<i64> {
        let z = self.min;
        if z == None {
            return None;
        }
        let child = self.node(z).child;
        if child != None {
            // Add each child of z to the root list.
            let mut x = child;
            loop {
                self.node_mut(x).parent = None;
                x = self.node(x).right;
                if x == child {
                    break;
                }
            }
            self.splice(z, child);
            self.node_mut(z).child = None;
        }
        // Remove z from the root list.
        if z == self.node(z).right {
            self.nodes = None;
            self.min = None;
        } else {
            self.unlink(z);
            self.nodes = self.node(z).right;
            self.min = self.nodes;
            self.consolidate();
        }
        self.size = self.size - 1;
        Some(self.node(z).key)
    }

    /// CONSOLIDATE: links roots of equal degree (the smaller key on top) until every degree is
    /// distinct, then rebuilds the root list from the degree table and finds the minimum.
    pub fn consolidate(&mut self) {
        let mut a: [Option<NodeId>; DEGREE_TABLE] = [None; DEGREE_TABLE];
        // Count the roots first: linking removes roots from the list being walked.
        let mut roots = 0;
        let mut w = self.nodes;
        loop {
            roots = roots + 1;
            w = self.node(w).right;
            if w == self.nodes {
                break;
            }
        }
        while roots > 0 {
            let next = self.node(w).right;
            let mut x = w;
            let mut d = self.node(x).degree;
            while a[d as usize] != None {
                let mut y = a[d as usize];
                if self.node(x).key > self.node(y).key {
                    let temp = x;
                    x = y;
                    y = temp;
                }
                self.link(y, x);
                a[d as usize] = None;
                d = d + 1;
            }
            a[d as usize] = x;
            w = next;
            roots = roots - 1;
        }
        self.nodes = None;
        self.min = None;
        let mut i = 0;
        while i < DEGREE_TABLE {
            if a[i] != None {
                // Add a[i] to the (new) root list.
                self.node_mut(a[i]).left = a[i];
                self.node_mut(a[i]).right = a[i];
                if self.nodes == None {
                    self.nodes = a[i];
                } else {
                    self.splice(self.nodes, a[i]);
                }
                if self.min == None || self.node(a[i]).key < self.node(self.min).key {
                    self.min = a[i];
                }
            }
            i = i + 1;
        }
    }

    /// FIB-HEAP-LINK: removes the root `y` from the root list and makes it a child of the root
    /// `x`.
    pub fn link(&mut self, y: Option<NodeId>, x: Option<NodeId>) {
        self.unlink(y);
        self.node_mut(y).left = y;
        self.node_mut(y).right = y;
        self.node_mut(y).parent = x;
        if self.node(x).child == None {
            self.node_mut(x).child = y;
        } else {
            self.splice(self.node(x).child, y);
        }
        self.node_mut(x).degree = self.node(x).degree + 1;
        self.node_mut(y).mark = false;
    }

    /// FIB-HEAP-DECREASE-KEY: lowers the key of `x` to `k`; if that breaks heap order, cuts `x`
    /// from its parent and cascades. Returns false (the book's "error") when `k` is greater
    /// than the current key.
    pub fn decrease(&mut self, x: Option<NodeId>, k: i64) -> bool {
        if k > self.node(x).key {
            return false;
        }
        self.node_mut(x).key = k;
        let y = self.node(x).parent;
        if y != None && self.node(x).key < self.node(y).key {
            self.cut(x, y);
            self.cascading_cut(y);
        }
        if self.node(x).key < self.node(self.min).key {
            self.min = x;
        }
        true
    }

    /// CUT: removes `x` from the child list of `y` and makes it an unmarked root.
    pub fn cut(&mut self, x: Option<NodeId>, y: Option<NodeId>) {
        if self.node(x).right == x {
            self.node_mut(y).child = None;
        } else {
            if self.node(y).child == x {
                self.node_mut(y).child = self.node(x).right;
            }
            self.unlink(x);
        }
        self.node_mut(y).degree = self.node(y).degree - 1;
        self.node_mut(x).left = x;
        self.node_mut(x).right = x;
        self.splice(self.nodes, x);
        self.node_mut(x).parent = None;
        self.node_mut(x).mark = false;
    }

    /// CASCADING-CUT: marks `y` if it had not lost a child yet; otherwise cuts it too and goes
    /// on with its parent.
    pub fn cascading_cut(&mut self, y: Option<NodeId>) {
        let z = self.node(y).parent;
        if z != None {
            if self.node(y).mark == false {
                self.node_mut(y).mark = true;
            } else {
                self.cut(y, z);
                self.cascading_cut(z);
            }
        }
    }

    /// FIB-HEAP-DELETE of the node holding `key`: decreases it to −∞ and extracts the minimum.
    /// Returns whether `key` was present.
    pub fn delete(&mut self, key: i64) -> bool {
        let x = self.contains(self.nodes, key);
        if x == None {
            return false;
        }
        self.decrease(x, MINUS_INFINITY);
        self.extract_min();
        true
    }

    /// The first node holding `key` in the trees whose roots are the circular list through
    /// `start` (walked rightwards from `start`, a tree's root before its children); heap
    /// order lets the search skip subtrees whose root is already greater than `key`.
    pub fn contains(&self, start: Option<NodeId>, key: i64) -> Option<NodeId> {
        if start == None {
            return None;
        }
        let mut x = start;
        loop {
            if self.node(x).key == key {
                return x;
            }
            if self.node(x).key < key {
                let found = self.contains(self.node(x).child, key);
                if found != None {
                    return found;
                }
            }
            x = self.node(x).right;
            if x == start {
                break;
            }
        }
        None
    }
}
