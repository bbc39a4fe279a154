//! `report`: `report.html` and `mutation-testing-report.json` written again for a directory
//! that already holds a run's `evaluation.json` and `mutants.json` (a committed report, or a
//! run of an older version), without running anything.

use std::path::PathBuf;

use anyhow::Result;
use ferastrau_artifacts::{Artifact, Evaluation};

use super::args::ReportArgs;
use ferastrau_console::exit_code::usage;
use ferastrau_harness::locate::locate_declared;
use ferastrau_harness::outdir::{recorded_owner, OutputDir};

pub(super) fn cmd_report(a: ReportArgs) -> Result<()> {
    let evaluation = a.dir.join("evaluation.json");
    if !evaluation.is_file() {
        return Err(usage(format!(
            "{} holds no evaluation.json: give the output directory of an `evaluate` or `merge`",
            a.dir.display()
        )));
    }
    // One this build cannot read (not an evaluation.json, or a newer one): a usage error
    // naming the file (and the versions).
    let name = Evaluation::read(&evaluation)
        .map_err(|e| usage(format!("{e:#}")))?
        .benchmark;
    // The crate whose source the page shows: the one named, else the one that wrote the
    // directory, else the built-in benchmark of the reports' name.
    let path: Option<PathBuf> = a.benchmark_path.clone().or_else(|| {
        a.benchmark
            .is_none()
            .then(|| recorded_owner(&a.dir))
            .flatten()
    });
    let bench = match &path {
        Some(p) => locate_declared(None, Some(p))?,
        None => locate_declared(Some(a.benchmark.as_deref().unwrap_or(&name)), None)?,
    };
    let out = OutputDir::take(&a.dir, &bench.name, &bench.dir)?;
    let sources = ferastrau_report::html::Sources::Disk(bench.dir.clone());
    let report = ferastrau_report::html::write(&out.path, &sources)?;
    let last = report.last_scope().unwrap_or(0);
    let counts = report.counts(last);
    let summary: Vec<String> = counts
        .iter()
        .map(|(f, n)| format!("{} {n}", f.label()))
        .collect();
    println!(
        "{}: {} mutants at scope {last} ({}); wrote {} and {}",
        report.evaluation.benchmark,
        report.mutants.len(),
        summary.join(", "),
        out.path.join(ferastrau_report::html::FILES[0]).display(),
        out.path.join(ferastrau_report::html::FILES[1]).display()
    );
    Ok(())
}
