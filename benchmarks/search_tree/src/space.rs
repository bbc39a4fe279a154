//! Korat's side: the finitization (the paper's `finSearchTree(n)` of Fig. 4 with the method's
//! argument beside the receiver) and rendering. The field ids, the views and the decoder are
//! `#[derive(Korat)]`'s (`crate::tree`).

use ferastrau_sdk::korat::view::Root;
use ferastrau_sdk::korat::{Domain, Finitization, FinitizationBuilder, ROOT};

use crate::tree::SearchTree;
pub use crate::tree::SearchTreeFields as Fields;

/// `finSearchTree(n)`: at most `n` nodes (or null), size 0..n, info over 1..n. With
/// `with_arg`, the root object also holds the argument `x`, over the same n values, so that
/// receiver and argument are generated jointly. Slots: root, size, [x], then per node left,
/// right, info — the declaration order that reproduces the original Korat's counts.
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
    let fields = SearchTree::fields(&fin);
    (fin, fields)
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
