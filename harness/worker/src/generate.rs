//! The worker's `generate` command: Korat over each target method at one scope.

use std::io::Write;
use std::ops::ControlFlow;

use serde::Serialize;

use crate::Benchmark;

/// One line of `generate`'s output (JSON lines on stdout).
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line<'a> {
    /// A valid input, rendered (only the first `print` of each method).
    Input { method: &'a str, text: String },
    /// The figures of one method's search.
    Method {
        method: &'a str,
        scope: u32,
        inputs: u64,
        candidates: u64,
        seconds: f64,
        state_space_log2: f64,
    },
}

/// Generates every method's inputs at `scope`, printing the first `print` of each.
pub fn generate<B: Benchmark>(
    bench: &B,
    scope: u32,
    print: usize,
    opts: korat::Options,
    out: &mut impl Write,
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
            emit(out, &Line::Input { method: name, text })?;
        }
        emit(
            out,
            &Line::Method {
                method: name,
                scope,
                inputs: stats.valid,
                candidates: stats.explored,
                seconds: stats.seconds,
                state_space_log2: fin.state_space_log2(),
            },
        )?;
    }
    Ok(())
}

fn emit(out: &mut impl Write, line: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")?;
    out.flush()
}
