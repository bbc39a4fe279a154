//! `merge`: the shards of a run put back together, written as `evaluate` writes one run.

use anyhow::Result;

use super::args::MergeArgs;
use super::evaluate::verdict;
use ferastrau_console::exit_code::{broken, usage};
use ferastrau_harness::evaluate::{health, report};
use ferastrau_harness::outdir::OutputDir;
use ferastrau_harness::shard;

pub(super) fn cmd_merge(a: MergeArgs) -> Result<()> {
    // Merging into a shard's own directory would remove the record it was merged from.
    let same = |p: &std::path::Path| p.canonicalize().ok();
    if let Some(d) = a
        .shards
        .iter()
        .find(|d| same(d).is_some() && same(d) == same(&a.out))
    {
        return Err(usage(format!(
            "--out {} is one of the shards: merge into a directory of its own",
            d.display()
        )));
    }
    // The directory is locked and its old reports cleared before the shards are checked: a
    // refused merge must not leave an earlier merge's reports to be gated as this one's.
    let out = OutputDir::lock(&a.out)?;
    // Each shard's directory is read under its lock: a shard still being evaluated (or
    // evaluated again) is refused, naming its run. Held until the merge is written.
    let _reading = match a
        .shards
        .iter()
        .map(|d| OutputDir::read(d))
        .collect::<Result<Vec<_>>>()
    {
        Ok(r) => r,
        Err(e) => {
            super::evaluate::clear_reports(&out.path)?;
            return Err(e);
        }
    };
    let m = match shard::merge(&a.shards) {
        Ok(m) => m,
        Err(e) => {
            // `lock` refused a directory of the user's: what is here is ferastrau's.
            super::evaluate::clear_reports(&out.path)?;
            return Err(e);
        }
    };
    out.claim(&m.facts.benchmark, std::path::Path::new(&m.run.crate_dir))?;
    super::evaluate::clear_reports(&out.path)?;
    // The verdict of the whole run, on the merged results: a shard does not judge its share.
    let why = verdict(
        health::verdict(&m.scopes, &m.results, m.evaluated.len()),
        m.facts.marks.in_diff.is_some(),
        &m.evaluated,
    );
    let extra = report::Extra {
        broken: why.clone(),
        shard: None,
    };
    let rows = report::publish(
        &out.path,
        &m.facts,
        &m.scopes,
        &m.results,
        &m.evaluated,
        &extra,
    )?;
    let crate_dir = std::path::Path::new(&m.run.crate_dir);
    let sources = ferastrau_report::html::Sources::Disk(crate_dir.to_path_buf());
    ferastrau_report::html::write(&out.path, &sources)?;
    if a.output.json() {
        super::commands::print_document(&ferastrau_artifacts::MergeSummary {
            run: report::run_reports(&out.path, m.evaluated.len())?,
            shards: u32::try_from(a.shards.len())?,
        })?;
    } else {
        anstream::print!(
            "{}",
            ferastrau_harness::evaluate::table::table(&m.facts.benchmark, &rows)
        );
        println!(
            "{} shards of {} mutants merged; reports in {}",
            a.shards.len(),
            m.evaluated.len(),
            out.path.display()
        );
    }
    if let Some(why) = why {
        return Err(broken(format!(
            "the run is broken, its kill rate means nothing: {why} (reports in {}, marked \"broken\")",
            out.path.display()
        )));
    }
    Ok(())
}
