//! The worker's `outputs` command: every input of every method at one scope, run with one
//! mutant switched on, one rendered outcome per line. Used to check that two builds (the
//! metamutant and a plain crate) behave identically.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use serde::Serialize;

use crate::exec::{execute, Outcome, Watchdog};
use crate::Benchmark;

#[derive(Serialize)]
struct Line<'a> {
    method: &'a str,
    index: u64,
    output: String,
}

/// The input being run, for the watchdog's line: a plain crate that loops is stopped by the
/// clock, and its listing must name the same input as the metamutant's tick budget does.
static METHODS: OnceLock<&'static [&'static str]> = OnceLock::new();
static METHOD: AtomicUsize = AtomicUsize::new(0);
static INDEX: AtomicU64 = AtomicU64::new(0);

fn clock_timeout() {
    let method = METHODS
        .get()
        .and_then(|m| m.get(METHOD.load(Ordering::SeqCst)))
        .copied()
        .unwrap_or_default();
    let index = INDEX.load(Ordering::SeqCst);
    let line = Line {
        method,
        index,
        output: "timeout".into(),
    };
    println!("{}", serde_json::to_string(&line).unwrap_or_default());
    std::process::exit(0);
}

/// Runs every input at `scope` with `mutant` active. A run over `clock` (or, in a metamutant,
/// over its tick budget: `factor` × the original's ticks + `floor`) prints `timeout` and ends
/// the listing, so a looping mutant gives the same listing in every build.
pub fn outputs<B: Benchmark>(
    bench: &B,
    scope: u32,
    mutant: u32,
    clock: Duration,
    out: &mut impl Write,
) -> std::io::Result<()> {
    METHODS.get_or_init(|| bench.methods());
    let watchdog = Watchdog::start(clock_timeout);
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
                let budget = ticks.saturating_mul(10) + 1000;
                let (outcome, _) = execute(bench, m, &mut input, budget, false);
                watchdog.disarm();
                ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
                stop = matches!(outcome, Outcome::OverBudget);
                let line = Line {
                    method: name,
                    index,
                    output: outcome.render(),
                };
                index += 1;
                result = serde_json::to_writer(&mut *out, &line)
                    .map_err(std::io::Error::from)
                    .and_then(|_| out.write_all(b"\n"))
                    .and_then(|_| out.flush());
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
    out.flush()
}
