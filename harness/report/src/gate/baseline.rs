//! The baseline file: per benchmark, each gated scope's figures and each mutant's key with the
//! scopes that killed it, written one line per mutant so that a change reads as a short diff.

use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_artifacts::Artifact;

use ferastrau_console::exit_code::usage;

/// A baseline file: every gated benchmark (`reports/gate-baseline.json`).
pub use ferastrau_artifacts::GateBaseline;
/// One benchmark's baseline, and a scope's figures as `evaluation.json` has them.
pub use ferastrau_artifacts::{BenchmarkBaseline, ScopeFigures};

/// The baseline file's format version.
pub const VERSION: u32 = GateBaseline::SCHEMA_VERSION;

/// Reads the baseline at `path` (an absent file is an empty baseline).
pub fn read_baseline(path: &Path) -> Result<GateBaseline> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(GateBaseline {
                schema_version: VERSION,
                ..GateBaseline::default()
            })
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        Ok(_) => {}
    }
    // Not a baseline of this version (edited, or written by a newer ferastrau): a usage
    // error naming the file and the versions.
    GateBaseline::read(path).map_err(|e| usage(format!("{e:#}")))
}

/// Writes `baseline` to `path` atomically.
pub fn write_baseline(path: &Path, baseline: &GateBaseline) -> Result<()> {
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    baseline.write(path)?;
    // A file meant to be committed: readable by all, like any other in the repository.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))?;
    Ok(())
}

/// An exclusive lock for updating the baseline at `path`, held until dropped; waits for
/// another holder. The lock is on the file's directory, not the file: the file is replaced by
/// an atomic rename, so a lock on it would be on an inode the next reader never opens, and a
/// lock file beside it would be one more file in the user's repository.
pub fn lock_for_update(path: &Path) -> Result<std::fs::File> {
    let dir = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let f = std::fs::File::open(&dir).with_context(|| format!("cannot open {}", dir.display()))?;
    f.lock()
        .with_context(|| format!("cannot lock {} to update {}", dir.display(), path.display()))?;
    Ok(f)
}

/// The baseline as JSON with one line per mutant, so that a change of baseline reads as a
/// short diff in review.
#[cfg(test)]
pub(crate) fn render(baseline: &GateBaseline) -> Result<String> {
    baseline.to_text()
}
