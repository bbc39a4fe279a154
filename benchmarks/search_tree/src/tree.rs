//! The code under test: a port of the paper's `SearchTree` (Appendix A) to an arena.
//!
//! Java's `Node` references become `Option<NodeId>` into `nodes`; `n.left` reads become
//! `self.node(n).left`, which panics on `None` exactly where Java throws a
//! `NullPointerException`. The statements and branches follow the Java code one for one, so
//! that the mutants match the paper's (e.g. `temp = left.right` in `remove_node`'s loop).

/// Index of a node in the arena.
pub type NodeId = usize;

/// A tree node (the paper's `SearchTree.Node`).
#[derive(Clone, Debug, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct Node {
    pub left: Option<NodeId>,
    pub right: Option<NodeId>,
    /// The element. Java's `Comparable info` may be null; the finitization never puts null
    /// there, so the port uses a plain integer.
    #[korat(ints(1, n))]
    pub info: i64,
}

/// A set of integers as a binary search tree. Its `#[korat]` attributes give Fig. 4's
/// `finSearchTree(n)`: at most `n` nodes, `size` 0..n, `info` over 1..n.
#[derive(Clone, Debug, Default, PartialEq, Eq, ferastrau_sdk::Korat)]
pub struct SearchTree {
    pub root: Option<NodeId>,
    #[korat(ints(0, n))]
    pub size: i64,
    #[korat(pool(n))]
    pub nodes: Vec<Node>,
}

/// Java's `a.compareTo(b)` on integers: −1, 0 or 1 (`Ordering`'s discriminants).
pub fn compare_to(a: i64, b: i64) -> i64 {
    a.cmp(&b) as i64
}

impl SearchTree {
    /// The node `n` points to; `None` is a null dereference.
    pub fn node(&self, n: Option<NodeId>) -> &Node {
        &self.nodes[n.expect("null dereference")]
    }

    /// The node `n` points to, for writing; `None` is a null dereference.
    pub fn node_mut(&mut self, n: Option<NodeId>) -> &mut Node {
        &mut self.nodes[n.expect("null dereference")]
    }

    /// Allocates a leaf holding `info` (Java's `new Node(info)`).
    pub fn new_node(&mut self, info: i64) -> Option<NodeId> {
        self.nodes.push(Node {
            left: None,
            right: None,
            info,
        });
        Some(self.nodes.len() - 1)
    }

    /// Adds `info`; returns whether it was absent. Textbook insertion (CLR's TREE-INSERT)
    /// after a membership test.
    pub fn add(&mut self, info: i64) -> bool {
        if self.contains(info) {
            return false;
        }
        let mut parent: Option<NodeId> = None;
        let mut current = self.root;
        while current != None {
            parent = current;
            if compare_to(info, self.node(current).info) < 0 {
                current = self.node(current).left;
            } else {
                current = self.node(current).right;
            }
        }
        let added = self.new_node(info);
        if parent == None {
            self.root = added;
        } else if compare_to(info, self.node(parent).info) < 0 {
            self.node_mut(parent).left = added;
        } else {
            self.node_mut(parent).right = added;
        }
        self.size += 1;
        true
    }

    /// Removes `info`; returns whether it was present (Appendix A).
    pub fn remove(&mut self, info: i64) -> bool {
        let mut parent: Option<NodeId> = None;
        let mut current = self.root;
        while current != None {
            let cmp = compare_to(info, self.node(current).info);
            if cmp < 0 {
                parent = current;
                current = self.node(current).left;
            } else if cmp > 0 {
                parent = current;
                current = self.node(current).right;
            } else {
                break;
            }
        }
        if current == None {
            return false;
        }
        let change = self.remove_node(current);
        if parent == None {
            self.root = change;
        } else if self.node(parent).left == current {
            self.node_mut(parent).left = change;
        } else {
            self.node_mut(parent).right = change;
        }
        true
    }

    /// Unlinks the node `current` and returns the subtree that replaces it (Appendix A).
    pub fn remove_node(&mut self, current: Option<NodeId>) -> Option<NodeId> {
        self.size -= 1;
        let left = self.node(current).left;
        let right = self.node(current).right;
        if left == None {
            return right;
        }
        if right == None {
            return left;
        }
        if self.node(left).right == None {
            self.node_mut(current).info = self.node(left).info;
            self.node_mut(current).left = self.node(left).left;
            return current;
        }
        let mut temp = left;
        while self.node(self.node(temp).right).right != None {
            temp = self.node(temp).right;
        }
        self.node_mut(current).info = self.node(self.node(temp).right).info;
        self.node_mut(temp).right = self.node(self.node(temp).right).left;
        current
    }

    /// Whether `info` is in the tree.
    pub fn contains(&self, info: i64) -> bool {
        let mut current = self.root;
        while current != None {
            let cmp = compare_to(info, self.node(current).info);
            if cmp < 0 {
                current = self.node(current).left;
            } else if cmp > 0 {
                current = self.node(current).right;
            } else {
                return true;
            }
        }
        false
    }
}
