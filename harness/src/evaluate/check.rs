//! `ferastrau check` as one call: [`run`] searches the original for a counterexample to its
//! own specification, per scope (each scope's inputs generated and the original run on them,
//! as `evaluate` prepares a scope) or, with `--white-box`, per scope and method (the failure
//! predicate's search, `white_box.rs`). The smallest counterexample comes back with the
//! test that reproduces it, where the crate can build inputs by calls; the CLI prints the
//! [`Outcome`] and exits as [`Outcome::verdict`] says.

use std::ops::RangeInclusive;
use std::time::Duration;

use anyhow::Result;
use ferastrau_artifacts::Clause;
use ferastrau_console::exit_code::broken;
use ferastrau_protocol::{Breach, FoundCounterexample};

use super::prepare::{self, Preparation, ScopeRun, Violation};
use crate::export_tests::counterexample_test;
use crate::locate::{BenchmarkCrate, Named};
use crate::outdir::Scratch;
use crate::white_box::{self, ScopeSearch};
use crate::worker::Worker;

/// What `ferastrau check` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The crate.
    pub target: Named,
    pub scopes: RangeInclusive<u32>,
    /// `--white-box`: the failure predicate searched instead.
    pub white_box: bool,
    /// `--memory-limit`, bytes of address space of each process.
    pub memory_limit: u64,
    /// `--original-timeout`: the original's clock limit on one input.
    pub original_timeout: Duration,
    /// `--max-scratch`: bytes the stored inputs of all scopes may take.
    pub max_scratch: u64,
}

/// One scope of the black-box check, as it is done.
#[derive(Clone, Debug)]
pub struct Row {
    pub scope: u32,
    pub inputs: u64,
    pub checking_seconds: f64,
    pub violations: u64,
    pub postcondition_violations: u64,
    pub invariant_violations: u64,
}

/// The smallest counterexample of the black-box check.
pub struct Smallest {
    pub scope: u32,
    pub violation: Violation,
    /// The input as shown: its rendering, prefixed with the method when it does not name it.
    pub input: String,
    /// The counterexample as a test to keep, where the crate can build inputs by calls.
    pub test: Option<String>,
}

/// The first counterexample of the white-box search (the smallest scope's, in method order).
pub struct First {
    pub scope: u32,
    pub method: String,
    pub counterexample: FoundCounterexample,
    /// As a test to keep, where the crate can build inputs by calls.
    pub test: Option<String>,
    /// Method-scope pairs with a counterexample.
    pub found: usize,
}

/// What `check` found.
pub enum Outcome {
    /// Every scope checked on every input.
    BlackBox {
        benchmark: String,
        rows: Vec<Row>,
        /// Violations over all scopes.
        violations: u64,
        smallest: Option<Smallest>,
    },
    /// `--white-box`: every scope's search per method.
    WhiteBox {
        benchmark: String,
        scopes: Vec<ScopeSearch>,
        first: Option<First>,
    },
}

impl Outcome {
    /// A counterexample is a broken original (exit 4), told in one line.
    pub fn verdict(&self) -> Result<()> {
        match self {
            Outcome::BlackBox {
                violations,
                smallest: Some(s),
                ..
            } => Err(broken(format!(
                "{violations} violation(s) of the specification from scope {}; smallest counterexample: {} -> {}: {}: {}",
                s.scope, s.input, s.violation.output, clause(s.violation.clause), s.violation.message
            ))),
            Outcome::WhiteBox { first: Some(f), .. } => Err(broken(format!(
                "counterexamples for {} method-scope pair(s) from scope {}; the first: {} -> {}: {}",
                f.found, f.scope, f.counterexample.input, f.counterexample.output, f.counterexample.message
            ))),
            _ => Ok(()),
        }
    }
}

/// What a violated clause is called in the report.
pub fn clause(c: Clause) -> &'static str {
    match c {
        Clause::Invariant => "the class invariant",
        Clause::Postcondition => "the postcondition",
    }
}

/// What a white-box counterexample breaches, as the report says it.
pub fn breach(b: Breach) -> &'static str {
    match b {
        Breach::Postcondition => "the postcondition",
        Breach::Invariant => "the class invariant",
        Breach::Panic => "a panic",
    }
}

/// `ferastrau check`: the original's worker built, then every scope checked (`on_row` is told
/// of each as it is done, for the table printed as it goes) or, with `--white-box`, searched.
/// A scope without any input is refused: "no violation" on none would say nothing.
pub fn run(opts: &Options, on_row: impl FnMut(&Row)) -> Result<Outcome> {
    let bench = opts.target.locate()?;
    let worker = crate::subject::original_worker(&bench)?;
    if opts.white_box {
        return search(opts, &bench, &worker);
    }
    check(opts, &bench, &worker, on_row)
}

/// The black-box check: every scope's inputs generated and the original run on them.
fn check(
    opts: &Options,
    bench: &BenchmarkCrate,
    worker: &Worker,
    mut on_row: impl FnMut(&Row),
) -> Result<Outcome> {
    let scratch = Scratch::new(bench)?;
    let prep = Preparation::standalone(
        scratch.path(),
        opts.memory_limit,
        opts.original_timeout,
        opts.max_scratch,
        worker.methods()?,
    );
    let mut first_bad: Option<ScopeRun> = None;
    let mut used = 0;
    let mut violations = 0;
    let mut rows = Vec::new();
    for scope in opts.scopes.clone() {
        ferastrau_console::stage!("Checking", "the original on every input of scope {scope}");
        let run = prep.scope(worker, scope, used)?;
        if run.inputs == 0 {
            return Err(prepare::no_input(bench, scope, run.candidates));
        }
        used += run.bytes;
        violations += run.violation_count;
        let row = Row {
            scope,
            inputs: run.inputs,
            checking_seconds: run.checking_seconds,
            violations: run.violation_count,
            postcondition_violations: run.violation_count - run.invariant_violation_count,
            invariant_violations: run.invariant_violation_count,
        };
        on_row(&row);
        rows.push(row);
        if first_bad.is_none() && run.violation_count > 0 {
            first_bad = Some(run);
        }
    }
    // The smallest counterexample: smallest scope, a broken post-state first, then the
    // shortest rendering.
    let smallest = first_bad.map(|run| {
        let v = prepare::counterexample(&run)
            .expect("a violating scope keeps its violations")
            .clone();
        // Renderings usually start with the method's name; name it when they do not.
        let input = if v.input.starts_with(&v.method) {
            v.input.clone()
        } else {
            format!("{} on {}", v.method, v.input)
        };
        let test = counterexample_test(bench, worker, run.scope, &v.method, &v.input);
        Smallest {
            scope: run.scope,
            violation: v,
            input,
            test,
        }
    });
    Ok(Outcome::BlackBox {
        benchmark: bench.name.clone(),
        rows,
        violations,
        smallest,
    })
}

/// `check --white-box`: the failure predicate searched per scope and method, each scope's
/// first counterexamples reported.
fn search(opts: &Options, bench: &BenchmarkCrate, worker: &Worker) -> Result<Outcome> {
    let mut scopes = Vec::new();
    for scope in opts.scopes.clone() {
        ferastrau_console::stage!("Searching", "the failure predicate at scope {scope}");
        scopes.push(white_box::search(
            worker,
            scope,
            opts.memory_limit,
            opts.original_timeout,
        )?);
    }
    let found = scopes
        .iter()
        .flat_map(|s| &s.methods)
        .filter(|m| m.counterexample.is_some())
        .count();
    // The smallest scope's first counterexample, in method order.
    let first = scopes
        .iter()
        .find_map(|s| {
            s.methods.iter().find_map(|m| {
                m.counterexample
                    .as_ref()
                    .map(|c| (s.scope, m.method.clone(), c.clone()))
            })
        })
        .map(|(scope, method, counterexample)| First {
            test: counterexample_test(bench, worker, scope, &method, &counterexample.input),
            scope,
            method,
            counterexample,
            found,
        });
    Ok(Outcome::WhiteBox {
        benchmark: bench.name.clone(),
        scopes,
        first,
    })
}

/// The table of `check --white-box`: per scope and method, the two searches' costs.
pub fn white_box_table(benchmark: &str, scopes: &[ScopeSearch]) -> String {
    white_box::render_table(benchmark, scopes)
}
