//! `ferastrau merge` as one call: the shards of a run ([`crate::shard`]) put back together
//! and written as `evaluate` writes one run, the page drawn by the caller's [`Readers`].

use std::path::{Path, PathBuf};

use anyhow::Result;
use ferastrau_artifacts::MergeSummary;
use ferastrau_console::exit_code::usage;

use crate::evaluate::{clear_reports, health, report, verdict, Readers};
use crate::outdir::OutputDir;
use crate::shard;

/// What a merge wrote: the document `merge --format json` prints (`merge-stdout.schema.json`:
/// the merged `evaluation.json` as written, the mutants the whole run evaluated, the shards).
pub struct Summary {
    pub document: MergeSummary,
    pub out_dir: PathBuf,
}

/// Merges the shards in `shards` into `out`.
pub fn run<R: Readers>(shards: &[PathBuf], out: &Path, readers: &R) -> Result<Summary> {
    // Merging into a shard's own directory would remove the record it was merged from.
    let same = |p: &Path| p.canonicalize().ok();
    if let Some(d) = shards
        .iter()
        .find(|d| same(d).is_some() && same(d) == same(out))
    {
        return Err(usage(format!(
            "--out {} is one of the shards: merge into a directory of its own",
            d.display()
        )));
    }
    // The directory is locked and its old reports cleared before the shards are checked: a
    // refused merge must not leave an earlier merge's reports to be gated as this one's.
    let out = OutputDir::lock(out)?;
    // Each shard's directory is read under its lock: a shard still being evaluated (or
    // evaluated again) is refused, naming its run. Held until the merge is written.
    let _reading = match shards
        .iter()
        .map(|d| OutputDir::read(d))
        .collect::<Result<Vec<_>>>()
    {
        Ok(r) => r,
        Err(e) => {
            clear_reports(&out.path, R::FILES)?;
            return Err(e);
        }
    };
    let m = match shard::merge(shards) {
        Ok(m) => m,
        Err(e) => {
            // `lock` refused a directory of the user's: what is here is ferastrau's.
            clear_reports(&out.path, R::FILES)?;
            return Err(e);
        }
    };
    out.claim(&m.facts.benchmark, Path::new(&m.run.crate_dir))?;
    clear_reports(&out.path, R::FILES)?;
    // The verdict of the whole run, on the merged results: a shard does not judge its share.
    let broken = verdict(
        health::verdict(&m.scopes, &m.results, m.evaluated.len()),
        m.facts.marks.in_diff.is_some(),
        &m.evaluated,
    );
    let extra = report::Extra {
        broken: broken.clone(),
        shard: None,
    };
    report::publish(
        &out.path,
        &m.facts,
        &m.scopes,
        &m.results,
        &m.evaluated,
        &extra,
    )?;
    let sources = readers.on_disk(Path::new(&m.run.crate_dir));
    readers.draw(&out.path, &sources, 0)?;
    Ok(Summary {
        document: MergeSummary {
            run: report::run_reports(&out.path, m.evaluated.len())?,
            shards: u32::try_from(shards.len())?,
        },
        out_dir: out.path.clone(),
    })
}
