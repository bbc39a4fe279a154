//! Type inference over the crate index: the type of an expression of the original source and
//! the crate function a call names, as far as the declared types, the signatures in the index
//! and the bindings in scope tell. It only reads; what it cannot see is `None`, and the walk
//! then leaves the expression unmutated rather than guess (a wrong guess would not compile,
//! or would change what the compiler infers for the original).

use syn::{BinOp, Expr, Member};

use super::scopes::Scopes;
use super::FnRewriter;
use crate::items::segment_names;
use crate::types::{CrateIndex, FnSig, Ty};

/// What inference reads: the crate index, the bindings in scope, the `Self` type and the
/// module of the function being walked.
pub(super) struct Infer<'a> {
    pub(super) index: &'a CrateIndex,
    pub(super) scopes: &'a Scopes,
    pub(super) self_ty: Option<&'a Ty>,
    pub(super) module: &'a [String],
}

impl<'a> Infer<'a> {
    /// The type of an expression of the original source, when simple inference sees it.
    pub(super) fn type_of(&self, e: &Expr) -> Option<Ty> {
        let ix = self.index;
        match e {
            Expr::Lit(l) => literal_type(&l.lit),
            Expr::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
                let name = p.path.segments[0].ident.to_string();
                match self.scopes.lookup(&name) {
                    Some(b) => b.ty.clone(),
                    // A constant or static of the crate: its declared type.
                    None if name.starts_with(|c: char| c.is_uppercase()) => {
                        ix.constant(self.module, &name)
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
            Expr::MethodCall(m) => self.method_call_type(m),
            Expr::Call(c) => self.call_type(c),
            // `x?` yields the `T` of `Result<T, E>` or `Option<T>`.
            Expr::Try(t) => self.type_of(&t.expr)?.try_output().cloned(),
            Expr::Binary(b) => self.binary_type(b),
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
            Expr::Cast(c) => ix.ty(&c.ty, self.self_ty),
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

    /// The type a method call returns: the resolved method's, or else that of a standard method
    /// every receiver type has alike (`len`, `is_some`, `unwrap`, `clone`, ...).
    fn method_call_type(&self, m: &syn::ExprMethodCall) -> Option<Ty> {
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

    /// The type a call returns: `Some(x)`'s option of `x`'s type, or the resolved function's.
    fn call_type(&self, c: &syn::ExprCall) -> Option<Ty> {
        let Expr::Path(p) = &*c.func else {
            return None;
        };
        let segs = segment_names(&p.path);
        if segs.len() == 1 && segs[0] == "Some" && c.args.len() == 1 {
            let inner = self.type_of(&c.args[0])?;
            return Some(Ty::Named {
                name: "Option".into(),
                args: vec![inner],
            });
        }
        self.resolve_fn(p).and_then(|s| s.concrete_ret().cloned())
    }

    /// The type of a binary operation: an arithmetic one's operands' (the settled one's, where the
    /// other is an integer literal), a comparison's `bool`, an assignment's `()`.
    fn binary_type(&self, b: &syn::ExprBinary) -> Option<Ty> {
        use BinOp::*;
        match b.op {
            Add(_) | Sub(_) | Mul(_) | Div(_) | Rem(_) | BitAnd(_) | BitOr(_) | BitXor(_)
            | Shl(_) | Shr(_) => {
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

    /// The crate method `name` called on a receiver of type `recv` (or, when the receiver's
    /// type is unknown, the only crate type that has such a method).
    pub(super) fn resolve_method(&self, recv: Option<&Ty>, name: &str) -> Option<&'a FnSig> {
        let ix = self.index;
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
    pub(super) fn resolve_fn(&self, p: &syn::ExprPath) -> Option<&'a FnSig> {
        if p.qself.is_some() {
            return None;
        }
        let ix = self.index;
        let segs = segment_names(&p.path);
        let name = segs.last()?;
        if segs.len() >= 2 {
            let prev = &segs[segs.len() - 2];
            if prev.starts_with(|c: char| c.is_uppercase()) {
                let owner = if prev == "Self" {
                    self.self_ty?.head()?.to_string()
                } else {
                    prev.clone()
                };
                return ix
                    .fns
                    .iter()
                    .find(|s| s.owner.as_deref() == Some(owner.as_str()) && &s.name == name);
            }
        } else if self.scopes.lookup(name).is_some() {
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
            several => several.iter().copied().find(|s| s.module == self.module),
        }
    }
}

impl FnRewriter<'_, '_> {
    /// Inference at the current point of the walk.
    pub(super) fn infer(&self) -> Infer<'_> {
        Infer {
            index: self.sh.index,
            scopes: &self.scopes,
            self_ty: self.self_ty.as_ref(),
            module: &self.site.module,
        }
    }

    pub(super) fn type_of(&self, e: &Expr) -> Option<Ty> {
        self.infer().type_of(e)
    }

    pub(super) fn resolve_method(&self, recv: Option<&Ty>, name: &str) -> Option<&FnSig> {
        self.infer().resolve_method(recv, name)
    }

    pub(super) fn resolve_fn(&self, p: &syn::ExprPath) -> Option<&FnSig> {
        self.infer().resolve_fn(p)
    }

    pub(super) fn is_copy(&self, t: &Ty) -> bool {
        self.sh.index.is_copy(t)
    }

    /// This function's entry in the crate index (when exactly one matches its site).
    pub(super) fn own_signature(&self) -> Option<&FnSig> {
        let mut found = self.sh.index.fns.iter().filter(|f| {
            f.name == self.site.name && f.owner == self.site.owner && f.module == self.site.module
        });
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }
}

/// The type of a literal: its suffix's, or an integer or float literal's yet to be settled.
fn literal_type(lit: &syn::Lit) -> Option<Ty> {
    match lit {
        syn::Lit::Int(i) if i.suffix().is_empty() => Some(Ty::IntLiteral),
        syn::Lit::Int(i) => Some(Ty::named(i.suffix())),
        syn::Lit::Float(f) if f.suffix().is_empty() => Some(Ty::FloatLiteral),
        syn::Lit::Float(f) => Some(Ty::named(f.suffix())),
        syn::Lit::Bool(_) => Some(Ty::named("bool")),
        syn::Lit::Char(_) => Some(Ty::named("char")),
        _ => None,
    }
}
