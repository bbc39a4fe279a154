//! Mutants that take the same inputs, run together input by input.
//!
//! Reach selection gives every mutant of one mutation point the same inputs (those whose
//! original run evaluates the point), and a point's mutants are consecutive in a process's
//! list. Run one after the other, each of them decoded every input again and ran the original
//! on it again, though nothing of either depends on the mutant. Run as a *cohort*, each input
//! is decoded and the original run on it once; then every mutant of the cohort not yet killed
//! at the scope is judged on its own copy of the input ([`against`], the one
//! definition of a kill).
//!
//! Each mutant still meets the inputs in the same order and stops at its first kill, so its
//! results (kill, executions, skipped) are those it gets alone; they are sent once the cohort
//! is done, mutant by mutant and scope by scope, in the order the harness expects of a list.
//! A process that dies or times out inside a cohort has reported nothing of it and cannot say
//! which of its mutants did it: the harness then runs the rest of the list with cohorts off,
//! one mutant after another, where a death names its mutant as it always did.

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use ferastrau_sdk::Benchmark;

use super::mutants::{each_input, Judging, Stops};
use super::trial::{against, kill_of, OriginalRun};
use crate::channel::send;
use crate::cursor;
use crate::protocol::{DueMutant, Kill, Message};
use crate::reach::ReachSets;

/// Which inputs a mutant runs on at one (scope, method), as far as telling two mutants apart
/// goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inputs {
    /// Every input: reach selection is off, or the original wrote no reach file.
    All,
    /// The inputs that reach this point (first and last mutant ids of its entry).
    Point(u32, u32),
    /// None: no input reaches the mutant.
    Unreached,
}

/// How many of the leading mutants of `due` form a cohort: from the same scope, and with the
/// same inputs at every scope up to `to` and every method (1 when the first stands alone).
pub(crate) fn len<B: Benchmark>(
    bench: &B,
    due: &[DueMutant],
    to: u32,
    dir: &Path,
    reach: bool,
) -> std::io::Result<usize> {
    let Some(first) = due.first() else {
        return Ok(0);
    };
    let mut tables = Vec::new();
    if reach {
        for scope in first.from..=to {
            for m in 0..bench.methods().len() {
                tables.push(ReachSets::read(dir, scope, m)?);
            }
        }
    }
    let inputs = |mutant: u32| -> Vec<Inputs> {
        if !reach {
            return Vec::new();
        }
        tables
            .iter()
            .map(|t| match t {
                None => Inputs::All,
                Some(sets) => sets
                    .point(mutant)
                    .map_or(Inputs::Unreached, |(a, b)| Inputs::Point(a, b)),
            })
            .collect()
    };
    let own = inputs(first.mutant);
    Ok(due
        .iter()
        .take_while(|d| d.from == first.from && inputs(d.mutant) == own)
        .count())
}

/// One mutant's result at one scope, as [`Message::Scope`] carries it.
#[derive(Clone, Debug, Default)]
struct Scoped {
    kill: Option<Kill>,
    executions: u64,
    skipped: u64,
    seconds: f64,
}

/// Runs the cohort `cohort` (mutants that [`len`] grouped) at each of its scopes up to `to`,
/// then sends each mutant's [`Message::Scope`]s, mutant by mutant.
pub(crate) fn run<B: Benchmark>(
    bench: &B,
    cohort: &[DueMutant],
    to: u32,
    dir: &Path,
    judging: Judging,
    reach: bool,
    stops: &Stops,
) -> std::io::Result<()> {
    let from = cohort[0].from;
    cursor::set(cursor::SCOPE, from);
    for d in cohort {
        cursor::set(cursor::MUTANT, d.mutant);
        crate::fault::at_mutant(d.mutant);
    }
    let mut results: Vec<Vec<Scoped>> = vec![Vec::new(); cohort.len()];
    for scope in from..=to {
        cursor::set(cursor::SCOPE, scope);
        let started = Instant::now();
        let scoped = run_scope(bench, cohort, scope, dir, judging, reach, stops)?;
        let seconds = started.elapsed().as_secs_f64();
        let executions: u64 = scoped.iter().map(|s| s.executions).sum();
        for (all, mut s) in results.iter_mut().zip(scoped) {
            // The scope's time shared out by executions: what each mutant's own run took,
            // near enough, with the shared decoding and original spread over them.
            s.seconds = match executions {
                0 => seconds / cohort.len() as f64,
                n => seconds * s.executions as f64 / n as f64,
            };
            all.push(s);
        }
    }
    for (d, scopes) in cohort.iter().zip(results) {
        for (scope, s) in (from..=to).zip(scopes) {
            send(&Message::Scope {
                mutant: d.mutant,
                scope,
                kill: s.kill,
                executions: s.executions,
                skipped: s.skipped,
                seconds: s.seconds,
            })?;
        }
    }
    Ok(())
}

/// The cohort at one scope: each input decoded and run by the original once, then judged for
/// each mutant still alive at the scope; every mutant's result, in the cohort's order.
fn run_scope<B: Benchmark>(
    bench: &B,
    cohort: &[DueMutant],
    scope: u32,
    dir: &Path,
    judging: Judging,
    reach: bool,
    stops: &Stops,
) -> std::io::Result<Vec<Scoped>> {
    let mut out = vec![Scoped::default(); cohort.len()];
    let mut alive = cohort.len();
    // Inputs of the methods before the current one, as `evaluate::run_scope` counts them.
    let mut full = 0u64;
    for m in 0..bench.methods().len() {
        if alive == 0 {
            break;
        }
        cursor::set(cursor::METHOD, m as u32);
        let (fin, fields) = bench.finitize(m, scope);
        let walk = |index: u64, state: &[u32], original_nanos: u64| {
            let decode = || bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
            cursor::set(cursor::INDEX, index as u32);
            let pre = decode();
            let mut original = OriginalRun::on(bench, m, pre.clone());
            for (d, s) in cohort.iter().zip(out.iter_mut()) {
                if s.kill.is_some() {
                    continue;
                }
                cursor::set(cursor::MUTANT, d.mutant);
                s.executions += 1;
                let t = against(
                    bench,
                    m,
                    d.mutant,
                    pre.clone(),
                    &mut original,
                    original_nanos,
                    judging,
                    stops,
                );
                if let Some(kill) = kill_of(bench, m, index, &original, t, decode) {
                    s.skipped = full + index + 1 - s.executions;
                    s.kill = Some(kill);
                    alive -= 1;
                }
            }
            if alive == 0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        full += each_input(dir, scope, m, cohort[0].mutant, reach, walk)?;
    }
    for s in out.iter_mut().filter(|s| s.kill.is_none()) {
        s.skipped = full - s.executions;
    }
    Ok(out)
}
