//! What `evaluate` prints: the outcome of [`ferastrau_harness::evaluate::run`] as `--format`
//! says (nothing to evaluate for `--in-diff`; the table with the survivors, the next scope and
//! the closing lines; or one JSON document), and the runner's figures with their `runner:`
//! line.

use std::time::Duration;

use anyhow::Result;
use ferastrau_artifacts::{EvaluateOutput, NothingToEvaluate, RunnerFigures};
use ferastrau_console::term::duration;

use super::show::{print_document, Show};
use ferastrau_harness::evaluate::next_scope::{NextScope, Step};
use ferastrau_harness::evaluate::{self, Outcome, Summary};

/// Prints `outcome` as `show` says.
pub(super) fn print(outcome: &Outcome, show: Show) -> Result<()> {
    match outcome {
        Outcome::Nothing { benchmark, why } => match show {
            Show::Json => print_document(&EvaluateOutput::Nothing(NothingToEvaluate {
                benchmark: benchmark.clone(),
                evaluated: false,
                why: why.clone(),
            })),
            Show::Table | Show::Summary => {
                println!("nothing to evaluate for --in-diff: {why}");
                Ok(())
            }
            Show::Nothing => Ok(()),
        },
        Outcome::Evaluated(summary) => printed(summary, show),
    }
}

/// Prints a run's summary as `show` says.
fn printed(s: &Summary, show: Show) -> Result<()> {
    let (d, e) = (&s.document, &s.document.run.evaluation);
    match show {
        Show::Nothing => {}
        Show::Json => print_document(&EvaluateOutput::Evaluated(Box::new(d.clone())))?,
        Show::Table => {
            anstream::print!(
                "{}",
                evaluate::table::table(&s.title, &e.scopes, e.equivalents_counted)
            );
            if let Some(r) = d
                .runner
                .filter(|_| ferastrau_console::term::notes())
                .map(RunnerLine)
            {
                println!("{r}");
                ferastrau_console::detail!("{r:#}");
            }
            // A broken run's survivors mean nothing: the error says why instead.
            if e.broken.is_none() {
                print!(
                    "{}",
                    ferastrau_report::html::survivors::Listing {
                        survivors: &d.survivors.mutants,
                        scope: d.survivors.scope,
                        file: &s.out_dir.join(ferastrau_report::html::survivors::FILE),
                    }
                );
                if let Some(line) = next_scope_line(&s.next) {
                    println!("{line}");
                }
            }
            println!("report: {}", d.report_html);
            println!(
                "{} mutants evaluated in {:.1} s; reports in {}",
                d.run.evaluated,
                d.seconds,
                s.out_dir.display()
            );
        }
        Show::Summary => println!(
            "{} mutants evaluated in {:.1} s; reports in {}",
            d.run.evaluated,
            d.seconds,
            s.out_dir.display()
        ),
    }
    Ok(())
}

/// What the run says about scope s + 1 after its survivor list.
fn next_scope_line(step: &Step) -> Option<String> {
    match step {
        Step::Nothing => None,
        Step::Offer {
            survivors,
            scope,
            seconds,
        } => Some(format!(
            "next: --next-scope runs the {survivors} survivor(s) at scope {scope} too (about {})",
            duration(Duration::from_secs_f64(seconds.max(1.0)))
        )),
        Step::Ran { scope, marks } => {
            let count = |f: fn(&NextScope) -> bool| marks.iter().filter(|m| f(m)).count();
            Some(format!(
                "scope {scope} (--next-scope): {} survive it too, {} killed there, {} not run",
                count(|m| matches!(m, NextScope::Survived { .. })),
                count(|m| matches!(m, NextScope::Killed { .. })),
                count(|m| matches!(m, NextScope::NotRun { .. })),
            ))
        }
    }
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
