//! `subsets`: random subsets of the largest scope against the scope below, and the test-suite
//! reduction, from kill matrices.

use anyhow::{Context, Result};

use super::args::SubsetsArgs;
use ferastrau_harness::subsets::{self, table};

/// `subsets` on every directory of `a`, its Markdown with the caller's `columns` after ours:
/// none for `ferastrau subsets`, published figures for a caller that has them, so that one
/// command serves both.
pub fn cmd_subsets(a: SubsetsArgs, columns: &dyn table::Columns) -> Result<()> {
    let opts = subsets::Sampling {
        samples: a.random_samples,
        seed: a.seed,
    };
    let sets: Vec<_> = (!a.families.is_empty())
        .then_some(a.families)
        .into_iter()
        .collect();
    let mut reports = Vec::new();
    for dir in &a.dirs {
        // Not while a run holds the directory: its kill matrices are being replaced.
        let _reading = ferastrau_harness::outdir::OutputDir::read(dir)?;
        let report = table::compute_and_write(dir, &opts, &sets, !a.no_render)
            .with_context(|| format!("{}", dir.display()))?;
        reports.push(report);
    }
    let md = table::markdown(&reports, columns);
    if let Some(path) = &a.markdown {
        std::fs::write(path, &md).with_context(|| format!("cannot write {}", path.display()))?;
    }
    print!("{md}");
    Ok(())
}
