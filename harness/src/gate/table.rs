//! The gate's printed output: the table of changes per scope, and each failure in words.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::baseline::{BenchmarkBaseline, ScopeFigures};
use super::compare::{Changes, Comparison, Failure};
use super::run::Run;

/// The short table of what changed, one line per scope.
pub fn table(base: &BenchmarkBaseline, run: &BenchmarkBaseline, c: &Comparison) -> String {
    let mut t = format!(
        "{:>5} {:>19} {:>19} {:>19} {:>9} {:>9} {:>13} {:>5} {:>9}\n",
        "scope",
        "kill rate % (Δ)",
        "code st %",
        "code br %",
        "now surv.",
        "now kill.",
        "new (k/s)",
        "gone",
        "now skip."
    );
    let scopes: BTreeSet<u32> = base
        .scopes
        .keys()
        .chain(run.scopes.keys())
        .copied()
        .collect();
    for s in scopes {
        let (b, n) = (base.scopes.get(&s), run.scopes.get(&s));
        let pair = |f: fn(&ScopeFigures) -> f64| match (b, n) {
            (Some(b), Some(n)) => format!("{:.2} → {:.2}", f(b), f(n)),
            (None, Some(n)) => format!("new {:.2}", f(n)),
            (Some(b), None) => format!("{:.2} → -", f(b)),
            (None, None) => String::new(),
        };
        let rate = match (b, n) {
            (Some(b), Some(n)) => format!(
                "{:.2} → {:.2} ({:+.2})",
                b.kill_rate,
                n.kill_rate,
                n.kill_rate - b.kill_rate
            ),
            _ => pair(|f| f.kill_rate),
        };
        let ch = c.changes.get(&s);
        let count = |f: fn(&Changes) -> usize| ch.map_or(0, f);
        let _ = writeln!(
            t,
            "{:>5} {:>19} {:>19} {:>19} {:>9} {:>9} {:>13} {:>5} {:>9}",
            s,
            rate,
            pair(|f| f.statement_coverage),
            pair(|f| f.branch_coverage),
            count(|c| c.now_surviving.len()),
            count(|c| c.now_killed.len()),
            format!(
                "{}/{}",
                count(|c| c.new_killed.len()),
                count(|c| c.new_surviving.len())
            ),
            count(|c| c.gone.len()),
            count(|c| c.now_skipped.len()),
        );
    }
    t
}

/// A failure in words.
pub fn describe(f: &Failure, run: &Run) -> String {
    match f {
        Failure::MissingScope(s) => format!("scope {s} is in the baseline but was not evaluated"),
        Failure::BelowFloor { scope, rate, floor } => {
            format!("scope {scope}: kill rate {rate:.2}% is under --min-kill-rate {floor:.2}%")
        }
        Failure::Dropped { scope, from, to } => format!(
            "scope {scope}: kill rate fell from {from:.2}% to {to:.2}% ({:+.2} points)",
            to - from
        ),
        Failure::Survives { scope, key } => format!(
            "scope {scope}: killed in the baseline, survives now: {}",
            run.describe(key)
        ),
        Failure::CoverageDropped {
            scope,
            kind,
            from,
            to,
        } => format!("scope {scope}: code {kind} coverage fell from {from:.2}% to {to:.2}%"),
        Failure::NewSurvivor { scope, key } => format!(
            "scope {scope}: a new mutant survives: {}",
            run.describe(key)
        ),
    }
}
