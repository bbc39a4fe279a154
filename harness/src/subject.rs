//! The subject of a mutation run: a benchmark's metamutant (built and compile-pruned by the
//! mutator) and the worker process that runs it.
//!
//! Mutating and building happen under one lock per crate identity, held from the first
//! generated file to the content-addressed copy of the worker binary: two runs on one
//! benchmark (two terminals, parallel tests) never build from each other's half-written
//! metamutant, and never pair one run's catalog with another's binary.
//!
//! Compile-pruning compiles the metamutant with the worker's own build (profile `ferastrau`,
//! in the shared build directory; see [`ferastrau_mutator::compile`]): a cold start compiles
//! the dependencies of no second target directory, and the worker build after pruning only
//! links the worker binary.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use ferastrau_mutator::equivalence::Compiled;
use ferastrau_mutator::{Compiler, Metamutant, Verdict};

use crate::locate::BenchmarkCrate;
use crate::runtime::Package;
use crate::target_dir::{build_dir, cache_dir, lock_file, scratch_dir, work_dir};
use crate::worker::{Worker, WorkerCrate};

/// A metamutant ready to run: built, with its worker and what the worker describes.
pub struct MetamutantBuild {
    pub meta: Metamutant,
    pub worker: Worker,
    pub methods: Vec<String>,
    /// Whether the benchmark defines a concrete structure (`--compare structural`).
    pub structure: bool,
    pub times: BuildTimes,
}

/// Where the time to get a subject ready went: the phases of a cold start.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BuildTimes {
    /// Mutant discovery, metamutant generation and compile-pruning, the last pruning round
    /// being the metamutant library's build (nothing when cached).
    pub mutate: Duration,
    /// The worker build (cargo's freshness check and the worker binary) and its copy.
    pub worker: Duration,
    /// The worker's first process (`describe`).
    pub describe: Duration,
}

impl std::fmt::Display for BuildTimes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "mutate and prune {:.2} s, worker build {:.2} s, describe {:.2} s",
            self.mutate.as_secs_f64(),
            self.worker.as_secs_f64(),
            self.describe.as_secs_f64()
        )
    }
}

/// The build lock of `bench`'s scratch directory. Taken before anything is built for it,
/// so this is where a crate's first build says where its builds go (under its target
/// directory), once, the first time.
pub(crate) fn build_lock(bench: &BenchmarkCrate) -> Result<std::fs::File> {
    let home = cache_dir(bench);
    if !home.exists() {
        ferastrau_console::stage!(
            "Caching",
            "builds of {} in {} (first run of this crate; its workers share compiled dependencies in {})",
            bench.name,
            home.display(),
            build_dir(bench).display()
        );
    }
    let path = scratch_dir(bench, "build.lock");
    lock_file(&path, || {
        ferastrau_console::stage!(
            "Waiting",
            "for another ferastrau run that is building {} (it holds {})",
            bench.name,
            path.display()
        )
    })
}

/// The metamutant's crate (the benchmark's name, its copy's directory) and the worker that
/// links it, written before the metamutant itself: compile-pruning builds that worker.
fn metamutant_worker(bench: &BenchmarkCrate) -> Result<(BenchmarkCrate, WorkerCrate)> {
    // Earlier versions pruned with `cargo check` into a target directory of the crate's own
    // (about 100 MB): nothing reads it any more.
    let stale = scratch_dir(bench, "check-target");
    if stale.is_dir() {
        std::fs::remove_dir_all(&stale)
            .with_context(|| format!("cannot remove {}", stale.display()))?;
    }
    generated_copy(bench, "metamutant")
}

/// A generated copy of the benchmark's crate in its scratch directory `leaf` (the benchmark's
/// name, that directory; no skip list), and the worker crate that links it, written in the
/// work directory of variant `leaf`.
fn generated_copy(bench: &BenchmarkCrate, leaf: &str) -> Result<(BenchmarkCrate, WorkerCrate)> {
    let dir = scratch_dir(bench, leaf);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let copy = BenchmarkCrate {
        dir: dir.canonicalize()?,
        skips: Vec::new(),
        ..bench.clone()
    };
    let worker = WorkerCrate::write(&copy, &work_dir(bench, leaf))?;
    Ok((copy, worker))
}

fn mutate(bench: &BenchmarkCrate, worker: &WorkerCrate) -> Result<Metamutant> {
    let out = scratch_dir(bench, "metamutant");
    ferastrau_console::stage!(
        "Mutating",
        "{} (compiling it until no mutant breaks the build; cached when its sources did not change)",
        bench.name
    );
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    // Compiling until no mutant breaks the build takes seconds to a minute: on a terminal, a
    // line that shows it is alive.
    let ticking = ferastrau_console::term::spinner(ferastrau_console::term::progress(), "mutating");
    let equivalence = match ferastrau_mutator::equivalence::enabled() {
        true => Some(equivalence_setup(bench)?),
        false => None,
    };
    let meta = ferastrau_mutator::build_metamutant_compared(
        &bench.dir,
        &out,
        &bench.runtime.dependency(Package::Probes),
        &Compiler::build_through(build_dir(bench), &worker.manifest, &bench.name)
            .in_dir(&bench.home),
        equivalence.as_ref(),
    );
    ticking.finish_and_clear();
    let mut meta = meta.with_context(|| format!("cannot mutate {}", bench.name))?;
    if equivalence.is_none() {
        // Switched off: no verdicts at all, not a cached run's (a run's reports must not depend
        // on what ran before it).
        meta.equivalence = None;
    }
    // A cached metamutant took no time now: its first build's seconds would read as this
    // run's.
    let how = match meta.cached {
        true => "reused from the cache (the sources did not change)".to_string(),
        false if meta.carried > 0 => format!(
            "after {} pruning round(s) in {:.1} s; {} that no longer compiled kept out, from \
             functions the edit did not touch",
            meta.rounds.len(),
            meta.seconds,
            meta.carried
        ),
        false => format!(
            "after {} pruning round(s) in {:.1} s",
            meta.rounds.len(),
            meta.seconds
        ),
    };
    ferastrau_console::stage!(
        "Mutated",
        "{}: {} mutants, {} viable, {how}",
        bench.name,
        meta.catalog.mutants.len(),
        meta.catalog.viable().count(),
    );
    ferastrau_console::detail!("metamutant crate: {}", meta.dir.display());
    if let Some(e) = &meta.equivalence {
        let count = |dup: bool| {
            e.verdicts
                .values()
                .filter(|v| matches!(v, Verdict::Duplicate { .. }) == dup)
                .count()
        };
        match &e.failed {
            Some(error) => ferastrau_console::stage!(
                "Compared",
                "no mutant by its compiled code: the copies did not compile ({error})"
            ),
            None => ferastrau_console::stage!(
                "Compared",
                "{} mutants by their compiled code: {} equivalent, {} duplicate{}",
                e.compared.len(),
                count(false),
                count(true),
                match e.not_compared.len() {
                    0 => String::new(),
                    n => format!(" ({n} function(s) not compared)"),
                }
            ),
        }
        match &e.compiled {
            Compiled::Not => {}
            Compiled::BesideTheBuild => ferastrau_console::detail!(
                "comparison: compiled by rustc beside the worker's build, in {:.2} s",
                e.seconds
            ),
            Compiled::ThroughCargo { beside_failed } => ferastrau_console::detail!(
                "comparison: compiled through cargo after the worker's build, in {:.2} s{}",
                e.seconds,
                match beside_failed {
                    Some(why) => format!(" (the compile beside the build failed: {why})"),
                    None => String::new(),
                }
            ),
        }
    }
    Ok(meta)
}

/// Where trivial compiler equivalence compiles its copy of the metamutant
/// (`<identity>/equivalence`) and the worker crate it is built through
/// (`worker-equivalence`): that worker is never built, it gives `cargo rustc -p` the
/// metamutant worker's dependency graph, so the copy's one compile finds every dependency
/// built (see [`ferastrau_mutator::compile::Compiler::emit_ir`]).
fn equivalence_setup(bench: &BenchmarkCrate) -> Result<ferastrau_mutator::equivalence::Setup> {
    let (copy, worker) = generated_copy(bench, "equivalence")?;
    Ok(ferastrau_mutator::equivalence::Setup {
        dir: copy.dir,
        compiler: Compiler::build_through(build_dir(bench), &worker.manifest, &bench.name)
            .in_dir(&bench.home),
    })
}

/// Builds (or reuses) the compile-pruned metamutant of `bench`.
pub fn metamutant(bench: &BenchmarkCrate) -> Result<Metamutant> {
    let _lock = build_lock(bench)?;
    let (_, worker) = metamutant_worker(bench)?;
    mutate(bench, &worker)
}

/// Builds (or reuses) the metamutant of `bench` and its worker.
pub fn prepare(bench: &BenchmarkCrate) -> Result<MetamutantBuild> {
    let _lock = build_lock(bench)?;
    let started = Instant::now();
    let (copy, worker_crate) = metamutant_worker(bench)?;
    let meta = mutate(bench, &worker_crate)?;
    let mutated = Instant::now();
    // Not from the cache: the last pruning round was this worker's build (see `mutate`).
    let worker = Worker::build_or_take(&copy, &work_dir(bench, "metamutant"), !meta.cached)?;
    let built = Instant::now();
    let described = worker.describe()?;
    let times = BuildTimes {
        mutate: mutated - started,
        worker: built - mutated,
        describe: built.elapsed(),
    };
    ferastrau_console::detail!("ready: {times}");
    Ok(MetamutantBuild {
        meta,
        worker,
        methods: described.methods,
        structure: described.structure,
        times,
    })
}

/// Builds (or reuses) the worker of the untouched crate.
pub fn original_worker(bench: &BenchmarkCrate) -> Result<Worker> {
    let _lock = build_lock(bench)?;
    Worker::build_for(bench, &work_dir(bench, "original"))
}
