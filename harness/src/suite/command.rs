//! `ferastrau evaluate --suite FILE` as one call: [`run`] takes `evaluate`'s options and the
//! test file, measures the file against the mutants `evaluate` would run (sampled,
//! `--only-mutants`, the skipped left out) and writes `suite.json`, its page and its Stryker
//! document drawn by the caller's [`Readers`].

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_artifacts::Artifact;
use ferastrau_console::exit_code::{usage, Interrupted};
use ferastrau_mutator::Catalog;

use super::{evaluate, SuiteLimits, SuiteRun};
use crate::evaluate::{clear_reports, Options, Readers};
use crate::outdir::OutputDir;
use crate::subject;

/// What a suite's run wrote.
pub struct SuiteOutcome {
    pub out_dir: PathBuf,
    /// `suite.json`'s content.
    pub run: SuiteRun,
    /// The metamutant's catalog, which the verdicts' ids index.
    pub catalog: Catalog,
}

/// The file a suite's run writes its verdicts to, in its reports' directory.
pub const FILE: &str = "suite.json";

/// Measures the test file `file` against the mutants `options` select.
pub fn run<R: Readers>(options: &Options, file: &Path, readers: &R) -> Result<SuiteOutcome> {
    let bench = options.target.locate()?;
    let out = OutputDir::take(&options.out_dir(&bench), &bench.name, &bench.dir)?;
    // An `evaluate` run's reports in the same directory are not this run's: a gate must not
    // read them with this run's page beside them.
    clear_reports(&out.path, R::FILES)?;
    let meta = subject::metamutant(&bench)?;
    let skipped = ferastrau_mutator::skipped(&meta.catalog.mutants, &bench.skips)
        .map_err(|e| usage(format!("{e:#}")))?;
    // The mutants `evaluate` would run: sampled, `--only-mutants`, the skipped left out.
    let ids: Vec<u32> = options
        .selected(&meta.catalog, None)?
        .viable()
        .map(|m| m.id)
        .filter(|id| !skipped.contains_key(id))
        .collect();
    let limits = SuiteLimits {
        jobs: options.jobs(),
        memory_limit: options.memory_limit,
        original_timeout: options.original_timeout,
        timeout_factor: options.limits.timeout_factor,
        timeout_floor: options.limits.timeout_floor,
    };
    let journal = out.path.join("suite-journal.jsonl");
    if !options.resume {
        // A fresh run leaves no report of an earlier one to be read as its own.
        // (The page and the Stryker document went with the other reports above.)
        let _ = std::fs::remove_file(out.path.join(FILE));
    }
    let mut report = evaluate(
        &bench,
        &meta.dir,
        file,
        &ids,
        &limits,
        &journal,
        options.resume,
    )
    .map_err(|e| match e.is::<Interrupted>() {
        true => anyhow::Error::new(Interrupted(format!(
            "interrupted; the verdicts so far are in {}; continue with --resume",
            journal.display()
        ))),
        false => e,
    })?;
    // The sources as the mutator read them to build the metamutant: whatever happens to the
    // crate during the run, the page shows the code that ran.
    readers.draw_suite(&out.path, &mut report, &meta)?;
    let path = out.path.join(FILE);
    report
        .write(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(SuiteOutcome {
        out_dir: out.path.clone(),
        run: report,
        catalog: meta.catalog,
    })
}
