//! What the gate prints: the formats (`Print`: a table, one JSON document, a GitHub or GitLab
//! CI job's annotations), the `--format json` document, and the printing of an outcome. Apart
//! from the comparison and the verdict ([`super::gate`]), which decide what there is to say.

use std::path::Path;

use anyhow::Result;
use ferastrau_artifacts::{GateScope, GateSummary, Printed as _, ScopeChanges};

use super::baseline::BenchmarkBaseline;
use super::compare::{Basis, Comparison, Thresholds};
use super::run::GatedRun;
use super::table::{describe, report};
use super::{findings, github, gitlab, GateVerdict};

/// What the gate prints on stdout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Print {
    /// The table of changes and the notes.
    Table,
    /// One document holding the same ([`document`]).
    Json,
    /// The table, then GitHub Actions workflow commands ([`github`]): the verdict first, then
    /// each other regression and each mutant that survives now (`::error`), each new
    /// survivor (`::warning`), at most ten of each; all of them in the step summary.
    Github(github::Github),
    /// The table, and a GitLab Code Quality report of every finding ([`gitlab`]).
    Gitlab(gitlab::Gitlab),
}

impl Print {
    /// What a broken run (exit 4) leaves for the CI job, which has no verdict to show:
    /// its reason, which names the failing input, as an `::error` and in the step summary,
    /// or as the Code Quality report's one finding. Nothing for the other formats, which
    /// print the error as any command does.
    pub fn broken(&self, benchmark: &str, reason: &str) -> Result<()> {
        let finding = findings::broken(benchmark, reason);
        match self {
            Print::Github(g) => {
                print!(
                    "{}",
                    github::annotations(
                        std::slice::from_ref(&finding),
                        &g.crate_dir,
                        &github::current_dir()
                    )
                );
                g.append_summary(&github::broken_summary(
                    benchmark,
                    &finding,
                    g.run_url.as_deref(),
                ));
                Ok(())
            }
            Print::Gitlab(g) => gitlab::write(g, &[finding], benchmark),
            Print::Table | Print::Json => Ok(()),
        }
    }

    /// What an `--in-diff` gate of a change nothing depends on leaves for the CI job: a
    /// summary that says so, or an empty Code Quality report (GitLab then shows the target
    /// branch's findings as fixed only if they are: an absent report would show nothing).
    pub fn nothing_to_gate(&self, benchmark: &str) -> Result<()> {
        match self {
            Print::Github(g) => {
                g.append_summary(&format!(
                    "## ferastrau gate: {benchmark} passed\n\nNothing to gate: the change touches nothing the verdicts depend on.\n\n"
                ));
                Ok(())
            }
            Print::Gitlab(g) => gitlab::write(g, &[], benchmark),
            Print::Table | Print::Json => Ok(()),
        }
    }
}

/// Prints a gate's outcome as `print` says: the JSON document, or the table of changes with
/// its notes and the verdict's line, then, for a CI job, its annotations or Code Quality
/// report of the findings.
#[allow(clippy::too_many_arguments)]
pub(super) fn print_outcome(
    print: &Print,
    dir: &Path,
    baseline: &Path,
    run: &GatedRun,
    reference: &BenchmarkBaseline,
    c: &Comparison,
    basis: Basis,
    t: &Thresholds,
    notes: &[String],
    verdict: GateVerdict,
) -> Result<()> {
    let json = *print == Print::Json;
    if json {
        let doc = document(run, baseline, reference, c, notes, verdict);
        println!("{}", doc.to_text()?);
    } else {
        use ferastrau_console::term::{paint, style};
        anstream::println!(
            "{} against {}",
            paint(style::HEAD, &run.benchmark),
            baseline.display()
        );
        print!("{}", report(run, reference, c, basis));
        for n in notes {
            anstream::println!("{} {n}", paint(style::WARN, "note:"));
        }
        match verdict {
            GateVerdict::Updated => println!(
                "baseline of {} updated in {} ({} scope(s), {} mutants)",
                run.benchmark,
                baseline.display(),
                run.figures.scopes.len(),
                run.figures.mutants.len()
            ),
            GateVerdict::Passed => anstream::println!("{}", paint(style::GOOD, "gate passed")),
            GateVerdict::NoBaseline | GateVerdict::Failed => {}
        }
    }
    if matches!(print, Print::Github(_) | Print::Gitlab(_)) {
        let outcome = findings::Outcome {
            run,
            base: reference,
            comparison: c,
            thresholds: t,
            basis,
            notes,
            verdict,
        };
        let found = outcome.findings();
        match print {
            Print::Github(g) => github::write(g, &outcome, &found, dir)?,
            Print::Gitlab(g) => gitlab::write(g, &found, &run.benchmark)?,
            Print::Table | Print::Json => {}
        }
    }
    Ok(())
}

/// The gate's `--format json` document: per scope the baseline's and the run's figures and
/// what changed (mutant keys), the failures in words, the notes, and the verdict.
fn document(
    run: &GatedRun,
    baseline: &Path,
    reference: &BenchmarkBaseline,
    c: &Comparison,
    notes: &[String],
    verdict: GateVerdict,
) -> GateSummary {
    let scopes: std::collections::BTreeSet<u32> = reference
        .scopes
        .keys()
        .chain(run.figures.scopes.keys())
        .copied()
        .collect();
    GateSummary {
        baseline: baseline.display().to_string(),
        benchmark: run.benchmark.clone(),
        failures: c.failures.iter().map(|f| describe(f, run)).collect(),
        notes: notes.to_vec(),
        scopes: scopes
            .into_iter()
            .map(|s| GateScope {
                baseline: reference.scopes.get(&s).copied(),
                changes: c.changes.get(&s).map(|ch| ScopeChanges {
                    gone: ch.gone.clone(),
                    new_killed: ch.new_killed.clone(),
                    new_surviving: ch.new_surviving.clone(),
                    now_killed: ch.now_killed.clone(),
                    now_skipped: ch.now_skipped.clone(),
                    now_surviving: ch.now_surviving.clone(),
                }),
                now: run.figures.scopes.get(&s).copied(),
                scope: s,
            })
            .collect(),
        verdict,
    }
}
