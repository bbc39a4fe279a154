//! The worker's `generate` request: every method's inputs at one scope (the SDK's
//! [`ferastrau_sdk::inputs`]), the first few rendered and each method's figures sent to the
//! harness.

use crate::channel::send;
use crate::protocol::Message;
use ferastrau_sdk::inputs::{generate_scope, structure_scope};
use ferastrau_sdk::Benchmark;

/// What a `generate` request asks for besides the scope.
#[derive(Clone, Copy, Debug)]
pub struct GenerateRequest {
    /// Inputs of each method to render.
    pub print: usize,
    /// Korat's switches.
    pub opts: korat::SearchSwitches,
    /// Threads of each search.
    pub jobs: usize,
    /// The structure-only searches instead of the inputs.
    pub structure: bool,
    /// Search with the dedicated generators where a method has them.
    pub generators: bool,
}

/// Generates every method's inputs at `scope` (or, with `structure`, runs the structure-only
/// searches) and sends the first `print` inputs of each and the figures.
pub fn generate<B: Benchmark>(bench: &B, scope: u32, ask: GenerateRequest) -> std::io::Result<()> {
    let GenerateRequest {
        print,
        opts,
        jobs,
        structure,
        generators,
    } = ask;
    let runs = if structure {
        structure_scope(bench, scope, opts, jobs, generators)
    } else {
        generate_scope(bench, scope, print, opts, jobs, generators)
    };
    for (run, &name) in runs.iter().zip(bench.methods()) {
        for text in &run.shown {
            send(&Message::Input {
                method: name.to_string(),
                text: text.clone(),
            })?;
        }
        send(&method_figures(
            name,
            scope,
            &run.stats,
            run.state_space_log2,
            0,
            run.generators,
        ))?;
    }
    Ok(())
}

/// A method's figures at a scope, as generation reports them (`bytes`: what its inputs take in
/// the run's scratch directory, 0 when they are not stored; `generators`: whether the search
/// ran with dedicated generators).
pub(crate) fn method_figures(
    name: &str,
    scope: u32,
    stats: &korat::Stats,
    state_space_log2: f64,
    bytes: u64,
    generators: bool,
) -> Message {
    Message::Method {
        method: name.to_string(),
        scope,
        inputs: stats.valid,
        candidates: stats.explored,
        seconds: stats.seconds,
        state_space_log2,
        bytes,
        generators,
    }
}
