//! `mutation-testing-report.json`: the run in the mutation-testing-report-schema format
//! (Stryker's `mutation-testing-elements`; also written by PIT's plugin, Stryker4s,
//! Stryker.NET, Infection), so that existing viewers and dashboards read it.
//!
//! The schema knows one test run per mutant; ours has one per scope. The file shows the
//! largest scope of the run (the one whose kill rate is the headline figure). Statuses map as
//! follows, so that the schema's mutation score (killed + timeout over the valid mutants)
//! equals our kill rate at that scope:
//!
//! | ours                         | schema         | statusReason                 |
//! |------------------------------|----------------|------------------------------|
//! | killed: invariant, output    | `Killed`       | reason and detail            |
//! | killed: memory, crash        | `Killed`       | reason and detail            |
//! | killed: timeout              | `Timeout`      | the limit and detail         |
//! | survived                     | `Survived`     | —                            |
//! | survived, reached by no input| `NoCoverage`   | —                            |
//! | not viable (compile-pruned)  | `CompileError` | —                            |
//! | skipped (the crate's `skip`) | `Ignored`      | the skip list's reason       |
//! | no result (another shard's)  | `Pending`      | —                            |
//!
//! A mutant that exhausts its memory or kills its process where the original does not is
//! a detected fault, as our kill rate counts it: `Killed`, not `RuntimeError` (which the
//! schema's score leaves out as an invalid mutant). A survivor that ran on no input
//! (`executions: 0`: reach selection found no input of the scope that evaluates its mutation
//! point) is `NoCoverage`, which the schema's score counts as undetected, as our kill rate
//! counts it as a survivor.
//!
//! The tests are the killing inputs: `testFiles` lists each input that killed a mutant at
//! that scope, named by its rendering, and `killedBy` points at it.

use std::collections::BTreeMap;

use ferastrau_protocol::Reason;

use super::model::{Fate, Listed, Report};
use crate::stryker::{self, Config, Document, Location, Position, SourceFile, Status, Test};

/// The schema's status of a fate; `reached` is whether any input reached the mutant (see
/// [`Listed::reached`]).
pub fn status(fate: Fate, reached: Option<bool>) -> Status {
    match fate {
        Fate::Survived if reached == Some(false) => Status::NoCoverage,
        Fate::Killed(Reason::Timeout) => Status::Timeout,
        Fate::Killed(_) => Status::Killed,
        Fate::Survived => Status::Survived,
        Fate::NotViable => Status::CompileError,
        Fate::Skipped => Status::Ignored,
        Fate::NotRun => Status::Pending,
    }
}

/// The id of a killing input as a schema test: `scope 3: add #14`.
fn test_id(scope: u32, method: &str, index: u64) -> String {
    format!("scope {scope}: {method} #{index}")
}

/// The document for `report`.
pub fn document(report: &Report) -> Document {
    let scope = report.last_scope().unwrap_or(0);
    let mut tests: BTreeMap<String, String> = BTreeMap::new();
    let mut files: BTreeMap<&str, Vec<stryker::Mutant>> = BTreeMap::new();
    for m in &report.mutants {
        files
            .entry(m.mutant.file.as_str())
            .or_default()
            .push(mutant(m, scope, &mut tests));
    }
    let files = files
        .into_iter()
        .map(|(file, mutants)| {
            let source = report.sources.get(file).cloned().unwrap_or_default();
            (file.to_string(), SourceFile::rust(source, mutants))
        })
        .collect();
    let tests = tests
        .into_iter()
        .map(|(id, name)| Test { id, name })
        .collect();
    let e = &report.evaluation;
    let config = Config {
        benchmark: e.benchmark.clone(),
        broken: e.broken.clone(),
        in_diff: e.in_diff.clone(),
        scope: Some(scope),
        shard: e.shard.map(|s| s.to_string()),
        suite: None,
    };
    Document::new(
        config,
        files,
        [("korat inputs".to_string(), stryker::TestFile { tests })].into(),
    )
}

fn mutant(m: &Listed, scope: u32, tests: &mut BTreeMap<String, String>) -> stryker::Mutant {
    let e = &m.mutant.edit;
    let fate = m.fate(scope);
    let here = m.scopes.get(&scope);
    let mut v = stryker::Mutant {
        description: m.key.clone().unwrap_or_else(|| {
            format!(
                "{}: {} -> {}",
                m.mutant.function, m.mutant.original, m.mutant.replacement
            )
        }),
        id: m.mutant.id.to_string(),
        killed_by: None,
        // Both 1-based in characters, the end exclusive: the catalog's positions already are.
        location: Location {
            start: Position {
                line: e.start.line,
                column: e.start.column,
            },
            end: Position {
                line: e.end.line,
                column: e.end.column,
            },
        },
        mutator_name: m.mutant.family.as_str().to_string(),
        replacement: m.mutant.replacement.clone(),
        status: status(fate, m.reached(scope)),
        status_reason: None,
        tests_completed: here.and_then(|o| o.executions),
    };
    match fate {
        Fate::Killed(reason) => {
            let o = here.expect("a kill has a result");
            let mut why = reason.as_str().to_string();
            if let Some(l) = o.limit {
                why = format!("{why} ({} limit)", l.as_str());
            }
            if let Some(d) = &o.detail {
                why = format!("{why}: {d}");
            }
            v.status_reason = Some(why);
            if let (Some(method), Some(index)) = (&o.method, o.index) {
                let id = test_id(scope, method, index);
                let name = o.input.clone().unwrap_or_else(|| id.clone());
                tests.insert(id.clone(), name);
                v.killed_by = Some(vec![id]);
            }
        }
        Fate::Skipped => v.status_reason = m.skipped.clone(),
        _ => {}
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// A mutants.json entry with `extra` fields merged in.
    fn listed(extra: Value) -> Listed {
        let mut v = json!({
            "id": 7, "family": "operator", "function": "f", "file": "src/lib.rs",
            "line": 3, "column": 9, "original": "<", "replacement": "<=", "viable": true,
            "edit": { "start": { "line": 3, "column": 9 }, "end": { "line": 3, "column": 10 },
                      "old": "<", "new": "<=/*<*/" },
        });
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        serde_json::from_value::<ferastrau_artifacts::MutantEntry>(v)
            .unwrap()
            .into()
    }

    /// The mutant's fate at scope 2 and its entry as the file has it.
    fn at_2(extra: Value) -> (Fate, Value) {
        let m = listed(extra);
        let mut tests = BTreeMap::new();
        let entry = serde_json::to_value(mutant(&m, 2, &mut tests)).unwrap();
        (m.fate(2), entry)
    }

    #[test]
    fn every_fate_maps_to_its_schema_status() {
        let (f, v) = at_2(json!({ "viable": false }));
        assert_eq!(
            (f, v["status"].as_str()),
            (Fate::NotViable, Some("CompileError"))
        );
        let (f, v) = at_2(json!({ "skipped": "equivalent: x < y never sees x == y" }));
        assert_eq!((f, v["status"].as_str()), (Fate::Skipped, Some("Ignored")));
        assert_eq!(v["statusReason"], "equivalent: x < y never sees x == y");
        let (f, v) = at_2(json!({ "scopes": { "1": { "status": "survived", "executions": 4 } } }));
        assert_eq!((f, v["status"].as_str()), (Fate::NotRun, Some("Pending")));
        let (f, v) = at_2(json!({ "scopes": { "2": { "status": "survived", "executions": 9 } } }));
        assert_eq!(
            (f, v["status"].as_str()),
            (Fate::Survived, Some("Survived"))
        );
        assert_eq!(v["testsCompleted"], 9);
        // Reached by no input: the schema's NoCoverage.
        let (f, v) = at_2(json!({ "scopes": { "2": { "status": "survived", "executions": 0 } } }));
        assert_eq!(
            (f, v["status"].as_str()),
            (Fate::Survived, Some("NoCoverage"))
        );
        // Columns stay 1-based, the end exclusive, as the catalog has them.
        assert_eq!(v["location"]["start"], json!({ "line": 3, "column": 9 }));
        assert_eq!(v["location"]["end"], json!({ "line": 3, "column": 10 }));
        for (reason, status) in [
            ("invariant", "Killed"),
            ("output", "Killed"),
            ("memory", "Killed"),
            ("crash", "Killed"),
            ("timeout", "Timeout"),
        ] {
            let (f, v) = at_2(json!({ "scopes": { "2": {
                "status": "killed", "reason": reason, "method": "add", "index": 3,
                "input": "add(1) on ()", "detail": "d", "executions": 4 } } }));
            assert!(matches!(f, Fate::Killed(r) if r.as_str() == reason));
            assert_eq!(v["status"], status);
            assert_eq!(v["killedBy"], json!(["scope 2: add #3"]));
            assert_eq!(v["statusReason"], format!("{reason}: d"));
        }
    }
}
