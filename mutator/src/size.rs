//! The size of the code under test, as the paper's Table 1 gives it: non-comment non-blank
//! lines and branches of every function the crate's `mutate` list names, counted on the syntax
//! tree (never by hand, so that a change to a benchmark changes its Table 1 row).
//!
//! **Lines**: the lines from a function's `fn` keyword (its visibility, if any) to its closing
//! brace that hold something other than whitespace and comments; attributes and doc comments
//! above it are not counted (Java's line counts do not count Javadoc either).
//!
//! **Branches**: decision points, the way the paper counts them (its SearchTree, `add`,
//! `remove`, `removeNode` and `contains`, has 20 for about 18 `if`s and loops): one per `if`
//! (an `else if` is an `if` of its own, a plain `else` adds nothing), one per loop condition
//! (`while`, `for`; a bare `loop` decides nothing, its exits are `if`s), one per `&&` and
//! `||`, one per `?`, and, for a `match` of n arms, n − 1 (a two-armed `match` is an `if`).

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::items::{each_fn_mut, load_declared};

/// One mutated function's size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FnSize {
    /// `Type::method` or `function`, as the catalog names it.
    pub function: String,
    pub file: String,
    /// The line of the `fn` keyword.
    pub line: usize,
    pub ncnb_lines: usize,
    pub branches: usize,
}

/// The size of every function in the crate's `mutate` list, in source order.
pub fn function_sizes(crate_dir: &Path) -> Result<Vec<FnSize>> {
    let (sources, declared) = load_declared(crate_dir)?;
    let mut out = Vec::new();
    for file in &sources.files {
        let lines: Vec<bool> = code_lines(&file.text);
        let mut items = file.ast.items.clone();
        each_fn_mut(&mut items, &file.module, &mut |site, parts| {
            if declared.role(site) != Some(crate::items::Role::Code) {
                return;
            }
            let first = parts.sig.span().start().line;
            let last = parts.block.brace_token.span.close().end().line;
            let ncnb_lines = (first..=last)
                .filter(|l| lines.get(l - 1).copied().unwrap_or(false))
                .count();
            let mut counter = Branches(0);
            counter.visit_block(parts.block);
            out.push(FnSize {
                function: site.display(),
                file: file.rel.clone(),
                line: first,
                ncnb_lines,
                branches: counter.0,
            });
        });
    }
    Ok(out)
}

/// For each line of `text`: whether it holds code (anything but whitespace and comments).
fn code_lines(text: &str) -> Vec<bool> {
    let mut in_block = 0usize;
    text.lines()
        .map(|line| {
            let mut code = false;
            let b = line.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if in_block > 0 {
                    if b[i..].starts_with(b"*/") {
                        in_block -= 1;
                        i += 2;
                    } else if b[i..].starts_with(b"/*") {
                        in_block += 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                } else if b[i..].starts_with(b"//") {
                    break;
                } else if b[i..].starts_with(b"/*") {
                    in_block += 1;
                    i += 2;
                } else {
                    code |= !b[i].is_ascii_whitespace();
                    i += 1;
                }
            }
            code
        })
        .collect()
}

/// Counts decision points (see the module's documentation).
struct Branches(usize);

impl<'ast> Visit<'ast> for Branches {
    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        self.0 += 1;
        syn::visit::visit_expr_if(self, e);
    }
    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.0 += 1;
        syn::visit::visit_expr_while(self, e);
    }
    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.0 += 1;
        syn::visit::visit_expr_for_loop(self, e);
    }
    fn visit_expr_match(&mut self, e: &'ast syn::ExprMatch) {
        self.0 += e.arms.len().saturating_sub(1);
        syn::visit::visit_expr_match(self, e);
    }
    fn visit_expr_binary(&mut self, e: &'ast syn::ExprBinary) {
        if matches!(e.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) {
            self.0 += 1;
        }
        syn::visit::visit_expr_binary(self, e);
    }
    fn visit_expr_try(&mut self, e: &'ast syn::ExprTry) {
        self.0 += 1;
        syn::visit::visit_expr_try(self, e);
    }
    /// A nested function is a function of its own, not part of this one's size.
    fn visit_item_fn(&mut self, _: &'ast syn::ItemFn) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_lines_are_not_code() {
        let text = "fn f() {\n\n    // note\n    let x = 1; // trailing\n    /* a\n       b */\n    /* c */ x\n}\n";
        assert_eq!(
            code_lines(text),
            vec![true, false, false, true, false, false, true, true]
        );
    }

    #[test]
    fn branches_are_decision_points() {
        let f: syn::ItemFn = syn::parse_str(
            "fn f(a: bool, b: bool, o: Option<u8>) -> Option<u8> {
                if a && b { return None; } else if a || b { } else { }
                while a { } for _ in 0..3 { } loop { break; }
                match o { Some(0) => {}, Some(_) => {}, None => {} }
                let x = o?;
                fn inner(c: bool) { if c {} }
                Some(x)
            }",
        )
        .unwrap();
        let mut c = Branches(0);
        c.visit_block(&f.block);
        // if, else if, &&, ||, while, for, match of 3 arms (2), ?
        assert_eq!(c.0, 9);
    }
}
