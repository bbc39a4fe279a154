//! The examples `--help` shows under each command. Each is a real command line: a test parses
//! every one with the command line's own parser, so that an example cannot outlive an option.
//! They follow one user's path: `init` a crate in `my_set`, then work on it with
//! `--benchmark-path`.

/// One example: what it does, and the command line (a shell redirection may follow it).
pub struct Example {
    pub what: &'static str,
    pub line: &'static str,
}

const fn ex(what: &'static str, line: &'static str) -> Example {
    Example { what, line }
}

/// The examples of the subcommand `name` (none for an unknown name).
pub fn of(name: &str) -> &'static [Example] {
    match name {
        "init" => INIT,
        "generate" => GENERATE,
        "export-tests" => EXPORT_TESTS,
        "sequences" => SEQUENCES,
        "mutants" => MUTANTS,
        "check" => CHECK,
        "evaluate" => EVALUATE,
        "overhead" => OVERHEAD,
        "gate" => GATE,
        "merge" => MERGE,
        "subsets" => SUBSETS,
        "report" => REPORT,
        "completions" => COMPLETIONS,
        _ => &[],
    }
}

// The examples of each command, one table per command, in the order of `of`.

const INIT: &[Example] = &[
    ex(
        "a new benchmark crate, depending on this checkout's SDK",
        "ferastrau init my_set --name my_set",
    ),
    ex(
        "depending on the SDK of a git repository, pinned",
        "ferastrau init my_set --name my_set --git https://example.org/ferastrau.git --rev v0.1.0",
    ),
];

const GENERATE: &[Example] = &[
    ex(
        "inputs, candidates and seconds per scope and method",
        "ferastrau generate --benchmark-path my_set --scopes 1..5",
    ),
    ex(
        "and the first 3 inputs of each method at scope 2",
        "ferastrau generate --benchmark-path my_set --scopes 2 --print 3",
    ),
    ex(
        "the same figures as one JSON document",
        "ferastrau generate --benchmark-path my_set --format json",
    ),
    ex(
        "the structure search with and without the dedicated generators",
        "ferastrau generate --benchmark-path my_set --scopes 6 --structure --generators",
    ),
];

const EXPORT_TESTS: &[Example] = &[
    ex(
        "scope 3's inputs as tests to keep, built by calls",
        "ferastrau export-tests --benchmark search_tree --scopes 3 --out tests/exhaustive.rs",
    ),
    ex(
        "scopes 1 to 3 together (then: evaluate --suite tests/exhaustive.rs)",
        "ferastrau export-tests --benchmark search_tree --scopes 1..3 --out tests/exhaustive.rs",
    ),
];

const SEQUENCES: &[Example] = &[
                    ex(
                        "every sequence of add and remove up to 4 calls, against Korat's scope 4",
                        "ferastrau sequences --benchmark search_tree --length 4",
                    ),
                    ex(
                        "states with the same contents merged, as one JSON document",
                        "ferastrau sequences --benchmark search_tree --length 4 --matching abstraction --format json",
                    ),
                ];

const MUTANTS: &[Example] = &[
    ex(
        "every mutant, one line each",
        "ferastrau mutants --benchmark-path my_set",
    ),
    ex(
        "mutant 12 as a diff of the crate's source",
        "ferastrau mutants --benchmark-path my_set --diff 12",
    ),
    ex(
        "a sample of 50, with the counts per family, as JSON",
        "ferastrau mutants --benchmark-path my_set --max-mutants 50 --seed 1 --format json",
    ),
];

const CHECK: &[Example] = &[
    ex(
        "the original against its postconditions up to scope 6",
        "ferastrau check --benchmark-path my_set --scopes 1..6",
    ),
    ex(
        "with a tighter clock limit per input",
        "ferastrau check --benchmark-path my_set --scopes 1..6 --original-timeout 2s",
    ),
];

const EVALUATE: &[Example] = &[
            ex(
                "kill rates and coverage up to scope 5 (reports in ferastrau.out/my_set/)",
                "ferastrau evaluate --benchmark-path my_set --scopes 1..5",
            ),
            ex(
                "continue an interrupted run, on 4 cores",
                "ferastrau evaluate --benchmark-path my_set --scopes 1..5 --jobs 4 --resume",
            ),
            ex(
                "a quick look: 100 mutants, sampled by family",
                "ferastrau evaluate --benchmark-path my_set --scopes 1..4 --max-mutants 100",
            ),
            ex(
                "what a pull request can affect: the mutants of the functions it changes (all of them if it changes the specification)",
                "ferastrau evaluate --benchmark-path my_set --in-diff pr.diff --out pr-run",
            ),
            ex(
                "share 2 of 8 of a CI matrix (then `ferastrau merge`)",
                "ferastrau evaluate --benchmark-path my_set --shard 2/8 --out shard-2",
            ),
            ex(
                "the per-scope figures as JSON, without progress",
                "ferastrau --quiet evaluate --benchmark-path my_set --format json",
            ),
            ex(
                "every mutant on every input (same results, slower: no reach selection)",
                "ferastrau evaluate --benchmark-path my_set --scopes 1..3 --no-reach",
            ),
            ex(
                "only two mutants, e.g. a run's survivors, one scope further",
                "ferastrau evaluate --benchmark-path my_set --scopes 6 --only-mutants 12,40 --out survivors",
            ),
            ex(
                "which inputs kill which mutants, every input of every scope (for `ferastrau subsets`)",
                "ferastrau evaluate --benchmark-path my_set --scopes 4..5 --kill-matrix --out matrix-run",
            ),
        ];

const OVERHEAD: &[Example] = &[ex(
    "what the metamutant's guards cost at scope 5, best of 3",
    "ferastrau overhead --benchmark-path my_set --scope 5 --repeat 3",
)];

const GATE: &[Example] = &[
            ex(
                "make the current run the baseline (commit the file)",
                "ferastrau gate --baseline ferastrau-baseline.json --benchmark-path my_set --scopes 1..4 --update-baseline",
            ),
            ex(
                "evaluate and fail (status 3) on anything weaker than the baseline",
                "ferastrau gate --baseline ferastrau-baseline.json --benchmark-path my_set --scopes 1..4",
            ),
            ex(
                "gate the reports of a run that already ran, with a floor and a tolerance",
                "ferastrau gate --baseline ferastrau-baseline.json --current ferastrau.out/my_set --min-kill-rate 80 --tolerance 0.5",
            ),
        ];

const MERGE: &[Example] = &[ex(
    "the reports of one run from its three shards",
    "ferastrau merge shard-1 shard-2 shard-3 --out merged",
)];

const SUBSETS: &[Example] = &[
    ex(
        "random subsets of scope 5 against scope 4, and a reduced suite",
        "ferastrau subsets matrix-run",
    ),
    ex(
        "more draws, another seed, one Markdown table for several runs",
        "ferastrau subsets run-a run-b --random-samples 5000 --seed 7 --markdown subsets.md",
    ),
];

const REPORT: &[Example] = &[
    ex(
        "report.html and the schema JSON again, from an evaluation's reports",
        "ferastrau report ferastrau.out/search_tree",
    ),
    ex(
        "for a crate outside the repository",
        "ferastrau report ferastrau.out/my_set --benchmark-path my_set",
    ),
];

const COMPLETIONS: &[Example] = &[
    ex(
        "bash completions for the current user",
        "ferastrau completions bash > ~/.local/share/bash-completion/completions/ferastrau",
    ),
    ex(
        "zsh completions, into a directory on $fpath",
        "ferastrau completions zsh > ~/.zfunc/_ferastrau",
    ),
];

/// `examples` as `--help` shows them.
pub fn help(examples: &[Example]) -> String {
    // Styled as clap styles its own headings (the escapes go where clap's colouring goes).
    let heading = anstyle::Style::new().bold().underline();
    let mut t = format!("{heading}Examples:{heading:#}\n");
    for e in examples {
        t.push_str(&format!("  # {}\n  {}\n", e.what, e.line));
    }
    t
}

/// The words of an example's command line, without its redirection.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().take_while(|w| *w != ">").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::program::{command, mistakes, parse_from};
    use crate::cli::Cli;
    use ferastrau_console::term::ColorWhen;

    /// Every example parses, as the command it is listed under.
    #[test]
    fn every_example_parses_as_its_own_command() {
        assert_eq!(mistakes::<Cli>(), Vec::<String>::new());
    }

    /// What `--help` shows of a command holds each of its examples.
    #[test]
    fn help_shows_the_examples() {
        let mut cmd = command::<Cli>(ColorWhen::Never);
        let sub = cmd.find_subcommand_mut("evaluate").unwrap();
        let help = sub.render_long_help().to_string();
        for e in of("evaluate") {
            assert!(help.contains(e.line), "{help}");
        }
    }

    /// A broken example would be caught: the parser does refuse a wrong line.
    #[test]
    fn a_wrong_example_is_refused() {
        assert!(parse_from::<Cli>(["ferastrau", "evaluate", "--scope", "1..5"]).is_err());
        assert_eq!(
            words("ferastrau completions zsh > f"),
            ["ferastrau", "completions", "zsh"]
        );
    }
}
