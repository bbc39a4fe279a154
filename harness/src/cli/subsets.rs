//! `subsets`: Table 3 (random subsets) and the test-suite reduction, from kill matrices.

use anyhow::{Context, Result};

use super::args::SubsetsArgs;
use crate::subsets;

pub(super) fn cmd_subsets(a: SubsetsArgs) -> Result<()> {
    let opts = subsets::Options {
        samples: a.random_samples,
        seed: a.seed,
    };
    let mut reports = Vec::new();
    for dir in &a.dirs {
        let report = subsets::compute(dir, &opts, a.paper.as_deref())
            .with_context(|| format!("{}", dir.display()))?;
        subsets::write(dir, &report)?;
        if !a.no_render {
            let m = crate::matrix::file::read(dir, report.scope)?;
            let suite = subsets::export::render(&m, &report.reduction.suite)?;
            subsets::export::write(dir, &suite)?;
        }
        reports.push(report);
    }
    let md = subsets::render::markdown(&reports);
    if let Some(path) = &a.markdown {
        std::fs::write(path, &md).with_context(|| format!("cannot write {}", path.display()))?;
    }
    print!("{md}");
    Ok(())
}
