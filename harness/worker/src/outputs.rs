//! The worker's `outputs` command: every input of every method at one scope, run with one
//! mutant switched on, one rendered outcome per line. Used to check that two builds (the
//! metamutant and a plain crate) behave identically.

use std::io::Write;
use std::ops::ControlFlow;
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
    let watchdog = Watchdog::start(|| {
        println!(
            "{}",
            serde_json::json!({ "method": "", "index": 0, "output": "timeout" })
        );
        std::process::exit(0);
    });
    for (m, &name) in bench.methods().iter().enumerate() {
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
