//! The worker's side of `ferastrau evaluate`: generating and storing a scope's inputs, running
//! the original on them (checking, coverage, timing), and running one mutant against the
//! original on them, scope by scope, stopping each scope at its first killing input.
//!
//! Everything goes to the harness as [`Message`]s on the protocol channel.
//!
//! Its parts: [`inputs`] (generating and storing), [`original`] (the original's run),
//! [`mutants`] (each mutant, scope by scope), [`cohort`] (the mutants that take the same
//! inputs, run together) and [`trial`] (one input judged: the one definition of a kill).

use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use crate::channel::send;
use crate::cursor;
use crate::protocol::{Message, Position};
use crate::store::{inputs_path, StateReader};
use ferastrau_sdk::exec::execute;
use ferastrau_sdk::panics;
use ferastrau_sdk::Benchmark;

mod cohort;
mod inputs;
mod mutants;
mod original;
mod trial;

pub use inputs::inputs;
pub use mutants::{mutants, Judging};
pub(crate) use mutants::{selection, Stops};
pub(crate) use original::broken_state;
pub use original::original;
pub(crate) use trial::trial;

use original::JUDGING_BROKEN_STATE;

/// Reports the watchdog's timeout at the cursor's position and ends the process at once
/// (without destructors or flushing: the main thread is stuck in the code under test).
pub(crate) fn clock_timeout(limit: Duration) {
    let position = Position {
        scope: cursor::get(cursor::SCOPE),
        method: cursor::get(cursor::METHOD) as usize,
        index: u64::from(cursor::get(cursor::INDEX)),
    };
    if JUDGING_BROKEN_STATE.load(Relaxed) {
        let _ = send(&Message::Error {
            message: format!(
                "the original's post-state on input #{} of method {} at scope {} breaks the invariant, and explaining or rendering it ran past the clock limit of {:.3} s (a cycle in the broken structure?)",
                position.index, position.method, position.scope, limit.as_secs_f64()
            ),
        });
        // SAFETY: ends the process immediately; nothing after this runs.
        unsafe { libc::_exit(0) }
    }
    let _ = send(&Message::ClockTimeout { position, limit });
    // SAFETY: ends the process immediately; nothing after this runs.
    unsafe { libc::_exit(0) }
}

/// The benchmark's rendering of `input` for a report, run as the original (a mutant must not
/// write its own kill report) with no tick budget, and caught: rendering is the benchmark's
/// code, and a panic there is the benchmark's, not the mutant's. It shows in the report as
/// such and never changes a verdict (once a panicking `render` turned 36 kills by output or
/// invariant into crashes).
pub(crate) fn render_input<B: Benchmark>(bench: &B, m: usize, input: &B::Input) -> String {
    let active = ferastrau_probes::active();
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    ferastrau_probes::start_run(u64::MAX);
    let text = match panics::expected(|| bench.render(m, input)) {
        Ok(text) => text,
        Err((p, _)) => format!(
            "(cannot be rendered: the benchmark's render panicked: {})",
            panics::payload_text(&*p)
        ),
    };
    ferastrau_probes::set_active(active);
    text
}

/// `replay`: runs the current build (no mutant active, coverage off) on every stored input
/// of `scope`, `repeat` times, and reports the best time: the cost of a build's guards and
/// probes, compared between the untouched crate and its metamutant on the same inputs.
pub fn replay<B: Benchmark>(bench: &B, scope: u32, dir: &Path, repeat: u32) -> std::io::Result<()> {
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
    send(&Message::Replay {
        executions,
        seconds: best,
    })
}

/// `render`: the readable form of one stored input (for kills and failures reported from
/// outside the process, such as crashes).
pub fn render<B: Benchmark>(
    bench: &B,
    scope: u32,
    method: usize,
    index: u64,
    dir: &Path,
) -> std::io::Result<()> {
    if method >= bench.methods().len() {
        return Err(std::io::Error::other(format!("no method {method}")));
    }
    let (fin, fields) = bench.finitize(method, scope);
    let mut reader = StateReader::open(&inputs_path(dir, scope, method))?;
    let mut i = 0;
    while let Some(state) = reader.next_state()? {
        if i == index {
            let input = bench.decode(method, &fields, &mut korat::Candidate::new(&fin, state));
            return send(&Message::Rendered {
                input: render_input(bench, method, &input),
            });
        }
        i += 1;
    }
    Err(std::io::Error::other(format!(
        "scope {scope} method {method} has no input {index}"
    )))
}
