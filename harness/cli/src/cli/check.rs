//! `check`: the original searched for a counterexample to its own spec (per scope, or per
//! scope and method with `--white-box`), kept apart from the other commands because it is
//! the longest of them and has its own printing of a counterexample as a test.

use anyhow::Result;

use super::args::*;
use super::commands::preparation;
use ferastrau_console::exit_code::broken;
use ferastrau_console::term::{paint, style};
use ferastrau_harness::outdir::Scratch;
use ferastrau_harness::subject;

pub(super) fn cmd_check(a: CheckArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let worker = subject::original_worker(&bench)?;
    if a.white_box {
        return check_white_box(a, &bench, &worker);
    }
    let scratch = Scratch::new(&bench)?;
    let prep = preparation(&scratch, &a.original, worker.methods()?, false);
    let json = a.output.json();
    let mut first_bad = None;
    let mut used = 0;
    let mut total = 0;
    let mut rows = Vec::new();
    for scope in a.scopes {
        ferastrau_console::stage!("Checking", "the original on every input of scope {scope}");
        let run = prep.scope(&worker, scope, used)?;
        if run.inputs == 0 {
            return Err(ferastrau_harness::evaluate::prepare::no_input(
                &bench,
                scope,
                run.candidates,
            ));
        }
        used += run.bytes;
        total += run.violation_count;
        let postcondition = run.violation_count - run.invariant_violation_count;
        if !json {
            // The header with the first row: a run that fails before it prints no table.
            if rows.is_empty() {
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
                scope,
                run.inputs,
                run.checking_seconds,
                cell(postcondition, 13),
                cell(run.invariant_violation_count, 9),
            );
        }
        rows.push(serde_json::json!({
            "scope": scope,
            "inputs": run.inputs,
            "checking_seconds": run.checking_seconds,
            "violations": run.violation_count,
            "postcondition_violations": postcondition,
            "invariant_violations": run.invariant_violation_count,
        }));
        if first_bad.is_none() && run.violation_count > 0 {
            first_bad = Some(run);
        }
    }
    // The smallest counterexample: smallest scope, a broken post-state first, then the
    // shortest rendering.
    let smallest = first_bad.as_ref().map(|run| {
        let v = ferastrau_harness::evaluate::prepare::counterexample(run)
            .expect("a violating scope keeps its violations");
        // Renderings usually start with the method's name; name it when they do not.
        let input = if v.input.starts_with(&v.method) {
            v.input.clone()
        } else {
            format!("{} on {}", v.method, v.input)
        };
        (run, v, input)
    });
    // The counterexample as a test to keep, where the benchmark can build inputs by calls.
    let test = smallest.as_ref().and_then(|(run, v, _)| {
        ferastrau_harness::export_tests::counterexample_test(
            &bench, &worker, run.scope, &v.method, &v.input,
        )
    });
    if json {
        let counterexample = smallest.as_ref().map(|(run, v, input)| {
            serde_json::json!({
                "scope": run.scope, "method": v.method, "index": v.index, "input": input,
                "output": v.output, "post_state": v.post_state, "clause": v.clause,
                "message": v.message, "test": test,
            })
        });
        ferastrau_console::term::print_json(&serde_json::json!({
            "benchmark": bench.name,
            "scopes": rows,
            "violations": total,
            "counterexample": counterexample,
        }))?;
    }
    match smallest {
        None => {
            if !json {
                anstream::println!(
                    "{}",
                    paint(
                        style::GOOD,
                        "no violation: the original meets its invariant and postconditions on every input"
                    )
                );
            }
            Ok(())
        }
        Some((run, v, input)) => {
            let clause = match v.clause {
                ferastrau_artifacts::Clause::Invariant => "the class invariant",
                ferastrau_artifacts::Clause::Postcondition => "the postcondition",
            };
            if !json {
                anstream::println!(
                    "{}",
                    paint(
                        style::HEAD,
                        format!("smallest counterexample (scope {}):", run.scope)
                    )
                );
                println!("  input:      {input}");
                println!("  output:     {}", v.output);
                if let Some(post) = &v.post_state {
                    println!("  post-state: {post}");
                }
                println!("  fails:      {clause}: {}", v.message);
                print_test(test.as_deref());
            }
            Err(broken(format!(
                "{total} violation(s) of the specification from scope {}; smallest counterexample: {input} -> {}: {clause}: {}",
                run.scope, v.output, v.message
            )))
        }
    }
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

/// `check --white-box`: the failure predicate searched per scope and method, each scope's
/// first counterexamples reported, the smallest printed as `check` prints it.
fn check_white_box(
    a: CheckArgs,
    bench: &ferastrau_harness::locate::BenchmarkCrate,
    worker: &ferastrau_harness::worker::Worker,
) -> Result<()> {
    use ferastrau_harness::white_box;
    let benchmark = bench.name.as_str();
    let mut scopes = Vec::new();
    for scope in a.scopes.clone() {
        ferastrau_console::stage!("Searching", "the failure predicate at scope {scope}");
        scopes.push(white_box::search(
            worker,
            scope,
            a.original.memory_limit,
            a.original.original_timeout,
        )?);
    }
    // The smallest scope's first counterexample, in method order.
    let first = scopes.iter().find_map(|s| {
        s.methods
            .iter()
            .find_map(|m| m.counterexample.as_ref().map(|c| (s.scope, &m.method, c)))
    });
    let test = first.and_then(|(scope, method, c)| {
        ferastrau_harness::export_tests::counterexample_test(bench, worker, scope, method, &c.input)
    });
    if a.output.json() {
        ferastrau_console::term::print_json(&serde_json::json!({
            "benchmark": benchmark,
            "white_box": true,
            "scopes": scopes,
            "counterexample": first.map(|(scope, method, c)| serde_json::json!({
                "scope": scope, "method": method, "input": c.input, "output": c.output,
                "breach": c.breach, "message": c.message, "test": test,
            })),
        }))?;
    } else {
        print!("{}", white_box::render_table(benchmark, &scopes));
    }
    let Some((scope, method, c)) = first else {
        if !a.output.json() {
            anstream::println!(
                "{}",
                paint(
                    style::GOOD,
                    "no counterexample: the failure predicate holds on no input"
                )
            );
        }
        return Ok(());
    };
    let found = scopes
        .iter()
        .flat_map(|s| &s.methods)
        .filter(|m| m.counterexample.is_some())
        .count();
    if !a.output.json() {
        anstream::println!(
            "{}",
            paint(
                style::HEAD,
                format!("first counterexample (scope {scope}, {method}):")
            )
        );
        println!("  input:  {}", c.input);
        println!("  output: {}", c.output);
        let breach = match c.breach {
            ferastrau_protocol::Breach::Postcondition => "the postcondition",
            ferastrau_protocol::Breach::Invariant => "the class invariant",
            ferastrau_protocol::Breach::Panic => "a panic",
        };
        println!("  fails:  {breach}: {}", c.message);
        print_test(test.as_deref());
    }
    Err(broken(format!(
        "counterexamples for {found} method-scope pair(s) from scope {scope}; the first: {} -> {}: {}",
        c.input, c.output, c.message
    )))
}
