//! The worker's `sequences` request: the JPF paper's other way to inputs — every sequence of
//! the target methods' calls from the benchmark's initial state, breadth first, arguments
//! 1..=scope, a state explored once however many sequences reach it (matched by its structure
//! up to isomorphism, or by its abstraction; `ferastrau_sdk::call_sequences` explores) — the code
//! the calls cover, and how many of Korat's inputs at the scope have a receiver some sequence
//! reaches.

use std::time::Instant;

use crate::channel::send;
use crate::protocol::{CallOutcome, Matching, Message};
use ferastrau_sdk::call_sequences::{explore, korat_receivers};
use ferastrau_sdk::Benchmark;

/// Explores the sequences up to `length` and reports per length, then the code the calls
/// covered, then Korat's coverage. With `calls`, also each new state's last call and every
/// call's outcome (for `sequences --export`).
pub fn sequences<B: Benchmark>(
    bench: &B,
    length: u32,
    scope: u32,
    matching: Matching,
    calls: bool,
) -> std::io::Result<()> {
    let no_initial = || {
        std::io::Error::other(
            "the benchmark builds no sequences (it defines no Benchmark::initial)",
        )
    };
    if bench.initial(scope).is_none() {
        return Err(no_initial());
    }
    if matching == Matching::Isomorphism && !B::STRUCTURE {
        return Err(std::io::Error::other(
            "matching by isomorphism needs the benchmark's structure (Benchmark::STRUCTURE); \
             match by abstraction",
        ));
    }
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    let key = |input: &B::Input| -> String {
        match matching {
            Matching::Isomorphism => bench.structure(input),
            Matching::Abstraction => format!("{:?}", bench.abstraction(input)),
        }
    };
    let started = Instant::now();
    ferastrau_probes::take_coverage();
    let reached = explore(
        bench,
        length,
        scope,
        key,
        // Code coverage counts during the call only, as in `evaluate`.
        |m, input| {
            ferastrau_probes::set_coverage(true);
            let ret = bench.run(m, input);
            ferastrau_probes::set_coverage(false);
            ret
        },
        |call| {
            // After a call that panicked, coverage is still on.
            ferastrau_probes::set_coverage(false);
            if !calls {
                return Ok(());
            }
            send(&Message::SequenceCall {
                state: call.state,
                method: call.method,
                arg: call.arg,
                outcome: match call.ret {
                    Some(ret) => CallOutcome::Returned {
                        ret: format!("{ret:?}"),
                        abstraction: format!("{:?}", bench.abstraction(call.post)),
                    },
                    None => CallOutcome::Panicked,
                },
            })?;
            if let Some(id) = call.new_state {
                send(&Message::SequenceState {
                    id,
                    parent: call.state,
                    method: call.method,
                    arg: call.arg,
                })?;
            }
            Ok(())
        },
        |level| {
            send(&Message::SequenceLevel {
                length: level.length,
                states: level.states,
                new_states: level.new_states,
                explored: level.calls,
                seconds: started.elapsed().as_secs_f64(),
            })
        },
    )?;
    let reached = reached.ok_or_else(no_initial)?;
    send(&Message::Coverage {
        probes: ferastrau_probes::take_coverage(),
    })?;
    let receivers = korat_receivers(bench, scope, key);
    let covered = receivers.iter().filter(|k| reached.contains(k)).count() as u64;
    send(&Message::SequenceCoverage {
        scope,
        receivers: receivers.len() as u64,
        covered,
    })
}
