//! Equivalence evidence from data: every mutant that survives a run's largest scope s is run
//! again at s + 1 when that fits in a budget, and `mutants.json` records the outcome
//! (`"next_scope": {"status": "survived" | "killed" | "not_run", "scope": s + 1, ...}`), so
//! that an argument that a survivor is equivalent rests on one more scope than the run.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::{OurScope, Survivor};

/// What scope + 1 said about a survivor of the largest scope.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum NextScope {
    /// It survives scope + 1 too.
    Survived { scope: u32 },
    /// Scope + 1 kills it: it was not equivalent.
    Killed { scope: u32, reason: String },
    /// Scope + 1 was not run, and why (too large for the budget, say).
    NotRun { scope: u32, why: String },
}

impl NextScope {
    /// For tables and documents: `survives s+1`, `killed at s+1`, `s+1 not run`.
    pub fn label(&self) -> &'static str {
        match self {
            NextScope::Survived { .. } => "survives s+1",
            NextScope::Killed { .. } => "killed at s+1",
            NextScope::NotRun { .. } => "s+1 not run",
        }
    }
}

/// The survivors of `largest` in a `mutants.json`, with their `next_scope` marks if any.
pub fn survivors(mutants_json: &Path, largest: u32) -> Result<Vec<Survivor>> {
    let doc: serde_json::Value = super::read_json(mutants_json)?;
    let mut out = Vec::new();
    for m in doc["mutants"].as_array().into_iter().flatten() {
        if m["scopes"][largest.to_string()]["status"] != "survived" {
            continue;
        }
        let next_scope = match m.get("next_scope") {
            None => None,
            Some(v) => Some(
                serde_json::from_value(v.clone())
                    .with_context(|| format!("{}: a bad next_scope", mutants_json.display()))?,
            ),
        };
        out.push(Survivor {
            executions: m["scopes"][largest.to_string()]["executions"]
                .as_u64()
                .unwrap_or_default(),
            id: m["id"].as_u64().unwrap_or_default() as u32,
            key: m["key"].as_str().unwrap_or_default().to_string(),
            next_scope,
        });
    }
    Ok(out)
}

/// The outcome at `scope` of each mutant in a `mutants.json` (the run at scope + 1).
pub fn outcomes(mutants_json: &Path, scope: u32) -> Result<BTreeMap<u32, NextScope>> {
    let doc: serde_json::Value = super::read_json(mutants_json)?;
    let mut out = BTreeMap::new();
    for m in doc["mutants"].as_array().into_iter().flatten() {
        let id = m["id"].as_u64().unwrap_or_default() as u32;
        let s = &m["scopes"][scope.to_string()];
        let mark = match s["status"].as_str() {
            Some("survived") => NextScope::Survived { scope },
            Some("killed") => NextScope::Killed {
                scope,
                reason: s["reason"].as_str().unwrap_or_default().to_string(),
            },
            _ => continue,
        };
        out.insert(id, mark);
    }
    Ok(out)
}

/// Writes `marks` into `mutants.json` as each mutant's `next_scope` (others untouched).
pub fn mark(mutants_json: &Path, marks: &BTreeMap<u32, NextScope>) -> Result<()> {
    let mut doc: serde_json::Value = super::read_json(mutants_json)?;
    for m in doc["mutants"].as_array_mut().into_iter().flatten() {
        let id = m["id"].as_u64().unwrap_or_default() as u32;
        if let Some(mark) = marks.get(&id) {
            m["next_scope"] = serde_json::to_value(mark)?;
        }
    }
    let text = serde_json::to_string_pretty(&doc)? + "\n";
    std::fs::write(mutants_json, text)
        .with_context(|| format!("cannot write {}", mutants_json.display()))
}

/// An estimate of the seconds that running the survivors at scope s + 1 takes, from the
/// run's last two scopes: the inputs grow by the ratio of the last two counts, generation and
/// checking with them, and each survivor runs the original and itself on the inputs it ran at
/// s (all of them without reach selection, those reaching it with), grown by the same ratio
/// (a survivor never stops early), shared by `jobs` processes. `executions` is the sum over
/// the survivors of the inputs each ran at s. `None` without two scopes with inputs to
/// extrapolate from.
pub fn estimate_seconds(scopes: &[OurScope], executions: u64, jobs: usize) -> Option<f64> {
    let [.., prev, last] = scopes else {
        return None;
    };
    if prev.inputs == 0 || last.inputs == 0 {
        return None;
    }
    let growth = last.inputs as f64 / prev.inputs as f64;
    let per_input = last.checking_seconds / last.inputs as f64;
    let fixed = (last.generation_seconds + last.checking_seconds) * growth;
    Some(fixed + 2.0 * per_input * executions as f64 * growth / jobs.max(1) as f64)
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
        // growth 10; fixed (10 + 10) × 10 = 200; three survivors that ran every one of the
        // 100 inputs at s run 1,000 each at s + 1: per input 0.1 s, × 2 × 3,000 / 2 jobs.
        assert_eq!(estimate_seconds(&s, 300, 2), Some(200.0 + 300.0));
        // Reach selection: survivors that ran a tenth of the inputs at s cost a tenth.
        assert_eq!(estimate_seconds(&s, 30, 2), Some(200.0 + 30.0));
        assert_eq!(estimate_seconds(&s[..1], 300, 2), None);
    }

    #[test]
    fn marks_round_trip_through_mutants_json() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mutants.json");
        std::fs::write(
            &path,
            r#"{"mutants": [{"id": 1, "key": "a", "scopes": {"2": {"status": "survived"}}},
                            {"id": 2, "key": "b", "scopes": {"2": {"status": "killed", "reason": "output"}}}]}"#,
        )
        .unwrap();
        let marks = BTreeMap::from([(
            1,
            NextScope::Killed {
                scope: 3,
                reason: "invariant".into(),
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
