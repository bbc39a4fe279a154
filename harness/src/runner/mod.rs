//! Running one mutant in child processes of the metamutant worker, so that a hung, exploding
//! or crashing mutant costs only itself.
//!
//! One child runs several mutants in turn, each over a range of scopes, and sends a message per
//! finished scope (starting a process costs more than a small scope's whole run). If the child
//! dies in a later mutant, nothing is recorded: a new child runs that mutant first, so that a
//! death is only ever judged in a fresh process (never one an earlier mutant could have left
//! short of memory). If it dies (stack overflow, abort, memory limit, `exit`, the guard timer)
//! in the first mutant it ran, the death is evidence, not yet a verdict ([`retrial`]): the
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
use ferastrau_protocol::{DueMutant, Kill, Limit, Message, Reason, Request};

use crate::process::{Death, Ending, Isolation};
use crate::worker::Worker;
use ferastrau_artifacts::{ScopeResult, Status};

mod retrial;

use retrial::{clock_kill, confirm_clock_timeout, judge_death};

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
    fn batch_guard(&self, due: &[DueMutant], last: u32, limits: &Limits) -> Duration {
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
    due: &[DueMutant],
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
    due: &[DueMutant],
    last: u32,
    cfg: &RunConfig,
    on_result: OnResult<'_>,
) -> Result<(Vec<ScopeResult>, Timing)> {
    let queue: VecDeque<DueMutant> = due.iter().copied().filter(|d| d.from <= last).collect();
    // Mutants run by one call are run by no other at the same time: the first one's id names
    // the cursor file uniquely.
    let Some(first) = queue.front() else {
        return Ok((Vec::new(), Timing::default()));
    };
    let mut batch = Batch {
        worker,
        cfg,
        last,
        on_result,
        cursor: cursor_path(cfg, first.mutant),
        queue,
        done: Vec::new(),
        timing: Timing::default(),
    };
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
    while !batch.queue.is_empty() && !crate::interrupt::requested() {
        let todo: Vec<DueMutant> = batch.queue.iter().copied().collect();
        let Some(f) = spawn(
            worker,
            &todo,
            last,
            cfg.limits,
            cohorts,
            cfg,
            &batch.cursor,
            &mut batch.timing,
            &watch,
        )?
        else {
            break;
        };
        if cohorts && !f.completed() && !recycled_by(&f) {
            // Whatever it reported is final (whole cohorts and lone mutants, in order);
            // the rest runs again, alone.
            batch.keep_cohorts(&f)?;
            cohorts = false;
            continue;
        }
        let Some(ending) = batch.read_child(&f)? else {
            break;
        };
        if !batch.judge_ending(&f, ending)? {
            break;
        }
    }
    let _ = std::fs::remove_file(&batch.cursor);
    Ok((batch.done, batch.timing))
}

/// The state of one [`run_mutants`] call: the mutants still due, in order, and what the
/// children have come to so far.
struct Batch<'a> {
    worker: &'a Worker,
    cfg: &'a RunConfig,
    last: u32,
    on_result: OnResult<'a>,
    /// The cursor file every child of the batch writes.
    cursor: PathBuf,
    /// The mutants due, each from the scope it is due at; the head is the one running.
    queue: VecDeque<DueMutant>,
    done: Vec<ScopeResult>,
    timing: Timing,
}

/// How a child that ran mutants one after another ended, as its messages tell.
struct ChildEnd {
    /// Whether the mutant at the head of the queue was the child's first one.
    fresh: bool,
    /// Whether it ended on purpose: after a clock timeout, or to be replaced.
    on_purpose: bool,
}

impl Batch<'_> {
    /// Takes a scope the child reported finished: the head's, in turn; whether the head is
    /// done with every scope (and dropped).
    fn finish_scope(
        &mut self,
        (mutant, scope): (u32, u32),
        kill: &Option<Kill>,
        (executions, skipped, seconds): (u64, u64, f64),
    ) -> Result<bool> {
        head_at(&self.queue, mutant, scope)?;
        self.timing.scope(seconds, executions, skipped);
        self.done
            .push(scope_result(self.cfg, mutant, scope, kill, executions));
        Ok(advance(&mut self.queue, scope + 1, self.last))
    }

    /// A result judged after its child ended: told, and kept.
    fn judged(&mut self, r: ScopeResult) {
        (self.on_result)(&r);
        self.done.push(r)
    }

    /// Keeps what a child that ended inside a cohort reported.
    fn keep_cohorts(&mut self, f: &crate::process::Finished) -> Result<()> {
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
                    self.finish_scope((*mutant, *scope), kill, (*executions, *skipped, *seconds))?;
                }
                Message::Error { message } => bail!("the worker failed: {message}"),
                _ => {}
            }
        }
        Ok(())
    }

    /// Takes the messages of a child that ran mutants one after another, confirming a clock
    /// timeout it reports; how it ended, or `None` if interrupted.
    fn read_child(&mut self, f: &crate::process::Finished) -> Result<Option<ChildEnd>> {
        let mut ending = ChildEnd {
            fresh: true,
            on_purpose: false,
        };
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
                    let dropped = self.finish_scope(
                        (*mutant, *scope),
                        kill,
                        (*executions, *skipped, *seconds),
                    )?;
                    // Past its first mutant, the child is no longer fresh.
                    ending.fresh &= !dropped;
                }
                Message::ClockTimeout { position, limit } => {
                    // The watchdog ends the process after this message, on purpose.
                    ending.on_purpose = true;
                    let head = *self
                        .queue
                        .front()
                        .context("a clock timeout after every mutant")?;
                    head_at(&self.queue, head.mutant, position.scope)?;
                    let first = self.cfg.kill_result(
                        head.mutant,
                        position.scope,
                        clock_kill(position, *limit),
                    );
                    let confirmed = confirm_clock_timeout(
                        self.worker,
                        first,
                        self.cfg,
                        &self.cursor,
                        &mut self.timing,
                    )?;
                    let Some(r) = confirmed else {
                        return Ok(None);
                    };
                    self.judged(r);
                    advance(&mut self.queue, position.scope + 1, self.last);
                }
                // Ended on purpose between two scopes, its abandoned calls' leaks at their
                // allowance: nothing to judge.
                Message::Recycle { .. } => ending.on_purpose = true,
                Message::Error { message } => {
                    // Only the worker itself sends this (the code under test cannot reach
                    // the channel by accident): a harness bug or a damaged work directory.
                    let on = self
                        .queue
                        .front()
                        .map_or(String::new(), |d| format!(" on mutant {}", d.mutant));
                    bail!("the worker failed{on}: {message}")
                }
                _ => {}
            }
        }
        Ok(Some(ending))
    }

    /// Judges how a child that ran mutants one after another ended, once its messages are
    /// taken; whether the batch goes on (`false` if interrupted, or if nothing is left).
    fn judge_ending(&mut self, f: &crate::process::Finished, ending: ChildEnd) -> Result<bool> {
        let Some(&head) = self.queue.front() else {
            return Ok(false);
        };
        if f.completed() {
            bail!(
                "the worker finished without results for mutant {} from scope {}",
                head.mutant,
                head.from
            );
        }
        if ending.on_purpose {
            // Ended on purpose after a clock timeout or to be replaced: a new child takes
            // the rest.
            return Ok(true);
        }
        if ending.fresh {
            // The child died inside the first mutant it ran: evidence against the mutant,
            // judged by running the scope again in a fresh child.
            let judged = judge_death(
                self.worker,
                head.mutant,
                head.from,
                f.death(),
                self.cfg,
                &self.cursor,
                &mut self.timing,
            )?;
            let Some(r) = judged else {
                return Ok(false);
            };
            self.judged(r);
            advance(&mut self.queue, head.from + 1, self.last);
        }
        // Otherwise it died in a mutant that followed others: the next child runs that one
        // first, and its death (if it dies again) is judged there.
        Ok(true)
    }
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
fn head_at(queue: &VecDeque<DueMutant>, mutant: u32, scope: u32) -> Result<()> {
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
fn advance(queue: &mut VecDeque<DueMutant>, next: u32, last: u32) -> bool {
    let Some(d) = queue.front_mut() else {
        return false;
    };
    d.from = d.from.max(next);
    d.from > last && queue.pop_front().is_some()
}
