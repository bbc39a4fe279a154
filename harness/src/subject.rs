//! The subject of a mutation run: a benchmark's metamutant (built and compile-pruned by the
//! mutator) and the worker process that runs it.

use anyhow::{Context, Result};
use ferastrau_mutator::Metamutant;

use crate::locate::{locate, workspace_root, BenchmarkCrate};
use crate::worker::{work_dir, Worker};

/// A metamutant ready to run.
pub struct Subject {
    pub meta: Metamutant,
    pub worker: Worker,
    pub methods: Vec<String>,
}

/// Builds (or reuses) the metamutant of `bench` and its worker. Says what it is doing on
/// stderr when `progress` is set, since the first build takes a while.
pub fn prepare(bench: &BenchmarkCrate, progress: bool) -> Result<Subject> {
    let out = workspace_root()
        .join("target")
        .join("ferastrau")
        .join(&bench.name)
        .join("metamutant");
    if progress {
        eprintln!(
            "mutating {} (cached when the sources did not change)...",
            bench.name
        );
    }
    let probes = workspace_root().join("mutator").join("runtime");
    let meta = ferastrau_mutator::build_metamutant(&bench.dir, &out, &probes)
        .with_context(|| format!("cannot mutate {}", bench.name))?;
    if progress {
        let viable = meta.catalog.viable().count();
        eprintln!(
            "{} mutants, {} viable after {} pruning round(s) ({:.1} s{}); building the worker...",
            meta.catalog.mutants.len(),
            viable,
            meta.rounds.len(),
            meta.seconds,
            if meta.cached { ", cached" } else { "" }
        );
    }
    let copy = locate(None, Some(&meta.dir))?;
    let worker = Worker::build_for(&copy, &work_dir(bench, "metamutant"))?;
    let methods = worker.methods()?;
    Ok(Subject {
        meta,
        worker,
        methods,
    })
}
