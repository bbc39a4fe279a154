//! The baseline file: per benchmark, each gated scope's figures and each mutant's key with the
//! scopes that killed it, written one line per mutant so that a change reads as a short diff.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::exit_code::usage;

/// The baseline file's format version.
pub const VERSION: u32 = 1;

/// A baseline file: every gated benchmark.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    pub version: u32,
    pub benchmarks: BTreeMap<String, BenchmarkBaseline>,
}

/// One benchmark's baseline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchmarkBaseline {
    pub scopes: BTreeMap<u32, ScopeFigures>,
    /// Every evaluated mutant's key, with the scopes that killed it (empty: it survived all).
    pub mutants: BTreeMap<String, Vec<u32>>,
}

/// A scope's figures, as `evaluation.json` has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopeFigures {
    pub mutants: usize,
    pub killed: usize,
    pub kill_rate: f64,
    pub statement_coverage: f64,
    pub branch_coverage: f64,
}

/// Reads the baseline at `path` (an absent file is an empty baseline).
pub fn read_baseline(path: &Path) -> Result<Baseline> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Baseline {
                version: VERSION,
                ..Baseline::default()
            })
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let b: Baseline = serde_json::from_str(&text)
        .map_err(|e| usage(format!("{} is not a baseline: {e}", path.display())))?;
    if b.version != VERSION {
        return Err(usage(format!(
            "{} is a version {} baseline; this tool writes version {VERSION} (run with --update-baseline)",
            path.display(),
            b.version
        )));
    }
    Ok(b)
}

/// Writes `baseline` to `path` atomically.
pub fn write_baseline(path: &Path, baseline: &Baseline) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    std::io::Write::write_all(&mut tmp, render(baseline)?.as_bytes())?;
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    // A file meant to be committed: readable by all, like any other in the repository.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))?;
    Ok(())
}

/// The baseline as JSON with one line per mutant, so that a change of baseline reads as a
/// short diff in review.
pub(crate) fn render(baseline: &Baseline) -> Result<String> {
    let mut t = format!(
        "{{\n  \"version\": {},\n  \"benchmarks\": {{",
        baseline.version
    );
    for (i, (name, b)) in baseline.benchmarks.iter().enumerate() {
        let scopes = serde_json::to_string_pretty(&b.scopes)?.replace('\n', "\n      ");
        let _ = write!(
            t,
            "{}\n    {}: {{\n      \"scopes\": {scopes},\n      \"mutants\": {{",
            if i > 0 { "," } else { "" },
            serde_json::to_string(name)?
        );
        for (j, (key, killed)) in b.mutants.iter().enumerate() {
            let _ = write!(
                t,
                "{}\n        {}: {}",
                if j > 0 { "," } else { "" },
                serde_json::to_string(key)?,
                serde_json::to_string(killed)?
            );
        }
        t.push_str("\n      }\n    }");
    }
    t.push_str("\n  }\n}\n");
    Ok(t)
}
