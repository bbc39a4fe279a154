//! The command line: arguments (clap) and what each command does.

use std::io::IsTerminal;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use crate::evaluate::{self, report, Preparation};
use crate::exit_code::{broken, usage};
use crate::fingerprint::{tree_hash, Fingerprint, Hasher};
use crate::generate;
use crate::locate::{locate, BenchmarkCrate};
use crate::outdir::{OutputDir, Scratch};
use crate::scopes::parse_scopes;
use crate::subject;
use ferastrau_worker::protocol::{Message, Request};

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
    /// Compare a run with a committed baseline; fail (exit 3) on a weaker kill rate, a mutant
    /// that used to die and now survives, or lost coverage.
    Gate(GateArgs),
}

#[derive(Args)]
pub struct GateArgs {
    /// The baseline file (JSON, one section per benchmark; written by --update-baseline).
    #[arg(long, value_name = "FILE")]
    pub baseline: PathBuf,
    /// Gate the reports of an `evaluate` that already ran (its --out directory) instead of
    /// running one.
    #[arg(long, value_name = "DIR")]
    pub current: Option<PathBuf>,
    /// Fail when any scope's kill rate is under this percentage.
    #[arg(long, value_name = "PCT", value_parser = parse_percent)]
    pub min_kill_rate: Option<f64>,
    /// Points the kill rate may fall under the baseline's before the gate fails.
    #[arg(long, value_name = "PCT", default_value_t = 0.0, value_parser = parse_percent)]
    pub tolerance: f64,
    /// Fail when a mutant the baseline does not know (new code) survives.
    #[arg(long)]
    pub fail_on_new_survivors: bool,
    /// Make this run the benchmark's baseline (prints what changed; refused for a broken run).
    #[arg(long)]
    pub update_baseline: bool,
    /// The evaluation to run when --current is not given.
    #[command(flatten)]
    pub run: EvaluateArgs,
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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_mutants: Option<u32>,
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
    #[command(flatten)]
    pub original: OriginalLimits,
}

/// The limits generation and the original run under (the mutants' own, and a clock limit).
#[derive(Args, Clone)]
pub struct OriginalLimits {
    /// Address-space limit of every worker process: generation, the original, each mutant
    /// (e.g. `1G`, `512M`).
    #[arg(long, default_value = "1G", value_parser = parse_size, value_name = "SIZE")]
    pub memory_limit: u64,
    /// Clock limit of the original on one input (decoding, the call, the checks); an original
    /// that runs longer stops the run, naming the input.
    #[arg(long, default_value = "10s", value_parser = parse_positive_duration, value_name = "DURATION")]
    pub original_timeout: Duration,
    /// Scratch space the stored inputs of all scopes may take; a scope estimated to need more
    /// is refused before it is generated.
    #[arg(long, default_value = "20G", value_parser = parse_size, value_name = "SIZE")]
    pub max_scratch: u64,
}

#[derive(Args)]
pub struct EvaluateArgs {
    #[command(flatten)]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(long, value_parser = parse_scopes, default_value = "1..5")]
    pub scopes: RangeInclusive<u32>,
    /// Parallel mutant processes (default: every core; at most 256).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Deterministic time limit per input: a mutant may run this many times the original's
    /// ticks (loop iterations and calls of the mutated code)...
    #[arg(long, default_value_t = 10, value_name = "K", value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub tick_factor: u64,
    /// ...plus this many.
    #[arg(long, default_value_t = 10_000, value_name = "T", value_parser = clap::value_parser!(u64).range(0..=1_000_000_000_000))]
    pub tick_floor: u64,
    /// Wall-clock limit per input, the paper's `10 × T_original + 1 s`: the factor...
    #[arg(long, default_value_t = 10.0, value_name = "F", value_parser = parse_factor)]
    pub timeout_factor: f64,
    /// ...and the floor (e.g. `1s`, `250ms`; not zero: a limit of zero would depend on when
    /// the watchdog looks).
    #[arg(long, default_value = "1s", value_parser = parse_positive_duration, value_name = "DURATION")]
    pub timeout_floor: Duration,
    #[command(flatten)]
    pub original: OriginalLimits,
    /// Where reports go (default: ferastrau.out/<benchmark>/ in the current directory).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Evaluate only the mutants on lines this unified diff (e.g. `git diff main`) adds or
    /// changes: a fast check for a pull request. The reports say so, and `gate` then compares
    /// mutants only, not kill rates or coverage.
    #[arg(long, value_name = "FILE")]
    pub in_diff: Option<PathBuf>,
    /// Continue an interrupted run from its journal (refused if anything it depends on
    /// changed: the benchmark's source, the tool, the mutants, the limits or the scopes).
    #[arg(long)]
    pub resume: bool,
    #[command(flatten)]
    pub sampling: Sampling,
}

/// The longest duration any option takes: a day.
const MAX_DURATION: Duration = Duration::from_secs(24 * 3600);

/// A clock factor: a finite number from 0 to 1000.
pub fn parse_factor(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a factor from 0 to 1000")),
    }
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
    match Duration::try_from_secs_f64(secs) {
        Ok(d) if d <= MAX_DURATION => Ok(d),
        Ok(_) => Err(format!("{s:?} is longer than a day")),
        Err(_) => Err(bad()),
    }
}

/// A percentage from 0 to 100.
pub fn parse_percent(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=100.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a percentage from 0 to 100")),
    }
}

/// A duration longer than zero.
pub fn parse_positive_duration(s: &str) -> Result<Duration, String> {
    match parse_duration(s)? {
        d if d.is_zero() => Err(format!("{s:?}: the limit must be longer than zero")),
        d => Ok(d),
    }
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
        return Err(format!("{s:?}: a size must be positive"));
    }
    match v.checked_mul(mult) {
        Some(b) if b <= 1 << 40 => Ok(b),
        _ => Err(format!("{s:?} is more than 1 TiB")),
    }
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
        Cmd::Evaluate(a) => cmd_evaluate(a).map(|_| ()),
        Cmd::Overhead(a) => cmd_overhead(a),
        Cmd::Gate(a) => cmd_gate(a),
    }
}

fn cmd_generate(a: GenerateArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let worker = subject::original_worker(&bench)?;
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
        Some(n) => ferastrau_mutator::sample(&catalog, n as usize, s.seed),
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
                .map_err(|_| usage(format!("--diff takes a mutant id or `all`, not {id:?}")))?;
            let m = catalog
                .get(id)
                .ok_or_else(|| usage(format!("{} has no mutant {id}", bench.name)))?;
            print!("{}", ferastrau_mutator::diff(&bench.dir, m)?);
        }
        None if a.json => println!("{}", catalog.to_json()),
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
        methods,
    }
}

fn cmd_check(a: CheckArgs) -> Result<()> {
    let bench = a.target.locate()?;
    let worker = subject::original_worker(&bench)?;
    let scratch = Scratch::new()?;
    let prep = preparation(&scratch, &a.original, worker.methods()?, false);
    println!(
        "{:>5} {:>10} {:>9} {:>10}",
        "scope", "# inputs", "check [s]", "violations"
    );
    let mut first_bad = None;
    let mut used = 0;
    for scope in a.scopes {
        let run = prep.scope(&worker, scope, used)?;
        used += run.bytes;
        println!(
            "{:>5} {:>10} {:>9.2} {:>10}",
            scope, run.inputs, run.checking_seconds, run.violation_count
        );
        if first_bad.is_none() && run.violation_count > 0 {
            first_bad = Some(run);
        }
    }
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
            // Renderings usually start with the method's name; name it when they do not.
            let input = if v.input.starts_with(&v.method) {
                v.input.clone()
            } else {
                format!("{} on {}", v.method, v.input)
            };
            Err(broken(format!(
                "{} violation(s) at scope {}; smallest counterexample: {input} -> {}: {}",
                run.violation_count, run.scope, v.output, v.message
            )))
        }
    }
}

/// The fingerprint of an evaluation: everything its results depend on.
fn fingerprint(
    bench: &BenchmarkCrate,
    subject: &subject::Subject,
    catalog: &ferastrau_mutator::Catalog,
    viable: &[u32],
    a: &EvaluateArgs,
    limits: ferastrau_worker::Limits,
) -> Result<Fingerprint> {
    let mut h = Hasher::default();
    for m in catalog.mutants.iter().filter(|m| viable.contains(&m.id)) {
        h.feed(serde_json::to_string(m)?.as_bytes());
    }
    Ok(Fingerprint {
        tool: env!("CARGO_PKG_VERSION").to_string(),
        benchmark: bench.name.clone(),
        crate_dir: bench.dir.display().to_string(),
        source: tree_hash(&bench.dir)?,
        worker: subject.worker.hash.clone(),
        mutants: viable.to_vec(),
        catalog: h.hex(),
        sample: a
            .sampling
            .max_mutants
            .map(|n| (n as usize, a.sampling.seed)),
        scopes: (*a.scopes.start(), *a.scopes.end()),
        limits,
        memory_limit: a.original.memory_limit,
        original_timeout_ms: a.original.original_timeout.as_millis() as u64,
    })
}

fn cmd_gate(a: GateArgs) -> Result<()> {
    let dir = match a.current {
        Some(dir) => dir,
        None => cmd_evaluate(a.run)?,
    };
    let thresholds = crate::gate::Thresholds {
        min_kill_rate: a.min_kill_rate,
        tolerance: a.tolerance,
        fail_on_new_survivors: a.fail_on_new_survivors,
    };
    crate::gate::gate(&dir, &a.baseline, &thresholds, a.update_baseline)
}

/// Runs an evaluation; returns the directory its reports went to.
fn cmd_evaluate(a: EvaluateArgs) -> Result<PathBuf> {
    let bench = a.target.locate()?;
    let out_dir = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("ferastrau.out").join(&bench.name));
    // Taken before anything is built or written: a second run on the same directory fails at
    // once instead of mixing its results into this one's.
    let out = OutputDir::take(&out_dir, &bench.name, &bench.dir)?;
    report::clear(&out.path)?;
    let tty = stderr_is_tty();
    let subject = subject::prepare(&bench, tty)?;
    let mut catalog = sampled(subject.meta.catalog.clone(), &a.sampling);
    if let Some(diff) = &a.in_diff {
        let changed = crate::in_diff::ChangedLines::read(diff)?;
        catalog.mutants.retain(|m| changed.touches(&bench.dir, m));
    }
    let viable: Vec<u32> = catalog.viable().map(|m| m.id).collect();
    let limits = ferastrau_worker::Limits {
        tick_factor: a.tick_factor,
        tick_floor: a.tick_floor,
        timeout_factor: a.timeout_factor,
        timeout_floor: a.timeout_floor,
    };
    let opts = evaluate::Options {
        scopes: a.scopes.clone(),
        jobs: a.jobs.map(usize::from).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }),
        limits,
        memory_limit: a.original.memory_limit,
        original_timeout: a.original.original_timeout,
        max_scratch: a.original.max_scratch,
        resume: a.resume,
        progress: tty,
    };
    let fingerprint = fingerprint(&bench, &subject, &catalog, &viable, &a, limits)?;
    let started = std::time::Instant::now();
    let ev = evaluate::evaluate(
        &out,
        &fingerprint,
        &subject.worker,
        &subject.methods,
        &viable,
        &opts,
    )?;
    if ev.interrupted {
        return Err(anyhow::Error::new(crate::exit_code::Interrupted(format!(
            "interrupted; the results so far are in {}; continue with --resume",
            out_dir.join("journal.jsonl").display()
        ))));
    }
    let paper: std::collections::BTreeSet<u32> = catalog
        .viable()
        .filter(|m| m.family != ferastrau_mutator::Family::Constant)
        .map(|m| m.id)
        .collect();
    // A diff that touches no mutated code leaves nothing to judge: not a broken run.
    let broken_why = ev
        .broken
        .filter(|_| !(a.in_diff.is_some() && viable.is_empty()));
    let mut marks = serde_json::Map::new();
    if let Some(why) = &broken_why {
        marks.insert("broken".into(), serde_json::json!(why));
    }
    if let Some(diff) = &a.in_diff {
        marks.insert(
            "in_diff".into(),
            serde_json::json!(diff.display().to_string()),
        );
    }
    let rows = report::rows(
        &ev.scopes,
        &ev.results,
        viable.len(),
        &paper,
        &subject.meta.probes,
    );
    // Keys over the whole catalog, so that a sample's keys are those of the full run.
    let all = &subject.meta.catalog.mutants;
    let keys: std::collections::BTreeMap<u32, String> = all
        .iter()
        .map(|m| m.id)
        .zip(ferastrau_mutator::keys(all))
        .collect();
    let listed: Vec<serde_json::Value> = catalog
        .mutants
        .iter()
        .map(|m| {
            let mut v = serde_json::to_value(m).expect("mutants serialize");
            v["key"] = serde_json::json!(keys.get(&m.id));
            v
        })
        .collect();
    report::write(&out_dir, &bench.name, &rows, &listed, &ev.results, &marks)?;
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
    if let Some(why) = broken_why {
        return Err(broken(format!(
            "the run is broken, its kill rate means nothing: {why} (reports in {}, marked \"broken\")",
            out_dir.display()
        )));
    }
    Ok(out_dir)
}

fn cmd_overhead(a: OverheadArgs) -> Result<()> {
    if a.scope == 0 {
        return Err(usage("scope 0 is empty: scopes start at 1"));
    }
    let bench = a.target.locate()?;
    let original = subject::original_worker(&bench)?;
    let subject = subject::prepare(&bench, stderr_is_tty())?;
    let scratch = Scratch::new()?;
    let limits = OriginalLimits {
        memory_limit: 1 << 30,
        original_timeout: Duration::from_secs(10),
        max_scratch: 20 << 30,
    };
    let prep = preparation(&scratch, &limits, original.methods()?, false);
    prep.scope(&original, a.scope, 0)?;
    let replay = |w: &crate::worker::Worker| -> Result<(u64, f64)> {
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
    println!(
        "{} scope {}: {} executions; untouched crate {:.4} s, metamutant (no mutant active) {:.4} s: {:.2}x",
        bench.name,
        a.scope,
        executions,
        plain,
        meta,
        meta / plain
    );
    Ok(())
}
