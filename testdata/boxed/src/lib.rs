//! A fixture for a structure linked by `Option<Box<Node>>` (no arena, no indices), a binary
//! search tree, with its inputs described both ways. Its own benchmark is a generator program
//! that builds the real tree (`ferastrau_sdk::generator` stores each input as its choices);
//! `--engine korat` runs Korat's search over the finitization `#[derive(Korat)]` writes from
//! the types' attributes, the candidates decoded into `Box`es. One invariant, written over the
//! derived view, filters both: on a candidate, and on a real tree through `Boxed`.

use ferastrau_sdk::generator::{Gen, Generated, Generator, Pruned};
use ferastrau_sdk::korat::view::{self, Root, View};
use ferastrau_sdk::korat::{Candidate, Domain, Finitization};
use ferastrau_sdk::{Benchmark, Korat};

/// A node and its subtrees.
#[derive(Clone, Debug, PartialEq, Korat)]
pub struct Node {
    #[korat(ints(0, n - 1))]
    pub key: i64,
    pub left: Option<Box<Node>>,
    pub right: Option<Box<Node>>,
}

/// A set of keys in a binary search tree.
#[derive(Clone, Debug, PartialEq, Korat)]
#[korat(pool(Node, n))]
pub struct Tree {
    pub root: Option<Box<Node>>,
    #[korat(ints(0, n))]
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

/// The class invariant over the derived view: the nodes form a tree (no node reached twice,
/// which only a candidate can break), keys strictly increase in order, and `size` counts them.
pub fn rep_ok_view(v: &mut impl TreeView) -> bool {
    fn walk(
        v: &mut impl TreeView,
        n: Option<u32>,
        seen: &mut Vec<u32>,
        keys: &mut Vec<i64>,
    ) -> bool {
        let Some(n) = n else {
            return true;
        };
        if seen.contains(&n) {
            return false;
        }
        seen.push(n);
        let left = v.left(n);
        if !walk(v, left, seen, keys) {
            return false;
        }
        keys.push(v.key(n));
        let right = v.right(n);
        walk(v, right, seen, keys)
    }
    let (mut seen, mut keys) = (Vec::new(), Vec::new());
    let root = v.root();
    walk(v, root, &mut seen, &mut keys)
        && keys.windows(2).all(|w| w[0] < w[1])
        && keys.len() as i64 == v.size()
}

/// The invariant on a real tree.
pub fn rep_ok(tree: &Tree) -> bool {
    rep_ok_view(&mut view::Boxed::new(tree))
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
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        &["insert", "contains"]
    }

    /// Every tree of up to `scope` nodes with keys in `0..scope`, and a key in `0..=scope`.
    fn generate(&self, _m: usize, scope: u32, g: &mut Gen<'_>) -> Result<(Tree, i64), Pruned> {
        let s = i64::from(scope);
        let size = g.pick(0..=s)?;
        // For the tests: a generator that panics on one path (a tree of two nodes).
        if size == 2 && std::env::var_os("FERASTRAU_BOXED_PANIC").is_some() {
            panic!("FERASTRAU_BOXED_PANIC: a tree of two nodes");
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
            *ret != present
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

/// The same benchmark over Korat's search: the finitization the attributes give (at most `n`
/// nodes, keys `0..n`, `size` 0..n) with the key argument 0..=n beside the tree, candidates
/// filtered by [`rep_ok_view`] and decoded into `Box`es; the calls, outputs and
/// postconditions are the generator program's.
pub struct KoratBoxed;

impl Benchmark for KoratBoxed {
    type Fields = TreeFields;
    type Input = (Tree, i64);
    type Ret = bool;
    type Abstraction = Vec<i64>;

    fn methods(&self) -> &'static [&'static str] {
        Boxed.methods()
    }
    fn finitize(&self, m: usize, scope: u32) -> (Finitization, TreeFields) {
        let key = [("key", Domain::ints(0, i64::from(scope)))];
        Tree::finitization(&format!("Tree_{}", self.methods()[m]), scope, &key)
    }
    fn precondition_is_invariant(&self, _m: usize) -> bool {
        true
    }
    fn precondition(&self, _m: usize, f: &TreeFields, c: &mut Candidate<'_>) -> bool {
        rep_ok_view(&mut View::new(c, f))
    }
    fn decode(&self, _m: usize, f: &TreeFields, c: &mut Candidate<'_>) -> (Tree, i64) {
        let key = c.int(f.extra("key").expect("the key argument"), 0);
        (Tree::decode(c, f), key)
    }
    fn run(&self, m: usize, input: &mut (Tree, i64)) -> bool {
        Boxed.run(m, input)
    }
    fn invariant(&self, input: &(Tree, i64)) -> bool {
        rep_ok(&input.0)
    }
    fn abstraction(&self, input: &(Tree, i64)) -> Vec<i64> {
        Boxed.abstraction(input)
    }
    fn postcondition(
        &self,
        m: usize,
        pre: &(Tree, i64),
        post: &(Tree, i64),
        ret: &bool,
    ) -> Result<(), String> {
        Boxed.postcondition(m, pre, post, ret)
    }
    fn render(&self, m: usize, input: &(Tree, i64)) -> String {
        Boxed.render(m, input)
    }
}

ferastrau_sdk::export!(Generated::new(Boxed), korat: KoratBoxed);
