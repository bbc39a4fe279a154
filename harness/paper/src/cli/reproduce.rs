//! `reproduce`: every benchmark at the paper's scopes through `evaluate` itself (same options,
//! same journal, so `--resume` continues), the survivors of the largest scope again at
//! scope + 1, then the tables, the figure and REPRODUCTION.md (`ferastrau_paper`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Parser;

use super::ReproduceArgs;
use ferastrau::cli::{cmd_evaluate, Cli, Cmd};
use ferastrau_artifacts::EvaluationScope;
use ferastrau_console::exit_code::usage;
use ferastrau_harness::interrupt;
use ferastrau_harness::locate::{checkout_root, locate_declared};
use ferastrau_paper::code::{CodeFacts, Sample};
use ferastrau_paper::{next_scope, NextScope, Paper};

/// The sample size when neither `--max-mutants` nor the crate's manifest says otherwise.
const DEFAULT_MAX_MUTANTS: u32 = 300;

pub(super) fn cmd_reproduce(a: ReproduceArgs) -> Result<()> {
    let paper_dir = a.paper.clone().unwrap_or_else(|| a.out.join("paper"));
    let paper = Paper::read(&paper_dir)?;
    let names = if a.benchmarks.is_empty() {
        paper.order.clone()
    } else {
        a.benchmarks.clone()
    };
    for n in &names {
        if paper.largest_scope(n).is_none() {
            return Err(usage(format!(
                "benchmark `{n}` has no row in {}: its scopes are the paper's (the paper's benchmarks: {})",
                paper_dir.join("table4.csv").display(),
                paper.order.join(", ")
            )));
        }
    }
    if !a.render_only {
        let dir = match &a.benchmarks_dir {
            Some(dir) => dir.clone(),
            None => checkout_root()?.join("benchmarks"),
        };
        let started = Instant::now();
        for n in &names {
            let largest = paper.largest_scope(n).expect("checked above");
            run_benchmark(&a, &dir.join(n), n, largest)?;
        }
        println!(
            "reproduce: {} benchmark(s) evaluated in {:.0} s",
            names.len(),
            started.elapsed().as_secs_f64()
        );
    }
    for path in ferastrau_paper::render(&a.out, &paper, &rendered(&paper.order, &names, &a.out))? {
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// The benchmarks the tables cover, in the paper's order: those just run and every other one
/// with a report under `out`. A partial reproduction (`--benchmarks`) re-runs some benchmarks;
/// rendering only those would silently drop the others from REPRODUCTION.md.
fn rendered(order: &[String], run: &[String], out: &Path) -> Vec<String> {
    order
        .iter()
        .filter(|n| run.contains(n) || out.join(n).join("evaluation.json").is_file())
        .cloned()
        .collect()
}

/// A setting of the crate's `[package.metadata.ferastrau]` table that only `reproduce` reads.
fn reproduce_setting(dir: &Path, key: &str) -> Result<Option<toml::Value>> {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let table: toml::Table = text
        .parse()
        .with_context(|| format!("cannot parse {}", path.display()))?;
    Ok(table
        .get("package")
        .and_then(|p| p.get("metadata"))
        .and_then(|m| m.get("ferastrau"))
        .and_then(|f| f.get(key))
        .cloned())
}

/// Whether the crate asks to be reproduced with every mutant
/// (`[package.metadata.ferastrau] reproduce-all-mutants = true`).
fn all_mutants(dir: &Path) -> Result<bool> {
    Ok(reproduce_setting(dir, "reproduce-all-mutants")?
        .and_then(|v| v.as_bool())
        .unwrap_or(false))
}

/// The largest scope of the crate's Table 3 (`[package.metadata.ferastrau]
/// reproduce-kill-matrix-scope = S`), when its kill matrix cannot be computed at its largest
/// evaluated scope in reasonable time; `None`: that scope.
fn kill_matrix_scope(dir: &Path) -> Result<Option<u32>> {
    match reproduce_setting(dir, "reproduce-kill-matrix-scope")? {
        None => Ok(None),
        Some(v) => match v.as_integer().and_then(|i| u32::try_from(i).ok()) {
            Some(s) if s >= 2 => Ok(Some(s)),
            _ => Err(usage(format!(
                "{}: reproduce-kill-matrix-scope must be a scope of 2 or more, not {v}",
                dir.join("Cargo.toml").display()
            ))),
        },
    }
}

/// `evaluate`'s command line for one run of the reproduction: its own defaults for every
/// limit, so that a reproduced report is what `evaluate` would write.
fn evaluate_line(
    a: &ReproduceArgs,
    dir: &Path,
    scopes: String,
    out: &Path,
    sample: Option<Sample>,
    resume: bool,
    only: &[u32],
) -> Vec<String> {
    let mut argv: Vec<String> = ["ferastrau", "evaluate", "--benchmark-path"]
        .map(String::from)
        .into();
    argv.push(dir.display().to_string());
    argv.extend([
        "--scopes".into(),
        scopes,
        "--out".into(),
        out.display().to_string(),
        // The paper's kill rates count every mutant: Tables 1-4 stay comparable with the
        // committed ones and the paper's, whatever the compiler finds equivalent.
        "--count-equivalents".into(),
    ]);
    if let Some(j) = a.jobs {
        argv.extend(["--jobs".into(), j.to_string()]);
    }
    if let Some(s) = sample {
        argv.extend([
            "--max-mutants".into(),
            s.max_mutants.to_string(),
            "--seed".into(),
            s.seed.to_string(),
        ]);
    }
    if resume {
        argv.push("--resume".into());
    }
    if !only.is_empty() {
        let ids: Vec<String> = only.iter().map(u32::to_string).collect();
        argv.extend(["--only-mutants".into(), ids.join(",")]);
    }
    argv
}

fn evaluate(argv: Vec<String>) -> Result<PathBuf> {
    match Cli::try_parse_from(argv)?.command {
        Cmd::Evaluate(e) => cmd_evaluate(e)?.context("reproduce's evaluations take no --in-diff"),
        _ => unreachable!("the line names evaluate"),
    }
}

/// One benchmark: `evaluate` at scopes 1..largest into `<out>/<name>/`, its survivors at
/// largest + 1, and `code.json`.
fn run_benchmark(a: &ReproduceArgs, dir: &Path, name: &str, largest: u32) -> Result<()> {
    let bench = locate_declared(None, Some(dir))?;
    let out = a.out.join(name);
    let sample = match a.max_mutants {
        _ if a.all_mutants => None,
        Some(n) => Some(n),
        None if all_mutants(dir)? => None,
        None => Some(DEFAULT_MAX_MUTANTS),
    }
    .map(|max_mutants| Sample {
        max_mutants,
        seed: a.seed,
    });
    let resume = a.resume && out.join("journal.jsonl").exists();
    println!(
        "== {name}, scopes 1..{largest}{}",
        if resume { " (resumed)" } else { "" }
    );
    evaluate(evaluate_line(
        a,
        dir,
        format!("1..{largest}"),
        &out,
        sample,
        resume,
        &[],
    ))?;

    let (run_scopes, _) = ferastrau_paper::scopes(&out)?;
    let mutants_json = out.join("mutants.json");
    let survivors = next_scope::survivors(&mutants_json, largest)?;
    let next = largest + 1;
    let ids: Vec<u32> = survivors.iter().map(|s| s.id).collect();
    let marks: BTreeMap<u32, NextScope> = if ids.is_empty() {
        BTreeMap::new()
    } else {
        let executions = survivors.iter().map(|s| s.executions).sum();
        next_scope_marks(
            a,
            dir,
            &bench,
            name,
            next,
            sample,
            &run_scopes,
            &ids,
            executions,
        )?
    };
    if !marks.is_empty() {
        next_scope::mark(&mutants_json, &marks)?;
        // The evaluation drew the page before scope + 1 ran: drawn again, it shows each
        // survivor's mark, as `ferastrau report` draws it.
        let out_dir = ferastrau_harness::outdir::OutputDir::take(&out, &bench.name, &bench.dir)?;
        let sources = ferastrau_report::html::Sources::Disk(bench.dir.clone());
        ferastrau_report::html::write(&out_dir.path, &sources)?;
    }

    // The crate's subject (cached: the evaluation above built it), for what follows and for
    // `code.json`. The second reading of Table 4: the same mutants compared structurally, where
    // the benchmark defines a structure (the paper's Ferastrau compared with `equals`, or
    // through serialization; README, "Which outputs are compared").
    let subject = ferastrau_harness::subject::prepare(&bench)?;
    if subject.structure {
        structural_run(a, dir, name, largest, sample, &out)?;
    }

    if a.kill_matrix {
        table3(a, dir, &bench, name, largest, sample, &out)?;
    }

    // Table 2's `ded.` column: generation with the dedicated generators at its two scopes.
    if ferastrau_paper::dedicated::measure(
        &bench,
        largest.saturating_sub(1).max(1)..=largest,
        &out,
    )? {
        println!("== {name}: generation with dedicated generators measured");
    }

    let meta = subject.meta;
    let last = run_scopes.last();
    CodeFacts {
        functions: ferastrau_mutator::function_sizes(dir)?,
        mutants_all: meta.catalog.mutants.len(),
        mutants_viable: meta.catalog.viable().count(),
        mutants_evaluated: last.map_or(0, |s| s.mutants as usize),
        sample,
    }
    .write(&out)
}

/// The survivors' marks at scope `next` (the largest + 1): all of them run again there, in one
/// evaluation, when the estimate from the run's scopes fits `--next-scope-budget`; otherwise
/// each marked not run, and why.
#[allow(clippy::too_many_arguments)]
fn next_scope_marks(
    a: &ReproduceArgs,
    dir: &Path,
    bench: &ferastrau_harness::locate::BenchmarkCrate,
    name: &str,
    next: u32,
    sample: Option<Sample>,
    run_scopes: &[EvaluationScope],
    ids: &[u32],
    executions: u64,
) -> Result<BTreeMap<u32, NextScope>> {
    let jobs = a.jobs.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let budget = a.next_scope_budget.as_secs_f64();
    Ok(
        match next_scope::estimate_seconds(run_scopes, executions, jobs) {
            Some(est) if est <= budget => {
                println!(
                    "== {name}: {} survivor(s) at scope {next} (estimated {})",
                    ids.len(),
                    seconds(est)
                );
                let scratch =
                    ferastrau_harness::target_dir::scratch_dir(bench, "reproduce-next-scope");
                let line = evaluate_line(a, dir, next.to_string(), &scratch, sample, false, ids);
                // The budget holds even where the estimate is wrong (generating AVTree's scope-6
                // inputs, estimated at 12 minutes, had not finished after 18): the run stops
                // as Ctrl-C stops it, and the survivors are marked not run.
                let deadline = interrupt::Deadline::arm(a.next_scope_budget);
                let result = evaluate(line);
                let stopped = deadline.passed() && !interrupt::signalled();
                let took = deadline.elapsed().as_secs_f64();
                drop(deadline);
                match result {
                    Ok(_) => next_scope::outcomes(&scratch.join("mutants.json"), next)?,
                    Err(_) if stopped => {
                        let why = format!(
                            "stopped at the {} budget after {} (estimated {})",
                            seconds(budget),
                            seconds(took),
                            seconds(est)
                        );
                        println!("== {name}: scope {next} {why}");
                        next_scope::not_run(ids, next, &why)
                    }
                    Err(e)
                        if e.downcast_ref::<ferastrau_console::exit_code::Interrupted>()
                            .is_some() =>
                    {
                        return Err(e)
                    }
                    Err(e) => next_scope::not_run(ids, next, &format!("the run failed: {e:#}")),
                }
            }
            Some(est) => next_scope::not_run(
                ids,
                next,
                &format!(
                    "estimated {}, over the {} budget",
                    seconds(est),
                    seconds(budget)
                ),
            ),
            None => next_scope::not_run(ids, next, "no two scopes to estimate from"),
        },
    )
}

/// The second reading of Table 4: the same mutants, scopes 1..=`largest`, compared
/// structurally, in `STRUCTURAL_DIR` beside the run.
fn structural_run(
    a: &ReproduceArgs,
    dir: &Path,
    name: &str,
    largest: u32,
    sample: Option<Sample>,
    out: &Path,
) -> Result<()> {
    let structural = out.join(ferastrau_paper::STRUCTURAL_DIR);
    let resume = a.resume && structural.join("journal.jsonl").exists();
    println!("== {name}, scopes 1..{largest}, compared structurally");
    let mut line = evaluate_line(
        a,
        dir,
        format!("1..{largest}"),
        &structural,
        sample,
        resume,
        &[],
    );
    line.extend(["--compare".into(), "structural".into()]);
    evaluate(line)?;
    Ok(())
}

/// Table 3 of one benchmark: `evaluate --kill-matrix` at its two largest scopes (the same
/// sample as its report) in the benchmark's scratch directory, then `subsets` there over every
/// family and over the paper's three, whose figures and reduced suite are copied beside the
/// report (the paper's line is put beside them when REPRODUCTION.md is rendered). The matrices stay in the scratch
/// (hundreds of megabytes at the paper's scopes); `--resume` continues that run's journal.
fn table3(
    a: &ReproduceArgs,
    dir: &Path,
    bench: &ferastrau_harness::locate::BenchmarkCrate,
    name: &str,
    largest: u32,
    sample: Option<Sample>,
    out: &Path,
) -> Result<()> {
    let scratch = ferastrau_harness::target_dir::scratch_dir(bench, "reproduce-table3");
    let largest = kill_matrix_scope(dir)?.map_or(largest, |s| s.min(largest));
    let from = largest.saturating_sub(1).max(1);
    let resume = a.resume && scratch.join("journal.jsonl").exists();
    println!("== {name}: kill matrix at scopes {from}..{largest} (Table 3)");
    let mut line = evaluate_line(
        a,
        dir,
        format!("{from}..{largest}"),
        &scratch,
        sample,
        resume,
        &[],
    );
    line.push("--kill-matrix".into());
    evaluate(line)?;
    let opts = ferastrau_harness::subsets::Sampling {
        samples: a.random_samples,
        seed: a.seed,
    };
    ferastrau_harness::subsets::table::compute_and_write(
        &scratch,
        &opts,
        &[ferastrau_paper::table3::FAMILIES.to_vec()],
        true,
    )?;
    for f in TABLE3_FILES {
        std::fs::copy(scratch.join(f), out.join(f))
            .with_context(|| format!("cannot copy {f} into {}", out.display()))?;
    }
    Ok(())
}

/// What [`table3`] puts beside a benchmark's report.
const TABLE3_FILES: [&str; 4] = [
    "subsets.json",
    "subsets.csv",
    "reduced-suite.json",
    "reduced-suite.txt",
];

/// Seconds as `mutants.json`'s reasons write them: whole from 10 s (`1473 s`, as the
/// committed reports have them), two decimals from 0.1 s, milliseconds below, so that a small
/// budget or estimate does not read `0 s`.
fn seconds(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0} s")
    } else if x >= 0.1 {
        format!("{x:.2} s")
    } else {
        format!("{:.1} ms", x * 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::rendered;

    #[test]
    fn a_partial_reproduction_renders_every_benchmark_with_a_report() {
        let out = tempfile::tempdir().unwrap();
        for n in ["a", "c"] {
            std::fs::create_dir_all(out.path().join(n)).unwrap();
            std::fs::write(out.path().join(n).join("evaluation.json"), "{}").unwrap();
        }
        let order: Vec<String> = ["a", "b", "c", "d"].map(String::from).into();
        // `d` is run now (its report is not written yet), `a` and `c` were run before.
        assert_eq!(rendered(&order, &["d".into()], out.path()), ["a", "c", "d"]);
        assert_eq!(rendered(&order, &["b".into()], out.path()), ["a", "b", "c"]);
    }
}
