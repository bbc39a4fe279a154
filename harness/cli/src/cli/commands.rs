//! `generate`, `mutants`, `check`, `overhead` and `gate`: the commands around `evaluate`.

use std::time::Duration;

use anyhow::{Context, Result};

use super::args::*;
use super::evaluate::Show;
use ferastrau_console::exit_code::{broken, usage};
use ferastrau_console::term::{paint, style};
use ferastrau_harness::evaluate::Preparation;
use ferastrau_harness::generate;
use ferastrau_harness::outdir::Scratch;
use ferastrau_harness::subject;
use ferastrau_protocol::{Message, Request};

pub(super) fn cmd_generate(a: GenerateArgs) -> Result<()> {
    let bench = a.target.locate()?;
    if !bench.engine.is_korat() && (a.structure || a.generators) {
        // Both search a finitization's candidates: a generator program has choices instead.
        return Err(usage(format!(
            "--structure and --generators search Korat's finitization: leave them out with \
             --engine {}",
            bench.engine
        )));
    }
    let worker = subject::original_worker(&bench)?;
    let progress = ferastrau_console::term::progress();
    let json = a.output.json();
    let mode = generate::Mode {
        jobs: a
            .jobs
            .map(usize::from)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        structure: a.structure,
        generators: a.generators,
    };
    let stats = generate::generate(&worker, a.scopes, a.print, mode, |s| {
        if progress {
            eprint!("\rscope {} done ({} inputs)   ", s.scope, s.inputs);
        }
        ferastrau_console::detail!(
            "scope {}: {} inputs in {:.2} s",
            s.scope,
            s.inputs,
            s.seconds
        );
        if !json && a.print > 0 {
            print!("{}", generate::render_examples(s));
        }
    })?;
    if progress {
        eprint!("\r{:40}\r", "");
    }
    if let Some(s) = stats.iter().find(|s| s.inputs == 0) {
        return Err(ferastrau_harness::evaluate::prepare::no_input(
            &bench,
            s.scope,
            s.candidates,
        ));
    }
    if json {
        ferastrau_console::term::print_json(&serde_json::to_value(generate::document(
            &bench, mode, &stats,
        ))?)?;
    } else {
        print!(
            "{}",
            generate::render_table(&bench, &stats, a.structure, a.generators)
        );
    }
    Ok(())
}

pub(super) fn cmd_export_tests(a: ExportTestsArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let worker = subject::original_worker(&bench)?;
    use ferastrau_harness::export::{test_file, Selection};
    let selection = match (&a.scopes, &a.reduced) {
        (Some(scopes), _) => Selection::Scopes(scopes.clone()),
        (None, Some(file)) => Selection::Reduced({
            // Not while a run holds the directory it is in (clearing it).
            let _reading = match file.parent() {
                Some(dir) => Some(ferastrau_harness::outdir::OutputDir::read(dir)?),
                None => None,
            };
            <ferastrau_artifacts::ReducedSuite as ferastrau_artifacts::Artifact>::read(file)
                .map_err(|e| usage(format!("--reduced {}: {e:#}", file.display())))?
        }),
        (None, None) => unreachable!("clap requires --scopes or --reduced"),
    };
    let text = test_file(&bench, &worker, &selection)?;
    std::fs::write(&a.out, &text)
        .map_err(|e| usage(format!("cannot write {}: {e}", a.out.display())))?;
    let tests = text.matches("#[test]").count();
    let scopes = match &selection {
        Selection::Scopes(s) => format!("at scopes {}..{}", s.start(), s.end()),
        Selection::Reduced(r) => format!(
            "(the reduced suite of scope {}, of {} inputs)",
            r.scope, r.of
        ),
    };
    println!(
        "{tests} tests of {} {scopes} in {}",
        bench.name,
        a.out.display()
    );
    Ok(())
}

pub(super) fn cmd_sequences(a: SequencesArgs) -> Result<()> {
    use ferastrau_harness::sequences::{explore, Ask};
    let bench = a.target.locate()?;
    // The metamutant's worker, the original switched on: its probes count coverage.
    let subject = subject::prepare(&bench)?;
    let probes = subject
        .meta
        .probes
        .iter()
        .map(ferastrau_harness::evaluate::report::probe)
        .collect::<Result<Vec<_>>>()?;
    let ask = Ask {
        length: a.length,
        scope: a.scope.unwrap_or(a.length),
        matching: a.matching,
        calls: a.export.is_some(),
    };
    let exploration = explore(
        &bench.name,
        &subject.worker,
        subject.methods.clone(),
        &probes,
        ask,
    )?;
    if let Some(file) = &a.export {
        let text = exploration.test_file(&bench)?;
        std::fs::write(file, &text)
            .map_err(|e| usage(format!("cannot write {}: {e}", file.display())))?;
        ferastrau_console::stage!(
            "Wrote",
            "{} tests of {}'s calls to {}",
            text.matches("#[test]").count(),
            bench.name,
            file.display()
        );
    }
    let report = exploration.report;
    if a.output.json() {
        ferastrau_console::term::print_json(&serde_json::to_value(&report)?)?;
    } else {
        print!("{}", ferastrau_harness::sequences::render_table(&report));
    }
    Ok(())
}

/// Prints a typed `--format json` document (its schema is committed with the artifacts').
pub(super) fn print_document(doc: &impl ferastrau_artifacts::Printed) -> Result<()> {
    println!("{}", doc.to_text()?);
    Ok(())
}

pub(super) fn sampled(
    catalog: ferastrau_mutator::Catalog,
    s: &Sampling,
) -> ferastrau_mutator::Catalog {
    match s.max_mutants {
        Some(n) => ferastrau_mutator::sample(&catalog, n as usize, s.seed),
        None => catalog,
    }
}

pub(super) fn cmd_mutants(a: MutantsArgs) -> Result<()> {
    if a.diff.is_some() && a.output.json() {
        return Err(usage(
            "--diff prints a unified diff, not JSON: leave out --format json",
        ));
    }
    let bench = a.target.locate()?;
    let meta = subject::metamutant(&bench)?;
    let catalog = sampled(meta.catalog, &a.sampling);
    match a.diff.as_deref() {
        Some("all") => {
            for m in &catalog.mutants {
                print!("{}", ferastrau_mutator::diff(&bench.dir, m)?);
            }
        }
        Some(id) => {
            let id: u32 = id
                .parse()
                .map_err(|_| usage(format!("--diff takes a mutant id or `all`, not {id:?}")))?;
            let m = catalog
                .get(id)
                .ok_or_else(|| usage(format!("{} has no mutant {id}", bench.name)))?;
            print!("{}", ferastrau_mutator::diff(&bench.dir, m)?);
        }
        None if a.output.json() => println!("{}", catalog.to_json()),
        None => print!("{}", catalog.table()),
    }
    Ok(())
}

/// A preparation of scopes into `scratch` under `limits`, for `check` and `overhead`.
fn preparation(
    scratch: &Scratch,
    limits: &OriginalLimits,
    methods: Vec<String>,
    coverage: bool,
) -> Preparation {
    Preparation {
        inputs_dir: scratch.path().join("inputs"),
        scratch_dir: scratch.path().to_path_buf(),
        coverage,
        memory_limit: Some(limits.memory_limit),
        original_timeout: limits.original_timeout,
        max_bytes: limits.max_scratch,
        scratch_bound: ferastrau_harness::evaluate::ScratchBound::Option {
            max: limits.max_scratch,
            used: 0,
        },
        methods,
        reach: false,
        // The search on every core the address-space limit leaves room for.
        jobs: ferastrau_harness::evaluate::prepare::generation_threads(
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(limits.memory_limit),
        ),
    }
}

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
        ferastrau_harness::export::counterexample_test(
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
        ferastrau_harness::export::counterexample_test(bench, worker, scope, method, &c.input)
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

pub(super) fn cmd_gate(a: GateArgs) -> Result<()> {
    if let Some(suite) = a.run.suite.clone() {
        return gate_suite(a, &suite);
    }
    if a.run.shard.is_some() {
        return Err(usage(
            "gate takes a whole run: evaluate the shards, `ferastrau merge` them, then gate with --current DIR",
        ));
    }
    // Refused before it runs, as its reports would be.
    if !a.run.only_mutants.is_empty() {
        return Err(usage(format!(
            "gate --only-mutants: a run of chosen mutants is {}",
            ferastrau_report::gate::run::ONLY_MUTANTS
        )));
    }
    if a.run.compare != ferastrau_protocol::Comparison::Abstract {
        return Err(usage(format!(
            "gate --compare {}: the gate and its baselines compare abstract values (leave --compare out)",
            a.run.compare
        )));
    }
    if a.code_quality.is_some() && !a.run.output.gitlab() {
        return Err(usage(
            "--code-quality FILE is where --format gitlab writes its report: add --format gitlab",
        ));
    }
    // With --format json the gate's document is the only thing on stdout: the evaluation it
    // runs prints nothing (its reports are in their directory, named in the document).
    let json = a.run.output.json();
    let ci = a.run.output.ci();
    // Where annotations place the mutants' files: the gated crate, located before the run;
    // with --current, the crate whose reports they are (and one named too must be it).
    let annotated = match &a.current {
        Some(dir) => crate_of_reports(dir, &a.run.target, ci)?,
        None if ci => {
            let bench = a.run.target.locate()?;
            Some((bench.name, bench.dir))
        }
        None => None,
    };
    use ferastrau_report::gate::{github::Github, gitlab::Gitlab, Print};
    let (benchmark, print) = match (json, annotated) {
        (true, _) => (None, Print::Json),
        (false, Some((name, crate_dir))) if a.run.output.github() => {
            (Some(name), Print::Github(Github::from_env(crate_dir)))
        }
        (false, Some((name, crate_dir))) if a.run.output.gitlab() => (
            Some(name),
            Print::Gitlab(Gitlab {
                crate_dir,
                code_quality: a
                    .code_quality
                    .clone()
                    .unwrap_or_else(|| ferastrau_report::gate::gitlab::DEFAULT_FILE.into()),
            }),
        ),
        (false, _) => (None, Print::Table),
    };
    let show = if json { Show::Nothing } else { Show::Summary };
    let dir = match a.current {
        Some(dir) => dir,
        None => match super::evaluate::run_evaluation(a.run, show) {
            Ok(Some(dir)) => dir,
            // `--in-diff` of a change nothing depends on: said by the evaluation; no verdict
            // is weaker than the baseline's.
            Ok(None) => {
                if !json {
                    println!("gate passed: nothing to gate");
                }
                if let Some(name) = &benchmark {
                    print.nothing_to_gate(name)?;
                }
                return Ok(());
            }
            // A broken run has no verdict, and a CI job shows only what it is told: the
            // reason (naming the failing input) goes to it too, as the gate's own broken
            // runs' do (the status stays the evaluation's).
            Err(e) => {
                if let Some(name) = benchmark.as_deref().filter(|_| {
                    ferastrau_console::exit_code::of(&e)
                        == ferastrau_console::exit_code::Exit::Broken
                }) {
                    if let Err(w) = print.broken(name, &format!("{e:#}")) {
                        ferastrau_console::warning!("{w:#}");
                    }
                }
                return Err(e);
            }
        },
    };
    let thresholds = ferastrau_report::gate::Thresholds {
        min_kill_rate: a.min_kill_rate,
        min_kill_rate_scope: a.min_kill_rate_scope,
        tolerance: a.tolerance,
        fail_on_new_survivors: a.fail_on_new_survivors,
        accept_unmatched: a.accept_unmatched,
    };
    // Held while the gate reads the reports: a run that has taken the directory is clearing
    // them.
    let _reading = ferastrau_harness::outdir::OutputDir::read(&dir)?;
    ferastrau_report::gate::gate(&dir, &a.baseline, &thresholds, a.update_baseline, &print)
}

/// The crate whose reports `dir` holds (its name and directory), when `needed` (for
/// annotations, whose paths are its files): the crate that wrote them (the directory's owner
/// stamp), else the one the command line names, else the current directory's crate if the
/// reports are of its name, else the built-in benchmark of that name. Never the command
/// line's default crate as such: that is, in a checkout, `search_tree`, and annotations at
/// another crate's files point at lines that say nothing. A crate named on the command line
/// that is not the one whose reports they are is refused, needed or not: the gate would judge
/// one crate's run as another's.
fn crate_of_reports(
    dir: &std::path::Path,
    target: &Target,
    needed: bool,
) -> Result<Option<(String, std::path::PathBuf)>> {
    use ferastrau_artifacts::{Artifact, Evaluation};
    use ferastrau_harness::locate::locate_declared;
    let named = target.benchmark.is_some() || target.benchmark_path.is_some();
    if !named && !needed {
        return Ok(None);
    }
    // Reports that cannot be read are the gate's to refuse, with its message.
    let Ok(evaluation) = Evaluation::read(&dir.join("evaluation.json")) else {
        return Ok(None);
    };
    let name = evaluation.benchmark;
    let owner = ferastrau_harness::outdir::recorded_owner(dir).filter(|o| o.is_dir());
    let mismatch = |other: &str| {
        usage(format!(
            "the reports in {} are of {}, not of {other}: leave out --benchmark/--benchmark-path (gate --current takes the crate from its reports) or gate that crate's reports",
            dir.display(),
            match &owner {
                Some(o) => format!("the crate at {}", o.display()),
                None => format!("benchmark {name}"),
            }
        ))
    };
    if named {
        let owned_by = |d: &std::path::Path| {
            owner
                .as_ref()
                .and_then(|o| o.canonicalize().ok())
                .as_deref()
                == Some(d)
        };
        let bench = match (&owner, target.named_dir()) {
            (Some(_), Some(n)) if !owned_by(&n) => {
                return Err(mismatch(&format!("the crate at {}", n.display())))
            }
            (Some(_), Some(_)) if !needed => return Ok(None),
            _ => target.locate()?,
        };
        let same = match &owner {
            Some(_) => owned_by(&bench.dir),
            None => bench.name == name,
        };
        if !same {
            return Err(mismatch(&format!(
                "{} (the crate at {})",
                bench.name,
                bench.dir.display()
            )));
        }
        return Ok(Some((bench.name, bench.dir)));
    }
    if let Some(o) = owner {
        return Ok(Some((name, o)));
    }
    // No owner recorded (reports copied from elsewhere): the crate of the current directory
    // if it is the reports' one, else the built-in benchmark of their name.
    if let Some(here) = target.locate().ok().filter(|b| b.name == name) {
        return Ok(Some((here.name, here.dir)));
    }
    let bench = locate_declared(Some(&name), None).map_err(|e| {
        usage(format!(
            "cannot tell which crate the reports in {} are of (no owner recorded, and {e:#}): name it with --benchmark-path",
            dir.display()
        ))
    })?;
    Ok(Some((bench.name, bench.dir)))
}

/// `gate --suite FILE`: the suite's run against a baseline that is an earlier run's
/// `suite.json` (`ferastrau_report::gate::suite`).
fn gate_suite(a: GateArgs, suite: &std::path::Path) -> Result<()> {
    let refused = [
        (a.current.is_some(), "--current"),
        (a.min_kill_rate_scope.is_some(), "--min-kill-rate-scope"),
        (a.fail_on_new_survivors, "--fail-on-new-survivors"),
        (
            a.run.output.json() || a.run.output.ci(),
            "--format json|github|gitlab",
        ),
        (a.code_quality.is_some(), "--code-quality"),
    ];
    if let Some((_, option)) = refused.iter().find(|(given, _)| *given) {
        return Err(usage(format!(
            "gate --suite takes no {option}: it runs the suite and prints a table (a suite has no scopes, and its baseline knows every mutant it ran)"
        )));
    }
    let dir = super::suite::run_suite(&a.run, suite, super::evaluate::Show::Summary)?;
    let run = <ferastrau_harness::suite::SuiteRun as ferastrau_artifacts::Artifact>::read(
        &dir.join("suite.json"),
    )?;
    let thresholds = ferastrau_report::gate::Thresholds {
        min_kill_rate: a.min_kill_rate,
        min_kill_rate_scope: None,
        tolerance: a.tolerance,
        fail_on_new_survivors: false,
        accept_unmatched: false,
    };
    ferastrau_report::gate::suite::gate(&run, &a.baseline, &thresholds, a.update_baseline)
}

pub(super) fn cmd_overhead(a: OverheadArgs) -> Result<()> {
    if a.scope == 0 {
        return Err(usage("scope 0 is empty: scopes start at 1"));
    }
    let bench = a.target.locate()?;
    let original = subject::original_worker(&bench)?;
    let subject = subject::prepare(&bench)?;
    let scratch = Scratch::new(&bench)?;
    let limits = OriginalLimits {
        memory_limit: 1 << 30,
        original_timeout: Duration::from_secs(10),
        max_scratch: 20 << 30,
    };
    let prep = preparation(&scratch, &limits, original.methods()?, false);
    let run = prep.scope(&original, a.scope, 0)?;
    if let Some(e) = ferastrau_harness::evaluate::prepare::broken_original(&run) {
        return Err(e);
    }
    let replay = |w: &ferastrau_harness::worker::Worker| -> Result<(u64, f64)> {
        let request = Request::Replay {
            scope: a.scope,
            dir: prep.inputs_dir.clone(),
            repeat: a.repeat,
        };
        w.call(&request)?
            .into_iter()
            .find_map(|m| match m {
                Message::Replay {
                    executions,
                    seconds,
                } => Some((executions, seconds)),
                _ => None,
            })
            .context("the worker sent no timing")
    };
    let (executions, plain) = replay(&original)?;
    let (_, meta) = replay(&subject.worker)?;
    if a.output.json() {
        ferastrau_console::term::print_json(&serde_json::json!({
            "benchmark": bench.name,
            "scope": a.scope,
            "repeat": a.repeat,
            "executions": executions,
            "untouched_seconds": plain,
            "metamutant_seconds": meta,
            "ratio": meta / plain,
        }))?;
    } else {
        println!(
            "{} scope {}: {} executions; untouched crate {:.4} s, metamutant (no mutant active) {:.4} s: {:.2}x",
            bench.name,
            a.scope,
            executions,
            plain,
            meta,
            meta / plain
        );
    }
    Ok(())
}

/// The crate name `init DIR` gives without `--name`: DIR's last component (of the current
/// directory for `.`), checked like a given name by `init`.
fn default_crate_name(dir: &std::path::Path) -> Result<String> {
    let absolute = std::path::absolute(dir).with_context(|| format!("{}", dir.display()))?;
    let normal: std::path::PathBuf = absolute.components().collect();
    normal
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string)
        .ok_or_else(|| {
            usage(format!(
                "{} has no name to give the crate: pass --name NAME",
                dir.display()
            ))
        })
}

pub(super) fn cmd_init(a: InitArgs) -> Result<()> {
    use ferastrau_harness::init::{init, SdkSource, Style};
    let sdk = match (a.sdk_path, a.git) {
        (Some(p), _) => {
            // A relative path would be relative to the new crate in its Cargo.toml: make it
            // absolute here, where the user meant it.
            if !p.join("Cargo.toml").is_file() {
                return Err(usage(format!(
                    "--sdk-path {}: no Cargo.toml there (give the checkout's harness/sdk directory)",
                    p.display()
                )));
            }
            SdkSource::Path(
                p.canonicalize()
                    .with_context(|| format!("cannot read {}", p.display()))?,
            )
        }
        (None, Some(url)) => SdkSource::Git { url, rev: a.rev },
        (None, None) => SdkSource::this_version(),
    };
    let style = match a.style {
        InitStyle::Korat => Style::Korat,
        InitStyle::Generator => Style::Generator,
    };
    let name = match a.name {
        Some(name) => name,
        None => default_crate_name(&a.dir)?,
    };
    let files = init(&a.dir, &name, &sdk, style)?;
    let dir = a.dir.display();
    println!("wrote a benchmark crate `{name}` in {dir}:");
    for f in files {
        println!("  {f}");
    }
    println!(
        "next: (cd {dir} && cargo test), then\n  ferastrau generate --benchmark-path {dir} --scopes 1..4\n  \
         ferastrau check --benchmark-path {dir} --scopes 1..4\n  \
         ferastrau evaluate --benchmark-path {dir} --scopes 1..4"
    );
    Ok(())
}
