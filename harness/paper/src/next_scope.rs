//! Equivalence evidence from data: every mutant that survives a run's largest scope s is run
//! again at s + 1 when that fits in a budget, and `mutants.json` records the outcome
//! (`"next_scope": {"status": "survived" | "killed" | "not_run", "scope": s + 1, ...}`), so
//! that an argument that a survivor is equivalent rests on one more scope than the run.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use ferastrau_artifacts::{Artifact, Mutants, Status};
use ferastrau_harness::evaluate::budget::{self, Cost};

use super::{OurScope, Survivor};

/// What scope + 1 said about a survivor of the largest scope (`mutants.json`'s `next_scope`).
pub use ferastrau_artifacts::NextScope;

/// A mark's label, for tables and documents.
pub trait Label {
    /// `survives s+1`, `killed at s+1`, `s+1 not run`.
    fn label(&self) -> &'static str;
}

impl Label for NextScope {
    fn label(&self) -> &'static str {
        match self {
            NextScope::Survived { .. } => "survives s+1",
            NextScope::Killed { .. } => "killed at s+1",
            NextScope::NotRun { .. } => "s+1 not run",
        }
    }
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

/// An estimate of the seconds that running the survivors at scope s + 1 takes, from the
/// run's last two scopes: `evaluate`'s own estimate of a scope
/// ([`ferastrau_harness::evaluate::budget::estimate_seconds`], the one definition), with
/// `executions` the sum over the survivors of the inputs each ran at s (a survivor never stops
/// early), shared by `jobs` processes. `None` without two scopes with inputs to extrapolate
/// from. The estimate only decides whether to try; `reproduce` stops the run at the budget
/// when it is wrong.
pub fn estimate_seconds(scopes: &[OurScope], executions: u64, jobs: usize) -> Option<f64> {
    let [.., prev, last] = scopes else {
        return None;
    };
    let cost = |s: &OurScope| Cost {
        scope: s.scope,
        inputs: s.inputs,
        candidates: s.candidates,
        generation_seconds: s.generation_seconds,
        checking_seconds: s.checking_seconds,
    };
    budget::estimate_seconds(&cost(prev), &cost(last), executions, jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(scope: u32, inputs: u64, seconds: f64) -> OurScope {
        OurScope {
            scope,
            inputs,
            candidates: 0,
            generation_seconds: seconds,
            checking_seconds: seconds,
            statement_coverage: 0.0,
            branch_coverage: 0.0,
            spec_statement_coverage: 0.0,
            spec_branch_coverage: 0.0,
            mutants: 0,
            killed: 0,
            kill_rate: 0.0,
            killed_by: BTreeMap::new(),
            paper_kill_rate: 0.0,
            skipped: 0,
        }
    }

    #[test]
    fn the_estimate_grows_with_the_inputs_and_the_survivors() {
        let s = [scope(1, 10, 1.0), scope(2, 100, 10.0)];
        // growth 10; fixed (10 + 2 × 10) × 10 = 300; three survivors that ran every one of the
        // 100 inputs at s run 1,000 each at s + 1: per input 0.1 s, × 2 × 3,000 / 2 jobs.
        assert_eq!(estimate_seconds(&s, 300, 2), Some(300.0 + 300.0));
        // Reach selection: survivors that ran a tenth of the inputs at s cost a tenth.
        assert_eq!(estimate_seconds(&s, 30, 2), Some(300.0 + 30.0));
        assert_eq!(estimate_seconds(&s[..1], 300, 2), None);
    }

    #[test]
    fn generation_grows_with_the_candidates() {
        let mut s = [scope(1, 10, 1.0), scope(2, 100, 10.0)];
        s[0].candidates = 10;
        s[1].candidates = 1000;
        // Generation 10 s × 100 (candidates), checking twice 10 s × 10 (inputs), no survivor.
        assert_eq!(estimate_seconds(&s, 0, 2), Some(1000.0 + 200.0));
    }

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
        assert_eq!(s[0].next_scope.as_ref().unwrap().label(), "killed at s+1");
        let o = outcomes(&path, 2).unwrap();
        assert_eq!(o[&1], NextScope::Survived { scope: 2 });
    }
}
