//! Ferastrau's places in a benchmark crate's target directory (`<target>/ferastrau/`): the
//! shared build directory of its workers, its scratch, and advisory locks on them. Never the
//! tool's own checkout or install root: two users, a read-only install and any number of
//! crates each keep their builds beside their own `target/` (see [`BenchmarkCrate::target_dir`]).
//! The lowest layer: the worker builder, the subject's preparation and the output directory's
//! sealed scratch all find their files here.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::fingerprint::ContentHash;
use crate::locate::BenchmarkCrate;

/// Ferastrau's space in `bench`'s target directory.
pub fn ferastrau_target(bench: &BenchmarkCrate) -> PathBuf {
    bench.target_dir.join("ferastrau")
}

/// Where the workers (and runners) of the crates of one target directory share their
/// compiled dependencies.
pub fn build_dir(bench: &BenchmarkCrate) -> PathBuf {
    ferastrau_target(bench).join("build")
}

/// A name for `bench` that two crates of the same package name in different directories do
/// not share: `<name>-<hash of its directory>`.
pub fn identity(bench: &BenchmarkCrate) -> String {
    let h = ContentHash::default()
        .feed(bench.dir.to_string_lossy().as_bytes())
        .hex();
    format!("{}-{}", bench.name, &h[..8])
}

/// Ferastrau's cache for `bench` (`<target>/ferastrau/<identity>`): its workers, its
/// metamutant, its build lock.
pub fn cache_dir(bench: &BenchmarkCrate) -> PathBuf {
    ferastrau_target(bench).join(identity(bench))
}

/// A place in [`cache_dir`] (`<target>/ferastrau/<identity>/<leaf>`).
pub fn scratch_dir(bench: &BenchmarkCrate, leaf: &str) -> PathBuf {
    cache_dir(bench).join(leaf)
}

/// The work directory of a benchmark's worker variant (`original`, `metamutant`, ...) under
/// the engine chosen: a Korat worker's is `worker-<variant>`, another engine's
/// `worker-<variant>-<engine>` (its own main, package and binary, so that runs of both engines
/// keep both workers built).
pub fn work_dir(bench: &BenchmarkCrate, variant: &str) -> PathBuf {
    let engine = if bench.engine.is_korat() {
        String::new()
    } else {
        format!("-{}", bench.engine)
    };
    scratch_dir(bench, &format!("worker-{variant}{engine}"))
}

/// An exclusive advisory lock on `path`, held until the returned file is dropped; waits for
/// another holder, calling `waiting` once first (to say so).
pub fn lock_file(path: &Path, waiting: impl FnOnce()) -> Result<std::fs::File> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).with_context(|| format!("cannot create {}", d.display()))?;
    }
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match f.try_lock() {
        Ok(()) => return Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => waiting(),
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
    f.lock()
        .with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(f)
}
