//! `evaluate`: the command line made into the harness's [`evaluate::Options`], one call
//! ([`evaluate::run`], which runs the experiment and writes the reports, the page drawn by
//! [`Page`]), and its outcome printed as `--format` says ([`super::evaluate_output`]).

use std::path::PathBuf;

use anyhow::Result;

use super::args::*;
use super::evaluate_output::print;
use super::page::Page;
use super::show::Show;
use ferastrau_harness::evaluate::{self, Outcome};

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
    let outcome = evaluate::run(&a.options(), &Page)?;
    print(&outcome, show)?;
    Ok(match outcome.unbroken()? {
        Outcome::Nothing { .. } => None,
        Outcome::Evaluated(summary) => Some(summary.out_dir),
    })
}
