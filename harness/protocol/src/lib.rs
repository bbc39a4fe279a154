//! The worker protocol, defined once: the requests the harness sends a worker process and the
//! messages the worker sends back. Both sides use these types, so a field's type or name can
//! never differ between them (a limit sent as a float and parsed as an integer, say).
//!
//! A request travels as one JSON argument (`worker '{"original":{...}}'`). Messages travel as
//! JSON lines on a **dedicated pipe** whose descriptor the harness names in the environment
//! variable [`CHANNEL_ENV`]: the code under test shares the worker's stdout and stderr, and
//! anything it prints there is never read as protocol. Every request that completes ends with
//! [`Message::Done`]; a worker that ends without it did not finish, whatever its exit status
//! (an `exit(0)` in the code under test cannot pass for success).

pub mod cursor;
pub mod progress;
pub mod reach;
pub mod store;

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The environment variable holding the protocol pipe's file descriptor.
pub const CHANNEL_ENV: &str = "FERASTRAU_CHANNEL_FD";

/// A command for the worker process.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// The benchmark's target methods, in the worker's numbering: [`Message::Described`].
    Describe,
    /// Korat over every method at `scope`, printing the first `print` inputs of each:
    /// [`Message::Input`] and [`Message::Method`] lines.
    Generate {
        /// The bound of every finitization.
        scope: u32,
        /// How many valid inputs of each method to render (`generate --print`).
        print: usize,
        /// Backtrack on the fields the invariant read (off: the proof's Korat*).
        pruning: bool,
        /// Skip isomorphic candidates (off: every object numbering counts).
        isomorphism_breaking: bool,
        /// Threads of the search (`generate --jobs`); results are the same for any number.
        #[serde(default = "one")]
        jobs: usize,
        /// Report the structure-only searches instead (`generate --structure`): per method,
        /// the structures found and candidates explored without its unread arguments.
        #[serde(default)]
        structure: bool,
        /// Search with each method's dedicated generators where it has them
        /// (`generate --generators`).
        #[serde(default)]
        generators: bool,
    },
    /// Generates and stores the inputs of `scope` under `dir` (at most `max_bytes` in all),
    /// counting specification coverage with `coverage`.
    Inputs {
        /// The bound of every finitization.
        scope: u32,
        /// The run's inputs directory, shared by every later request of the run.
        dir: PathBuf,
        /// Whether to record the specification's probes (a separate, slower pass is avoided).
        coverage: bool,
        /// The space the scope may take, so a growing scope stops before filling the disk.
        max_bytes: u64,
        /// Threads the search runs on (the stored inputs are the same for any number).
        #[serde(default = "one")]
        jobs: usize,
    },
    /// Runs and checks the original on every stored input of `scope`, each call under the
    /// clock limit `clock`; records its per-input times and ticks under `dir`.
    Original {
        /// The scope whose stored inputs to run.
        scope: u32,
        /// The run's inputs directory.
        dir: PathBuf,
        /// Per-call wall-clock limit: an original that loops stops the run instead of hanging it.
        clock: Duration,
        /// The cursor file (see [`crate::cursor`]) naming the input if the process dies.
        cursor: PathBuf,
        /// Also record which mutation points each input reaches (see [`crate::reach`]).
        #[serde(default)]
        reach: bool,
    },
    /// Runs each mutant of `mutants` in turn against the original on every stored input of
    /// each of its scopes (`from` to `to`), stopping each scope at its first killing input.
    /// One [`Message::Scope`] per finished scope, a mutant's scopes before the next mutant's.
    /// One process serves many mutants because starting one costs more than a small scope's
    /// whole run; the harness runs a mutant again alone when a process dies in it after
    /// serving another, so a death is always judged in a fresh process.
    Mutants {
        /// The mutants, in the order to run them, each with its first scope.
        mutants: Vec<Due>,
        /// The last scope to run, inclusive.
        to: u32,
        /// The run's inputs directory.
        dir: PathBuf,
        /// The cursor file naming the mutant and input if a mutant kills the process.
        cursor: PathBuf,
        /// The time limits, relative to the original's measurements on each input.
        limits: Limits,
        /// Run only the inputs that reach the mutant's point (the reach sets the original's
        /// run wrote); off, every input. The results are the same either way.
        #[serde(default)]
        reach: bool,
        /// What the mutant's outputs are compared with the original's by.
        #[serde(default)]
        comparison: Comparison,
        /// Run consecutive mutants that take the same inputs (the same first scope and reach
        /// sets) as a cohort: each input decoded and the original run once for all of them.
        /// The results are the same either way, but a process that dies or times out inside
        /// a cohort cannot say which of its mutants did it, so the harness turns this off
        /// for the rest of a list after such an end.
        #[serde(default)]
        cohorts: bool,
    },
    /// Runs `mutant` against the original on the stored inputs of `scope` that `spans` name,
    /// **without** stopping at a kill (the kill matrix): [`Message::MatrixChunk`] lines, in
    /// input order, each covering a run of inputs whose outcome is then known.
    Matrix {
        /// The mutant's id in the catalog.
        mutant: u32,
        /// The scope whose stored inputs to run.
        scope: u32,
        /// The inputs to run, in order (a restarted child skips what is known).
        spans: Vec<Span>,
        /// The run's inputs directory.
        dir: PathBuf,
        /// The cursor file naming the input if the mutant kills the process.
        cursor: PathBuf,
        /// The time limits, relative to the original's measurements on each input.
        limits: Limits,
        /// Run only the inputs of the spans that reach the mutant's point (the reach sets the
        /// original's run wrote); the others are settled without a run, since there the
        /// mutant does what the original does. The rows are the same either way.
        #[serde(default)]
        reach: bool,
        /// What the mutant's outputs are compared with the original's by.
        #[serde(default)]
        comparison: Comparison,
    },
    /// The readable form of one stored input: [`Message::Rendered`].
    Render {
        /// The input's scope.
        scope: u32,
        /// The input's method, in the worker's numbering.
        method: usize,
        /// The input's position among the method's stored inputs.
        index: u64,
        /// The run's inputs directory.
        dir: PathBuf,
    },
    /// Runs the build with no mutant active over the stored inputs, `repeat` times:
    /// [`Message::Replay`] with the best time.
    Replay {
        /// The scope whose stored inputs to run.
        scope: u32,
        /// The inputs directory.
        dir: PathBuf,
        /// Runs to take the best of, against the machine's noise.
        repeat: u32,
    },
    /// Every input's rendered outcome with `mutant` active: [`Message::Output`] lines.
    Outputs {
        /// The scope to generate and run.
        scope: u32,
        /// The mutant to switch on ([`NO_MUTANT`] for the original).
        mutant: u32,
        /// Per-call wall-clock limit, so that a looping mutant still yields its lines.
        clock: Duration,
    },
    /// Every input at `scope` as the parts of a test (`ferastrau export-tests`): one
    /// [`Message::Exported`] per input, from the original's run.
    Export {
        /// The scope whose inputs to write.
        scope: u32,
    },
    /// Every sequence of target-method calls up to `length` from the benchmark's initial
    /// state, arguments 1..=`scope`, states matched by `matching`: a
    /// [`Message::SequenceLevel`] per length, then [`Message::SequenceCoverage`] of Korat's
    /// inputs at `scope`.
    Sequences {
        length: u32,
        scope: u32,
        matching: Matching,
        /// Also send each new state's last call ([`Message::SequenceState`]) and each call's
        /// outcome ([`Message::SequenceCall`]), to write the calls as tests.
        #[serde(default)]
        calls: bool,
    },
    /// `check --white-box` at `scope`: per method, Korat's search of the failure predicate
    /// (the precondition, then the method, then its checks) up to its first counterexample,
    /// beside the black-box check of the same scope (every input generated, then each run):
    /// one [`Message::WhiteBox`] per method. Each run of the original is under the clock
    /// limit `clock`.
    WhiteBox { scope: u32, clock: Duration },
}

/// An input built by calls (`export-tests`): from `Benchmark::initial`, each of `calls`
/// (method, argument) made through `with_argument` and `run`, then `with_argument(method,
/// state, arg)` gives the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sequence {
    pub calls: Vec<(usize, i64)>,
    pub arg: i64,
}

/// What one call of [`Request::Sequences`] did on the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallOutcome {
    /// It returned `ret` and left a state whose abstraction is `abstraction` (both as `Debug`
    /// writes them).
    Returned { ret: String, abstraction: String },
    /// It panicked (its sequence ends there).
    Panicked,
}

/// What a counterexample of `check --white-box` breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Breach {
    /// The method's postcondition.
    Postcondition,
    /// The class invariant on the post-state.
    Invariant,
    /// The method panicked (the paper's unexpected exception).
    Panic,
}

/// One search's figures in [`Message::WhiteBox`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchCost {
    /// Candidates Korat explored.
    pub candidates: u64,
    /// Calls of the method (valid inputs run).
    pub calls: u64,
    /// Wall-clock seconds, search and calls.
    pub seconds: f64,
}

/// The first counterexample the white-box search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FoundCounterexample {
    /// The input, rendered.
    pub input: String,
    /// What the call did (`returned …` or `panicked: …`).
    pub output: String,
    /// What it breaks, and how.
    pub breach: Breach,
    pub message: String,
}

/// How `ferastrau sequences` tells two states apart (the JPF paper's two matchings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Matching {
    /// By the concrete structure up to isomorphism (`Benchmark::structure`).
    #[default]
    Isomorphism,
    /// By the abstract value (`Benchmark::abstraction`): states with the same contents merge.
    Abstraction,
}

impl Matching {
    /// Both, in the order the command line lists them.
    pub const ALL: [Matching; 2] = [Matching::Isomorphism, Matching::Abstraction];

    /// The name the command line and the reports use.
    pub fn name(self) -> &'static str {
        match self {
            Matching::Isomorphism => "isomorphism",
            Matching::Abstraction => "abstraction",
        }
    }
}

impl fmt::Display for Matching {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Matching {
    type Err = String;
    fn from_str(s: &str) -> Result<Matching, String> {
        Matching::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown matching {s:?}: isomorphism or abstraction"))
    }
}

/// A mutant due to run, from its first scope to the request's last (a resumed or restarted
/// mutant starts where it stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Due {
    /// The mutant's id in the catalog, the value of the metamutant's switch.
    pub mutant: u32,
    /// The first scope to run.
    pub from: u32,
}

/// What a mutant's outputs are compared with the original's by (the paper's Sec. 7.2). The
/// paper's Ferastrau compared with `equals` — abstract values, for classes that define it —
/// or, when the mutants were classes of their own, through serialization, which compares the
/// whole object graph the receiver reaches. A return value, a panic and the invariant are
/// judged the same way under both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Comparison {
    /// The return value and the post-state's abstraction (`Benchmark::abstraction`), as a
    /// Java `equals` would compare them.
    #[default]
    Abstract,
    /// Those, and the post-state's concrete structure (`Benchmark::structure`): every field
    /// of every object the receiver reaches, as serialization compares it. A mutant that
    /// leaves the same abstract value in another shape is killed.
    Structural,
}

impl Comparison {
    /// Both, in the order reports list them.
    pub const ALL: [Comparison; 2] = [Comparison::Abstract, Comparison::Structural];

    /// The name the command line and the files use.
    pub fn name(self) -> &'static str {
        match self {
            Comparison::Abstract => "abstract",
            Comparison::Structural => "structural",
        }
    }

    /// Whether this is the default (files leave the default out, so older ones still read).
    pub fn is_abstract(&self) -> bool {
        *self == Comparison::Abstract
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Comparison {
    type Err = String;
    fn from_str(s: &str) -> Result<Comparison, String> {
        Comparison::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown comparison {s:?}: abstract or structural"))
    }
}

/// What describes a benchmark's inputs: a Korat finitization (its candidate vectors searched
/// against the invariant) or a generator program (UDITA's choices, replayed). A crate may
/// describe them both ways (`[package.metadata.ferastrau] engines`); the inputs must then be
/// the same, and so must every verdict. Reports name the engine that made their inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// Korat's search over the finitization (`Benchmark::finitize`).
    #[default]
    Korat,
    /// A generator program (`ferastrau_sdk::generator::Generated`).
    Generator,
}

impl Engine {
    /// Both, in the order the command line lists them.
    pub const ALL: [Engine; 2] = [Engine::Korat, Engine::Generator];

    /// The name the command line, the manifest and the files use.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Korat => "korat",
            Engine::Generator => "generator",
        }
    }

    /// Whether this is the default (files leave the default out, so older ones still read).
    pub fn is_korat(&self) -> bool {
        *self == Engine::Korat
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        Engine::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown engine {s:?}: korat or generator"))
    }
}

/// How a mutant's time is limited on each input.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Tick budget: `tick_factor` × the original's ticks on the input + `tick_floor`.
    pub tick_factor: u64,
    /// Ticks every input allows beyond the factor (an original that ticks little on an input).
    pub tick_floor: u64,
    /// Clock limit: `timeout_factor` × the original's time on the input + `timeout_floor`.
    pub timeout_factor: f64,
    /// Time every input allows beyond the factor, for scheduling noise (as serde writes a
    /// `std::time::Duration`: `{"secs": .., "nanos": ..}`).
    pub timeout_floor: Duration,
}

/// Why a mutant was killed: the paper's criteria, plus a dead process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The post-state breaks the class invariant.
    Invariant,
    /// The return value, the abstract post-state or a panic differs from the original's.
    Output,
    /// Ran past a time limit (see `limit`).
    Timeout,
    /// The process ran out of its address space.
    Memory,
    /// The process died: stack overflow, abort, `exit`, a signal.
    Crash,
}

impl Reason {
    /// Every reason, in report order.
    pub const ALL: [Reason; 5] = [
        Reason::Invariant,
        Reason::Output,
        Reason::Timeout,
        Reason::Memory,
        Reason::Crash,
    ];

    /// The reason's name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Invariant => "invariant",
            Reason::Output => "output",
            Reason::Timeout => "timeout",
            Reason::Memory => "memory",
            Reason::Crash => "crash",
        }
    }

    /// Kills that say something about the process rather than about the code's results:
    /// a run where most mutants die this way is suspect (see the harness's health checks).
    pub fn is_infrastructure(self) -> bool {
        matches!(self, Reason::Timeout | Reason::Memory | Reason::Crash)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which time limit a timeout hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The deterministic tick budget.
    Ticks,
    /// The per-input wall-clock limit (the worker's watchdog).
    Clock,
    /// The whole process ran too long and the harness killed it.
    Guard,
}

impl Limit {
    /// The limit's name in reports (the same as its serialized form).
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::Ticks => "ticks",
            Limit::Clock => "clock",
            Limit::Guard => "guard",
        }
    }
}

/// A position among the stored inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The scope.
    pub scope: u32,
    /// The method, in the worker's numbering.
    pub method: usize,
    /// The input's number among the method's stored inputs at that scope.
    pub index: u64,
}

/// Consecutive stored inputs of one method: indices `from..to` among its inputs at a scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// The method, in the worker's numbering.
    pub method: usize,
    /// The first input's number.
    pub from: u64,
    /// One past the last input's number.
    pub to: u64,
}

/// Consecutive inputs that kill a mutant for the same reason (a kill matrix's rows are sent
/// run-length encoded: most mutants kill long stretches of inputs alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KillRun {
    /// The first killing input's number among the method's inputs.
    pub index: u64,
    /// How many consecutive inputs, from `index`, kill for `reason`.
    pub len: u64,
    /// Why they kill.
    pub reason: Reason,
}

/// A kill, as the worker reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kill {
    /// Which criterion killed the mutant.
    pub reason: Reason,
    /// For a timeout, which limit it hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    /// The killing input's method, in the worker's numbering.
    pub method: usize,
    /// The killing input's number among the method's stored inputs.
    pub index: u64,
    /// The killing input, rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// What differed: the two outputs, the broken invariant, the panic or the signal.
    pub detail: String,
}

/// The part of a benchmark's specification an original's call fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Clause {
    /// The method's postcondition (`Benchmark::postcondition` returned `Err`).
    #[default]
    Postcondition,
    /// The class invariant on the post-state (`Benchmark::invariant` returned `false`, or it
    /// or the abstraction panicked on the post-state).
    Invariant,
}

/// What a scope's inputs and the original's run on them revealed about the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// The call panicked.
    Panicked,
    /// The post-state violates the class invariant (or the invariant panicked on it). Sent
    /// as a [`Message::Violation`] with [`Clause::Invariant`] by this version; kept for
    /// the renderer's loop on a broken post-state.
    BrokenState,
    /// The call ran past the original's clock limit.
    Timeout,
    /// The call wrote to standard output, which the comparison of outputs does not see.
    Printed,
}

/// A message from the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Message {
    /// The reply to [`Request::Describe`].
    Described {
        /// Method names; a method's position is its number in every other message.
        methods: Vec<String>,
        /// Whether the benchmark defines a concrete structure (`Benchmark::STRUCTURE`), which
        /// [`Comparison::Structural`] needs.
        #[serde(default)]
        structure: bool,
    },
    /// A valid input, rendered (`generate --print`).
    Input {
        /// The method's name.
        method: String,
        /// The input, rendered by the benchmark.
        text: String,
    },
    /// One method's figures at one scope (generation or the original's run).
    Method {
        /// The method's name.
        method: String,
        /// The scope.
        scope: u32,
        /// Valid inputs (generation) or inputs run (the original).
        inputs: u64,
        /// Candidates Korat explored (generation only).
        #[serde(default)]
        candidates: u64,
        /// Wall-clock seconds.
        seconds: f64,
        /// log2 of the finitization's state space, to compare with `candidates`.
        #[serde(default)]
        state_space_log2: f64,
        /// Bytes of stored inputs (generation only).
        #[serde(default)]
        bytes: u64,
        /// Whether the figures come from a search with the method's dedicated generators
        /// (`generate --generators`; false for a method that has none).
        #[serde(default)]
        generators: bool,
    },
    /// Probes hit (specification during generation, code during the original's run).
    Coverage {
        /// Ids of the probes hit, in the metamutant's probe table.
        probes: Vec<u32>,
    },
    /// The original breaks its specification on an input: a postcondition violation, or a
    /// post-state the class invariant rejects (a counterexample; the run goes on, and the
    /// harness decides what it means: `check` counts it, `evaluate` cannot judge mutants
    /// against an original whose post-state is broken).
    Violation {
        /// The method's name.
        method: String,
        /// The input's number among the method's stored inputs.
        index: u64,
        /// The input (the pre-state), rendered.
        input: String,
        /// The original's output on it, rendered.
        output: String,
        /// What is wrong: the postcondition's message, or the invariant's reason.
        message: String,
        /// Which part of the specification fails.
        #[serde(default)]
        clause: Clause,
        /// The post-state, rendered (`None` when the renderer panicked on it).
        #[serde(default)]
        post_state: Option<String>,
    },
    /// The original misbehaved on an input: the run cannot judge mutants against it.
    Failure {
        /// The method's name.
        method: String,
        /// The input's number among the method's stored inputs.
        index: u64,
        /// The input, rendered.
        input: String,
        /// What the original did wrong.
        fault: Fault,
        /// The panic message, the broken invariant, or what was printed.
        detail: String,
    },
    /// A mutant's result at one scope: `kill` is `None` when it survived.
    Scope {
        /// The mutant.
        mutant: u32,
        /// The scope.
        scope: u32,
        /// The first killing input and why, or `None` if the mutant survived the scope.
        kill: Option<Kill>,
        /// Inputs the mutant ran on (up to and including the killing one).
        executions: u64,
        /// Inputs a run on every input would have run (up to the same kill) that this one
        /// skipped because they do not reach the mutant's point.
        #[serde(default)]
        skipped: u64,
        /// Seconds spent on the scope (kept out of results: they vary run to run).
        seconds: f64,
    },
    /// Part of a kill-matrix row: the outcome of every input `from..to` of `method` is
    /// known; those in `kills` killed the mutant, the others did not.
    MatrixChunk {
        /// The method, in the worker's numbering.
        method: usize,
        /// The first input covered.
        from: u64,
        /// One past the last input covered.
        to: u64,
        /// The killing inputs among them, run-length encoded, in order.
        kills: Vec<KillRun>,
        /// How many of them reach selection settled without a run (they do not reach the
        /// mutant's point).
        #[serde(default)]
        skipped: u64,
    },
    /// The watchdog stopped a call that ran past its clock limit; the process ends next.
    ClockTimeout {
        /// The input that ran too long.
        position: Position,
        /// The limit it ran past.
        limit: Duration,
    },
    /// The worker stopped calls over their tick budget deep in a recursion without unwinding
    /// them, and the heap they leaked has reached its allowance: it ends next, at a clean
    /// point (after a [`Message::Scope`], or a [`Message::MatrixChunk`] that ends at the
    /// input just run), and a fresh process takes the rest. Not a death: nothing is blamed.
    Recycle {
        /// Calls abandoned by this process.
        abandoned: u64,
        /// Bytes of heap grown since it started abandoning calls.
        leaked_bytes: u64,
    },
    /// The stored inputs need more space than the request allowed.
    DiskLimit {
        /// The scope being stored.
        scope: u32,
        /// The limit the request set.
        max_bytes: u64,
    },
    /// A panic outside any call being judged (the benchmark's decoder, its invariant during
    /// generation, the worker itself): the process ends next.
    Panic {
        /// The panic's message.
        message: String,
        /// `file:line:column` of the panic, when the hook saw one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        location: Option<String>,
    },
    /// The reply to [`Request::Render`].
    Rendered {
        /// The input, rendered by the benchmark.
        input: String,
    },
    /// The reply to [`Request::Replay`].
    Replay {
        /// Calls made in one run.
        executions: u64,
        /// The best run's wall-clock seconds.
        seconds: f64,
    },
    /// One line of [`Request::Outputs`].
    Output {
        /// The method's name.
        method: String,
        /// The input's number among the method's inputs at that scope.
        index: u64,
        /// The outcome, rendered: output and post-state, or the panic.
        output: String,
    },
    /// One length of [`Request::Sequences`]: the distinct states reached by sequences up to
    /// it (the initial one included), those new at it, and the calls made so far.
    SequenceLevel {
        length: u32,
        states: u64,
        new_states: u64,
        explored: u64,
        seconds: f64,
    },
    /// The end of [`Request::Sequences`]: of Korat's inputs at `scope`, the distinct receivers
    /// (by the same matching) and how many of them a sequence reached.
    SequenceCoverage {
        scope: u32,
        receivers: u64,
        covered: u64,
    },
    /// A state [`Request::Sequences`] reached first (with `calls`): state `id` is state
    /// `parent`'s receiver after `method(arg)` (state 0 is the initial one).
    SequenceState {
        id: u64,
        parent: u64,
        method: usize,
        arg: i64,
    },
    /// One call [`Request::Sequences`] made (with `calls`): `method(arg)` on state `state`'s
    /// receiver, and what the original did.
    SequenceCall {
        state: u64,
        method: usize,
        arg: i64,
        outcome: CallOutcome,
    },
    /// One method of [`Request::WhiteBox`].
    WhiteBox {
        method: String,
        /// The black-box check: the precondition's whole search, then every input run.
        black_box: SearchCost,
        /// The failure predicate's search, up to its first counterexample.
        white_box: SearchCost,
        /// The black-box check's first counterexample, as the number of candidates its search
        /// had explored when it generated that input (the same order as the white-box search).
        black_box_first: Option<u64>,
        counterexample: Option<FoundCounterexample>,
    },
    /// One input of [`Request::Export`]: how to build it, and what the original does on it.
    Exported {
        /// The method's name and number.
        method: String,
        method_index: usize,
        /// The input's number among the method's inputs at that scope.
        index: u64,
        /// The input, rendered (`Benchmark::render`).
        input: String,
        /// Rust code that builds it by calls (`Benchmark::construct`); `None` when the
        /// benchmark cannot write it so.
        construct: Option<String>,
        /// Korat's candidate vector of the input, from which the benchmark's decoder builds it
        /// directly where there is no construction by calls.
        #[serde(default)]
        candidate: Vec<u32>,
        /// Where the benchmark writes no calls itself: the shortest sequence of its methods'
        /// calls from `Benchmark::initial` that reaches the input, if one was found.
        #[serde(default)]
        sequence: Option<Sequence>,
        /// The original's return value and post-state abstraction, as `Debug` writes them.
        ret: String,
        abstraction: String,
    },
    /// The worker could not carry out the request (bad request, unreadable inputs).
    Error {
        /// What went wrong, for the harness to show.
        message: String,
    },
    /// The request completed.
    Done,
}

/// The mutant id that switches every mutant off: the metamutant runs as the original.
pub const NO_MUTANT: u32 = ferastrau_probes::ORIGINAL;

fn one() -> usize {
    1
}
