//! Korat's side: the finitization (the paper's `finSearchTree(n)` of Fig. 4 with the method's
//! argument beside the receiver) and rendering. The field ids, the views and the decoder are
//! `#[derive(Korat)]`'s (`crate::tree`).

use ferastrau_sdk::korat::{Domain, Finitization};

use crate::tree::SearchTree;
pub use crate::tree::SearchTreeFields as Fields;

/// `finSearchTree(n)` (the `#[korat]` domains of [`SearchTree`]). With `with_arg`, the root
/// object also holds the argument `x`, over the same n values, so that receiver and argument
/// are generated jointly. Slots: root, size, [x], then per node left, right, info — the
/// declaration order that reproduces the original Korat's counts.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let x = [("x", Domain::ints(1, i64::from(n)))];
    SearchTree::finitization(root_name, n, if with_arg { &x } else { &[] })
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
