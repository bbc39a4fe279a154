//! The reports for people and for other tools: `report.html` (one self-contained page: the
//! mutated source with every mutant's fate, diff and killing input, and the per-scope chart),
//! `mutation-testing-report.json` (the mutation-testing-report-schema format) and
//! `survivors.txt` (the largest scope's survivors, one a line).
//!
//! Both are derived from `evaluation.json` and `mutants.json` as written on disk, plus the
//! benchmark's source: `evaluate` and `merge` write them after those, and `ferastrau report
//! DIR` writes them again for a directory that already holds a run (a committed report).

mod chart;
pub mod equivalent;
pub mod model;
mod page;
pub(crate) mod schema;
pub mod survivors;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Result};
use ferastrau_protocol::Reason;

use ferastrau_artifacts::write_atomically;
pub use model::Sources;
use model::{Fate, Report};

/// The files [`write`] produces.
pub const FILES: [&str; 3] = ["report.html", crate::stryker::FILE, survivors::FILE];

/// Writes `report.html` and `mutation-testing-report.json` into `dir` from the reports there
/// and `sources`, the crate's source as the run evaluated it; returns the report read.
pub fn write(dir: &Path, sources: &Sources) -> Result<Report> {
    let report = Report::read(dir, sources)?;
    agree(&report)?;
    write_atomically(
        &dir.join(FILES[0]),
        page::page(&report).into_string().as_bytes(),
    )?;
    // Stryker's mutation-testing-report-schema: not a file of ours, built by `schema`.
    schema::document(&report).write(&dir.join(FILES[1]))?;
    if let Some(last) = report.last_scope() {
        let survivors = survivors::at_scope(&report, last);
        write_atomically(&dir.join(FILES[2]), survivors::text(&survivors).as_bytes())?;
    }
    Ok(report)
}

/// Checks that the reports in `dir` agree with each other (see [`write`]'s check): what the
/// gate reads must be what `report` would draw.
pub fn check(dir: &Path) -> Result<()> {
    agree(&Report::read_reports(dir)?)
}

/// The fates counted from `mutants.json` must be the counts `evaluation.json` holds at every
/// scope: the page and the schema JSON show the former, the tables the latter.
fn agree(report: &Report) -> Result<()> {
    for row in &report.evaluation.scopes {
        let counts = report.counts_in_rate(row.scope);
        let n = |f: Fate| counts.get(&f).copied().unwrap_or(0);
        let mut listed: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for r in Reason::ALL {
            let want = row.killed_by.get(r) as usize;
            listed.insert(r.as_str(), (n(Fate::Killed(r)), want));
        }
        let killed: usize = Reason::ALL.iter().map(|&r| n(Fate::Killed(r))).sum();
        listed.insert("killed", (killed, row.killed as usize));
        listed.insert(
            "survived",
            (
                n(Fate::Survived),
                row.mutants.saturating_sub(row.killed) as usize,
            ),
        );
        listed.insert("skipped", (n(Fate::Skipped), row.skipped as usize));
        let wrong: Vec<String> = listed
            .iter()
            .filter(|(_, (got, want))| got != want)
            .map(|(k, (got, want))| format!("{k} {got} in mutants.json, {want} in evaluation.json"))
            .collect();
        if !wrong.is_empty() {
            bail!(
                "{}: the reports disagree at scope {}: {}",
                report.evaluation.benchmark,
                row.scope,
                wrong.join(", ")
            );
        }
    }
    Ok(())
}
