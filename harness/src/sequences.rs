//! `ferastrau sequences`: inputs as the JPF paper builds them — every sequence of the target
//! methods' calls from the empty structure up to a length, states matched by isomorphism or
//! by abstraction — against Korat's direct construction: per length the distinct states,
//! the calls made and the time, the code the calls covered, and how many of Korat's inputs at
//! the scope have a receiver some sequence reaches. With `--export`, the calls become a Rust
//! test file (each state built by its shortest sequence), which `evaluate --suite` measures
//! against the mutants. (The exploration runs in the benchmark's metamutant worker, the
//! original switched on, so that its probes count coverage.)

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{bail, Result};
use ferastrau_artifacts::Probe;
use ferastrau_console::exit_code::usage;
use ferastrau_protocol::{CallOutcome, Matching, Message, Request};
use serde::Serialize;

use crate::locate::{BenchmarkCrate, Named};
use crate::worker::Worker;

/// What `ferastrau sequences` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The crate.
    pub target: Named,
    /// `--length`: the longest sequence of calls.
    pub length: u32,
    /// `--scope`; `None`: the length.
    pub scope: Option<u32>,
    /// `--matching`: how two states are told apart.
    pub matching: Matching,
    /// `--export FILE`: every call written there as a test.
    pub export: Option<PathBuf>,
}

/// `ferastrau sequences`: the exploration in the crate's metamutant worker (the original
/// switched on: its probes count coverage), its calls written as tests when asked; its
/// report.
pub fn run(opts: &Options) -> Result<Report> {
    let bench = opts.target.locate()?;
    let subject = crate::subject::prepare(&bench)?;
    let probes = subject
        .meta
        .probes
        .iter()
        .map(crate::evaluate::report::probe)
        .collect::<Result<Vec<_>>>()?;
    let ask = ExplorationRequest {
        length: opts.length,
        scope: opts.scope.unwrap_or(opts.length),
        matching: opts.matching,
        calls: opts.export.is_some(),
    };
    let exploration = explore(
        &bench.name,
        &subject.worker,
        subject.methods.clone(),
        &probes,
        ask,
    )?;
    if let Some(file) = &opts.export {
        let text = exploration.test_file(&bench)?;
        std::fs::write(file, &text)
            .map_err(|e| usage(format!("cannot write {}: {e}", file.display())))?;
        ferastrau_console::stage!(
            "Wrote",
            "{} tests of {}'s calls to {}",
            text.matches("#[test]").count(),
            bench.name,
            file.display()
        );
    }
    Ok(exploration.report)
}

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
    /// Statement and branch coverage of the code under test by all the calls, in percent, as
    /// `evaluate` counts it.
    pub statement_coverage: f64,
    pub branch_coverage: f64,
    pub coverage: Coverage,
}

/// A state's last call: state `parent`'s receiver after `method(arg)`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Step {
    parent: u64,
    method: usize,
    arg: i64,
}

/// One call the exploration made.
#[derive(Clone, Debug, PartialEq)]
struct Call {
    state: u64,
    method: usize,
    arg: i64,
    outcome: CallOutcome,
}

/// An exploration's report and, when asked for, its calls.
pub struct Exploration {
    pub report: Report,
    steps: HashMap<u64, Step>,
    calls: Vec<Call>,
    methods: Vec<String>,
    scope: u32,
}

/// What to explore.
#[derive(Clone, Copy, Debug)]
pub struct ExplorationRequest {
    pub length: u32,
    /// Arguments are 1..=scope, and Korat's inputs at it are compared.
    pub scope: u32,
    pub matching: Matching,
    /// Keep every call, to write them as tests.
    pub calls: bool,
}

/// Explores the sequences in `worker` (the metamutant's, whose `probes` count coverage).
pub fn explore(
    benchmark: &str,
    worker: &Worker,
    methods: Vec<String>,
    probes: &[Probe],
    ask: ExplorationRequest,
) -> Result<Exploration> {
    let mut levels = Vec::new();
    let mut coverage = None;
    let mut hit = None;
    let mut steps = HashMap::new();
    let mut calls = Vec::new();
    for m in worker.call(&Request::Sequences {
        length: ask.length,
        scope: ask.scope,
        matching: ask.matching,
        calls: ask.calls,
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
            Message::SequenceState {
                id,
                parent,
                method,
                arg,
            } => {
                steps.insert(
                    id,
                    Step {
                        parent,
                        method,
                        arg,
                    },
                );
            }
            Message::SequenceCall {
                state,
                method,
                arg,
                outcome,
            } => calls.push(Call {
                state,
                method,
                arg,
                outcome,
            }),
            Message::Coverage { probes } => hit = Some(probes),
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
    let (Some(coverage), Some(hit)) = (coverage, hit) else {
        bail!("the worker for {benchmark} ended the exploration without its coverage");
    };
    let (statement_coverage, branch_coverage) =
        crate::evaluate::report::code_coverage(&hit, probes);
    Ok(Exploration {
        report: Report {
            benchmark: benchmark.to_string(),
            matching: ask.matching,
            levels,
            statement_coverage,
            branch_coverage,
            coverage,
        },
        steps,
        calls,
        methods,
        scope: ask.scope,
    })
}

impl Exploration {
    /// The calls as a Rust test file for `bench`: one `#[test]` per call, its state built by
    /// the sequence that first reached it (through the crate's `Benchmark::initial`,
    /// `with_argument` and `run`), the call made, and the original's return value, abstract
    /// post-state and invariant asserted; a call that panicked on the original is a
    /// `#[should_panic]` test.
    pub fn test_file(&self, bench: &BenchmarkCrate) -> Result<String> {
        if self.calls.is_empty() {
            bail!("the exploration kept no calls to write");
        }
        let r = &self.report;
        let length = r.levels.last().map_or(0, |l| l.length);
        let mut text = format!(
            "//! Every call of `{name}`'s methods in sequences of up to {length} calls from its\n\
             //! initial state, arguments 1..={scope}, states matched by {matching}, written by\n\
             //! `ferastrau sequences --export`: each state built by the calls that first reached\n\
             //! it, the call made, and what the original returns and leaves asserted.\n\n\
             use ferastrau_sdk::Benchmark;\n",
            name = bench.name,
            scope = self.scope,
            matching = r.matching,
        );
        for (n, c) in self.calls.iter().enumerate() {
            let path = self.path(c.state)?;
            let name = |m: usize| self.methods.get(m).map_or("?", String::as_str);
            let history: Vec<String> = path
                .iter()
                .map(|&(m, a)| format!("{}({a})", name(m)))
                .collect();
            let _ = write!(
                text,
                "\n/// {}({}) after [{}]\n#[test]\n{}fn call_{n}() {{\n    {}\n",
                name(c.method),
                c.arg,
                history.join(", "),
                match c.outcome {
                    CallOutcome::Panicked => "#[should_panic]\n",
                    CallOutcome::Returned { .. } => "",
                },
                crate::export_tests::by_calls(bench, self.scope, &path, c.method, c.arg),
            );
            match &c.outcome {
                CallOutcome::Panicked => {
                    let _ = writeln!(text, "    bench.run({}, &mut input);\n}}", c.method);
                }
                CallOutcome::Returned { ret, abstraction } => {
                    text += &crate::export_tests::call_asserting(c.method, ret, abstraction);
                    text += "}\n";
                }
            }
        }
        Ok(text)
    }

    /// The calls (method, argument) that first reached `state`, from the initial state.
    fn path(&self, mut state: u64) -> Result<Vec<(usize, i64)>> {
        let mut path = Vec::new();
        while state != 0 {
            let Some(s) = self.steps.get(&state) else {
                bail!("the exploration did not say how it reached state {state}");
            };
            path.push((s.method, s.arg));
            state = s.parent;
        }
        path.reverse();
        Ok(path)
    }
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
        "code coverage of the calls: {:.2}% of statements, {:.2}% of branches\n",
        r.statement_coverage, r.branch_coverage
    ));
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
