//! The walk: every statement and expression of a declared function, in source order, with the
//! scopes it opens, the probes and ticks it inserts, and the mutation points it guards.

use syn::visit::Visit;
use syn::{parse_quote, BinOp, Block, Expr, Member, Pat, Stmt};

use super::operators::{equal_operands, is_compound, is_increment, op_str};
use super::spans::extent;
use super::{lit, tick_stmt, Ctx, FnRewriter};
use crate::items::Role;
use crate::types::Ty;

impl FnRewriter<'_, '_> {
    /// A block: a statement probe before every statement, `head` (probes, ticks) first.
    pub(super) fn block(&mut self, b: &mut Block, ctx: Ctx, head: Vec<Stmt>) {
        self.scopes.push();
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
                    let before = self.scopes.declared();
                    self.bind_pat(&l.pat, ty);
                    if l.init.is_none() {
                        self.scopes.unassigned_since(before);
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
        self.scopes.pop();
    }

    pub(super) fn expr(&mut self, e: &mut Expr, ctx: Ctx) {
        self.settle_uses(e);
        let alts = self.points(e, ctx);
        let mark = self.point_mark(&alts);
        self.children(e, ctx);
        if !alts.is_empty() {
            self.guard(e, alts, ctx);
        } else if let Some(ids) = mark {
            self.reach_marker(e, ids, ctx);
        }
    }

    pub(super) fn children(&mut self, e: &mut Expr, ctx: Ctx) {
        use Ctx::*;
        match e {
            Expr::Array(a) => a.elems.iter_mut().for_each(|x| self.expr(x, Value)),
            Expr::Assign(a) => self.assign(a),
            Expr::Binary(b) => self.binary(b),
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
            Expr::Closure(c) => self.closure(c),
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
            Expr::Struct(s) => self.struct_expr(s),
            Expr::Tuple(t) => t.elems.iter_mut().for_each(|x| self.expr(x, Value)),
            Expr::Unary(u) => {
                let c = if matches!(u.op, syn::UnOp::Deref(_)) {
                    Place
                } else {
                    Value
                };
                self.expr(&mut u.expr, c);
            }
            Expr::Try(t) => self.try_expr(t),
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

    /// An assignment: its right side typed by its target, whose binding is then assigned.
    fn assign(&mut self, a: &mut syn::ExprAssign) {
        use Ctx::*;
        let target = self.type_of(&a.left);
        self.operand(&mut a.right, target);
        self.expr(&mut a.left, Target);
        if let Expr::Path(p) = &*a.left {
            if let Some(b) = p
                .path
                .get_ident()
                .and_then(|i| self.scopes.lookup_mut(&i.to_string()))
            {
                b.assigned = true;
            }
        }
    }

    /// A binary operation: `&&` and `||` as branches, compound assignments and `x++` as targets,
    /// and the operands of an operator that takes equal types typed by each other.
    fn binary(&mut self, b: &mut syn::ExprBinary) {
        use Ctx::*;
        if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) {
            let construct = op_str(&b.op);
            let (t, f) = self.branch_pair(construct, &b.op);
            self.expr(&mut b.left, Value);
            self.expr(&mut b.right, Value);
            *b.left = self.branch_expr(&b.left, t, f);
        } else if is_increment(b) {
            // Java's `x++`: no constant to mutate (operators.rs, `is_increment`).
            self.expr(&mut b.right, Value);
            self.expr(&mut b.left, Target);
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

    /// A closure, in a scope of its own with its parameters bound.
    fn closure(&mut self, c: &mut syn::ExprClosure) {
        use Ctx::*;
        self.scopes.push();
        self.closures += 1;
        for p in &c.inputs {
            self.bind_pat(p, None);
        }
        self.expr(&mut c.body, Value);
        self.closures -= 1;
        self.scopes.pop();
    }

    /// A struct literal: its fields' values, written out in full, and the rest it copies.
    fn struct_expr(&mut self, s: &mut syn::ExprStruct) {
        use Ctx::*;
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

    /// `?`: a branch, probed on its two outcomes.
    fn try_expr(&mut self, t: &mut syn::ExprTry) {
        use Ctx::*;
        let (yes, no) = self.branch_pair("?", &t.question_token);
        self.expr(&mut t.expr, Value);
        let inner = &t.expr;
        let (yes, no) = (lit(yes), lit(no));
        *t.expr = parse_quote!(::ferastrau_probes::probe_try(#inner, #yes, #no));
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
        self.scopes.push();
        if let Expr::Let(l) = &mut *i.cond {
            let ty = self.type_of(&l.expr);
            self.expr(&mut l.expr, Self::scrutinee_ctx(&[&l.pat]));
            self.bind_pat(&l.pat, ty);
        } else {
            self.expr(&mut i.cond, Ctx::Value);
        }
        let (cover_t, cover_f) = (self.cover_stmt(t), self.cover_stmt(f));
        self.block(&mut i.then_branch, ctx, vec![cover_t]);
        self.scopes.pop();
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
            self.scopes.push();
            self.bind_pat(&l.pat, ty);
            let head = self.loop_head(Some(t));
            self.block(&mut w.body, Ctx::Discard, head);
            self.scopes.pop();
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
        self.scopes.push();
        self.bind_pat(&l.pat, elem);
        let head = self.loop_head(Some(t));
        self.block(&mut l.body, Ctx::Discard, head);
        self.scopes.pop();
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
            self.scopes.push();
            self.bind_pat(&arm.pat, ty.clone());
            if let Some((_, guard)) = &mut arm.guard {
                self.expr(guard, Ctx::Value);
            }
            self.expr(&mut arm.body, ctx);
            self.scopes.pop();
            let body = &arm.body;
            let cover = self.cover_stmt(id);
            *arm.body = parse_quote!({ #cover #body });
            arm.comma = Some(Default::default());
        }
    }
}
