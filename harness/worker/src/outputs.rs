//! The worker's `outputs` request: every input of every method at one scope, run with one
//! mutant switched on, one rendered outcome per message. Used to check that two builds (the
//! metamutant and a plain crate) behave identically.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use crate::channel::send;
use crate::protocol::Message;
use crate::watchdog::Watchdog;
use ferastrau_sdk::exec::{execute, Outcome};
use ferastrau_sdk::Benchmark;

/// The input being run, for the watchdog's message: a plain crate that loops is stopped by
/// the clock, and its listing must name the same input as the metamutant's tick budget does.
static METHODS: OnceLock<&'static [&'static str]> = OnceLock::new();
static METHOD: AtomicUsize = AtomicUsize::new(0);
static INDEX: AtomicU64 = AtomicU64::new(0);

fn clock_timeout(_limit: Duration) {
    let method = METHODS
        .get()
        .and_then(|m| m.get(METHOD.load(Ordering::SeqCst)))
        .copied()
        .unwrap_or_default();
    let _ = send(&Message::Output {
        method: method.to_string(),
        index: INDEX.load(Ordering::SeqCst),
        output: "timeout".into(),
    });
    let _ = send(&Message::Done);
    // SAFETY: ends the process immediately; the main thread is stuck in the code under test.
    unsafe { libc::_exit(0) }
}

/// Runs every input at `scope` with `mutant` active. A run over `clock` (or, in a metamutant,
/// over its tick budget: 10 × the original's ticks + 1000) reports `timeout` and ends the
/// listing, so a looping mutant gives the same listing in every build.
pub fn outputs<B: Benchmark>(
    bench: &B,
    scope: u32,
    mutant: u32,
    clock: Duration,
) -> std::io::Result<()> {
    METHODS.get_or_init(|| bench.methods());
    let watchdog = Watchdog::start(clock_timeout)?;
    for (m, &name) in bench.methods().iter().enumerate() {
        METHOD.store(m, Ordering::SeqCst);
        let (fin, fields) = bench.finitize(m, scope);
        let mut index = 0;
        let mut result = Ok(());
        let mut stop = false;
        korat::search(
            &fin,
            |c| bench.precondition(m, &fields, c),
            |c| {
                let mut c = korat::Candidate::new(c.finitization(), c.state());
                let mut input = bench.decode(m, &fields, &mut c);
                INDEX.store(index, Ordering::SeqCst);
                ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
                // Armed for the original's run too: in a plain single-mutant crate there is no
                // switch, and this run is already the mutant.
                watchdog.arm(clock);
                let (_, ticks) = execute(bench, m, &mut input.clone(), u64::MAX, false);
                ferastrau_probes::set_active(mutant);
                watchdog.arm(clock);
                let budget = ticks.saturating_mul(10).saturating_add(1000);
                let (outcome, _) = execute(bench, m, &mut input, budget, false);
                watchdog.disarm();
                ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
                stop = matches!(outcome, Outcome::OverBudget);
                result = send(&Message::Output {
                    method: name.to_string(),
                    index,
                    output: outcome.render(),
                });
                index += 1;
                if stop || result.is_err() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        result?;
        if stop {
            break;
        }
    }
    Ok(())
}
