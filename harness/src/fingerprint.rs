//! What makes two runs the same run: the fingerprint a journal is written under, and the
//! content hashes it is made of.
//!
//! `--resume` continues a journal only if every part of the fingerprint is equal, and says
//! which parts differ otherwise: results of one program, limit or mutant set never mix with
//! another's.

use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The workspace's one content hash (FNV-1a, 64 bits), the mutator's: fingerprints and
/// content-addressed binary names hash as the metamutant's cache key does.
pub use ferastrau_mutator::ContentHash as Hasher;

/// The hash of a file's contents.
pub fn file_hash(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(Hasher::default().feed(&bytes).hex())
}

/// The hash of a crate's files (paths and contents), skipping `target/` and hidden entries:
/// any edit of the benchmark's source or manifest changes it.
pub fn tree_hash(dir: &Path) -> Result<String> {
    let files = crate_files(dir)?.into_iter().filter(|rel| {
        let name = Path::new(rel).file_name().map(|n| n.to_string_lossy());
        !name.is_some_and(|n| n.starts_with('.') || n == "Cargo.lock" || n == "target")
    });
    let mut h = Hasher::default();
    for rel in files {
        let bytes = std::fs::read(dir.join(&rel))
            .with_context(|| format!("cannot read {}", dir.join(&rel).display()))?;
        h.feed(rel.as_bytes()).feed(&bytes);
    }
    Ok(h.hex())
}

/// Every regular file of the crate in `dir`, as a path relative to it, sorted: hidden
/// directories and `target/` left out. (The tree hash and `--in-diff`'s "is this diff about
/// this crate" both ask it; the hash also leaves out hidden files and `Cargo.lock`.)
pub fn crate_files(dir: &Path) -> Result<Vec<String>> {
    let mut files = Vec::new();
    collect(dir, dir, &mut files)?;
    files.sort();
    Ok(files)
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let kind = entry.file_type()?;
        if kind.is_dir() && (name.starts_with('.') || name == "target") {
            continue;
        }
        let path = entry.path();
        if kind.is_dir() {
            collect(root, &path, out)?;
        } else if kind.is_file() {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            out.push(rel.to_string_lossy().into_owned());
        }
    }
    Ok(())
}

impl From<ferastrau_artifacts::Fingerprint> for Fingerprint {
    fn from(f: ferastrau_artifacts::Fingerprint) -> Fingerprint {
        Fingerprint {
            tool: f.tool,
            benchmark: f.benchmark,
            crate_dir: f.crate_dir,
            source: f.source,
            worker: f.worker,
            mutants: f.mutants,
            catalog: f.catalog,
            sample: f.sample.map(|(n, seed)| (n as usize, seed)),
            scopes: f.scopes,
            limits: f.limits,
            memory_limit: f.memory_limit,
            original_timeout_ms: f.original_timeout_ms,
            shard: f.shard,
            skipped: f.skipped,
            comparison: f.comparison,
            engine: f.engine,
        }
    }
}

/// Everything a run's results depend on (the files hold it as
/// [`ferastrau_artifacts::Fingerprint`]: the same fields, the worker's and the shard's types
/// as the files have them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The `ferastrau` version that ran it.
    pub tool: String,
    /// The benchmark's package name and its directory.
    pub benchmark: String,
    pub crate_dir: String,
    /// [`tree_hash`] of the benchmark crate.
    pub source: String,
    /// The content hash of the worker binary (the compiled metamutant).
    pub worker: String,
    /// The evaluated mutants (ids) and a hash of their catalog entries.
    pub mutants: Vec<u32>,
    pub catalog: String,
    /// `--max-mutants` and `--seed`, when sampling.
    pub sample: Option<(usize, u64)>,
    pub scopes: (u32, u32),
    pub limits: ferastrau_protocol::Limits,
    pub memory_limit: u64,
    /// The original's clock limit per input, in milliseconds.
    pub original_timeout_ms: u64,
    /// `--shard k/n`: this run is one share of the run the other fields describe.
    #[serde(default)]
    pub shard: Option<ferastrau_artifacts::Shard>,
    /// The mutants the crate's `skip` list names, with their reasons (a list of pairs, not a
    /// map: the journal's header is read through an internally tagged enum, which cannot read
    /// numbers back from JSON object keys).
    #[serde(default)]
    pub skipped: Vec<(u32, String)>,
    /// `--compare`: what the mutants' outputs are compared by.
    #[serde(default)]
    pub comparison: ferastrau_protocol::Comparison,
    /// `--engine`: what made the inputs.
    #[serde(default)]
    pub engine: ferastrau_protocol::Engine,
}

impl Fingerprint {
    /// The fingerprint as the journal's header, `shard.json` and the kill matrix's header hold
    /// it.
    pub fn artifact(&self) -> ferastrau_artifacts::Fingerprint {
        ferastrau_artifacts::Fingerprint {
            tool: self.tool.clone(),
            benchmark: self.benchmark.clone(),
            crate_dir: self.crate_dir.clone(),
            source: self.source.clone(),
            worker: self.worker.clone(),
            mutants: self.mutants.clone(),
            catalog: self.catalog.clone(),
            sample: self.sample.map(|(n, seed)| (n as u32, seed)),
            scopes: self.scopes,
            limits: self.limits,
            memory_limit: self.memory_limit,
            original_timeout_ms: self.original_timeout_ms,
            shard: self.shard,
            skipped: self.skipped.clone(),
            comparison: self.comparison,
            engine: self.engine,
        }
    }

    /// The parts of `self` that differ from `other`, in words.
    pub fn differences(&self, other: &Fingerprint) -> Vec<String> {
        let mut d = Vec::new();
        let mut part = |differs: bool, what: String| {
            if differs {
                d.push(what);
            }
        };
        part(
            self.tool != other.tool,
            format!("the tool version ({} then, {} now)", other.tool, self.tool),
        );
        part(
            self.benchmark != other.benchmark || self.crate_dir != other.crate_dir,
            format!(
                "the benchmark ({} at {} then, {} at {} now)",
                other.benchmark, other.crate_dir, self.benchmark, self.crate_dir
            ),
        );
        part(
            self.source != other.source,
            "the benchmark's source (a file was edited, added or removed)".into(),
        );
        part(
            self.worker != other.worker,
            "the compiled worker (the metamutant or the tool was rebuilt differently)".into(),
        );
        part(
            self.mutants != other.mutants || self.catalog != other.catalog,
            "the mutant set".into(),
        );
        part(
            self.sample != other.sample,
            format!(
                "the sample (--max-mutants/--seed {:?} then, {:?} now)",
                other.sample, self.sample
            ),
        );
        part(
            self.scopes != other.scopes,
            format!(
                "the scopes ({}..{} then, {}..{} now)",
                other.scopes.0, other.scopes.1, self.scopes.0, self.scopes.1
            ),
        );
        part(
            self.limits != other.limits
                || self.memory_limit != other.memory_limit
                || self.original_timeout_ms != other.original_timeout_ms,
            "the limits (ticks, clock, memory or the original's timeout)".into(),
        );
        part(
            self.comparison != other.comparison,
            format!(
                "the comparison (--compare {} then, {} now)",
                other.comparison, self.comparison
            ),
        );
        part(
            self.engine != other.engine,
            format!(
                "the engine that makes the inputs (--engine {} then, {} now)",
                other.engine, self.engine
            ),
        );
        part(
            self.skipped != other.skipped,
            "the mutants left unrun: the skip list ([package.metadata.ferastrau] skip), or the compiler's equivalent and duplicate mutants under another counting rule (--count-equivalents)".into(),
        );
        let shard =
            |s: Option<ferastrau_artifacts::Shard>| s.map_or("none".into(), |s| s.to_string());
        part(
            self.shard != other.shard,
            format!(
                "the shard ({} then, {} now)",
                shard(other.shard),
                shard(self.shard)
            ),
        );
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a_with_separators() {
        // Stable across machines: a fixed value, not whatever the toolchain's hasher gives.
        assert_eq!(Hasher::default().feed(b"").hex(), "af64724c8602eb6e");
        let ab_c = Hasher::default().feed(b"ab").feed(b"c").hex();
        let a_bc = Hasher::default().feed(b"a").feed(b"bc").hex();
        assert_ne!(ab_c, a_bc);
    }

    #[test]
    fn a_tree_hash_sees_edits_additions_and_ignores_target() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("src")).unwrap();
        std::fs::write(d.path().join("src/lib.rs"), "fn a() {}").unwrap();
        let h0 = tree_hash(d.path()).unwrap();
        std::fs::create_dir_all(d.path().join("target")).unwrap();
        std::fs::write(d.path().join("target/x"), "build output").unwrap();
        assert_eq!(tree_hash(d.path()).unwrap(), h0);
        std::fs::write(d.path().join("src/lib.rs"), "fn a() { }").unwrap();
        let h1 = tree_hash(d.path()).unwrap();
        assert_ne!(h1, h0);
        std::fs::write(d.path().join("src/more.rs"), "").unwrap();
        assert_ne!(tree_hash(d.path()).unwrap(), h1);
    }
}
