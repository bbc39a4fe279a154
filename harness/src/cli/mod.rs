//! The command line: the commands (clap) and what each does. The argument structs live in
//! [`args`], their value parsers in [`parse`], `evaluate` (with its fingerprint) in
//! [`evaluate`], `merge` in [`merge`] and the smaller commands in [`commands`].

pub mod args;
mod commands;
mod evaluate;
mod merge;
pub mod parse;
mod reproduce;

use std::io::IsTerminal;

use anyhow::Result;
use clap::{Parser, Subcommand};

pub use args::*;
pub use parse::*;

/// Measures how good bounded-exhaustive test suites are: Korat generates every
/// non-isomorphic input up to a scope, mutants show what those inputs catch.
#[derive(Parser)]
#[command(name = "ferastrau", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Cmd,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Write a new benchmark crate skeleton (a working example to change into yours).
    Init(InitArgs),
    /// Generate every valid input per scope with Korat; print inputs, candidates and seconds.
    Generate(GenerateArgs),
    /// List the benchmark's mutants (compile-pruned), or show them as diffs.
    Mutants(MutantsArgs),
    /// Check the original against its postconditions on every input (no mutants).
    Check(CheckArgs),
    /// Run the original and every mutant on every input; kill rates and coverage per scope.
    Evaluate(EvaluateArgs),
    /// Measure what the metamutant's guards cost: the untouched crate versus the metamutant
    /// with no mutant active, on the same inputs (best of several runs).
    Overhead(OverheadArgs),
    /// Compare a run with a committed baseline; fail (exit 3) on a weaker kill rate, a mutant
    /// that used to die and now survives, or lost coverage.
    Gate(GateArgs),
    /// Combine the directories of `evaluate --shard k/n` runs into the reports one unsharded
    /// run would have written (refusing shards of different runs, or a share twice or missing).
    Merge(MergeArgs),
    /// Run every benchmark at the paper's scopes and write Tables 1, 2 and 4, Figure 9 and
    /// REPRODUCTION.md beside the paper's figures (resumable; `--render-only` re-renders).
    Reproduce(ReproduceArgs),
}

fn stderr_is_tty() -> bool {
    std::io::stderr().is_terminal()
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Cmd::Init(a) => commands::cmd_init(a),
        Cmd::Generate(a) => commands::cmd_generate(a),
        Cmd::Mutants(a) => commands::cmd_mutants(a),
        Cmd::Check(a) => commands::cmd_check(a),
        Cmd::Evaluate(a) => evaluate::cmd_evaluate(a).map(|_| ()),
        Cmd::Overhead(a) => commands::cmd_overhead(a),
        Cmd::Gate(a) => commands::cmd_gate(a),
        Cmd::Merge(a) => merge::cmd_merge(a),
        Cmd::Reproduce(a) => reproduce::cmd_reproduce(a),
    }
}
