//! `ferastrau check --white-box` (the paper's Sec. 6.2): per scope and method, Korat's search of
//! the failure predicate — the precondition, then the method, then its checks — up to the first
//! counterexample, beside the black-box check of the same scope (the precondition's whole
//! search, then every input run). The searches run in the benchmark's worker
//! (`ferastrau_worker`'s `white_box`, whose doc says what the search records); this module asks
//! for them and turns a worker that fails into the run's error.

use std::time::Duration;

use anyhow::Result;
use ferastrau_protocol::{FoundCounterexample, Message, Request, SearchCost};
use serde::Serialize;

use crate::process::{Ending, Isolation};
use crate::worker::Worker;
use ferastrau_console::exit_code::{broken, Interrupted};

/// One method at one scope.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodSearch {
    pub method: String,
    /// The black-box check: every input generated, then each run.
    pub black_box: SearchCost,
    /// The failure predicate's search, up to its first counterexample.
    pub white_box: SearchCost,
    /// Candidates black-box generation had explored when it produced that counterexample's
    /// input (the same search order): what a black-box check that ran each input as it came
    /// and stopped at the first failure would explore.
    pub black_box_first: Option<u64>,
    pub counterexample: Option<FoundCounterexample>,
}

/// One scope.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScopeSearch {
    pub scope: u32,
    pub methods: Vec<MethodSearch>,
}

/// Searches `scope` in `worker` under the run's memory limit, each call of the original under
/// `clock`. A worker that does not complete (the original loops or crashes, its decoder or
/// checks panic) or an original that prints stops the run as a broken original; a panic of the
/// method itself is a counterexample (the failure predicate's unexpected exception).
pub fn search(
    worker: &Worker,
    scope: u32,
    memory_limit: u64,
    clock: Duration,
) -> Result<ScopeSearch> {
    // The original must not print (as in the black-box check, where output on stdout stops
    // the run): its stdout goes to a file that must stay empty.
    let stdout = tempfile::NamedTempFile::new()?;
    let isolation = Isolation {
        memory_limit: Some(memory_limit),
        stdout: Some(stdout.path().to_path_buf()),
        ..Isolation::default()
    };
    let f = worker.run(&Request::WhiteBox { scope, clock }, &isolation)?;
    if matches!(f.ending, Ending::Interrupted) {
        return Err(anyhow::Error::new(Interrupted("interrupted".into())));
    }
    if !f.completed() {
        let why = f
            .error()
            .map(String::from)
            .unwrap_or_else(|| f.death().to_string());
        return Err(broken(format!(
            "the white-box search of {} at scope {scope} did not complete: {why}",
            worker.package
        )));
    }
    let printed = std::fs::metadata(stdout.path()).map_or(0, |m| m.len());
    if printed > 0 {
        return Err(broken(format!(
            "the original prints to stdout during the white-box search of {} at scope {scope} ({printed} bytes): a benchmark's code must not print",
            worker.package
        )));
    }
    let methods = f
        .messages
        .into_iter()
        .filter_map(|m| match m {
            Message::WhiteBox {
                method,
                black_box,
                white_box,
                black_box_first,
                counterexample,
            } => Some(MethodSearch {
                method,
                black_box,
                white_box,
                black_box_first,
                counterexample,
            }),
            _ => None,
        })
        .collect();
    Ok(ScopeSearch { scope, methods })
}

/// The table `check --white-box` prints.
pub fn render_table(benchmark: &str, scopes: &[ScopeSearch]) -> String {
    let w = scopes
        .iter()
        .flat_map(|s| &s.methods)
        .map(|m| m.method.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut t = format!(
        "{benchmark}: the failure predicate searched (white box) against every input generated, then run (black box)\n\
         {:>5} {:<w$} {:>12} {:>9} {:>12} {:>9} {:>13}  first counterexample\n",
        "scope", "method", "black cands", "black [s]", "white cands", "white [s]", "black to it"
    );
    for s in scopes {
        for m in &s.methods {
            t.push_str(&format!(
                "{:>5} {:<w$} {:>12} {:>9.3} {:>12} {:>9.3} {:>13}  {}\n",
                s.scope,
                m.method,
                m.black_box.candidates,
                m.black_box.seconds,
                m.white_box.candidates,
                m.white_box.seconds,
                m.black_box_first
                    .map_or_else(|| "-".to_string(), |n| n.to_string()),
                m.counterexample
                    .as_ref()
                    .map_or_else(|| "none".to_string(), |c| c.input.clone()),
            ));
        }
    }
    t
}
