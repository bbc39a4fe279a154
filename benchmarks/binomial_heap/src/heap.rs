//! The code under test: a binomial min-heap, written from Cormen, Leiserson and Rivest
//! (Introduction to Algorithms, 2nd edition, ch. 19), on an arena.
//!
//! Java's `Node` references become `Option<NodeId>` into `nodes`; `x.sibling` reads become
//! `self.node(x).sibling`, which panics on `None` exactly where Java throws a
//! `NullPointerException`. Every procedure follows the book's pseudocode line for line:
//! BINOMIAL-HEAP-MINIMUM (`find_min`), BINOMIAL-LINK (`link`), BINOMIAL-HEAP-MERGE (`merge`),
//! BINOMIAL-HEAP-UNION (`union`), BINOMIAL-HEAP-INSERT (`insert`), BINOMIAL-HEAP-EXTRACT-MIN
//! (`extract_min`), BINOMIAL-HEAP-DECREASE-KEY (`decrease`) and BINOMIAL-HEAP-DELETE
//! (`delete`), plus the search `contains` that `delete` needs to find the node holding a key.

// Written the way the Java reads, so that the mutation operators map onto it as they do in Java:
// `x != None` is Java's `x != null`, `a = a + b` and a declared-then-assigned local are mutable
// expressions of their own.
#![allow(
    clippy::partialeq_to_none,
    clippy::assign_op_pattern,
    clippy::needless_late_init
)]

/// Index of a node in the arena.
pub type NodeId = usize;

/// The book's −∞, the key `delete` decreases a node to before extracting it.
pub const MINUS_INFINITY: i64 = i64::MIN;

/// A node of a binomial tree: `degree` counts its children, `sibling` is the next root in the
/// root list or the next child of the same parent, `child` the leftmost (highest-degree) child.
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Node {
    #[korat(ints(0, n - 1))]
    pub key: i64,
    #[korat(ints(0, n))]
    pub degree: i64,
    pub parent: Option<NodeId>,
    pub sibling: Option<NodeId>,
    pub child: Option<NodeId>,
}

/// The header of a second heap whose nodes already live in this heap's arena: the book's
/// H₂ of BINOMIAL-HEAP-UNION (Java's second `BinomialHeap` object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapRef {
    pub head: Option<NodeId>,
    pub size: i64,
}

/// A binomial heap: a root list of binomial trees of increasing degrees (`nodes`: the arena).
#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct BinomialHeap {
    pub head: Option<NodeId>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(pool(n))]
    pub nodes: Vec<Node>,
}

impl BinomialHeap {
    /// The node `n` points to; `None` is a null dereference.
    pub fn node(&self, n: Option<NodeId>) -> &Node {
        &self.nodes[n.expect("null dereference")]
    }

    /// The node `n` points to, for writing; `None` is a null dereference.
    pub fn node_mut(&mut self, n: Option<NodeId>) -> &mut Node {
        &mut self.nodes[n.expect("null dereference")]
    }

    /// Allocates a lone node holding `key` (Java's `new Node(key)`: degree 0, no links).
    pub fn new_node(&mut self, key: i64) -> Option<NodeId> {
        self.nodes.push(Node {
            key,
            degree: 0,
            parent: None,
            sibling: None,
            child: None,
        });
        Some(self.nodes.len() - 1)
    }

    /// Moves the nodes of `other` into this heap's arena and returns its header here. Plumbing
    /// for [`BinomialHeap::union_heap`], not part of the algorithm.
    pub fn adopt(&mut self, other: BinomialHeap) -> HeapRef {
        let offset = self.nodes.len();
        let shift = |n: Option<NodeId>| n.map(|i| i + offset);
        for n in other.nodes {
            self.nodes.push(Node {
                parent: shift(n.parent),
                sibling: shift(n.sibling),
                child: shift(n.child),
                ..n
            });
        }
        HeapRef {
            head: shift(other.head),
            size: other.size,
        }
    }

    /// Java's `union(BinomialHeap other)` on a separate heap object: adopts its arena, then
    /// runs [`BinomialHeap::union`].
    pub fn union_heap(&mut self, other: BinomialHeap) {
        let h2 = self.adopt(other);
        self.union(h2);
    }

    /// BINOMIAL-HEAP-INSERT: makes a one-node heap holding `key` and unites it with this one.
    pub fn insert(&mut self, key: i64) {
        let x = self.new_node(key);
        let h2 = HeapRef { head: x, size: 1 };
        self.union(h2);
    }

    /// BINOMIAL-HEAP-MINIMUM: the root with the smallest key (the first such root), or `None`
    /// for the empty heap.
    pub fn find_min(&self) -> Option<NodeId> {
        let mut y: Option<NodeId> = None;
        let mut x = self.head;
        let mut min = i64::MAX;
        while x != None {
            if self.node(x).key < min {
                min = self.node(x).key;
                y = x;
            }
            x = self.node(x).sibling;
        }
        y
    }

    /// BINOMIAL-LINK: makes the root `y` the leftmost child of the root `z` (same degree).
    pub fn link(&mut self, y: Option<NodeId>, z: Option<NodeId>) {
        self.node_mut(y).parent = z;
        self.node_mut(y).sibling = self.node(z).child;
        self.node_mut(z).child = y;
        self.node_mut(z).degree = self.node(z).degree + 1;
    }

    /// BINOMIAL-HEAP-MERGE: merges the root lists starting at `h1` and `h2` into one list
    /// sorted by nondecreasing degree; returns its head.
    pub fn merge(&mut self, h1: Option<NodeId>, h2: Option<NodeId>) -> Option<NodeId> {
        let mut a = h1;
        let mut b = h2;
        let mut head: Option<NodeId> = None;
        let mut tail: Option<NodeId> = None;
        while a != None && b != None {
            let next: Option<NodeId>;
            if self.node(a).degree <= self.node(b).degree {
                next = a;
                a = self.node(a).sibling;
            } else {
                next = b;
                b = self.node(b).sibling;
            }
            if tail == None {
                head = next;
            } else {
                self.node_mut(tail).sibling = next;
            }
            tail = next;
        }
        let rest: Option<NodeId>;
        if a != None {
            rest = a;
        } else {
            rest = b;
        }
        if tail == None {
            head = rest;
        } else {
            self.node_mut(tail).sibling = rest;
        }
        head
    }

    /// BINOMIAL-HEAP-UNION: merges the root lists, then links roots of equal degree until the
    /// degrees are distinct (the book's cases 1–4).
    pub fn union(&mut self, h2: HeapRef) {
        self.head = self.merge(self.head, h2.head);
        self.size = self.size + h2.size;
        if self.head == None {
            return;
        }
        let mut prev_x: Option<NodeId> = None;
        let mut x = self.head;
        let mut next_x = self.node(x).sibling;
        while next_x != None {
            if self.node(x).degree != self.node(next_x).degree
                || (self.node(next_x).sibling != None
                    && self.node(self.node(next_x).sibling).degree == self.node(x).degree)
            {
                // Cases 1 and 2.
                prev_x = x;
                x = next_x;
            } else if self.node(x).key <= self.node(next_x).key {
                // Case 3.
                self.node_mut(x).sibling = self.node(next_x).sibling;
                self.link(next_x, x);
            } else {
                // Case 4.
                if prev_x == None {
                    self.head = next_x;
                } else {
                    self.node_mut(prev_x).sibling = next_x;
                }
                self.link(x, next_x);
                x = next_x;
            }
            next_x = self.node(x).sibling;
        }
    }

    /// BINOMIAL-HEAP-EXTRACT-MIN: removes a root with the smallest key and returns that key;
    /// `None` (the book's NIL) for the empty heap. The removed root's children, in reverse
    /// order, form a second heap that is united with the rest.
    pub fn extract_min(&mut self) -> Option<i64> {
        let x = self.find_min();
        if x == None {
            return None;
        }
        // Remove x from the root list.
        let mut prev: Option<NodeId> = None;
        let mut current = self.head;
        while current != x {
            prev = current;
            current = self.node(current).sibling;
        }
        if prev == None {
            self.head = self.node(x).sibling;
        } else {
            self.node_mut(prev).sibling = self.node(x).sibling;
        }
        // Reverse the order of x's children and clear their parents.
        let mut reversed: Option<NodeId> = None;
        let mut child = self.node(x).child;
        while child != None {
            let next = self.node(child).sibling;
            self.node_mut(child).sibling = reversed;
            self.node_mut(child).parent = None;
            reversed = child;
            child = next;
        }
        // The children are already counted in size; only x leaves the heap.
        self.size = self.size - 1;
        let h2 = HeapRef {
            head: reversed,
            size: 0,
        };
        self.union(h2);
        Some(self.node(x).key)
    }

    /// BINOMIAL-HEAP-DECREASE-KEY: lowers the key of node `x` to `k` and bubbles it up by
    /// exchanging keys with its ancestors. Returns false (the book's "error") when `k` is
    /// greater than the current key.
    pub fn decrease(&mut self, x: Option<NodeId>, k: i64) -> bool {
        if k > self.node(x).key {
            return false;
        }
        self.node_mut(x).key = k;
        let mut y = x;
        let mut z = self.node(y).parent;
        while z != None && self.node(y).key < self.node(z).key {
            let temp = self.node(y).key;
            self.node_mut(y).key = self.node(z).key;
            self.node_mut(z).key = temp;
            y = z;
            z = self.node(y).parent;
        }
        true
    }

    /// BINOMIAL-HEAP-DELETE of the node holding `key`: decreases it to −∞ and extracts the
    /// minimum. Returns whether `key` was present.
    pub fn delete(&mut self, key: i64) -> bool {
        let x = self.contains(self.head, key);
        if x == None {
            return false;
        }
        self.decrease(x, MINUS_INFINITY);
        self.extract_min();
        true
    }

    /// The first node holding `key` in the trees whose roots are the list starting at `start`
    /// (searched in list order, a tree's root before its children); heap order lets the search
    /// skip subtrees whose root is already greater than `key`.
    pub fn contains(&self, start: Option<NodeId>, key: i64) -> Option<NodeId> {
        let mut temp = start;
        let mut found: Option<NodeId> = None;
        while temp != None && found == None {
            if self.node(temp).key == key {
                found = temp;
            } else if self.node(temp).key < key {
                found = self.contains(self.node(temp).child, key);
            }
            temp = self.node(temp).sibling;
        }
        found
    }
}
