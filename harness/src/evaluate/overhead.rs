//! `ferastrau overhead` as one call: what the metamutant's guards cost, measured as
//! [`run`] does it — one scope's inputs generated into a scratch directory, then replayed by
//! the untouched crate's worker and by the metamutant's with no mutant active, the best of
//! several runs each. The CLI prints the [`Outcome`].

use std::time::Duration;

use anyhow::{Context, Result};
use ferastrau_console::exit_code::usage;
use ferastrau_protocol::{Message, Request};
use serde::Serialize;

use super::prepare::{self, Preparation};
use crate::locate::Named;
use crate::outdir::Scratch;
use crate::worker::Worker;

/// What `ferastrau overhead` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The crate.
    pub target: Named,
    /// `--scope`: whose inputs both builds run on.
    pub scope: u32,
    /// `--repeat`: runs per build; the best counts.
    pub repeat: u32,
}

/// The two builds' times on the same inputs (`--format json` prints it as is).
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub benchmark: String,
    pub scope: u32,
    pub repeat: u32,
    /// Executions of one replay.
    pub executions: u64,
    /// The untouched crate's best replay.
    pub untouched_seconds: f64,
    /// The metamutant's (no mutant active) best replay.
    pub metamutant_seconds: f64,
    /// `metamutant_seconds / untouched_seconds`.
    pub ratio: f64,
}

/// `ferastrau overhead`: both workers built, the scope's inputs generated (an original that
/// fails on them stops it, as it stops `evaluate`), and each worker's replay timed.
pub fn run(opts: &Options) -> Result<Outcome> {
    if opts.scope == 0 {
        return Err(usage("scope 0 is empty: scopes start at 1"));
    }
    let bench = opts.target.locate()?;
    let original = crate::subject::original_worker(&bench)?;
    let subject = crate::subject::prepare(&bench)?;
    let scratch = Scratch::new(&bench)?;
    // The default limits of `evaluate`: the inputs of one scope, not a run's.
    let prep = Preparation::standalone(
        scratch.path(),
        1 << 30,
        Duration::from_secs(10),
        20 << 30,
        original.methods()?,
    );
    let run = prep.scope(&original, opts.scope, 0)?;
    if let Some(e) = prepare::broken_original(&run) {
        return Err(e);
    }
    let replay = |w: &Worker| -> Result<(u64, f64)> {
        let request = Request::Replay {
            scope: opts.scope,
            dir: prep.inputs_dir.clone(),
            repeat: opts.repeat,
        };
        w.call(&request)?
            .into_iter()
            .find_map(|m| match m {
                Message::Replay {
                    executions,
                    seconds,
                } => Some((executions, seconds)),
                _ => None,
            })
            .context("the worker sent no timing")
    };
    let (executions, plain) = replay(&original)?;
    let (_, meta) = replay(&subject.worker)?;
    Ok(Outcome {
        benchmark: bench.name,
        scope: opts.scope,
        repeat: opts.repeat,
        executions,
        untouched_seconds: plain,
        metamutant_seconds: meta,
        ratio: meta / plain,
    })
}
