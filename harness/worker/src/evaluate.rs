//! The worker's side of `ferastrau evaluate`: generating and storing a scope's inputs, running
//! the original on them (checking, coverage, timing), and running one mutant against the
//! original on them, scope by scope, stopping each scope at its first killing input.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::json;

use crate::cursor;
use crate::exec::{execute, Outcome, Watchdog};
use crate::store::{inputs_path, times_path, StateReader, StateWriter, TimesReader};
use crate::Benchmark;

fn emit(out: &mut impl Write, v: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, v)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// `inputs`: Korat for every method at `scope`, storing the valid inputs under `dir`; with
/// `coverage`, counts the specification probes the preconditions hit during the search.
pub fn inputs<B: Benchmark>(
    bench: &B,
    scope: u32,
    dir: &Path,
    coverage: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    ferastrau_probes::take_coverage();
    for (m, &name) in bench.methods().iter().enumerate() {
        let (fin, fields) = bench.finitize(m, scope);
        let mut w = StateWriter::create(&inputs_path(dir, scope, m), &fin)?;
        let mut err = Ok(());
        ferastrau_probes::set_coverage(coverage);
        let stats = korat::search(
            &fin,
            |c| bench.precondition(m, &fields, c),
            |c| match w.push(c.state()) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    err = Err(e);
                    ControlFlow::Break(())
                }
            },
        );
        ferastrau_probes::set_coverage(false);
        err?;
        w.finish()?;
        emit(
            out,
            &json!({"kind": "method", "method": name, "scope": scope, "inputs": stats.valid,
                    "candidates": stats.explored, "seconds": stats.seconds}),
        )?;
    }
    emit(
        out,
        &json!({"kind": "coverage", "probes": ferastrau_probes::take_coverage()}),
    )
}

/// `original`: runs the original on every stored input at `scope`, checking the invariant
/// and the postcondition, recording each input's time and the code probes hit. A crash, a
/// panic or a broken post-state of the original is a `failure` line (the run cannot go on);
/// a postcondition violation is a `violation` line (a bug in the benchmark: a counterexample).
pub fn original<B: Benchmark>(
    bench: &B,
    scope: u32,
    dir: &Path,
    out: &mut impl Write,
) -> std::io::Result<bool> {
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    ferastrau_probes::take_coverage();
    let mut clean = true;
    for (m, &name) in bench.methods().iter().enumerate() {
        let (fin, fields) = bench.finitize(m, scope);
        let mut reader = StateReader::open(&inputs_path(dir, scope, m))?;
        let mut times = Vec::new();
        let started = Instant::now();
        let mut violations = 0u64;
        while let Some(state) = reader.next_state()? {
            let index = times.len() as u64;
            let pre = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
            let mut post = pre.clone();
            let t = Instant::now();
            let (outcome, _) = execute(bench, m, &mut post, u64::MAX, true);
            times.push(t.elapsed().as_nanos() as u64);
            let problem = match &outcome {
                Outcome::Normal(ret, _) => match bench.postcondition(m, &pre, &post, ret) {
                    Ok(()) => None,
                    Err(msg) => {
                        violations += 1;
                        emit(
                            out,
                            &json!({"kind": "violation", "method": name, "index": index,
                                    "input": bench.render(m, &pre),
                                    "output": outcome.render(), "message": msg}),
                        )?;
                        clean = false;
                        None
                    }
                },
                other => Some(other.render()),
            };
            if let Some(problem) = problem {
                emit(
                    out,
                    &json!({"kind": "failure", "method": name, "index": index,
                            "input": bench.render(m, &pre), "problem": problem}),
                )?;
                return Ok(false);
            }
        }
        crate::store::write_times(&times_path(dir, scope, m), &times)?;
        emit(
            out,
            &json!({"kind": "method", "method": name, "scope": scope, "inputs": times.len(),
                    "seconds": started.elapsed().as_secs_f64(), "violations": violations}),
        )?;
    }
    emit(
        out,
        &json!({"kind": "coverage", "probes": ferastrau_probes::take_coverage()}),
    )?;
    Ok(clean)
}

/// How a mutant's time is limited on each input.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Tick budget: `tick_factor` × the original's ticks on the input + `tick_floor`.
    pub tick_factor: u64,
    pub tick_floor: u64,
    /// Clock limit: `timeout_factor` × the original's time on the input + `timeout_floor`.
    pub timeout_factor: f64,
    pub timeout_floor: Duration,
}

static RESULTS: OnceLock<PathBuf> = OnceLock::new();

/// Appends one result line to the results file (opened per line: lines must survive the
/// process ending at any moment, and there is at most one line per scope).
fn record(v: &serde_json::Value) {
    let path = RESULTS
        .get()
        .expect("results file set before running mutants");
    let line = format!("{v}\n");
    let ok = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = ok {
        eprintln!("worker: cannot write {}: {e}", path.display());
        std::process::exit(3);
    }
}

/// Called by the watchdog when an input runs past its clock limit.
fn clock_timeout() {
    record(
        &json!({"scope": cursor::get(cursor::SCOPE), "status": "killed",
                   "reason": "timeout", "limit": "clock",
                   "method": cursor::get(cursor::METHOD), "index": cursor::get(cursor::INDEX)}),
    );
    // SAFETY: ends the process at once, without running destructors or flushing buffers that
    // the (hung) main thread may hold.
    unsafe { libc::_exit(0) }
}

/// `mutant`: runs `mutant` against the original on every stored input of each scope in
/// `scopes`, writing one line per scope to `results`: `killed` (with the reason and the first
/// killing input) or `survived`.
pub fn mutant<B: Benchmark>(
    bench: &B,
    mutant: u32,
    scopes: std::ops::RangeInclusive<u32>,
    dir: &Path,
    results: &Path,
    limits: Limits,
) -> std::io::Result<()> {
    RESULTS
        .set(results.to_path_buf())
        .expect("one mutant per process");
    let watchdog = Watchdog::start(clock_timeout);
    for scope in scopes {
        cursor::set(cursor::SCOPE, scope);
        let started = Instant::now();
        let (kill, executions) = run_scope(bench, mutant, scope, dir, limits, &watchdog)?;
        let mut line = kill.unwrap_or_else(|| json!({"scope": scope, "status": "survived"}));
        // Executions are mutant runs (each preceded by the original's run on the same input).
        line["executions"] = json!(executions);
        line["seconds"] = json!(started.elapsed().as_secs_f64());
        record(&line);
    }
    Ok(())
}

fn run_scope<B: Benchmark>(
    bench: &B,
    mutant: u32,
    scope: u32,
    dir: &Path,
    limits: Limits,
    watchdog: &Watchdog,
) -> std::io::Result<(Option<serde_json::Value>, u64)> {
    let mut executions = 0;
    for m in 0..bench.methods().len() {
        cursor::set(cursor::METHOD, m as u32);
        let (fin, fields) = bench.finitize(m, scope);
        let mut reader = StateReader::open(&inputs_path(dir, scope, m))?;
        let mut times = TimesReader::open(&times_path(dir, scope, m))?;
        let mut index = 0u32;
        while let Some(state) = reader.next_state()? {
            cursor::set(cursor::INDEX, index);
            let original_nanos = times.next_time()?;
            let mut input = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
            let pre = input.clone();
            ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
            let (expected, ticks) = execute(bench, m, &mut pre.clone(), u64::MAX, false);
            ferastrau_probes::set_active(mutant);
            let clock = Duration::from_nanos(original_nanos).mul_f64(limits.timeout_factor)
                + limits.timeout_floor;
            let budget = ticks
                .saturating_mul(limits.tick_factor)
                .saturating_add(limits.tick_floor);
            watchdog.arm(clock);
            let (got, _) = execute(bench, m, &mut input, budget, false);
            watchdog.disarm();
            ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
            executions += 1;
            let reason = match &got {
                Outcome::OverBudget => Some("timeout"),
                Outcome::Broken => Some("invariant"),
                g if !g.same_as(&expected) => Some("output"),
                _ => None,
            };
            if let Some(reason) = reason {
                let mut kill = json!({"scope": scope, "status": "killed", "reason": reason,
                    "method": m, "index": index, "input": bench.render(m, &pre),
                    "detail": format!("original {}; mutant {}", expected.render(), got.render())});
                if reason == "timeout" {
                    kill["limit"] = json!("ticks");
                    kill["detail"] =
                        json!(format!("over {budget} ticks (the original used {ticks})"));
                }
                return Ok((Some(kill), executions));
            }
            index += 1;
        }
    }
    Ok((None, executions))
}

/// `replay`: runs the current build (no mutant active, coverage off) on every stored input
/// of `scope`, `repeat` times, and prints the best time: the cost of a build's guards and
/// probes, compared between the untouched crate and its metamutant on the same inputs.
pub fn replay<B: Benchmark>(
    bench: &B,
    scope: u32,
    dir: &Path,
    repeat: u32,
    out: &mut impl Write,
) -> std::io::Result<()> {
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    let mut best = f64::INFINITY;
    let mut executions = 0u64;
    for _ in 0..repeat.max(1) {
        executions = 0;
        let started = Instant::now();
        for m in 0..bench.methods().len() {
            let (fin, fields) = bench.finitize(m, scope);
            let mut reader = StateReader::open(&inputs_path(dir, scope, m))?;
            while let Some(state) = reader.next_state()? {
                let mut input = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
                let (outcome, _) = execute(bench, m, &mut input, u64::MAX, false);
                std::hint::black_box(&outcome);
                executions += 1;
            }
        }
        best = best.min(started.elapsed().as_secs_f64());
    }
    emit(out, &json!({"executions": executions, "seconds": best}))
}

/// `render`: the readable form of one stored input (for kills reported from outside the
/// process, such as crashes).
pub fn render<B: Benchmark>(
    bench: &B,
    scope: u32,
    method: usize,
    index: u64,
    dir: &Path,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let (fin, fields) = bench.finitize(method, scope);
    let mut reader = StateReader::open(&inputs_path(dir, scope, method))?;
    let mut i = 0;
    while let Some(state) = reader.next_state()? {
        if i == index {
            let input = bench.decode(method, &fields, &mut korat::Candidate::new(&fin, state));
            return emit(out, &json!({"input": bench.render(method, &input)}));
        }
        i += 1;
    }
    Err(std::io::Error::other(format!(
        "scope {scope} method {method} has no input {index}"
    )))
}
