//! Where the crate's mutated functions lie, line by line: what a pull request's diff is placed
//! against (`--in-diff`), and what a gate baseline keeps of each function so that its mutants
//! are recognised after the code around them moved.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Result;
use syn::spanned::Spanned;

use crate::items::{each_fn_mut, load_declared, Role};

/// One mutated function: its name as the catalog gives it (`Type::method`), its file
/// (relative to the crate, `/`-separated) and its lines, from its first attribute or doc
/// comment to its closing brace (1-based, inclusive), with their text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnPlace {
    pub function: String,
    /// The function's own name (`method` of `Type::method`): what a call names.
    pub name: String,
    /// The names its body calls or refers to (methods, and the last segment of each path:
    /// `self.before(x)`, `Self::before`, `before(x)`, `map(before)`), whatever they resolve
    /// to: more than its calls, never fewer (the names of what a change can affect).
    pub calls: BTreeSet<String>,
    pub file: String,
    pub first: usize,
    pub last: usize,
    /// The text of lines `first..=last`.
    pub lines: Vec<String>,
}

impl FnPlace {
    /// Whether 1-based `line` of `file` lies in the function.
    pub fn holds(&self, file: &str, line: usize) -> bool {
        self.file == file && (self.first..=self.last).contains(&line)
    }
}

/// Every function of the crate's `mutate` list (its code under test and helpers), in source
/// order. Functions of the specification and undeclared ones are not listed: a change to them
/// changes what every mutant is judged by.
pub fn mutated_functions(crate_dir: &Path) -> Result<Vec<FnPlace>> {
    let (sources, declared) = load_declared(crate_dir)?;
    let mut out = Vec::new();
    for file in &sources.files {
        let text: Vec<&str> = file.text.lines().collect();
        let mut items = file.ast.items.clone();
        each_fn_mut(&mut items, &file.module, &mut |site, parts| {
            if declared.role(site) != Some(Role::Code) {
                return;
            }
            let sig = parts.sig.span().start().line;
            let first = parts
                .attrs
                .iter()
                .map(|a| a.pound_token.span.start().line)
                .chain([sig])
                .min()
                .unwrap_or(sig);
            let last = parts.block.brace_token.span.close().end().line;
            let mut names = Names::default();
            syn::visit::Visit::visit_block(&mut names, parts.block);
            out.push(FnPlace {
                function: site.display(),
                name: parts.sig.ident.to_string(),
                calls: names.0,
                file: file.rel.clone(),
                first,
                last,
                lines: text
                    .get(first.saturating_sub(1)..last.min(text.len()))
                    .unwrap_or_default()
                    .iter()
                    .map(|l| l.to_string())
                    .collect(),
            });
        });
    }
    Ok(out)
}

/// The crate's public functions (`pub fn`, free or in an inherent `impl`, as `Type::method`)
/// that no mutant and no input exercises: not in the `mutate` list, and not reached from the
/// benchmark's `run` (its `impl ... Benchmark for` block) through the calls the crate's
/// functions make, followed by name. What a gate notes when a change adds one: code the
/// change brings that nothing tests. Names make the reach an over-approximation (a method
/// another type's `run` calls by the same name counts as reached): a function listed here is
/// called by no input, never the other way round.
pub fn untested_public(crate_dir: &Path) -> Result<Vec<String>> {
    let (sources, declared) = load_declared(crate_dir)?;
    let mut public: Vec<crate::items::FnSite> = Vec::new();
    let mut bodies: Vec<(String, BTreeSet<String>)> = Vec::new();
    let mut roots: BTreeSet<String> = BTreeSet::new();
    for file in &sources.files {
        walk_public(
            &file.ast.items,
            &file.module,
            &mut public,
            &mut bodies,
            &mut roots,
        );
    }
    // Breadth-first over names from `run`'s calls.
    let mut reached = roots.clone();
    let mut queue: Vec<String> = roots.into_iter().collect();
    while let Some(name) = queue.pop() {
        for (_, calls) in bodies.iter().filter(|(n, _)| *n == name) {
            for c in calls {
                if reached.insert(c.clone()) {
                    queue.push(c.clone());
                }
            }
        }
    }
    let mut out: Vec<String> = public
        .into_iter()
        .filter(|site| declared.role(site).is_none() && !reached.contains(&site.name))
        .map(|site| site.display())
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}

/// [`untested_public`]'s walk of `items`: public functions, every function's name and the
/// names its body calls, and the calls of each `Benchmark` impl's `run`.
fn walk_public(
    items: &[syn::Item],
    module: &[String],
    public: &mut Vec<crate::items::FnSite>,
    bodies: &mut Vec<(String, BTreeSet<String>)>,
    roots: &mut BTreeSet<String>,
) {
    use crate::source::present_outside_tests;
    let names = |block: &syn::Block| {
        let mut n = Names::default();
        syn::visit::Visit::visit_block(&mut n, block);
        n.0
    };
    let is_pub = |v: &syn::Visibility| matches!(v, syn::Visibility::Public(_));
    let site = |owner: Option<String>, name: &syn::Ident| crate::items::FnSite {
        module: module.to_vec(),
        owner,
        name: name.to_string(),
    };
    for item in items {
        match item {
            syn::Item::Fn(f) if present_outside_tests(&f.attrs) => {
                bodies.push((f.sig.ident.to_string(), names(&f.block)));
                if is_pub(&f.vis) {
                    public.push(site(None, &f.sig.ident));
                }
            }
            syn::Item::Impl(imp) if present_outside_tests(&imp.attrs) => {
                let benchmark = imp
                    .trait_
                    .as_ref()
                    .and_then(|(_, path, _)| path.segments.last())
                    .is_some_and(|s| s.ident == "Benchmark");
                let owner = crate::items::type_name(&imp.self_ty);
                for it in &imp.items {
                    let syn::ImplItem::Fn(f) = it else { continue };
                    if !present_outside_tests(&f.attrs) {
                        continue;
                    }
                    let calls = names(&f.block);
                    if benchmark && f.sig.ident == "run" {
                        roots.extend(calls.iter().cloned());
                    }
                    bodies.push((f.sig.ident.to_string(), calls));
                    if imp.trait_.is_none() && is_pub(&f.vis) {
                        public.push(site(owner.clone(), &f.sig.ident));
                    }
                }
            }
            syn::Item::Mod(m) if present_outside_tests(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    let mut path = module.to_vec();
                    path.push(m.ident.to_string());
                    walk_public(inner, &path, public, bodies, roots);
                }
            }
            _ => {}
        }
    }
}

/// The method names and last path segments of a body ([`FnPlace::calls`]).
#[derive(Default)]
struct Names(BTreeSet<String>);

impl<'ast> syn::visit::Visit<'ast> for Names {
    fn visit_expr_method_call(&mut self, e: &'ast syn::ExprMethodCall) {
        self.0.insert(e.method.to_string());
        syn::visit::visit_expr_method_call(self, e);
    }

    fn visit_expr_path(&mut self, e: &'ast syn::ExprPath) {
        if let Some(last) = e.path.segments.last() {
            self.0.insert(last.ident.to_string());
        }
        syn::visit::visit_expr_path(self, e);
    }

    /// A macro's arguments are tokens to syn: their identifiers are taken as names (a call
    /// inside `assert!(self.ok())` is one).
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        fn idents(tokens: proc_macro2::TokenStream, out: &mut BTreeSet<String>) {
            for t in tokens {
                match t {
                    proc_macro2::TokenTree::Ident(i) => {
                        out.insert(i.to_string());
                    }
                    proc_macro2::TokenTree::Group(g) => idents(g.stream(), out),
                    _ => {}
                }
            }
        }
        idents(m.tokens.clone(), &mut self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate directory whose manifest mutates `S::add` and specifies `ok`, its `src/` made
    /// (the test writes `src/lib.rs`).
    fn crate_mutating_add() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [package.metadata.ferastrau]\nmutate = [\"S::add\"]\nspecification = [\"ok\"]\n",
        )
        .unwrap();
        dir
    }

    /// Public functions that neither a mutant nor `run` (through what it calls) exercises
    /// are listed; private ones, mutated ones, trait methods and what `run` reaches are not.
    #[test]
    fn untested_public_functions_are_those_no_mutant_and_no_input_exercises() {
        let dir = crate_mutating_add();
        let src = "pub struct S;\n\
                   impl S {\n\
                   \x20   pub fn add(&self) -> i32 { self.helper() }\n\
                   \x20   pub fn helper(&self) -> i32 { deep() }\n\
                   \x20   pub fn peek(&self) -> i32 { 1 }\n\
                   \x20   fn private(&self) -> i32 { 2 }\n\
                   }\n\
                   pub fn deep() -> i32 { 3 }\n\
                   pub fn ok() -> bool { true }\n\
                   pub mod extra { pub fn lonely() {} }\n\
                   impl Clone for S { fn clone(&self) -> S { S } }\n\
                   struct B;\n\
                   impl ferastrau_sdk::Benchmark for B { fn run(&self, s: &S) -> i32 { s.add() } }\n";
        std::fs::write(dir.path().join("src/lib.rs"), src).unwrap();
        assert_eq!(
            untested_public(dir.path()).unwrap(),
            ["S::peek", "lonely"],
            "`ok` is the specification (judged, called by the harness): not listed either"
        );
    }

    #[test]
    fn a_function_spans_its_doc_comment_signature_and_body() {
        let dir = crate_mutating_add();
        let src = "pub struct S;\n\
                   impl S {\n\
                   \x20   /// Adds.\n\
                   \x20   pub fn add(&self, x: i32) -> i32 {\n\
                   \x20       x + 1\n\
                   \x20   }\n\
                   }\n\
                   pub fn ok() -> bool {\n\
                   \x20   true\n\
                   }\n";
        std::fs::write(dir.path().join("src/lib.rs"), src).unwrap();
        let places = mutated_functions(dir.path()).unwrap();
        assert_eq!(places.len(), 1, "the specification is not listed");
        let p = &places[0];
        assert_eq!(
            (p.function.as_str(), p.file.as_str()),
            ("S::add", "src/lib.rs")
        );
        assert_eq!((p.first, p.last), (3, 6));
        assert_eq!(p.lines[0].trim(), "/// Adds.");
        assert_eq!(p.lines[3].trim(), "}");
        assert!(p.holds("src/lib.rs", 5) && !p.holds("src/lib.rs", 7));
        assert_eq!(p.name, "add");
        assert!(untested_public(dir.path()).unwrap().is_empty());
        assert_eq!(p.calls, BTreeSet::from(["x".to_string()]));
    }
}
