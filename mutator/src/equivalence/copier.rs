//! The copies (see the parent module). Once per metamutant, a copy of the compile-pruned metamutant crate gets,
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
//! **Not compared**: generic functions and methods of generic impls (no code until
//! instantiated), methods of trait impls and trait default methods (an impl block of a trait
//! takes no extra items, and moving a method elsewhere changes what `Self` paths mean), `async`
//! functions. Their mutants get no verdict: the comparison never claims what it did not see.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Literal, Span};
use syn::visit_mut::VisitMut;
use syn::{parse_quote, Expr, Ident, ImplItem, Item};

use super::{symbol, Copied, NotCompared};

/// Adds the copies beside the mutated functions of one file.
pub(super) struct Copier<'a> {
    pub(super) viable: &'a BTreeSet<u32>,
    pub(super) copied: &'a mut Vec<Copied>,
    pub(super) not_compared: &'a mut Vec<NotCompared>,
    pub(super) module: Vec<String>,
}

impl Copier<'_> {
    pub(super) fn items(&mut self, items: &mut Vec<Item>) {
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
                                    let mut copy = syn::ItemFn {
                                        attrs: f.attrs.clone(),
                                        vis: f.vis.clone(),
                                        sig: f.sig.clone(),
                                        block: Box::new(taken_clone(&f.block, id)),
                                    };
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
                                            let mut copy = syn::ImplItemFn {
                                                attrs: f.attrs.clone(),
                                                vis: f.vis.clone(),
                                                defaultness: f.defaultness,
                                                sig: f.sig.clone(),
                                                block: taken_clone(&f.block, id),
                                            };
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
pub(super) fn uncopiable(sig: &syn::Signature) -> Option<&'static str> {
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
pub(super) fn dispatch(block: &syn::Block) -> Option<(u32, u32)> {
    block.stmts.iter().find_map(|s| match s {
        syn::Stmt::Expr(Expr::If(i), _) => dispatch_range(i),
        _ => None,
    })
}

/// The mutant range of `i` if it is a dispatch ([`dispatch`]). Reads the condition only: the
/// folding asks it of every `if` of a copy, and a copy of each (the dispatch holds the whole
/// function three times) made the copies' preparation quadratic in the function's size.
fn dispatch_range(i: &syn::ExprIf) -> Option<(u32, u32)> {
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
    let Expr::Binary(both) = &*i.cond else {
        return None;
    };
    if !matches!(both.op, syn::BinOp::And(_)) {
        return None;
    }
    let lo = bound(&both.left, |o| matches!(o, syn::BinOp::Ge(_)))?;
    let hi = bound(&both.right, |o| matches!(o, syn::BinOp::Le(_)))?;
    Some((lo, hi))
}

/// A clone of a mutated function's body with, of its dispatch, only the body mutant `id`
/// takes ([`taken`]), as a block where the dispatch was. [`fix`] would make the same of a whole
/// clone; the other two bodies, each the size of the function or more, are not cloned only to
/// be dropped, once per copy.
pub(super) fn taken_clone(block: &syn::Block, id: u32) -> syn::Block {
    let stmts = block
        .stmts
        .iter()
        .map(|s| match s {
            syn::Stmt::Expr(Expr::If(i), semi) => match taken(i, id) {
                Some(body) => syn::Stmt::Expr(as_expr(body.clone()), *semi),
                None => s.clone(),
            },
            _ => s.clone(),
        })
        .collect();
    syn::Block {
        brace_token: block.brace_token,
        stmts,
    }
}

/// If `i` is a dispatch ([`dispatch`]), the body mutant `id` takes: the guarded one for a
/// mutant of the function, else the plain one (`else if ::ferastrau_probes::reaching() {
/// marked } else { plain }`).
fn taken(i: &syn::ExprIf, id: u32) -> Option<&syn::Block> {
    let (lo, hi) = dispatch_range(i)?;
    if (lo..=hi).contains(&id) {
        return Some(&i.then_branch);
    }
    let Some(Expr::If(reaching)) = i.else_branch.as_ref().map(|(_, e)| &**e) else {
        return None;
    };
    match reaching.else_branch.as_ref().map(|(_, e)| &**e) {
        Some(Expr::Block(plain)) => Some(&plain.block),
        _ => None,
    }
}

/// `{ block }` as an expression.
fn as_expr(block: syn::Block) -> Expr {
    Expr::Block(syn::ExprBlock {
        attrs: Vec::new(),
        label: None,
        block,
    })
}

/// Makes a clone of a mutated function the copy for mutant `id`: the switch read as
/// constants, compiled on its own under its own name, private (its name is what makes it
/// reachable).
pub(super) fn fix(
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
    /// integer or `_`: its index.
    fn chosen(&self, m: &syn::ExprMatch) -> Option<usize> {
        for (k, arm) in m.arms.iter().enumerate() {
            let hit = match &arm.pat {
                syn::Pat::Wild(_) => true,
                syn::Pat::Lit(syn::PatLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse::<u32>().ok()? == self.id,
                _ => return None,
            };
            if hit {
                return Some(k);
            }
        }
        None
    }
}

/// `(e)`: an expression put where another was, parenthesised so that it binds as that one did.
fn parenthesised(e: Expr) -> Expr {
    Expr::Paren(syn::ExprParen {
        attrs: Vec::new(),
        paren_token: Default::default(),
        expr: Box::new(e),
    })
}

/// Takes `e` out of its place, leaving an empty placeholder that the caller replaces.
fn take(e: &mut Expr) -> Expr {
    std::mem::replace(e, Expr::Verbatim(proc_macro2::TokenStream::new()))
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
        // The dispatch first: only the taken body is walked (a copy's was taken when it was
        // cloned, [`taken_clone`]: this is the crate's own function, [`ordinary`]).
        if let Some(body) = match e {
            Expr::If(i) => taken(i, self.id).cloned(),
            _ => None,
        } {
            *e = as_expr(body);
        }
        if let Expr::Match(m) = e {
            if Self::is_active(&m.expr) {
                if let Some(k) = self.chosen(m) {
                    *e = parenthesised(take(&mut m.arms[k].body));
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
                Expr::Call(c) => Some(parenthesised(take(&mut c.args[1]))),
                _ => None,
            },
            _ => None,
        };
        if let Some(f) = folded {
            *e = f;
        }
    }
}
