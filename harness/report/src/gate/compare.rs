//! A run compared with its baseline: what got weaker (failures) and what changed.

use std::collections::BTreeMap;

use super::baseline::BenchmarkBaseline;

/// Coverage figures are rounded to hundredths of a percent: smaller differences are noise.
const COVERAGE_EPSILON: f64 = 0.005;

/// What the gate checks beyond the baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct Thresholds {
    /// An absolute floor on a kill rate, in percent.
    pub min_kill_rate: Option<f64>,
    /// The scope the floor applies to; by default the largest the baseline gates (a small
    /// scope's inputs cannot kill what a floor is meant for: `--min-kill-rate 80` once failed
    /// every crate at scope 1).
    pub min_kill_rate_scope: Option<u32>,
    /// How many points the kill rate may fall under the baseline's.
    pub tolerance: f64,
    /// Whether a surviving mutant that the baseline does not know fails the gate.
    pub fail_on_new_survivors: bool,
    /// Whether baseline mutants that found no counterpart in the run (their function deleted,
    /// renamed beyond recognition, or no longer mutated) pass however many they are; without
    /// it, more than [`UNMATCHED_SHARE`] of the baseline's mutants unmatched fails the gate.
    pub accept_unmatched: bool,
}

/// The share of the baseline's mutants (in percent) that may find no counterpart in a whole
/// run before the gate fails without `--accept-unmatched`: past it, the verdict would stand on
/// too little of what the baseline measured.
pub const UNMATCHED_SHARE: f64 = 10.0;

/// One reason the gate fails.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    MissingScope(u32),
    BelowFloor {
        scope: u32,
        rate: f64,
        floor: f64,
    },
    Dropped {
        scope: u32,
        from: f64,
        to: f64,
    },
    Survives {
        scope: u32,
        key: String,
    },
    CoverageDropped {
        scope: u32,
        kind: &'static str,
        from: f64,
        to: f64,
    },
    NewSurvivor {
        scope: u32,
        key: String,
    },
    /// More than [`UNMATCHED_SHARE`] of the baseline's mutants found no counterpart in a
    /// whole run (without `--accept-unmatched`).
    Unmatched {
        mutants: usize,
        of: usize,
        functions: Vec<String>,
    },
}

/// The comparison of a run with its baseline.
#[derive(Debug, Default)]
pub struct Comparison {
    pub failures: Vec<Failure>,
    /// Per scope: keys killed before and surviving now, surviving before and killed now, new
    /// keys (killed, surviving) and keys no longer evaluated.
    pub changes: BTreeMap<u32, Changes>,
}

#[derive(Debug, Default, serde::Serialize)]
pub struct Changes {
    pub now_surviving: Vec<String>,
    pub now_killed: Vec<String>,
    pub new_killed: Vec<String>,
    pub new_surviving: Vec<String>,
    pub gone: Vec<String>,
    /// Keys the baseline killed at this scope that the crate now skips (listed, never silent).
    pub now_skipped: Vec<String>,
}

impl Comparison {
    /// Accounts for the mutants the run skips (`skipped`, by key): one the baseline killed is
    /// listed as skipped now; none counts as gone. A skip does not fail the gate: it is a
    /// decision with a reason in the crate's manifest, reviewed with the change that adds it,
    /// and the gate lists it so that it cannot pass unseen.
    pub fn note_skipped(&mut self, base: &BenchmarkBaseline, skipped: &BTreeMap<String, String>) {
        for (&scope, ch) in self.changes.iter_mut() {
            ch.gone.retain(|k| !skipped.contains_key(k));
            ch.now_skipped = skipped
                .keys()
                .filter(|k| base.mutants.get(*k).is_some_and(|s| s.contains(&scope)))
                .cloned()
                .collect();
        }
    }
}

fn killed_at(scopes: &[u32], scope: u32) -> bool {
    scopes.contains(&scope)
}

/// What a run's figures can be compared with: the baseline's figures, or only its mutants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// The whole crate, its code as the baseline's: figures and mutants compared.
    Whole,
    /// The whole crate, but its mutated code changed (mutants added, or some of the
    /// baseline's without a counterpart): the kill rates and coverages are of other code and
    /// not comparable; every mutant the two runs share is (with the `--min-kill-rate` floor).
    ChangedCode,
    /// Mutants other than the baseline's (an `--in-diff` run of some functions, every mutant
    /// against a sampled baseline): compared mutant by mutant.
    Partial,
}

/// Compares `run` with `base` at every scope of the baseline, on the [`Basis`] the run allows.
pub fn compare(
    base: &BenchmarkBaseline,
    run: &BenchmarkBaseline,
    t: &Thresholds,
    basis: Basis,
) -> Comparison {
    let mut c = Comparison::default();
    for (&scope, b) in &base.scopes {
        let Some(now) = run.scopes.get(&scope) else {
            c.failures.push(Failure::MissingScope(scope));
            continue;
        };
        let ch = c.changes.entry(scope).or_default();
        for (key, scopes) in &run.mutants {
            let killed = killed_at(scopes, scope);
            match base.mutants.get(key) {
                Some(before) if killed_at(before, scope) && !killed => {
                    ch.now_surviving.push(key.clone());
                    c.failures.push(Failure::Survives {
                        scope,
                        key: key.clone(),
                    });
                }
                Some(before) if !killed_at(before, scope) && killed => {
                    ch.now_killed.push(key.clone())
                }
                Some(_) => {}
                None if killed => ch.new_killed.push(key.clone()),
                None => {
                    ch.new_surviving.push(key.clone());
                    if t.fail_on_new_survivors {
                        c.failures.push(Failure::NewSurvivor {
                            scope,
                            key: key.clone(),
                        });
                    }
                }
            }
        }
        if basis == Basis::Partial {
            continue;
        }
        ch.gone = base
            .mutants
            .keys()
            .filter(|k| !run.mutants.contains_key(*k))
            .cloned()
            .collect();
        let floor_scope = t
            .min_kill_rate_scope
            .or_else(|| base.scopes.keys().max().copied());
        if let Some(floor) = t.min_kill_rate.filter(|_| floor_scope == Some(scope)) {
            if now.kill_rate < floor {
                c.failures.push(Failure::BelowFloor {
                    scope,
                    rate: now.kill_rate,
                    floor,
                });
            }
        }
        if basis == Basis::ChangedCode {
            continue;
        }
        if now.kill_rate < b.kill_rate - t.tolerance {
            c.failures.push(Failure::Dropped {
                scope,
                from: b.kill_rate,
                to: now.kill_rate,
            });
        }
        for (kind, from, to) in [
            ("statement", b.statement_coverage, now.statement_coverage),
            ("branch", b.branch_coverage, now.branch_coverage),
        ] {
            if to < from - COVERAGE_EPSILON {
                c.failures.push(Failure::CoverageDropped {
                    scope,
                    kind,
                    from,
                    to,
                });
            }
        }
    }
    c
}
