//! The worker's `sequences` request: the JPF paper's other way to inputs — every sequence of
//! the target methods' calls from the benchmark's initial state, breadth first, arguments
//! 1..=scope, a state explored once however many sequences reach it (matched by its structure
//! up to isomorphism, or by its abstraction) — and how many of Korat's inputs at the scope
//! have a receiver some sequence reaches.

use std::collections::HashSet;
use std::time::Instant;

use crate::channel::send;
use crate::protocol::{CallOutcome, Matching, Message};
use ferastrau_sdk::inputs::for_each_input;
use ferastrau_sdk::{panics, Benchmark};

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
    let Some(start) = bench.initial(scope) else {
        return Err(std::io::Error::other(
            "the benchmark builds no sequences (it defines no Benchmark::initial)",
        ));
    };
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
    let mut seen: HashSet<String> = HashSet::from([key(&start)]);
    // Each state of the frontier with its id (the initial state is 0).
    let mut frontier = vec![(0u64, start)];
    let mut explored = 0u64;
    ferastrau_probes::take_coverage();
    for len in 1..=length {
        let mut next = Vec::new();
        for (id, state) in &frontier {
            for m in 0..bench.methods().len() {
                for arg in 1..=i64::from(scope) {
                    let mut input = bench.with_argument(m, state, arg);
                    explored += 1;
                    // Code coverage counts during the call only, as in `evaluate`.
                    ferastrau_probes::set_coverage(true);
                    let ran = panics::expected(|| bench.run(m, &mut input));
                    ferastrau_probes::set_coverage(false);
                    if calls {
                        let outcome = match &ran {
                            Ok(ret) => CallOutcome::Returned {
                                ret: format!("{ret:?}"),
                                abstraction: format!("{:?}", bench.abstraction(&input)),
                            },
                            Err(_) => CallOutcome::Panicked,
                        };
                        send(&Message::SequenceCall {
                            state: *id,
                            method: m,
                            arg,
                            outcome,
                        })?;
                    }
                    // A call that panics ends its sequence: it reaches no state.
                    if ran.is_err() {
                        continue;
                    }
                    if seen.insert(key(&input)) {
                        let new = seen.len() as u64 - 1;
                        if calls {
                            send(&Message::SequenceState {
                                id: new,
                                parent: *id,
                                method: m,
                                arg,
                            })?;
                        }
                        next.push((new, input));
                    }
                }
            }
        }
        send(&Message::SequenceLevel {
            length: len,
            states: seen.len() as u64,
            new_states: next.len() as u64,
            explored,
            seconds: started.elapsed().as_secs_f64(),
        })?;
        frontier = next;
    }
    send(&Message::Coverage {
        probes: ferastrau_probes::take_coverage(),
    })?;
    let mut receivers: HashSet<String> = HashSet::new();
    for m in 0..bench.methods().len() {
        for_each_input(bench, m, scope, |input| {
            receivers.insert(key(&bench.with_argument(m, &input, 0)));
        });
    }
    let covered = receivers.iter().filter(|k| seen.contains(*k)).count() as u64;
    send(&Message::SequenceCoverage {
        scope,
        receivers: receivers.len() as u64,
        covered,
    })
}
