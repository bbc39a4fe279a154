//! The worker's `export` request: every input of every method at one scope as the parts of a
//! test a user can keep (`ferastrau export-tests`): how to build it — the benchmark's own
//! calls (`Benchmark::construct`), else the shortest sequence of its methods' calls that
//! reaches it (the JPF paper's way, `ferastrau_sdk::call_sequences`), else Korat's candidate vector
//! for the decoder to build it directly — its rendering, and what the original returns and
//! leaves, as `Debug` writes them. The harness writes the test file from these.

use std::ops::ControlFlow;

use crate::channel::send;
use crate::protocol::{Message, Sequence};
use ferastrau_sdk::call_sequences::{explore_within, replay, Reached};
use ferastrau_sdk::Benchmark;

/// How long the sequences that build inputs may be: Korat's structures at scope n have up to
/// n objects, and some need calls that are later undone (a put and a remove).
fn longest(scope: u32) -> u32 {
    2 * scope + 2
}

/// States the search for building sequences may know before it stops.
const MAX_STATES: usize = 200_000;

/// The states sequences reach, matched by structure, when the benchmark has both an initial
/// state and a structure.
fn reachable<B: Benchmark>(bench: &B, scope: u32) -> std::io::Result<Option<Reached>> {
    if !B::STRUCTURE {
        return Ok(None);
    }
    explore_within(
        bench,
        longest(scope),
        MAX_STATES,
        scope,
        |i| bench.structure(i),
        |m, i| bench.run(m, i),
        |_| Ok(()),
        |_| Ok(()),
    )
}

/// The sequence that builds `input` of `method`: the calls that first reached its receiver,
/// and the argument whose call renders exactly as `input` does.
fn sequence<B: Benchmark>(
    bench: &B,
    reached: &Reached,
    scope: u32,
    method: usize,
    input: &B::Input,
) -> Option<Sequence> {
    let calls = reached.path(&bench.structure(&bench.with_argument(method, input, 0)))?;
    let shown = bench.render(method, input);
    (1..=i64::from(scope))
        .find(|&arg| {
            replay(bench, scope, calls, method, arg)
                .is_some_and(|i| bench.render(method, &i) == shown)
        })
        .map(|arg| Sequence {
            calls: calls.to_vec(),
            arg,
        })
}

/// Sends one [`Message::Exported`] per input at `scope`, in Korat's order.
pub fn export<B: Benchmark>(bench: &B, scope: u32) -> std::io::Result<()> {
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    let reached = reachable(bench, scope)?;
    for (m, &name) in bench.methods().iter().enumerate() {
        let (fin, fields) = bench.finitize(m, scope);
        let mut index = 0;
        let mut result = Ok(());
        korat::search(
            &fin,
            |c| bench.precondition(m, &fields, c),
            |c| {
                let candidate = c.state().to_vec();
                let input = bench.decode(
                    m,
                    &fields,
                    &mut korat::Candidate::new(c.finitization(), &candidate),
                );
                let construct = bench.construct(m, &input);
                let sequence = match (&construct, &reached) {
                    (None, Some(reached)) => sequence(bench, reached, scope, m, &input),
                    _ => None,
                };
                let mut post = input.clone();
                let ret = bench.run(m, &mut post);
                result = send(&Message::Exported {
                    method: name.to_string(),
                    method_index: m,
                    index,
                    input: bench.render(m, &input),
                    construct,
                    candidate,
                    sequence,
                    ret: format!("{ret:?}"),
                    abstraction: format!("{:?}", bench.abstraction(&post)),
                });
                index += 1;
                // After a failed send (the harness is gone) nothing more is sent.
                match result {
                    Ok(()) => ControlFlow::Continue(()),
                    Err(_) => ControlFlow::Break(()),
                }
            },
        );
        result?;
    }
    Ok(())
}
