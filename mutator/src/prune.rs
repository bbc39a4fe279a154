//! Compile-pruning: compile the metamutant (`cargo check`, or the worker's build: see
//! [`crate::compile`]), map each error back to the mutant whose arm it lands in, and say which
//! mutants to drop.
//!
//! The generated code is laid out so that every mutant's replacement is an arm of its own,
//! `17 => left,`, of a `match ::ferastrau_probes::active()`; re-parsing the formatted output
//! gives each arm's span, and the innermost arm around an error's span is the mutant to
//! blame. Errors outside every arm (say, a borrow conflict reported at a later use) are left
//! to the caller's bisection.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;
use syn::visit::Visit;

use crate::compile::Compiler;
use crate::rewrite::extent;

/// A stretch of a source file: (line, column) positions, 1-based, the end exclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub file: String,
    pub start: (usize, usize),
    pub end: (usize, usize),
}

impl Region {
    fn contains(&self, other: &Region) -> bool {
        self.file == other.file && self.start <= other.start && other.end <= self.end
    }
}

/// A compiler error, as much of it as pruning needs.
#[derive(Clone, Debug)]
pub struct CompileError {
    pub message: String,
    pub rendered: String,
    /// Primary spans first.
    pub spans: Vec<Region>,
}

#[derive(Deserialize)]
struct CargoMessage {
    reason: String,
    message: Option<RustcMessage>,
}

#[derive(Deserialize)]
struct RustcMessage {
    level: String,
    message: String,
    rendered: Option<String>,
    #[serde(default)]
    spans: Vec<RustcSpan>,
}

#[derive(Deserialize)]
struct RustcSpan {
    file_name: String,
    line_start: usize,
    line_end: usize,
    column_start: usize,
    column_end: usize,
    is_primary: bool,
}

/// Compiles the library of the crate in `dir` as `compiler` says and returns its errors (none
/// when clean), their file names relative to `dir` (a crate compiled as another's dependency
/// gets absolute ones).
pub fn compile_errors(dir: &Path, compiler: &Compiler) -> Result<Vec<CompileError>> {
    compile_errors_watched(dir, compiler, &mut |_| {})
}

/// [`compile_errors`], with every line cargo prints passed to `watch` as it comes
/// ([`crate::compile::output_watched`]).
pub fn compile_errors_watched(
    dir: &Path,
    compiler: &Compiler,
    watch: &mut dyn FnMut(crate::compile::Line),
) -> Result<Vec<CompileError>> {
    let out = crate::compile::output_watched(&mut compiler.command(dir)?, watch)
        .context("cannot run cargo")?;
    let mut errors = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<CargoMessage>(line) else {
            continue;
        };
        let Some(m) = msg.message.filter(|_| msg.reason == "compiler-message") else {
            continue;
        };
        if m.level != "error" || m.spans.is_empty() && m.message.starts_with("aborting") {
            continue;
        }
        let mut spans: Vec<&RustcSpan> = m.spans.iter().collect();
        spans.sort_by_key(|s| !s.is_primary);
        errors.push(CompileError {
            rendered: m.rendered.clone().unwrap_or_else(|| m.message.clone()),
            message: m.message,
            spans: spans
                .into_iter()
                .map(|s| Region {
                    file: relative(dir, &s.file_name).replace('\\', "/"),
                    start: (s.line_start, s.column_start),
                    end: (s.line_end, s.column_end),
                })
                .collect(),
        });
    }
    if !out.status.success() && errors.is_empty() {
        bail!(
            "cargo ({:?}) failed in {}:\n{}",
            compiler.mode,
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                // `-vv`'s lines for every unit: the failing one's is in its error.
                .filter(|l| !["Fresh ", "Dirty ", "Running `"]
                    .iter()
                    .any(|p| l.trim_start().starts_with(p)))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    Ok(errors)
}

/// `file` relative to `dir` when it lies in it, else as it is.
fn relative(dir: &Path, file: &str) -> String {
    Path::new(file)
        .strip_prefix(dir)
        .map(|rel| rel.to_string_lossy().into_owned())
        .unwrap_or_else(|_| file.to_string())
}

/// Where each mutant's arm and each function lie in the generated files.
#[derive(Default, Debug)]
pub struct ArmMap {
    /// Each mutant's arm (a mutant has several when its expression was copied).
    arms: Vec<(u32, Region)>,
    /// Each function, with the mutants whose arms it holds.
    fns: Vec<(Region, BTreeSet<u32>)>,
}

impl ArmMap {
    /// Records the arms and functions of one generated file.
    pub fn add_file(&mut self, rel: &str, text: &str) -> Result<()> {
        let ast =
            syn::parse_file(text).with_context(|| format!("the generated {rel} does not parse"))?;
        let mut v = ArmVisitor {
            arms: Vec::new(),
            fns: Vec::new(),
        };
        v.visit_file(&ast);
        let region = |(start, end)| Region {
            file: rel.to_string(),
            start,
            end,
        };
        for (id, at) in v.arms {
            self.arms.push((id, region(at)));
        }
        for at in v.fns {
            let f = region(at);
            let ids = self
                .arms
                .iter()
                .filter(|(_, a)| f.contains(a))
                .map(|(id, _)| *id)
                .collect();
            self.fns.push((f, ids));
        }
        Ok(())
    }

    /// The mutant to blame for an error: the innermost arm around one of its spans, trying
    /// the primary spans first.
    pub fn blame(&self, err: &CompileError) -> Option<u32> {
        err.spans.iter().find_map(|span| {
            self.arms
                .iter()
                .filter(|(_, arm)| arm.contains(span))
                .max_by_key(|(_, arm)| arm.start)
                .map(|(id, _)| *id)
        })
    }

    /// Mutants whose arms are in the same function as the error's primary span.
    pub fn suspects(&self, err: &CompileError) -> Option<BTreeSet<u32>> {
        let span = err.spans.first()?;
        self.fns
            .iter()
            .find(|(f, _)| f.contains(span))
            .map(|(_, ids)| ids.clone())
            .filter(|ids| !ids.is_empty())
    }
}

/// A (start, end) pair of (line, column) positions.
type Extent = ((usize, usize), (usize, usize));

struct ArmVisitor {
    arms: Vec<(u32, Extent)>,
    fns: Vec<Extent>,
}

fn one_based(node: &impl quote::ToTokens) -> Option<Extent> {
    extent(node).map(|(s, e)| ((s.line, s.column + 1), (e.line, e.column + 1)))
}

/// `__ferastrau_active` or `::ferastrau_probes::active()`.
fn is_switch(e: &syn::Expr) -> bool {
    if let syn::Expr::Path(p) = e {
        return p.path.is_ident("__ferastrau_active");
    }
    let syn::Expr::Call(c) = e else { return false };
    let syn::Expr::Path(p) = &*c.func else {
        return false;
    };
    crate::items::segment_names(&p.path) == ["ferastrau_probes", "active"]
}

impl ArmVisitor {
    fn record_fn(&mut self, node: &impl quote::ToTokens) {
        self.fns.extend(one_based(node));
    }
}

impl<'ast> Visit<'ast> for ArmVisitor {
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        if is_switch(&m.expr) {
            for arm in &m.arms {
                let syn::Pat::Lit(l) = &arm.pat else { continue };
                let syn::Lit::Int(i) = &l.lit else { continue };
                let (Ok(id), Some(at)) = (i.base10_parse::<u32>(), one_based(arm)) else {
                    continue;
                };
                self.arms.push((id, at));
            }
        }
        syn::visit::visit_expr_match(self, m);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.record_fn(f);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.record_fn(f);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.record_fn(f);
        syn::visit::visit_trait_item_fn(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_blamed_on_the_innermost_arm() {
        let text = "fn f(a: u32, b: bool) -> u32 {\n    (match ::ferastrau_probes::active() {\n        3 => g((match ::ferastrau_probes::active() {\n            4 => b,\n            _ => a,\n        })),\n        _ => g(a),\n    })\n}\n";
        let mut map = ArmMap::default();
        map.add_file("src/lib.rs", text).unwrap();
        let err = |line, col| CompileError {
            message: "mismatched types".into(),
            rendered: String::new(),
            spans: vec![Region {
                file: "src/lib.rs".into(),
                start: (line, col),
                end: (line, col + 1),
            }],
        };
        assert_eq!(map.blame(&err(4, 18)), Some(4));
        assert_eq!(map.blame(&err(5, 18)), Some(3));
        assert_eq!(map.blame(&err(7, 16)), None);
        assert_eq!(
            map.suspects(&err(7, 16))
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            [3, 4]
        );
    }
}
