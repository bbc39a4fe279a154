//! Trivial compiler equivalence (Papadakis et al., "Trivial Compiler Equivalence", ICSE 2015):
//! a mutant whose function compiles to the same optimised code as the original's is
//! equivalent, and two mutants of one function that compile to the same code are duplicates.
//!
//! **The copies.** Once per metamutant, a copy of the compile-pruned metamutant crate gets,
//! beside every mutated function `f` it can copy, one copy of `f` per viable mutant with that
//! mutant fixed in, and one with none (the original). A copy is the metamutant's own `f` —
//! its guarded body, plain body and reach-marked body behind the dispatch on the active
//! mutant — with the switch read as a constant: `::ferastrau_probes::active()` becomes the
//! mutant's id (`0` for the original), `coverage()` and `reaching()` become `false`. Constant
//! folding then leaves exactly the code the metamutant runs with that mutant active, budget
//! ticks included: a mutant that loops longer, ticks more, and its code differs. Taking the
//! metamutant's code rather than the plain source keeps the comparison on what the runs
//! execute. Every callee of a copy is the crate's ordinary function, folded to the original
//! once the copies are made ([`ordinary`]): the same callee for every copy of a function.
//!
//! **Why equal code means equal behaviour.** A copy's calls go to the ordinary functions, so
//! two copies with equal code compute the same for any behaviour of their callees. With the
//! mutant active, the only function that differs from the original run is `f` itself (a
//! mutant changes one function); by induction on the depth of calls (`f` calling itself
//! calls the mutated `f`, which behaves as the original by the hypothesis one level down)
//! the mutant's run computes what the original's does, tick for tick: nothing the worker
//! compares can tell them apart. Each copy is `#[inline(never)]` (it is compiled as a
//! function of its own), `#[unsafe(no_mangle)]` (compiled although nothing calls it, under a
//! name we choose: `ferastrau_tce_<function>_<mutant>_z`, fixed width so that the names of
//! closures inside it, which embed it, differ only there).
//!
//! **Not compared**: generic functions and methods of generic impls (no code until
//! instantiated), methods of trait impls and trait default methods (an impl block of a trait
//! takes no extra items, and moving a method elsewhere changes what `Self` paths mean), `async`
//! functions. Their mutants get no verdict: the comparison never claims what it did not see.
//!
//! **The compile** is one `cargo rustc` of that copy's library through a worker manifest that
//! depends on it ([`Compiler::emit_ir`]), in the shared build directory, so that its
//! dependencies are the worker builds' (nothing else is compiled), with `--emit=llvm-ir`, one
//! codegen unit (every copy sees the same inlining candidates) and `-C opt-level=3` whatever
//! the workers' `opt-level` (the verdict is about the program's meaning; `FERASTRAU_OPT_LEVEL`
//! is a speed setting, and at `0` no switch would fold).
//!
//! **The comparison** is on LLVM IR, each copy put in a canonical form ([`Module::canonical`]):
//! its own name, the names of the functions it owns (closures compiled out of line) and of the
//! private constants it reads become numbers in order of first use, and each is followed by
//! its definition, so that a constant compares by content; local value names are numbered per
//! function; metadata attachments and attribute groups are dropped (they annotate, they do not
//! compute: ranges and aliasing facts that hold for both). The one content rewritten is a
//! panic's source location (`core::panic::Location`, a constant of a file name, a line and a
//! column): every copy sits at another line, and the worker compares panics as panics,
//! whatever their message and location ([`ferastrau_sdk`'s `Outcome::same_as`]), so a mutant
//! that only moves where a panic is reported panics in the same runs as the original.
//! Equal canonical forms to the original's copy: **equivalent**; else equal to a
//! lower-numbered mutant's copy of the same function: **duplicate** of the lowest such.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use proc_macro2::{Literal, Span};
use serde::{Deserialize, Serialize};
use syn::visit_mut::VisitMut;
use syn::{parse_quote, Expr, Ident, ImplItem, Item};

use crate::compile::Compiler;

/// The environment variable that switches the comparison off (`0`; anything else, or unset,
/// leaves it on). For test suites that build hundreds of small metamutants at
/// `FERASTRAU_OPT_LEVEL=0`, where its one compile per crate (about 0.6 CPU-s for a small crate)
/// adds up; a run's verdicts are never guessed without it, the mutants just get none.
pub const SWITCH_VAR: &str = "FERASTRAU_COMPILER_EQUIVALENCE";

/// Whether [`SWITCH_VAR`] leaves the comparison on.
pub fn enabled() -> bool {
    std::env::var_os(SWITCH_VAR).is_none_or(|v| v != "0")
}

/// What the compiler says of one mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Its function compiles to the original's code.
    Equivalent,
    /// Its function compiles to the code of mutant `of` (lower-numbered, not equivalent).
    Duplicate { of: u32 },
}

/// A function whose mutants were not compared, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotCompared {
    pub function: String,
    pub why: String,
}

/// The comparison of one metamutant's mutants ([`crate::Metamutant::equivalence`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Equivalence {
    /// The verdicts; a compared mutant without one differs from the original and from every
    /// lower-numbered mutant of its function.
    pub verdicts: BTreeMap<u32, Verdict>,
    /// The mutants whose function was copied and compiled.
    pub compared: BTreeSet<u32>,
    pub not_compared: Vec<NotCompared>,
    /// Writing the copies, compiling them and comparing (of the run that built it, when the
    /// metamutant came from the cache).
    pub seconds: f64,
    /// Set when the copies did not compile: no verdicts, and the compiler's first error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

impl Equivalence {
    pub fn verdict(&self, id: u32) -> Option<Verdict> {
        self.verdicts.get(&id).copied()
    }
}

/// Where the comparison is compiled: the copy's directory (the worker manifest the compiler
/// goes through must depend on it by path) and the compiler.
#[derive(Clone, Debug)]
pub struct Setup {
    pub dir: PathBuf,
    pub compiler: Compiler,
}

/// One copied function: its display name and each copy's symbol, by mutant id (0: original).
struct Copied {
    function: String,
    symbols: BTreeMap<u32, String>,
}

/// Compares the mutants `viable` of the metamutant at `metamutant` (package `package`): its
/// viable mutants, less those whose verdicts the last comparison gave (a function none of whose
/// mutants is in `viable` is not copied at all), in a copy of it written to `setup.dir` where
/// the generated files `files` (paths relative to the crate) get the copies. A compile that fails gives
/// no verdicts, not an error: the comparison is a refinement of the report, never a reason to
/// refuse a run.
pub(crate) fn compare(
    metamutant: &Path,
    files: &[String],
    viable: &BTreeSet<u32>,
    package: &str,
    setup: &Setup,
) -> Result<Equivalence> {
    let started = Instant::now();
    crate::metamutant::copy_generated(metamutant, &setup.dir)?;
    let mut copied = Vec::new();
    let mut not_compared = Vec::new();
    for rel in files {
        let path = setup.dir.join(rel);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut ast = syn::parse_file(&text)
            .with_context(|| format!("the generated {rel} does not parse"))?;
        let mut v = Copier {
            viable,
            copied: &mut copied,
            not_compared: &mut not_compared,
            module: Vec::new(),
        };
        v.items(&mut ast.items);
        std::fs::write(&path, prettyplease::unparse(&ast))?;
    }
    let compared: BTreeSet<u32> = copied
        .iter()
        .flat_map(|c| c.symbols.keys().copied().filter(|&id| id != 0))
        .collect();
    if copied.is_empty() {
        return Ok(Equivalence {
            compared,
            not_compared,
            seconds: started.elapsed().as_secs_f64(),
            ..Equivalence::default()
        });
    }
    let ir = setup.dir.join("ferastrau-equivalence.ll");
    let _ = std::fs::remove_file(&ir);
    let out = crate::compile::output(&mut setup.compiler.emit_ir(&setup.dir, package, &ir)?)
        .context("cannot run cargo")?;
    if !out.status.success() || !ir.exists() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or_else(|| stderr.lines().last().unwrap_or("(no output)"));
        return Ok(Equivalence {
            not_compared,
            seconds: started.elapsed().as_secs_f64(),
            failed: Some(first.trim().to_string()),
            ..Equivalence::default()
        });
    }
    let text =
        std::fs::read_to_string(&ir).with_context(|| format!("cannot read {}", ir.display()))?;
    let module = Module::parse(&text);
    let mut verdicts = BTreeMap::new();
    for c in &copied {
        verdicts.extend(judge(&module, c)?);
    }
    // Megabytes of text, of no use once read (`FERASTRAU_KEEP_IR` keeps it, to see why two
    // copies differ).
    if std::env::var_os("FERASTRAU_KEEP_IR").is_none() {
        let _ = std::fs::remove_file(&ir);
    }
    Ok(Equivalence {
        verdicts,
        compared,
        not_compared,
        seconds: started.elapsed().as_secs_f64(),
        failed: None,
    })
}

/// The verdicts of one function's copies.
fn judge(module: &Module, c: &Copied) -> Result<BTreeMap<u32, Verdict>> {
    let canonical = |id: u32| -> Result<String> {
        let symbol = &c.symbols[&id];
        module.canonical(symbol).with_context(|| {
            format!(
                "the copy of {} for mutant {id} ({symbol}) is not in the compiled code",
                c.function
            )
        })
    };
    let original = canonical(0)?;
    let mut first: HashMap<String, u32> = HashMap::new();
    let mut verdicts = BTreeMap::new();
    for &id in c.symbols.keys().filter(|&&id| id != 0) {
        let code = canonical(id)?;
        if code == original {
            verdicts.insert(id, Verdict::Equivalent);
        } else if let Some(&of) = first.get(&code) {
            verdicts.insert(id, Verdict::Duplicate { of });
        } else {
            first.insert(code, id);
        }
    }
    Ok(verdicts)
}

/// The name of a copy: fixed width, so that two copies' names (and the names of closures
/// that embed them) have the same length.
fn symbol(function: usize, mutant: u32) -> String {
    format!("ferastrau_tce_{function:05}_{mutant:06}_z")
}

/// Whether `symbol` (an LLVM name) belongs to the copy named `copy`: the copy itself or a
/// function compiled out of it (a closure's mangled name embeds its parent's).
fn owned_by(symbol: &str, copy: &str) -> bool {
    symbol.contains(copy)
}

/// Adds the copies beside the mutated functions of one file.
struct Copier<'a> {
    viable: &'a BTreeSet<u32>,
    copied: &'a mut Vec<Copied>,
    not_compared: &'a mut Vec<NotCompared>,
    module: Vec<String>,
}

impl Copier<'_> {
    fn items(&mut self, items: &mut Vec<Item>) {
        let mut i = 0;
        while i < items.len() {
            let mut added = Vec::new();
            match &mut items[i] {
                Item::Fn(f) => {
                    if let Some(range) = dispatch(&f.block) {
                        let name = f.sig.ident.to_string();
                        match uncopiable(&f.sig) {
                            Some(why) => self.skip(name, why),
                            None => {
                                for (sig_ident, id) in self.plan(&name, range) {
                                    let mut copy = f.clone();
                                    fix(&mut copy.attrs, &mut copy.vis, &mut copy.block, id);
                                    copy.sig.ident = sig_ident;
                                    added.push(Item::Fn(copy));
                                }
                            }
                        }
                        ordinary(&mut f.block);
                    }
                }
                Item::Impl(imp) => {
                    let owner = owner_name(&imp.self_ty);
                    let why_impl = if imp.trait_.is_some() {
                        Some("a method of a trait impl")
                    } else if !imp
                        .generics
                        .params
                        .iter()
                        .all(|p| matches!(p, syn::GenericParam::Lifetime(_)))
                    {
                        Some("a method of a generic impl")
                    } else {
                        None
                    };
                    let mut j = 0;
                    while j < imp.items.len() {
                        let mut extra = Vec::new();
                        if let ImplItem::Fn(f) = &imp.items[j] {
                            if let Some(range) = dispatch(&f.block) {
                                let name = format!("{owner}::{}", f.sig.ident);
                                match why_impl.or_else(|| uncopiable(&f.sig)) {
                                    Some(why) => self.skip(name, why),
                                    None => {
                                        for (ident, id) in self.plan(&name, range) {
                                            let mut copy = f.clone();
                                            fix(
                                                &mut copy.attrs,
                                                &mut copy.vis,
                                                &mut copy.block,
                                                id,
                                            );
                                            copy.sig.ident = ident;
                                            extra.push(ImplItem::Fn(copy));
                                        }
                                    }
                                }
                            }
                        }
                        if let ImplItem::Fn(f) = &mut imp.items[j] {
                            if dispatch(&f.block).is_some() {
                                ordinary(&mut f.block);
                            }
                        }
                        let n = extra.len();
                        imp.items.splice(j + 1..j + 1, extra);
                        j += 1 + n;
                    }
                }
                Item::Trait(tr) => {
                    for it in &tr.items {
                        if let syn::TraitItem::Fn(f) = it {
                            if f.default.as_ref().and_then(dispatch).is_some() {
                                self.skip(
                                    format!("{}::{}", tr.ident, f.sig.ident),
                                    "a trait's default method",
                                );
                            }
                        }
                    }
                }
                Item::Mod(m) => {
                    if let Some((_, inner)) = &mut m.content {
                        self.module.push(m.ident.to_string());
                        self.items(inner);
                        self.module.pop();
                    }
                }
                _ => {}
            }
            let n = added.len();
            items.splice(i + 1..i + 1, added);
            i += 1 + n;
        }
    }

    fn skip(&mut self, function: String, why: &str) {
        self.not_compared.push(NotCompared {
            function,
            why: why.to_string(),
        });
    }

    /// The copies to make of the function `name` whose mutants are `range`: the original
    /// and each viable mutant, with their names.
    fn plan(&mut self, name: &str, (lo, hi): (u32, u32)) -> Vec<(Ident, u32)> {
        // None of its mutants to compare (their verdicts come from the last comparison): no
        // copy, not even the original's.
        if !(lo..=hi).any(|id| self.viable.contains(&id)) {
            return Vec::new();
        }
        let k = self.copied.len();
        let ids: Vec<u32> = std::iter::once(0)
            .chain((lo..=hi).filter(|id| self.viable.contains(id)))
            .collect();
        let symbols: BTreeMap<u32, String> = ids.iter().map(|&id| (id, symbol(k, id))).collect();
        let plan = symbols
            .iter()
            .map(|(&id, s)| (Ident::new(s, Span::call_site()), id))
            .collect();
        self.copied.push(Copied {
            function: name.to_string(),
            symbols,
        });
        plan
    }
}

/// Why a function with this signature cannot be copied, if it cannot.
fn uncopiable(sig: &syn::Signature) -> Option<&'static str> {
    if sig
        .generics
        .params
        .iter()
        .any(|p| !matches!(p, syn::GenericParam::Lifetime(_)))
    {
        return Some("a generic function");
    }
    if sig
        .inputs
        .iter()
        .any(|a| matches!(a, syn::FnArg::Typed(t) if matches!(*t.ty, syn::Type::ImplTrait(_))))
    {
        return Some("a generic function (an `impl Trait` argument)");
    }
    if sig.asyncness.is_some() {
        return Some("an async function");
    }
    None
}

/// The `Type` of `impl Type`, for names (`SearchTree`).
fn owner_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => quote::quote!(#ty).to_string(),
    }
}

/// The mutant range of a mutated function's dispatch, as the rewrite generates it
/// (`rewrite/mod.rs`): `if __ferastrau_active >= LO && __ferastrau_active <= HI { .. }`.
fn dispatch(block: &syn::Block) -> Option<(u32, u32)> {
    let active = crate::rewrite::ACTIVE_LOCAL;
    let bound = |e: &Expr, op: fn(&syn::BinOp) -> bool| -> Option<u32> {
        let Expr::Binary(b) = e else { return None };
        let Expr::Path(p) = &*b.left else { return None };
        let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) = &*b.right
        else {
            return None;
        };
        (op(&b.op) && p.path.is_ident(active)).then(|| n.base10_parse().ok())?
    };
    block.stmts.iter().find_map(|s| {
        let syn::Stmt::Expr(Expr::If(i), _) = s else {
            return None;
        };
        let Expr::Binary(both) = &*i.cond else {
            return None;
        };
        if !matches!(both.op, syn::BinOp::And(_)) {
            return None;
        }
        let lo = bound(&both.left, |o| matches!(o, syn::BinOp::Ge(_)))?;
        let hi = bound(&both.right, |o| matches!(o, syn::BinOp::Le(_)))?;
        Some((lo, hi))
    })
}

/// Makes a clone of a mutated function the copy for mutant `id`: the switch read as
/// constants, compiled on its own under its own name, private (its name is what makes it
/// reachable).
fn fix(
    attrs: &mut Vec<syn::Attribute>,
    vis: &mut syn::Visibility,
    block: &mut syn::Block,
    id: u32,
) {
    // `cfg` keeps the copy where the function is; `allow` keeps the rewrite's lint settings.
    attrs.retain(|a| a.path().is_ident("cfg") || a.path().is_ident("allow"));
    attrs.push(parse_quote!(#[unsafe(no_mangle)]));
    attrs.push(parse_quote!(#[inline(never)]));
    attrs.push(parse_quote!(#[allow(dead_code, non_snake_case, clippy::all)]));
    *vis = syn::Visibility::Inherited;
    Fixer { id }.visit_block_mut(block);
}

/// Makes a mutated function of the copied crate its original (the switch read as mutant 0),
/// once its copies are made: the copies' callees. Any one body would do for soundness (every
/// copy of a function calls the same callees, and equal code computes the same whatever they
/// do); the original's is the smallest, so the compile no longer optimises every mutant's arm
/// a second time, and a callee small enough is inlined into the copies the same way in each.
fn ordinary(block: &mut syn::Block) {
    Fixer { id: 0 }.visit_block_mut(block);
}

/// Replaces the reads of the switch by constants, and folds on the syntax tree what the
/// compiler would fold: the dispatch takes the guarded body (for a mutant of the function) or
/// the plain one, each guarded choice `match __ferastrau_active { 17 => a, _ => t }` becomes
/// the chosen arm, a probe on a coverage flag known to be off disappears. The compiler sees a
/// function the size of the original instead of three bodies with every mutant in them:
/// hundreds of such copies are what the comparison's one compile costs.
struct Fixer {
    id: u32,
}

impl Fixer {
    /// Whether `e` reads the active mutant: the rewrite's local or the probes' function.
    fn is_active(e: &Expr) -> bool {
        match e {
            Expr::Path(p) => p.path.is_ident(crate::rewrite::ACTIVE_LOCAL),
            Expr::Paren(p) => Self::is_active(&p.expr),
            _ => probe_call(e).is_some_and(|(name, args)| name == "active" && args == 0),
        }
    }

    /// The arm of a guarded choice that mutant `self.id` takes, when every pattern is an
    /// integer or `_`.
    fn chosen(&self, m: &syn::ExprMatch) -> Option<Expr> {
        for arm in &m.arms {
            let hit = match &arm.pat {
                syn::Pat::Wild(_) => true,
                syn::Pat::Lit(syn::PatLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse::<u32>().ok()? == self.id,
                _ => return None,
            };
            if hit {
                return Some((*arm.body).clone());
            }
        }
        None
    }
}

/// `::ferastrau_probes::NAME(args)`: the name and the number of arguments.
fn probe_call(e: &Expr) -> Option<(String, usize)> {
    let Expr::Call(call) = e else { return None };
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    (segs.len() == 2 && segs[0] == "ferastrau_probes").then(|| (segs[1].clone(), call.args.len()))
}

impl VisitMut for Fixer {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        // `cover_if(__ferastrau_cov, 68);` with the flag off does nothing.
        b.stmts.retain(|s| {
            !matches!(s, syn::Stmt::Expr(e, Some(_))
                if probe_call(e).is_some_and(|(n, _)| n == "cover_if"))
        });
        syn::visit_mut::visit_block_mut(self, b);
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        // The dispatch first: only the taken body is walked.
        if let Expr::If(i) = e {
            if let Some((lo, hi)) = dispatch(&syn::Block {
                brace_token: Default::default(),
                stmts: vec![syn::Stmt::Expr(Expr::If(i.clone()), None)],
            }) {
                let taken = if (lo..=hi).contains(&self.id) {
                    Some(i.then_branch.clone())
                } else {
                    // `else if ::ferastrau_probes::reaching() { marked } else { plain }`
                    match i.else_branch.as_ref().map(|(_, e)| &**e) {
                        Some(Expr::If(r)) => match r.else_branch.as_ref().map(|(_, e)| &**e) {
                            Some(Expr::Block(b)) => Some(b.block.clone()),
                            _ => None,
                        },
                        _ => None,
                    }
                };
                if let Some(block) = taken {
                    *e = Expr::Block(syn::ExprBlock {
                        attrs: Vec::new(),
                        label: None,
                        block,
                    });
                }
            }
        }
        if let Expr::Match(m) = e {
            if Self::is_active(&m.expr) {
                if let Some(arm) = self.chosen(m) {
                    *e = parse_quote!((#arm));
                }
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
        let lit = Literal::u32_suffixed(self.id);
        let folded: Option<Expr> = match probe_call(e) {
            Some((n, 0)) if n == "active" => Some(parse_quote!(#lit)),
            Some((n, 0)) if n == "coverage" || n == "reaching" => Some(parse_quote!(false)),
            // `branch_if(__ferastrau_cov, cond, 75, 76)` with the flag off is `cond`.
            Some((n, 4)) if n == "branch_if" => match e {
                Expr::Call(c) => {
                    let cond = &c.args[1];
                    Some(parse_quote!((#cond)))
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(f) = folded {
            *e = f;
        }
    }
}

/// One LLVM IR module, read as far as the comparison needs: each global's definition by name.
pub(crate) struct Module<'t> {
    /// Functions (`define ... { ... }`) and globals and aliases (one line each), by name.
    defs: HashMap<&'t str, Def<'t>>,
    /// Named struct types (`%T = type ...`): never renamed.
    types: HashSet<&'t str>,
}

#[derive(Clone, Copy)]
enum Def<'t> {
    Function(&'t str),
    /// A private or internal constant: compared by content.
    Constant(&'t str),
    /// `@a = ... alias ..., ptr @b`: the aliasee.
    Alias(&'t str),
    /// Anything else (a static): compared by name.
    Other,
}

impl<'t> Module<'t> {
    pub(crate) fn parse(text: &'t str) -> Module<'t> {
        let mut defs = HashMap::new();
        let mut types = HashSet::new();
        let mut lines = text.lines().peekable();
        let offset_of = |line: &str| line.as_ptr() as usize - text.as_ptr() as usize;
        while let Some(line) = lines.next() {
            if line.starts_with("define ") {
                let start = offset_of(line);
                let mut end = start + line.len();
                for body in lines.by_ref() {
                    end = offset_of(body) + body.len();
                    if body == "}" {
                        break;
                    }
                }
                if let Some(name) = defined_name(line) {
                    defs.insert(name, Def::Function(&text[start..end]));
                }
            } else if let Some(rest) = line.strip_prefix('@') {
                let (name, len) = name_at(rest);
                let after = rest[len..].trim_start_matches(" = ");
                let def = if after.contains(" alias ") || after.starts_with("alias ") {
                    match after.rsplit_once(" @") {
                        Some((_, target)) => Def::Alias(name_at(target).0),
                        None => Def::Other,
                    }
                } else if (after.starts_with("private ") || after.starts_with("internal "))
                    && after.contains(" constant ")
                {
                    Def::Constant(line)
                } else {
                    Def::Other
                };
                defs.insert(name, def);
            } else if let Some(rest) = line.strip_prefix('%') {
                let (name, len) = name_at(rest);
                if rest[len..].starts_with(" = type ") {
                    types.insert(name);
                }
            }
        }
        Module { defs, types }
    }

    /// The canonical form of the function `symbol` (see the module's documentation), `None`
    /// when the module has no such function.
    pub(crate) fn canonical(&self, symbol: &str) -> Option<String> {
        let mut root = symbol;
        // LLVM's function merging may have made the copy an alias of an equal function (of
        // another copy): its code is the aliasee's.
        let mut hops = 0;
        while let Some(Def::Alias(to)) = self.defs.get(root) {
            root = to;
            hops += 1;
            if hops > 16 {
                return None;
            }
        }
        let Some(Def::Function(_)) = self.defs.get(root) else {
            return None;
        };
        let mut numbers: HashMap<&str, usize> = HashMap::from([(root, 0)]);
        let mut queue = VecDeque::from([root]);
        let mut out = String::new();
        while let Some(name) = queue.pop_front() {
            let text = match self.defs.get(name) {
                Some(Def::Function(t)) | Some(Def::Constant(t)) => *t,
                _ => continue,
            };
            let number = numbers[name];
            out.push_str(&format!("; @{number}\n"));
            let mut local = |g: &'t str| -> Option<usize> {
                let is_local = owned_by(g, root)
                    && matches!(self.defs.get(g), Some(Def::Function(_)))
                    || matches!(self.defs.get(g), Some(Def::Constant(_)));
                if !is_local {
                    return None;
                }
                let next = numbers.len();
                Some(*numbers.entry(g).or_insert_with(|| {
                    queue.push_back(g);
                    next
                }))
            };
            let rendered = self.render(text, &mut local);
            match self.is_location(text) {
                true => out.push_str(&location_free(&rendered)),
                false => out.push_str(&rendered),
            }
            out.push('\n');
        }
        Some(out)
    }

    /// Whether the constant definition `text` has a panic location's shape and points at a
    /// Rust source file's name (see [`location_free`]).
    fn is_location(&self, text: &str) -> bool {
        const HEAD: &str = "<{ ptr, [16 x i8] }> <{ ptr @";
        let Some(at) = text.find(HEAD) else {
            return false;
        };
        let (file, _) = name_at(&text[at + HEAD.len()..]);
        match self.defs.get(file) {
            Some(Def::Constant(f)) => f.rsplit_once(" c\"").is_some_and(|(_, tail)| {
                tail.split('"').next().is_some_and(|n| n.ends_with(".rs"))
            }),
            _ => false,
        }
    }

    /// `text` with global names replaced where `local` numbers them, local value names
    /// numbered in order of appearance, metadata attachments and attribute groups dropped.
    fn render(&self, text: &'t str, local: &mut dyn FnMut(&'t str) -> Option<usize>) -> String {
        let mut out = String::with_capacity(text.len());
        let mut values: HashMap<&str, usize> = HashMap::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            match c {
                b'"' => {
                    let end = string_end(bytes, i);
                    out.push_str(&text[i..end]);
                    i = end;
                }
                b'@' => {
                    let (name, len) = name_at(&text[i + 1..]);
                    match local(name) {
                        Some(n) => out.push_str(&format!("@g{n}")),
                        None => {
                            out.push('@');
                            out.push_str(name);
                        }
                    }
                    i += 1 + len;
                }
                b'%' => {
                    let (name, len) = name_at(&text[i + 1..]);
                    if self.types.contains(name) || name.is_empty() {
                        out.push('%');
                        out.push_str(name);
                    } else {
                        let next = values.len();
                        let n = *values.entry(name).or_insert(next);
                        out.push_str(&format!("%v{n}"));
                    }
                    i += 1 + len;
                }
                b'#' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    i += 1;
                    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                }
                b'!' => {
                    // An attachment `, !name !N` or `, !name !{...}` (the comma already
                    // written is taken back), or a bare `!N`.
                    let (name, len) = name_at(&text[i + 1..]);
                    let mut j = i + 1 + len;
                    if !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                        if text[j..].starts_with(" !") {
                            j += 2;
                            if bytes.get(j) == Some(&b'{') {
                                let mut depth = 0;
                                while j < bytes.len() {
                                    match bytes[j] {
                                        b'{' => depth += 1,
                                        b'}' => {
                                            depth -= 1;
                                            if depth == 0 {
                                                j += 1;
                                                break;
                                            }
                                        }
                                        _ => {}
                                    }
                                    j += 1;
                                }
                            } else {
                                j += name_at(&text[j..]).1;
                            }
                        }
                        if out.ends_with(", ") {
                            out.truncate(out.len() - 2);
                        }
                    }
                    i = j;
                }
                _ => {
                    out.push(c as char);
                    i += 1;
                }
            }
        }
        out
    }
}

/// The name a `define` line defines.
fn defined_name(line: &str) -> Option<&str> {
    let at = line.find(" @")?;
    Some(name_at(&line[at + 2..]).0)
}

/// An LLVM name at the start of `s` (after its sigil): quoted, or the longest run of name
/// characters; with the bytes it takes.
fn name_at(s: &str) -> (&str, usize) {
    if s.starts_with('"') {
        let end = string_end(s.as_bytes(), 0);
        return (&s[..end], end);
    }
    let len = s
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || b"._$-".contains(b))
        .count();
    (&s[..len], len)
}

/// The end (exclusive) of the string literal opening at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while j < bytes.len() && bytes[j] != b'"' {
        j += 1;
    }
    (j + 1).min(bytes.len())
}

/// A constant's rendering with the line and column of a panic location zeroed: a
/// `core::panic::Location` is a constant `<{ ptr, [16 x i8] }> <{ ptr @file, [16 x i8]
/// c"<length, 8 bytes><line, 4><column, 4>" }>` (the file name's pointer and length, then two
/// `u32`s) whose first field points at the crate's file (a constant of its own, numbered by
/// then). Only constants of that exact shape are touched.
fn location_free(rendered: &str) -> String {
    const HEAD: &str = "<{ ptr, [16 x i8] }> <{ ptr @g";
    let Some(at) = rendered.find(HEAD) else {
        return rendered.to_string();
    };
    let Some(c_at) = rendered[at..].find(", [16 x i8] c\"").map(|k| at + k + 14) else {
        return rendered.to_string();
    };
    let Some(close) = rendered[c_at..].find('"').map(|k| c_at + k) else {
        return rendered.to_string();
    };
    let bytes = c_bytes(&rendered[c_at..close]);
    if bytes.len() != 16 || !rendered[close..].starts_with("\" }>") {
        return rendered.to_string();
    }
    let len = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    format!(
        "{}location(len {len}){}",
        &rendered[..c_at - 1],
        &rendered[close + 1..]
    )
}

/// The bytes of an LLVM `c"..."` string's contents (`\XX` escapes).
fn c_bytes(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 3 <= b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// Checks that a verdict claims nothing about a mutant it did not compare (a bug here would
/// wrongly shrink a kill rate): every judged mutant was compared, every duplicate's
/// representative is a lower-numbered compared mutant.
pub(crate) fn check(e: &Equivalence) -> Result<()> {
    for (&id, v) in &e.verdicts {
        if !e.compared.contains(&id) {
            bail!("mutant {id} has a compiler verdict but was not compared");
        }
        if let Verdict::Duplicate { of } = v {
            if *of >= id || !e.compared.contains(of) {
                bail!("mutant {id} is a duplicate of {of}, which is not a lower compared mutant");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two copies of one function as LLVM writes them: other value names, another panic
    /// line, closures and constants of their own; `third` reads another constant.
    const IR: &str = r#"%"Node" = type { i64, i64 }

@alloc_f = private unnamed_addr constant [10 x i8] c"src/lib.rs", align 1
@alloc_l1 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_f, [16 x i8] c"\0A\00\00\00\00\00\00\00\07\00\00\00\05\00\00\00" }>, align 8
@alloc_l2 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_f, [16 x i8] c"\0A\00\00\00\00\00\00\00\09\00\00\00\05\00\00\00" }>, align 8
@alloc_k1 = private unnamed_addr constant [4 x i8] c"\01\00\00\00", align 4
@alloc_k2 = private unnamed_addr constant [4 x i8] c"\02\00\00\00", align 4
@ferastrau_tce_00000_000003_z = unnamed_addr alias i64 (i64), ptr @ferastrau_tce_00000_000001_z

define i64 @ferastrau_tce_00000_000000_z(i64 %x) unnamed_addr #3 {
start:
  %_5 = call i64 @_ZN1a29ferastrau_tce_00000_000000_z28_$u7b$$u7b$closure$u7d$$u7d$17h1111111111111111E(i64 %x), !range !4
  %n = load i64, ptr @alloc_k1, align 4, !noundef !6
  %s = alloca %"Node", align 8
  call void @_ZN4core9panicking5panic17h0123456789abcdefE(ptr @alloc_l1) #7
  ret i64 %_5
}

define internal i64 @_ZN1a29ferastrau_tce_00000_000000_z28_$u7b$$u7b$closure$u7d$$u7d$17h1111111111111111E(i64 %y) #2 {
start:
  %r = add i64 %y, 1
  ret i64 %r
}

define i64 @ferastrau_tce_00000_000001_z(i64 %v) unnamed_addr #4 {
start:
  %_9 = call i64 @_ZN1a29ferastrau_tce_00000_000001_z28_$u7b$$u7b$closure$u7d$$u7d$17h2222222222222222E(i64 %v), !range !5
  %m = load i64, ptr @alloc_k1, align 4, !noundef !6
  %t = alloca %"Node", align 8
  call void @_ZN4core9panicking5panic17h0123456789abcdefE(ptr @alloc_l2) #8
  ret i64 %_9
}

define internal i64 @_ZN1a29ferastrau_tce_00000_000001_z28_$u7b$$u7b$closure$u7d$$u7d$17h2222222222222222E(i64 %w) #2 {
start:
  %q = add i64 %w, 1
  ret i64 %q
}

define i64 @ferastrau_tce_00000_000002_z(i64 %v) unnamed_addr #4 {
start:
  %_9 = call i64 @_ZN1a29ferastrau_tce_00000_000002_z28_$u7b$$u7b$closure$u7d$$u7d$17h3333333333333333E(i64 %v)
  %m = load i64, ptr @alloc_k2, align 4
  %t = alloca %"Node", align 8
  call void @_ZN4core9panicking5panic17h0123456789abcdefE(ptr @alloc_l2)
  ret i64 %_9
}

define internal i64 @_ZN1a29ferastrau_tce_00000_000002_z28_$u7b$$u7b$closure$u7d$$u7d$17h3333333333333333E(i64 %w) #2 {
start:
  %q = add i64 %w, 1
  ret i64 %q
}
"#;

    #[test]
    fn copies_equal_but_for_names_locations_and_annotations_compare_equal() {
        let m = Module::parse(IR);
        let c = |id: u32| m.canonical(&symbol(0, id)).unwrap();
        assert_eq!(c(0), c(1));
        // An alias left by LLVM's function merging is its aliasee's code.
        assert_eq!(c(3), c(1));
        // Another constant's content is another program.
        assert_ne!(c(0), c(2));
        assert!(c(0).contains("%\"Node\""), "{}", c(0));
        assert!(m.canonical("ferastrau_tce_00000_000009_z").is_none());
    }

    #[test]
    fn only_a_panic_location_loses_its_line_and_column() {
        let m = Module::parse(IR);
        assert!(m.is_location(IR.lines().nth(3).unwrap()));
        // A constant of that shape that points at anything but a `.rs` file name is data.
        let data = IR.replace("c\"src/lib.rs\"", "c\"src/lib.rx\"");
        let d = Module::parse(&data);
        assert_ne!(
            d.canonical(&symbol(0, 0)).unwrap(),
            d.canonical(&symbol(0, 1)).unwrap()
        );
    }

    #[test]
    fn verdicts_name_the_original_or_the_lowest_equal_mutant() {
        let m = Module::parse(IR);
        let copied = Copied {
            function: "f".into(),
            symbols: (0..4).map(|id| (id, symbol(0, id))).collect(),
        };
        let v = judge(&m, &copied).unwrap();
        assert_eq!(v.get(&1), Some(&Verdict::Equivalent));
        assert_eq!(v.get(&3), Some(&Verdict::Equivalent));
        assert_eq!(v.get(&2), None);
        let e = Equivalence {
            verdicts: BTreeMap::from([(5, Verdict::Duplicate { of: 7 })]),
            compared: BTreeSet::from([5, 7]),
            ..Equivalence::default()
        };
        assert!(check(&e).is_err());
    }

    #[test]
    fn the_copy_of_a_mutant_takes_its_arm_and_leaves_out_the_switch() {
        let mut f: syn::ItemFn = parse_quote! {
            fn f(&mut self, x: u32) -> u32 {
                let __ferastrau_cov = ::ferastrau_probes::coverage();
                let __ferastrau_active = ::ferastrau_probes::active();
                ::ferastrau_probes::tick();
                if __ferastrau_active >= 3 && __ferastrau_active <= 4 {
                    ::ferastrau_probes::cover_if(__ferastrau_cov, 1);
                    if ::ferastrau_probes::branch_if(__ferastrau_cov, (match __ferastrau_active { 3 => x >= 1, _ => x > 1 }), 2, 3) { 1 } else { 2 }
                } else if ::ferastrau_probes::reaching() {
                    if (match ::ferastrau_probes::reach(3, 4) { _ => x > 1 }) { 1 } else { 2 }
                } else {
                    ::ferastrau_probes::cover_if(__ferastrau_cov, 1);
                    if ::ferastrau_probes::branch_if(__ferastrau_cov, x > 1, 2, 3) { 1 } else { 2 }
                }
            }
        };
        assert_eq!(dispatch(&f.block), Some((3, 4)));
        let text = |id| {
            let mut g = f.clone();
            fix(&mut g.attrs, &mut g.vis, &mut g.block, id);
            quote::quote!(#g).to_string()
        };
        let (original, mutant) = (text(0), text(3));
        assert!(
            original.contains("x > 1") && !original.contains(">="),
            "{original}"
        );
        assert!(
            mutant.contains("x >= 1") && !mutant.contains("x > 1"),
            "{mutant}"
        );
        for t in [&original, &mutant] {
            for gone in ["active ()", "coverage ()", "reach", "cover_if", "branch_if"] {
                assert!(!t.contains(gone), "{gone} in {t}");
            }
            assert!(t.contains("tick ()") && t.contains("no_mangle"), "{t}");
        }
        f.sig.generics = parse_quote!(<T>);
        assert!(uncopiable(&f.sig).is_some());
    }
}
