//! `original`: the original's run on a scope's stored inputs, held to the mutants' rules (no
//! panic, no output on stdout, the invariant and the postcondition on every post-state), with
//! its times, its coverage and the mutation points each input reaches.

use std::fs::File;
use std::io::Write;
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::{clock_timeout, render_input};
use crate::channel::send;
use crate::cursor;
use crate::protocol::{Clause, Fault, Message};
use crate::reach::{reach_path, ReachRecorder};
use crate::store::{inputs_path, times_path, StateReader};
use crate::watchdog::Watchdog;
use ferastrau_sdk::exec::{execute, Outcome};
use ferastrau_sdk::panics;
use ferastrau_sdk::Benchmark;

/// The bytes written so far to this process's stdout, when it is a regular file (the harness
/// gives the original one): the original must not print.
struct StdoutWatch(Option<File>);

impl StdoutWatch {
    fn new() -> StdoutWatch {
        let f = std::io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .map(File::from)
            .filter(|f| f.metadata().map(|m| m.is_file()).unwrap_or(false));
        StdoutWatch(f)
    }

    fn len(&self) -> u64 {
        let _ = std::io::stdout().flush();
        self.0
            .as_ref()
            .and_then(|f| f.metadata().ok())
            .map_or(0, |m| m.len())
    }
}

/// What went wrong with the original on one input that stops its run, if anything (a
/// broken post-state does not: it is a counterexample, see [`broken_state`]).
fn original_fault<B: Benchmark>(outcome: &Outcome<B>) -> Option<(Fault, String)> {
    match outcome {
        Outcome::Normal(..) | Outcome::Broken { .. } => None,
        Outcome::Panicked(_) => Some((Fault::Panicked, outcome.render())),
        Outcome::OverBudget => Some((Fault::Timeout, outcome.render())),
    }
}

/// Set while a post-state the invariant rejected is explained and rendered: a broken
/// structure can make the benchmark's own renderer loop (a cycle where a tree was), and the
/// clock's report must then say so rather than blame the call.
pub(super) static JUDGING_BROKEN_STATE: AtomicBool = AtomicBool::new(false);

/// The violation of the invariant by the original's post-state `post`: why (the panic, the
/// benchmark's own reason, or only that it is false) and the post-state rendered.
pub(crate) fn broken_state<B: Benchmark>(
    bench: &B,
    m: usize,
    post: &B::Input,
    ret: &str,
    panic: &Option<String>,
) -> (String, String, Option<String>) {
    JUDGING_BROKEN_STATE.store(true, Relaxed);
    let reason = match panic {
        Some(p) => format!("it panicked on the post-state: {p}"),
        None => match panics::expected(|| bench.invariant_violation(post)) {
            Ok(Some(why)) => why,
            Ok(None) => "false on the post-state".into(),
            Err((p, _)) => format!(
                "false on the post-state (`invariant_violation` panicked explaining why: {})",
                panics::payload_text(&*p)
            ),
        },
    };
    let post_state = panics::expected(|| bench.render(m, post)).ok();
    JUDGING_BROKEN_STATE.store(false, Relaxed);
    (format!("returned {ret}"), reason, post_state)
}

/// `original`: runs the original on every stored input at `scope`, checking the invariant
/// and the postcondition, recording each input's time and the code probes hit. A panic, a
/// broken post-state or output on stdout is a `failure` (the run cannot go on); a
/// postcondition violation is a `violation` (a counterexample). Each call runs under the clock
/// limit `clock`; the position is kept in the cursor file for the harness, should the process
/// die. With `reach`, also writes which mutation points each input reaches. Returns `false`
/// after a failure.
pub fn original<B: Benchmark>(
    bench: &B,
    scope: u32,
    dir: &Path,
    clock: Duration,
    cursor_file: &Path,
    reach_sets: bool,
) -> std::io::Result<bool> {
    cursor::open(cursor_file)?;
    cursor::set(cursor::SCOPE, scope);
    let watchdog = Watchdog::start(clock_timeout)?;
    let stdout = StdoutWatch::new();
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    ferastrau_probes::take_coverage();
    for (m, &name) in bench.methods().iter().enumerate() {
        cursor::set(cursor::METHOD, m as u32);
        let (fin, fields) = bench.finitize(m, scope);
        let path = inputs_path(dir, scope, m);
        let printed_before = stdout.len();
        let mut reader = StateReader::open(&path)?;
        let mut times = crate::store::TimesWriter::create(&times_path(dir, scope, m))?;
        let mut reach = ReachRecorder::new();
        let started = Instant::now();
        while let Some(state) = reader.next_state()? {
            let index = times.len();
            cursor::set(cursor::INDEX, index as u32);
            // Armed over all of the benchmark's code on this input (decoding, the call,
            // judging, rendering): a loop anywhere in it names the input.
            watchdog.arm(clock);
            let pre = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
            let mut post = pre.clone();
            let t = Instant::now();
            // Reach markers on over the whole judged call: a mutant is still active while
            // the invariant and the abstraction judge its post-state.
            ferastrau_probes::set_reaching(reach_sets);
            let (outcome, _) = execute(bench, m, &mut post, u64::MAX, true);
            ferastrau_probes::set_reaching(false);
            times.push(t.elapsed().as_nanos() as u64)?;
            reach.record(index);
            if !judged(bench, m, index, &pre, &post, &outcome)? {
                return Ok(false);
            }
            watchdog.disarm();
        }
        if stdout.len() != printed_before {
            // Checked per method, not per call (a metadata call per input would cost more
            // than many calls); the culprit is found by running the method's inputs again.
            ferastrau_probes::set_coverage(false);
            return find_printer(bench, m, scope, &path, &stdout).map(|()| false);
        }
        let inputs = times.finish()?;
        if reach_sets {
            reach.write(&reach_path(dir, scope, m), inputs)?;
        }
        send(&Message::Method {
            method: name.to_string(),
            scope,
            inputs,
            candidates: 0,
            seconds: started.elapsed().as_secs_f64(),
            state_space_log2: 0.0,
            bytes: 0,
            generators: false,
        })?;
    }
    send(&Message::Coverage {
        probes: ferastrau_probes::take_coverage(),
    })?;
    Ok(true)
}

/// Judges the original's `outcome` on input `index` of method `m` (`pre` before the call,
/// `post` after it): a panic or a timeout is a `Failure` (`false`: the run stops there); a
/// broken post-state or a postcondition violation is a `Violation` (a counterexample).
fn judged<B: Benchmark>(
    bench: &B,
    m: usize,
    index: u64,
    pre: &B::Input,
    post: &B::Input,
    outcome: &Outcome<B>,
) -> std::io::Result<bool> {
    let name = bench.methods()[m];
    if let Some((fault, detail)) = original_fault(outcome) {
        send(&Message::Failure {
            method: name.to_string(),
            index,
            input: render_input(bench, m, pre),
            fault,
            detail,
        })?;
        return Ok(false);
    }
    if let Outcome::Broken { ret, panic } = outcome {
        let (output, message, post_state) = broken_state(bench, m, post, ret, panic);
        send(&Message::Violation {
            method: name.to_string(),
            index,
            input: render_input(bench, m, pre),
            output,
            message,
            clause: Clause::Invariant,
            post_state,
        })?;
    }
    if let Outcome::Normal(ret, _) = outcome {
        if let Err(message) = bench.postcondition(m, pre, post, ret) {
            send(&Message::Violation {
                method: name.to_string(),
                index,
                input: render_input(bench, m, pre),
                output: outcome.render(),
                message,
                clause: Clause::Postcondition,
                post_state: panics::expected(|| bench.render(m, post)).ok(),
            })?;
        }
    }
    Ok(true)
}

/// Runs `method`'s inputs again, one by one, until the one that writes to stdout, and
/// reports it (the code under test is deterministic).
fn find_printer<B: Benchmark>(
    bench: &B,
    m: usize,
    scope: u32,
    path: &Path,
    stdout: &StdoutWatch,
) -> std::io::Result<()> {
    let (fin, fields) = bench.finitize(m, scope);
    let mut reader = StateReader::open(path)?;
    let mut index = 0u64;
    while let Some(state) = reader.next_state()? {
        let pre = bench.decode(m, &fields, &mut korat::Candidate::new(&fin, state));
        let before = stdout.len();
        execute(bench, m, &mut pre.clone(), u64::MAX, false);
        if stdout.len() != before {
            return send(&Message::Failure {
                method: bench.methods()[m].to_string(),
                index,
                input: render_input(bench, m, &pre),
                fault: Fault::Printed,
                detail: format!(
                    "wrote {} byte(s) to stdout, which the comparison of outputs cannot see",
                    stdout.len() - before
                ),
            });
        }
        index += 1;
    }
    send(&Message::Error {
        message: format!(
            "method {} wrote to stdout at scope {scope}, but not when its inputs ran again one by one",
            bench.methods()[m]
        ),
    })
}
