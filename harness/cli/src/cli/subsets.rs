//! `subsets`: Table 3 (random subsets) and the test-suite reduction, from kill matrices.

use anyhow::{Context, Result};

use super::args::SubsetsArgs;
use ferastrau_harness::subsets::{self, table, PaperLine, Report};

/// `subsets` on every directory of `a`, each report with the line `reference` gives for it:
/// none for `ferastrau subsets`, the paper's for `ferastrau-paper table3`, so that one command
/// serves both.
pub fn cmd_subsets(
    a: SubsetsArgs,
    reference: &dyn Fn(&Report) -> Result<Option<PaperLine>>,
) -> Result<()> {
    let opts = subsets::Sampling {
        samples: a.random_samples,
        seed: a.seed,
    };
    let mut reports = Vec::new();
    for dir in &a.dirs {
        // Not while a run holds the directory: its kill matrices are being replaced.
        let _reading = ferastrau_harness::outdir::OutputDir::read(dir)?;
        let report = table::compute_and_write(dir, &opts, reference, !a.no_render)
            .with_context(|| format!("{}", dir.display()))?;
        reports.push(report);
    }
    let md = table::markdown(&reports);
    if let Some(path) = &a.markdown {
        std::fs::write(path, &md).with_context(|| format!("cannot write {}", path.display()))?;
    }
    print!("{md}");
    Ok(())
}
