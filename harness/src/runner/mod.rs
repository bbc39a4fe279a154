//! Running one mutant in child processes of the metamutant worker, so that a hung, exploding
//! or crashing mutant costs only itself.
//!
//! One child runs several mutants in turn, each over a range of scopes, and sends a message per
//! finished scope (starting a process costs more than a small scope's whole run). If the child
//! dies in a later mutant, nothing is recorded: a new child runs that mutant first, so that a
//! death is only ever judged in a fresh process (never one an earlier mutant could have left
//! short of memory). If it dies (stack overflow, abort, memory limit, `exit`, the guard timer)
//! in the first mutant it ran, the death is evidence, not yet a verdict ([`judge_death`]): the
//! scope runs again in a fresh process, and only a second death the mutant could have caused
//! makes a kill (its reason read from how it died, the input from the cursor file). A death
//! from outside ([`Death::is_from_outside`]: SIGKILL, SIGBUS, ...) is never a kill: the scope
//! is retried, and a run where it persists stops as broken. Clock timeouts are confirmed in the
//! same way, with wider limits. Whatever the mutant prints, and however it exits, only the
//! worker's messages on the protocol channel count.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use ferastrau_protocol::Limits;
use ferastrau_protocol::{Due, Kill, Limit, Message, Reason, Request};

use crate::process::{Death, Ending, Isolation};
use crate::worker::Worker;
use ferastrau_artifacts::{ScopeResult, Status};
use ferastrau_console::exit_code::broken;

/// Limits and places shared by every mutant of a run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Where the scopes' inputs and the original's times are stored.
    pub inputs_dir: PathBuf,
    /// Where each mutant's cursor file goes.
    pub scratch_dir: PathBuf,
    pub methods: Vec<String>,
    pub limits: ferastrau_protocol::Limits,
    /// Address-space limit of a mutant process, in bytes.
    pub memory_limit: u64,
    /// The original's total seconds per scope (for the whole-process guard).
    pub original_seconds: Vec<(u32, f64)>,
    /// Run each mutant only on the inputs that reach its mutation point.
    pub reach: bool,
    /// What a mutant's outputs are compared with the original's by.
    pub comparison: ferastrau_protocol::Comparison,
}

impl RunConfig {
    /// How long a child may run over `scopes` before it is killed as a whole: generous, since
    /// per-input limits are enforced inside the child; this only catches a child that stopped
    /// responding to them.
    pub(crate) fn guard(
        &self,
        scopes: &std::ops::RangeInclusive<u32>,
        limits: &Limits,
    ) -> Duration {
        let original: f64 = self
            .original_seconds
            .iter()
            .filter(|(s, _)| scopes.contains(s))
            .map(|(_, t)| t)
            .sum();
        let floor = limits
            .timeout_floor
            .min(Duration::from_secs(3600))
            .saturating_mul(2);
        guard_base()
            .saturating_add(floor)
            .saturating_add(Duration::from_secs_f64((original * 20.0).min(1e7)))
    }

    /// The guard of a child running `due` in turn: the sum of each mutant's own.
    fn batch_guard(&self, due: &[Due], last: u32, limits: &Limits) -> Duration {
        due.iter()
            .map(|d| self.guard(&(d.from..=last), limits))
            .fold(Duration::ZERO, Duration::saturating_add)
    }

    fn kill_result(&self, mutant: u32, scope: u32, kill: Kill) -> ScopeResult {
        ScopeResult {
            mutant,
            scope,
            status: Status::Killed,
            reason: Some(kill.reason),
            limit: kill.limit,
            method: self.methods.get(kill.method).cloned(),
            index: Some(kill.index),
            input: kill.input,
            detail: Some(kill.detail),
            executions: None,
        }
    }

    /// The kill of a child that died inside `mutant`'s `scope`, at the input its cursor file
    /// names.
    fn death_result(&self, mutant: u32, scope: u32, death: &Death, cursor: &Path) -> ScopeResult {
        let (reason, limit, detail) = classify(death);
        let pos = ferastrau_protocol::cursor::read_file(cursor)
            .filter(|w| w.scope == scope && w.mutant == mutant)
            .map(|w| w.position());
        ScopeResult {
            mutant,
            scope,
            status: Status::Killed,
            reason: Some(reason),
            limit,
            method: pos.and_then(|p| self.methods.get(p.method).cloned()),
            index: pos.map(|p| p.index),
            input: None,
            detail: Some(detail),
            executions: None,
        }
    }
}

/// The guard's fixed part: a minute; in Ferastrau's own fault-injection tests (see
/// `ferastrau_worker::fault`), `FERASTRAU_FAULT_GUARD_MS` milliseconds, so that a stopped
/// worker meets its guard in seconds.
fn guard_base() -> Duration {
    std::env::var("FERASTRAU_FAULT_GUARD_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(Duration::from_secs(60), Duration::from_millis)
}

/// How much wider the clock limits of a confirmation run are (factor and floor alike).
///
/// The clock limit is the one kill criterion that depends on the machine rather than on the
/// mutant: a process descheduled for a second on a loaded box looks like a loop. Ticks are
/// deterministic and catch every loop in code that ticks, so a clock timeout is rare (no
/// committed report has one) and confirming it costs little; an equivalent mutant killed by
/// load would be a wrong kill rate with exit status 0.
pub const CONFIRM_FACTOR: u32 = 10;

/// `limits` with the clock limits [`CONFIRM_FACTOR`] times wider and the tick budget unchanged:
/// what a clock timeout is confirmed under, in a first-kill run and in a kill-matrix row alike
/// (a load spike that stalls a child past the clock limit must not become a kill).
pub(crate) fn confirming(limits: &Limits) -> Limits {
    Limits {
        timeout_factor: limits.timeout_factor * f64::from(CONFIRM_FACTOR),
        timeout_floor: limits.timeout_floor.saturating_mul(CONFIRM_FACTOR),
        ..*limits
    }
}

/// Where a mutant's time went, for the runner's own performance figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Child processes started.
    pub children: u64,
    /// Their wall-clock time, start to exit.
    pub child_seconds: f64,
    /// Seconds the children spent on inputs (as they report it).
    pub work_seconds: f64,
    /// Mutant × input executions.
    pub executions: u64,
    /// Executions a run on every input would have made that reach selection skipped.
    pub skipped: u64,
    /// Mutants that no input reached at any scope they were due: no process ran them.
    pub unreached: u64,
}

impl Timing {
    /// Counts one scope a child reported finished.
    fn scope(&mut self, seconds: f64, executions: u64, skipped: u64) {
        self.work_seconds += seconds;
        self.executions += executions;
        self.skipped += skipped;
    }

    pub fn add(&mut self, o: &Timing) {
        self.children += o.children;
        self.child_seconds += o.child_seconds;
        self.work_seconds += o.work_seconds;
        self.executions += o.executions;
        self.skipped += o.skipped;
        self.unreached += o.unreached;
    }
}

/// The kill reason of a child that died inside a scope: (reason, timeout limit, detail).
pub(crate) fn classify(death: &Death) -> (Reason, Option<Limit>, String) {
    match death {
        Death::Guard => (
            Reason::Timeout,
            Some(Limit::Guard),
            "the process ran past its overall time limit".into(),
        ),
        Death::Memory(m) => (Reason::Memory, None, m.clone()),
        Death::StackOverflow => (Reason::Crash, None, "stack overflow".into()),
        Death::Panic(p) => (
            Reason::Crash,
            None,
            format!("panicked outside the judged call: {p}"),
        ),
        Death::Signal(s) => (
            Reason::Crash,
            None,
            format!("the process was killed by signal {s}"),
        ),
        Death::Exit(c) => (
            Reason::Crash,
            None,
            format!("the process exited with status {c} in the middle of a run"),
        ),
        Death::Interrupted => unreachable!("interrupted runs record nothing"),
    }
}

/// One child process running the mutants of `due` in turn, each up to scope `last`, under
/// `limits` (in cohorts when `cohorts`: `Request::Mutants`), its messages handed to `watch`
/// as they come; `None` if interrupted.
#[allow(clippy::too_many_arguments)]
fn spawn(
    worker: &Worker,
    due: &[Due],
    last: u32,
    limits: Limits,
    cohorts: bool,
    cfg: &RunConfig,
    cursor: &Path,
    timing: &mut Timing,
    watch: &(dyn Fn(&Message) + Sync),
) -> Result<Option<crate::process::Finished>> {
    let _ = std::fs::remove_file(cursor);
    let isolation = Isolation {
        memory_limit: Some(cfg.memory_limit),
        stdout: None,
        guard: Some(cfg.batch_guard(due, last, &limits)),
    };
    let request = Request::Mutants {
        mutants: due.to_vec(),
        to: last,
        dir: cfg.inputs_dir.clone(),
        cursor: cursor.to_path_buf(),
        limits,
        reach: cfg.reach,
        comparison: cfg.comparison,
        cohorts,
    };
    let started = Instant::now();
    let f = crate::process::run_watched(&worker.exe, &request, &isolation, watch)?;
    timing.children += 1;
    timing.child_seconds += started.elapsed().as_secs_f64();
    Ok((!matches!(f.ending, Ending::Interrupted)).then_some(f))
}

/// The result of a finished scope as the child reported it.
fn scope_result(
    cfg: &RunConfig,
    mutant: u32,
    scope: u32,
    kill: &Option<Kill>,
    executions: u64,
) -> ScopeResult {
    let mut r = match kill {
        Some(k) => cfg.kill_result(mutant, scope, k.clone()),
        None => ScopeResult::survived(mutant, scope, executions),
    };
    r.executions = Some(executions);
    r
}

/// What a fresh child running one mutant at one scope came to.
enum Rerun {
    /// It finished the scope: killed or survived, as judged inside.
    Finished(ScopeResult),
    /// Its watchdog saw an input run past the clock limit (the kill it would be, the limit).
    ClockTimeout(Kill, Duration),
    /// It died before finishing the scope.
    Died(Death),
}

/// Runs `mutant` at `scope` alone in a new child under `limits`; `None` if interrupted.
fn rerun(
    worker: &Worker,
    mutant: u32,
    scope: u32,
    limits: Limits,
    cfg: &RunConfig,
    cursor: &Path,
    timing: &mut Timing,
) -> Result<Option<Rerun>> {
    let due = [Due {
        mutant,
        from: scope,
    }];
    let Some(f) = spawn(
        worker,
        &due,
        scope,
        limits,
        false,
        cfg,
        cursor,
        timing,
        &|_| {},
    )?
    else {
        return Ok(None);
    };
    for m in &f.messages {
        match m {
            Message::Scope {
                mutant: m,
                scope: s,
                kill,
                executions,
                skipped,
                seconds,
            } if *s == scope && *m == mutant => {
                timing.scope(*seconds, *executions, *skipped);
                return Ok(Some(Rerun::Finished(scope_result(
                    cfg,
                    mutant,
                    scope,
                    kill,
                    *executions,
                ))));
            }
            Message::ClockTimeout { position, limit } => {
                return Ok(Some(Rerun::ClockTimeout(
                    clock_kill(position, *limit),
                    *limit,
                )));
            }
            Message::Error { message } => {
                bail!("the worker failed on mutant {mutant}: {message}")
            }
            _ => {}
        }
    }
    if f.completed() {
        bail!("the worker finished mutant {mutant} without a result for scope {scope}");
    }
    Ok(Some(Rerun::Died(f.death())))
}

/// The kill a clock timeout at `position` would be, before it is confirmed.
fn clock_kill(position: &ferastrau_protocol::Position, limit: Duration) -> Kill {
    Kill {
        reason: Reason::Timeout,
        limit: Some(Limit::Clock),
        method: position.method,
        index: position.index,
        input: None,
        detail: format!(
            "over the clock limit of {:.3} s on one input",
            limit.as_secs_f64()
        ),
    }
}

/// Runs `first`'s scope again in a new child with clock limits [`CONFIRM_FACTOR`] times
/// wider (the tick budget unchanged) and returns what that run finds: the clock timeout
/// again (confirmed, its detail says so), another kill, or survival. `None` if interrupted.
/// The inputs before the timed-out one behave as before (the code is deterministic), so the
/// confirmation's first kill can only be at that input or later.
fn confirm_clock_timeout(
    worker: &Worker,
    first: ScopeResult,
    cfg: &RunConfig,
    cursor: &Path,
    timing: &mut Timing,
) -> Result<Option<ScopeResult>> {
    let (mutant, scope) = (first.mutant, first.scope);
    let limits = confirming(&cfg.limits);
    Ok(
        match rerun(worker, mutant, scope, limits, cfg, cursor, timing)? {
            None => None,
            Some(Rerun::Finished(r)) => Some(r),
            Some(Rerun::ClockTimeout(_, limit)) => {
                let detail = first.detail.clone().unwrap_or_default();
                Some(ScopeResult {
                    detail: Some(format!(
                        "{detail}, and again over {:.3} s when re-run with the clock limits {CONFIRM_FACTOR}x wider",
                        limit.as_secs_f64()
                    )),
                    ..first
                })
            }
            Some(Rerun::Died(death)) => {
                judge_death(worker, mutant, scope, death, cfg, cursor, timing)?
            }
        },
    )
}

/// How many deaths from outside in a row one mutant's scope may meet before the run stops:
/// a fault that passes (a `kill -9`, a stopped machine) is retried, one that persists (a
/// full scratch disk, an OOM killer that picks every worker) makes every verdict suspect.
pub const OUTSIDE_DEATHS: u32 = 3;

/// The verdict on `mutant` at `scope` after its first child died there of `death`: the scope
/// runs again in fresh children until it either finishes (that is the verdict: the death was
/// not the mutant's doing, e.g. a worker stopped past the guard) or dies a second time of a
/// cause the mutant could have produced (a confirmed kill, reported as the first such death
/// was). Deaths from outside ([`Death::is_from_outside`]) never
/// count: after [`OUTSIDE_DEATHS`] of them the run stops as broken (exit status 4), naming
/// the fault. `None` if interrupted.
fn judge_death(
    worker: &Worker,
    mutant: u32,
    scope: u32,
    death: Death,
    cfg: &RunConfig,
    cursor: &Path,
    timing: &mut Timing,
) -> Result<Option<ScopeResult>> {
    let mut death = death;
    let mut outside = 0;
    // The first death the mutant could have caused, as a kill: read at once, while the cursor
    // file still names its input. A second such death confirms it (the first is the one the
    // report shows, as an unconfirmed run would have: a memory death's allocation size, say,
    // differs from one process to the next).
    let mut evidence: Option<ScopeResult> = None;
    loop {
        if death.is_from_outside() {
            outside += 1;
            if outside >= OUTSIDE_DEATHS {
                return Err(broken(format!(
                    "infrastructure failure: the worker process running mutant {mutant} at scope {scope} {death} {outside} times in a row, \
                     a death the code under test cannot cause (the OOM killer or a cgroup limit for signal 9, a full scratch file system \
                     for signal 7 (SIGBUS)); no verdict was recorded for it: free the resource and run again with --resume"
                )));
            }
        } else if let Some(kill) = evidence.take() {
            return Ok(Some(kill));
        } else {
            evidence = Some(cfg.death_result(mutant, scope, &death, cursor));
        }
        match rerun(worker, mutant, scope, cfg.limits, cfg, cursor, timing)? {
            None => return Ok(None),
            Some(Rerun::Finished(r)) => return Ok(Some(r)),
            Some(Rerun::ClockTimeout(kill, _)) => {
                let first = cfg.kill_result(mutant, scope, kill);
                return confirm_clock_timeout(worker, first, cfg, cursor, timing);
            }
            Some(Rerun::Died(again)) => death = again,
        }
    }
}

/// Hears of each result of [`run_mutants`] as soon as it is final, while the batch still runs
/// (on whatever thread learns of it): a progress line counts kills and survivals as they come
/// instead of a batch at a time. Told exactly once per result returned, and of nothing else.
pub type OnResult<'a> = &'a (dyn Fn(&ScopeResult) + Sync);

/// Where the child running a batch whose first mutant is `first` keeps its cursor file: one
/// batch runs each mutant, so the name is unique while it runs. Public for progress, which
/// reads where a long batch (the limits check's) has got.
pub fn cursor_path(cfg: &RunConfig, first: u32) -> PathBuf {
    cfg.scratch_dir.join(format!("mutant-{first}.cursor"))
}

/// Runs the mutants of `due` (each from its first scope) up to scope `last`, several to a
/// child process, returning one result per mutant and scope (fewer if interrupted), each also
/// told to `on_result` as soon as it is final. Kills by a dead process carry the input's
/// position but not its rendering (see the caller). A clock timeout counts only once
/// confirmed ([`confirm_clock_timeout`]).
pub fn run_mutants(
    worker: &Worker,
    due: &[Due],
    last: u32,
    cfg: &RunConfig,
    on_result: OnResult<'_>,
) -> Result<(Vec<ScopeResult>, Timing)> {
    let mut timing = Timing::default();
    let mut done: Vec<ScopeResult> = Vec::new();
    let mut queue: VecDeque<Due> = due.iter().copied().filter(|d| d.from <= last).collect();
    // Mutants run by one call are run by no other at the same time: the first one's id names
    // the cursor file uniquely.
    let Some(first) = queue.front() else {
        return Ok((done, timing));
    };
    let cursor = cursor_path(cfg, first.mutant);
    // A finished scope's result is final as the child sends it (one that dies later keeps
    // it): told at once. Results judged here after the child ends are told below.
    let watch = |m: &Message| {
        if let Message::Scope {
            mutant,
            scope,
            kill,
            executions,
            ..
        } = m
        {
            on_result(&scope_result(cfg, *mutant, *scope, kill, *executions));
        }
    };
    // Mutants that take the same inputs run as cohorts ([`Request::Mutants`]) until a child
    // ends inside one, which cannot say which of its mutants ended it: from then on, one
    // mutant after another, so that a death or a timeout names its mutant.
    let mut cohorts = cohorts_wanted();
    'children: while !queue.is_empty() && !crate::interrupt::requested() {
        let batch: Vec<Due> = queue.iter().copied().collect();
        let Some(f) = spawn(
            worker,
            &batch,
            last,
            cfg.limits,
            cohorts,
            cfg,
            &cursor,
            &mut timing,
            &watch,
        )?
        else {
            break;
        };
        if cohorts && !f.completed() && !recycled_by(&f) {
            // Whatever it reported is final (whole cohorts and lone mutants, in order);
            // the rest runs again, alone.
            for m in &f.messages {
                match m {
                    Message::Scope {
                        mutant,
                        scope,
                        kill,
                        executions,
                        skipped,
                        seconds,
                    } => {
                        head_at(&queue, *mutant, *scope)?;
                        timing.scope(*seconds, *executions, *skipped);
                        done.push(scope_result(cfg, *mutant, *scope, kill, *executions));
                        advance(&mut queue, scope + 1, last);
                    }
                    Message::Error { message } => bail!("the worker failed: {message}"),
                    _ => {}
                }
            }
            cohorts = false;
            continue;
        }
        // Whether the mutant at the head of the queue is still the child's first one.
        let mut fresh = true;
        let mut clock_timeout = false;
        let mut recycled = false;
        for m in &f.messages {
            match m {
                Message::Scope {
                    mutant,
                    scope,
                    kill,
                    executions,
                    skipped,
                    seconds,
                } => {
                    head_at(&queue, *mutant, *scope)?;
                    timing.scope(*seconds, *executions, *skipped);
                    done.push(scope_result(cfg, *mutant, *scope, kill, *executions));
                    if advance(&mut queue, scope + 1, last) {
                        fresh = false;
                    }
                }
                Message::ClockTimeout { position, limit } => {
                    // The watchdog ends the process after this message, on purpose.
                    clock_timeout = true;
                    let head = *queue
                        .front()
                        .context("a clock timeout after every mutant")?;
                    head_at(&queue, head.mutant, position.scope)?;
                    let first =
                        cfg.kill_result(head.mutant, position.scope, clock_kill(position, *limit));
                    match confirm_clock_timeout(worker, first, cfg, &cursor, &mut timing)? {
                        Some(r) => {
                            on_result(&r);
                            done.push(r)
                        }
                        None => break 'children,
                    }
                    advance(&mut queue, position.scope + 1, last);
                }
                // Ended on purpose between two scopes, its abandoned calls' leaks at their
                // allowance: nothing to judge.
                Message::Recycle { .. } => recycled = true,
                Message::Error { message } => {
                    // Only the worker itself sends this (the code under test cannot reach
                    // the channel by accident): a harness bug or a damaged work directory.
                    let on = queue
                        .front()
                        .map_or(String::new(), |d| format!(" on mutant {}", d.mutant));
                    bail!("the worker failed{on}: {message}")
                }
                _ => {}
            }
        }
        let Some(&head) = queue.front() else {
            break;
        };
        if f.completed() {
            bail!(
                "the worker finished without results for mutant {} from scope {}",
                head.mutant,
                head.from
            );
        }
        if clock_timeout || recycled {
            // Ended on purpose after a clock timeout or to be replaced: a new child takes
            // the rest.
            continue;
        }
        if fresh {
            // The child died inside the first mutant it ran: evidence against the mutant,
            // judged by running the scope again in a fresh child.
            let judged = judge_death(
                worker,
                head.mutant,
                head.from,
                f.death(),
                cfg,
                &cursor,
                &mut timing,
            )?;
            match judged {
                Some(r) => {
                    on_result(&r);
                    done.push(r)
                }
                None => break 'children,
            }
            advance(&mut queue, head.from + 1, last);
        }
        // Otherwise it died in a mutant that followed others: the next child runs that one
        // first, and its death (if it dies again) is judged there.
    }
    let _ = std::fs::remove_file(&cursor);
    Ok((done, timing))
}

/// `FERASTRAU_COHORTS=0` runs every mutant alone, one after another, as before cohorts: the
/// tests compare the two, whose results must be the same. Anything else, or unset, runs
/// cohorts.
pub const COHORTS_VAR: &str = "FERASTRAU_COHORTS";

fn cohorts_wanted() -> bool {
    std::env::var_os(COHORTS_VAR).is_none_or(|v| v != "0")
}

/// Whether the child ended on purpose, between two scopes or cohorts, to be replaced
/// ([`Message::Recycle`]).
fn recycled_by(f: &crate::process::Finished) -> bool {
    f.messages
        .iter()
        .any(|m| matches!(m, Message::Recycle { .. }))
}

/// Checks that the head of the queue is `mutant` due at `scope`: the worker reports each
/// mutant's scopes in order, a mutant's before the next one's.
fn head_at(queue: &VecDeque<Due>, mutant: u32, scope: u32) -> Result<()> {
    match queue.front() {
        Some(d) if d.mutant == mutant && d.from == scope => Ok(()),
        Some(d) => bail!(
            "the worker reported mutant {mutant} at scope {scope} out of turn (mutant {} at scope {} was due)",
            d.mutant,
            d.from
        ),
        None => bail!("the worker reported mutant {mutant} at scope {scope} after every mutant"),
    }
}

/// Moves the head of the queue on to scope `next`, dropping it past `last`; whether it was
/// dropped (done with every scope).
fn advance(queue: &mut VecDeque<Due>, next: u32, last: u32) -> bool {
    let Some(d) = queue.front_mut() else {
        return false;
    };
    d.from = d.from.max(next);
    d.from > last && queue.pop_front().is_some()
}
