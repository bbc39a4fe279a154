//! The requests the harness sends a worker, and the options they carry: the mutants due, the
//! inputs a kill-matrix child runs, how outputs are compared, which engine made the inputs,
//! how `sequences` matches states.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::Limits;

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
        mutants: Vec<DueMutant>,
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

/// A mutant due to run, from its first scope to the request's last (a resumed or restarted
/// mutant starts where it stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DueMutant {
    /// The mutant's id in the catalog, the value of the metamutant's switch.
    pub mutant: u32,
    /// The first scope to run.
    pub from: u32,
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

fn one() -> usize {
    1
}
