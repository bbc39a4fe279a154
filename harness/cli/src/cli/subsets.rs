//! `subsets`: Table 3 (random subsets) and the test-suite reduction, from kill matrices.

use anyhow::{Context, Result};

use super::args::SubsetsArgs;
use ferastrau_harness::subsets::{self, table};

pub(super) fn cmd_subsets(a: SubsetsArgs) -> Result<()> {
    let opts = subsets::Options {
        samples: a.random_samples,
        seed: a.seed,
    };
    let reference = ferastrau_paper::table3::reference(a.paper.as_deref());
    let mut reports = Vec::new();
    for dir in &a.dirs {
        let report = table::compute_and_write(dir, &opts, &reference, !a.no_render)
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
