//! The bindings in scope at each point of the walk (locals, parameters, `self`), with their
//! types as far as the walk knows them, and how patterns bind them.

use syn::{Member, Pat};

use super::FnRewriter;
use crate::types::Ty;

/// A local, a parameter or `self`.
pub(super) struct Binding {
    pub(super) name: String,
    pub(super) ty: Option<Ty>,
    pub(super) order: usize,
    /// Declared `mut` (a receiver: `&mut self` or `mut self`): may be assigned.
    pub(super) writable: bool,
    /// Holds a value: false for `let x: T;` until the walk meets its first assignment, so that
    /// no mutant reads it before then (which would not compile).
    pub(super) assigned: bool,
}

/// Nested scopes, innermost last; `declared` numbers bindings in declaration order, which is
/// the order variable alternatives are listed in.
#[derive(Default)]
pub(super) struct Scopes {
    stack: Vec<Vec<Binding>>,
    declared: usize,
}

impl Scopes {
    pub(super) fn push(&mut self) {
        self.stack.push(Vec::new());
    }

    pub(super) fn pop(&mut self) {
        self.stack.pop();
    }

    /// How many bindings were declared so far (the `order` of the last one).
    pub(super) fn declared(&self) -> usize {
        self.declared
    }

    pub(super) fn declare(&mut self, name: &str, ty: Option<Ty>, writable: bool) {
        self.declared += 1;
        let order = self.declared;
        if let Some(scope) = self.stack.last_mut() {
            scope.push(Binding {
                name: name.to_string(),
                ty,
                order,
                writable,
                assigned: true,
            });
        }
    }

    /// Marks the innermost scope's bindings declared after `before` as holding no value yet
    /// (`let x;`).
    pub(super) fn unassigned_since(&mut self, before: usize) {
        let scope = self.stack.last_mut().into_iter().flatten();
        scope
            .filter(|b| b.order > before)
            .for_each(|b| b.assigned = false);
    }

    pub(super) fn lookup_mut(&mut self, name: &str) -> Option<&mut Binding> {
        self.stack
            .iter_mut()
            .rev()
            .flat_map(|s| s.iter_mut().rev())
            .find(|b| b.name == name)
    }

    pub(super) fn lookup(&self, name: &str) -> Option<&Binding> {
        self.stack
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|b| b.name == name)
    }

    /// The bindings visible here (the innermost of each name), in declaration order.
    pub(super) fn visible(&self) -> Vec<&Binding> {
        let mut seen = std::collections::HashSet::new();
        let mut out: Vec<&Binding> = self
            .stack
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .filter(|b| seen.insert(b.name.as_str()))
            .collect();
        out.sort_by_key(|b| b.order);
        out
    }
}

impl FnRewriter<'_, '_> {
    /// Declares the bindings of pattern `p` matched against a value of type `ty`.
    pub(super) fn bind_pat(&mut self, p: &Pat, ty: Option<Ty>) {
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
                self.scopes.declare(&name, own, writable);
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
            Pat::Slice(s) => {
                let el = ty.as_ref().and_then(|t| t.element().cloned());
                for e in &s.elems {
                    self.bind_pat(e, el.clone());
                }
            }
            _ => {}
        }
    }
}
