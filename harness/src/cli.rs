//! The command line: arguments (clap) and what each command does.

use std::io::IsTerminal;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};

use crate::evaluate::{self, report};
use crate::generate;
use crate::locate::{locate, workspace_root, BenchmarkCrate};
use crate::scopes::parse_scopes;
use crate::subject;
use crate::worker::{scratch_dir, work_dir, Worker};

/// Measures how good bounded-exhaustive test suites are: Korat generates every
/// non-isomorphic input up to a scope, mutants show what those inputs catch.
#[derive(Parser)]
#[command(name = "ferastrau", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Cmd,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Generate every valid input per scope with Korat; print inputs, candidates and seconds.
    Generate(GenerateArgs),
    /// List the benchmark's mutants (compile-pruned), or show them as diffs.
    Mutants(MutantsArgs),
    /// Check the original against its postconditions on every input (no mutants).
    Check(CheckArgs),
    /// Run the original and every mutant on every input; kill rates and coverage per scope.
    Evaluate(EvaluateArgs),
    /// Measure what the metamutant's guards cost: the untouched crate versus the metamutant
    /// with no mutant active, on the same inputs (best of several runs).
    Overhead(OverheadArgs),
}

#[derive(Args)]
pub struct OverheadArgs {
    #[command(flatten)]
    pub target: Target,
    /// The scope whose inputs both builds run on.
    #[arg(long, default_value_t = 6)]
    pub scope: u32,
    /// Runs per build; the best counts.
    #[arg(long, default_value_t = 5)]
    pub repeat: u32,
}

/// Which benchmark crate to work on.
#[derive(Args)]
pub struct Target {
    /// A built-in benchmark (a directory under benchmarks/).
    #[arg(long, default_value = "search_tree", conflicts_with = "benchmark_path")]
    pub benchmark: String,
    /// A benchmark crate anywhere on disk (your own).
    #[arg(long, value_name = "DIR")]
    pub benchmark_path: Option<PathBuf>,
}

impl Target {
    fn locate(&self) -> Result<BenchmarkCrate> {
        locate(Some(&self.benchmark), self.benchmark_path.as_deref())
    }
}

#[derive(Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(long, value_parser = parse_scopes, default_value = "1..5")]
    pub scopes: RangeInclusive<u32>,
    /// Print one JSON document instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Show the first N inputs of each method at each scope.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub print: usize,
}

/// A deterministic sample of the mutants.
#[derive(Args)]
pub struct Sampling {
    /// Keep at most N mutants: a family-stratified sample (the paper used 200–300).
    #[arg(long, value_name = "N")]
    pub max_mutants: Option<usize>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

#[derive(Args)]
pub struct MutantsArgs {
    #[command(flatten)]
    pub target: Target,
    /// Print one JSON document instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Show a mutant (by id), or `all`, as a unified diff of the benchmark's source.
    #[arg(long, value_name = "ID|all")]
    pub diff: Option<String>,
    #[command(flatten)]
    pub sampling: Sampling,
}

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(long, value_parser = parse_scopes, default_value = "1..5")]
    pub scopes: RangeInclusive<u32>,
}

#[derive(Args)]
pub struct EvaluateArgs {
    #[command(flatten)]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(long, value_parser = parse_scopes, default_value = "1..5")]
    pub scopes: RangeInclusive<u32>,
    /// Parallel mutant processes (default: every core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Deterministic time limit per input: a mutant may run this many times the original's
    /// ticks (loop iterations and calls of the mutated code)...
    #[arg(long, default_value_t = 10, value_name = "K")]
    pub tick_factor: u64,
    /// ...plus this many.
    #[arg(long, default_value_t = 10_000, value_name = "T")]
    pub tick_floor: u64,
    /// Wall-clock limit per input, the paper's `10 × T_original + 1 s`: the factor...
    #[arg(long, default_value_t = 10.0, value_name = "F")]
    pub timeout_factor: f64,
    /// ...and the floor (e.g. `1s`, `250ms`).
    #[arg(long, default_value = "1s", value_parser = parse_duration, value_name = "DURATION")]
    pub timeout_floor: Duration,
    /// Address-space limit of each mutant process (e.g. `1G`, `512M`).
    #[arg(long, default_value = "1G", value_parser = parse_size, value_name = "SIZE")]
    pub memory_limit: u64,
    /// Where reports go (default: reports/<benchmark>/).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue an interrupted run from its journal.
    #[arg(long)]
    pub resume: bool,
    #[command(flatten)]
    pub sampling: Sampling,
}

/// `250ms`, `1s`, `2.5s`, `1m`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || format!("{s:?} is not a duration (e.g. 1s, 250ms)");
    let (num, unit) = s
        .find(|c: char| c.is_ascii_alphabetic())
        .map(|i| s.split_at(i))
        .ok_or_else(bad)?;
    let v: f64 = num.parse().map_err(|_| bad())?;
    let secs = match unit {
        "ms" => v / 1000.0,
        "s" => v,
        "m" => v * 60.0,
        _ => return Err(bad()),
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

/// `1G`, `512M`, `64K` or plain bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let bad = || format!("{s:?} is not a size (e.g. 1G, 512M)");
    let (num, mult) = match s.chars().last() {
        Some('G' | 'g') => (&s[..s.len() - 1], 1u64 << 30),
        Some('M' | 'm') => (&s[..s.len() - 1], 1 << 20),
        Some('K' | 'k') => (&s[..s.len() - 1], 1 << 10),
        _ => (s, 1),
    };
    let v: u64 = num.parse().map_err(|_| bad())?;
    if v == 0 {
        return Err(format!("{s:?}: the memory limit must be positive"));
    }
    v.checked_mul(mult).ok_or_else(bad)
}

fn stderr_is_tty() -> bool {
    std::io::stderr().is_terminal()
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Cmd::Generate(a) => cmd_generate(a),
        Cmd::Mutants(a) => cmd_mutants(a),
        Cmd::Check(a) => cmd_check(a),
        Cmd::Evaluate(a) => cmd_evaluate(a),
        Cmd::Overhead(a) => cmd_overhead(a),
    }
}

fn cmd_generate(a: GenerateArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let worker = Worker::build_for(&bench, &work_dir(&bench, "original"))?;
    let tty = stderr_is_tty();
    let stats = generate::generate(&worker, a.scopes, a.print, |s| {
        if tty && !a.json {
            eprint!("\rscope {} done ({} inputs)   ", s.scope, s.inputs);
        }
        if !a.json && a.print > 0 {
            print!("{}", generate::render_examples(s));
        }
    })?;
    if tty && !a.json {
        eprint!("\r{:40}\r", "");
    }
    if a.json {
        let doc = serde_json::json!({ "benchmark": bench.name, "scopes": stats });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print!("{}", generate::render_table(&bench, &stats));
    }
    Ok(())
}

fn sampled(catalog: ferastrau_mutator::Catalog, s: &Sampling) -> ferastrau_mutator::Catalog {
    match s.max_mutants {
        Some(n) => ferastrau_mutator::sample(&catalog, n, s.seed),
        None => catalog,
    }
}

fn cmd_mutants(a: MutantsArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let meta = subject::metamutant(&bench, stderr_is_tty())?;
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
                .map_err(|_| anyhow::anyhow!("--diff takes a mutant id or `all`, not {id:?}"))?;
            let m = catalog
                .get(id)
                .with_context(|| format!("{} has no mutant {id}", bench.name))?;
            print!("{}", ferastrau_mutator::diff(&bench.dir, m)?);
        }
        None if a.json => println!("{}", catalog.to_json()),
        None => print!("{}", catalog.table()),
    }
    Ok(())
}

fn cmd_check(a: CheckArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let worker = Worker::build_for(&bench, &work_dir(&bench, "original"))?;
    let dir = scratch_dir(&bench, "check-inputs");
    println!(
        "{:>5} {:>10} {:>9} {:>10}",
        "scope", "# inputs", "check [s]", "violations"
    );
    let mut first_bad = None;
    for scope in a.scopes {
        let run = evaluate::prepare_scope(&worker, scope, &dir, false, Duration::from_secs(3600))?;
        println!(
            "{:>5} {:>10} {:>9.2} {:>10}",
            scope, run.inputs, run.checking_seconds, run.violation_count
        );
        if first_bad.is_none() && run.violation_count > 0 {
            first_bad = Some(run);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    match first_bad {
        None => {
            println!("no violation: the original meets its postconditions on every input");
            Ok(())
        }
        Some(run) => {
            // The smallest counterexample: smallest scope, then shortest rendering.
            let v = run
                .violations
                .iter()
                .min_by_key(|v| (v.input.len(), v.input.clone()))
                .expect("a violating scope keeps its violations");
            bail!(
                "{} violation(s) at scope {}; smallest counterexample: {} -> {}: {}",
                run.violation_count,
                run.scope,
                v.input,
                v.output,
                v.message
            )
        }
    }
}

fn cmd_evaluate(a: EvaluateArgs) -> Result<()> {
    if !(a.timeout_factor.is_finite() && a.timeout_factor >= 0.0) {
        bail!("--timeout-factor must be a non-negative number");
    }
    let bench = a.target.locate()?;
    let tty = stderr_is_tty();
    let subject = subject::prepare(&bench, tty)?;
    let catalog = sampled(subject.meta.catalog.clone(), &a.sampling);
    let viable: Vec<u32> = catalog.viable().map(|m| m.id).collect();
    let out_dir = a
        .out
        .clone()
        .unwrap_or_else(|| workspace_root().join("reports").join(&bench.name));
    let opts = evaluate::Options {
        scopes: a.scopes.clone(),
        jobs: a.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }),
        limits: ferastrau_worker::Limits {
            tick_factor: a.tick_factor,
            tick_floor: a.tick_floor,
            timeout_factor: a.timeout_factor,
            timeout_floor: a.timeout_floor,
        },
        memory_limit: a.memory_limit,
        out_dir: out_dir.clone(),
        resume: a.resume,
        progress: tty,
    };
    let started = std::time::Instant::now();
    let ev = evaluate::evaluate(
        &bench.name,
        &subject.worker,
        &subject.methods,
        &viable,
        &opts,
    )?;
    if ev.interrupted {
        bail!(
            "interrupted; the results so far are in {}; continue with --resume",
            out_dir.join("journal.jsonl").display()
        );
    }
    let rows = report::rows(&ev.scopes, &ev.results, viable.len(), &subject.meta.probes);
    let listed: Vec<serde_json::Value> = catalog
        .mutants
        .iter()
        .map(|m| serde_json::to_value(m).expect("mutants serialize"))
        .collect();
    report::write(&out_dir, &bench.name, &rows, &listed, &ev.results)?;
    print!("{}", report::table(&bench.name, &rows));
    for s in ev.scopes.iter().filter(|s| s.violation_count > 0) {
        eprintln!(
            "warning: the original violates its postcondition on {} input(s) at scope {} (see `ferastrau check`)",
            s.violation_count, s.scope
        );
    }
    let t = &ev.timing;
    if t.children > 0 && t.work_seconds > 0.0 {
        println!(
            "runner: {} mutant×input executions in {:.2} s with {} jobs ({:.0}/s); {} processes, {:.1} ms overhead each; harness/bare-loop time {:.2}×",
            t.executions,
            ev.mutant_phase_seconds,
            opts.jobs,
            t.executions as f64 / ev.mutant_phase_seconds,
            t.children,
            1000.0 * (t.child_seconds - t.work_seconds).max(0.0) / t.children as f64,
            ev.mutant_phase_seconds * opts.jobs as f64 / t.work_seconds,
        );
    }
    println!(
        "{} mutants in {:.1} s; reports in {}",
        viable.len(),
        started.elapsed().as_secs_f64(),
        out_dir.display()
    );
    Ok(())
}

fn cmd_overhead(a: OverheadArgs) -> Result<()> {
    if a.scope == 0 {
        bail!("scope 0 is empty: scopes start at 1");
    }
    let bench = a.target.locate()?;
    let original = Worker::build_for(&bench, &work_dir(&bench, "original"))?;
    let subject = subject::prepare(&bench, stderr_is_tty())?;
    let dir = scratch_dir(&bench, "overhead-inputs");
    evaluate::prepare_scope(&original, a.scope, &dir, false, Duration::from_secs(3600))?;
    #[derive(serde::Deserialize)]
    struct Replay {
        executions: u64,
        seconds: f64,
    }
    let replay = |w: &Worker| -> Result<Replay> {
        let args = [
            "replay".to_string(),
            "--scope".into(),
            a.scope.to_string(),
            "--dir".into(),
            dir.display().to_string(),
            "--repeat".into(),
            a.repeat.to_string(),
        ];
        w.lines::<Replay>(&args)?
            .pop()
            .context("the worker printed no timing")
    };
    let plain = replay(&original)?;
    let meta = replay(&subject.worker)?;
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{} scope {}: {} executions; untouched crate {:.4} s, metamutant (no mutant active) {:.4} s: {:.2}x",
        bench.name,
        a.scope,
        plain.executions,
        plain.seconds,
        meta.seconds,
        meta.seconds / plain.seconds
    );
    Ok(())
}
