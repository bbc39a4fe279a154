//! Mutation points: at an expression of the original source, the mutants of the four families
//! (operator, variable, call, constant), recorded in the catalog with their source edits, and
//! the guarded choice that replaces the expression in the metamutant.

use proc_macro2::LineColumn;
use quote::ToTokens;
use syn::{parse_quote, Expr, Ident, Member};

use super::operators::{
    increment_opposite, is_increment, is_literal, op_str, operator_alternatives, precedence,
};
use super::spans::{extent, pos};
use super::{lit, Alt, Ctx, FnRewriter};
use crate::catalog::{Edit, Family, Mutant};
use crate::items::Role;
use crate::types::{FnSig, Ty};

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

impl FnRewriter<'_, '_> {
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
            new: annotated_form(&replacement, &original),
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
    pub(super) fn points(&mut self, e: &Expr, ctx: Ctx) -> Vec<(u32, Alt)> {
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
        let alternatives = if is_increment(b) {
            vec![increment_opposite(&b.op)]
        } else {
            operator_alternatives(&b.op, lt.as_ref(), rt.as_ref(), rhs_literal)
        };
        for op in alternatives {
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
                            annotated_form(&replacement, &original),
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
        self.scopes
            .lookup("self")
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
            .scopes
            .visible()
            .into_iter()
            .filter(|b| b.name != not_local && b.name != "self")
            .filter(|b| b.ty.as_ref() == Some(ty) && b.assigned && (b.writable || !written))
            .map(|b| Alt::Var(Ident::new(&b.name, proc_macro2::Span::call_site())))
            .collect();
        if written && !self.scopes.lookup("self").is_some_and(|b| b.writable) {
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
    pub(super) fn record(
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
        let Some((Some(ty), writable)) = self
            .scopes
            .lookup(&name)
            .map(|b| (b.ty.clone(), b.writable))
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
    pub(super) fn operand(&mut self, e: &mut Expr, ty: Option<Ty>) {
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
        if self.role != Role::Code {
            return;
        }
        if self.replay {
            if let Some(ids) = self.point_mark(&[]) {
                self.reach_marker(e, ids, Ctx::Value);
            }
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
        self.point_mark(&alts);
        self.guard(e, alts, Ctx::Value);
    }

    /// Keeps the plain copies' walks in step with the guarded one at a candidate mutation
    /// point: the guarded walk logs the point's mutant ids (`alts`) if its guard will have an
    /// arm; a plain walk takes the next entry of that log, the ids its reach marker names (in
    /// the marked copy only).
    pub(super) fn point_mark(&mut self, alts: &[(u32, Alt)]) -> Option<(u32, u32)> {
        if self.role != Role::Code {
            return None;
        }
        if self.replay {
            let ids = self.marks.get(self.marks_used).copied().flatten();
            self.marks_used += 1;
            return ids.filter(|_| self.marking);
        }
        let enabled = self.sh.enabled;
        // A point's mutants are recorded together, so their ids are contiguous.
        let ids = alts.iter().any(|(id, _)| enabled(*id)).then(|| {
            let ids = alts.iter().map(|(id, _)| *id);
            (ids.clone().min().unwrap_or(0), ids.max().unwrap_or(0))
        });
        self.marks.push(ids);
        None
    }

    /// Wraps `e` (of the marked copy) so that evaluating it first marks the point whose mutants
    /// are `ids` as reached, exactly where the guarded copy evaluates the point's guard.
    pub(super) fn reach_marker(&mut self, e: &mut Expr, ids: (u32, u32), ctx: Ctx) {
        let (first, last) = (lit(ids.0), lit(ids.1));
        let mark: Expr = parse_quote!(::ferastrau_probes::reach(#first, #last));
        let original = &*e;
        *e = if ctx == Ctx::Target {
            parse_quote!(*(match #mark { _ => &mut #original, }))
        } else {
            parse_quote!((match #mark { _ => #original, }))
        };
    }

    /// Replaces `e` (children already rewritten) by the guarded choice among its enabled
    /// alternatives and itself. A written place becomes `*(match .. { id => &mut other, _ =>
    /// &mut original })`, which the assignment then writes through.
    pub(super) fn guard(&mut self, e: &mut Expr, alts: Vec<(u32, Alt)>, ctx: Ctx) {
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
}

/// The alternative expression for one arm of a guarded choice.
/// The paper's form of an edit, `left/*temp*/`: the replacement, then the original in a
/// comment, which must stay one plain comment. An original that starts with `!` or `*` would
/// open a doc comment (`/*!=*/`), which does not compile inside an expression; one with a `/`
/// or `*` at either end would nest or close the comment early (`/*/*/`): such an original is
/// set off by spaces. A replacement ending with `/` would make `//*`, a line comment: a space
/// sets the comment off from it.
fn annotated_form(replacement: &str, original: &str) -> String {
    let before = if replacement.ends_with('/') { " " } else { "" };
    let edge = ['!', '*', '/'];
    let (open, close) = if original.starts_with(edge) || original.ends_with(edge) {
        ("/* ", " */")
    } else {
        ("/*", "*/")
    };
    format!("{replacement}{before}{open}{original}{close}")
}

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
