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

use crate::stryker::{self, Config, Document, Location, Position, SourceFile, Status, Test};
use ferastrau_artifacts::{SuiteRun, SuiteStatus, SuiteVerdict};

/// The document for `run` over `catalog`, with the crate's `sources` (file → text).
pub fn document(run: &SuiteRun, catalog: &Catalog, sources: &BTreeMap<String, String>) -> Document {
    let verdicts: BTreeMap<u32, &SuiteVerdict> = run.verdicts.iter().map(|v| (v.id, v)).collect();
    let keys = ferastrau_mutator::keys_by_id(&catalog.mutants);
    let mut files: BTreeMap<&str, Vec<stryker::Mutant>> = BTreeMap::new();
    for m in &catalog.mutants {
        let mut v = stryker::Mutant {
            description: keys.get(&m.id).cloned().unwrap_or_default(),
            id: m.id.to_string(),
            killed_by: None,
            location: Location {
                start: Position {
                    line: m.edit.start.line,
                    column: m.edit.start.column,
                },
                end: Position {
                    line: m.edit.end.line,
                    column: m.edit.end.column,
                },
            },
            mutator_name: m.family.as_str().to_string(),
            replacement: m.replacement.clone(),
            status: Status::Ignored,
            status_reason: None,
            tests_completed: None,
        };
        v.status = match (m.viable, verdicts.get(&m.id)) {
            (Some(false), _) => Status::CompileError,
            (_, None) => Status::Ignored,
            (_, Some(verdict)) => match (verdict.status, verdict.reason) {
                (SuiteStatus::Survived, _) => Status::Survived,
                (SuiteStatus::Killed, Some(Reason::Timeout)) => Status::Timeout,
                (SuiteStatus::Killed, reason) => {
                    v.killed_by = verdict.test.clone().map(|test| vec![test]);
                    v.status_reason = Some(match (reason, &verdict.test) {
                        (_, Some(test)) => format!("the test {test} failed"),
                        (Some(r), None) => format!("the suite's run: {}", r.as_str()),
                        (None, None) => "killed".to_string(),
                    });
                    Status::Killed
                }
            },
        };
        files.entry(m.file.as_str()).or_default().push(v);
    }
    let files = files
        .into_iter()
        .map(|(file, mutants)| {
            let source = sources.get(file).cloned().unwrap_or_default();
            (file.to_string(), SourceFile::rust(source, mutants))
        })
        .collect();
    let tests = run
        .tests
        .iter()
        .map(|t| Test {
            id: t.clone(),
            name: t.clone(),
        })
        .collect();
    let config = Config {
        benchmark: run.benchmark.clone(),
        suite: Some(run.suite.clone()),
        ..Config::default()
    };
    Document::new(
        config,
        files,
        [(run.suite.clone(), stryker::TestFile { tests })].into(),
    )
}
