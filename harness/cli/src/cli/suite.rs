//! `ferastrau evaluate --suite FILE`: a test file measured against the mutants
//! ([`ferastrau_harness::suite`]), its verdicts in `suite.json` and a table naming the
//! survivors.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_artifacts::Artifact;
use ferastrau_console::exit_code::usage;
use ferastrau_harness::outdir::OutputDir;
use ferastrau_harness::subject;
use ferastrau_harness::suite::{self, Status, SuiteRun};

use super::evaluate::{options, Show};
use super::EvaluateArgs;

/// How many survivors the table names (the rest are in `suite.json`).
const SHOWN: usize = 10;

/// Runs the suite and prints it as `show` says; returns the reports' directory.
pub(super) fn run_suite(a: &EvaluateArgs, file: &Path, show: Show) -> Result<PathBuf> {
    let bench = a.target.locate()?;
    let run = options(a);
    let out = OutputDir::take(&run.out_dir(&bench), &bench.name, &bench.dir)?;
    // An `evaluate` run's reports in the same directory are not this run's: a gate must not
    // read them with this run's page beside them.
    super::evaluate::clear_reports(&out.path)?;
    let meta = subject::metamutant(&bench)?;
    // The sources as the mutator read them to build the metamutant, for the report: whatever
    // happens to the crate during the run, the report shows the code that ran.
    let sources = ferastrau_report::html::model::mutated_sources(&meta);
    let skipped = ferastrau_mutator::skipped(&meta.catalog.mutants, &bench.skips)
        .map_err(|e| usage(format!("{e:#}")))?;
    // The mutants `evaluate` would run: sampled, `--only-mutants`, the skipped left out.
    let ids: Vec<u32> = run
        .selected(&meta.catalog, None)?
        .viable()
        .map(|m| m.id)
        .filter(|id| !skipped.contains_key(id))
        .collect();
    let opts = suite::SuiteLimits {
        jobs: run.jobs(),
        memory_limit: a.original.memory_limit,
        original_timeout: a.original.original_timeout,
        timeout_factor: a.timeout_factor,
        timeout_floor: a.timeout_floor,
    };
    let journal = out.path.join("suite-journal.jsonl");
    if !a.resume {
        // A fresh run leaves no report of an earlier one to be read as its own.
        for f in ["suite.json", "mutation-testing-report.json", "report.html"] {
            let _ = std::fs::remove_file(out.path.join(f));
        }
    }
    let mut report = suite::evaluate(&bench, &meta.dir, file, &ids, &opts, &journal, a.resume)
        .map_err(|e| {
            if e.is::<ferastrau_console::exit_code::Interrupted>() {
                anyhow::Error::new(ferastrau_console::exit_code::Interrupted(format!(
                    "interrupted; the verdicts so far are in {}; continue with --resume",
                    journal.display()
                )))
            } else {
                e
            }
        })?;
    // Keys, places and regions: what a later `gate --suite` matches this run's mutants by.
    ferastrau_report::gate::suite_gate::identify(&mut report, &meta.catalog, &sources);
    let path = out.path.join("suite.json");
    report
        .write(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let stryker = out.path.join("mutation-testing-report.json");
    std::fs::write(
        &stryker,
        serde_json::to_string_pretty(&ferastrau_report::suite_html::schema::document(
            &report,
            &meta.catalog,
            &sources,
        ))? + "\n",
    )
    .with_context(|| format!("cannot write {}", stryker.display()))?;
    let html = out.path.join("report.html");
    std::fs::write(
        &html,
        ferastrau_report::suite_html::page::page(&report, &meta.catalog, &sources).into_string(),
    )
    .with_context(|| format!("cannot write {}", html.display()))?;
    match show {
        Show::Json => super::commands::print_document(&ferastrau_artifacts::SuiteSummary {
            run: report,
            reports: out.path.display().to_string(),
        })?,
        Show::Table | Show::Summary => print!("{}", table(&report, &meta.catalog, &path)),
        Show::Nothing => {}
    }
    Ok(out.path.clone())
}

/// The table: what ran, the kill rate and its reasons, the first survivors.
fn table(r: &SuiteRun, catalog: &ferastrau_mutator::Catalog, path: &Path) -> String {
    let mut t = format!(
        "{}: the suite {} ({} tests; {:.3} s on the original) against {} mutants\n",
        r.benchmark,
        r.suite,
        r.tests.len(),
        r.original_seconds,
        r.mutants
    );
    let by: Vec<String> = ferastrau_report::suite_html::killed_by(r)
        .iter()
        .map(|(reason, n)| format!("{reason} {n}"))
        .collect();
    t.push_str(&format!(
        "killed {}/{} ({:.2}%){}{}\n",
        r.killed,
        r.mutants,
        r.kill_rate,
        if by.is_empty() { "" } else { " by: " },
        by.join(", ")
    ));
    let keys: std::collections::BTreeMap<u32, String> = catalog
        .mutants
        .iter()
        .map(|m| m.id)
        .zip(ferastrau_mutator::keys(&catalog.mutants))
        .collect();
    let survivors: Vec<&ferastrau_mutator::Mutant> = r
        .verdicts
        .iter()
        .filter(|v| v.status == Status::Survived)
        .filter_map(|v| catalog.get(v.id))
        .collect();
    match survivors.len() {
        0 => t.push_str("no mutant survives the suite\n"),
        n => {
            t.push_str(&format!(
                "{n} mutant{} survive{} the suite:\n",
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" }
            ));
            for m in survivors.iter().take(SHOWN) {
                t.push_str(&format!(
                    "  {}:{}:{}  {}\n",
                    m.file, m.line, m.column, keys[&m.id]
                ));
            }
            if n > SHOWN {
                t.push_str(&format!("  and {} more (all in suite.json)\n", n - SHOWN));
            }
        }
    }
    t.push_str(&format!("verdicts: {}\n", path.display()));
    t
}
