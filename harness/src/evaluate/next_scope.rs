//! Evidence from one more scope: the mutants that survive a run's largest scope s run again at
//! s + 1, and `mutants.json` records what that said (`"next_scope": {"status": "survived" |
//! "killed" | "not_run", "scope": s + 1, ...}`), so that "it survives" rests on one more scope
//! than the run. `evaluate --next-scope` does this for a user's run and `ferastrau-paper
//! reproduce` for the committed reports; both mark the file through this module.
//!
//! `evaluate --next-scope` ([`after`]): the survivors run as `evaluate --scopes s+1
//! --only-mutants IDS` would run them, in a scratch directory under the crate's target
//! directory (its reports are not the user's run), with everything else of the command line
//! kept: the same sample, limits and comparison. Without the flag, the run offers it when it
//! is cheap.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use ferastrau_artifacts::{Artifact, Mutants, NextScopeStep, ScopeRun, Status};
use ferastrau_console::exit_code::Interrupted;
use ferastrau_console::term::duration;

use super::budget;
use super::command::{self, Options, Readers};
use crate::locate::BenchmarkCrate;

/// What scope + 1 said about a survivor of the largest scope (`mutants.json`'s `next_scope`).
pub use ferastrau_artifacts::NextScope;

/// A survivor of a run's largest scope, as the next scope's run needs it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Survivor {
    pub id: u32,
    pub key: String,
    pub next_scope: Option<NextScope>,
    /// Inputs it ran at the largest scope (fewer than the scope's inputs under reach
    /// selection): what its run at scope + 1 grows from.
    pub executions: u64,
}

/// The survivors of `largest` in a `mutants.json`, with their `next_scope` marks if any.
pub fn survivors(mutants_json: &Path, largest: u32) -> Result<Vec<Survivor>> {
    let mut out = Vec::new();
    for m in Mutants::read(mutants_json)?.mutants {
        let Some(o) = m
            .scopes
            .get(&largest)
            .filter(|o| o.status == Status::Survived)
        else {
            continue;
        };
        out.push(Survivor {
            executions: o.executions.unwrap_or_default(),
            id: m.id,
            key: m.key.unwrap_or_default(),
            next_scope: m.next_scope,
        });
    }
    Ok(out)
}

/// The outcome at `scope` of each mutant in a `mutants.json` (the run at scope + 1).
pub fn outcomes(mutants_json: &Path, scope: u32) -> Result<BTreeMap<u32, NextScope>> {
    let mut out = BTreeMap::new();
    for m in Mutants::read(mutants_json)?.mutants {
        let mark = match m.scopes.get(&scope) {
            Some(o) if o.status == Status::Survived => NextScope::Survived { scope },
            Some(o) if o.status == Status::Killed => NextScope::Killed {
                scope,
                // A kill without a reason is not something the journal writes: a crash is
                // what it would have to be (as `report.html` shows it).
                reason: o.reason.unwrap_or(ferastrau_artifacts::Reason::Crash),
            },
            _ => continue,
        };
        out.insert(m.id, mark);
    }
    Ok(out)
}

/// Every mutant of `ids` marked as not run at `scope`, for `why`.
pub fn not_run(ids: &[u32], scope: u32, why: &str) -> BTreeMap<u32, NextScope> {
    ids.iter()
        .map(|id| {
            (
                *id,
                NextScope::NotRun {
                    scope,
                    why: why.to_string(),
                },
            )
        })
        .collect()
}

/// Writes `marks` into `mutants.json` as each mutant's `next_scope` (others untouched).
pub fn mark(mutants_json: &Path, marks: &BTreeMap<u32, NextScope>) -> Result<()> {
    let mut doc = Mutants::read(mutants_json)?;
    for m in &mut doc.mutants {
        if let Some(mark) = marks.get(&m.id) {
            m.next_scope = Some(mark.clone());
        }
    }
    doc.write(mutants_json)
}

/// The largest estimate offered without being asked: a minute, about what a user waits for
/// without switching to something else.
const CHEAP_SECONDS: f64 = 60.0;

/// What the run says about scope s + 1 after its survivor list.
pub enum Step {
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
    /// The step as `--format json` prints it.
    pub fn printed(&self) -> Option<NextScopeStep> {
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
pub fn after<R: Readers>(
    options: &Options,
    readers: &R,
    bench: &BenchmarkCrate,
    out_dir: &Path,
    scopes: &[ScopeRun],
    jobs: usize,
    elapsed: Duration,
) -> Result<Step> {
    let largest = *options.scopes.end();
    let Some(next) = largest.checked_add(1) else {
        return Ok(Step::Nothing);
    };
    let mutants_json = out_dir.join("mutants.json");
    let survivors = survivors(&mutants_json, largest)?;
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
    if !options.next_scope {
        return Ok(match estimate {
            Some(seconds) if seconds <= CHEAP_SECONDS => Step::Offer {
                survivors: ids.len(),
                scope: next,
                seconds,
            },
            _ => Step::Nothing,
        });
    }
    let refused = options
        .max_time
        .and_then(|max| budget::refusal(elapsed, estimate, max));
    let marks = match refused {
        Some(why) => not_run(&ids, next, &why),
        None => {
            ferastrau_console::stage!(
                "Next scope",
                "running the {} survivor(s) at scope {next}{} (--next-scope)",
                ids.len(),
                estimate
                    .map(|s| format!(", about {}", duration(Duration::from_secs_f64(s.max(1.0)))))
                    .unwrap_or_default()
            );
            let scratch = crate::target_dir::scratch_dir(bench, "next-scope");
            let inner = Options {
                scopes: next..=next,
                out: Some(scratch.clone()),
                only_mutants: ids.clone(),
                next_scope: false,
                resume: false,
                kill_matrix: None,
                in_diff: None,
                shard: None,
                max_time: options.max_time.map(|max| max.saturating_sub(elapsed)),
                ..options.clone()
            };
            match command::run(&inner, readers).and_then(command::Outcome::unbroken) {
                Ok(_) => outcomes(&scratch.join("mutants.json"), next)?,
                Err(e) if e.downcast_ref::<Interrupted>().is_some() => return Err(e),
                Err(e) => not_run(&ids, next, &format!("its run failed: {e:#}")),
            }
        }
    };
    mark(&mutants_json, &marks)?;
    Ok(Step::Ran {
        scope: next,
        marks: ids.iter().filter_map(|id| marks.get(id).cloned()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_round_trip_through_mutants_json() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mutants.json");
        let entry = |id: u32, key: &str, status: &str| {
            serde_json::json!({
                "column": 1, "family": "operator", "file": "src/lib.rs", "function": "f",
                "id": id, "key": key, "line": 1, "original": "<", "replacement": "<=",
                "viable": true,
                "edit": { "start": { "line": 1, "column": 1 }, "end": { "line": 1, "column": 2 },
                          "old": "<", "new": "<=" },
                "scopes": { "2": if status == "killed" {
                    serde_json::json!({ "status": "killed", "reason": "output" })
                } else {
                    serde_json::json!({ "status": status })
                } },
            })
        };
        let doc = serde_json::json!({
            "benchmark": "b", "mutants": [entry(1, "a", "survived"), entry(2, "b", "killed")],
        });
        std::fs::write(&path, doc.to_string()).unwrap();
        let marks = BTreeMap::from([(
            1,
            NextScope::Killed {
                scope: 3,
                reason: ferastrau_artifacts::Reason::Invariant,
            },
        )]);
        mark(&path, &marks).unwrap();
        let s = survivors(&path, 2).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].next_scope, Some(marks[&1].clone()));
        assert_eq!(marks[&1].to_string(), "killed at scope 3 (invariant)");
        let o = outcomes(&path, 2).unwrap();
        assert_eq!(o[&1], NextScope::Survived { scope: 2 });
        assert_eq!(
            not_run(&[4], 3, "no estimate")[&4],
            NextScope::NotRun {
                scope: 3,
                why: "no estimate".into()
            }
        );
    }
}
