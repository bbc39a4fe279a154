//! The code under test: a leftist heap (Crane 1972; Okasaki's *Purely Functional Data
//! Structures*, 3.1) of integer keys, linked by `Option<Box<Node>>`. Every node stores its rank,
//! the length of its right spine; a node's left child has a rank no smaller than its right's,
//! so the right spine is short and `merge` walks only right spines.

/// A node: its key, its rank and its two subtrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub key: i64,
    pub rank: i64,
    pub left: Option<Box<Node>>,
    pub right: Option<Box<Node>>,
}

/// A min-heap: the smallest key at the root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heap {
    pub root: Option<Box<Node>>,
    pub size: i64,
}

/// The rank of a subtree: 0 for the empty one.
pub fn rank(t: &Option<Box<Node>>) -> i64 {
    match t {
        None => 0,
        Some(n) => n.rank,
    }
}

/// Merges two heaps along their right spines, swapping children where the leftist property
/// would break.
pub fn merge(a: Option<Box<Node>>, b: Option<Box<Node>>) -> Option<Box<Node>> {
    match (a, b) {
        (None, t) => t,
        (t, None) => t,
        (Some(mut x), Some(mut y)) => {
            if y.key < x.key {
                std::mem::swap(&mut x, &mut y);
            }
            let right = merge(x.right.take(), Some(y));
            if rank(&x.left) < rank(&right) {
                x.right = x.left.take();
                x.left = right;
            } else {
                x.right = right;
            }
            x.rank = rank(&x.right) + 1;
            Some(x)
        }
    }
}

impl Heap {
    /// An empty heap.
    pub fn new() -> Heap {
        Heap::default()
    }

    /// Adds `key`: a heap of one node merged in.
    pub fn insert(&mut self, key: i64) {
        let single = Box::new(Node { key, rank: 1, left: None, right: None });
        self.root = merge(self.root.take(), Some(single));
        self.size += 1;
    }

    /// Removes and returns the smallest key, `None` when empty: the root goes, its two
    /// subtrees are merged.
    pub fn extract_min(&mut self) -> Option<i64> {
        let root = self.root.take()?;
        let Node { key, left, right, .. } = *root;
        self.root = merge(left, right);
        self.size -= 1;
        Some(key)
    }

    /// The smallest key, `None` when empty.
    pub fn peek(&self) -> Option<i64> {
        self.root.as_ref().map(|n| n.key)
    }

    /// Whether `key` is in the heap: a search that skips every subtree whose root is larger
    /// (heap order puts nothing smaller below it).
    pub fn contains(&self, key: i64) -> bool {
        fn find(t: &Option<Box<Node>>, key: i64) -> bool {
            match t {
                None => false,
                Some(n) if n.key > key => false,
                Some(n) => n.key == key || find(&n.left, key) || find(&n.right, key),
            }
        }
        find(&self.root, key)
    }

    /// The number of keys.
    pub fn len(&self) -> i64 {
        self.size
    }

    /// Whether the heap holds no key.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// Empties the heap into a vector, smallest key first.
    pub fn drain_sorted(&mut self) -> Vec<i64> {
        let mut out = Vec::new();
        while let Some(key) = self.extract_min() {
            out.push(key);
        }
        out
    }

    /// Moves every key of `other` into this heap.
    pub fn merge(&mut self, other: &mut Heap) {
        self.root = merge(self.root.take(), other.root.take());
        self.size += other.size;
        other.size = 0;
    }
}
