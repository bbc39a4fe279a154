//! Settling literal-typed locals: from which use on a local initialised by an unsuffixed
//! literal has a type the compiler fixes whatever the mutants do.

use syn::{Expr, Member};

use super::operators::equal_operands;
use super::FnRewriter;
use crate::types::{FnSig, Ty};

impl FnRewriter<'_, '_> {
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
    pub(super) fn settle_uses(&mut self, e: &Expr) {
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
    pub(super) fn settle_pair(&mut self, a: &Expr, b: &Expr) {
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
            self.scopes.lookup(&name)?.ty,
            Some(Ty::IntLiteral | Ty::FloatLiteral)
        )
        .then_some(name)
    }

    /// Gives the literal-typed local that `x` reads the type `t`, when `t` is a settled type
    /// of the same kind (an integer for an integer literal, a float for a float literal).
    pub(super) fn settle(&mut self, x: &Expr, t: &Ty) {
        let Some(name) = self.literal_typed(x) else {
            return;
        };
        let Some(b) = self.scopes.lookup_mut(&name) else {
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
}
