//! The worker's `generate` request: Korat over each target method at one scope.

use std::ops::ControlFlow;

use crate::channel::send;
use crate::protocol::Message;
use crate::Benchmark;

/// Generates every method's inputs at `scope`, sending the first `print` of each.
pub fn generate<B: Benchmark>(
    bench: &B,
    scope: u32,
    print: usize,
    opts: korat::Options,
) -> std::io::Result<()> {
    for (m, &name) in bench.methods().iter().enumerate() {
        let (fin, fields) = bench.finitize(m, scope);
        let mut shown = Vec::new();
        let stats = korat::search_with(
            &fin,
            opts,
            |c| bench.precondition(m, &fields, c),
            |c| {
                if shown.len() < print {
                    let mut c = korat::Candidate::new(c.finitization(), c.state());
                    shown.push(bench.render(m, &bench.decode(m, &fields, &mut c)));
                }
                ControlFlow::Continue(())
            },
        );
        for text in shown {
            send(&Message::Input {
                method: name.to_string(),
                text,
            })?;
        }
        send(&method_figures(name, scope, &stats, &fin, 0))?;
    }
    Ok(())
}

/// A method's figures at a scope, as generation reports them (`bytes`: what its inputs take in
/// the run's scratch directory, 0 when they are not stored).
pub(crate) fn method_figures(
    name: &str,
    scope: u32,
    stats: &korat::Stats,
    fin: &korat::Finitization,
    bytes: u64,
) -> Message {
    Message::Method {
        method: name.to_string(),
        scope,
        inputs: stats.valid,
        candidates: stats.explored,
        seconds: stats.seconds,
        state_space_log2: fin.state_space_log2(),
        bytes,
    }
}
