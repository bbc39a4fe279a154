//! `ferastrau evaluate` as one call: [`run`] takes the command's [`Options`] and returns its
//! [`Outcome`], the reports written; the CLI only parses the command line into `Options` and
//! prints what comes back. The page is drawn by the readers' crate, which this crate must not
//! depend on: the caller hands it in as [`Readers`].
//!
//! A run that fails or is refused, at whatever stage, leaves no reports in its directory (a
//! broken run's are written, marked broken): a gate given the directory must not pass an
//! earlier run's as this one's.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use ferastrau_artifacts::{
    EvaluateSummary, RunnerFigures, SampleMark, Shard, SuiteRun, Survivor, Survivors,
};
use ferastrau_console::exit_code::{broken, usage, Interrupted};
use ferastrau_mutator::{Catalog, Metamutant};
use ferastrau_protocol::{Comparison, Limits};

use super::facts::{facts, fingerprint};
use super::next_scope::{self, Step};
use super::{journal, report, EvaluationResults, Settings};
use crate::fingerprint::Fingerprint;
use crate::in_diff::Selection;
use crate::locate::{BenchmarkCrate, Named};
use crate::outdir::OutputDir;
use crate::subject;

/// What `ferastrau evaluate` is asked to do: the command line, parsed.
#[derive(Clone, Debug)]
pub struct Options {
    /// The crate.
    pub target: Named,
    pub scopes: RangeInclusive<u32>,
    /// `--compare`: what a mutant's outputs are compared with the original's by.
    pub comparison: Comparison,
    /// `--next-scope`: run the largest scope's survivors at one scope more.
    pub next_scope: bool,
    /// `--resume`: continue the run the directory's journal records.
    pub resume: bool,
    /// `--out`; `None`: `ferastrau.out/<crate>/`.
    pub out: Option<PathBuf>,
    /// `--kill-matrix`: every mutant on every input, rows capped after this many deaths.
    pub kill_matrix: Option<u32>,
    /// `--count-equivalents`: the compiler's equivalent and duplicate mutants are run and
    /// counted in the kill rate.
    pub count_equivalents: bool,
    /// `--jobs`; `None`: one per core.
    pub jobs: Option<usize>,
    /// `--max-time`: the evaluation's wall-clock budget (see [`Settings::max_time`]).
    pub max_time: Option<Duration>,
    pub limits: Limits,
    /// `--memory-limit`, bytes of address space of each process.
    pub memory_limit: u64,
    /// `--original-timeout`: the original's clock limit on one input.
    pub original_timeout: Duration,
    /// `--max-scratch`: bytes the stored inputs of all scopes may take.
    pub max_scratch: u64,
    /// `--mutants-per-process`.
    pub per_process: Option<usize>,
    /// `--in-diff`: the diff whose functions' mutants are evaluated.
    pub in_diff: Option<PathBuf>,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `--max-mutants` (with its `--seed`).
    pub sample: Option<SampleMark>,
    /// `--only-mutants`.
    pub only_mutants: Vec<u32>,
    /// Each mutant on the inputs that reach its mutation point only (`--no-reach`: off).
    pub reach: bool,
}

/// How an evaluation ended.
pub enum Outcome {
    /// `--in-diff` selected no mutant: no run, no reports.
    Nothing { benchmark: String, why: String },
    /// A run, its reports written.
    Evaluated(Box<Summary>),
}

impl Outcome {
    /// The outcome, or, for a broken run, the error that says so (exit status "broken").
    pub fn unbroken(self) -> Result<Outcome> {
        match &self {
            Outcome::Evaluated(s) => match s.broken() {
                Some(why) => Err(broken_run(why, &s.out_dir)),
                None => Ok(self),
            },
            Outcome::Nothing { .. } => Ok(self),
        }
    }
}

/// The error of a run whose reports in `out_dir` are marked broken, for `why` (exit status
/// "broken").
pub fn broken_run(why: &str, out_dir: &Path) -> anyhow::Error {
    broken(format!(
        "the run is broken, its kill rate means nothing: {why} (reports in {}, marked \"broken\")",
        out_dir.display()
    ))
}

/// A run's outcome: the document `--format json` prints, and what only the terminal's table
/// shows besides.
pub struct Summary {
    /// What `evaluate --format json` prints (`evaluate-stdout.schema.json`): `evaluation.json`
    /// as written (broken or not, its rows, the mutants evaluated: a shard's share), the page,
    /// the runner's figures, the whole command's time, the survivors at the largest scope and
    /// what was done about the next.
    pub document: EvaluateSummary,
    pub out_dir: PathBuf,
    /// The table's title: the crate, and for a shard or an `--in-diff` run of some functions,
    /// how many of how many mutants it evaluated.
    pub title: String,
    /// What the run did about scope + 1, with the survivors' marks the terminal counts.
    pub next: Step,
}

impl Summary {
    /// Why the run is broken (its reports are written, marked so): its kill rate means
    /// nothing.
    pub fn broken(&self) -> Option<&str> {
        self.document.run.evaluation.broken.as_deref()
    }
}

/// What draws the page of a run's reports: the readers' crate, which the run code must not
/// depend on, given by the caller.
pub trait Readers {
    /// The crate's sources as the mutator read them, taken before the run: the page shows the
    /// code that ran, whatever happens to the crate meanwhile.
    type Sources;
    /// The files [`Readers::draw`] writes in a reports' directory (cleared with the reports).
    const FILES: &'static [&'static str];
    fn sources(&self, crate_dir: &Path, meta: &Metamutant) -> Result<Self::Sources>;
    /// The crate's sources as they are now in `crate_dir` (for merged shards, which keep no
    /// snapshot).
    fn on_disk(&self, crate_dir: &Path) -> Self::Sources;
    /// The files of `sources` whose text in `crate_dir` is not the snapshot's any more.
    fn changed(&self, sources: &Self::Sources, crate_dir: &Path) -> Vec<String>;
    /// Draws the page of the reports in `out_dir`; the survivors of `scope` it lists.
    fn draw(&self, out_dir: &Path, sources: &Self::Sources, scope: u32) -> Result<Vec<Survivor>>;
    /// Draws a suite's run (`evaluate --suite`) in `out_dir`: marks each verdict of `run` with
    /// what a later `gate --suite` matches mutants by (written with it to `suite.json` after),
    /// then writes its page and its Stryker document, of the sources in `meta`.
    fn draw_suite(&self, out_dir: &Path, run: &mut SuiteRun, meta: &Metamutant) -> Result<()>;
}

/// Where runs' reports go without `--out`: `ferastrau.out/<benchmark>/`.
const DEFAULT_OUT: &str = "ferastrau.out";

impl Options {
    /// Where the run's reports go: `--out`, else `ferastrau.out/<benchmark>/`.
    pub fn out_dir(&self, bench: &BenchmarkCrate) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_OUT).join(&bench.name))
    }

    /// `--jobs`, else one per core.
    pub fn jobs(&self) -> usize {
        self.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
    }

    /// The catalog the run evaluates: sampled, then narrowed to the diff's lines and to
    /// `--only-mutants` (each of which must be one the run would evaluate).
    pub fn selected(&self, catalog: &Catalog, diff: Option<&Selection>) -> Result<Catalog> {
        let mut catalog = sampled(catalog, self.sample);
        if let Some(diff) = diff {
            catalog.mutants.retain(|m| diff.keeps(m));
        }
        if !self.only_mutants.is_empty() {
            if let Some(id) = self
                .only_mutants
                .iter()
                .find(|id| !catalog.viable().any(|m| m.id == **id))
            {
                return Err(usage(format!(
                    "--only-mutants: mutant {id} is not one this run would evaluate (unknown, not viable or not sampled)"
                )));
            }
            catalog
                .mutants
                .retain(|m| self.only_mutants.contains(&m.id));
        }
        Ok(catalog)
    }

    /// The mutant phase's settings.
    fn settings(&self) -> Settings {
        Settings {
            scopes: self.scopes.clone(),
            jobs: self.jobs(),
            limits: self.limits,
            memory_limit: self.memory_limit,
            original_timeout: self.original_timeout,
            max_scratch: self.max_scratch,
            resume: self.resume,
            reach: self.reach,
            comparison: self.comparison,
            progress: ferastrau_console::term::progress(),
            kill_matrix: self.kill_matrix,
            per_process: self.per_process,
            max_time: self.max_time,
            not_run: BTreeSet::new(),
        }
    }

    /// The mutants of `share` (what this run evaluates) that it leaves out without running
    /// them ([`Settings::not_run`]): the compiler's equivalent mutants and duplicates of a
    /// mutant the run evaluates, which the kill rate leaves out by default. None when their
    /// results are needed: `--count-equivalents` counts them, `--kill-matrix` checks every row.
    fn not_run(&self, meta: &Metamutant, catalog: &Catalog, share: &[u32]) -> BTreeSet<u32> {
        if self.count_equivalents || self.kill_matrix.is_some() {
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
}

/// `catalog`, or its sample of `--max-mutants N --seed S` (what `evaluate` and `mutants` list).
pub fn sampled(catalog: &Catalog, sample: Option<SampleMark>) -> Catalog {
    match sample {
        Some(s) => ferastrau_mutator::sample(catalog, s.max_mutants as usize, s.seed),
        None => catalog.clone(),
    }
}

/// Runs an evaluation as `options` say, its page drawn by `readers`.
pub fn run<R: Readers>(options: &Options, readers: &R) -> Result<Outcome> {
    // The whole command's time, builds and generation included, for the closing line.
    let started = Instant::now();
    let bench = match options.target.locate() {
        Ok(bench) => bench,
        Err(e) => {
            // A source that does not parse, a manifest that cannot be read: refused before
            // the run could take its directory.
            forget_reports(options, R::FILES);
            return Err(e);
        }
    };
    let out_dir = options.out_dir(&bench);
    // Taken before anything is built or written: a second run on the same directory fails at
    // once instead of mixing its results into this one's.
    let out = OutputDir::take(&out_dir, &bench.name, &bench.dir)?;
    // The reports of an earlier run go before anything else can fail or the run is killed, so
    // that none can be read as this run's. With --resume too: a refused one keeps its journal,
    // and a --resume of the run that journal records writes them again.
    clear_reports(&out.path, R::FILES)?;
    match evaluate_in(options, readers, &bench, &out, started) {
        Ok(outcome) => Ok(outcome),
        Err(e) => {
            // Failed after some reports were written (the page, the kill matrices, a shard's
            // record): a part of a run is no run.
            if let Err(c) = clear_reports(&out.path, R::FILES) {
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
fn forget_reports(options: &Options, drawn: &[&str]) {
    let Some(krate) = options.target.dir() else {
        return;
    };
    let dirs: Vec<PathBuf> = match &options.out {
        Some(dir) => vec![dir.clone()],
        None => std::fs::read_dir(DEFAULT_OUT)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect(),
    };
    for dir in dirs {
        if crate::outdir::recorded_owner(&dir).as_ref() != Some(&krate) {
            continue;
        }
        if let Ok(out) = OutputDir::lock(&dir) {
            if let Err(e) = clear_reports(&out.path, drawn) {
                ferastrau_console::warning!("{e:#}");
            }
        }
    }
}

/// The run itself, in `out`, its earlier reports removed.
fn evaluate_in<R: Readers>(
    options: &Options,
    readers: &R,
    bench: &BenchmarkCrate,
    out: &OutputDir,
    started: Instant,
) -> Result<Outcome> {
    let out_dir = &out.path;
    let diff = read_diff(options, bench)?;
    if let Some(why) = announce(diff.as_ref()) {
        return Ok(Outcome::Nothing {
            benchmark: bench.name.clone(),
            why,
        });
    }
    let run = prepare(options, readers, bench, out_dir, diff.as_ref())?;
    let ev = super::evaluate(
        bench,
        out,
        &run.fingerprint,
        &run.subject.worker,
        &run.subject.methods,
        &run.share,
        &run.settings,
    )?;
    if ev.interrupted {
        return Err(anyhow::Error::new(Interrupted(format!(
            "interrupted; the results so far are in {}; continue with --resume",
            out_dir.join("journal.jsonl").display()
        ))));
    }
    let (broken, survivors, next) =
        write_reports(options, readers, bench, out_dir, &run, &ev, started)?;
    // The document is read back from the reports as written: the files are what the run says.
    let document = EvaluateSummary {
        run: report::run_reports(out_dir, run.share.len())?,
        next_scope: next.printed(),
        // The page is the first of the readers' files.
        report_html: out_dir.join(R::FILES[0]).display().to_string(),
        runner: runner_figures(&ev, run.settings.jobs),
        seconds: started.elapsed().as_secs_f64(),
        survivors: Survivors {
            mutants: survivors,
            scope: *options.scopes.end(),
        },
    };
    debug_assert_eq!(document.run.evaluation.broken, broken);
    Ok(Outcome::Evaluated(Box::new(Summary {
        document,
        out_dir: out_dir.clone(),
        title: title(
            options,
            bench,
            run.share.len(),
            run.viable.len(),
            run.catalog_size,
            run.partial_diff,
        ),
        next,
    })))
}

/// A run made ready to evaluate: its metamutant built, its mutants chosen, and the
/// fingerprint of everything its results depend on. All of it comes before any mutant runs,
/// and so does every refusal of the options it checks.
struct Prepared<S> {
    subject: subject::MetamutantBuild,
    /// The source as the mutator read it to build the metamutant: what the page shows,
    /// whatever happens to the crate during the run (an edit while it was mutating included).
    sources: S,
    /// The crate's skip list, matched to its mutants: each one's reason.
    skipped: BTreeMap<u32, String>,
    /// The viable mutants of the whole crate, not skipped: what an in-diff run's title counts
    /// its share against.
    catalog_size: usize,
    /// The catalog as the options select it (sampled, on the diff).
    catalog: Catalog,
    /// What the run evaluates: the viable mutants, sampled, on the diff, not skipped.
    viable: Vec<u32>,
    /// What this process evaluates: a shard's share of `viable`, sampled the same way; all of
    /// `viable` unsharded.
    share: Vec<u32>,
    settings: Settings,
    fingerprint: Fingerprint,
    /// Whether the diff selects some functions only. A diff that selects every mutant makes a
    /// whole run, comparable with a baseline's.
    partial_diff: bool,
}

/// Builds the metamutant of `bench` and chooses the mutants the run evaluates (`diff` is
/// `--in-diff`'s selection), refusing what cannot be honoured: `--compare structural` of a
/// crate with no structure, a skip entry that matches no mutant, `--kill-matrix` of part of a
/// run, and a `--resume` of another run than the journal in `out_dir` records.
fn prepare<R: Readers>(
    options: &Options,
    readers: &R,
    bench: &BenchmarkCrate,
    out_dir: &Path,
    diff: Option<&Selection>,
) -> Result<Prepared<R::Sources>> {
    let subject = subject::prepare(bench)?;
    if options.comparison == Comparison::Structural && !subject.structure {
        return Err(usage(format!(
            "--compare structural: {} defines no structure to compare (set `const STRUCTURE: bool = true` and write `fn structure` in its `Benchmark` impl)",
            bench.name
        )));
    }
    let sources = readers.sources(&bench.dir, &subject.meta)?;
    // A stale entry (matching no mutant) is the declaration's fault: usage, not a failure.
    let skipped = ferastrau_mutator::skipped(&subject.meta.catalog.mutants, &bench.skips)
        .map_err(|e| usage(format!("{e:#}")))?;
    let catalog_size = subject
        .meta
        .catalog
        .viable()
        .filter(|m| !skipped.contains_key(&m.id))
        .count();
    let catalog = options.selected(&subject.meta.catalog, diff)?;
    let viable: Vec<u32> = catalog
        .viable()
        .map(|m| m.id)
        .filter(|m| !skipped.contains_key(m))
        .collect();
    // A shard evaluates its share of what the whole run evaluates, sampled the same way.
    let share = options
        .shard
        .map_or_else(|| viable.clone(), |s| s.share(&viable));
    let mut settings = options.settings();
    settings.not_run = options.not_run(&subject.meta, &catalog, &share);
    if options.kill_matrix.is_some() && (options.shard.is_some() || options.in_diff.is_some()) {
        return Err(usage(
            "--kill-matrix needs the whole run: it cannot be combined with --shard or --in-diff",
        ));
    }
    // What is not run is part of what the results depend on: a resumed run under the other
    // counting rule would read a skipped mutant's record as its result. Of the whole run,
    // not of this shard's share, so that the shards of one run have one fingerprint (merge
    // refuses shards whose fingerprints differ).
    let mut left_out = skipped.clone();
    for id in options.not_run(&subject.meta, &catalog, &viable) {
        left_out.insert(
            id,
            "not run: equivalent or duplicate by the compiler".into(),
        );
    }
    let fingerprint = fingerprint(bench, &subject, &catalog, &viable, &left_out, options)?;
    if options.resume {
        journal::Journal::check_resumable(&out_dir.join("journal.jsonl"), &fingerprint)?;
    }
    Ok(Prepared {
        subject,
        sources,
        skipped,
        catalog_size,
        catalog,
        viable,
        share,
        settings,
        fingerprint,
        partial_diff: matches!(diff, Some(Selection::Functions(_))),
    })
}

/// Writes the reports of `run`'s evaluation `ev` in `out_dir`: the JSON reports, the page
/// (drawn from the crate's source as the run read it), the kill matrices, the next scope's
/// marks if `--next-scope` runs, and a shard's record; warns of a crate that changed during
/// the run and of an original that violates its postcondition. Returns why the run is broken
/// (`None`: it is not, or it is a shard's share, which `merge` judges whole), the survivors of
/// the largest scope, and what the next scope did.
fn write_reports<R: Readers>(
    options: &Options,
    readers: &R,
    bench: &BenchmarkCrate,
    out_dir: &Path,
    run: &Prepared<R::Sources>,
    ev: &EvaluationResults,
    started: Instant,
) -> Result<(Option<String>, Vec<Survivor>, Step)> {
    let facts = facts(
        bench,
        &run.subject,
        &run.catalog,
        options,
        run.partial_diff,
        &run.skipped,
    )?;
    let broken = match options.shard {
        // A shard's share is not the run: `merge` judges the whole.
        Some(_) => None,
        None => verdict(ev.broken.clone(), run.partial_diff, &run.viable),
    };
    let extra = report::Extra {
        broken: broken.clone(),
        shard: options.shard,
    };
    report::publish(out_dir, &facts, &ev.scopes, &ev.results, &run.share, &extra)?;
    // The page and the schema JSON, from the reports just written and the crate's source.
    let last_scope = *options.scopes.end();
    let mut survivors = readers.draw(out_dir, &run.sources, last_scope)?;
    let changed = readers.changed(&run.sources, &bench.dir);
    if !changed.is_empty() {
        ferastrau_console::warning!(
            "the crate changed during the run ({}): the results and the page are of its source as the run read it to mutate; run again to measure the change",
            changed.join(", ")
        );
    }
    write_matrices(out_dir, &ev.matrices)?;
    let next = match (&broken, options.shard) {
        (None, None) => next_scope::after(
            options,
            readers,
            bench,
            out_dir,
            &ev.scopes,
            run.settings.jobs,
            started.elapsed(),
        )?,
        _ => Step::Nothing,
    };
    // The marks of --next-scope are in mutants.json now: the page and survivors.txt again.
    if let Step::Ran { .. } = next {
        survivors = readers.draw(out_dir, &run.sources, last_scope)?;
    }
    if let Some(shard) = options.shard {
        crate::shard::write(
            out_dir,
            crate::shard::record(
                shard,
                &run.fingerprint,
                &run.viable,
                facts,
                ev.scopes.clone(),
                &ev.results,
            ),
        )?;
    }
    for s in ev.scopes.iter().filter(|s| s.violation_count > 0) {
        ferastrau_console::warning!(
            "the original violates its postcondition on {} input(s) at scope {} (see `ferastrau check`)",
            s.violation_count,
            s.scope
        );
    }
    Ok((broken, survivors, next))
}

/// What `--in-diff` selected, said before the run (a note); why there is nothing to run when
/// it selects nothing.
fn announce(diff: Option<&Selection>) -> Option<String> {
    match diff {
        Some(Selection::Nothing { why }) => return Some(why.clone()),
        Some(Selection::Everything { why }) => {
            ferastrau_console::note!("--in-diff: every mutant is evaluated: {why}")
        }
        Some(Selection::Functions(functions)) => ferastrau_console::note!(
            "--in-diff: the mutants of {} function(s) are evaluated: {}",
            functions.len(),
            functions
                .iter()
                .map(|(f, why)| format!("{f} ({why})"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => {}
    }
    None
}

/// The table's title: the crate's name, and for a shard or an `--in-diff` run of some
/// functions, how many of how many mutants it evaluated.
fn title(
    options: &Options,
    bench: &BenchmarkCrate,
    share: usize,
    viable: usize,
    catalog_size: usize,
    partial_diff: bool,
) -> String {
    match options.shard {
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
fn read_diff(options: &Options, bench: &BenchmarkCrate) -> Result<Option<Selection>> {
    let Some(diff) = &options.in_diff else {
        return Ok(None);
    };
    let changed = crate::in_diff::ChangedLines::read(diff)?;
    let rel_files = crate::fingerprint::crate_files(&bench.dir)?;
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

/// Writes the run's kill matrices into `out_dir`, saying where and warning of every row that
/// disagrees with the first-kill run.
fn write_matrices(out_dir: &Path, matrices: &[crate::matrix::KillMatrix]) -> Result<()> {
    for m in matrices {
        let bytes = crate::matrix::file::write(out_dir, m)?;
        ferastrau_console::note!(
            "kill matrix, scope {}: {} mutants x {} inputs in {:.1} s, {} bytes in {}",
            m.header.scope,
            m.rows.len(),
            m.header.inputs,
            m.header.seconds,
            bytes,
            crate::matrix::file::dir(out_dir).display()
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

/// The figures of `ev`'s mutant phase, run with `jobs` threads (the `runner:` line of the table
/// and `runner` in the JSON); `None` when it ran no mutant (every result came from the journal).
fn runner_figures(ev: &EvaluationResults, jobs: usize) -> Option<RunnerFigures> {
    let t = &ev.timing;
    (t.children > 0 || t.unreached > 0).then(|| RunnerFigures {
        executions: t.executions,
        skipped: t.skipped,
        unreached_mutants: t.unreached,
        seconds: ev.mutant_phase_seconds,
        jobs: jobs as u64,
        processes: t.children,
        overhead_ms_per_process: 1000.0 * (t.child_seconds - t.work_seconds).max(0.0)
            / t.children.max(1) as f64,
        harness_over_bare_loop: (t.work_seconds > 0.0)
            .then(|| ev.mutant_phase_seconds * jobs as f64 / t.work_seconds),
    })
}

/// The broken-run verdict of a whole run: a diff that touches no mutated code leaves nothing
/// to judge, which is not a broken run.
pub fn verdict(broken: Option<String>, in_diff: bool, evaluated: &[u32]) -> Option<String> {
    broken.filter(|_| !(in_diff && evaluated.is_empty()))
}

/// Removes the reports of an earlier run (a shard's record, its kill matrices and what
/// `subsets` made of them, and the files the readers drew: `drawn`) from `dir`, so that a run
/// that fails leaves no report behind that could be read as its own.
pub fn clear_reports(dir: &Path, drawn: &[&str]) -> Result<()> {
    let files = report::FILES.iter().chain(drawn);
    let files = files.chain(&[crate::shard::RECORD]);
    for f in files.chain(&crate::subsets::FILES) {
        match std::fs::remove_file(dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot remove {}", dir.join(f).display()))
            }
            _ => {}
        }
    }
    let matrices = crate::matrix::file::dir(dir);
    if matrices.exists() {
        std::fs::remove_dir_all(&matrices)
            .with_context(|| format!("cannot remove {}", matrices.display()))?;
    }
    Ok(())
}
