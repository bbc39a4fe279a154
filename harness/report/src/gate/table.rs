//! The gate's printed output: a report a reviewer reads in ten seconds (a summary, then one
//! line per mutant whose verdict changed, then the figures per scope), and each failure in
//! words.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::baseline::{BenchmarkBaseline, ScopeFigures};
use super::compare::{Basis, Changes, Comparison, Failure};
use super::run::GatedRun;

/// How many mutants a section of the report lists before "and N more" (the JSON has all).
const LISTED: usize = 20;

/// The report: the summary first — the kill rate at the largest scope before and after (or
/// why it is not compared), the count of each kind of change — then each kind's mutants, one
/// line each with its scopes, place and key, then (for runs of the whole crate) the figures
/// per scope. A run of some mutants only (`--in-diff`) shows what it measured: its mutants.
pub fn report(run: &GatedRun, base: &BenchmarkBaseline, c: &Comparison, basis: Basis) -> String {
    let mut t = String::new();
    let keys = |f: fn(&Changes) -> &Vec<String>| -> BTreeMap<&String, Vec<u32>> {
        super::by_key(
            c.changes
                .iter()
                .flat_map(move |(&s, ch)| f(ch).iter().map(move |k| (s, k))),
        )
    };
    let survive = keys(|c| &c.now_surviving);
    let new_surviving = keys(|c| &c.new_surviving);
    let now_killed = keys(|c| &c.now_killed);
    let gone = keys(|c| &c.gone);
    let skipped = keys(|c| &c.now_skipped);
    let largest = base.scopes.keys().max().copied();
    match (basis, largest) {
        (Basis::Partial, _) => {
            let _ = writeln!(
                t,
                "{} mutant(s) evaluated, each against its verdict in the baseline; the run {}, so kill rates are not compared",
                run.figures.mutants.len(),
                run.partial.as_deref().unwrap_or("evaluated a subset")
            );
        }
        (_, Some(s)) => {
            let (b, n) = (base.scopes.get(&s), run.figures.scopes.get(&s));
            let rate =
                |f: Option<&ScopeFigures>| f.map_or("-".into(), |f| format!("{:.2}%", f.kill_rate));
            let delta = match (b, n, basis) {
                (Some(b), Some(n), Basis::Whole) => {
                    format!(" ({:+.2} points)", n.kill_rate - b.kill_rate)
                }
                (_, _, Basis::ChangedCode) => {
                    " (not compared: the mutated code changed, so these are rates of other code)"
                        .into()
                }
                _ => String::new(),
            };
            let _ = writeln!(
                t,
                "kill rate at scope {s}: {} → {}{delta}",
                rate(b),
                rate(n)
            );
        }
        (_, None) => {}
    }
    let _ = writeln!(
        t,
        "{} survive now · {} new survivor(s) · {} killed now · {} gone · {} skipped now",
        survive.len(),
        new_surviving.len(),
        now_killed.len(),
        gone.len(),
        skipped.len()
    );
    let place = |k: &str| {
        run.places
            .get(k)
            .map_or("?", |p| p.split_once(' ').map_or(p.as_str(), |(at, _)| at))
            .to_string()
    };
    let sections = [
        ("killed in the baseline, survive now:", &survive, true),
        ("new mutants that survive:", &new_surviving, true),
        ("survived in the baseline, killed now:", &now_killed, true),
        ("in the baseline, not evaluated now:", &gone, false),
    ];
    for (title, list, here) in sections {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(t, "{title}");
        for (key, scopes) in list.iter().take(LISTED) {
            let at = if here { place(key) } else { String::new() };
            let _ = writeln!(t, "  {:<13} {at}  {key}", super::scopes_text(scopes));
        }
        if list.len() > LISTED {
            let _ = writeln!(
                t,
                "  and {} more (--format json lists all)",
                list.len() - LISTED
            );
        }
    }
    if basis != Basis::Partial {
        t.push_str(&table(base, &run.figures, c));
    }
    t
}

/// The figures per scope, before → after (under 100 columns; the mutants' changes are in
/// the lines above it).
pub fn table(base: &BenchmarkBaseline, run: &BenchmarkBaseline, _c: &Comparison) -> String {
    let mut t = format!(
        "{:>5}  {:<24} {:<18} {}\n",
        "scope", "kill rate % (Δ)", "code stmt %", "code branch %"
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
        let _ = writeln!(
            t,
            "{:>5}  {:<24} {:<18} {}",
            s,
            rate,
            pair(|f| f.statement_coverage),
            pair(|f| f.branch_coverage),
        );
    }
    t
}

/// A failure in words.
pub fn describe(f: &Failure, run: &GatedRun) -> String {
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
        Failure::Unmatched {
            mutants,
            of,
            functions,
        } => format!(
            "{mutants} of the baseline's {of} mutants ({:.1}%, over {}%) found no counterpart in this run, so they were not compared: their function{} {} no longer here under any name; if that is meant (deleted, no longer mutated), pass --accept-unmatched or make a new baseline with --update-baseline",
            100.0 * *mutants as f64 / (*of).max(1) as f64,
            super::compare::UNMATCHED_SHARE,
            if functions.len() == 1 { "" } else { "s" },
            functions
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
                + if functions.len() == 1 { " is" } else { " are" },
        ),
    }
}
