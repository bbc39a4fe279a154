//! `check`: the command line made into the harness's [`check::Options`], one call
//! ([`check::run`]: the original searched for a counterexample to its own spec, per scope, or
//! per scope and method with `--white-box`), and the outcome printed — the table row by row
//! as each scope is done, the smallest counterexample and the test that reproduces it — kept
//! apart from the other commands because its printing is the longest of them.

use anyhow::Result;

use super::args::*;
use ferastrau_console::term::{paint, style};
use ferastrau_harness::evaluate::check::{self, Outcome, Row};

pub(super) fn cmd_check(a: CheckArgs) -> Result<()> {
    let json = a.output.json();
    let options = check::Options {
        target: a.target.named(),
        scopes: a.scopes,
        white_box: a.white_box,
        memory_limit: a.original.memory_limit,
        original_timeout: a.original.original_timeout,
        max_scratch: a.original.max_scratch,
    };
    let mut printed = false;
    let outcome = check::run(&options, |row| {
        if !json {
            print_row(row, !printed);
            printed = true;
        }
    })?;
    if json {
        ferastrau_console::term::print_json(&document(&outcome))?;
    } else {
        print_found(&outcome);
    }
    outcome.verdict()
}

/// One scope's row of the table, after the header with the first (a run that fails before
/// it prints no table).
fn print_row(row: &Row, header: bool) {
    if header {
        anstream::println!(
            "{}",
            paint(
                style::HEAD,
                format!(
                    "{:>5} {:>10} {:>9} {:>13} {:>9}",
                    "scope", "inputs", "check [s]", "postcondition", "invariant"
                )
            )
        );
    }
    let cell = |n: u64, width: usize| match n {
        0 => format!("{n:>width$}"),
        _ => paint(style::BAD, format!("{n:>width$}")),
    };
    anstream::println!(
        "{:>5} {:>10} {:>9.2} {} {}",
        row.scope,
        row.inputs,
        row.checking_seconds,
        cell(row.postcondition_violations, 13),
        cell(row.invariant_violations, 9),
    );
}

/// The `--format json` document.
fn document(outcome: &Outcome) -> serde_json::Value {
    match outcome {
        Outcome::BlackBox {
            benchmark,
            rows,
            violations,
            smallest,
        } => {
            let rows: Vec<serde_json::Value> = rows
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "scope": r.scope,
                        "inputs": r.inputs,
                        "checking_seconds": r.checking_seconds,
                        "violations": r.violations,
                        "postcondition_violations": r.postcondition_violations,
                        "invariant_violations": r.invariant_violations,
                    })
                })
                .collect();
            let counterexample = smallest.as_ref().map(|s| {
                let v = &s.violation;
                serde_json::json!({
                    "scope": s.scope, "method": v.method, "index": v.index, "input": s.input,
                    "output": v.output, "post_state": v.post_state, "clause": v.clause,
                    "message": v.message, "test": s.test,
                })
            });
            serde_json::json!({
                "benchmark": benchmark,
                "scopes": rows,
                "violations": violations,
                "counterexample": counterexample,
            })
        }
        Outcome::WhiteBox {
            benchmark,
            scopes,
            first,
        } => serde_json::json!({
            "benchmark": benchmark,
            "white_box": true,
            "scopes": scopes,
            "counterexample": first.as_ref().map(|f| {
                let c = &f.counterexample;
                serde_json::json!({
                    "scope": f.scope, "method": f.method, "input": c.input, "output": c.output,
                    "breach": c.breach, "message": c.message, "test": f.test,
                })
            }),
        }),
    }
}

/// What the table is followed by: that there is no counterexample, or the smallest (the
/// first, with `--white-box`) and its test.
fn print_found(outcome: &Outcome) {
    match outcome {
        Outcome::BlackBox { smallest: None, .. } => {
            good("no violation: the original meets its invariant and postconditions on every input")
        }
        Outcome::BlackBox {
            smallest: Some(s), ..
        } => {
            let v = &s.violation;
            head(format!("smallest counterexample (scope {}):", s.scope));
            println!("  input:      {}", s.input);
            println!("  output:     {}", v.output);
            if let Some(post) = &v.post_state {
                println!("  post-state: {post}");
            }
            println!("  fails:      {}: {}", check::clause(v.clause), v.message);
            print_test(s.test.as_deref());
        }
        Outcome::WhiteBox {
            benchmark,
            scopes,
            first,
        } => {
            print!("{}", check::white_box_table(benchmark, scopes));
            let Some(f) = first else {
                return good("no counterexample: the failure predicate holds on no input");
            };
            let c = &f.counterexample;
            head(format!(
                "first counterexample (scope {}, {}):",
                f.scope, f.method
            ));
            println!("  input:  {}", c.input);
            println!("  output: {}", c.output);
            println!("  fails:  {}: {}", check::breach(c.breach), c.message);
            print_test(f.test.as_deref());
        }
    }
}

/// A line that says all is well.
fn good(line: &str) {
    anstream::println!("{}", paint(style::GOOD, line));
}

/// A heading line.
fn head(line: String) {
    anstream::println!("{}", paint(style::HEAD, line));
}

/// `check`'s counterexample as a test to keep, indented under its report.
fn print_test(test: Option<&str>) {
    if let Some(test) = test {
        println!("  as a test (built by calls of the crate's API; it fails as above):");
        for line in test.lines() {
            println!("    {line}");
        }
    }
}
