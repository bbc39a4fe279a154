//! The one rewrite behind the catalog and the metamutant.
//!
//! It walks each declared function once, in source order. At every mutation point it records
//! the mutants (ids in traversal order, so the same source gives the same ids) and replaces
//! the expression by a guarded choice,
//! `(match ::ferastrau_probes::active() { 17 => left, 18 => right, _ => temp })`,
//! holding only the mutants that are still enabled. The same walk inserts the coverage probes
//! and the budget ticks. Listing mutants is this walk on a throw-away copy of the syntax tree;
//! building the metamutant is this walk on the real one, so both always agree.
//!
//! A mutated function keeps a second, plain copy of its body (same probes and ticks, no
//! guards) and dispatches on entry: the guarded copy runs only when the active mutant is one of
//! the function's own (their ids are contiguous). With no mutant active the metamutant runs
//! the original code plus probes, which is what keeps the guards' cost low. A third copy, the
//! plain one with a reach marker where the guarded copy has a guard,
//! `(match ::ferastrau_probes::reach(17, 18) { _ => temp })`, runs instead of the plain one
//! while `ferastrau_probes::reaching()` is on: the original's checking run records which points
//! each input evaluates, and a mutant runs only on those inputs.
//!
//! The modules, one concern each:
//! - this one: the walk's state and its entry, [`rewrite_file`] and `FnRewriter::run` (the
//!   guarded and plain copies of a function's body);
//! - `walk`: statements and expressions in source order, the scopes they open, where probes,
//!   ticks and guards go;
//! - `points`: the mutants at one expression, recorded in the catalog, and the guarded choice;
//! - `operators`: which operator may replace which (the operator tables);
//! - `probes`: coverage probes and the active-mutant switch as inserted code;
//! - `infer`: type inference over the crate index and the bindings in scope (read-only);
//! - `settle`: when a literal-typed local gets a settled type;
//! - `scopes`: bindings in scope, and how patterns declare them;
//! - `spans`: source positions and byte offsets.

mod infer;
mod operators;
mod points;
mod probes;
mod scopes;
mod settle;
mod spans;
mod walk;

use proc_macro2::Literal;
use syn::{parse_quote, BinOp, Expr, Ident, Member, Stmt};

use crate::catalog::{Mutant, Probe};
use crate::items::{each_fn_mut, DeclaredFunctions, FnParts, FnSite, Role};
use crate::types::{CrateIndex, Ty};
use scopes::Scopes;
use spans::LineIndex;

pub use spans::{extent, offset_of};

/// State shared by the walk over every file of a crate.
pub struct CrateWalk<'a> {
    pub index: &'a CrateIndex,
    pub declared: &'a DeclaredFunctions,
    /// Display names of the specification functions (never used as call replacements).
    pub spec_names: Vec<String>,
    /// Which mutants get an arm in the generated code.
    pub enabled: &'a dyn Fn(u32) -> bool,
    pub next_mutant: u32,
    pub next_probe: u32,
    pub mutants: Vec<Mutant>,
    pub probes: Vec<Probe>,
}

impl<'a> CrateWalk<'a> {
    pub fn new(
        index: &'a CrateIndex,
        declared: &'a DeclaredFunctions,
        enabled: &'a dyn Fn(u32) -> bool,
    ) -> Self {
        CrateWalk {
            index,
            declared,
            spec_names: declared.spec_names(),
            enabled,
            next_mutant: 1,
            next_probe: 0,
            mutants: Vec::new(),
            probes: Vec::new(),
        }
    }
}

/// Rewrites the declared functions of one file in place; returns whether any was found.
pub fn rewrite_file(
    ast: &mut syn::File,
    rel: &str,
    text: &str,
    module: &[String],
    sh: &mut CrateWalk<'_>,
) -> bool {
    let lines = LineIndex::new(text);
    let mut touched = false;
    each_fn_mut(&mut ast.items, module, &mut |site, parts| {
        let Some(role) = sh.declared.role(site) else {
            return;
        };
        touched = true;
        let self_ty = parts.self_ty.and_then(|t| sh.index.ty(t, None));
        let mut w = FnRewriter {
            sh: &mut *sh,
            role,
            function: site.display(),
            site,
            file: rel,
            text,
            lines: &lines,
            self_ty,
            scopes: Scopes::default(),
            closures: 0,
            replay: false,
            ret: None,
            marks: Vec::new(),
            marks_used: 0,
            marking: false,
        };
        w.run(parts);
    });
    touched
}

/// How the value of an expression is used, which decides what may replace it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// Read by value: a variable or field read here may become another one.
    Value,
    /// A place: borrowed, a receiver or a base; replacing it by a value would change what the
    /// original does.
    Place,
    /// The place an assignment writes: another variable of its type may be written instead
    /// (Java's variables are written as well as read).
    Target,
    /// The value is thrown away (an expression statement).
    Discard,
}

/// One alternative at a mutation point.
enum Alt {
    Op(BinOp),
    Var(Ident),
    /// `self.field`, replacing a variable read.
    SelfField(Member),
    Field(Member),
    Method(Ident),
    Func(syn::ExprPath),
    /// An integer constant, replacing another.
    Const(Expr),
}

struct FnRewriter<'s, 'a> {
    sh: &'s mut CrateWalk<'a>,
    role: Role,
    function: String,
    site: &'s FnSite,
    file: &'s str,
    text: &'s str,
    lines: &'s LineIndex,
    self_ty: Option<Ty>,
    scopes: Scopes,
    /// How many closures enclose the current expression.
    closures: usize,
    /// Walking the plain copy of a function: same probes, no mutation points.
    replay: bool,
    /// The function's return type, when no type parameter enters it.
    ret: Option<Ty>,
    /// Per candidate mutation point met by the guarded walk, in walk order: the mutant ids of
    /// the point if it got a guard. The plain copy's walk meets the same candidates in the
    /// same order and puts a reach marker where the guarded copy has a guard.
    marks: Vec<Option<(u32, u32)>>,
    /// How many of `marks` the plain copy's walk has used.
    marks_used: usize,
    /// Walking the marked plain copy: reach markers where the guarded copy has guards.
    marking: bool,
}

fn lit(id: u32) -> Literal {
    Literal::u32_unsuffixed(id)
}

fn tick_stmt() -> Stmt {
    parse_quote!(::ferastrau_probes::tick();)
}

/// Locals that hold the active mutant and the coverage flag, read once per call: guards and
/// probes then test a register instead of loading a static each time. (The worker switches
/// mutants and coverage only between runs.) Code inside closures reads the statics instead,
/// so that no closure captures these locals.
pub(crate) const ACTIVE_LOCAL: &str = "__ferastrau_active";
const COVERAGE_LOCAL: &str = "__ferastrau_cov";

fn local(name: &str) -> Ident {
    Ident::new(name, proc_macro2::Span::call_site())
}

impl FnRewriter<'_, '_> {
    fn run(&mut self, parts: FnParts<'_>) {
        if parts.sig.constness.is_some() {
            return; // switches and probes are not `const`
        }
        self.ret = self.own_signature().and_then(|s| s.concrete_ret().cloned());
        self.scopes.push();
        for arg in &parts.sig.inputs {
            match arg {
                syn::FnArg::Receiver(r) => {
                    // `&self` and `&mut self` (syn: `reference`, the `mut` in `mutability`);
                    // `self` and `mut self` bind the value (`mut`: a writable binding).
                    let ty = self.self_ty.clone().map(|inner| match &r.reference {
                        Some(_) => Ty::Ref {
                            mutable: r.mutability.is_some(),
                            inner: Box::new(inner),
                        },
                        None => inner,
                    });
                    let writable = r.mutability.is_some();
                    self.scopes.declare("self", ty, writable);
                }
                syn::FnArg::Typed(p) => {
                    let ty = self.sh.index.ty(&p.ty, self.self_ty.as_ref());
                    self.bind_pat(&p.pat, ty);
                }
            }
        }
        let (active, cov) = (local(ACTIVE_LOCAL), local(COVERAGE_LOCAL));
        let mut body: Vec<Stmt> = vec![parse_quote!(let #cov = ::ferastrau_probes::coverage();)];
        if self.role == Role::Code {
            body.push(parse_quote!(let #active = ::ferastrau_probes::active();));
            body.push(tick_stmt());
        }
        let mut plain = parts.block.clone();
        let (first, first_probe) = (self.sh.next_mutant, self.sh.next_probe);
        self.block(parts.block, Ctx::Value, Vec::new());
        let last = self.sh.next_mutant - 1;
        let enabled = self.sh.enabled;
        let guarded = std::mem::take(&mut parts.block.stmts);
        if (first..=last).any(enabled) {
            // The same walk again, probes renumbered identically and no mutation points:
            // the copy that runs whenever the active mutant is not one of this function's.
            // Twice: once with a reach marker where the guarded copy has a guard (the copy
            // the original's checking run takes), once without (every other run: markers,
            // even switched off, cost the hot path about a tenth).
            let probes_end = self.sh.next_probe;
            let mut marked = plain.clone();
            self.replay = true;
            for (copy, marking) in [(&mut plain, false), (&mut marked, true)] {
                self.sh.next_probe = first_probe;
                self.marks_used = 0;
                self.marking = marking;
                self.block(copy, Ctx::Value, Vec::new());
                debug_assert_eq!(self.sh.next_probe, probes_end);
                debug_assert_eq!(self.marks_used, self.marks.len());
            }
            self.replay = false;
            self.marking = false;
            let (lo, hi) = (lit(first), lit(last));
            body.push(Stmt::Expr(
                parse_quote!(if #active >= #lo && #active <= #hi { #(#guarded)* } else if ::ferastrau_probes::reaching() #marked else #plain),
                None,
            ));
        } else {
            body.extend(guarded);
        }
        parts.block.stmts = body;
        self.scopes.pop();
        parts.attrs.push(parse_quote!(#[allow(
            unused_parens,
            unused_braces,
            unreachable_patterns,
            unreachable_code,
            unused_variables,
            unused_assignments,
            clippy::all
        )]));
    }
}
