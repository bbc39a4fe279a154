//! The gate's notes: what it did not compare and why, new code that nothing tests, a kill rate
//! to ratchet, killed mutants skipped now. Apart from the comparison ([`super::compare`]) and
//! the verdict ([`super::gate`]): notes never fail a gate, they say what it could not judge.

use std::collections::BTreeMap;

use super::baseline::BenchmarkBaseline;
use super::compare::{Basis, Comparison, Thresholds};
use super::run::GatedRun;
use super::{by_key, scopes_text};

/// The gate's notes (`note:` lines, the JSON document's `notes`): what was not compared and
/// why (changed code, baseline functions with no counterpart, mutants on edited lines), new
/// code that nothing tests, a kill rate to ratchet, killed mutants skipped now. None with
/// `update`, which compares nothing.
#[allow(clippy::too_many_arguments)]
pub(super) fn notes(
    run: &GatedRun,
    reference: &BenchmarkBaseline,
    base: Option<&BenchmarkBaseline>,
    c: &Comparison,
    basis: Basis,
    edited: &[String],
    unmatched: &BTreeMap<String, Vec<String>>,
    t: &Thresholds,
    update: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    if basis == Basis::ChangedCode && base.is_some() && !update {
        notes.push(
            "the change adds mutants or edits lines of the mutated code: kill rates and coverage are of other code, not compared; every mutant the two runs share is".to_string(),
        );
    }
    if !update {
        for (function, keys) in unmatched {
            notes.push(format!(
                "{} baseline mutant(s) of `{function}` not compared: no function of this run matches it (deleted, renamed beyond recognition, or no longer in `mutate`){}",
                keys.len(),
                if t.accept_unmatched { "; accepted (--accept-unmatched)" } else { "" }
            ));
        }
    }
    if let Some(b) = base.filter(|_| !update) {
        notes.extend(untested_new(run, reference));
        if let (Some(then), Some(now)) = (&b.untested, &run.figures.untested) {
            for f in now.iter().filter(|f| !then.contains(f)) {
                notes.push(format!(
                    "`{f}` is new and public, but not mutated and no input calls it (the benchmark's `run` does not reach it): nothing tests it"
                ));
            }
        }
        if c.failures.is_empty() && basis == Basis::Whole {
            notes.extend(ratchet(reference, &run.figures));
        }
    }
    if !edited.is_empty() && !update {
        notes.push(format!(
            "{} mutant(s) of the baseline have no counterpart in this run (on lines the change edited, or no longer generated): compared with nothing",
            edited.len()
        ));
    }
    if base.is_some() && !update {
        // One line per mutant, with the scopes it is at.
        let skipped_now = by_key(
            c.changes
                .iter()
                .flat_map(|(&s, ch)| ch.now_skipped.iter().map(move |k| (s, k))),
        );
        for (key, scopes) in skipped_now {
            notes.push(format!(
                "{}: killed in the baseline, skipped now ({}): {}",
                scopes_text(&scopes),
                run.skipped[key],
                run.describe(key)
            ));
        }
    }
    notes
}

/// Notes on the run's new mutants that no input reaches, one per function: code the change
/// added that nothing tests (a survivor there needs an input, not a stronger oracle).
fn untested_new(run: &GatedRun, reference: &BenchmarkBaseline) -> Vec<String> {
    let mut by_function: std::collections::BTreeMap<&str, Vec<&String>> = Default::default();
    for key in run
        .unreached
        .iter()
        .filter(|k| !reference.mutants.contains_key(*k))
    {
        let function = run
            .figures
            .places
            .get(key)
            .map_or("?", |p| p.function.as_str());
        by_function.entry(function).or_default().push(key);
    }
    by_function
        .into_iter()
        .map(|(function, keys)| {
            format!(
                "{} new mutant(s) of `{function}` are reached by no input at any scope: no test runs that code (e.g. {})",
                keys.len(),
                run.describe(keys[0])
            )
        })
        .collect()
}

/// Notes on scopes whose kill rate rose past the baseline's (a widened finitization, a
/// stronger oracle): the baseline can be raised so that the gain is kept.
fn ratchet(reference: &BenchmarkBaseline, now: &BenchmarkBaseline) -> Vec<String> {
    let rose: Vec<String> = now
        .scopes
        .iter()
        .filter_map(|(s, f)| {
            let then = reference.scopes.get(s)?.kill_rate;
            (f.kill_rate > then + 0.005)
                .then(|| format!("scope {s}: {then:.2}% → {:.2}%", f.kill_rate))
        })
        .collect();
    match rose.is_empty() {
        true => Vec::new(),
        false => vec![format!(
            "the kill rate rose ({}): ratchet the baseline with --update-baseline so that the gain is kept",
            rose.join(", ")
        )],
    }
}
