//! A scope's inputs and the original's run on them, held to the mutants' rules: both run in
//! isolated worker processes under the run's memory limit, the original under a clock limit
//! per input of its own. Any misbehaviour of the benchmark here — a panic, a crash, a loop, a
//! broken post-state, output on stdout, a limit the original cannot meet — stops the run with
//! [`Exit::Broken`](ferastrau_console::exit_code::Exit::Broken), naming the method, the input
//! and what happened: mutants cannot be judged against an original that fails.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use ferastrau_protocol::{Clause, Fault, Message, Position, Request};

use super::progress::{search_figures, search_progress};
pub(crate) use super::progress::{ClearOnDrop, Positions};
use crate::process::{Death, Ending, Finished, Isolation};
use crate::worker::Worker;
use ferastrau_console::exit_code::{broken, usage, Interrupted};
use ferastrau_console::term::size;

/// One scope's generation and original run (as the journal and `shard.json` hold it), and a
/// postcondition violation of the original.
pub use ferastrau_artifacts::{ScopeRun, Violation};

/// The least room the original's run gets above the run's memory limit for its reach sets
/// (see [`Preparation::original_memory_limit`]).
const REACH_ROOM: u64 = 256 << 20;

/// Violations kept per scope in reports (the count is always complete).
const KEPT_VIOLATIONS: usize = 20;

/// The counterexample to show of a scope's violations: a broken post-state before a
/// postcondition violation (the invariant is what every other judgement stands on), then the
/// shortest rendering of an input.
pub fn counterexample(run: &ScopeRun) -> Option<&Violation> {
    use ferastrau_artifacts::Clause;
    run.violations.iter().min_by_key(|v| {
        (
            v.clause != Clause::Invariant,
            v.input.len(),
            v.input.clone(),
        )
    })
}

/// Why `evaluate` cannot go on after `run`: the original's post-state breaks the invariant on
/// some input (a mutant that broke it too would be "killed" for nothing), told as the other
/// failures of the original are, with the number of such inputs.
pub fn broken_original(run: &ScopeRun) -> Option<anyhow::Error> {
    if run.invariant_violation_count == 0 {
        return None;
    }
    let v = counterexample(run)?;
    let others = run.invariant_violation_count - 1;
    Some(broken(format!(
        "the original program fails at scope {} on {} input #{}, {}: its post-state breaks the invariant ({}; post-state {}: {}){}; mutants cannot be judged against it (`ferastrau check` shows every violation)",
        run.scope,
        v.method,
        v.index.map_or("?".into(), |i| i.to_string()),
        v.input,
        v.output,
        v.post_state.as_deref().unwrap_or("(not rendered)"),
        v.message,
        match others {
            0 => String::new(),
            n => format!(", and on {n} other input(s)"),
        }
    )))
}

/// Free space kept on the scratch disk whatever `--max-scratch` says (for the system and the
/// journal).
pub const DISK_MARGIN: u64 = 512 << 20;

/// Which limit bounds the scratch space of a scope's inputs, so that a refusal names the one
/// that binds and what can change it: raising `--max-scratch` does nothing for a disk that is
/// full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScratchBound {
    /// `--max-scratch` (bytes), `used` of it taken by the scopes before.
    Option { max: u64, used: u64 },
    /// The free space (bytes) of the file system the scratch directory `dir` is on, of which
    /// the last [`DISK_MARGIN`] is kept free.
    Disk { free: u64, dir: PathBuf },
}

impl ScratchBound {
    /// The limit in words.
    pub fn describe(&self) -> String {
        match self {
            ScratchBound::Option { max, used } => format!(
                "--max-scratch {}, {} of it used by the scopes before",
                size(*max),
                size(*used)
            ),
            ScratchBound::Disk { free, dir } => format!(
                "the free disk: {} free on the file system of {}, of which the last {} are kept free",
                size(*free),
                dir.display(),
                size(DISK_MARGIN)
            ),
        }
    }

    /// What the user can do about it.
    pub fn remedy(&self) -> &'static str {
        match self {
            ScratchBound::Option { .. } => "evaluate fewer scopes or raise --max-scratch",
            ScratchBound::Disk { .. } => {
                "evaluate fewer scopes or free space on that file system (or point \
                 CARGO_TARGET_DIR, where the scratch lives, at a larger one); --max-scratch \
                 cannot raise it"
            }
        }
    }
}

/// Where and under which limits scopes are prepared.
#[derive(Clone, Debug)]
pub struct Preparation {
    /// Where inputs and the original's times are stored.
    pub inputs_dir: PathBuf,
    /// Where cursor and stdout files go.
    pub scratch_dir: PathBuf,
    /// Count specification and code coverage.
    pub coverage: bool,
    /// Address-space limit of generation and the original, as of mutants.
    pub memory_limit: Option<u64>,
    /// The original's clock limit per input.
    pub original_timeout: Duration,
    /// Bytes the stored inputs of all scopes may take.
    pub max_bytes: u64,
    /// Which limit `max_bytes` comes from, for the refusal when a scope does not fit.
    pub scratch_bound: ScratchBound,
    /// Method names, in the worker's numbering.
    pub methods: Vec<String>,
    /// Record which mutation points each input reaches (for reach selection).
    pub reach: bool,
    /// Threads the input search runs on ([`crate::process::generation_threads`]).
    pub jobs: usize,
}

/// The readable form of a stored input, or why it has none.
pub fn render_at(worker: &Worker, inputs_dir: &Path, p: Position) -> String {
    let request = Request::Render {
        scope: p.scope,
        method: p.method,
        index: p.index,
        dir: inputs_dir.to_path_buf(),
    };
    match worker.run(&request, &Isolation::default()) {
        Ok(f) if f.completed() => f
            .messages
            .into_iter()
            .find_map(|m| match m {
                Message::Rendered { input } => Some(input),
                _ => None,
            })
            .unwrap_or_else(|| "(not rendered)".into()),
        Ok(f) => format!(
            "(cannot be rendered: the decoder or renderer {})",
            f.death()
        ),
        Err(e) => format!("(cannot be rendered: {e:#})"),
    }
}

fn interrupted(f: &Finished) -> Result<()> {
    if matches!(f.ending, Ending::Interrupted) {
        return Err(anyhow::Error::new(Interrupted("interrupted".into())));
    }
    Ok(())
}

impl Preparation {
    /// A preparation outside an evaluation (`check`, `overhead`): into `scratch`, under the
    /// original's limits, no reach sets, the search on every core the address-space limit
    /// leaves room for.
    pub fn standalone(
        scratch: &Path,
        memory_limit: u64,
        original_timeout: Duration,
        max_scratch: u64,
        methods: Vec<String>,
    ) -> Preparation {
        Preparation {
            inputs_dir: scratch.join("inputs"),
            scratch_dir: scratch.to_path_buf(),
            coverage: false,
            memory_limit: Some(memory_limit),
            original_timeout,
            max_bytes: max_scratch,
            scratch_bound: ScratchBound::Option {
                max: max_scratch,
                used: 0,
            },
            methods,
            reach: false,
            jobs: crate::process::generation_threads(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
                Some(memory_limit),
            ),
        }
    }

    fn method(&self, m: usize) -> &str {
        self.methods.get(m).map_or("?", String::as_str)
    }

    /// The address-space limit of the original's run: the run's limit, plus room for the
    /// reach sets the worker records on the side when reach selection is on. Those are
    /// Ferastrau's bookkeeping, not the original's memory (BinomialHeap's original "ran out
    /// of memory" on input #53213 of scope 6 at 7 MiB, and passed with `--no-reach`); the
    /// original's own memory is held to the run's limit by the control run, which runs it
    /// under the mutants' limits on every input without recording anything.
    fn original_memory_limit(&self) -> Option<u64> {
        let room = |l: u64| l.max(REACH_ROOM);
        self.memory_limit.map(|l| {
            if self.reach {
                l.saturating_add(room(l))
            } else {
                l
            }
        })
    }

    fn limit_text(&self) -> String {
        match self.memory_limit {
            Some(l) => format!(" (--memory-limit {})", size(l)),
            None => String::new(),
        }
    }

    /// Generates and stores the inputs of `scope` (`used` bytes already taken by earlier
    /// scopes), then runs and checks the original on them.
    pub fn scope(&self, worker: &Worker, scope: u32, used: u64) -> Result<ScopeRun> {
        let mut run = ScopeRun {
            scope,
            ..ScopeRun::default()
        };
        self.generate(worker, scope, used, &mut run)?;
        self.original(worker, scope, &mut run)?;
        Ok(run)
    }

    fn generate(&self, worker: &Worker, scope: u32, used: u64, run: &mut ScopeRun) -> Result<()> {
        let budget = self.max_bytes.saturating_sub(used);
        let request = Request::Inputs {
            scope,
            dir: self.inputs_dir.clone(),
            coverage: self.coverage,
            max_bytes: budget,
            jobs: self.jobs,
        };
        let progress = search_progress(&self.inputs_dir, scope);
        let f = worker.run(
            &request,
            &Isolation {
                memory_limit: self.memory_limit,
                stdout: None,
                guard: None,
            },
        );
        // The poll stops before the line takes its last word (or goes).
        let line = progress.map(|(poll, line)| {
            drop(poll);
            line
        });
        let f = f?;
        interrupted(&f)?;
        let mut methods_done = 0;
        for m in &f.messages {
            match m {
                Message::Method {
                    inputs,
                    candidates,
                    seconds,
                    bytes,
                    ..
                } => {
                    run.inputs += inputs;
                    run.candidates += candidates;
                    run.generation_seconds += seconds;
                    run.bytes += bytes;
                    methods_done += 1;
                }
                Message::Coverage { probes } => run.spec_probes = probes.clone(),
                Message::DiskLimit { .. } => {
                    return Err(usage(format!(
                        "the inputs of scope {scope} need more than the {} of scratch space left ({}); {}",
                        size(budget),
                        self.scratch_bound.describe(),
                        self.scratch_bound.remedy()
                    )))
                }
                _ => {}
            }
        }
        if f.completed() {
            // What the scope came to stays on the terminal: a search too quick to show its
            // counts while it ran still says them.
            if let Some(line) = line {
                line.keep(search_figures(
                    run.inputs,
                    run.candidates,
                    run.generation_seconds,
                ));
            }
            return Ok(());
        }
        if let Some(e) = f.error() {
            bail!("the worker could not generate scope {scope}: {e}");
        }
        let method = self.method(methods_done);
        // The program loader could not map the worker binary itself: no code of the
        // benchmark ran, the limit is below what Ferastrau's own worker needs to start.
        if f.stderr.contains("error while loading shared libraries") {
            return Err(broken(format!(
                "the worker process cannot start{}: the program loader could not map Ferastrau's own worker binary (no code under test ran); raise --memory-limit",
                self.limit_text()
            )));
        }
        let death = f.death();
        if let (true, Death::Memory(m)) = (death.in_runtime(), &death) {
            return Err(broken(format!(
                "the worker process ran out of memory generating scope {scope} outside the code under test ({m}){}: the limit leaves too little for Ferastrau's own worker (its threads and bookkeeping); raise --memory-limit",
                self.limit_text()
            )));
        }
        let what = match death {
            Death::Panic(p) => {
                format!("the benchmark panicked in `{method}`'s precondition or finitization: {p}")
            }
            Death::Memory(m) => format!("generation ran out of memory{}: {m}", self.limit_text()),
            // A SIGKILL or SIGTERM from outside (the kernel's OOM killer, a cgroup, a user's
            // `kill`) says nothing of the crate or of this run's limits: not a broken run, and
            // not one to blame on --memory-limit.
            d if d.is_from_outside() => {
                return Err(anyhow::anyhow!(
                    "cannot generate the inputs of scope {scope}: the worker generating `{method}`'s inputs {d} from outside the process (the kernel's out-of-memory killer, a cgroup limit or a `kill`), not by a limit of this run; run again"
                ))
            }
            d => format!("generation of `{method}`'s inputs {d}{}", self.limit_text()),
        };
        Err(broken(format!(
            "cannot generate the inputs of scope {scope}: {what}"
        )))
    }

    fn original(&self, worker: &Worker, scope: u32, run: &mut ScopeRun) -> Result<()> {
        let cursor = self.scratch_dir.join(format!("original-{scope}.cursor"));
        let stdout = self.scratch_dir.join(format!("original-{scope}.stdout"));
        let _ = std::fs::remove_file(&cursor);
        let request = Request::Original {
            scope,
            dir: self.inputs_dir.clone(),
            clock: self.original_timeout,
            cursor: cursor.clone(),
            reach: self.reach,
        };
        // The original's run over every input, as inputs done of the total.
        let show = ferastrau_console::term::progress();
        let positions =
            show.then(|| Positions::new(&self.inputs_dir, scope..=scope, self.methods.len()));
        let bar = ClearOnDrop::new(ferastrau_console::term::meter(
            show,
            format!("scope {scope}: the original"),
            positions.as_ref().map_or(0, Positions::total),
            "inputs",
        ));
        let poll = positions.and_then(|p| p.follow(bar.bar(), cursor.clone()));
        let f = worker.run(
            &request,
            &Isolation {
                memory_limit: self.original_memory_limit(),
                stdout: Some(stdout.clone()),
                guard: None,
            },
        );
        drop(poll);
        drop(bar);
        let f = f?;
        let _ = std::fs::remove_file(&stdout);
        interrupted(&f)?;
        let fail = |method: &str, index: u64, input: &str, what: String| {
            broken(format!(
                "the original program fails at scope {scope} on {method} input #{index}, {input}: {what}; mutants cannot be judged against it"
            ))
        };
        for m in &f.messages {
            match m {
                Message::Method { seconds, .. } => run.checking_seconds += seconds,
                Message::Coverage { probes } => run.code_probes = probes.clone(),
                Message::Violation {
                    method,
                    index,
                    input,
                    output,
                    message,
                    clause,
                    post_state,
                } => {
                    run.violation_count += 1;
                    if *clause == Clause::Invariant {
                        run.invariant_violation_count += 1;
                    }
                    // The first few of each clause: a scope with thousands of postcondition
                    // violations still shows its broken states.
                    let clause = *clause;
                    let kept = run.violations.iter().filter(|v| v.clause == clause).count();
                    if kept < KEPT_VIOLATIONS {
                        run.violations.push(Violation {
                            method: method.clone(),
                            index: Some(*index),
                            input: input.clone(),
                            output: output.clone(),
                            message: message.clone(),
                            clause,
                            post_state: post_state.clone(),
                        });
                    }
                }
                Message::Failure {
                    method,
                    index,
                    input,
                    fault,
                    detail,
                } => {
                    let kind = match fault {
                        Fault::Panicked => "it panics",
                        Fault::BrokenState => "its post-state breaks the invariant",
                        Fault::Timeout => "it runs past its time limit",
                        Fault::Printed => "it prints to stdout",
                    };
                    return Err(fail(method, *index, input, format!("{kind} ({detail})")));
                }
                Message::ClockTimeout { position, limit } => {
                    let input = render_at(worker, &self.inputs_dir, *position);
                    return Err(fail(
                        self.method(position.method),
                        position.index,
                        &input,
                        format!(
                            "it runs past the original's clock limit of {:.3} s (--original-timeout)",
                            limit.as_secs_f64()
                        ),
                    ));
                }
                _ => {}
            }
        }
        if f.completed() {
            return Ok(());
        }
        if let Some(e) = f.error() {
            bail!("the worker could not run the original at scope {scope}: {e}");
        }
        let pos = ferastrau_protocol::cursor::read_file(&cursor)
            .filter(|w| w.scope == scope)
            .map(|w| w.position());
        let death = f.death();
        ferastrau_console::detail!(
            "the original's worker at scope {scope}: {death}; its stderr:\n{}",
            f.stderr
        );
        if let (true, Death::Memory(m)) = (death.in_runtime(), &death) {
            return Err(broken(format!(
                "the worker process ran out of memory at scope {scope} outside the code under test ({m}){}: the limit leaves too little for Ferastrau's own worker (its threads and bookkeeping); raise --memory-limit",
                self.limit_text()
            )));
        }
        let what = match &death {
            Death::Panic(p) => {
                format!("the benchmark's own code (decode, render or postcondition) panicked: {p}")
            }
            Death::Memory(m) => format!("it runs out of memory{} ({m})", self.limit_text()),
            Death::StackOverflow => "it overflows the stack".into(),
            Death::Signal(6) => "it aborts the process".into(),
            Death::Exit(c) => format!("it ends the process with exit status {c}"),
            d => format!("the process {d}{}", self.limit_text()),
        };
        match pos {
            Some(p) => {
                let input = render_at(worker, &self.inputs_dir, p);
                Err(fail(self.method(p.method), p.index, &input, what))
            }
            None => Err(broken(format!(
                "the original program fails at scope {scope} before its first input: {what}"
            )))
            .context("mutants cannot be judged against it"),
        }
    }
}

/// The refusal of a scope with no valid input (status 2): whatever `check` or `evaluate` then
/// reported about it would be vacuous — "no violation on every input" of none, every mutant
/// "surviving" nothing. Names what decides validity (the crate's specification functions and
/// precondition, or its generator program) and how to look at what it accepts.
pub fn no_input(
    bench: &crate::locate::BenchmarkCrate,
    scope: u32,
    candidates: u64,
) -> anyhow::Error {
    let judge = match bench.engine.is_korat() {
        true => {
            let names = ferastrau_mutator::Manifest::read(&bench.dir)
                .map(|m| m.specification)
                .unwrap_or_default();
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!(
                "the precondition rejected all {candidates} candidates (the crate's invariant: {}; and its finitization)",
                match names.is_empty() {
                    true => "its `specification`".to_string(),
                    false => names.join(", "),
                }
            )
        }
        false => "its generator program made none".to_string(),
    };
    usage(format!(
        "scope {scope} of {} has no valid input: {judge}; nothing at that scope would be tested. See which inputs the smaller scopes have with `ferastrau generate --scopes 1..{scope} --print 5`, then fix the invariant or the finitization (or start at a larger scope)",
        bench.name
    ))
}
