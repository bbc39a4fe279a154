//! `evaluate --next-scope`: the survivors of the run's largest scope s run again at s + 1, and
//! each is marked in `mutants.json` with what that said (survives it too, killed there and
//! how, or not run and why), which the survivor list, `--format json` and the page show. A
//! survivor is either a gap in the inputs or an equivalent mutant; one more scope is the
//! cheapest evidence between the two. Without the flag, the run offers it when it is cheap.
//!
//! The survivors run as `evaluate --scopes s+1 --only-mutants IDS` would run them, in a scratch
//! directory under the crate's target directory (its reports are not the user's run), with
//! everything else of the command line kept: the same sample, limits and comparison.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use ferastrau_artifacts::{NextScopeStep, ScopeRun};
use ferastrau_console::exit_code::Interrupted;
use ferastrau_console::term::duration;
use ferastrau_harness::evaluate::budget;
use ferastrau_harness::evaluate::next_scope::{self, NextScope};
use ferastrau_harness::locate::BenchmarkCrate;

use super::args::EvaluateArgs;
use super::evaluate::{run_evaluation, Show};

/// The largest estimate offered without being asked: a minute, about what a user waits for
/// without switching to something else.
const CHEAP_SECONDS: f64 = 60.0;

/// What the run says about scope s + 1 after its survivor list.
pub(super) enum Step {
    /// No survivor, a scope past the estimate's reach, or one too costly to offer.
    Nothing,
    /// `--next-scope` was not given and scope s + 1 is cheap: the run names the flag.
    Offer {
        survivors: usize,
        scope: u32,
        seconds: f64,
    },
    /// The survivors ran at scope s + 1 (or were marked not run, and why).
    Ran { scope: u32, marks: Vec<NextScope> },
}

impl Step {
    /// The line after the survivor list, if any.
    pub(super) fn line(&self) -> Option<String> {
        match self {
            Step::Nothing => None,
            Step::Offer {
                survivors,
                scope,
                seconds,
            } => Some(format!(
                "next: --next-scope runs the {survivors} survivor(s) at scope {scope} too (about {})",
                duration(Duration::from_secs_f64(seconds.max(1.0)))
            )),
            Step::Ran { scope, marks } => {
                let count = |f: fn(&NextScope) -> bool| marks.iter().filter(|m| f(m)).count();
                Some(format!(
                    "scope {scope} (--next-scope): {} survive it too, {} killed there, {} not run",
                    count(|m| matches!(m, NextScope::Survived { .. })),
                    count(|m| matches!(m, NextScope::Killed { .. })),
                    count(|m| matches!(m, NextScope::NotRun { .. })),
                ))
            }
        }
    }

    /// `--format json`'s `next_scope`: the offer or the outcome.
    pub(super) fn printed(&self) -> Option<NextScopeStep> {
        match *self {
            Step::Nothing => None,
            Step::Offer { scope, seconds, .. } => Some(NextScopeStep {
                estimated_seconds: Some(seconds),
                offered: true,
                scope,
            }),
            Step::Ran { scope, .. } => Some(NextScopeStep {
                estimated_seconds: None,
                offered: false,
                scope,
            }),
        }
    }
}

/// After the run in `out_dir` (its reports written, not broken, not a shard): runs its
/// survivors at the next scope and marks them, with `--next-scope`; else says whether that
/// is cheap. `scopes` are the run's, `elapsed` the command's time so far (for `--max-time`).
pub(super) fn after(
    a: &EvaluateArgs,
    bench: &BenchmarkCrate,
    out_dir: &Path,
    scopes: &[ScopeRun],
    jobs: usize,
    elapsed: Duration,
) -> Result<Step> {
    let largest = *a.scopes.end();
    let Some(next) = largest.checked_add(1) else {
        return Ok(Step::Nothing);
    };
    let mutants_json = out_dir.join("mutants.json");
    let survivors = next_scope::survivors(&mutants_json, largest)?;
    if survivors.is_empty() {
        return Ok(Step::Nothing);
    }
    let ids: Vec<u32> = survivors.iter().map(|s| s.id).collect();
    let executions = survivors.iter().map(|s| s.executions).sum();
    let estimate = match scopes {
        [.., prev, last] => {
            budget::estimate_seconds(&prev.into(), &last.into(), executions, jobs.max(1))
        }
        _ => None,
    };
    if !a.next_scope {
        return Ok(match estimate {
            Some(seconds) if seconds <= CHEAP_SECONDS => Step::Offer {
                survivors: ids.len(),
                scope: next,
                seconds,
            },
            _ => Step::Nothing,
        });
    }
    let refused = a
        .max_time
        .and_then(|max| budget::refusal(elapsed, estimate, max));
    let marks = match refused {
        Some(why) => next_scope::not_run(&ids, next, &why),
        None => {
            ferastrau_console::stage!(
                "Next scope",
                "running the {} survivor(s) at scope {next}{} (--next-scope)",
                ids.len(),
                estimate
                    .map(|s| format!(", about {}", duration(Duration::from_secs_f64(s.max(1.0)))))
                    .unwrap_or_default()
            );
            let scratch = ferastrau_harness::target_dir::scratch_dir(bench, "next-scope");
            let inner = EvaluateArgs {
                scopes: next..=next,
                out: Some(scratch.clone()),
                only_mutants: ids.clone(),
                next_scope: false,
                resume: false,
                kill_matrix: false,
                in_diff: None,
                shard: None,
                max_time: a.max_time.map(|max| max.saturating_sub(elapsed)),
                ..a.clone()
            };
            match run_evaluation(inner, Show::Nothing) {
                Ok(_) => next_scope::outcomes(&scratch.join("mutants.json"), next)?,
                Err(e) if e.downcast_ref::<Interrupted>().is_some() => return Err(e),
                Err(e) => next_scope::not_run(&ids, next, &format!("its run failed: {e:#}")),
            }
        }
    };
    next_scope::mark(&mutants_json, &marks)?;
    Ok(Step::Ran {
        scope: next,
        marks: ids.iter().filter_map(|id| marks.get(id).cloned()).collect(),
    })
}
