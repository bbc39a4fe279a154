//! `ferastrau evaluate` and `ferastrau check`: generate each scope's inputs, run the original
//! and every mutant on them under limits, and judge (`check` runs the original only, in
//! [`check`]; `overhead` times the metamutant against it, in [`overhead`]).
//!
//! Per scope: Korat generates and stores every method's inputs (counting specification
//! coverage), the original runs on all of them (checking postconditions, counting code
//! coverage, timing each input) — both held to the mutants' rules ([`prepare`]). Then a
//! control run, the metamutant with no mutant active under the mutants' limits, must survive
//! every scope: limits the original itself cannot meet (a zero tick budget, a tiny memory
//! limit) stop the run before any mutant is judged. Then every viable mutant runs against the
//! original in its own child processes, in parallel, each scope stopping at its first killing
//! input, and the results are checked for the signs of a broken run ([`health`]).

pub mod budget;
pub mod check;
mod command;
mod facts;
pub(crate) mod health;
pub(crate) mod journal;
mod mutants;
pub mod next_scope;
pub mod overhead;
pub(crate) mod prepare;
mod progress;
pub(crate) mod reach;
pub mod report;
pub mod table;

use std::ops::RangeInclusive;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::fingerprint::Fingerprint;
use crate::interrupt;
use crate::locate::BenchmarkCrate;
/// Default of `--kill-matrix-max-deaths`: the deaths after which a kill-matrix row is capped.
pub use crate::matrix::run::MAX_DEATHS as KILL_MATRIX_MAX_DEATHS;
use crate::outdir::{free_bytes, OutputDir, Scratch};
use crate::runner::{RunConfig, Timing};
use crate::worker::Worker;
pub use command::{
    broken_run, clear_reports, run, sampled, verdict, Options, Outcome, Readers, Summary,
};
use ferastrau_artifacts::ScopeResult;
use ferastrau_console::exit_code::{usage, Interrupted};
use journal::{Journal, Recorded};
use mutants::{control_run, reach_index, run_all};
pub use prepare::{render_at, Preparation, ScopeRun, ScratchBound, Violation, DISK_MARGIN};

/// How the mutant phase runs: what [`evaluate`] takes, made from the command's [`Options`].
#[derive(Clone, Debug)]
pub struct Settings {
    pub scopes: RangeInclusive<u32>,
    pub jobs: usize,
    pub limits: ferastrau_protocol::Limits,
    pub memory_limit: u64,
    pub original_timeout: Duration,
    /// Bytes the stored inputs of all scopes may take.
    pub max_scratch: u64,
    pub resume: bool,
    /// Run each mutant only on the inputs that reach its mutation point (`--no-reach`: off).
    pub reach: bool,
    /// `--compare`: what a mutant's outputs are compared with the original's by.
    pub comparison: ferastrau_protocol::Comparison,
    pub progress: bool,
    /// `--kill-matrix`: after the first-kill run, every mutant on every input of every scope,
    /// rows capped after this many process deaths (see [`crate::matrix::run`]).
    pub kill_matrix: Option<u32>,
    /// Mutants one child process runs in turn (`--mutants-per-process`); `None`: chosen from
    /// the number of mutants and jobs ([`per_process`]).
    pub per_process: Option<usize>,
    /// `--max-time`: the evaluation's wall-clock budget, from generation to the last mutant
    /// (building the worker and the metamutant come before and are not counted). Checked
    /// between scopes: a scope whose estimate does not fit in what is left, or any scope once
    /// it is spent, is not started, and the run stops as an interrupted one does, resumable.
    pub max_time: Option<Duration>,
    /// Mutants that are part of the run but not run: those the compiler found equivalent to
    /// the original or duplicates of an evaluated mutant, when the kill rate leaves them out
    /// (the default). They could only repeat what is known (an equivalent cannot be killed, a
    /// duplicate does what its representative does), and they were a fifth of BinomialHeap
    /// 7's executions. Each is recorded `skipped` at every scope; `--count-equivalents` and
    /// `--kill-matrix`, which need their results, leave this empty.
    pub not_run: std::collections::BTreeSet<u32>,
}

/// At most this many mutants share a process by default: a death after the first costs a
/// re-run of the dead one alone, and an interrupt loses a whole process's results.
pub const MAX_PER_PROCESS: usize = 32;

/// How many mutants each child runs in turn: enough to pay a process start over many small
/// runs, few enough that every job gets at least eight processes to balance.
pub fn per_process(mutants: usize, jobs: usize, asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| mutants.div_ceil(jobs.max(1) * 8).min(MAX_PER_PROCESS))
        .max(1)
}

/// What an evaluation produced.
pub struct EvaluationResults {
    pub scopes: Vec<ScopeRun>,
    pub results: Vec<ScopeResult>,
    pub interrupted: bool,
    /// Why the results look like a broken run, if they do.
    pub broken: Option<String>,
    /// The mutant phase of this session (not of resumed work).
    pub timing: Timing,
    pub mutant_phase_seconds: f64,
    /// With `--kill-matrix`, one matrix per scope (checked against the first-kill results).
    pub matrices: Vec<crate::matrix::KillMatrix>,
}

/// The scratch bytes the next scope's inputs may take and the limit that bounds them: the
/// user's `--max-scratch` or the free space of the scratch disk (`free`, `None` when it cannot
/// be read), whichever leaves less. Refused before generating when the growth of the last two
/// scopes says the scope will not fit, naming that limit and what can change it.
fn scratch_limit(
    scope: u32,
    done: &[ScopeRun],
    max_scratch: u64,
    free: Option<u64>,
    dir: &std::path::Path,
) -> Result<(u64, ScratchBound)> {
    let used: u64 = done.iter().map(|s| s.bytes).sum();
    let on_disk = free.map_or(u64::MAX, |f| f.saturating_sub(DISK_MARGIN));
    let budget = max_scratch.saturating_sub(used);
    let (left, bound) = match free {
        Some(free) if on_disk < budget => (
            on_disk,
            ScratchBound::Disk {
                free,
                dir: dir.to_path_buf(),
            },
        ),
        _ => (
            budget,
            ScratchBound::Option {
                max: max_scratch,
                used,
            },
        ),
    };
    if let [.., a, b] = done {
        if a.bytes > 0 && b.bytes > 0 {
            let growth = b.bytes as f64 / a.bytes as f64;
            let estimate = b.bytes as f64 * growth;
            if estimate > left as f64 {
                return Err(usage(format!(
                    "scope {scope} would need about {} of scratch space for its inputs (scope {} took {}, growing {growth:.1}x per scope), more than the {} left ({}); {}",
                    ferastrau_console::term::size(estimate as u64),
                    b.scope,
                    ferastrau_console::term::size(b.bytes),
                    ferastrau_console::term::size(left),
                    bound.describe(),
                    bound.remedy()
                )));
            }
        }
    }
    Ok((used.saturating_add(left), bound))
}

/// Runs the evaluation of `mutants` (viable mutant ids) in the metamutant `worker`, writing
/// the journal into `out`; its scratch goes under `bench`'s target directory.
///
/// Without `--max-time` the run is one round over every scope: all scopes generated, then the
/// limits check, then each mutant over all its scopes in one process (fewest processes). With
/// it, a round per scope: a scope's mutants are done before the next scope is estimated and
/// budgeted, so that a stop leaves whole scopes in the journal and the next estimate grows from
/// the executions the mutants really made. The results are the same either way.
pub(crate) fn evaluate(
    bench: &BenchmarkCrate,
    out: &OutputDir,
    fingerprint: &Fingerprint,
    worker: &Worker,
    methods: &[String],
    mutants: &[u32],
    opts: &Settings,
) -> Result<EvaluationResults> {
    let clock = std::time::Instant::now();
    let journal_path = out.path.join("journal.jsonl");
    let (journal, mut recorded) = if opts.resume {
        Journal::resume(&journal_path, fingerprint)?
    } else {
        (
            Journal::create(&journal_path, fingerprint)?,
            Recorded::default(),
        )
    };
    let scratch = Scratch::new(bench)?;
    let mut cfg = RunConfig {
        inputs_dir: scratch.path().join("inputs"),
        scratch_dir: scratch.path().to_path_buf(),
        methods: methods.to_vec(),
        limits: opts.limits,
        memory_limit: opts.memory_limit,
        original_seconds: Vec::new(),
        reach: opts.reach,
        comparison: opts.comparison,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()
        .context("cannot start the thread pool")?;
    let rounds: Vec<RangeInclusive<u32>> = match opts.max_time {
        Some(_) => opts.scopes.clone().map(|s| s..=s).collect(),
        None => vec![opts.scopes.clone()],
    };
    let mut scopes: Vec<ScopeRun> = Vec::new();
    let mut results: Vec<ScopeResult> = Vec::new();
    let mut timing = Timing::default();
    let mut mutant_phase_seconds = 0.0;
    for round in rounds {
        for scope in round.clone() {
            let executions = executions_at(&scopes, &results, &recorded, opts);
            if let Some(why) = budget(scope, &scopes, executions, clock.elapsed(), opts) {
                let done = match (opts.scopes.start(), scope - 1) {
                    (a, b) if *a == b => format!("scope {b}"),
                    (a, b) => format!("scopes {a}..{b}"),
                };
                return Err(anyhow::Error::new(Interrupted(format!(
                    "stopped before scope {scope}: {why}; the results of {done} are in {}; continue with --resume and a larger --max-time",
                    journal_path.display()
                ))));
            }
            let run = generate(
                worker,
                methods,
                opts,
                &scratch,
                scope,
                &scopes,
                &journal,
                &recorded,
                &journal_path,
            )?;
            if run.inputs == 0 {
                return Err(prepare::no_input(bench, scope, run.candidates));
            }
            scopes.push(run);
        }
        cfg.original_seconds = scopes
            .iter()
            .map(|s| (s.scope, s.checking_seconds))
            .collect();
        ferastrau_console::stage!(
            "Checking",
            "the limits: the metamutant with no mutant active on every input (it must survive)"
        );
        control_run(worker, round.clone(), &cfg, opts.progress)?;
        let here: Vec<ScopeRun> = scopes
            .iter()
            .filter(|s| round.contains(&s.scope))
            .cloned()
            .collect();
        let reach = reach_index(&mut cfg, &here, methods.len(), round.clone(), opts)?;
        ferastrau_console::stage!(
            "Running",
            "{} mutants on the inputs of scopes {}..={} with {} jobs",
            mutants.len(),
            round.start(),
            round.end(),
            opts.jobs.max(1)
        );
        let phase = std::time::Instant::now();
        let (fresh, t) = pool.install(|| {
            run_all(
                worker,
                mutants,
                &recorded,
                reach.as_ref(),
                &here,
                &cfg,
                &journal,
                opts,
                round.clone(),
            )
        })?;
        mutant_phase_seconds += phase.elapsed().as_secs_f64();
        results.extend(fresh);
        timing.add(&t);
        if interrupt::requested() {
            break;
        }
    }
    results.extend(std::mem::take(&mut recorded.results).into_values());
    results.sort_by_key(|r| (r.mutant, r.scope));
    let matrices = match opts.kill_matrix {
        Some(max_deaths) if !interrupt::requested() => {
            let record = |scope: u32, row: &crate::matrix::Row| journal.row(scope, max_deaths, row);
            let journaled = crate::matrix::run::Journaled {
                done: &recorded.rows,
                record: &record,
            };
            pool.install(|| {
                crate::matrix::run::matrices(
                    worker,
                    fingerprint,
                    mutants,
                    &scopes,
                    &results,
                    &cfg,
                    max_deaths,
                    &journaled,
                    opts.progress,
                )
            })
            .map_err(|e| resume_hint(e, "the rows done are kept", &journal_path))?
        }
        _ => Vec::new(),
    };
    let interrupted = interrupt::requested();
    let broken = if interrupted {
        None
    } else {
        health::verdict(&scopes, &results, mutants.len())
    };
    Ok(EvaluationResults {
        scopes,
        results,
        interrupted,
        broken,
        timing,
        mutant_phase_seconds,
        matrices,
    })
}

/// The executions the mutants made at the last scope done, for the next scope's estimate,
/// when they are known: with `--max-time` that scope's mutants are done (this session's
/// results or the journal's). Without it they have not run yet, and what they will make is
/// unknown: the mutants die at their first killing input, and every mutant on every input
/// that reaches it (the bound reach selection gives) was 35 times BinomialHeap's scope 6
/// (1m 42s estimated, 2.9 s taken). `None` then, and before any scope.
fn executions_at(
    done: &[ScopeRun],
    results: &[ScopeResult],
    recorded: &Recorded,
    opts: &Settings,
) -> Option<u64> {
    let last = done.last()?;
    opts.max_time?;
    let ran = |r: &ScopeResult| (r.scope == last.scope).then(|| r.executions.unwrap_or(0));
    let fresh: u64 = results.iter().filter_map(ran).sum();
    let journaled: u64 = recorded.results.values().filter_map(ran).sum();
    Some(fresh + journaled)
}

/// Before `scope`: its estimate said as a note (from the two scopes before it), and, with
/// `--max-time`, why there is no time left for it, if there is none. The first scope always
/// runs. `executions`: what the mutants ran at the scope before ([`executions_at`]); without
/// them (no `--max-time`: the mutants run after the last scope) the note estimates the
/// scope's generation and checks only, and says so.
fn budget(
    scope: u32,
    done: &[ScopeRun],
    executions: Option<u64>,
    elapsed: Duration,
    opts: &Settings,
) -> Option<String> {
    if scope == *opts.scopes.start() {
        return None;
    }
    let estimate = match done {
        [.., prev, last] => budget::estimate_seconds(
            &prev.into(),
            &last.into(),
            executions.unwrap_or(0),
            opts.jobs,
        ),
        _ => None,
    };
    if let (Some(est), [.., prev, last]) = (estimate, done) {
        ferastrau_console::note!(
            "scope {scope}: estimated {} from the growth of scopes {}..{}{}",
            ferastrau_console::term::duration(Duration::from_secs_f64(est.clamp(0.0, 1e9))),
            prev.scope,
            last.scope,
            match executions {
                Some(_) => "",
                None => " for its inputs and the checks; its mutants run after the last scope",
            }
        );
    }
    budget::refusal(elapsed, estimate, opts.max_time?)
}

/// A scope's inputs generated and the original run on them, into the run's own scratch
/// directory (regenerated when resuming: Korat is deterministic), a new scope journaled and a
/// resumed one checked against its journal. `done` are the scopes before it, whose growth
/// says whether it fits the scratch space.
#[allow(clippy::too_many_arguments)]
fn generate(
    worker: &Worker,
    methods: &[String],
    opts: &Settings,
    scratch: &Scratch,
    scope: u32,
    done: &[ScopeRun],
    journal: &Journal,
    recorded: &Recorded,
    journal_path: &std::path::Path,
) -> Result<ScopeRun> {
    if interrupt::requested() {
        return Err(anyhow::Error::new(Interrupted(format!(
            "interrupted while generating; continue with --resume ({})",
            journal_path.display()
        ))));
    }
    let (max_bytes, scratch_bound) = scratch_limit(
        scope,
        done,
        opts.max_scratch,
        free_bytes(scratch.path()),
        scratch.path(),
    )?;
    let used: u64 = done.iter().map(|s| s.bytes).sum();
    let prep = Preparation {
        inputs_dir: scratch.path().join("inputs"),
        scratch_dir: scratch.path().to_path_buf(),
        coverage: true,
        memory_limit: Some(opts.memory_limit),
        original_timeout: opts.original_timeout,
        max_bytes,
        scratch_bound,
        methods: methods.to_vec(),
        reach: opts.reach,
        jobs: crate::process::generation_threads(opts.jobs, Some(opts.memory_limit)),
    };
    ferastrau_console::stage!(
        "Generating",
        "the inputs of scope {scope}, then running the original on them"
    );
    let mut run = prep
        .scope(worker, scope, used)
        .map_err(|e| resume_hint(e, "interrupted while generating", journal_path))?;
    if let Some(e) = prepare::broken_original(&run) {
        return Err(e);
    }
    if let Some(old) = recorded.scopes.get(&scope) {
        if old.inputs != run.inputs {
            return Err(usage(format!(
                "cannot resume: scope {scope} now has {} inputs, the journal {}",
                run.inputs, old.inputs
            )));
        }
        let bytes = run.bytes;
        run = old.clone();
        run.bytes = bytes;
    } else {
        journal.scope(&run)?;
    }
    ferastrau_console::detail!(
        "scope {scope}: {} inputs generated in {:.2} s, the original checked on them in {:.2} s",
        run.inputs,
        run.generation_seconds,
        run.checking_seconds
    );
    Ok(run)
}

/// `e` with `what` and how to continue from `journal` when it is an interrupt; else `e`.
fn resume_hint(e: anyhow::Error, what: &str, journal: &std::path::Path) -> anyhow::Error {
    if e.is::<Interrupted>() {
        // Replaced, not wrapped: the inner "interrupted" would only repeat the word.
        anyhow::Error::new(Interrupted(format!(
            "{what}; continue with --resume ({})",
            journal.display()
        )))
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(scope: u32, mib: u64) -> ScopeRun {
        ScopeRun {
            scope,
            bytes: mib << 20,
            ..ScopeRun::default()
        }
    }

    /// Scopes of 10 and 100 MiB: the next needs about 1000 MiB. Whichever limit leaves less
    /// is the one the refusal names, with the remedy that can help: a full disk is never
    /// blamed on --max-scratch (raising it cannot help).
    #[test]
    fn a_scope_that_does_not_fit_names_the_limit_that_binds() {
        let done = [scope(1, 10), scope(2, 100)];
        let dir = std::path::Path::new("/work/crate/target/ferastrau/runs/1");
        // The disk binds: 700 MiB free (188 after the margin), --max-scratch 20 GiB.
        let e = scratch_limit(3, &done, 20 << 30, Some(700 << 20), dir).unwrap_err();
        let e = format!("{e:#}");
        assert!(
            e.contains("700 MiB free on the file system of /work/crate/target/ferastrau/runs/1")
                && e.contains("512 MiB are kept free")
                && e.contains("free space on that file system")
                && e.contains("--max-scratch cannot raise it")
                && !e.contains("raise --max-scratch"),
            "{e}"
        );
        // --max-scratch binds: 500 MiB of which 110 are used, a disk of 100 GiB.
        let e = scratch_limit(3, &done, 500 << 20, Some(100 << 30), dir).unwrap_err();
        let e = format!("{e:#}");
        assert!(
            e.contains("--max-scratch 500 MiB, 110 MiB of it used")
                && e.contains("raise --max-scratch")
                && !e.contains("free disk"),
            "{e}"
        );
        // Room for it: the budget is the smaller limit, with the bound it came from.
        let (bytes, bound) = scratch_limit(3, &done, 20 << 30, Some(4 << 30), dir).unwrap();
        assert_eq!(bytes, (110 << 20) + (4 << 30) - DISK_MARGIN);
        assert!(matches!(bound, ScratchBound::Disk { free, .. } if free == 4 << 30));
        let (bytes, bound) = scratch_limit(3, &done, 2 << 30, None, dir).unwrap();
        assert_eq!(bytes, 2 << 30);
        assert_eq!(
            bound,
            ScratchBound::Option {
                max: 2 << 30,
                used: 110 << 20
            }
        );
    }
}
