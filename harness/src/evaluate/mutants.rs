//! The mutant phase of `evaluate`: the control run (the metamutant with no mutant active must
//! survive the mutants' limits), which inputs reach each mutation point, and every mutant run
//! against the original ([`run_all`]) with its progress tally. Apart from the orchestration in
//! `mod.rs` (scopes, budget, generation, journal), which calls these per round of scopes.

use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use anyhow::Result;
use ferastrau_protocol::{DueMutant, Position, Reason, NO_MUTANT};
use rayon::prelude::*;

use super::journal::{Journal, Recorded};
use super::{per_process, prepare, reach, render_at, ScopeRun, Settings};
use crate::interrupt;
use crate::runner::{run_mutants, RunConfig, Timing};
use crate::worker::Worker;
use ferastrau_artifacts::ScopeResult;
use ferastrau_console::exit_code::broken;

/// Which inputs of `scopes` (`runs`, generated) reach each mutation point, when reach
/// selection is on. Reach sets that name no point although the original ran mutated code
/// would make every mutant a survivor without a process: a metamutant without reach markers
/// cannot be told from code no input reaches, so such a run takes every input (and `cfg`
/// says so).
pub(super) fn reach_index(
    cfg: &mut RunConfig,
    runs: &[ScopeRun],
    methods: usize,
    scopes: RangeInclusive<u32>,
    opts: &Settings,
) -> Result<Option<reach::ReachIndex>> {
    if !opts.reach || !cfg.reach {
        return Ok(None);
    }
    let index = reach::ReachIndex::read(&cfg.inputs_dir, scopes, methods)?;
    if index.is_empty() && runs.iter().any(|s| !s.code_probes.is_empty()) {
        ferastrau_console::warning!(
            "the original reached mutated code but no mutation point: running every mutant on every input"
        );
        cfg.reach = false;
        return Ok(None);
    }
    Ok(Some(index))
}

/// The mutant phase's progress: executions done of those expected (the bar and its ETA), and
/// the mutants done by their verdict at the round's last scope (the line's counts), updated
/// from whichever thread hears of a result, as it comes.
struct Tally {
    bar: indicatif::ProgressBar,
    /// Inputs each (mutant, scope) due runs on unless killed first: what its result retires.
    expected: HashMap<(u32, u32), u64>,
    last: u32,
    mutants: u64,
    killed: AtomicU64,
    survived: AtomicU64,
    timeout: AtomicU64,
}

impl Tally {
    /// The tally of a mutant phase that runs `todo` up to scope `last`, with the mutants whose
    /// last scope the journal already has counted from the start, its bar (with `--progress`)
    /// expecting the inputs that reach each (mutant, scope) due, or all of them.
    fn new(
        todo: &[DueMutant],
        mutants: usize,
        recorded: &Recorded,
        reach: Option<&reach::ReachIndex>,
        runs: &[ScopeRun],
        opts: &Settings,
        last: u32,
    ) -> Tally {
        // What each (mutant, scope) due will run: the inputs that reach it, or all of them (for
        // the progress line only).
        let inputs: HashMap<u32, u64> = runs.iter().map(|s| (s.scope, s.inputs)).collect();
        let expected: HashMap<(u32, u32), u64> = todo
            .iter()
            .filter(|_| opts.progress)
            .flat_map(|d| (d.from..=last).map(move |s| (d.mutant, s)))
            .map(|(m, s)| {
                let all = inputs.get(&s).copied().unwrap_or(0);
                let n = reach.map_or(all, |r| r.executions(m, s).unwrap_or(all));
                ((m, s), n)
            })
            .collect();
        let tally = Tally {
            bar: ferastrau_console::term::meter(
                opts.progress,
                "mutants",
                expected.values().sum(),
                "",
            ),
            expected,
            last,
            mutants: mutants as u64,
            killed: AtomicU64::new(0),
            survived: AtomicU64::new(0),
            timeout: AtomicU64::new(0),
        };
        // Mutants the journal already has the last scope of count from the start.
        for r in recorded.results.values().filter(|r| r.scope == last) {
            tally.count(r);
        }
        tally.bar.set_message(tally.counts());
        tally
    }

    /// Counts `r`: its expected executions done, and, at the last scope, its mutant's verdict.
    fn result(&self, r: &ScopeResult) {
        self.bar.inc(
            self.expected
                .get(&(r.mutant, r.scope))
                .copied()
                .unwrap_or(0),
        );
        if r.scope == self.last {
            self.count(r);
            self.bar.set_message(self.counts());
        }
    }

    fn count(&self, r: &ScopeResult) {
        if r.status == ferastrau_artifacts::Status::Skipped {
            return;
        }
        let n = match (r.killed(), r.reason) {
            (true, Some(Reason::Timeout)) => &self.timeout,
            (true, _) => &self.killed,
            (false, _) => &self.survived,
        };
        n.fetch_add(1, Ordering::Relaxed);
    }

    /// `37/120: 30 killed, 5 survived, 2 timeout` (after the line's `mutants`).
    fn counts(&self) -> String {
        let (k, s, t) = (
            self.killed.load(Ordering::Relaxed),
            self.survived.load(Ordering::Relaxed),
            self.timeout.load(Ordering::Relaxed),
        );
        format!(
            "{}/{}: {k} killed, {s} survived, {t} timeout",
            k + s + t,
            self.mutants
        )
    }
}

/// The mutant stage over `scopes` (`runs`, generated): every mutant from the first scope the
/// journal has no result for, on the current rayon pool, each batch in a child process; a
/// mutant no input reaches survives without one. Every result is journaled as it comes; a kill
/// by a dead process gets its input rendered. Returns this session's results (not the
/// journal's) and where time went.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_all(
    worker: &Worker,
    mutants: &[u32],
    recorded: &Recorded,
    reach: Option<&reach::ReachIndex>,
    runs: &[ScopeRun],
    cfg: &RunConfig,
    journal: &Journal,
    opts: &Settings,
    scopes: RangeInclusive<u32>,
) -> Result<(Vec<ScopeResult>, Timing)> {
    let last = *scopes.end();
    let todo: Vec<DueMutant> = mutants
        .iter()
        .filter_map(|&m| {
            scopes
                .clone()
                .find(|&s| !recorded.results.contains_key(&(m, s)))
                .map(|from| DueMutant { mutant: m, from })
        })
        .collect();
    let tally = Tally::new(&todo, mutants.len(), recorded, reach, runs, opts, last);
    let bar = prepare::ClearOnDrop::new(tally.bar.clone());
    let on_result = |r: &ScopeResult| tally.result(r);
    let mut fresh: Vec<Result<(Vec<ScopeResult>, Timing)>> = Vec::new();
    let mut to_run = Vec::new();
    for d in todo {
        if opts.not_run.contains(&d.mutant) {
            for scope in d.from..=last {
                let r = ScopeResult::skipped(d.mutant, scope);
                journal.result(&r)?;
                on_result(&r);
                fresh.push(Ok((vec![r], Timing::default())));
            }
            continue;
        }
        match reach.and_then(|r| r.unreached(d.mutant, d.from..=last)) {
            Some(inputs) => {
                let (rs, timing) = unreached_results(d.mutant, d.from..=last, inputs);
                for r in &rs {
                    journal.result(r)?;
                    on_result(r);
                }
                fresh.push(Ok((rs, timing)));
            }
            None => to_run.push(d),
        }
    }
    let batch = per_process(to_run.len(), opts.jobs, opts.per_process);
    let failed = AtomicBool::new(false);
    let ran: Vec<Result<(Vec<ScopeResult>, Timing)>> = to_run
        .par_chunks(batch)
        // One process per chunk: rayon must not split it further.
        .with_max_len(1)
        .map(|due| {
            if interrupt::requested() || failed.load(Ordering::Relaxed) {
                return Ok((Vec::new(), Timing::default()));
            }
            let ran =
                run_mutants(worker, due, last, cfg, &on_result).and_then(|(mut rs, timing)| {
                    for r in &mut rs {
                        render_death(worker, cfg, r);
                        journal.result(r)?;
                    }
                    Ok((rs, timing))
                });
            if ran.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            ran
        })
        .collect();
    fresh.extend(ran);
    drop(bar);
    let mut results = Vec::new();
    let mut timing = Timing::default();
    for r in fresh {
        let (rs, t) = r?;
        results.extend(rs);
        timing.add(&t);
    }
    Ok((results, timing))
}

/// A kill by a dead process names its input's position only: the worker renders it.
fn render_death(worker: &Worker, cfg: &RunConfig, r: &mut ScopeResult) {
    if r.input.is_some() {
        return;
    }
    if let (Some(method), Some(index)) = (&r.method, r.index) {
        let method = cfg.methods.iter().position(|x| x == method);
        r.input = method.map(|method| {
            render_at(
                worker,
                &cfg.inputs_dir,
                Position {
                    scope: r.scope,
                    method,
                    index,
                },
            )
        });
    }
}

/// A mutant that no input of `scopes` reaches: it survives each of them without a process,
/// having skipped the `inputs` executions a run on every input would have made.
fn unreached_results(
    mutant: u32,
    scopes: RangeInclusive<u32>,
    inputs: u64,
) -> (Vec<ScopeResult>, Timing) {
    let results = scopes
        .map(|s| ScopeResult::survived(mutant, s, 0))
        .collect();
    let timing = Timing {
        skipped: inputs,
        unreached: 1,
        ..Timing::default()
    };
    (results, timing)
}

/// The metamutant with no mutant active, under the mutants' limits, on every scope: it runs
/// the original against itself and must survive. If it does not, the limits are ones the
/// original cannot meet, and every mutant would be "killed" by them. One process over every
/// input: with `progress`, a bar of the inputs done, read from its cursor file.
pub(super) fn control_run(
    worker: &Worker,
    scopes: RangeInclusive<u32>,
    cfg: &RunConfig,
    progress: bool,
) -> Result<()> {
    // On every input: no mutation point is the original's.
    let full = RunConfig {
        reach: false,
        ..cfg.clone()
    };
    let due = [DueMutant {
        mutant: NO_MUTANT,
        from: *scopes.start(),
    }];
    let positions = progress
        .then(|| prepare::Positions::new(&cfg.inputs_dir, scopes.clone(), cfg.methods.len()));
    let total = positions.as_ref().map_or(0, |p| p.total());
    let bar = prepare::ClearOnDrop::new(ferastrau_console::term::meter(
        progress,
        "limits check",
        total,
        "inputs",
    ));
    let poll =
        positions.and_then(|p| p.follow(bar.bar(), crate::runner::cursor_path(cfg, NO_MUTANT)));
    let ran = run_mutants(worker, &due, *scopes.end(), &full, &|_| {});
    drop(poll);
    drop(bar);
    let (results, _) = ran?;
    if interrupt::requested() {
        return Ok(());
    }
    if let Some(r) = results.iter().find(|r| r.killed()) {
        let reason = r.reason.map_or("?", |x| x.as_str());
        let hint = match r.reason {
            Some(Reason::Timeout) => {
                "raise --tick-factor/--tick-floor or --timeout-factor/--timeout-floor"
            }
            Some(Reason::Memory | Reason::Crash) => "raise --memory-limit",
            _ => "the metamutant with no mutant active differs from the original: a mutator bug",
        };
        return Err(broken(format!(
            "the limits are ones the original itself cannot meet: with no mutant active, scope {} ends by {reason}{} on {} input #{} ({}); {hint}",
            r.scope,
            r.limit.map(|l| format!(" ({l:?} limit)").to_lowercase()).unwrap_or_default(),
            r.method.as_deref().unwrap_or("?"),
            r.index.map_or("?".into(), |i| i.to_string()),
            r.detail.as_deref().unwrap_or("")
        )));
    }
    Ok(())
}
