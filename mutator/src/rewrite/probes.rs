//! Coverage probes and the switch: the statements and expressions the walk inserts to record
//! statement and branch coverage, numbered in walk order (the plain copy of a function replays
//! the same numbers).

use quote::ToTokens;
use syn::{parse_quote, Expr, Stmt};

use super::spans::extent;
use super::{lit, local, FnRewriter, ACTIVE_LOCAL, COVERAGE_LOCAL};
use crate::catalog::Probe;

impl FnRewriter<'_, '_> {
    pub(super) fn cover_stmt(&self, id: u32) -> Stmt {
        let id = lit(id);
        if self.closures == 0 {
            let cov = local(COVERAGE_LOCAL);
            parse_quote!(::ferastrau_probes::cover_if(#cov, #id);)
        } else {
            parse_quote!(::ferastrau_probes::cover(#id);)
        }
    }

    /// `cond` wrapped in a two-way branch probe.
    pub(super) fn branch_expr(&self, cond: &Expr, t: u32, f: u32) -> Expr {
        let (t, f) = (lit(t), lit(f));
        if self.closures == 0 {
            let cov = local(COVERAGE_LOCAL);
            parse_quote!(::ferastrau_probes::branch_if(#cov, #cond, #t, #f))
        } else {
            parse_quote!(::ferastrau_probes::branch(#cond, #t, #f))
        }
    }

    /// The switch a guarded choice matches on.
    pub(super) fn switch(&self) -> Expr {
        if self.closures == 0 {
            let active = local(ACTIVE_LOCAL);
            parse_quote!(#active)
        } else {
            parse_quote!(::ferastrau_probes::active())
        }
    }

    pub(super) fn probe(
        &mut self,
        construct: Option<&str>,
        outcome: Option<&str>,
        line: usize,
    ) -> u32 {
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

    pub(super) fn branch_pair(&mut self, construct: &str, at: &impl ToTokens) -> (u32, u32) {
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
}
