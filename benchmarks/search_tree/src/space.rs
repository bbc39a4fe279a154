//! Korat's side: the finitization (the paper's `finSearchTree(n)` of Fig. 4 with the method's
//! argument beside the receiver), the candidate view, and decoding a valid candidate.

use ferastrau_sdk::korat::{Candidate, Domain, FieldId, Finitization, FinitizationBuilder, ROOT};

use crate::invariant::TreeView;
use crate::tree::{Node, SearchTree};

/// Field ids of a search-tree finitization.
pub struct Fields {
    pub root: FieldId,
    pub size: FieldId,
    pub left: FieldId,
    pub right: FieldId,
    pub info: FieldId,
    /// The method's argument (`x` of `add(x)` / `remove(x)`); absent for the bare structure.
    pub arg: Option<FieldId>,
}

/// `finSearchTree(n)`: at most `n` nodes (or null), size 0..n, info over 1..n. With
/// `with_arg`, the root object also holds the argument, over the same n values, so that
/// receiver and argument are generated jointly. Slots: root, size, [arg], then per node
/// left, right, info — the declaration order that reproduces the original Korat's counts.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let n64 = i64::from(n);
    let mut b = FinitizationBuilder::new(root_name);
    let node = b.class("Node", n);
    b.field(ROOT, "root", Domain::nullable(node));
    b.field(ROOT, "size", Domain::ints(0, n64));
    if with_arg {
        b.field(ROOT, "x", Domain::ints(1, n64));
    }
    b.field(node, "left", Domain::nullable(node));
    b.field(node, "right", Domain::nullable(node));
    b.field(node, "info", Domain::ints(1, n64));
    let fin = b.build();
    let fields = Fields {
        root: fin.field(ROOT, "root"),
        size: fin.field(ROOT, "size"),
        left: fin.field(node, "left"),
        right: fin.field(node, "right"),
        info: fin.field(node, "info"),
        arg: with_arg.then(|| fin.field(ROOT, "x")),
    };
    (fin, fields)
}

/// A candidate seen as a tree; every first read of a field is recorded by Korat.
pub struct CandidateTree<'c, 'a> {
    pub c: &'c mut Candidate<'a>,
    pub f: &'c Fields,
}

impl TreeView for CandidateTree<'_, '_> {
    #[inline(always)]
    fn root(&mut self) -> Option<u32> {
        self.c.obj(self.f.root, 0)
    }
    #[inline(always)]
    fn size(&mut self) -> i64 {
        self.c.int(self.f.size, 0)
    }
    #[inline(always)]
    fn left(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.left, n)
    }
    #[inline(always)]
    fn right(&mut self, n: u32) -> Option<u32> {
        self.c.obj(self.f.right, n)
    }
    #[inline(always)]
    fn info(&mut self, n: u32) -> i64 {
        self.c.int(self.f.info, n)
    }
}

/// Builds the real tree of a valid candidate: the reachable nodes, numbered in pre-order.
pub fn decode_tree(c: &mut Candidate<'_>, f: &Fields) -> SearchTree {
    let mut view = CandidateTree { c, f };
    let mut tree = SearchTree {
        root: None,
        size: view.size(),
        nodes: Vec::new(),
    };
    let root = view.root();
    tree.root = copy(&mut view, &mut tree, root);
    tree
}

fn copy(v: &mut CandidateTree<'_, '_>, tree: &mut SearchTree, n: Option<u32>) -> Option<usize> {
    let n = n?;
    let id = tree.nodes.len();
    tree.nodes.push(Node {
        left: None,
        right: None,
        info: v.info(n),
    });
    let (l, r) = (v.left(n), v.right(n));
    let l = copy(v, tree, l);
    let r = copy(v, tree, r);
    tree.nodes[id].left = l;
    tree.nodes[id].right = r;
    Some(id)
}

/// Renders a tree as nested parentheses, `(2 (1) (3))`, with `_` for a missing child next to a
/// present one and `()` for the empty tree.
pub fn render_tree(t: &SearchTree) -> String {
    fn go(t: &SearchTree, n: usize, out: &mut String) {
        let node = &t.nodes[n];
        out.push('(');
        out.push_str(&node.info.to_string());
        if node.left.is_some() || node.right.is_some() {
            for child in [node.left, node.right] {
                out.push(' ');
                match child {
                    Some(c) => go(t, c, out),
                    None => out.push('_'),
                }
            }
        }
        out.push(')');
    }
    let mut s = String::new();
    match t.root {
        None => s.push_str("()"),
        Some(r) => go(t, r, &mut s),
    }
    s
}
