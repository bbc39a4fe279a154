//! `inputs`: generating a scope's inputs with Korat and storing the valid ones.

use std::ops::ControlFlow;
use std::path::Path;

use crate::channel::send;
use crate::generate::method_figures;
use crate::parts::{self, Stored};
use crate::protocol::Message;
use crate::store::{inputs_path, StateWriter};
use ferastrau_sdk::Benchmark;

/// `inputs`: Korat for every method at `scope` on `jobs` threads, storing the valid inputs
/// under `dir` (the same file for any `jobs`: [`crate::parts`]); with `coverage`, counts the
/// specification probes the preconditions hit during the search. Returns `false` (after a
/// [`Message::DiskLimit`]) if the inputs need more than `max_bytes`.
pub fn inputs<B: Benchmark>(
    bench: &B,
    scope: u32,
    dir: &Path,
    coverage: bool,
    max_bytes: u64,
    jobs: usize,
) -> std::io::Result<bool> {
    ferastrau_probes::take_coverage();
    // Korat's counts for the harness's progress line while the searches run.
    let _progress = crate::progress::Publisher::start(crate::protocol::progress::path(dir, scope));
    let mut budget = max_bytes;
    for (m, &name) in bench.methods().iter().enumerate() {
        let (fin, fields) = bench.finitize(m, scope);
        let path = inputs_path(dir, scope, m);
        ferastrau_probes::set_coverage(coverage);
        let stored = if jobs > 1 {
            let pred = |c: &mut korat::Candidate<'_>| bench.precondition(m, &fields, c);
            parts::search_into(&fin, jobs, pred, &path, budget)
        } else {
            sequential(bench, m, &fields, &fin, &path, budget)
        };
        ferastrau_probes::set_coverage(false);
        let (stats, bytes) = match stored? {
            (stats, Stored::Written(bytes)) => (stats, bytes),
            (_, Stored::OverBudget) => {
                send(&Message::DiskLimit { scope, max_bytes })?;
                return Ok(false);
            }
        };
        budget = budget.saturating_sub(bytes);
        send(&method_figures(
            name,
            scope,
            &stats,
            fin.state_space_log2(),
            bytes,
            false,
        ))?;
    }
    send(&Message::Coverage {
        probes: ferastrau_probes::take_coverage(),
    })?;
    Ok(true)
}

/// [`inputs`]' search of one method on the calling thread, writing as it goes.
fn sequential<B: Benchmark>(
    bench: &B,
    m: usize,
    fields: &B::Fields,
    fin: &korat::Finitization,
    path: &Path,
    budget: u64,
) -> std::io::Result<(korat::Stats, Stored)> {
    let mut w = StateWriter::create(path, crate::parts::layout(fin), budget)?;
    let mut err = Ok(());
    let stats = korat::search(
        fin,
        |c| bench.precondition(m, fields, c),
        |c| match w.push(c.state()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                err = Err(e);
                ControlFlow::Break(())
            }
        },
    );
    if w.over_budget() {
        return Ok((stats, Stored::OverBudget));
    }
    err?;
    Ok((stats, Stored::Written(w.finish()?)))
}
