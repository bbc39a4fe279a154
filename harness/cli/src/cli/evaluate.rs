//! `evaluate`: the experiment, run in its output directory (its reports cleared first, and
//! again when it fails). What it is of besides results (its fingerprint, its reports' facts)
//! is in [`super::evaluate_facts`]; what it prints in [`super::evaluate_output`].

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::args::*;
use super::commands::sampled;
use super::evaluate_facts::{facts, fingerprint};
use super::evaluate_output::{announce, runner_figures, Shown};
use super::next_scope;
use ferastrau_console::exit_code::{broken, usage};
use ferastrau_harness::evaluate::{self, report};
use ferastrau_harness::in_diff::Selection;
use ferastrau_harness::locate::BenchmarkCrate;
use ferastrau_harness::outdir::OutputDir;
use ferastrau_harness::subject;

/// What an evaluation prints on stdout.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Show {
    /// The table and the summary lines.
    Table,
    /// One JSON document: `evaluation.json`'s figures, the reports' directory and the runner's.
    Json,
    /// The closing line only (`N mutants evaluated in T s; reports in DIR`): the caller
    /// (`gate`) prints its own report of what changed.
    Summary,
    /// Nothing: the caller (`gate --format json`) prints its own document.
    Nothing,
}

/// `ferastrau evaluate`: runs an evaluation and prints it as `--format` says; the reports'
/// directory, or `None` when `--in-diff` left nothing to evaluate. Public for
/// `ferastrau-paper reproduce`, whose runs are `evaluate`'s own command lines.
pub fn cmd_evaluate(a: EvaluateArgs) -> Result<Option<PathBuf>> {
    let show = if a.output.json() {
        Show::Json
    } else {
        Show::Table
    };
    if let Some(suite) = a.suite.clone() {
        return super::suite::run_suite(&a, &suite, show).map(Some);
    }
    run_evaluation(a, show)
}

/// Where runs' reports go without `--out`: `ferastrau.out/<benchmark>/`.
const DEFAULT_OUT: &str = "ferastrau.out";

/// Where a run's reports go: `--out`, else `ferastrau.out/<benchmark>/`.
pub(super) fn out_dir(a: &EvaluateArgs, bench: &BenchmarkCrate) -> PathBuf {
    a.out
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_OUT).join(&bench.name))
}

/// How a run that got to its end ended.
struct Ran {
    /// Its reports' directory; `None` when `--in-diff` left nothing to evaluate.
    reports: Option<PathBuf>,
    /// Why the run is broken: its reports are written, marked so.
    broken: Option<String>,
}

/// Runs an evaluation; returns the directory its reports went to, or `None` when `--in-diff`
/// leaves nothing to evaluate (said on stdout, no reports written).
///
/// A run that fails or is refused, at whatever stage, leaves no reports in its directory
/// (a broken run's are written, marked broken): a gate given the directory must not pass an
/// earlier run's as this one's.
pub(super) fn run_evaluation(a: EvaluateArgs, show: Show) -> Result<Option<PathBuf>> {
    // The whole command's time, builds and generation included, for the closing line.
    let started = std::time::Instant::now();
    let bench = match a.target.locate() {
        Ok(bench) => bench,
        Err(e) => {
            // A source that does not parse, a manifest that cannot be read: refused before
            // the run could take its directory.
            forget_reports(&a);
            return Err(e);
        }
    };
    let out_dir = out_dir(&a, &bench);
    // Taken before anything is built or written: a second run on the same directory fails at
    // once instead of mixing its results into this one's.
    let out = OutputDir::take(&out_dir, &bench.name, &bench.dir)?;
    // The reports of an earlier run go before anything else can fail or the run is killed, so
    // that none can be read as this run's. With --resume too: a refused one keeps its journal,
    // and a --resume of the run that journal records writes them again.
    clear_reports(&out.path)?;
    match run(&a, &bench, &out, show, started) {
        Ok(Ran {
            reports,
            broken: None,
        }) => Ok(reports),
        Ok(Ran {
            broken: Some(why), ..
        }) => Err(broken(format!(
            "the run is broken, its kill rate means nothing: {why} (reports in {}, marked \"broken\")",
            out_dir.display()
        ))),
        Err(e) => {
            // Failed after some reports were written (the page, the kill matrices, a shard's
            // record): a part of a run is no run.
            if let Err(c) = clear_reports(&out.path) {
                ferastrau_console::warning!("{c:#}");
            }
            Err(e)
        }
    }
}

/// For a run refused before it could take its output directory: removes the reports of the
/// crate the command line names from `--out` or, without it, from every directory under
/// `ferastrau.out/` that the crate's runs own (by the owner stamp, so that another crate's
/// reports, or a directory a run holds, are left alone).
fn forget_reports(a: &EvaluateArgs) {
    let Some(krate) = a.target.named_dir() else {
        return;
    };
    let dirs: Vec<PathBuf> = match &a.out {
        Some(dir) => vec![dir.clone()],
        None => std::fs::read_dir(DEFAULT_OUT)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect(),
    };
    for dir in dirs {
        if ferastrau_harness::outdir::recorded_owner(&dir).as_ref() != Some(&krate) {
            continue;
        }
        if let Ok(out) = OutputDir::lock(&dir) {
            if let Err(e) = clear_reports(&out.path) {
                ferastrau_console::warning!("{e:#}");
            }
        }
    }
}

/// The run itself, in `out`, its earlier reports removed.
fn run(
    a: &EvaluateArgs,
    bench: &BenchmarkCrate,
    out: &OutputDir,
    show: Show,
    started: std::time::Instant,
) -> Result<Ran> {
    let out_dir = &out.path;
    let diff = read_diff(a, bench)?;
    if !announce(diff.as_ref(), bench, show)? {
        return Ok(Ran {
            reports: None,
            broken: None,
        });
    }
    let subject = subject::prepare(bench)?;
    if a.compare == ferastrau_protocol::Comparison::Structural && !subject.structure {
        return Err(usage(format!(
            "--compare structural: {} defines no structure to compare (set `const STRUCTURE: bool = true` and write `fn structure` in its `Benchmark` impl)",
            bench.name
        )));
    }
    // The source as the mutator read it to build the metamutant: what the page shows,
    // whatever happens to the crate during the run (an edit while it was mutating included).
    let sources = ferastrau_report::html::Sources::of_metamutant(&bench.dir, &subject.meta)?;
    // A stale entry (matching no mutant) is the declaration's fault: usage, not a failure.
    let skipped = ferastrau_mutator::skipped(&subject.meta.catalog.mutants, &bench.skips)
        .map_err(|e| usage(format!("{e:#}")))?;
    // The viable mutants of the whole crate, for an in-diff run's title.
    let catalog_size = subject
        .meta
        .catalog
        .viable()
        .filter(|m| !skipped.contains_key(&m.id))
        .count();
    let catalog = selected(a, &subject.meta.catalog, diff.as_ref())?;
    // What the run evaluates: the viable mutants, sampled, on the diff, not skipped.
    let viable: Vec<u32> = catalog
        .viable()
        .map(|m| m.id)
        .filter(|m| !skipped.contains_key(m))
        .collect();
    // A shard evaluates its share of what the whole run evaluates, sampled the same way.
    let share = a.shard.map_or_else(|| viable.clone(), |s| s.share(&viable));
    let mut opts = options(a);
    opts.not_run = not_run(a, &subject.meta, &catalog, &share);
    let limits = opts.limits;
    if a.kill_matrix && (a.shard.is_some() || a.in_diff.is_some()) {
        return Err(usage(
            "--kill-matrix needs the whole run: it cannot be combined with --shard or --in-diff",
        ));
    }
    // What is not run is part of what the results depend on: a resumed run under the other
    // counting rule would read a skipped mutant's record as its result. Of the whole run,
    // not of this shard's share, so that the shards of one run have one fingerprint (merge
    // refuses shards whose fingerprints differ).
    let mut left_out = skipped.clone();
    for id in not_run(a, &subject.meta, &catalog, &viable) {
        left_out.insert(
            id,
            "not run: equivalent or duplicate by the compiler".into(),
        );
    }
    let fingerprint = fingerprint(bench, &subject, &catalog, &viable, &left_out, a, limits)?;
    if a.resume {
        evaluate::journal::Journal::check_resumable(&out_dir.join("journal.jsonl"), &fingerprint)?;
    }
    let ev = evaluate::evaluate(
        bench,
        out,
        &fingerprint,
        &subject.worker,
        &subject.methods,
        &share,
        &opts,
    )?;
    if ev.interrupted {
        return Err(anyhow::Error::new(
            ferastrau_console::exit_code::Interrupted(format!(
                "interrupted; the results so far are in {}; continue with --resume",
                out_dir.join("journal.jsonl").display()
            )),
        ));
    }
    // A diff that selects every mutant makes a whole run, comparable with a baseline's.
    let partial_diff = matches!(diff, Some(Selection::Functions(_)));
    let facts = facts(bench, &subject, &catalog, a, partial_diff, &skipped)?;
    let broken_why = match a.shard {
        // A shard's share is not the run: `merge` judges the whole.
        Some(_) => None,
        None => verdict(ev.broken.clone(), partial_diff, &viable),
    };
    let extra = report::Extra {
        broken: broken_why.clone(),
        shard: a.shard,
    };
    let rows = report::publish(out_dir, &facts, &ev.scopes, &ev.results, &share, &extra)?;
    // The page and the schema JSON, from the reports just written and the crate's source.
    let page = ferastrau_report::html::write(out_dir, &sources)?;
    let changed = sources.changed_since(&bench.dir);
    if !changed.is_empty() {
        ferastrau_console::warning!(
            "the crate changed during the run ({}): the results and the page are of its source as the run read it to mutate; run again to measure the change",
            changed.join(", ")
        );
    }
    write_matrices(out_dir, &ev.matrices)?;
    let last_scope = *a.scopes.end();
    let next = match (&broken_why, a.shard) {
        (None, None) => {
            next_scope::after(a, bench, out_dir, &ev.scopes, opts.jobs, started.elapsed())?
        }
        _ => next_scope::Step::Nothing,
    };
    // The marks of --next-scope are in mutants.json now: the page and survivors.txt again.
    let page = match next {
        next_scope::Step::Ran { .. } => ferastrau_report::html::write(out_dir, &sources)?,
        _ => page,
    };
    let survivors = ferastrau_report::html::survivors::at_scope(&page, last_scope);
    if let Some(shard) = a.shard {
        ferastrau_harness::shard::write(
            out_dir,
            ferastrau_harness::shard::record(
                shard,
                &fingerprint,
                &viable,
                facts,
                ev.scopes.clone(),
                &ev.results,
            ),
        )?;
    }
    let title = title(
        a,
        bench,
        share.len(),
        viable.len(),
        catalog_size,
        partial_diff,
    );
    for s in ev.scopes.iter().filter(|s| s.violation_count > 0) {
        ferastrau_console::warning!(
            "the original violates its postcondition on {} input(s) at scope {} (see `ferastrau check`)",
            s.violation_count,
            s.scope
        );
    }
    let runner = runner_figures(&ev, opts.jobs);
    let seconds = started.elapsed().as_secs_f64();
    let shown = Shown {
        out_dir,
        title: &title,
        rows: &rows,
        evaluated: share.len(),
        next: &next,
        runner,
        seconds,
        survivors,
        last_scope,
        broken: broken_why.is_some(),
    };
    shown.print(show)?;
    Ok(Ran {
        reports: Some(out_dir.clone()),
        broken: broken_why,
    })
}

/// The table's title: the crate's name, and for a shard or an `--in-diff` run of some
/// functions, how many of how many mutants it evaluated.
fn title(
    a: &EvaluateArgs,
    bench: &BenchmarkCrate,
    share: usize,
    viable: usize,
    catalog_size: usize,
    partial_diff: bool,
) -> String {
    match a.shard {
        Some(s) => format!(
            "{} (shard {s}: {} of {} mutants)",
            bench.name, share, viable
        ),
        None if partial_diff => format!(
            "{} (--in-diff: {} of {} mutants; kill rates of these only)",
            bench.name, share, catalog_size
        ),
        None => bench.name.clone(),
    }
}

/// What `--in-diff` selects, read and checked before anything is built. A diff whose files
/// cannot be placed (none is the crate's, and some exists neither in the crate nor in a
/// directory above it) is refused: a diff of another checkout would evaluate nothing and pass
/// any gate.
fn read_diff(a: &EvaluateArgs, bench: &BenchmarkCrate) -> Result<Option<Selection>> {
    let Some(diff) = &a.in_diff else {
        return Ok(None);
    };
    let changed = ferastrau_harness::in_diff::ChangedLines::read(diff)?;
    let rel_files = ferastrau_harness::fingerprint::crate_files(&bench.dir)?;
    let files: Vec<PathBuf> = rel_files.iter().map(|rel| bench.dir.join(rel)).collect();
    if !changed.is_empty() && !changed.names_any(&files) && !changed.placeable(&bench.dir) {
        return Err(usage(format!(
            "--in-diff {}: the diff names no file of the crate at {} (it names {}): a diff of another crate, or paths this tool cannot place",
            diff.display(),
            bench.dir.display(),
            changed.names().join(", ")
        )));
    }
    let functions = ferastrau_mutator::mutated_functions(&bench.dir)?;
    Ok(Some(changed.select(&bench.dir, &rel_files, &functions)))
}

/// The catalog the run evaluates: sampled, then narrowed to the diff's lines and to
/// `--only-mutants` (each of which must be one the run would evaluate).
pub(super) fn selected(
    a: &EvaluateArgs,
    catalog: &ferastrau_mutator::Catalog,
    diff: Option<&Selection>,
) -> Result<ferastrau_mutator::Catalog> {
    let mut catalog = sampled(catalog.clone(), &a.sampling);
    if let Some(diff) = diff {
        catalog.mutants.retain(|m| diff.keeps(m));
    }
    if !a.only_mutants.is_empty() {
        if let Some(id) = a
            .only_mutants
            .iter()
            .find(|id| !catalog.viable().any(|m| m.id == **id))
        {
            return Err(usage(format!(
                "--only-mutants: mutant {id} is not one this run would evaluate (unknown, not viable or not sampled)"
            )));
        }
        catalog.mutants.retain(|m| a.only_mutants.contains(&m.id));
    }
    Ok(catalog)
}

/// The evaluation's options from the command line.
fn options(a: &EvaluateArgs) -> evaluate::Options {
    evaluate::Options {
        scopes: a.scopes.clone(),
        jobs: a.jobs.map(usize::from).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        }),
        limits: ferastrau_protocol::Limits {
            tick_factor: a.tick_factor,
            tick_floor: a.tick_floor,
            timeout_factor: a.timeout_factor,
            timeout_floor: a.timeout_floor,
        },
        memory_limit: a.original.memory_limit,
        original_timeout: a.original.original_timeout,
        max_scratch: a.original.max_scratch,
        resume: a.resume,
        reach: !a.no_reach,
        comparison: a.compare,
        progress: ferastrau_console::term::progress(),
        kill_matrix: a.kill_matrix.then_some(a.kill_matrix_max_deaths),
        per_process: a.mutants_per_process.map(usize::from),
        max_time: a.max_time,
        not_run: BTreeSet::new(),
    }
}

/// The mutants of `share` (what this run evaluates) that it leaves out without running them
/// ([`evaluate::Options::not_run`]): the compiler's equivalent mutants and duplicates of a
/// mutant the run evaluates, which the kill rate leaves out by default. None when their
/// results are needed: `--count-equivalents` counts them, `--kill-matrix` checks every row.
fn not_run(
    a: &EvaluateArgs,
    meta: &ferastrau_mutator::Metamutant,
    catalog: &ferastrau_mutator::Catalog,
    share: &[u32],
) -> BTreeSet<u32> {
    if a.count_equivalents || a.kill_matrix {
        return BTreeSet::new();
    }
    let evaluated: BTreeSet<u32> = share.iter().copied().collect();
    report::compiler_verdicts(meta, catalog)
        .into_iter()
        .filter(|(id, v)| {
            evaluated.contains(id)
                && match v {
                    ferastrau_artifacts::CompilerVerdict::Equivalent => true,
                    ferastrau_artifacts::CompilerVerdict::Duplicate { of } => {
                        evaluated.contains(of)
                    }
                }
        })
        .map(|(id, _)| id)
        .collect()
}

/// Writes the run's kill matrices into `out_dir`, saying where and warning of every row that
/// disagrees with the first-kill run.
fn write_matrices(
    out_dir: &Path,
    matrices: &[ferastrau_harness::matrix::KillMatrix],
) -> Result<()> {
    for m in matrices {
        let bytes = ferastrau_harness::matrix::file::write(out_dir, m)?;
        ferastrau_console::note!(
            "kill matrix, scope {}: {} mutants x {} inputs in {:.1} s, {} bytes in {}",
            m.header.scope,
            m.rows.len(),
            m.header.inputs,
            m.header.seconds,
            bytes,
            ferastrau_harness::matrix::file::dir(out_dir).display()
        );
        for d in &m.header.disagreements {
            ferastrau_console::warning!(
                "kill matrix at scope {} disagrees with the first-kill run: {d}",
                m.header.scope
            );
        }
    }
    Ok(())
}

/// The broken-run verdict of a whole run: a diff that touches no mutated code leaves nothing
/// to judge, which is not a broken run.
pub(super) fn verdict(broken: Option<String>, in_diff: bool, evaluated: &[u32]) -> Option<String> {
    broken.filter(|_| !(in_diff && evaluated.is_empty()))
}

/// Removes the reports of an earlier run (and a shard's record) from `dir`, so that a run that fails leaves no
/// report behind that could be read as its own.
pub fn clear_reports(dir: &Path) -> Result<()> {
    let all = report::FILES.iter().chain(&ferastrau_report::html::FILES);
    for f in all.chain(&[ferastrau_harness::shard::RECORD]) {
        match std::fs::remove_file(dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot remove {}", dir.join(f).display()))
            }
            _ => {}
        }
    }
    // An earlier run's kill matrices and what `subsets` made of them describe another run.
    let matrices = ferastrau_harness::matrix::file::dir(dir);
    if matrices.exists() {
        std::fs::remove_dir_all(&matrices)
            .with_context(|| format!("cannot remove {}", matrices.display()))?;
    }
    for f in ferastrau_harness::subsets::FILES {
        match std::fs::remove_file(dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot remove {}", dir.join(f).display()))
            }
            _ => {}
        }
    }
    Ok(())
}
