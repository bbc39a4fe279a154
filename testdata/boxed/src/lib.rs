//! A fixture for generator-style benchmarks: a binary search tree linked by
//! `Option<Box<Node>>` (no arena, no indices), whose inputs are a generator program that builds
//! the real tree and filters it with the invariant written once over the real type. No
//! finitization, view or decoder: `ferastrau_sdk::generator` stores each input as its choices.

use ferastrau_sdk::generator::{Gen, Generated, Generator, Pruned};

/// A node and its subtrees.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub key: i64,
    pub left: Option<Box<Node>>,
    pub right: Option<Box<Node>>,
}

/// A set of keys in a binary search tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    pub root: Option<Box<Node>>,
    pub size: usize,
}

impl Tree {
    /// Adds `key` if absent; returns whether it was absent.
    pub fn insert(&mut self, key: i64) -> bool {
        let mut at = &mut self.root;
        while let Some(node) = at {
            if key == node.key {
                return false;
            }
            at = if key < node.key {
                &mut node.left
            } else {
                &mut node.right
            };
        }
        *at = Some(Box::new(Node {
            key,
            left: None,
            right: None,
        }));
        self.size += 1;
        true
    }

    /// Whether `key` is in the tree.
    pub fn contains(&self, key: i64) -> bool {
        let mut at = &self.root;
        while let Some(node) = at {
            if key == node.key {
                return true;
            }
            at = if key < node.key {
                &node.left
            } else {
                &node.right
            };
        }
        false
    }
}

fn keys(node: &Option<Box<Node>>, out: &mut Vec<i64>) {
    if let Some(n) = node {
        keys(&n.left, out);
        out.push(n.key);
        keys(&n.right, out);
    }
}

/// The class invariant: keys strictly increasing in order, and `size` their number.
pub fn rep_ok(tree: &Tree) -> bool {
    let mut all = Vec::new();
    keys(&tree.root, &mut all);
    all.windows(2).all(|w| w[0] < w[1]) && all.len() == tree.size
}

/// A tree of exactly `n` nodes, keys in `0..domain`: the shape by the size of the left subtree
/// (UDITA's Fig. 23), each key a choice.
fn tree(g: &mut Gen<'_>, n: i64, domain: i64) -> Result<Option<Box<Node>>, Pruned> {
    if n == 0 {
        return Ok(None);
    }
    let left_size = g.pick(0..=n - 1)?;
    let left = tree(g, left_size, domain)?;
    let key = g.pick(0..=domain - 1)?;
    let right = tree(g, n - 1 - left_size, domain)?;
    Ok(Some(Box::new(Node { key, left, right })))
}

pub struct Boxed;

impl Generator for Boxed {
    type Input = (Tree, i64);
    type Ret = bool;
    type Abs = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        &["insert", "contains"]
    }

    /// Every tree of up to `scope` nodes with keys in `0..scope`, and a key in `0..=scope`.
    fn generate(&self, _m: usize, scope: u32, g: &mut Gen<'_>) -> Result<(Tree, i64), Pruned> {
        let s = i64::from(scope);
        let size = g.pick(0..=s)?;
        // For the tests: a generator that panics on one path (a tree of two nodes).
        if size == 2 && std::env::var_os("BOXED_PANIC").is_some() {
            panic!("BOXED_PANIC: a tree of two nodes");
        }
        let root = tree(g, size, s)?;
        let tree = Tree {
            root,
            size: size as usize,
        };
        g.assume(rep_ok(&tree))?;
        Ok((tree, g.pick(0..=s)?))
    }

    fn run(&self, m: usize, input: &mut (Tree, i64)) -> bool {
        let (tree, key) = input;
        match m {
            0 => tree.insert(*key),
            _ => tree.contains(*key),
        }
    }

    fn invariant(&self, input: &(Tree, i64)) -> bool {
        rep_ok(&input.0)
    }

    fn abstraction(&self, input: &(Tree, i64)) -> Vec<i64> {
        let mut all = Vec::new();
        keys(&input.0.root, &mut all);
        all
    }

    fn postcondition(
        &self,
        m: usize,
        pre: &(Tree, i64),
        post: &(Tree, i64),
        ret: &bool,
    ) -> Result<(), String> {
        let before = self.abstraction(pre);
        let present = before.contains(&pre.1);
        let mut want = before;
        if m == 0 && !present {
            want.push(pre.1);
            want.sort_unstable();
        }
        let ret_ok = if m == 0 {
            *ret == !present
        } else {
            *ret == present
        };
        if self.abstraction(post) == want && ret_ok {
            Ok(())
        } else {
            Err(format!(
                "expected {want:?} and {}",
                if m == 0 { !present } else { present }
            ))
        }
    }

    fn render(&self, m: usize, input: &(Tree, i64)) -> String {
        fn show(node: &Option<Box<Node>>) -> String {
            match node {
                None => "-".into(),
                Some(n) => format!("({} {} {})", show(&n.left), n.key, show(&n.right)),
            }
        }
        format!(
            "{}({}) on {}",
            self.methods()[m],
            input.1,
            show(&input.0.root)
        )
    }
}

ferastrau_sdk::export!(Generated::new(Boxed));
