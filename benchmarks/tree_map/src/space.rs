//! Korat's side: the finitization (with the method's key argument beside the receiver) and
//! rendering. The field ids, the views and the decoder are `#[derive(Korat)]`'s
//! (`crate::tree_map`).

use ferastrau_sdk::korat::{Domain, Finitization};

pub use crate::tree_map::TreeMapFields as Fields;
use crate::tree_map::{TreeMap, RED};

/// The one value every entry maps to (the finitization fixes the `value` field), and the value
/// that `put` stores. In Java the value is an `Object`, which no `int` can stand for; here it
/// is an `i64` like `compare`'s result, the keys and `size`, so it is chosen to equal none of
/// them (−1, 0, 1; keys 1..n; sizes 0..n at any scope Korat can reach): with 0, the mutants that
/// put `cmp` for a value (`Some(cmp)`, `value = cmp`, `cmp == value`) coincided with the
/// original and survived.
pub const VALUE: i64 = 1000;

/// Scope `n` (the `#[korat]` domains of [`TreeMap`]): at most `n` entries (or null), `size`
/// 0..n, keys over 1..n, the value fixed, colour red (0) or black (1). With `with_arg`, the root
/// object also holds the key argument, over the same `n` keys, so that receiver and argument are
/// generated jointly. Slots: root, size, [key argument], then per entry key, value, left, right,
/// parent, color.
pub fn finitization(root_name: &str, n: u32, with_arg: bool) -> (Finitization, Fields) {
    let k = [("k", Domain::ints(1, i64::from(n)))];
    TreeMap::finitization(root_name, n, if with_arg { &k } else { &[] })
}

/// Renders a map as nested parentheses of `key` + colour (`R`/`B`), e.g. `(2B (1R) (3R))`,
/// with `_` for a missing child next to a present one and `()` for the empty map.
pub fn render_map(m: &TreeMap) -> String {
    fn go(m: &TreeMap, e: usize, depth: usize, out: &mut String) {
        let entry = &m.entries[e];
        out.push('(');
        out.push_str(&entry.key.to_string());
        out.push(if entry.color == RED { 'R' } else { 'B' });
        if depth > m.entries.len() {
            // A cycle (only in a faulty post-state): stop rather than recurse forever.
            out.push_str(" ...)");
            return;
        }
        if entry.left.is_some() || entry.right.is_some() {
            for child in [entry.left, entry.right] {
                out.push(' ');
                match child {
                    Some(c) => go(m, c, depth + 1, out),
                    None => out.push('_'),
                }
            }
        }
        out.push(')');
    }
    let mut s = String::new();
    match m.root {
        None => s.push_str("()"),
        Some(r) => go(m, r, 0, &mut s),
    }
    s
}
