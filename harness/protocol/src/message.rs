//! The messages a worker sends back, and the values they carry: kills and where they are
//! among the stored inputs, the original's faults and violations, what `check --white-box`,
//! `sequences` and `export-tests` found.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Limit, Reason};

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
