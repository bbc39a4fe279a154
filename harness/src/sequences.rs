//! `ferastrau sequences`: inputs as the JPF paper builds them — every sequence of the target
//! methods' calls from the empty structure up to a length, states matched by isomorphism or
//! by abstraction — against Korat's direct construction: per length the distinct states,
//! the calls made and the time, and at the end how many of Korat's inputs at the scope have
//! a receiver some sequence reaches. (The exploration runs in the benchmark's worker.)

use anyhow::{bail, Result};
use ferastrau_protocol::{Matching, Message, Request};
use serde::Serialize;

use crate::worker::Worker;

/// One length of the exploration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Level {
    pub length: u32,
    /// Distinct states reached by sequences of at most this length (the initial one included).
    pub states: u64,
    /// Those first reached at this length.
    pub new_states: u64,
    /// Calls made so far (each explored state × each method × each argument).
    pub explored: u64,
    /// Seconds since the exploration started.
    pub seconds: f64,
}

/// Korat's inputs at the scope against the states reached.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Coverage {
    pub scope: u32,
    /// Distinct receivers among Korat's inputs (by the same matching).
    pub receivers: u64,
    /// Those a sequence reached.
    pub covered: u64,
}

/// What `sequences` reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub benchmark: String,
    pub matching: Matching,
    pub levels: Vec<Level>,
    pub coverage: Coverage,
}

/// Explores the sequences up to `length` (arguments 1..=`scope`) in `worker`.
pub fn explore(
    benchmark: &str,
    worker: &Worker,
    length: u32,
    scope: u32,
    matching: Matching,
) -> Result<Report> {
    let mut levels = Vec::new();
    let mut coverage = None;
    for m in worker.call(&Request::Sequences {
        length,
        scope,
        matching,
    })? {
        match m {
            Message::SequenceLevel {
                length,
                states,
                new_states,
                explored,
                seconds,
            } => levels.push(Level {
                length,
                states,
                new_states,
                explored,
                seconds,
            }),
            Message::SequenceCoverage {
                scope,
                receivers,
                covered,
            } => {
                coverage = Some(Coverage {
                    scope,
                    receivers,
                    covered,
                })
            }
            _ => {}
        }
    }
    let Some(coverage) = coverage else {
        bail!("the worker for {benchmark} ended the exploration without Korat's coverage");
    };
    Ok(Report {
        benchmark: benchmark.to_string(),
        matching,
        levels,
        coverage,
    })
}

/// The table `sequences` prints.
pub fn render_table(r: &Report) -> String {
    let mut t = format!(
        "{}: sequences of its methods' calls from the empty structure, states matched by {}\n\
         {:>6} {:>10} {:>10} {:>12} {:>9}\n",
        r.benchmark, r.matching, "length", "states", "new", "calls", "seconds"
    );
    for l in &r.levels {
        t.push_str(&format!(
            "{:>6} {:>10} {:>10} {:>12} {:>9.3}\n",
            l.length, l.states, l.new_states, l.explored, l.seconds
        ));
    }
    let c = &r.coverage;
    t.push_str(&format!(
        "Korat's inputs at scope {}: {} distinct receivers, {} reached by a sequence ({:.2}%)\n",
        c.scope,
        c.receivers,
        c.covered,
        if c.receivers == 0 {
            0.0
        } else {
            100.0 * c.covered as f64 / c.receivers as f64
        }
    ));
    t
}
