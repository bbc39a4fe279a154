//! The command line: the commands (clap) and what each does. The argument structs live in
//! [`args`] (with what `evaluate`'s become for the harness), their value parsers in [`parse`],
//! `evaluate` in [`evaluate`] (its printing in [`evaluate_output`]), `evaluate --suite` in
//! [`suite`], `merge` in [`merge`], `check` in [`check`], `gate` in [`gate`] and the smaller
//! commands in [`commands`]; what they print on stdout in [`show`], the pages the runs draw in
//! [`page`]; the examples `--help` shows are in [`examples`]; what `ferastrau` shares with
//! `ferastrau-paper` (the parser's setup, the main routine, the examples' check) in
//! [`program`]. No file here imports one that imports it back
//! (`layers::no_command_of_the_cli_imports_one_that_imports_it_back`).

pub mod args;
mod check;
mod commands;
mod evaluate;
mod evaluate_output;
pub mod examples;
mod gate;
mod merge;
mod page;
pub mod parse;
mod program;
mod rewrite_reports;
mod show;
mod subsets;
mod suite;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

pub use args::*;
pub use evaluate::cmd_evaluate;
pub use parse::*;
pub use program::{command, main, mistakes, parse_from, Program};
pub use subsets::cmd_subsets;

use ferastrau_console::term::{ColorWhen, Verbosity};

/// Measures how good bounded-exhaustive test suites are: Korat generates every
/// non-isomorphic input up to a scope, mutants show what those inputs catch.
#[derive(Parser)]
#[command(
    name = "ferastrau",
    version,
    arg_required_else_help = true,
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Cmd,
}

/// What `--help` says after the commands, in every program built on them.
pub const AFTER_HELP: &str = "Each command's --help ends with examples. Exit status: 0 done, \
                              1 error, 2 usage, 3 gate failed, 4 broken run, 130 interrupted.";

/// The options every command takes (before or after its name).
#[derive(Args, Debug)]
pub struct Global {
    /// Colour: on a terminal unless NO_COLOR is set (auto), always, or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
    /// Print only the result (table or JSON) and errors: no progress, notes or warnings.
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print more: per-scope timings, build directories, worker command lines.
    #[arg(long, short, global = true)]
    pub verbose: bool,
}

impl Global {
    pub fn verbosity(&self) -> Verbosity {
        match (self.quiet, self.verbose) {
            (true, _) => Verbosity::Quiet,
            (_, true) => Verbosity::Verbose,
            _ => Verbosity::Normal,
        }
    }
}

impl Program for Cli {
    fn examples(name: &str) -> &'static [examples::Example] {
        examples::of(name)
    }

    fn global(&self) -> &Global {
        &self.global
    }

    fn run_command(self) -> Result<()> {
        dispatch::<Cli>(self.command)
    }
}

#[derive(Subcommand)]
pub enum Cmd {
    // The everyday commands first (`--help` lists them in this order): write a crate,
    // evaluate it, gate it, check it, look at its inputs and reports; then the rest.
    /// Write a new benchmark crate skeleton (a working example to change into yours).
    Init(InitArgs),
    /// Run the original and every mutant on every input; kill rates and coverage per scope.
    Evaluate(EvaluateArgs),
    /// Compare a run with a committed baseline; fail (exit 3) on a weaker kill rate, a mutant
    /// that used to die and now survives, or lost coverage.
    Gate(GateArgs),
    /// Check the original against its postconditions on every input (no mutants).
    Check(CheckArgs),
    /// Generate every valid input per scope with Korat; print inputs, candidates and seconds.
    Generate(GenerateArgs),
    /// Write report.html, mutation-testing-report.json and survivors.txt again from an output
    /// directory's evaluation.json and mutants.json (and the benchmark's source), running
    /// nothing.
    Report(ReportArgs),
    /// List the benchmark's mutants (compile-pruned), or show them as diffs.
    Mutants(MutantsArgs),
    /// Combine the directories of `evaluate --shard k/n` runs into the reports one unsharded
    /// run would have written (refusing shards of different runs, or a share twice or missing).
    Merge(MergeArgs),
    /// Write the inputs of some scopes as a Rust test file to keep: each input built by calls
    /// of the crate's API, the method called, the original's results asserted.
    ExportTests(ExportTestsArgs),
    /// Build inputs as the JPF paper does: every sequence of the methods' calls up to a length,
    /// states matched by isomorphism or abstraction, against Korat's inputs at the scope.
    Sequences(SequencesArgs),
    /// From `evaluate --kill-matrix` runs: random subsets of the largest scope against the
    /// scope below, and a greedy test-suite reduction, held out.
    Subsets(SubsetsArgs),
    /// Measure what the metamutant's guards cost: the untouched crate versus the metamutant
    /// with no mutant active, on the same inputs (best of several runs).
    Overhead(OverheadArgs),
    /// Print a shell's completion script for this program on stdout.
    Completions(CompletionsArgs),
}

/// Runs one of `ferastrau`'s commands in the program `P` (whose completions `completions`
/// prints: `ferastrau-paper`'s name its commands too).
pub fn dispatch<P: Program>(cmd: Cmd) -> Result<()> {
    match cmd {
        Cmd::Init(a) => commands::cmd_init(a),
        Cmd::Generate(a) => commands::cmd_generate(a),
        Cmd::Mutants(a) => commands::cmd_mutants(a),
        Cmd::Check(a) => check::cmd_check(a),
        Cmd::ExportTests(a) => commands::cmd_export_tests(a),
        Cmd::Sequences(a) => commands::cmd_sequences(a),
        Cmd::Evaluate(a) => evaluate::cmd_evaluate(a).map(|_| ()),
        Cmd::Overhead(a) => commands::cmd_overhead(a),
        Cmd::Gate(a) => gate::cmd_gate(a),
        Cmd::Merge(a) => merge::cmd_merge(a),
        Cmd::Report(a) => rewrite_reports::cmd_report(a),
        Cmd::Completions(a) => {
            let mut parser = command::<P>(ColorWhen::Never);
            let name = parser.get_name().to_string();
            clap_complete::generate(a.shell, &mut parser, name, &mut std::io::stdout());
            Ok(())
        }
        Cmd::Subsets(a) => cmd_subsets(a, &ferastrau_harness::subsets::table::NoColumns),
    }
}
