//! The worker's `white_box` request (`check --white-box`, the paper's Sec. 6.2): Korat searches
//! the *failure* predicate of each method — its precondition, then the method, then the
//! postcondition and the invariant on the post-state — and stops at the first candidate that
//! makes it true, a counterexample. Beside it, the same scope checked black-box: the
//! precondition's whole search, then every input run and checked.
//!
//! What the search records: the precondition's reads, then the decoder's (the decoder builds
//! the real input from the candidate, through the same recording reads), so a method's
//! arguments, which a precondition that is the invariant alone never reads, enter the access
//! list where the method needs them. The method itself runs on the decoded structure, not on
//! the candidate: unlike Korat's Java instrumentation, a Rust method's own field reads are
//! not recorded (the decoder has read every reachable field by then). The saving over the
//! black-box check is therefore the search's stopping at the first failure, without storing or
//! running the inputs after it; `black_box_first` measures where black-box generation passes
//! the same counterexample, so that the report shows where the saving comes from.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::channel::send;
use crate::evaluate::broken_state;
use crate::protocol::{Breach, FoundCounterexample, Message, SearchCost};
use crate::watchdog::Watchdog;
use ferastrau_sdk::exec::{execute, Outcome};
use ferastrau_sdk::Benchmark;

/// The method and scope being searched, for the watchdog's message.
static METHOD: AtomicUsize = AtomicUsize::new(0);
static SCOPE: AtomicU32 = AtomicU32::new(0);

fn clock_timeout(limit: Duration) {
    let _ = send(&Message::Error {
        message: format!(
            "the original ran past the clock limit of {:.3} s on a candidate of method #{} at scope {} in the white-box search (raise --original-timeout, or the original loops)",
            limit.as_secs_f64(),
            METHOD.load(Relaxed),
            SCOPE.load(Relaxed)
        ),
    });
    // SAFETY: ends the process immediately; the main thread is stuck in the code under test.
    unsafe { libc::_exit(0) }
}

/// Runs `method` on a copy of `pre` and judges the call as the paper's failure predicate does:
/// `Some` when it breaks the postcondition or the invariant, or panics.
fn failure<B: Benchmark>(
    bench: &B,
    method: usize,
    pre: &B::Input,
    watchdog: &Watchdog,
    clock: Duration,
) -> Option<FoundCounterexample> {
    let mut post = pre.clone();
    watchdog.arm(clock);
    let (outcome, _) = execute(bench, method, &mut post, u64::MAX, false);
    let found = |output: String, breach: Breach, message: String| FoundCounterexample {
        input: bench.render(method, pre),
        output,
        breach,
        message,
    };
    let verdict = match outcome {
        Outcome::Normal(ret, _) => bench
            .postcondition(method, pre, &post, &ret)
            .err()
            .map(|why| found(format!("returned {ret:?}"), Breach::Postcondition, why)),
        Outcome::Broken { ret, panic } => {
            // Explained as `check` explains a broken post-state (a panicking explanation
            // included).
            let (output, why, _) = broken_state(bench, method, &post, &ret, &panic);
            Some(found(output, Breach::Invariant, why))
        }
        Outcome::Panicked(p) => Some(found(format!("panicked: {p}"), Breach::Panic, p)),
        // Only under a tick budget, which the original does not run with.
        Outcome::OverBudget => None,
    };
    watchdog.disarm();
    verdict
}

/// One [`Message::WhiteBox`] per method at `scope`.
pub fn white_box<B: Benchmark>(bench: &B, scope: u32, clock: Duration) -> std::io::Result<()> {
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    SCOPE.store(scope, Relaxed);
    let watchdog = Watchdog::start(clock_timeout)?;
    for (m, &name) in bench.methods().iter().enumerate() {
        METHOD.store(m, Relaxed);
        let (fin, fields) = bench.finitize(m, scope);
        // Black box: every input generated and run (as `check` does, which stores them
        // first; run as they come here, so that a large scope does not hold them all).
        let started = Instant::now();
        let mut calls = 0u64;
        let generated = korat::search(
            &fin,
            |c| bench.precondition(m, &fields, c),
            |c| {
                let mut c = korat::Candidate::new(c.finitization(), c.state());
                let input = bench.decode(m, &fields, &mut c);
                let _ = failure(bench, m, &input, &watchdog, clock);
                calls += 1;
                ControlFlow::Continue(())
            },
        );
        let black_box = SearchCost {
            candidates: generated.explored,
            calls,
            seconds: started.elapsed().as_secs_f64(),
        };
        // The same generation, each input run as it comes, up to the first failure.
        let mut failed = false;
        let streamed = korat::search(
            &fin,
            |c| bench.precondition(m, &fields, c),
            |c| {
                let mut c = korat::Candidate::new(c.finitization(), c.state());
                let input = bench.decode(m, &fields, &mut c);
                failed = failure(bench, m, &input, &watchdog, clock).is_some();
                if failed {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        let black_box_first = failed.then_some(streamed.explored);
        // White box: the failure predicate is the search's predicate.
        let started = Instant::now();
        let mut calls = 0u64;
        let mut counterexample = None;
        let searched = korat::search(
            &fin,
            |c| {
                if !bench.precondition(m, &fields, c) {
                    return false;
                }
                let pre = bench.decode(m, &fields, c);
                calls += 1;
                counterexample = failure(bench, m, &pre, &watchdog, clock);
                counterexample.is_some()
            },
            |_| ControlFlow::Break(()),
        );
        let white_box = SearchCost {
            candidates: searched.explored,
            calls,
            seconds: started.elapsed().as_secs_f64(),
        };
        send(&Message::WhiteBox {
            method: name.to_string(),
            black_box,
            white_box,
            black_box_first,
            counterexample,
        })?;
    }
    Ok(())
}
