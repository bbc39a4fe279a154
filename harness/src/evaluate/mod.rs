//! `ferastrau evaluate` and `ferastrau check`: the experiment of the paper's Sec. 7.2 and 8.
//!
//! Per scope: Korat generates and stores every method's inputs (counting specification
//! coverage), the original runs on all of them (checking postconditions, counting code
//! coverage, timing each input), then every viable mutant runs against the original in its own
//! child processes, in parallel, each scope stopping at its first killing input.

pub mod journal;
pub mod report;
pub mod results;
pub mod runner;

use std::io::Read;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use wait_timeout::ChildExt;

use crate::worker::Worker;
use journal::{Header, Journal, Recorded};
use results::ScopeResult;
use runner::{run_mutant, RunConfig, Timing, INTERRUPTED};

/// One scope's generation and original run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScopeRun {
    pub scope: u32,
    pub inputs: u64,
    pub candidates: u64,
    pub generation_seconds: f64,
    pub checking_seconds: f64,
    /// Specification probes hit while Korat generated the scope's inputs.
    pub spec_probes: Vec<u32>,
    /// Code probes hit while the original ran on them.
    pub code_probes: Vec<u32>,
    /// Postcondition violations of the original (counterexamples), at most a few kept.
    pub violations: Vec<Violation>,
    pub violation_count: u64,
}

/// A postcondition violation of the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    pub method: String,
    pub input: String,
    pub output: String,
    pub message: String,
}

/// A worker line of `inputs` and `original`.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum PrepLine {
    Method {
        inputs: u64,
        #[serde(default)]
        candidates: u64,
        seconds: f64,
    },
    Coverage {
        probes: Vec<u32>,
    },
    Violation {
        method: String,
        input: String,
        output: String,
        message: String,
    },
    Failure {
        method: String,
        index: u64,
        input: String,
        problem: String,
    },
}

/// Violations kept per scope in reports (the count is always complete).
const KEPT_VIOLATIONS: usize = 20;

/// Runs a worker command to completion within `limit`, returning its JSON lines.
fn run_lines<T: serde::de::DeserializeOwned>(
    worker: &Worker,
    args: &[String],
    limit: Duration,
    what: &str,
) -> Result<(Vec<T>, std::process::ExitStatus)> {
    let mut child = worker
        .command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {}", worker.exe.display()))?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let status = match child.wait_timeout(limit)? {
        Some(s) => s,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            bail!("{what} did not finish within {} s", limit.as_secs());
        }
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let out = reader.join().unwrap_or_default();
    let mut lines = Vec::new();
    for l in out.lines() {
        match serde_json::from_str(l) {
            Ok(v) => lines.push(v),
            Err(_) => bail!(
                "{what} failed ({status}): {}",
                err.lines().last().unwrap_or(l)
            ),
        }
    }
    if !status.success() && status.code() != Some(ferastrau_worker::EXIT_VIOLATION) {
        bail!(
            "{what} failed ({status}): {}",
            err.lines().last().unwrap_or("(no message)")
        );
    }
    Ok((lines, status))
}

/// Generates and stores the inputs of `scope`, then runs and checks the original on them.
/// Fails, naming the input, if the original panics, breaks the invariant or loops.
pub fn prepare_scope(
    worker: &Worker,
    scope: u32,
    inputs_dir: &Path,
    coverage: bool,
    original_limit: Duration,
) -> Result<ScopeRun> {
    let dir = inputs_dir.display().to_string();
    let mut run = ScopeRun {
        scope,
        ..ScopeRun::default()
    };
    let mut args = vec![
        "inputs".to_string(),
        "--scope".into(),
        scope.to_string(),
        "--dir".into(),
        dir.clone(),
    ];
    if coverage {
        args.push("--coverage".into());
    }
    let (gen, _) = run_lines::<PrepLine>(
        worker,
        &args,
        Duration::from_secs(24 * 3600),
        &format!("generation of scope {scope}"),
    )?;
    for l in gen {
        match l {
            PrepLine::Method {
                inputs,
                candidates,
                seconds,
            } => {
                run.inputs += inputs;
                run.candidates += candidates;
                run.generation_seconds += seconds;
            }
            PrepLine::Coverage { probes } => run.spec_probes = probes,
            _ => {}
        }
    }
    let args = [
        "original".to_string(),
        "--scope".into(),
        scope.to_string(),
        "--dir".into(),
        dir,
    ];
    let what = format!("the original program at scope {scope}");
    let (orig, _) = run_lines::<PrepLine>(worker, &args, original_limit, &what)?;
    for l in orig {
        match l {
            PrepLine::Method { seconds, .. } => run.checking_seconds += seconds,
            PrepLine::Coverage { probes } => run.code_probes = probes,
            PrepLine::Violation {
                method,
                input,
                output,
                message,
            } => {
                run.violation_count += 1;
                if run.violations.len() < KEPT_VIOLATIONS {
                    run.violations.push(Violation {
                        method,
                        input,
                        output,
                        message,
                    });
                }
            }
            PrepLine::Failure {
                method,
                index,
                input,
                problem,
            } => bail!(
                "the original program fails at scope {scope} on {method} input #{index}, {input}: {problem}; mutants cannot be judged against it"
            ),
        }
    }
    Ok(run)
}

/// Options of an evaluation run.
#[derive(Clone, Debug)]
pub struct Options {
    pub scopes: RangeInclusive<u32>,
    pub jobs: usize,
    pub limits: ferastrau_worker::Limits,
    pub memory_limit: u64,
    pub out_dir: PathBuf,
    pub resume: bool,
    pub progress: bool,
}

/// What an evaluation produced.
pub struct Evaluation {
    pub scopes: Vec<ScopeRun>,
    pub results: Vec<ScopeResult>,
    pub interrupted: bool,
    /// The mutant phase of this session (not of resumed work).
    pub timing: Timing,
    pub mutant_phase_seconds: f64,
}

/// Runs the evaluation of `mutants` (viable mutant ids) in the metamutant `worker`.
pub fn evaluate(
    benchmark: &str,
    worker: &Worker,
    methods: &[String],
    mutants: &[u32],
    opts: &Options,
) -> Result<Evaluation> {
    let work = opts.out_dir.join("work");
    let inputs_dir = work.join("inputs");
    std::fs::create_dir_all(&inputs_dir)
        .with_context(|| format!("cannot create {}", inputs_dir.display()))?;
    let header = Header {
        benchmark: benchmark.to_string(),
        mutants: mutants.to_vec(),
        limits: format!("{:?}", opts.limits),
        memory_limit: opts.memory_limit,
    };
    let journal_path = opts.out_dir.join("journal.jsonl");
    let (journal, recorded) = if opts.resume {
        Journal::resume(&journal_path, &header)?
    } else {
        (
            Journal::create(&journal_path, &header)?,
            Recorded::default(),
        )
    };
    install_interrupt_handler();

    // Scopes: generation and the original. Inputs are regenerated when resuming (Korat is
    // deterministic), so the files on disk always match the journal.
    let mut scopes = Vec::new();
    for scope in opts.scopes.clone() {
        let original_limit = Duration::from_secs(3600);
        let mut run = prepare_scope(worker, scope, &inputs_dir, true, original_limit)?;
        if let Some(old) = recorded.scopes.get(&scope) {
            if old.inputs != run.inputs {
                bail!(
                    "cannot resume: scope {scope} now has {} inputs, the journal {}",
                    run.inputs,
                    old.inputs
                );
            }
            run = old.clone();
        } else {
            journal.scope(&run)?;
        }
        if opts.progress {
            eprintln!(
                "scope {scope}: {} inputs generated in {:.2} s, original checked in {:.2} s",
                run.inputs, run.generation_seconds, run.checking_seconds
            );
        }
        scopes.push(run);
    }

    let cfg = RunConfig {
        inputs_dir,
        scratch_dir: work.join("mutants"),
        methods: methods.to_vec(),
        limits: opts.limits,
        memory_limit: opts.memory_limit,
        original_seconds: scopes
            .iter()
            .map(|s| (s.scope, s.checking_seconds))
            .collect(),
    };
    let last = *opts.scopes.end();
    let todo: Vec<(u32, u32)> = mutants
        .iter()
        .filter_map(|&m| {
            opts.scopes
                .clone()
                .find(|&s| !recorded.results.contains_key(&(m, s)))
                .map(|first| (m, first))
        })
        .collect();
    let bar = progress_bar(
        opts.progress,
        mutants.len() as u64,
        (mutants.len() - todo.len()) as u64,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()
        .context("cannot start the thread pool")?;
    let phase = std::time::Instant::now();
    let fresh: Vec<Result<(Vec<ScopeResult>, Timing)>> = pool.install(|| {
        todo.par_iter()
            .map(|&(m, first)| {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    return Ok((Vec::new(), Timing::default()));
                }
                let (mut rs, timing) = run_mutant(worker, m, first..=last, &cfg)?;
                for r in &mut rs {
                    if r.input.is_none() {
                        r.input = render_input(worker, &cfg, r);
                    }
                    journal.result(r)?;
                }
                bar.inc(1);
                Ok((rs, timing))
            })
            .collect()
    });
    let mutant_phase_seconds = phase.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut results: Vec<ScopeResult> = recorded.results.into_values().collect();
    let mut timing = Timing::default();
    for r in fresh {
        let (rs, t) = r?;
        results.extend(rs);
        timing.add(&t);
    }
    results.sort_by_key(|r| (r.mutant, r.scope));
    Ok(Evaluation {
        scopes,
        results,
        interrupted: INTERRUPTED.load(Ordering::Relaxed),
        timing,
        mutant_phase_seconds,
    })
}

/// The readable form of a killing input named only by its position (a crash).
fn render_input(worker: &Worker, cfg: &RunConfig, r: &ScopeResult) -> Option<String> {
    #[derive(Deserialize)]
    struct Rendered {
        input: String,
    }
    let method = cfg
        .methods
        .iter()
        .position(|m| Some(m) == r.method.as_ref())?;
    let args = [
        "render".to_string(),
        "--scope".into(),
        r.scope.to_string(),
        "--method".into(),
        method.to_string(),
        "--index".into(),
        r.index?.to_string(),
        "--dir".into(),
        cfg.inputs_dir.display().to_string(),
    ];
    let lines: Vec<Rendered> = worker.lines(&args).ok()?;
    lines.into_iter().next().map(|l| l.input)
}

fn progress_bar(show: bool, total: u64, done: u64) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "mutants {bar:40} {pos}/{len} [{elapsed_precise}, ETA {eta}]",
        )
        .expect("valid template"),
    );
    bar.set_position(done);
    bar
}

/// Ctrl-C stops the run cleanly: running children are killed, the journal stays consistent.
fn install_interrupt_handler() {
    extern "C" fn on_sigint(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::Relaxed);
    }
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, on_sigint as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_sigint as *const () as libc::sighandler_t);
    }
}
