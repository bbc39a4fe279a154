//! A mutant as plain source: the edited file, a unified diff of it, and a crate copy with
//! just that mutant applied (no switches, no probes).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::catalog::Mutant;
use crate::manifest::Manifest;
use crate::metamutant::prepare_copy;
use crate::rewrite::offset_of;

/// The text of `mutant.file` with the mutant's edit applied (the paper's `left/*temp*/`
/// form). Fails if the source no longer holds the text the catalog recorded.
pub fn mutated_source(crate_dir: &Path, mutant: &Mutant) -> Result<(String, String)> {
    let path = crate_dir.join(&mutant.file);
    let original = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mutated = mutate_text(&original, mutant)?;
    Ok((original, mutated))
}

/// `original` (the text of `mutant.file`) with the mutant's edit applied. Fails if the text
/// does not hold what the catalog recorded.
pub fn mutate_text(original: &str, mutant: &Mutant) -> Result<String> {
    let e = &mutant.edit;
    let (a, b) = (offset_of(original, e.start), offset_of(original, e.end));
    if original.get(a..b) != Some(e.old.as_str()) {
        bail!(
            "{}:{}:{} no longer reads `{}`: the source changed since mutant {} was listed",
            mutant.file,
            e.start.line,
            e.start.column,
            e.old,
            mutant.id
        );
    }
    Ok(format!("{}{}{}", &original[..a], e.new, &original[b..]))
}

/// An ordinary unified diff (3 lines of context) from the benchmark's source to the mutant.
pub fn diff(crate_dir: &Path, mutant: &Mutant) -> Result<String> {
    let (original, _) = mutated_source(crate_dir, mutant)?;
    diff_text(&original, mutant)
}

/// [`diff`] of `original`, the text of `mutant.file` (a snapshot of the crate's source).
pub fn diff_text(original: &str, mutant: &Mutant) -> Result<String> {
    let mutated = mutate_text(original, mutant)?;
    Ok(similar::TextDiff::from_lines(original, &mutated)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{}", mutant.file), &format!("b/{}", mutant.file))
        .to_string())
}

/// Writes a copy of the crate in `out_dir` with only `mutant` applied, as plain source, and
/// returns that directory. It builds outside the workspace like the metamutant does.
pub fn single_mutant_crate(crate_dir: &Path, mutant: &Mutant, out_dir: &Path) -> Result<PathBuf> {
    let manifest = Manifest::read(crate_dir)?;
    let (_, mutated) = mutated_source(&manifest.dir, mutant)?;
    prepare_copy(&manifest, out_dir, &[])?;
    std::fs::write(out_dir.join(&mutant.file), mutated)?;
    Ok(out_dir.to_path_buf())
}
