//! `ferastrau generate`: Korat's figures per scope and method, and a look at the inputs.

use std::ops::RangeInclusive;

use anyhow::Result;
use ferastrau_worker::protocol::{Message, Request};
use serde::{Deserialize, Serialize};

use crate::locate::BenchmarkCrate;
use crate::worker::Worker;

/// Korat's figures for one method at one scope.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct MethodStats {
    pub method: String,
    pub scope: u32,
    pub inputs: u64,
    pub candidates: u64,
    pub seconds: f64,
    pub state_space_log2: f64,
}

/// Korat's figures for one scope: the totals over the methods and the breakdown.
#[derive(Clone, Debug, Serialize)]
pub struct ScopeStats {
    pub scope: u32,
    pub inputs: u64,
    pub candidates: u64,
    pub seconds: f64,
    pub methods: Vec<MethodStats>,
    /// The first inputs of each method, rendered (only with `--print`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Example {
    pub method: String,
    pub text: String,
}

/// How `generate` searches.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    /// Threads of each search (the results do not depend on it).
    pub jobs: usize,
    /// The structure-only searches instead of the inputs: structures found and candidates
    /// explored without the arguments the preconditions leave unread.
    pub structure: bool,
}

/// Runs Korat for every scope through the benchmark's worker.
pub fn generate(
    worker: &Worker,
    scopes: RangeInclusive<u32>,
    print: usize,
    mode: Mode,
    mut progress: impl FnMut(&ScopeStats),
) -> Result<Vec<ScopeStats>> {
    let mut all = Vec::new();
    for scope in scopes {
        let messages = worker.call(&Request::Generate {
            scope,
            print,
            pruning: true,
            isomorphism_breaking: true,
            jobs: mode.jobs,
            structure: mode.structure,
        })?;
        let mut s = ScopeStats {
            scope,
            inputs: 0,
            candidates: 0,
            seconds: 0.0,
            methods: Vec::new(),
            examples: Vec::new(),
        };
        for m in messages {
            match m {
                Message::Input { method, text } => s.examples.push(Example { method, text }),
                Message::Method {
                    method,
                    scope,
                    inputs,
                    candidates,
                    seconds,
                    state_space_log2,
                    ..
                } => {
                    s.inputs += inputs;
                    s.candidates += candidates;
                    s.seconds += seconds;
                    s.methods.push(MethodStats {
                        method,
                        scope,
                        inputs,
                        candidates,
                        seconds,
                        state_space_log2,
                    });
                }
                _ => {}
            }
        }
        progress(&s);
        all.push(s);
    }
    Ok(all)
}

/// The table `generate` prints: a row per method and a total row per scope.
pub fn render_table(bench: &BenchmarkCrate, stats: &[ScopeStats], structure: bool) -> String {
    let (title, found) = if structure {
        ("Korat structure-only search", "found")
    } else {
        ("Korat generation", "inputs")
    };
    let mut t = format!(
        "{title} for {}\n{:>5}  {:<14} {:>10} {:>12} {:>9} {:>13}\n",
        bench.name, "scope", "method", found, "candidates", "seconds", "cand./second"
    );
    for s in stats {
        let mut row = |name: &str, inputs: u64, cands: u64, secs: f64| {
            let rate = if secs > 0.0 { cands as f64 / secs } else { 0.0 };
            t.push_str(&format!(
                "{:>5}  {:<14} {:>10} {:>12} {:>9.4} {:>13.0}\n",
                s.scope, name, inputs, cands, secs, rate
            ));
        };
        for m in &s.methods {
            row(&m.method, m.inputs, m.candidates, m.seconds);
        }
        row("total", s.inputs, s.candidates, s.seconds);
    }
    t
}

/// The `--print` listing of one scope.
pub fn render_examples(s: &ScopeStats) -> String {
    let mut t = String::new();
    for e in &s.examples {
        t.push_str(&format!("scope {} {}\n", s.scope, e.text));
    }
    t
}
