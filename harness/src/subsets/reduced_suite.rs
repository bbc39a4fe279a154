//! The reduced suite as inputs a user can run: `reduced-suite.json` (method, global index,
//! index among the method's inputs, rendering) and `reduced-suite.txt` (one rendered input a
//! line).
//!
//! Renderings come from the benchmark's own worker: Korat regenerates scope s (generation is
//! deterministic, so an index names the same input as in the run) and the worker renders the
//! chosen ones. The crate must be the run's: its source hash must equal the matrix's
//! fingerprint and its methods' input counts the matrix's, or nothing is rendered.

use std::path::Path;

use anyhow::{bail, Context, Result};
use ferastrau_artifacts::Artifact;
use ferastrau_protocol::{Message, Request};

use crate::matrix::KillMatrix;
use crate::process::Isolation;
use ferastrau_console::exit_code::usage;

/// One input of the reduced suite, and the reduced suite's file (`reduced-suite.json`).
pub use ferastrau_artifacts::{ReducedSuite, SuiteInput};

/// Renders `suite` (global indices of `m`'s scope) with the run's crate.
pub fn render(m: &KillMatrix, suite: &[u64]) -> Result<ReducedSuite> {
    let fp = &m.header.fingerprint;
    let bench = crate::locate::locate_declared(None, Some(Path::new(&fp.crate_dir)))?;
    if crate::fingerprint::tree_hash(&bench.dir)? != fp.source {
        return Err(usage(format!(
            "{} changed since the run: its inputs may not be the run's; rerun the evaluation (or pass --no-render)",
            bench.dir.display()
        )));
    }
    let worker = crate::subject::original_worker(&bench)?;
    let scratch = crate::outdir::Scratch::new(&bench)?;
    let dir = scratch.path().join("inputs");
    let scope = m.header.scope;
    worker
        .call(&Request::Inputs {
            scope,
            dir: dir.clone(),
            coverage: false,
            max_bytes: u64::MAX,
            // No address-space limit here: every core (the same inputs for any number).
            jobs: crate::process::generation_threads(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
                None,
            ),
        })
        .context("cannot regenerate the scope's inputs")?;
    for (i, r) in m.header.methods.iter().enumerate() {
        let n = ferastrau_protocol::store::StateReader::count(
            &ferastrau_protocol::store::inputs_path(&dir, scope, i),
        )?;
        if n != r.inputs {
            bail!(
                "{} has {n} inputs at scope {scope} now, {} in the run",
                r.name,
                r.inputs
            );
        }
    }
    let mut inputs = Vec::new();
    for &g in suite {
        let (method, index) = m
            .locate(g)
            .with_context(|| format!("input {g} is outside scope {scope}"))?;
        let f = worker.run(
            &Request::Render {
                scope,
                method,
                index,
                dir: dir.clone(),
            },
            &Isolation::default(),
        )?;
        let text = f.messages.iter().find_map(|x| match x {
            Message::Rendered { input } if f.completed() => Some(input.clone()),
            _ => None,
        });
        let Some(text) = text else {
            bail!("cannot render input {g}: the worker {}", f.death())
        };
        inputs.push(SuiteInput {
            method: m.header.methods[method].name.clone(),
            global_index: g,
            index,
            input: text,
        });
    }
    Ok(ReducedSuite {
        schema_version: ReducedSuite::SCHEMA_VERSION,
        benchmark: m.header.benchmark.clone(),
        scope,
        of: m.header.inputs,
        inputs,
    })
}

/// Writes `reduced-suite.json` and `reduced-suite.txt` into `dir`.
pub fn write(dir: &Path, suite: &ReducedSuite) -> Result<()> {
    suite.write(&dir.join("reduced-suite.json"))?;
    let mut text = format!(
        "# {} at scope {}: {} of {} inputs kill every mutant all of them kill (greedy set cover)\n",
        suite.benchmark,
        suite.scope,
        suite.inputs.len(),
        suite.of
    );
    for i in &suite.inputs {
        text.push_str(&format!("{}\n", i.input));
    }
    std::fs::write(dir.join("reduced-suite.txt"), text).context("cannot write reduced-suite.txt")
}
