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
//! the original code plus probes, which is what keeps the guards' cost low.

use proc_macro2::{LineColumn, Literal};
use quote::ToTokens;
use syn::visit::Visit;
use syn::{parse_quote, BinOp, Block, Expr, Ident, Member, Pat, Stmt};

use crate::catalog::{Edit, Family, Mutant, Pos, Probe};
use crate::items::{each_fn_mut, FnParts, FnSite, Role, Selection};
use crate::types::{CrateIndex, FnSig, Ty};

/// Methods and functions that nobody confuses with another (Sec. 7.1): never replaced, never
/// used as a replacement.
const SPECIAL: &[&str] = &[
    "new",
    "default",
    "clone",
    "clone_from",
    "fmt",
    "eq",
    "ne",
    "cmp",
    "partial_cmp",
    "lt",
    "le",
    "gt",
    "ge",
    "hash",
    "drop",
    "from",
    "into",
    "try_from",
    "try_into",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "deref",
    "deref_mut",
    "index",
    "index_mut",
    "len",
    "is_empty",
    "push",
    "expect",
    "unwrap",
    "iter",
    "iter_mut",
    "into_iter",
    "next",
    "to_string",
    "to_owned",
];

/// State shared by the walk over every file of a crate.
pub struct Shared<'a> {
    pub index: &'a CrateIndex,
    pub selection: &'a Selection,
    /// Display names of the specification functions (never used as call replacements).
    pub spec_names: Vec<String>,
    /// Which mutants get an arm in the generated code.
    pub enabled: &'a dyn Fn(u32) -> bool,
    pub next_mutant: u32,
    pub next_probe: u32,
    pub mutants: Vec<Mutant>,
    pub probes: Vec<Probe>,
}

impl<'a> Shared<'a> {
    pub fn new(
        index: &'a CrateIndex,
        selection: &'a Selection,
        enabled: &'a dyn Fn(u32) -> bool,
    ) -> Self {
        Shared {
            index,
            selection,
            spec_names: selection.spec_names(),
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
    sh: &mut Shared<'_>,
) -> bool {
    let lines = LineIndex::new(text);
    let mut touched = false;
    each_fn_mut(&mut ast.items, module, &mut |site, parts| {
        let Some(role) = sh.selection.role(site) else {
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
            scopes: Vec::new(),
            declared: 0,
            closures: 0,
            replay: false,
            ret: None,
        };
        w.run(parts);
    });
    touched
}

/// Byte offsets of line starts, to turn (line, column) positions into text slices.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// Byte offset of a proc-macro2 position (1-based line, 0-based column in characters).
    fn offset(&self, text: &str, at: LineColumn) -> usize {
        let Some(&start) = self.starts.get(at.line.saturating_sub(1)) else {
            return text.len();
        };
        text[start..]
            .char_indices()
            .nth(at.column)
            .map_or(text.len(), |(i, _)| start + i)
    }
}

/// Byte offset of a catalog position in `text`.
pub fn offset_of(text: &str, at: Pos) -> usize {
    LineIndex::new(text).offset(
        text,
        LineColumn {
            line: at.line,
            column: at.column - 1,
        },
    )
}

/// First and last position of the tokens of a syntax node.
pub fn extent(node: &impl ToTokens) -> Option<(LineColumn, LineColumn)> {
    let mut tokens = node.to_token_stream().into_iter();
    let first = tokens.next()?;
    let last = tokens.last().unwrap_or_else(|| first.clone());
    Some((first.span().start(), last.span().end()))
}

fn pos(lc: LineColumn) -> Pos {
    Pos {
        line: lc.line,
        column: lc.column + 1,
    }
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

struct Binding {
    name: String,
    ty: Option<Ty>,
    order: usize,
    /// Declared `mut` (a receiver: `&mut self` or `mut self`): may be assigned.
    writable: bool,
    /// Holds a value: false for `let x: T;` until the walk meets its first assignment, so that
    /// no mutant reads it before then (which would not compile).
    assigned: bool,
}

struct FnRewriter<'s, 'a> {
    sh: &'s mut Shared<'a>,
    role: Role,
    function: String,
    site: &'s FnSite,
    file: &'s str,
    text: &'s str,
    lines: &'s LineIndex,
    self_ty: Option<Ty>,
    scopes: Vec<Vec<Binding>>,
    declared: usize,
    /// How many closures enclose the current expression.
    closures: usize,
    /// Walking the plain copy of a function: same probes, no mutation points.
    replay: bool,
    /// The function's return type, when no type parameter enters it.
    ret: Option<Ty>,
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
const ACTIVE_LOCAL: &str = "__ferastrau_active";
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
        self.push_scope();
        for arg in &parts.sig.inputs {
            match arg {
                syn::FnArg::Receiver(r) => {
                    let ty = self.self_ty.clone().map(|inner| match &r.kind {
                        syn::ReceiverKind::Reference(_, _, m) => Ty::Ref {
                            mutable: m.is_some(),
                            inner: Box::new(inner),
                        },
                        _ => inner,
                    });
                    let writable = match &r.kind {
                        syn::ReceiverKind::Reference(_, _, m) => m.is_some(),
                        _ => r.mutability.is_some(),
                    };
                    self.declare("self", ty, writable);
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
            let probes_end = self.sh.next_probe;
            self.sh.next_probe = first_probe;
            self.replay = true;
            self.block(&mut plain, Ctx::Value, Vec::new());
            self.replay = false;
            debug_assert_eq!(self.sh.next_probe, probes_end);
            let (lo, hi) = (lit(first), lit(last));
            body.push(Stmt::Expr(
                parse_quote!(if #active >= #lo && #active <= #hi { #(#guarded)* } else #plain),
                None,
            ));
        } else {
            body.extend(guarded);
        }
        parts.block.stmts = body;
        self.pop_scope();
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

    // ----- scopes -------------------------------------------------------------------------

    fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn declare(&mut self, name: &str, ty: Option<Ty>, writable: bool) {
        self.declared += 1;
        let order = self.declared;
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Binding {
                name: name.to_string(),
                ty,
                order,
                writable,
                assigned: true,
            });
        }
    }

    /// This function's entry in the crate index (when exactly one matches its site).
    fn own_signature(&self) -> Option<&FnSig> {
        let mut found = self.sh.index.fns.iter().filter(|f| {
            f.name == self.site.name && f.owner == self.site.owner && f.module == self.site.module
        });
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    fn lookup_mut(&mut self, name: &str) -> Option<&mut Binding> {
        self.scopes
            .iter_mut()
            .rev()
            .flat_map(|s| s.iter_mut().rev())
            .find(|b| b.name == name)
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|b| b.name == name)
    }

    /// The bindings visible here (the innermost of each name), in declaration order.
    fn visible(&self) -> Vec<&Binding> {
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<&Binding> = self
            .scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .filter(|b| seen.insert(b.name.as_str()))
            .collect();
        out.sort_by_key(|b| b.order);
        out
    }

    fn bind_pat(&mut self, p: &Pat, ty: Option<Ty>) {
        match p {
            Pat::Ident(pi) => {
                let name = pi.ident.to_string();
                let constant = name.starts_with(|c: char| c.is_uppercase())
                    && pi.by_ref.is_none()
                    && pi.mutability.is_none()
                    && pi.subpat.is_none();
                if constant {
                    return; // `None`, a unit struct or a constant, not a binding
                }
                let own = match (&pi.by_ref, &ty) {
                    (Some(_), Some(t)) => Some(Ty::Ref {
                        mutable: pi.mutability.is_some(),
                        inner: Box::new(t.clone()),
                    }),
                    (Some(_), None) => None,
                    (None, t) => t.clone(),
                };
                let writable = pi.mutability.is_some() && pi.by_ref.is_none();
                self.declare(&name, own, writable);
                if let Some((_, sub)) = &pi.subpat {
                    self.bind_pat(sub, ty);
                }
            }
            Pat::Type(pt) => {
                let t = self.sh.index.ty(&pt.ty, self.self_ty.as_ref());
                self.bind_pat(&pt.pat, t);
            }
            Pat::TupleStruct(ts) => {
                let is_some = ts.path.segments.last().is_some_and(|s| s.ident == "Some");
                let inner = match &ty {
                    Some(t) if is_some && ts.elems.len() == 1 => t.option_inner().cloned(),
                    _ => None,
                };
                for el in &ts.elems {
                    self.bind_pat(el, inner.clone());
                }
            }
            Pat::Tuple(t) => {
                let has_rest = t.elems.iter().any(|e| matches!(e, Pat::Rest(_)));
                match ty {
                    Some(Ty::Tuple(ts)) if !has_rest && ts.len() == t.elems.len() => {
                        for (el, ty) in t.elems.iter().zip(ts) {
                            self.bind_pat(el, Some(ty));
                        }
                    }
                    _ => {
                        for el in &t.elems {
                            self.bind_pat(el, None);
                        }
                    }
                }
            }
            Pat::Reference(r) => {
                let inner = match ty {
                    Some(Ty::Ref { inner, .. }) => Some(*inner),
                    _ => None,
                };
                self.bind_pat(&r.pat, inner);
            }
            Pat::Struct(s) => {
                let owner = s.path.segments.last().map(|s| s.ident.to_string());
                for fp in &s.fields {
                    let fty = match (&owner, &fp.member) {
                        (Some(o), Member::Named(f)) => {
                            self.sh.index.field(o, &f.to_string()).cloned()
                        }
                        _ => None,
                    };
                    self.bind_pat(&fp.pat, fty);
                }
            }
            Pat::Or(o) => {
                if let Some(first) = o.cases.first() {
                    self.bind_pat(first, ty);
                }
            }
            Pat::Paren(p) => self.bind_pat(&p.pat, ty),
            Pat::Guard(g) => self.bind_pat(&g.pat, ty),
            Pat::Slice(s) => {
                let el = ty.as_ref().and_then(|t| t.element().cloned());
                for e in &s.elems {
                    self.bind_pat(e, el.clone());
                }
            }
            _ => {}
        }
    }

    // ----- types --------------------------------------------------------------------------

    /// The type of an expression of the original source, when simple inference sees it.
    fn type_of(&self, e: &Expr) -> Option<Ty> {
        let ix = self.sh.index;
        match e {
            Expr::Lit(l) => match &l.lit {
                syn::Lit::Int(i) if i.suffix().is_empty() => Some(Ty::IntLiteral),
                syn::Lit::Int(i) => Some(Ty::named(i.suffix())),
                syn::Lit::Float(f) if f.suffix().is_empty() => Some(Ty::FloatLiteral),
                syn::Lit::Float(f) => Some(Ty::named(f.suffix())),
                syn::Lit::Bool(_) => Some(Ty::named("bool")),
                syn::Lit::Char(_) => Some(Ty::named("char")),
                _ => None,
            },
            Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
                let name = p.path.segments[0].ident.to_string();
                match self.lookup(&name) {
                    Some(b) => b.ty.clone(),
                    // A constant or static of the crate: its declared type.
                    None if name.starts_with(|c: char| c.is_uppercase()) => {
                        ix.constant(&self.site.module, &name)
                    }
                    None => None,
                }
            }
            Expr::Paren(p) => self.type_of(&p.expr),
            Expr::Group(g) => self.type_of(&g.expr),
            Expr::Field(f) => {
                let owner = self.type_of(&f.base)?.head()?.to_string();
                let name = match &f.member {
                    Member::Named(n) => n.to_string(),
                    Member::Unnamed(i) => i.index.to_string(),
                };
                ix.field(&owner, &name).cloned()
            }
            Expr::MethodCall(m) => {
                let recv = self.type_of(&m.receiver);
                if let Some(sig) = self.resolve_method(recv.as_ref(), &m.method.to_string()) {
                    return sig.concrete_ret().cloned();
                }
                let recv = recv?;
                match m.method.to_string().as_str() {
                    "len" | "count" => Some(Ty::named("usize")),
                    "is_some" | "is_none" | "is_empty" | "contains" | "is_ok" | "is_err" => {
                        Some(Ty::named("bool"))
                    }
                    "unwrap" | "expect" => recv.deref_all().try_output().cloned(),
                    "clone" => Some(recv.deref_all().clone()),
                    _ => None,
                }
            }
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else {
                    return None;
                };
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                if segs.len() == 1 && segs[0] == "Some" && c.args.len() == 1 {
                    let inner = self.type_of(&c.args[0])?;
                    return Some(Ty::Named {
                        name: "Option".into(),
                        args: vec![inner],
                    });
                }
                self.resolve_fn(p).and_then(|s| s.concrete_ret().cloned())
            }
            // `x?` yields the `T` of `Result<T, E>` or `Option<T>`.
            Expr::Try(t) => self.type_of(&t.expr)?.try_output().cloned(),
            Expr::Binary(b) => {
                use BinOp::*;
                match b.op {
                    Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_) | BitAnd(_) | BitOr(_)
                    | BitXor(_) | Shl(_) | Shr(_) => {
                        let l = self.type_of(&b.left);
                        match l {
                            Some(Ty::IntLiteral) | None => self.type_of(&b.right).or(l),
                            l => l,
                        }
                    }
                    Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_) | And(_) | Or(_) => {
                        Some(Ty::named("bool"))
                    }
                    _ => Some(Ty::unit()),
                }
            }
            Expr::Unary(u) => {
                let inner = self.type_of(&u.expr)?;
                match u.op {
                    syn::UnOp::Deref(_) => match inner {
                        Ty::Ref { inner, .. } => Some(*inner),
                        _ => None,
                    },
                    _ => Some(inner),
                }
            }
            Expr::Reference(r) => Some(Ty::Ref {
                mutable: r.mutability.is_some(),
                inner: Box::new(self.type_of(&r.expr)?),
            }),
            Expr::Cast(c) => ix.ty(&c.ty, self.self_ty.as_ref()),
            Expr::Index(i) => self.type_of(&i.expr)?.element().cloned(),
            Expr::Tuple(t) => Some(Ty::Tuple(
                t.elems
                    .iter()
                    .map(|e| self.type_of(e))
                    .collect::<Option<_>>()?,
            )),
            _ => None,
        }
    }

    /// The crate method `name` called on a receiver of type `recv` (or, when the receiver's
    /// type is unknown, the only crate type that has such a method).
    fn resolve_method(&self, recv: Option<&Ty>, name: &str) -> Option<&FnSig> {
        let ix = self.sh.index;
        if let Some(owner) = recv.and_then(Ty::head) {
            return ix
                .lookup(Some(owner), name)
                .into_iter()
                .find(|s| s.receiver.is_some());
        }
        let candidates: Vec<&FnSig> = ix
            .methods_named(name)
            .into_iter()
            .filter(|s| s.receiver.is_some())
            .collect();
        let first = *candidates.first()?;
        candidates
            .iter()
            .all(|s| s.owner == first.owner)
            .then_some(first)
    }

    /// The crate function a call path names: `f`, `module::f`, `Type::f` or `Self::f`.
    fn resolve_fn(&self, p: &syn::ExprPath) -> Option<&FnSig> {
        if p.qself.is_some() {
            return None;
        }
        let ix = self.sh.index;
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let name = segs.last()?;
        if segs.len() >= 2 {
            let prev = &segs[segs.len() - 2];
            if prev.starts_with(|c: char| c.is_uppercase()) {
                let owner = if prev == "Self" {
                    self.self_ty.as_ref()?.head()?.to_string()
                } else {
                    prev.clone()
                };
                return ix
                    .fns
                    .iter()
                    .find(|s| s.owner.as_deref() == Some(owner.as_str()) && &s.name == name);
            }
        } else if self.lookup(name).is_some() {
            return None; // a local closure, not a crate function
        }
        let module: Vec<&String> = segs[..segs.len() - 1]
            .iter()
            .filter(|s| *s != "crate" && *s != "self" && *s != "super")
            .collect();
        let found: Vec<&FnSig> = ix
            .lookup(None, name)
            .into_iter()
            .filter(|s| {
                let m: Vec<&String> = s.module.iter().collect();
                m.ends_with(&module)
            })
            .collect();
        match found.as_slice() {
            [] => None,
            [only] => Some(*only),
            // Several functions of that name: the one of the calling module, if any.
            several => several
                .iter()
                .copied()
                .find(|s| s.module == self.site.module),
        }
    }

    fn is_copy(&self, t: &Ty) -> bool {
        self.sh.index.is_copy(t)
    }

    // ----- settling literal-typed locals ----------------------------------------------------

    /// A local initialised from an unsuffixed literal (`let mut i = 0;`) has whatever type
    /// the compiler infers from its uses, so it is neither swapped nor a replacement while
    /// that type is unknown: a guarded choice unifies its arms, and would impose the other
    /// variable's type on the original. Some uses fix the type whatever the mutants do, and
    /// from such a use on (in walk order) the local counts as typed:
    /// - `x = e`, `e = x` (an assignment coerces to a known type, which unifies an integer
    ///   variable with it);
    /// - `x op e`, `e op x`, `x op= e`, `e op= x` for the arithmetic, bitwise and comparison
    ///   operators (the compiler demands equal operand types for these on integers and
    ///   floats; not for shifts);
    /// - `return x` in a function whose return type is known;
    /// - `x` as an argument of a crate function or of a crate method whose receiver type is
    ///   known, when the parameter's type is known and names no type parameter;
    /// - `x` as a field of a crate struct literal; `let y: T = x;`.
    ///
    /// `e` must have a settled type (a declaration, a signature, a field, a cast, a suffix).
    fn settle_uses(&mut self, e: &Expr) {
        match e {
            Expr::Assign(a) => self.settle_pair(&a.left, &a.right),
            Expr::Binary(b) if equal_operands(&b.op) => self.settle_pair(&b.left, &b.right),
            Expr::Return(r) if self.closures == 0 => {
                if let (Some(x), Some(t)) = (&r.expr, self.ret.clone()) {
                    self.settle(x, &t);
                }
            }
            Expr::MethodCall(m) => {
                let Some(owner) = self
                    .type_of(&m.receiver)
                    .and_then(|t| t.head().map(str::to_string))
                else {
                    return;
                };
                let sig = self
                    .sh
                    .index
                    .lookup(Some(&owner), &m.method.to_string())
                    .into_iter()
                    .find(|s| s.receiver.is_some())
                    .cloned();
                if let Some(sig) = sig {
                    self.settle_args(&sig, m.args.iter());
                }
            }
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else {
                    return;
                };
                if let Some(sig) = self.resolve_fn(p).cloned() {
                    self.settle_args(&sig, c.args.iter());
                }
            }
            Expr::Struct(st) if st.qself.is_none() => {
                let Some(owner) = st.path.segments.last().map(|s| s.ident.to_string()) else {
                    return;
                };
                let owner = match (owner.as_str(), &self.self_ty) {
                    ("Self", Some(t)) => t.head().unwrap_or_default().to_string(),
                    _ => owner,
                };
                for fv in &st.fields {
                    let Member::Named(f) = &fv.member else {
                        continue;
                    };
                    if let Some(t) = self.sh.index.field(&owner, &f.to_string()).cloned() {
                        self.settle(&fv.expr, &t);
                    }
                }
            }
            _ => {}
        }
    }

    fn settle_args<'e>(&mut self, sig: &FnSig, args: impl Iterator<Item = &'e Expr>) {
        let args: Vec<&Expr> = args.collect();
        if args.len() != sig.params.len() {
            return;
        }
        for (x, p) in args.into_iter().zip(&sig.params) {
            if let Some(t) = p
                .as_ref()
                .filter(|t| !sig.generics.iter().any(|g| t.mentions(g)))
            {
                self.settle(x, t);
            }
        }
    }

    /// Two expressions of one type: settles either from the other.
    fn settle_pair(&mut self, a: &Expr, b: &Expr) {
        for (x, other) in [(a, b), (b, a)] {
            if self.literal_typed(x).is_some() {
                if let Some(t) = self.type_of(other) {
                    self.settle(x, &t);
                }
            }
        }
    }

    /// The name of the local `x` reads, when it is still of a literal's type.
    fn literal_typed(&self, x: &Expr) -> Option<String> {
        let x = match x {
            Expr::Paren(p) => return self.literal_typed(&p.expr),
            Expr::Group(g) => return self.literal_typed(&g.expr),
            x => x,
        };
        let Expr::Path(p) = x else {
            return None;
        };
        if p.qself.is_some() || p.path.segments.len() != 1 {
            return None;
        }
        let name = p.path.segments[0].ident.to_string();
        matches!(
            self.lookup(&name)?.ty,
            Some(Ty::IntLiteral | Ty::FloatLiteral)
        )
        .then_some(name)
    }

    /// Gives the literal-typed local that `x` reads the type `t`, when `t` is a settled type
    /// of the same kind (an integer for an integer literal, a float for a float literal).
    fn settle(&mut self, x: &Expr, t: &Ty) {
        let Some(name) = self.literal_typed(x) else {
            return;
        };
        let Some(b) = self.lookup_mut(&name) else {
            return;
        };
        let fits = match b.ty {
            Some(Ty::IntLiteral) => t.is_integer(),
            Some(Ty::FloatLiteral) => t.is_float(),
            _ => false,
        };
        if fits && t.is_concrete_number() {
            b.ty = Some(t.clone());
        }
    }

    // ----- mutants ------------------------------------------------------------------------

    fn slice(&self, from: LineColumn, to: LineColumn) -> String {
        let a = self.lines.offset(self.text, from);
        let b = self.lines.offset(self.text, to);
        self.text.get(a..b.max(a)).unwrap_or_default().to_string()
    }

    fn add_mutant(
        &mut self,
        family: Family,
        at: (LineColumn, LineColumn),
        original: String,
        replacement: String,
        edit: Option<Edit>,
    ) -> u32 {
        let id = self.sh.next_mutant;
        self.sh.next_mutant += 1;
        let edit = edit.unwrap_or_else(|| Edit {
            start: pos(at.0),
            end: pos(at.1),
            old: self.slice(at.0, at.1),
            new: paper_form(&replacement, &original),
        });
        self.sh.mutants.push(Mutant {
            id,
            family,
            function: self.function.clone(),
            file: self.file.to_string(),
            line: at.0.line,
            column: at.0.column + 1,
            original,
            replacement,
            viable: None,
            edit,
        });
        id
    }

    /// Records the mutants of expression `e` (of the original source) and returns their ids
    /// with the replacement each one makes.
    fn points(&mut self, e: &Expr, ctx: Ctx) -> Vec<(u32, Alt)> {
        if self.role != Role::Code || self.replay {
            return Vec::new();
        }
        match e {
            Expr::Binary(b) => self.operator_points(b),
            Expr::Path(p) if matches!(ctx, Ctx::Value | Ctx::Target) => {
                self.variable_points(p, ctx)
            }
            Expr::Field(f) if matches!(ctx, Ctx::Value | Ctx::Target) => self.field_points(f, ctx),
            Expr::MethodCall(m) => self.method_points(m),
            Expr::Call(c) => self.call_points(c),
            _ => Vec::new(),
        }
    }

    fn operator_points(&mut self, b: &syn::ExprBinary) -> Vec<(u32, Alt)> {
        let lt = self.type_of(&b.left);
        let rt = self.type_of(&b.right);
        let Some(at) = extent(&b.op) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let rhs_literal = is_literal(&b.right);
        for op in operator_alternatives(&b.op, lt.as_ref(), rt.as_ref(), rhs_literal) {
            let original = op_str(&b.op).to_string();
            let replacement = op_str(&op).to_string();
            // A change of precedence (`+` to `*`) needs parentheses in the source edit so
            // that the text still parses as the same tree.
            let edit = if precedence(&op) != precedence(&b.op) {
                extent(b).map(|whole| {
                    let operand = |x: &Expr| {
                        let (s, e) = extent(x).unwrap_or(whole);
                        let t = self.slice(s, e);
                        if matches!(x, Expr::Binary(_) | Expr::Cast(_) | Expr::Range(_)) {
                            format!("({t})")
                        } else {
                            t
                        }
                    };
                    Edit {
                        start: pos(whole.0),
                        end: pos(whole.1),
                        old: self.slice(whole.0, whole.1),
                        new: format!(
                            "({} {} {})",
                            operand(&b.left),
                            paper_form(&replacement, &original),
                            operand(&b.right)
                        ),
                    }
                })
            } else {
                None
            };
            let id = self.add_mutant(Family::Operator, at, original, replacement, edit);
            out.push((id, Alt::Op(op)));
        }
        out
    }

    /// Fields of `self` (when it is a struct the index knows), with their types.
    fn self_fields(&self) -> Vec<(String, Ty)> {
        self.lookup("self")
            .and_then(|b| b.ty.as_ref())
            .and_then(|t| t.head())
            .and_then(|owner| self.sh.index.structs.get(owner))
            .cloned()
            .unwrap_or_default()
    }

    /// The variables a read of type `ty` may become (Sec. 7.1: Java's variables are locals,
    /// parameters and instance fields alike): locals and parameters in scope, then fields of
    /// `self`, leaving out the read itself. Types must be equal, not merely unifiable. For a
    /// written place (`ctx` is `Target`), only what may be assigned: `mut` bindings, and
    /// fields of a mutable `self` (Java's parameters are assignable, Rust's are not).
    fn variables_of_type(&self, ty: &Ty, not_local: &str, not_field: &str, ctx: Ctx) -> Vec<Alt> {
        let written = ctx == Ctx::Target;
        let mut out: Vec<Alt> = self
            .visible()
            .into_iter()
            .filter(|b| b.name != not_local && b.name != "self")
            .filter(|b| b.ty.as_ref() == Some(ty) && b.assigned && (b.writable || !written))
            .map(|b| Alt::Var(Ident::new(&b.name, proc_macro2::Span::call_site())))
            .collect();
        if written && !self.lookup("self").is_some_and(|b| b.writable) {
            return out;
        }
        out.extend(
            self.self_fields()
                .into_iter()
                .filter(|(n, t)| n != not_field && t == ty)
                .filter_map(|(n, _)| syn::parse_str(&n).ok().map(Alt::SelfField)),
        );
        out
    }

    /// Records one mutant per operand alternative at `at` (each shown by its text), with
    /// the ids the guard needs.
    fn record(
        &mut self,
        family: Family,
        at: (LineColumn, LineColumn),
        original: &str,
        alts: Vec<Alt>,
    ) -> Vec<(u32, Alt)> {
        alts.into_iter()
            .map(|alt| {
                let text = alt_text(&alt);
                let id = self.add_mutant(family, at, original.to_string(), text, None);
                (id, alt)
            })
            .collect()
    }

    fn variable_points(&mut self, p: &syn::ExprPath, ctx: Ctx) -> Vec<(u32, Alt)> {
        if p.qself.is_some() || p.path.segments.len() != 1 || !p.attrs.is_empty() {
            return Vec::new();
        }
        let ident = &p.path.segments[0].ident;
        let name = ident.to_string();
        if name == "self" {
            return Vec::new();
        }
        let Some((Some(ty), writable)) = self.lookup(&name).map(|b| (b.ty.clone(), b.writable))
        else {
            return Vec::new();
        };
        // `let next; … next = a;` initialises a binding that is not `mut`: no place to borrow.
        if ctx == Ctx::Target && !writable {
            return Vec::new();
        }
        // A local of an inferred integer type (`let mut i = 0;`) is left alone: swapping it
        // with a typed variable would change what the compiler infers for the original too.
        if matches!(ty, Ty::IntLiteral | Ty::FloatLiteral) || !self.is_copy(&ty) {
            return Vec::new();
        }
        let Some(at) = extent(ident) else {
            return Vec::new();
        };
        let alts = self.variables_of_type(&ty, &name, "", ctx);
        self.record(Family::Variable, at, &name, alts)
    }

    fn field_points(&mut self, f: &syn::ExprField, ctx: Ctx) -> Vec<(u32, Alt)> {
        let Some(owner) = self
            .type_of(&f.base)
            .and_then(|t| t.head().map(str::to_string))
        else {
            return Vec::new();
        };
        let name = match &f.member {
            Member::Named(n) => n.to_string(),
            Member::Unnamed(i) => i.index.to_string(),
        };
        let Some(fields) = self.sh.index.structs.get(&owner) else {
            return Vec::new();
        };
        let Some((_, ty)) = fields.iter().find(|(n, _)| *n == name) else {
            return Vec::new();
        };
        let ty = ty.clone();
        if !self.is_copy(&ty) {
            return Vec::new();
        }
        let on_self = matches!(&*f.base, Expr::Path(p) if p.path.is_ident("self"));
        if on_self {
            // `self.root` is a variable like any local: the whole read may change.
            let Some(at) = extent(f) else {
                return Vec::new();
            };
            let alts = self.variables_of_type(&ty, "", &name, ctx);
            return self.record(Family::Variable, at, &format!("self.{name}"), alts);
        }
        let others: Vec<String> = fields
            .iter()
            .filter(|(n, t)| *n != name && *t == ty)
            .map(|(n, _)| n.clone())
            .collect();
        let (Some(at), Some(whole)) = (extent(&f.member), extent(f)) else {
            return Vec::new();
        };
        let mut out: Vec<(u32, Alt)> = others
            .into_iter()
            .map(|other| {
                let member: Member = syn::parse_str(&other).expect("a field name");
                let id = self.add_mutant(Family::Variable, at, name.clone(), other, None);
                (id, Alt::Field(member))
            })
            .collect();
        // `n.info` is a variable too (an instance variable): the whole access may become a
        // local, a parameter or a field of `self` of its type.
        let original = self.slice(whole.0, whole.1);
        let alts = self.variables_of_type(&ty, "", "", ctx);
        out.extend(self.record(Family::Variable, whole, &original, alts));
        out
    }

    /// Crate functions that may replace `sig`: same owner, compatible signature, neither
    /// special nor specification.
    fn call_alternatives(&self, sig: &FnSig) -> Vec<FnSig> {
        if SPECIAL.contains(&sig.name.as_str()) || self.is_spec(sig) {
            return Vec::new();
        }
        self.sh
            .index
            .fns
            .iter()
            .filter(|o| o.owner == sig.owner && o.name != sig.name)
            .filter(|o| !SPECIAL.contains(&o.name.as_str()) && !self.is_spec(o))
            .filter(|o| sig.compatible(o))
            .fold(Vec::new(), |mut acc: Vec<FnSig>, o| {
                if !acc.iter().any(|a| a.name == o.name) {
                    acc.push(o.clone());
                }
                acc
            })
    }

    fn is_spec(&self, sig: &FnSig) -> bool {
        let name = match &sig.owner {
            Some(o) => format!("{o}::{}", sig.name),
            None => sig.name.clone(),
        };
        self.sh.spec_names.contains(&name)
    }

    fn method_points(&mut self, m: &syn::ExprMethodCall) -> Vec<(u32, Alt)> {
        let recv = self.type_of(&m.receiver);
        let name = m.method.to_string();
        let Some(sig) = self.resolve_method(recv.as_ref(), &name).cloned() else {
            return Vec::new();
        };
        let Some(at) = extent(&m.method) else {
            return Vec::new();
        };
        self.call_alternatives(&sig)
            .into_iter()
            .map(|alt| {
                let id = self.add_mutant(Family::Call, at, name.clone(), alt.name.clone(), None);
                (id, Alt::Method(Ident::new(&alt.name, m.method.span())))
            })
            .collect()
    }

    fn call_points(&mut self, c: &syn::ExprCall) -> Vec<(u32, Alt)> {
        let Expr::Path(p) = &*c.func else {
            return Vec::new();
        };
        let Some(sig) = self.resolve_fn(p).cloned() else {
            return Vec::new();
        };
        let Some(at) = extent(&p.path) else {
            return Vec::new();
        };
        let original = self.slice(at.0, at.1);
        self.call_alternatives(&sig)
            .into_iter()
            .map(|alt| {
                let mut path = p.clone();
                if sig.owner.is_some() || alt.module == self.site.module {
                    let last = path.path.segments.last_mut().expect("a call path");
                    last.ident = Ident::new(&alt.name, last.ident.span());
                } else {
                    let mut segs = vec!["crate".to_string()];
                    segs.extend(alt.module.iter().cloned());
                    segs.push(alt.name.clone());
                    path = syn::parse_str(&segs.join("::")).expect("a path");
                }
                let replacement = path.path.to_token_stream().to_string().replace(' ', "");
                let id = self.add_mutant(Family::Call, at, original.clone(), replacement, None);
                (id, Alt::Func(path))
            })
            .collect()
    }

    /// An operand whose type the other side of its operator (or the assigned place) decides:
    /// an integer constant there may become its neighbours `c+1` and `c−1` (the off-by-one
    /// fault) or a variable of that type (Mothra's scalar-for-constant replacement); anything
    /// else is an ordinary read.
    fn operand(&mut self, e: &mut Expr, ty: Option<Ty>) {
        let value = match &*e {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse::<i128>().ok(),
            _ => None,
        };
        let ty = ty.filter(|t| t.is_integer() && t.is_concrete_number());
        let (Some(value), Some(ty), Some(at)) = (value, ty, extent(&*e)) else {
            return self.expr(e, Ctx::Value);
        };
        if self.role != Role::Code || self.replay {
            return;
        }
        let original = self.slice(at.0, at.1);
        let unsigned = ty.head().is_some_and(|h| h.starts_with('u'));
        let mut alts: Vec<Alt> = [value + 1, value - 1]
            .into_iter()
            .filter(|v| *v >= 0 || !unsigned)
            .map(|v| Alt::Const(syn::parse_str(&v.to_string()).expect("an integer")))
            .collect();
        alts.extend(self.variables_of_type(&ty, "", "", Ctx::Value));
        let alts = self.record(Family::Constant, at, &original, alts);
        self.guard(e, alts, Ctx::Value);
    }

    /// Replaces `e` (children already rewritten) by the guarded choice among its enabled
    /// alternatives and itself. A written place becomes `*(match .. { id => &mut other, _ =>
    /// &mut original })`, which the assignment then writes through.
    fn guard(&mut self, e: &mut Expr, alts: Vec<(u32, Alt)>, ctx: Ctx) {
        let enabled = self.sh.enabled;
        let target = ctx == Ctx::Target;
        let arms: Vec<syn::Arm> = alts
            .iter()
            .filter(|(id, _)| enabled(*id))
            .map(|(id, alt)| {
                let body = apply(e, alt);
                let id = lit(*id);
                if target {
                    parse_quote!(#id => &mut #body,)
                } else {
                    parse_quote!(#id => #body,)
                }
            })
            .collect();
        if arms.is_empty() {
            return;
        }
        let original = &*e;
        let switch = self.switch();
        *e = if target {
            parse_quote!(*(match #switch { #(#arms)* _ => &mut #original, }))
        } else {
            parse_quote!((match #switch { #(#arms)* _ => #original, }))
        };
    }

    // ----- probes -------------------------------------------------------------------------

    fn cover_stmt(&self, id: u32) -> Stmt {
        let id = lit(id);
        if self.closures == 0 {
            let cov = local(COVERAGE_LOCAL);
            parse_quote!(::ferastrau_probes::cover_if(#cov, #id);)
        } else {
            parse_quote!(::ferastrau_probes::cover(#id);)
        }
    }

    /// `cond` wrapped in a two-way branch probe.
    fn branch_expr(&self, cond: &Expr, t: u32, f: u32) -> Expr {
        let (t, f) = (lit(t), lit(f));
        if self.closures == 0 {
            let cov = local(COVERAGE_LOCAL);
            parse_quote!(::ferastrau_probes::branch_if(#cov, #cond, #t, #f))
        } else {
            parse_quote!(::ferastrau_probes::branch(#cond, #t, #f))
        }
    }

    /// The switch a guarded choice matches on.
    fn switch(&self) -> Expr {
        if self.closures == 0 {
            let active = local(ACTIVE_LOCAL);
            parse_quote!(#active)
        } else {
            parse_quote!(::ferastrau_probes::active())
        }
    }

    fn probe(&mut self, construct: Option<&str>, outcome: Option<&str>, line: usize) -> u32 {
        let id = self.sh.next_probe;
        self.sh.next_probe += 1;
        if self.replay {
            return id;
        }
        self.sh.probes.push(Probe {
            id,
            role: self.role.as_str().to_string(),
            function: self.function.clone(),
            kind: if construct.is_some() {
                "branch"
            } else {
                "statement"
            }
            .to_string(),
            construct: construct.map(str::to_string),
            outcome: outcome.map(str::to_string),
            file: self.file.to_string(),
            line,
        });
        id
    }

    fn branch_pair(&mut self, construct: &str, at: &impl ToTokens) -> (u32, u32) {
        let line = extent(at).map_or(0, |(s, _)| s.line);
        let (yes, no) = if construct == "?" {
            ("continue", "return")
        } else {
            ("true", "false")
        };
        (
            self.probe(Some(construct), Some(yes), line),
            self.probe(Some(construct), Some(no), line),
        )
    }

    // ----- the walk -----------------------------------------------------------------------

    /// A block: a statement probe before every statement, `head` (probes, ticks) first.
    fn block(&mut self, b: &mut Block, ctx: Ctx, head: Vec<Stmt>) {
        self.push_scope();
        let stmts = std::mem::take(&mut b.stmts);
        let n = stmts.len();
        let mut out = head;
        for (i, mut s) in stmts.into_iter().enumerate() {
            if matches!(s, Stmt::Item(_)) {
                out.push(s);
                continue;
            }
            let line = extent(&s).map_or(0, |(a, _)| a.line);
            let id = self.probe(None, None, line);
            out.push(self.cover_stmt(id));
            match &mut s {
                Stmt::Local(l) => {
                    let ty = match &l.init {
                        Some(init) => self.type_of(&init.expr),
                        None => None,
                    };
                    if let (Pat::Type(pt), Some(init)) = (&l.pat, &l.init) {
                        if let Some(t) = self.sh.index.ty(&pt.ty, self.self_ty.as_ref()) {
                            self.settle(&init.expr, &t);
                        }
                    }
                    if let Some(init) = &mut l.init {
                        self.expr(&mut init.expr, Ctx::Value);
                        if let Some((_, diverge)) = &mut init.diverge {
                            self.expr(diverge, Ctx::Discard);
                        }
                    }
                    let before = self.declared;
                    self.bind_pat(&l.pat, ty);
                    if l.init.is_none() {
                        let scope = self.scopes.last_mut().into_iter().flatten();
                        scope
                            .filter(|b| b.order > before)
                            .for_each(|b| b.assigned = false);
                    }
                }
                Stmt::Expr(e, semi) => {
                    let c = if semi.is_none() && i + 1 == n {
                        ctx
                    } else {
                        Ctx::Discard
                    };
                    self.expr(e, c);
                }
                Stmt::Macro(_) | Stmt::Item(_) => {}
            }
            out.push(s);
        }
        b.stmts = out;
        self.pop_scope();
    }

    fn expr(&mut self, e: &mut Expr, ctx: Ctx) {
        self.settle_uses(e);
        let alts = self.points(e, ctx);
        self.children(e, ctx);
        if !alts.is_empty() {
            self.guard(e, alts, ctx);
        }
    }

    fn children(&mut self, e: &mut Expr, ctx: Ctx) {
        use Ctx::*;
        match e {
            Expr::Array(a) => a.elems.iter_mut().for_each(|x| self.expr(x, Value)),
            Expr::Assign(a) => {
                let target = self.type_of(&a.left);
                self.operand(&mut a.right, target);
                self.expr(&mut a.left, Target);
                if let Expr::Path(p) = &*a.left {
                    if let Some(b) = p
                        .path
                        .get_ident()
                        .and_then(|i| self.lookup_mut(&i.to_string()))
                    {
                        b.assigned = true;
                    }
                }
            }
            Expr::Binary(b) => {
                if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) {
                    let construct = op_str(&b.op);
                    let (t, f) = self.branch_pair(construct, &b.op);
                    self.expr(&mut b.left, Value);
                    self.expr(&mut b.right, Value);
                    *b.left = self.branch_expr(&b.left, t, f);
                } else if is_compound(&b.op) {
                    let target = equal_operands(&b.op)
                        .then(|| self.type_of(&b.left))
                        .flatten();
                    self.operand(&mut b.right, target);
                    self.expr(&mut b.left, Target);
                } else if equal_operands(&b.op) {
                    let (lt, rt) = (self.type_of(&b.left), self.type_of(&b.right));
                    self.operand(&mut b.left, rt);
                    self.operand(&mut b.right, lt);
                } else {
                    self.expr(&mut b.left, Value);
                    self.expr(&mut b.right, Value);
                }
            }
            Expr::Block(b) => self.block(&mut b.block, ctx, Vec::new()),
            Expr::Unsafe(u) => self.block(&mut u.block, ctx, Vec::new()),
            Expr::Break(b) => {
                if let Some(x) = &mut b.expr {
                    self.expr(x, Value);
                }
            }
            Expr::Return(r) => {
                if let Some(x) = &mut r.expr {
                    self.expr(x, Value);
                }
            }
            Expr::Call(c) => {
                if !matches!(&*c.func, Expr::Path(_)) {
                    self.expr(&mut c.func, Place);
                }
                c.args.iter_mut().for_each(|x| self.expr(x, Value));
            }
            Expr::MethodCall(m) => {
                self.expr(&mut m.receiver, Place);
                m.args.iter_mut().for_each(|x| self.expr(x, Value));
            }
            Expr::Cast(c) => self.expr(&mut c.expr, Value),
            Expr::Closure(c) => {
                self.push_scope();
                self.closures += 1;
                for p in &c.inputs {
                    self.bind_pat(p, None);
                }
                self.expr(&mut c.body, Value);
                self.closures -= 1;
                self.pop_scope();
            }
            Expr::Field(f) => self.expr(&mut f.base, Place),
            Expr::Group(g) => self.expr(&mut g.expr, ctx),
            Expr::Paren(p) => self.expr(&mut p.expr, ctx),
            Expr::Index(i) => {
                self.expr(&mut i.expr, Place);
                self.expr(&mut i.index, Value);
            }
            Expr::Range(r) => {
                if let Some(x) = &mut r.start {
                    self.expr(x, Value);
                }
                if let Some(x) = &mut r.end {
                    self.expr(x, Value);
                }
            }
            Expr::Reference(r) => self.expr(&mut r.expr, Place),
            Expr::RawAddr(r) => self.expr(&mut r.expr, Place),
            Expr::Repeat(r) => self.expr(&mut r.expr, Value),
            Expr::Struct(s) => {
                for fv in s.fields.iter_mut() {
                    self.expr(&mut fv.expr, Value);
                    if matches!(fv.member, Member::Named(_)) {
                        // `Node { info }` would print the mutated `info` as shorthand.
                        fv.colon_token = Some(Default::default());
                    }
                }
                if let Some(rest) = &mut s.rest {
                    self.expr(rest, Place);
                }
            }
            Expr::Tuple(t) => t.elems.iter_mut().for_each(|x| self.expr(x, Value)),
            Expr::Unary(u) => {
                let c = if matches!(u.op, syn::UnOp::Deref(_)) {
                    Place
                } else {
                    Value
                };
                self.expr(&mut u.expr, c);
            }
            Expr::Try(t) => {
                let (yes, no) = self.branch_pair("?", &t.question_token);
                self.expr(&mut t.expr, Value);
                let inner = &t.expr;
                let (yes, no) = (lit(yes), lit(no));
                *t.expr = parse_quote!(::ferastrau_probes::probe_try(#inner, #yes, #no));
            }
            Expr::If(i) => self.if_expr(i, ctx),
            Expr::While(w) => {
                if let Some(new) = self.while_expr(w) {
                    *e = new;
                }
            }
            Expr::ForLoop(f) => self.for_expr(f),
            Expr::Loop(l) => {
                let head = self.loop_head(None);
                self.block(&mut l.body, Discard, head);
            }
            Expr::Match(m) => self.match_expr(m, ctx),
            Expr::Let(l) => self.expr(&mut l.expr, Value),
            _ => {}
        }
    }

    /// The statements at the top of a loop body: the loop-again probe, then a tick.
    fn loop_head(&self, again: Option<u32>) -> Vec<Stmt> {
        let mut head: Vec<Stmt> = again.map(|id| self.cover_stmt(id)).into_iter().collect();
        if self.role == Role::Code {
            head.push(tick_stmt());
        }
        head
    }

    /// The scrutinee of a pattern match is a place when a pattern binds by `ref`.
    fn scrutinee_ctx(pats: &[&Pat]) -> Ctx {
        struct RefBinding(bool);
        impl Visit<'_> for RefBinding {
            fn visit_pat_ident(&mut self, p: &syn::PatIdent) {
                self.0 |= p.by_ref.is_some();
                syn::visit::visit_pat_ident(self, p);
            }
        }
        let mut v = RefBinding(false);
        for p in pats {
            v.visit_pat(p);
        }
        if v.0 {
            Ctx::Place
        } else {
            Ctx::Value
        }
    }

    fn if_expr(&mut self, i: &mut syn::ExprIf, ctx: Ctx) {
        let (t, f) = self.branch_pair("if", &i.if_token);
        self.push_scope();
        if let Expr::Let(l) = &mut *i.cond {
            let ty = self.type_of(&l.expr);
            self.expr(&mut l.expr, Self::scrutinee_ctx(&[&l.pat]));
            self.bind_pat(&l.pat, ty);
        } else {
            self.expr(&mut i.cond, Ctx::Value);
        }
        let (cover_t, cover_f) = (self.cover_stmt(t), self.cover_stmt(f));
        self.block(&mut i.then_branch, ctx, vec![cover_t]);
        self.pop_scope();
        match &mut i.else_branch {
            None => {
                i.else_branch = Some((Default::default(), Box::new(parse_quote!({ #cover_f }))));
            }
            Some((_, els)) => match &mut **els {
                Expr::Block(b) => self.block(&mut b.block, ctx, vec![cover_f]),
                other => {
                    self.expr(other, ctx);
                    let inner = &*other;
                    *other = parse_quote!({ #cover_f #inner });
                }
            },
        }
    }

    /// `while c {..}` keeps its shape with `c` wrapped in a branch probe; `while let` becomes
    /// `loop { match .. }`, the only way to see its exit outcome.
    fn while_expr(&mut self, w: &mut syn::ExprWhile) -> Option<Expr> {
        let (t, f) = self.branch_pair("while", &w.while_token);
        if let Expr::Let(l) = &mut *w.cond {
            let ty = self.type_of(&l.expr);
            self.expr(&mut l.expr, Self::scrutinee_ctx(&[&l.pat]));
            self.push_scope();
            self.bind_pat(&l.pat, ty);
            let head = self.loop_head(Some(t));
            self.block(&mut w.body, Ctx::Discard, head);
            self.pop_scope();
            let (label, pat, scrutinee, body) = (&w.label, &l.pat, &l.expr, &w.body);
            let cover_f = self.cover_stmt(f);
            return Some(parse_quote! {
                #label loop {
                    match #scrutinee {
                        #pat => #body,
                        _ => { #cover_f break; }
                    }
                }
            });
        }
        self.expr(&mut w.cond, Ctx::Value);
        let head = self.loop_head(None);
        self.block(&mut w.body, Ctx::Discard, head);
        *w.cond = self.branch_expr(&w.cond, t, f);
        None
    }

    fn for_expr(&mut self, l: &mut syn::ExprForLoop) {
        let (t, f) = self.branch_pair("for", &l.for_token);
        if let Expr::Range(r) = &*l.expr {
            if let (Some(a), Some(b)) = (&r.start, &r.end) {
                self.settle_pair(a, b); // a range's bounds have one type
            }
        }
        let elem = match &*l.expr {
            Expr::Range(r) => {
                let bounds: Vec<Ty> = [&r.start, &r.end]
                    .into_iter()
                    .flatten()
                    .filter_map(|x| self.type_of(x))
                    .collect();
                bounds
                    .iter()
                    .find(|t| !matches!(t, Ty::IntLiteral | Ty::FloatLiteral))
                    .or(bounds.first())
                    .cloned()
            }
            other => self.type_of(other).and_then(|t| match t {
                Ty::Ref { mutable, inner } => inner.element().map(|e| Ty::Ref {
                    mutable,
                    inner: Box::new(e.clone()),
                }),
                _ => None,
            }),
        };
        self.expr(&mut l.expr, Ctx::Value);
        self.push_scope();
        self.bind_pat(&l.pat, elem);
        let head = self.loop_head(Some(t));
        self.block(&mut l.body, Ctx::Discard, head);
        self.pop_scope();
        let iterable = &l.expr;
        let f = lit(f);
        *l.expr = parse_quote!(::ferastrau_probes::probe_iter(#iterable, #f));
    }

    fn match_expr(&mut self, m: &mut syn::ExprMatch, ctx: Ctx) {
        let ty = self.type_of(&m.expr);
        let pats: Vec<&Pat> = m.arms.iter().map(|a| &a.pat).collect();
        let scrutinee = Self::scrutinee_ctx(&pats);
        self.expr(&mut m.expr, scrutinee);
        for (k, arm) in m.arms.iter_mut().enumerate() {
            let line = extent(&arm.pat).map_or(0, |(s, _)| s.line);
            let outcome = format!("arm {}", k + 1);
            let id = self.probe(Some("match"), Some(&outcome), line);
            self.push_scope();
            self.bind_pat(&arm.pat, ty.clone());
            if let Pat::Guard(g) = &mut arm.pat {
                self.expr(&mut g.guard, Ctx::Value);
            }
            self.expr(&mut arm.body, ctx);
            self.pop_scope();
            let body = &arm.body;
            let cover = self.cover_stmt(id);
            *arm.body = parse_quote!({ #cover #body });
            arm.comma = Some(Default::default());
        }
    }
}

/// The alternative expression for one arm of a guarded choice.
fn apply(e: &Expr, alt: &Alt) -> Expr {
    let mut out = e.clone();
    match (alt, &mut out) {
        (Alt::Op(op), Expr::Binary(b)) => {
            if precedence(op) != precedence(&b.op) {
                for side in [&mut b.left, &mut b.right] {
                    if matches!(**side, Expr::Binary(_) | Expr::Cast(_) | Expr::Range(_)) {
                        let inner = &**side;
                        **side = parse_quote!((#inner));
                    }
                }
            }
            b.op = *op;
        }
        (Alt::Var(ident), _) => out = parse_quote!(#ident),
        (Alt::Const(c), _) => out = parse_quote!((#c)),
        (Alt::SelfField(member), _) => out = parse_quote!(self.#member),
        (Alt::Field(member), Expr::Field(f)) => f.member = member.clone(),
        (Alt::Method(ident), Expr::MethodCall(m)) => m.method = ident.clone(),
        (Alt::Func(path), Expr::Call(c)) => *c.func = Expr::Path(path.clone()),
        _ => unreachable!("an alternative applies to the kind of expression it was made for"),
    }
    out
}

/// The source text of a variable or constant alternative.
fn alt_text(alt: &Alt) -> String {
    match alt {
        Alt::Var(i) => i.to_string(),
        Alt::Const(c) => c.to_token_stream().to_string().replace(' ', ""),
        Alt::SelfField(m) => format!("self.{}", m.to_token_stream()),
        _ => unreachable!("only variables and constants replace operands"),
    }
}

/// The binary operators for which the compiler demands operands of one type when both are
/// integers (or both floats): arithmetic, bitwise and comparison, plain or compound. Shifts
/// and the lazy boolean operators are not among them.
fn equal_operands(op: &BinOp) -> bool {
    use BinOp::*;
    matches!(
        op,
        Add(_)
            | Sub(_)
            | Mul(_)
            | Div(_)
            | Rem(_)
            | BitAnd(_)
            | BitOr(_)
            | BitXor(_)
            | Eq(_)
            | Ne(_)
            | Lt(_)
            | Le(_)
            | Gt(_)
            | Ge(_)
            | AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | BitXorAssign(_)
    )
}

/// A numeric literal, possibly negated or parenthesised: its type is settled anew in every
/// arm of a guarded choice.
fn is_literal(e: &Expr) -> bool {
    match e {
        Expr::Lit(l) => matches!(l.lit, syn::Lit::Int(_) | syn::Lit::Float(_)),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => is_literal(&u.expr),
        Expr::Paren(p) => is_literal(&p.expr),
        Expr::Group(g) => is_literal(&g.expr),
        _ => false,
    }
}

fn is_compound(op: &BinOp) -> bool {
    use BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

pub fn op_str(op: &BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add(_) => "+",
        Sub(_) => "-",
        Mul(_) => "*",
        Div(_) => "/",
        Rem(_) => "%",
        And(_) => "&&",
        Or(_) => "||",
        BitXor(_) => "^",
        BitAnd(_) => "&",
        BitOr(_) => "|",
        Shl(_) => "<<",
        Shr(_) => ">>",
        Eq(_) => "==",
        Lt(_) => "<",
        Le(_) => "<=",
        Ne(_) => "!=",
        Ge(_) => ">=",
        Gt(_) => ">",
        AddAssign(_) => "+=",
        SubAssign(_) => "-=",
        MulAssign(_) => "*=",
        DivAssign(_) => "/=",
        RemAssign(_) => "%=",
        BitXorAssign(_) => "^=",
        BitAndAssign(_) => "&=",
        BitOrAssign(_) => "|=",
        ShlAssign(_) => "<<=",
        ShrAssign(_) => ">>=",
        _ => "?",
    }
}

fn parse_op(s: &str) -> BinOp {
    syn::parse_str(s).expect("an operator")
}

fn precedence(op: &BinOp) -> u8 {
    use BinOp::*;
    match op {
        Mul(_) | Div(_) | Rem(_) => 10,
        Add(_) | Sub(_) => 9,
        Shl(_) | Shr(_) => 8,
        BitAnd(_) => 7,
        BitXor(_) => 6,
        BitOr(_) => 5,
        Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_) => 4,
        And(_) => 3,
        Or(_) => 2,
        _ => 1,
    }
}

/// The binary operators of integers (Java's `int` operators, `>>>` aside): arithmetic,
/// bitwise and shifts, all `(int, int) -> int`.
const INTEGER_OPS: &[&str] = &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"];
const INTEGER_ASSIGN_OPS: &[&str] = &["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="];

/// The operators that may replace `op` given its operands' types (Sec. 7.1: another operator
/// of the same kind and types). Every relational operator applies to ordered scalars; only
/// `==`/`!=` swap on other types (`Option`, references). Java's boolean operators of two
/// booleans replace one another: `&&`, `||`, `==`, `!=` (the eager `&`, `|`, `^` would only
/// repeat these when the operands have no effects). On integers, arithmetic, bitwise and
/// shift operators replace one another, plain or compound.
///
/// A shift does not make the compiler unify its operands' types, the other integer operators
/// do. So a shift becomes another operator only when that adds no constraint: its left
/// operand has a settled integer type and its right operand the same type or is a literal
/// (`rhs_literal`; each arm of a guarded choice has its own copy of a literal). Otherwise
/// a guarded `x << s` → `x + s` would impose `x`'s type on a literal-typed `s` in the
/// original too.
fn operator_alternatives(
    op: &BinOp,
    lt: Option<&Ty>,
    rt: Option<&Ty>,
    rhs_literal: bool,
) -> Vec<BinOp> {
    let known: Vec<&Ty> = [lt, rt].into_iter().flatten().collect();
    let numeric = known.iter().any(|t| t.is_ordered_scalar());
    let non_numeric = !numeric && !known.is_empty();
    let integer = !known.is_empty() && known.iter().all(|t| t.is_integer());
    let boolean = known.len() == 2 && known.iter().all(|t| t.is_bool());
    let shift_unifies =
        lt.is_some_and(|l| l.is_integer() && l.is_concrete_number()) && (rhs_literal || rt == lt);
    let op_s = op_str(op);
    let group: &[&str] = match op_s {
        "+" | "-" | "*" | "/" | "%" | "&" | "|" | "^" if integer => INTEGER_OPS,
        "<<" | ">>" if integer && shift_unifies => INTEGER_OPS,
        "+" | "-" | "*" | "/" | "%" if !non_numeric => &["+", "-", "*", "/", "%"],
        "&" | "|" | "^" => &["&", "|", "^"],
        "<<" | ">>" => &["<<", ">>"],
        "==" | "!=" if numeric => &["<", "<=", ">", ">=", "==", "!="],
        "==" | "!=" if boolean => &["&&", "||", "==", "!="],
        "==" | "!=" => &["==", "!="],
        "<" | "<=" | ">" | ">=" => &["<", "<=", ">", ">=", "==", "!="],
        "&&" | "||" => &["&&", "||", "==", "!="],
        "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" if integer => INTEGER_ASSIGN_OPS,
        "<<=" | ">>=" if integer && shift_unifies => INTEGER_ASSIGN_OPS,
        "+=" | "-=" | "*=" | "/=" | "%=" if !non_numeric => &["+=", "-=", "*=", "/=", "%="],
        "&=" | "|=" | "^=" => &["&=", "|=", "^="],
        "<<=" | ">>=" => &["<<=", ">>="],
        _ => &[],
    };
    group
        .iter()
        .filter(|s| **s != op_s)
        .map(|s| parse_op(s))
        .collect()
}

/// The paper's form of an edit, `left/*temp*/`: the replacement, then the original in a
/// comment, which must stay one plain comment. An original that starts with `!` or `*` would
/// open a doc comment (`/*!=*/`), which does not compile inside an expression; one with a `/`
/// or `*` at either end would nest or close the comment early (`/*/*/`): such an original is
/// set off by spaces. A replacement ending with `/` would make `//*`, a line comment: a space
/// sets the comment off from it.
fn paper_form(replacement: &str, original: &str) -> String {
    let before = if replacement.ends_with('/') { " " } else { "" };
    let edge = ['!', '*', '/'];
    let (open, close) = if original.starts_with(edge) || original.ends_with(edge) {
        ("/* ", " */")
    } else {
        ("/*", "*/")
    };
    format!("{replacement}{before}{open}{original}{close}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(op: &str, t: Option<Ty>) -> Vec<&'static str> {
        operator_alternatives(&parse_op(op), t.as_ref(), None, false)
            .iter()
            .map(op_str)
            .collect()
    }

    #[test]
    fn operator_kinds() {
        let int = || Some(Ty::named("i64"));
        let opt = || {
            Some(Ty::Named {
                name: "Option".into(),
                args: vec![Ty::named("usize")],
            })
        };
        assert_eq!(ops("<", int()), ["<=", ">", ">=", "==", "!="]);
        assert_eq!(ops("==", int()), ["<", "<=", ">", ">=", "!="]);
        assert_eq!(ops("!=", opt()), ["=="]);
        assert_eq!(
            ops("+=", int()),
            ["-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]
        );
        assert_eq!(ops("+=", None), ["-=", "*=", "/=", "%="]);
        assert_eq!(
            ops("+", int()),
            ["-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
        );
        assert_eq!(
            ops("^", int()),
            ["+", "-", "*", "/", "%", "&", "|", "<<", ">>"]
        );
        assert_eq!(ops("*", Some(Ty::named("f64"))), ["+", "-", "/", "%"]);
        assert_eq!(ops("&", Some(Ty::named("bool"))), ["|", "^"]);
        assert_eq!(ops("&&", None), ["||", "==", "!="]);
        let boolean = Some(Ty::named("bool"));
        let both = |op: &str| -> Vec<&'static str> {
            operator_alternatives(&parse_op(op), boolean.as_ref(), boolean.as_ref(), false)
                .iter()
                .map(op_str)
                .collect()
        };
        assert_eq!(both("!="), ["&&", "||", "=="]);
        assert_eq!(ops("==", boolean.clone()), ["!="], "one side unknown");
        // Shifts: only with a settled left operand and an amount of its type or a literal.
        let shift = |l: Option<Ty>, r: Option<Ty>, lit: bool| -> usize {
            operator_alternatives(&parse_op("<<"), l.as_ref(), r.as_ref(), lit).len()
        };
        assert_eq!(shift(int(), int(), false), 9);
        assert_eq!(shift(int(), None, true), 9);
        assert_eq!(
            shift(int(), Some(Ty::IntLiteral), false),
            1,
            "a literal-typed local"
        );
        assert_eq!(shift(int(), Some(Ty::named("u32")), false), 1);
        assert_eq!(shift(Some(Ty::IntLiteral), int(), false), 1);
        assert_eq!(
            operator_alternatives(&parse_op(">>="), int().as_ref(), None, true).len(),
            9
        );
        assert!(ops("+", Some(Ty::named("String"))).is_empty());
        assert_eq!(precedence(&parse_op("+")), precedence(&parse_op("-")));
        assert_ne!(precedence(&parse_op("+")), precedence(&parse_op("*")));
    }

    #[test]
    fn positions_are_character_columns() {
        let text = "// é\nlet é = a;\n";
        let at = offset_of(text, Pos { line: 2, column: 9 });
        assert_eq!(&text[at..at + 1], "a");
    }
}
