//! The paper's command line: every command of `ferastrau` (its library's [`Cmd`], flattened:
//! one definition each, run by its own dispatch) beside the two that need this crate,
//! `table3` (`subsets` with the paper's Table 3 beside ours) and `reproduce`. They live here,
//! not in `ferastrau`, because `ferastrau` is published and this crate is not: a published
//! package cannot depend on it.

mod reproduce;

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

use ferastrau::cli::examples::{self, Example};
use ferastrau::cli::{dispatch, parse_positive_duration, Cmd, Global, Program, SubsetsArgs};

/// Ferastrau with the paper's commands: every command of `ferastrau`, and the reproduction of
/// Marinov et al., *An Evaluation of Exhaustive Testing for Data Structures* (MIT, 2003).
#[derive(Parser)]
#[command(
    name = "ferastrau-paper",
    version,
    arg_required_else_help = true,
    after_help = ferastrau::cli::AFTER_HELP
)]
pub struct PaperCli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: PaperCmd,
}

#[derive(Subcommand)]
enum PaperCmd {
    // Boxed: the largest of ferastrau's commands' arguments would make every variant its size.
    #[command(flatten)]
    Ferastrau(Box<Cmd>),
    /// `subsets` with the paper's Table 3 beside ours: random subsets of the largest scope
    /// against the scope below and the held-out reduction, from `evaluate --kill-matrix` runs.
    Table3(Table3Args),
    /// Run every benchmark at the paper's scopes and write Tables 1, 2 and 4, Figure 9 and
    /// REPRODUCTION.md beside the paper's figures (resumable; `--render-only` re-renders).
    Reproduce(ReproduceArgs),
}

impl Program for PaperCli {
    fn examples(name: &str) -> &'static [Example] {
        match name {
            "table3" => TABLE3_EXAMPLES,
            "reproduce" => REPRODUCE_EXAMPLES,
            _ => examples::of(name),
        }
    }

    fn global(&self) -> &Global {
        &self.global
    }

    fn run_command(self) -> Result<()> {
        match self.command {
            PaperCmd::Ferastrau(cmd) => dispatch::<PaperCli>(*cmd),
            PaperCmd::Table3(mut a) => {
                let lines = ferastrau_paper::paper::table3_by_crate(&a.paper)?;
                if a.subsets.families.is_empty() {
                    a.subsets.families = ferastrau_paper::table3::FAMILIES.to_vec();
                }
                ferastrau::cli::cmd_subsets(a.subsets, &ferastrau_paper::table3::Beside(&lines))
            }
            PaperCmd::Reproduce(a) => reproduce::cmd_reproduce(a),
        }
    }
}

/// The examples `table3 --help` shows.
const TABLE3_EXAMPLES: &[Example] = &[
    Example {
        what: "Table 3 of a kill-matrix run, the paper's line beside ours",
        line: "ferastrau-paper table3 target/table3/search_tree",
    },
    Example {
        what: "several runs in one Markdown table, the paper's Table 3 from elsewhere",
        line: "ferastrau-paper table3 run-a run-b --paper my-paper/table3.csv --markdown table3.md",
    },
];

/// The examples `reproduce --help` shows.
const REPRODUCE_EXAMPLES: &[Example] = &[
    Example {
        what: "the paper's evaluation, every benchmark, into reports/ (resumable)",
        line: "ferastrau-paper reproduce --resume",
    },
    Example {
        what: "the tables, figure and REPRODUCTION.md again from the reports on disk",
        line: "ferastrau-paper reproduce --render-only",
    },
    Example {
        what: "two benchmarks, every viable mutant, into another directory",
        line: "ferastrau-paper reproduce --benchmarks search_tree,tree_map --all-mutants --out repro --paper reports/paper",
    },
];

#[derive(Args)]
pub struct Table3Args {
    #[command(flatten)]
    subsets: SubsetsArgs,
    /// The paper's Table 3 as CSV (benchmark,scope,random_kill_rate,vs_exhaustive_scope_minus_1,
    /// vs_exhaustive_scope), shown beside ours.
    #[arg(long, value_name = "FILE", default_value = "reports/paper/table3.csv")]
    paper: PathBuf,
}

#[derive(Args)]
pub struct ReproduceArgs {
    /// Where everything goes: `<out>/<benchmark>/` per benchmark (as `evaluate --out`), the
    /// tables, the figure and REPRODUCTION.md.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub out: PathBuf,
    /// The paper's tables, `table1.csv` and `table4.csv` (default: `<out>/paper/`).
    #[arg(long, value_name = "DIR")]
    pub paper: Option<PathBuf>,
    /// The benchmarks to evaluate, comma-separated crate names (default: every one in the
    /// paper's Table 1). The tables and REPRODUCTION.md cover these and every other benchmark
    /// that already has a report under `--out`.
    #[arg(long, value_name = "B,...", value_delimiter = ',')]
    pub benchmarks: Vec<String>,
    /// Where the benchmark crates are (default: this repository's `benchmarks/`).
    #[arg(long, value_name = "DIR")]
    pub benchmarks_dir: Option<PathBuf>,
    /// Parallel mutant processes (default: every core; at most 256).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: Option<u16>,
    /// Continue: a benchmark whose directory holds a journal resumes from it.
    #[arg(long)]
    pub resume: bool,
    /// Keep at most N mutants per benchmark (default 300; a crate whose manifest says
    /// `[package.metadata.ferastrau] reproduce-all-mutants = true` gets all unless given).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_mutants: Option<u32>,
    /// Every viable mutant of every benchmark, no sample (the paper used 205–297 per
    /// benchmark, which the default sample of 300 stays comparable with).
    #[arg(long, conflicts_with = "max_mutants")]
    pub all_mutants: bool,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Evaluate nothing: render the tables, figure and REPRODUCTION.md from the reports under
    /// `--out`.
    #[arg(long)]
    pub render_only: bool,
    /// Time the survivors of a benchmark's largest scope s may take at s + 1: they are not run
    /// when the estimate (from the growth of the last two scopes) is over it, and their run is
    /// stopped when it reaches it; either way they are marked "s+1 not run" with why.
    #[arg(long, default_value = "3m", value_parser = parse_positive_duration, value_name = "DURATION")]
    pub next_scope_budget: Duration,
    /// Table 3 too: each benchmark again at its two largest scopes with `evaluate
    /// --kill-matrix` (same sample), then `subsets` (random subsets beside the paper's
    /// `table3.csv`, the reduced suite), into `<out>/<benchmark>/subsets.json` and
    /// `reduced-suite.{json,txt}`. One more pass over every input per mutant: hours for all ten.
    #[arg(long)]
    pub kill_matrix: bool,
    /// With --kill-matrix: random subsets drawn per comparison (seeded by --seed).
    #[arg(long, value_name = "K", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub random_samples: u64,
}

#[cfg(test)]
mod tests {
    use super::PaperCli;
    use ferastrau::cli::mistakes;

    /// Every example parses, as the command it is listed under (`ferastrau`'s own commands'
    /// examples too, with this program's parser).
    #[test]
    fn every_example_parses_as_its_own_command() {
        assert_eq!(mistakes::<PaperCli>(), Vec::<String>::new());
    }

    /// Every command of `ferastrau` is one of this program's, beside the paper's.
    #[test]
    fn every_command_of_ferastrau_is_here() {
        use clap::CommandFactory as _;
        let names = |c: clap::Command| -> Vec<String> {
            c.get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect()
        };
        // clap's own checks of the combined parser (a flattened command named twice, say),
        // which it makes only in debug builds otherwise.
        PaperCli::command().debug_assert();
        let ours = names(ferastrau::cli::Cli::command());
        let here = names(PaperCli::command());
        assert!(ours.len() >= 13, "{ours:?}");
        for name in ours.iter().chain(&["table3".into(), "reproduce".into()]) {
            assert!(here.contains(name), "{name} missing from {here:?}");
        }
    }
}
