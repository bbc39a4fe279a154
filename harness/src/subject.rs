//! The subject of a mutation run: a benchmark's metamutant (built and compile-pruned by the
//! mutator) and the worker process that runs it.

use anyhow::{Context, Result};
use ferastrau_mutator::Metamutant;

use crate::locate::{locate, workspace_root, BenchmarkCrate};
use crate::worker::{scratch_dir, work_dir, Worker};

/// A metamutant ready to run.
pub struct Subject {
    pub meta: Metamutant,
    pub worker: Worker,
    pub methods: Vec<String>,
}

/// The directory of `bench`'s metamutant.
fn metamutant_dir(bench: &BenchmarkCrate) -> std::path::PathBuf {
    scratch_dir(bench, "metamutant")
}

/// Builds (or reuses) the compile-pruned metamutant of `bench`. Two runs on one benchmark
/// (two terminals, parallel tests) share its directory: one builds while the other waits.
pub fn metamutant(bench: &BenchmarkCrate, progress: bool) -> Result<Metamutant> {
    let out = metamutant_dir(bench);
    if progress {
        eprintln!(
            "mutating {} (cached when the sources did not change)...",
            bench.name
        );
    }
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let _lock = lock(&out.with_extension("lock"))?;
    let probes = workspace_root().join("mutator").join("runtime");
    let meta = ferastrau_mutator::build_metamutant(&bench.dir, &out, &probes)
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
    Ok(meta)
}

/// Builds (or reuses) the metamutant of `bench` and its worker.
pub fn prepare(bench: &BenchmarkCrate, progress: bool) -> Result<Subject> {
    let meta = metamutant(bench, progress)?;
    let _lock = lock(&metamutant_dir(bench).with_extension("lock"))?;
    let copy = locate(None, Some(&meta.dir))?;
    let worker = Worker::build_for(&copy, &work_dir(bench, "metamutant"))?;
    let methods = worker.methods()?;
    Ok(Subject {
        meta,
        worker,
        methods,
    })
}

/// An exclusive advisory lock on `path`, held until the returned file is dropped.
fn lock(path: &std::path::Path) -> Result<std::fs::File> {
    use std::os::fd::AsRawFd;
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    // SAFETY: flock on a descriptor we own; the lock is released when the file closes.
    if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
        return Err(std::io::Error::last_os_error())
            .with_context(|| format!("cannot lock {}", path.display()));
    }
    Ok(f)
}
