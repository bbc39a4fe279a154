//! The command line: the commands (clap) and what each does. The argument structs live in
//! [`args`], their value parsers in [`parse`], `evaluate` (with its fingerprint) in
//! [`evaluate`], `merge` in [`merge`] and the smaller commands in [`commands`]; the examples
//! `--help` shows are in [`examples`].

pub mod args;
mod commands;
mod evaluate;
pub mod examples;
mod merge;
pub mod parse;
mod report;
mod reproduce;
mod subsets;
mod suite;

use anyhow::Result;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

pub use args::*;
pub use parse::*;

use ferastrau_harness::term::{ColorWhen, Verbosity};

/// Measures how good bounded-exhaustive test suites are: Korat generates every
/// non-isomorphic input up to a scope, mutants show what those inputs catch.
#[derive(Parser)]
#[command(
    name = "ferastrau",
    version,
    arg_required_else_help = true,
    after_help = "Each command's --help ends with examples. Exit status: 0 done, 1 error, 2 usage, \
                  3 gate failed, 4 broken run, 130 interrupted."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Cmd,
}

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

/// The command line's parser: the derived one with each subcommand's examples and `color`
/// (clap's own colouring of help and errors follows `--color`, which is read before parsing
/// because it decides how a parse error looks).
pub fn command(color: ColorWhen) -> clap::Command {
    let mut cmd = Cli::command().color(match color {
        ColorWhen::Auto => clap::ColorChoice::Auto,
        ColorWhen::Always => clap::ColorChoice::Always,
        ColorWhen::Never => clap::ColorChoice::Never,
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let help = examples::help(&name);
        cmd = cmd.mut_subcommand(name, |c| c.after_help(help));
    }
    cmd
}

/// Parses `args` (the program's name first) with [`command`].
pub fn parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let color = color_before_parsing(&args);
    // Parse errors are printed before `run` sets the choice: set it now.
    color.choice().write_global();
    let mut cmd = command(color);
    let matches = cmd.try_get_matches_from_mut(args)?;
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

/// `--color WHEN` or `--color=WHEN` among `args`, before they are parsed (the last wins;
/// anything unreadable is `auto`, and the parse itself then reports it).
fn color_before_parsing(args: &[std::ffi::OsString]) -> ColorWhen {
    use clap::ValueEnum;
    let mut when = ColorWhen::Auto;
    let mut words = args.iter().filter_map(|a| a.to_str());
    while let Some(w) = words.next() {
        if w == "--" {
            break;
        }
        let value = match w.strip_prefix("--color") {
            Some("") => words.next(),
            Some(v) => v.strip_prefix('='),
            None => None,
        };
        if let Some(v) = value.and_then(|v| ColorWhen::from_str(v, false).ok()) {
            when = v;
        }
    }
    when
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
    /// Write the inputs of some scopes as a Rust test file to keep: each input built by calls
    /// of the crate's API, the method called, the original's results asserted.
    ExportTests(ExportTestsArgs),
    /// Build inputs as the JPF paper does: every sequence of the methods' calls up to a length,
    /// states matched by isomorphism or abstraction, against Korat's inputs at the scope.
    Sequences(SequencesArgs),
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
    /// Write report.html and mutation-testing-report.json again from an output directory's
    /// evaluation.json and mutants.json (and the benchmark's source), running nothing.
    Report(ReportArgs),
    /// Print a shell's completion script for ferastrau on stdout.
    Completions(CompletionsArgs),
    /// From `evaluate --kill-matrix` runs: random subsets of the largest scope against the
    /// scope below (the paper's Table 3) and a greedy test-suite reduction, held out.
    Subsets(SubsetsArgs),
    /// Run every benchmark at the paper's scopes and write Tables 1, 2 and 4, Figure 9 and
    /// REPRODUCTION.md beside the paper's figures (resumable; `--render-only` re-renders).
    Reproduce(ReproduceArgs),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    ferastrau_harness::term::set(cli.global.verbosity(), cli.global.color);
    ferastrau_harness::worker::announce_lock_waits();
    let output = match &cli.command {
        Cmd::Merge(a) => Some(a.output),
        Cmd::Overhead(a) => Some(a.output),
        Cmd::Generate(a) => Some(a.output),
        Cmd::Mutants(a) => Some(a.output),
        Cmd::Check(a) => Some(a.output),
        Cmd::Sequences(a) => Some(a.output),
        Cmd::Evaluate(a) => Some(a.output),
        _ => None,
    };
    if output.is_some_and(|o| o.github()) {
        return Err(ferastrau_harness::exit_code::usage(
            "--format github is the gate's (workflow annotations of its regressions)",
        ));
    }
    match cli.command {
        Cmd::Init(a) => commands::cmd_init(a),
        Cmd::Generate(a) => commands::cmd_generate(a),
        Cmd::Mutants(a) => commands::cmd_mutants(a),
        Cmd::Check(a) => commands::cmd_check(a),
        Cmd::ExportTests(a) => commands::cmd_export_tests(a),
        Cmd::Sequences(a) => commands::cmd_sequences(a),
        Cmd::Evaluate(a) => evaluate::cmd_evaluate(a).map(|_| ()),
        Cmd::Overhead(a) => commands::cmd_overhead(a),
        Cmd::Gate(a) => commands::cmd_gate(a),
        Cmd::Merge(a) => merge::cmd_merge(a),
        Cmd::Report(a) => report::cmd_report(a),
        Cmd::Completions(a) => {
            let mut cmd = command(ColorWhen::Never);
            clap_complete::generate(a.shell, &mut cmd, "ferastrau", &mut std::io::stdout());
            Ok(())
        }
        Cmd::Subsets(a) => subsets::cmd_subsets(a),
        Cmd::Reproduce(a) => reproduce::cmd_reproduce(a),
    }
}
