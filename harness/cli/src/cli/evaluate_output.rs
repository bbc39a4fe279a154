//! What `evaluate` prints: the `--in-diff` selection announced (or nothing to evaluate), the
//! outcome of a run as `--format` says (the table with the survivors and the closing lines,
//! or one JSON document), and the runner's figures with their `runner:` line. Apart from the
//! run itself ([`super::evaluate`]), which decides what there is to print.

use std::path::PathBuf;

use anyhow::Result;
use ferastrau_artifacts::{
    EvaluateOutput, EvaluateSummary, NothingToEvaluate, RunnerFigures, Survivors,
};

use super::commands::print_document;
use super::evaluate::Show;
use super::next_scope;
use ferastrau_harness::evaluate::{self, report};
use ferastrau_harness::in_diff::Selection;
use ferastrau_harness::locate::BenchmarkCrate;
use ferastrau_report::html::survivors::Survivor;

/// What `--in-diff` selected, said before the run (a note), or, when it selects nothing, said
/// as `show` says; `false` then: there is nothing to run.
pub(super) fn announce(
    diff: Option<&Selection>,
    bench: &BenchmarkCrate,
    show: Show,
) -> Result<bool> {
    match diff {
        Some(Selection::Nothing { why }) => {
            match show {
                Show::Json => print_document(&EvaluateOutput::Nothing(NothingToEvaluate {
                    benchmark: bench.name.clone(),
                    evaluated: false,
                    why: why.clone(),
                }))?,
                Show::Table | Show::Summary => {
                    println!("nothing to evaluate for --in-diff: {why}")
                }
                Show::Nothing => {}
            }
            return Ok(false);
        }
        Some(Selection::Everything { why }) => {
            ferastrau_console::note!("--in-diff: every mutant is evaluated: {why}")
        }
        Some(Selection::Functions(functions)) => ferastrau_console::note!(
            "--in-diff: the mutants of {} function(s) are evaluated: {}",
            functions.len(),
            functions
                .iter()
                .map(|(f, why)| format!("{f} ({why})"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => {}
    }
    Ok(true)
}

/// A run's outcome as it is printed: the figures of its reports and of its runner.
pub(super) struct Shown<'a> {
    pub(super) out_dir: &'a PathBuf,
    pub(super) title: &'a str,
    pub(super) rows: &'a [report::Row],
    /// The mutants it evaluated (a shard's share).
    pub(super) evaluated: usize,
    pub(super) next: &'a next_scope::Step,
    pub(super) runner: Option<RunnerFigures>,
    /// The whole command's time.
    pub(super) seconds: f64,
    pub(super) survivors: Vec<Survivor>,
    pub(super) last_scope: u32,
    /// A broken run's survivors mean nothing: they are not listed.
    pub(super) broken: bool,
}

impl Shown<'_> {
    /// Prints the outcome as `show` says.
    pub(super) fn print(self, show: Show) -> Result<()> {
        match show {
            Show::Nothing => {}
            Show::Json => print_document(&EvaluateOutput::Evaluated(Box::new(EvaluateSummary {
                run: report::run_reports(self.out_dir, self.evaluated)?,
                next_scope: self.next.printed(),
                report_html: self.out_dir.join("report.html").display().to_string(),
                runner: self.runner,
                seconds: self.seconds,
                survivors: Survivors {
                    mutants: self.survivors,
                    scope: self.last_scope,
                },
            })))?,
            Show::Table => {
                anstream::print!("{}", evaluate::table::table(self.title, self.rows));
                if let Some(r) = self
                    .runner
                    .filter(|_| ferastrau_console::term::notes())
                    .map(RunnerLine)
                {
                    println!("{r}");
                    ferastrau_console::detail!("{r:#}");
                }
                // A broken run's survivors mean nothing: the error says why instead.
                if !self.broken {
                    print!(
                        "{}",
                        ferastrau_report::html::survivors::Listing {
                            survivors: &self.survivors,
                            scope: self.last_scope,
                            file: &self.out_dir.join(ferastrau_report::html::survivors::FILE),
                        }
                    );
                    if let Some(line) = self.next.line() {
                        println!("{line}");
                    }
                }
                println!("report: {}", self.out_dir.join("report.html").display());
                println!(
                    "{} mutants evaluated in {:.1} s; reports in {}",
                    self.evaluated,
                    self.seconds,
                    self.out_dir.display()
                );
            }
            Show::Summary => println!(
                "{} mutants evaluated in {:.1} s; reports in {}",
                self.evaluated,
                self.seconds,
                self.out_dir.display()
            ),
        }
        Ok(())
    }
}

/// The figures of `ev`'s mutant phase, run with `jobs` threads (the `runner:` line of the table
/// and `runner` in the JSON); `None` when it ran no mutant (every result came from the journal).
pub(super) fn runner_figures(
    ev: &evaluate::EvaluationResults,
    jobs: usize,
) -> Option<RunnerFigures> {
    let t = &ev.timing;
    (t.children > 0 || t.unreached > 0).then(|| RunnerFigures {
        executions: t.executions,
        skipped: t.skipped,
        unreached_mutants: t.unreached,
        seconds: ev.mutant_phase_seconds,
        jobs: jobs as u64,
        processes: t.children,
        overhead_ms_per_process: 1000.0 * (t.child_seconds - t.work_seconds).max(0.0)
            / t.children.max(1) as f64,
        harness_over_bare_loop: (t.work_seconds > 0.0)
            .then(|| ev.mutant_phase_seconds * jobs as f64 / t.work_seconds),
    })
}

/// The runner's figures as the terminal shows them.
struct RunnerLine(RunnerFigures);

impl std::fmt::Display for RunnerLine {
    /// One line under 100 columns; `{:#}` (`--verbose`'s, on stderr) is the detail instead:
    /// the per-process overhead, the throughput and the harness's cost against a bare loop.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.0;
        let all = r.executions + r.skipped;
        if f.alternate() {
            return self.detail(f);
        }
        write!(
            f,
            "runner: {} executions in {:.2} s, {} jobs, {} processes; reach skipped {:.1}% of inputs",
            r.executions,
            r.seconds,
            r.jobs,
            r.processes,
            if all == 0 { 0.0 } else { 100.0 * r.skipped as f64 / all as f64 },
        )?;
        Ok(())
    }
}

impl RunnerLine {
    fn detail(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.0;
        write!(
            f,
            "runner detail: {} mutant×input executions ({:.0}/s), {} skipped (inputs that do not reach the mutant); {} mutants reached by no input ran no process; {:.1} ms overhead per process; harness/bare-loop time ",
            r.executions,
            r.executions as f64 / r.seconds,
            r.skipped,
            r.unreached_mutants,
            r.overhead_ms_per_process,
        )?;
        match r.harness_over_bare_loop {
            Some(x) => write!(f, "{x:.2}×"),
            None => write!(f, "n/a"),
        }
    }
}
