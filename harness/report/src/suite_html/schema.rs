//! A suite's run as `mutation-testing-report.json` (the mutation-testing-report-schema format
//! of Stryker's viewer and dashboards, as `evaluate` writes for Korat's inputs; see
//! `html::schema`): every mutant of the catalog, its status mapped so that the schema's
//! mutation score (killed + timeout over the valid mutants) equals the suite's kill rate, and
//! the suite's tests as the schema's tests, a killed mutant pointing at the test that failed.
//!
//! | the suite's verdict          | schema         |
//! |------------------------------|----------------|
//! | killed: output (a test)      | `Killed`, `killedBy` the test |
//! | killed: crash, memory        | `Killed`       |
//! | killed: timeout              | `Timeout`      |
//! | survived                     | `Survived`     |
//! | not viable                   | `CompileError` |
//! | not run (sampled out, skipped, not in `--only-mutants`) | `Ignored` |

use std::collections::BTreeMap;

use ferastrau_mutator::Catalog;
use ferastrau_protocol::Reason;
use serde_json::{json, Value};

use crate::html::schema::SCHEMA_VERSION;
use ferastrau_artifacts::{SuiteRun, SuiteStatus as Status, SuiteVerdict};

/// The document for `run` over `catalog`, with the crate's `sources` (file → text).
pub fn document(run: &SuiteRun, catalog: &Catalog, sources: &BTreeMap<String, String>) -> Value {
    let verdicts: BTreeMap<u32, &SuiteVerdict> = run.verdicts.iter().map(|v| (v.id, v)).collect();
    let keys = ferastrau_mutator::keys_by_id(&catalog.mutants);
    let mut files: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for m in &catalog.mutants {
        let mut v = json!({
            "id": m.id.to_string(),
            "mutatorName": m.family.as_str(),
            "replacement": m.replacement,
            "description": keys.get(&m.id).cloned().unwrap_or_default(),
            "location": {
                "start": { "line": m.edit.start.line, "column": m.edit.start.column },
                "end": { "line": m.edit.end.line, "column": m.edit.end.column },
            },
        });
        let status = match (m.viable, verdicts.get(&m.id)) {
            (Some(false), _) => "CompileError",
            (_, None) => "Ignored",
            (_, Some(verdict)) => match (verdict.status, verdict.reason) {
                (Status::Survived, _) => "Survived",
                (Status::Killed, Some(Reason::Timeout)) => "Timeout",
                (Status::Killed, reason) => {
                    if let Some(test) = &verdict.test {
                        v["killedBy"] = json!([test]);
                    }
                    v["statusReason"] = json!(match (reason, &verdict.test) {
                        (_, Some(test)) => format!("the test {test} failed"),
                        (Some(r), None) => format!("the suite's run: {}", r.as_str()),
                        (None, None) => "killed".to_string(),
                    });
                    "Killed"
                }
            },
        };
        v["status"] = json!(status);
        files.entry(m.file.as_str()).or_default().push(v);
    }
    let files: serde_json::Map<String, Value> = files
        .into_iter()
        .map(|(file, mutants)| {
            let source = sources.get(file).cloned().unwrap_or_default();
            (
                file.to_string(),
                json!({ "language": "rust", "source": source, "mutants": mutants }),
            )
        })
        .collect();
    let tests: Vec<Value> = run
        .tests
        .iter()
        .map(|t| json!({ "id": t, "name": t }))
        .collect();
    json!({
        "schemaVersion": SCHEMA_VERSION,
        "thresholds": { "high": 80, "low": 60 },
        "files": files,
        "testFiles": { run.suite.clone(): { "tests": tests } },
        "framework": { "name": "ferastrau", "version": env!("CARGO_PKG_VERSION") },
        "config": { "benchmark": run.benchmark, "suite": run.suite },
    })
}
