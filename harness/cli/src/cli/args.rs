//! The arguments of each command (clap derive structs).

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};

use super::parse::{
    parse_comparison, parse_engine, parse_factor, parse_family, parse_matching, parse_memory_limit,
    parse_percent, parse_positive_duration, parse_scopes, parse_size,
};
use ferastrau_harness::locate::{BenchmarkCrate, Named};

/// `init --style`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InitStyle {
    /// A finitization, a view and a decoder (Korat).
    Korat,
    /// A generator program (UDITA's style).
    Generator,
}

/// What a command prints on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people.
    Table,
    /// One JSON document, and nothing else on stdout (notes go to stderr).
    Json,
    /// `gate` only: the table, then GitHub Actions workflow commands (`::error file=…,line=…::`)
    /// that show the verdict, the regressions and the new survivors in a pull request (as many
    /// as GitHub shows, the worst first; all of them in the job's step summary).
    Github,
    /// `gate` only: the table, and a GitLab Code Quality report of every regression and new
    /// survivor (`--code-quality FILE`), which GitLab shows in the merge request.
    Gitlab,
}

/// `--format` (and its older spelling `--json`), on every command that prints a table.
#[derive(Args, Clone, Copy, Debug)]
pub struct Output {
    /// What to print on stdout: the table, or one JSON document with the same figures.
    #[arg(long, value_enum, default_value_t = Format::Table, value_name = "FORMAT")]
    pub format: Format,
    /// The same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

impl Output {
    /// Whether stdout gets one JSON document instead of the table.
    pub fn json(self) -> bool {
        self.json || self.format == Format::Json
    }

    /// Whether GitHub workflow commands follow the table (`gate --format github`).
    pub fn github(self) -> bool {
        !self.json && self.format == Format::Github
    }

    /// Whether a GitLab Code Quality report is written besides the table (`gate --format
    /// gitlab`).
    pub fn gitlab(self) -> bool {
        !self.json && self.format == Format::Gitlab
    }

    /// Whether the output is for a CI service (`github` or `gitlab`), which only `gate` has.
    pub fn ci(self) -> bool {
        self.github() || self.gitlab()
    }
}

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Args)]
pub struct InitArgs {
    /// The new crate's directory (created; refused if it exists and is not empty).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The package name (ASCII letters, digits, `_`, `-`; starting with a letter); by
    /// default the directory's name, as `cargo new` does.
    #[arg(long)]
    pub name: Option<String>,
    /// How the crate describes its inputs: `korat` (a finitization, the invariant over a
    /// view of its candidates, a decoder) or `generator` (a program that builds the real
    /// input and filters it with the invariant over the real type).
    #[arg(long, value_enum, default_value = "korat")]
    pub style: InitStyle,
    /// Depend on the SDK at this path (a Ferastrau checkout's `harness/sdk`) instead of this
    /// binary's version from crates.io.
    #[arg(long, value_name = "DIR", conflicts_with = "git")]
    pub sdk_path: Option<PathBuf>,
    /// Depend on the SDK of this git repository instead (cargo finds the `ferastrau-sdk`
    /// package in it).
    #[arg(long, value_name = "URL")]
    pub git: Option<String>,
    /// With --git: the commit, tag or branch name to pin.
    #[arg(long, value_name = "REV", requires = "git")]
    pub rev: Option<String>,
}

#[derive(Args)]
pub struct GateArgs {
    /// The baseline file (JSON, one section per benchmark; written by --update-baseline).
    #[arg(long, value_name = "FILE")]
    pub baseline: PathBuf,
    /// Gate the reports of an `evaluate` that already ran (its --out directory) instead of
    /// running one.
    #[arg(long, value_name = "DIR")]
    pub current: Option<PathBuf>,
    /// Fail when the kill rate at the largest gated scope (or --min-kill-rate-scope) is under
    /// this percentage.
    #[arg(long, value_name = "PCT", value_parser = parse_percent)]
    pub min_kill_rate: Option<f64>,
    /// The scope --min-kill-rate applies to (default: the largest the baseline gates).
    #[arg(long, value_name = "S", requires = "min_kill_rate")]
    pub min_kill_rate_scope: Option<u32>,
    /// Points the kill rate may fall under the baseline's before the gate fails.
    #[arg(long, value_name = "PCT", default_value_t = 0.0, value_parser = parse_percent)]
    pub tolerance: f64,
    /// Fail when a mutant the baseline does not know (new code) survives.
    #[arg(long)]
    pub fail_on_new_survivors: bool,
    /// Pass however many baseline mutants find no counterpart in the run (their function
    /// deleted, renamed beyond recognition, or dropped from `mutate`): by default more than
    /// 10% of the baseline's mutants unmatched fails the gate.
    #[arg(long)]
    pub accept_unmatched: bool,
    /// Make this run the benchmark's baseline (prints what changed; refused for a broken run).
    #[arg(long)]
    pub update_baseline: bool,
    /// With --format gitlab: where the Code Quality report goes (default:
    /// gl-code-quality-report.json in the current directory, the repository's root in a job).
    #[arg(long, value_name = "FILE")]
    pub code_quality: Option<PathBuf>,
    /// The evaluation to run when --current is not given.
    #[command(flatten)]
    pub run: EvaluateArgs,
}

#[derive(Args)]
pub struct MergeArgs {
    /// The output directories of the shards (`evaluate --shard k/n --out DIR`), all n of them.
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<PathBuf>,
    /// Where the merged reports go (locked while merging, like evaluate's).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args)]
pub struct OverheadArgs {
    #[command(flatten)]
    pub target: Target,
    /// The scope whose inputs both builds run on.
    #[arg(long, default_value_t = 6)]
    pub scope: u32,
    /// Runs per build; the best counts.
    #[arg(long, default_value_t = 5)]
    pub repeat: u32,
    #[command(flatten)]
    pub output: Output,
}

/// Which benchmark crate to work on.
#[derive(Args, Clone)]
pub struct Target {
    /// One of the paper's benchmarks (a directory under a Ferastrau checkout's benchmarks/).
    /// Without it or --benchmark-path: the crate in the current directory when its Cargo.toml
    /// has a `[package.metadata.ferastrau]` table, else, in a checkout, `search_tree`.
    #[arg(long, value_name = "NAME", conflicts_with = "benchmark_path")]
    pub benchmark: Option<String>,
    /// A benchmark crate anywhere on disk (your own).
    #[arg(long, value_name = "DIR")]
    pub benchmark_path: Option<PathBuf>,
    /// What makes the inputs, for a crate that declares both (`[package.metadata.ferastrau]
    /// engines`): Korat's search over the finitization, or the crate's generator program. The
    /// default is the first the crate declares.
    #[arg(long, value_name = "ENGINE", value_parser = parse_engine)]
    pub engine: Option<ferastrau_protocol::Engine>,
}

impl Target {
    /// The crate these flags name, for the harness.
    pub(crate) fn named(&self) -> Named {
        Named {
            benchmark: self.benchmark.clone(),
            path: self.benchmark_path.clone(),
            engine: self.engine,
        }
    }

    pub(crate) fn locate(&self) -> Result<BenchmarkCrate> {
        self.named().locate()
    }
}

#[derive(Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(long, value_parser = parse_scopes, default_value = "1..5")]
    pub scopes: RangeInclusive<u32>,
    #[command(flatten)]
    pub output: Output,
    /// Show the first N inputs of each method at each scope.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub print: usize,
    /// Report the structure-only search of each method (structures found, candidates
    /// explored, seconds) without enumerating the arguments its precondition never reads:
    /// the figure that compares with Korat 1.0 and the paper's "gen" column.
    #[arg(long, conflicts_with = "print")]
    pub structure: bool,
    /// Search again with the benchmark's dedicated generators (its invariant's variant whose
    /// reads rule out the values that cannot satisfy it) and report their candidates, seconds
    /// and the candidates saved beside the plain search's; the inputs must be the same. The
    /// paper's "ded." column. Methods without generators show `—`.
    #[arg(long)]
    pub generators: bool,
    /// Threads of each search (default: every core); the inputs and counts do not depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// A deterministic sample of the mutants.
#[derive(Args, Clone)]
pub struct Sampling {
    /// Keep at most N mutants: a family-stratified sample (the paper used 200–300).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_mutants: Option<u32>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Sampling {
    /// The sample these flags ask for; `None` without `--max-mutants`.
    pub(crate) fn mark(&self) -> Option<ferastrau_artifacts::SampleMark> {
        self.max_mutants
            .map(|max_mutants| ferastrau_artifacts::SampleMark {
                max_mutants,
                seed: self.seed,
            })
    }
}

#[derive(Args)]
pub struct MutantsArgs {
    #[command(flatten)]
    pub target: Target,
    #[command(flatten)]
    pub output: Output,
    /// Show a mutant (by id), or `all`, as a unified diff of the benchmark's source.
    #[arg(long, value_name = "ID|all")]
    pub diff: Option<String>,
    #[command(flatten)]
    pub sampling: Sampling,
}

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(long, value_parser = parse_scopes, default_value = "1..5")]
    pub scopes: RangeInclusive<u32>,
    /// Search the failure predicate instead (the precondition, then the method, then its
    /// checks) up to each method's first counterexample per scope, beside the black-box
    /// check's candidates and time (the paper's white-box testing).
    #[arg(long)]
    pub white_box: bool,
    #[command(flatten)]
    pub original: OriginalLimits,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args)]
pub struct ExportTestsArgs {
    #[command(flatten)]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..3`.
    #[arg(long, value_parser = parse_scopes, required_unless_present = "reduced", conflicts_with = "reduced")]
    pub scopes: Option<RangeInclusive<u32>>,
    /// Only the inputs of a reduced suite: the `reduced-suite.json` that `ferastrau subsets`
    /// wrote for a run of this crate with `--kill-matrix` (its scope is the file's).
    #[arg(long, value_name = "FILE")]
    pub reduced: Option<PathBuf>,
    /// The test file to write (e.g. `tests/exhaustive.rs` of the crate).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

#[derive(Args)]
pub struct SequencesArgs {
    #[command(flatten)]
    pub target: Target,
    /// The longest sequence of calls.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub length: u32,
    /// Arguments 1..=SCOPE, and Korat's inputs at SCOPE to compare with (default: the length).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub scope: Option<u32>,
    /// How two states are told apart: `isomorphism` (their structures) or `abstraction`.
    #[arg(long, default_value = "isomorphism", value_parser = parse_matching)]
    pub matching: ferastrau_protocol::Matching,
    /// Also write every call as a test (its state built by the calls that first reached it)
    /// to FILE, which `evaluate --suite` measures against the mutants.
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
    #[command(flatten)]
    pub output: Output,
}

/// The limits generation and the original run under (the mutants' own, and a clock limit).
#[derive(Args, Clone)]
pub struct OriginalLimits {
    /// Address-space limit of every worker process: generation, the original, each mutant
    /// (e.g. `1G`, `512M`; at least `4M`, under which no worker starts).
    #[arg(long, default_value = "1G", value_parser = parse_memory_limit, value_name = "SIZE")]
    pub memory_limit: u64,
    /// Clock limit of the original on one input (decoding, the call, the checks); an original
    /// that runs longer stops the run, naming the input.
    #[arg(long, default_value = "10s", value_parser = parse_positive_duration, value_name = "DURATION")]
    pub original_timeout: Duration,
    /// Scratch space the stored inputs of all scopes may take; a scope estimated to need more
    /// is refused before it is generated.
    #[arg(long, default_value = "20G", value_parser = parse_size, value_name = "SIZE")]
    pub max_scratch: u64,
}

#[derive(Args, Clone)]
pub struct EvaluateArgs {
    #[command(flatten, next_help_heading = "What to run")]
    pub target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(help_heading = "What to run", long, value_parser = parse_scopes, default_value = "1..5")]
    pub scopes: RangeInclusive<u32>,
    /// What a mutant's outputs are compared with the original's by: `abstract` (the return
    /// value and the post-state's abstraction, as Java's `equals`) or `structural` (also the
    /// post-state's concrete structure, as Java serialization; the benchmark must define
    /// `Benchmark::structure`).
    #[arg(help_heading = "What to run", long, default_value = "abstract", value_name = "HOW", value_parser = parse_comparison)]
    pub compare: ferastrau_protocol::Comparison,
    /// Measure this Rust test file (its `#[test]` functions, written against the crate's
    /// public API) instead of Korat's inputs: a mutant dies when a test fails, panics or the
    /// suite crashes or runs out of time or memory; `suite.json` in the output directory, each
    /// verdict in `suite-journal.jsonl` as it comes (`--resume` continues it).
    #[arg(help_heading = "What to run", long, value_name = "FILE", conflicts_with_all = ["scopes", "kill_matrix", "shard", "in_diff", "compare"])]
    pub suite: Option<PathBuf>,
    /// Then run the survivors of the largest scope s again at s + 1 and say, for each, whether
    /// it survives that scope too or how it dies there (the evidence between a missing input
    /// and an equivalent mutant); `mutants.json` and the page record it. Without it, the run
    /// offers this when the estimate is under a minute.
    #[arg(help_heading = "What to run", long, conflicts_with_all = ["suite", "shard"])]
    pub next_scope: bool,
    /// Continue an interrupted run from its journal (refused if anything it depends on
    /// changed: the benchmark's source, the tool, the mutants, the limits or the scopes).
    #[arg(help_heading = "What to run", long)]
    pub resume: bool,
    /// Where reports go (default: ferastrau.out/<benchmark>/ in the current directory).
    #[arg(help_heading = "Output", long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    // Under `gate`, the gate's own output (the evaluation it runs prints nothing then).
    #[command(flatten, next_help_heading = "Output")]
    pub output: Output,
    /// After the first-kill run, run every mutant on every input of every scope (no
    /// first-kill stop) and write which inputs kill which mutants to DIR/kill-matrix/
    /// (for `ferastrau subsets`).
    #[arg(help_heading = "Output", long)]
    pub kill_matrix: bool,
    /// With --kill-matrix: process deaths (crashes, memory, clock timeouts) after which a
    /// mutant's row stops; its remaining inputs are marked unknown, never guessed.
    #[arg(help_heading = "Output", long, value_name = "N", default_value_t = ferastrau_harness::evaluate::KILL_MATRIX_MAX_DEATHS, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub kill_matrix_max_deaths: u32,
    /// Run the mutants the compiler finds equivalent or duplicate and count them in the kill
    /// rate, as before the comparison (the paper's tables); by default they leave it unrun.
    #[arg(help_heading = "Output", long)]
    pub count_equivalents: bool,
    /// Parallel mutant processes (default: every core; at most 256).
    #[arg(help_heading = "Limits", long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Wall-clock budget of the evaluation (e.g. `90s`, `10m`, `1h`; building the crate is not
    /// counted): before each scope, the run stops when the scope's estimate (from the growth
    /// of the two before it) would not fit in what is left, or once the budget is spent. The
    /// scopes done stay in the journal; `--resume` with a larger budget continues. Each scope's
    /// mutants then run before the next scope is generated.
    #[arg(help_heading = "Limits", long, value_parser = parse_positive_duration, value_name = "DURATION", conflicts_with = "suite")]
    pub max_time: Option<Duration>,
    /// Deterministic time limit per input: a mutant may run this many times the original's
    /// ticks (loop iterations and calls of the mutated code)...
    #[arg(help_heading = "Limits", long, default_value_t = 10, value_name = "K", value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub tick_factor: u64,
    /// ...plus this many.
    #[arg(help_heading = "Limits", long, default_value_t = 10_000, value_name = "T", value_parser = clap::value_parser!(u64).range(0..=1_000_000_000_000))]
    pub tick_floor: u64,
    /// Wall-clock limit per input, the paper's `10 × T_original + 1 s`: the factor...
    #[arg(help_heading = "Limits", long, default_value_t = 10.0, value_name = "F", value_parser = parse_factor)]
    pub timeout_factor: f64,
    /// ...and the floor (e.g. `1s`, `250ms`; not zero: a limit of zero would depend on when
    /// the watchdog looks).
    #[arg(help_heading = "Limits", long, default_value = "1s", value_parser = parse_positive_duration, value_name = "DURATION")]
    pub timeout_floor: Duration,
    #[command(flatten, next_help_heading = "Limits")]
    pub original: OriginalLimits,
    /// Mutants one child process runs in turn (default: enough for eight processes per job,
    /// at most 32). A process that dies in a mutant after the first is replaced and that
    /// mutant run again first in a fresh one, so deaths are judged alone; 1 isolates every
    /// mutant, for a crate whose code under test keeps state in statics. The results are the
    /// same for any number.
    #[arg(help_heading = "Limits", long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub mutants_per_process: Option<u16>,
    /// Evaluate what this unified diff (e.g. `git diff main`) can affect: every mutant of the
    /// mutated functions it changes (the reports say so, and `gate` compares mutants only),
    /// every mutant when it changes the specification side (a whole run), nothing when it
    /// changes nothing the verdicts depend on ("nothing to gate").
    #[arg(help_heading = "Selection", long, value_name = "FILE")]
    pub in_diff: Option<PathBuf>,
    /// Evaluate only share k of n of the mutants (1 ≤ k ≤ n), e.g. one job of a CI matrix or
    /// a Slurm array; `ferastrau merge` combines the n shard directories into the run's
    /// reports. Every shard regenerates the inputs itself.
    #[arg(help_heading = "Selection", long, value_name = "K/N", value_parser = ferastrau_artifacts::Shard::parse)]
    pub shard: Option<ferastrau_artifacts::Shard>,
    #[command(flatten, next_help_heading = "Selection")]
    pub sampling: Sampling,
    /// Evaluate only these mutants (ids, comma-separated; after sampling), e.g. the survivors
    /// of a run, again at a larger scope. An id the run would not evaluate is refused.
    #[arg(
        help_heading = "Selection",
        long,
        value_name = "ID,...",
        value_delimiter = ','
    )]
    pub only_mutants: Vec<u32>,
    /// Run every mutant on every input. By default a mutant runs only on the inputs whose
    /// original run reaches its mutation point (on the others it cannot differ), and one that
    /// no input reaches runs no process; the results are the same, only slower without it.
    #[arg(help_heading = "Selection", long)]
    pub no_reach: bool,
}

#[derive(Args)]
pub struct ReportArgs {
    /// An output directory of `evaluate` or `merge` (holding evaluation.json and mutants.json).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The built-in benchmark whose source the page shows (default: the one that wrote DIR,
    /// else the built-in benchmark the reports name).
    #[arg(long, conflicts_with = "benchmark_path")]
    pub benchmark: Option<String>,
    /// The benchmark crate whose source the page shows, anywhere on disk.
    #[arg(long, value_name = "DIR")]
    pub benchmark_path: Option<PathBuf>,
}

#[derive(Args)]
pub struct SubsetsArgs {
    /// Output directories of runs made with `evaluate --kill-matrix` over scopes 1..s (or
    /// s−1..s); each gets subsets.{json,csv,md} and reduced-suite.{json,txt}.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Beside the row over every family, one over these families only (comma-separated:
    /// operator, variable, call, constant).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_family)]
    pub families: Vec<ferastrau_artifacts::Family>,
    /// Random subsets drawn per comparison.
    #[arg(long, value_name = "K", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub random_samples: u64,
    /// Seed of the draws and of the held-out split of the mutants (same seed, same output).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write the tables of all DIRs together as one Markdown file.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Do not render the reduced suite (which rebuilds the run's crate and regenerates scope s).
    #[arg(long)]
    pub no_render: bool,
}

impl EvaluateArgs {
    /// The command line as the harness takes it.
    pub(super) fn options(&self) -> ferastrau_harness::evaluate::Options {
        ferastrau_harness::evaluate::Options {
            target: self.target.named(),
            scopes: self.scopes.clone(),
            comparison: self.compare,
            next_scope: self.next_scope,
            resume: self.resume,
            out: self.out.clone(),
            kill_matrix: self.kill_matrix.then_some(self.kill_matrix_max_deaths),
            count_equivalents: self.count_equivalents,
            jobs: self.jobs.map(usize::from),
            max_time: self.max_time,
            limits: ferastrau_protocol::Limits {
                tick_factor: self.tick_factor,
                tick_floor: self.tick_floor,
                timeout_factor: self.timeout_factor,
                timeout_floor: self.timeout_floor,
            },
            memory_limit: self.original.memory_limit,
            original_timeout: self.original.original_timeout,
            max_scratch: self.original.max_scratch,
            per_process: self.mutants_per_process.map(usize::from),
            in_diff: self.in_diff.clone(),
            shard: self.shard,
            sample: self.sampling.mark(),
            only_mutants: self.only_mutants.clone(),
            reach: !self.no_reach,
        }
    }
}
