//! The `ferastrau` command line.

use std::io::IsTerminal;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

use ferastrau::generate;
use ferastrau::locate::{locate, BenchmarkCrate};
use ferastrau::scopes::parse_scopes;
use ferastrau::worker::{work_dir, Worker};

/// Measures how good bounded-exhaustive test suites are: Korat generates every
/// non-isomorphic input up to a scope, mutants show what those inputs catch.
#[derive(Parser)]
#[command(name = "ferastrau", version)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Generate every valid input per scope with Korat; print inputs, candidates and seconds.
    Generate(GenerateArgs),
}

/// Which benchmark crate to work on.
#[derive(Args)]
struct Target {
    /// A built-in benchmark (a directory under benchmarks/).
    #[arg(long, default_value = "search_tree", conflicts_with = "benchmark_path")]
    benchmark: String,
    /// A benchmark crate anywhere on disk (your own).
    #[arg(long, value_name = "DIR")]
    benchmark_path: Option<PathBuf>,
}

impl Target {
    fn locate(&self) -> Result<BenchmarkCrate> {
        locate(Some(&self.benchmark), self.benchmark_path.as_deref())
    }
}

#[derive(Args)]
struct GenerateArgs {
    #[command(flatten)]
    target: Target,
    /// Scopes, both ends included: `3` or `1..7`.
    #[arg(long, value_parser = parse_scopes, default_value = "1..5")]
    scopes: RangeInclusive<u32>,
    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
    /// Show the first N inputs of each method at each scope.
    #[arg(long, value_name = "N", default_value_t = 0)]
    print: usize,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line: clap's first, without the usage block.
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Cmd::Generate(a) => {
            let bench = a.target.locate()?;
            let worker = Worker::build_for(&bench, &work_dir(&bench, "original"))?;
            let tty = std::io::stderr().is_terminal();
            let stats = generate::generate(&worker, a.scopes, a.print, |s| {
                if tty && !a.json {
                    eprint!("\rscope {} done ({} inputs)   ", s.scope, s.inputs);
                }
                if !a.json && a.print > 0 {
                    print!("{}", generate::render_examples(s));
                }
            })?;
            if tty && !a.json {
                eprint!("\r{:40}\r", "");
            }
            if a.json {
                let doc = serde_json::json!({ "benchmark": bench.name, "scopes": stats });
                println!("{}", serde_json::to_string_pretty(&doc)?);
            } else {
                print!("{}", generate::render_table(&bench, &stats));
            }
            Ok(())
        }
    }
}
