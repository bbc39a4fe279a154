//! A scope run again alone in a fresh child: how the runner turns a death or a clock timeout
//! into a verdict. A death is evidence, not yet a kill, until a second one the mutant could
//! have caused confirms it ([`judge_death`]); a clock timeout counts once it happens again
//! under wider clock limits ([`confirm_clock_timeout`]).

use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use ferastrau_artifacts::ScopeResult;
use ferastrau_console::exit_code::broken;
use ferastrau_protocol::{DueMutant, Kill, Limit, Limits, Message, Reason};

use super::{confirming, scope_result, spawn, RunConfig, Timing, CONFIRM_FACTOR};
use crate::process::Death;
use crate::worker::Worker;

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
    let due = [DueMutant {
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
pub(super) fn clock_kill(position: &ferastrau_protocol::Position, limit: Duration) -> Kill {
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
pub(super) fn confirm_clock_timeout(
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
pub(super) fn judge_death(
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
