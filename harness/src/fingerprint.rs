//! What makes two runs the same run: the fingerprint a journal is written under, and the
//! content hashes it is made of.
//!
//! `--resume` continues a journal only if every part of the fingerprint is equal, and says
//! which parts differ otherwise: results of one program, limit or mutant set never mix with
//! another's.

use std::path::Path;

use anyhow::{Context, Result};

/// The workspace's one content hash (FNV-1a, 64 bits), the mutator's: fingerprints and
/// content-addressed binary names hash as the metamutant's cache key does.
pub use ferastrau_mutator::ContentHash;

/// The hash of a file's contents.
pub fn file_hash(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(ContentHash::default().feed(&bytes).hex())
}

/// The hash of a crate's files (paths and contents), skipping `target/` and hidden entries:
/// any edit of the benchmark's source or manifest changes it.
pub fn tree_hash(dir: &Path) -> Result<String> {
    let files = crate_files(dir)?.into_iter().filter(|rel| {
        let name = Path::new(rel).file_name().map(|n| n.to_string_lossy());
        !name.is_some_and(|n| n.starts_with('.') || n == "Cargo.lock" || n == "target")
    });
    let mut h = ContentHash::default();
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

/// Everything a run's results depend on, as the journal's header, `shard.json` and the kill
/// matrix's header hold it: one type for the run and its files.
pub use ferastrau_artifacts::Fingerprint;

/// The parts of the fingerprint `now` that differ from `then`'s, in words.
pub fn differences(now: &Fingerprint, then: &Fingerprint) -> Vec<String> {
    let mut d = Vec::new();
    let mut part = |differs: bool, what: String| {
        if differs {
            d.push(what);
        }
    };
    part(
        now.tool != then.tool,
        format!("the tool version ({} then, {} now)", then.tool, now.tool),
    );
    part(
        now.benchmark != then.benchmark || now.crate_dir != then.crate_dir,
        format!(
            "the benchmark ({} at {} then, {} at {} now)",
            then.benchmark, then.crate_dir, now.benchmark, now.crate_dir
        ),
    );
    part(
        now.source != then.source,
        "the benchmark's source (a file was edited, added or removed)".into(),
    );
    part(
        now.worker != then.worker,
        "the compiled worker (the metamutant or the tool was rebuilt differently)".into(),
    );
    part(
        now.mutants != then.mutants || now.catalog != then.catalog,
        "the mutant set".into(),
    );
    part(
        now.sample != then.sample,
        format!(
            "the sample (--max-mutants/--seed {:?} then, {:?} now)",
            then.sample, now.sample
        ),
    );
    part(
        now.scopes != then.scopes,
        format!(
            "the scopes ({}..{} then, {}..{} now)",
            then.scopes.0, then.scopes.1, now.scopes.0, now.scopes.1
        ),
    );
    part(
        now.limits != then.limits
            || now.memory_limit != then.memory_limit
            || now.original_timeout_ms != then.original_timeout_ms,
        "the limits (ticks, clock, memory or the original's timeout)".into(),
    );
    part(
        now.comparison != then.comparison,
        format!(
            "the comparison (--compare {} then, {} now)",
            then.comparison, now.comparison
        ),
    );
    part(
        now.engine != then.engine,
        format!(
            "the engine that makes the inputs (--engine {} then, {} now)",
            then.engine, now.engine
        ),
    );
    part(
        now.skipped != then.skipped,
        "the mutants left unrun: the skip list ([package.metadata.ferastrau] skip), or the compiler's equivalent and duplicate mutants under another counting rule (--count-equivalents)".into(),
    );
    let shard = |s: Option<ferastrau_artifacts::Shard>| s.map_or("none".into(), |s| s.to_string());
    part(
        now.shard != then.shard,
        format!(
            "the shard ({} then, {} now)",
            shard(then.shard),
            shard(now.shard)
        ),
    );
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a_with_separators() {
        // Stable across machines: a fixed value, not whatever the toolchain's hasher gives.
        assert_eq!(ContentHash::default().feed(b"").hex(), "af64724c8602eb6e");
        let ab_c = ContentHash::default().feed(b"ab").feed(b"c").hex();
        let a_bc = ContentHash::default().feed(b"a").feed(b"bc").hex();
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
