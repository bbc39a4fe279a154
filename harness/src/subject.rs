//! The subject of a mutation run: a benchmark's metamutant (built and compile-pruned by the
//! mutator) and the worker process that runs it.
//!
//! Mutating and building happen under one lock per crate identity, held from the first
//! generated file to the content-addressed copy of the worker binary: two runs on one
//! benchmark (two terminals, parallel tests) never build from each other's half-written
//! metamutant, and never pair one run's catalog with another's binary.

use anyhow::{Context, Result};
use ferastrau_mutator::Metamutant;

use crate::locate::{locate, BenchmarkCrate};
use crate::worker::{lock_file, scratch_dir, work_dir, Worker};

/// A metamutant ready to run.
pub struct Subject {
    pub meta: Metamutant,
    pub worker: Worker,
    pub methods: Vec<String>,
}

/// The build lock of `bench`'s scratch directory, held while the guard lives.
fn build_lock(bench: &BenchmarkCrate) -> Result<std::fs::File> {
    lock_file(&scratch_dir(bench, "build.lock"))
}

/// Whether to say what is being built: on a terminal (it takes a minute the first time), or
/// when asked to (`--verbose`).
fn talk() -> bool {
    crate::term::progress() || crate::term::verbose()
}

fn mutate(bench: &BenchmarkCrate) -> Result<Metamutant> {
    let out = scratch_dir(bench, "metamutant");
    let progress = talk();
    if progress {
        eprintln!(
            "mutating {} (cached when the sources did not change)...",
            bench.name
        );
    }
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let meta = ferastrau_mutator::build_metamutant(
        &bench.dir,
        &out,
        &ferastrau_mutator::default_probes_dir(),
    )
    .with_context(|| format!("cannot mutate {}", bench.name))?;
    if progress {
        eprintln!(
            "{} mutants, {} viable after {} pruning round(s) ({:.1} s{})",
            meta.catalog.mutants.len(),
            meta.catalog.viable().count(),
            meta.rounds.len(),
            meta.seconds,
            if meta.cached { ", cached" } else { "" }
        );
    }
    crate::detail!("metamutant crate: {}", meta.dir.display());
    Ok(meta)
}

/// Builds (or reuses) the compile-pruned metamutant of `bench`.
pub fn metamutant(bench: &BenchmarkCrate) -> Result<Metamutant> {
    let _lock = build_lock(bench)?;
    mutate(bench)
}

/// Builds (or reuses) the metamutant of `bench` and its worker.
pub fn prepare(bench: &BenchmarkCrate) -> Result<Subject> {
    let _lock = build_lock(bench)?;
    let meta = mutate(bench)?;
    let copy = locate(None, Some(&meta.dir))?;
    let worker = Worker::build_for(&copy, &work_dir(bench, "metamutant"))?;
    let methods = worker.methods()?;
    Ok(Subject {
        meta,
        worker,
        methods,
    })
}

/// Builds (or reuses) the worker of the untouched crate.
pub fn original_worker(bench: &BenchmarkCrate) -> Result<Worker> {
    let _lock = build_lock(bench)?;
    Worker::build_for(bench, &work_dir(bench, "original"))
}
