//! `ferastrau evaluate --suite FILE`: a test file measured against the mutants
//! ([`ferastrau_harness::suite`]), its verdicts in `suite.json` and a table naming the
//! survivors.

use std::path::{Path, PathBuf};

use anyhow::Result;
use ferastrau_harness::suite::{self, SuiteRun, SuiteStatus};

use super::page::Page;
use super::show::{print_document, Show};
use super::EvaluateArgs;

/// How many survivors the table names (the rest are in `suite.json`).
const SHOWN: usize = 10;

/// Runs the suite ([`suite::run`]) and prints it as `show` says; returns the reports'
/// directory.
pub(super) fn run_suite(a: &EvaluateArgs, file: &Path, show: Show) -> Result<PathBuf> {
    let outcome = suite::run(&a.options(), file, &Page)?;
    match show {
        Show::Json => print_document(&ferastrau_artifacts::SuiteSummary {
            run: outcome.run,
            reports: outcome.out_dir.display().to_string(),
        })?,
        Show::Table | Show::Summary => print!(
            "{}",
            table(
                &outcome.run,
                &outcome.catalog,
                &outcome.out_dir.join(suite::FILE)
            )
        ),
        Show::Nothing => {}
    }
    Ok(outcome.out_dir)
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
    let keys = ferastrau_mutator::keys_by_id(&catalog.mutants);
    let survivors: Vec<&ferastrau_mutator::Mutant> = r
        .verdicts
        .iter()
        .filter(|v| v.status == SuiteStatus::Survived)
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
