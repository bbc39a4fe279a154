//! `evaluate`: the command line made into the harness's [`evaluate::Options`], one call
//! ([`evaluate::run`], which runs the experiment and writes the reports, the page drawn by
//! [`Page`]), and its outcome printed as `--format` says ([`super::evaluate_output`]).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_artifacts::SuiteRun;
use ferastrau_report::suite_html;

use super::args::*;
use super::evaluate_output::print;
use ferastrau_harness::evaluate::{self, Outcome};
use ferastrau_report::html::{self, survivors::Survivor, Sources};

/// What an evaluation prints on stdout.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Show {
    /// The table and the summary lines.
    Table,
    /// One JSON document: `evaluation.json`'s figures, the reports' directory and the runner's.
    Json,
    /// The closing line only (`N mutants evaluated in T s; reports in DIR`): the caller
    /// (`gate`) prints its own report of what changed.
    Summary,
    /// Nothing: the caller (`gate --format json`) prints its own document.
    Nothing,
}

/// `ferastrau evaluate`: runs an evaluation and prints it as `--format` says; the reports'
/// directory, or `None` when `--in-diff` left nothing to evaluate. Public for
/// `ferastrau-paper reproduce`, whose runs are `evaluate`'s own command lines.
pub fn cmd_evaluate(a: EvaluateArgs) -> Result<Option<PathBuf>> {
    let show = if a.output.json() {
        Show::Json
    } else {
        Show::Table
    };
    if let Some(suite) = a.suite.clone() {
        return super::suite::run_suite(&a, &suite, show).map(Some);
    }
    run_evaluation(a, show)
}

/// Runs an evaluation and prints it as `show` says; returns the directory its reports went
/// to, or `None` when `--in-diff` leaves nothing to evaluate. A broken run is printed, then
/// returned as the error that says so.
pub(super) fn run_evaluation(a: EvaluateArgs, show: Show) -> Result<Option<PathBuf>> {
    let outcome = evaluate::run(&options(&a), &Page)?;
    print(&outcome, show)?;
    Ok(match outcome.unbroken()? {
        Outcome::Nothing { .. } => None,
        Outcome::Evaluated(summary) => Some(summary.out_dir),
    })
}

/// The command line as the harness takes it.
pub(super) fn options(a: &EvaluateArgs) -> evaluate::Options {
    evaluate::Options {
        target: a.target.named(),
        scopes: a.scopes.clone(),
        comparison: a.compare,
        next_scope: a.next_scope,
        resume: a.resume,
        out: a.out.clone(),
        kill_matrix: a.kill_matrix.then_some(a.kill_matrix_max_deaths),
        count_equivalents: a.count_equivalents,
        jobs: a.jobs.map(usize::from),
        max_time: a.max_time,
        limits: ferastrau_protocol::Limits {
            tick_factor: a.tick_factor,
            tick_floor: a.tick_floor,
            timeout_factor: a.timeout_factor,
            timeout_floor: a.timeout_floor,
        },
        memory_limit: a.original.memory_limit,
        original_timeout: a.original.original_timeout,
        max_scratch: a.original.max_scratch,
        per_process: a.mutants_per_process.map(usize::from),
        in_diff: a.in_diff.clone(),
        shard: a.shard,
        sample: a.sampling.mark(),
        only_mutants: a.only_mutants.clone(),
        reach: !a.no_reach,
    }
}

/// The run's page, drawn by the readers' crate.
pub(super) struct Page;

impl evaluate::Readers for Page {
    type Sources = html::Sources;
    const FILES: &'static [&'static str] = &html::FILES;

    fn sources(&self, crate_dir: &Path, meta: &ferastrau_mutator::Metamutant) -> Result<Sources> {
        Sources::of_metamutant(crate_dir, meta)
    }

    fn on_disk(&self, crate_dir: &Path) -> Sources {
        Sources::Disk(crate_dir.to_path_buf())
    }

    fn changed(&self, sources: &Sources, crate_dir: &Path) -> Vec<String> {
        sources.changed_since(crate_dir)
    }

    fn draw(&self, out_dir: &Path, sources: &Sources, scope: u32) -> Result<Vec<Survivor>> {
        let page = html::write(out_dir, sources)?;
        Ok(html::survivors::at_scope(&page, scope))
    }

    fn draw_suite(
        &self,
        out_dir: &Path,
        run: &mut SuiteRun,
        meta: &ferastrau_mutator::Metamutant,
    ) -> Result<()> {
        let sources = html::model::mutated_sources(meta);
        // Keys, places and regions: what a later `gate --suite` matches the mutants by.
        ferastrau_report::gate::suite_gate::identify(run, &meta.catalog, &sources);
        let stryker = out_dir.join("mutation-testing-report.json");
        let document = suite_html::schema::document(run, &meta.catalog, &sources);
        std::fs::write(&stryker, serde_json::to_string_pretty(&document)? + "\n")
            .with_context(|| format!("cannot write {}", stryker.display()))?;
        let page = out_dir.join("report.html");
        std::fs::write(
            &page,
            suite_html::page::page(run, &meta.catalog, &sources).into_string(),
        )
        .with_context(|| format!("cannot write {}", page.display()))
    }
}
