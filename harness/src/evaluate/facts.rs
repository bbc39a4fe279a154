//! What an evaluation is of besides its results: the fingerprint its journal is written under
//! (everything the results depend on: a resumed or merged run must match it) and the facts
//! its reports are made of (the mutants listed with their keys and families, the probes, the
//! run's marks). Computed by the command's run
//! once its mutants are chosen ([`super::command`]).

use std::collections::BTreeMap;

use anyhow::Result;

use super::command::Options;
use super::report;
use crate::fingerprint::{tree_hash, ContentHash, Fingerprint};
use crate::locate::BenchmarkCrate;
use crate::subject;

/// The fingerprint of an evaluation: everything its results depend on.
pub(super) fn fingerprint(
    bench: &BenchmarkCrate,
    subject: &subject::MetamutantBuild,
    catalog: &ferastrau_mutator::Catalog,
    viable: &[u32],
    skipped: &BTreeMap<u32, String>,
    options: &Options,
) -> Result<Fingerprint> {
    let mut h = ContentHash::default();
    for m in catalog.mutants.iter().filter(|m| viable.contains(&m.id)) {
        h.feed(serde_json::to_string(m)?.as_bytes());
    }
    Ok(Fingerprint {
        tool: env!("CARGO_PKG_VERSION").to_string(),
        benchmark: bench.name.clone(),
        crate_dir: bench.dir.display().to_string(),
        source: tree_hash(&bench.dir)?,
        worker: subject.worker.hash.clone(),
        mutants: viable.to_vec(),
        catalog: h.hex(),
        sample: options.sample.map(|s| (s.max_mutants, s.seed)),
        scopes: (*options.scopes.start(), *options.scopes.end()),
        limits: options.limits,
        memory_limit: options.memory_limit,
        original_timeout_ms: options.original_timeout.as_millis() as u64,
        shard: options.shard,
        skipped: skipped.clone().into_iter().collect(),
        comparison: options.comparison,
        engine: bench.engine,
    })
}

/// What the reports are made of besides results: the listed mutants with their keys, the
/// probes and the run's marks.
pub(super) fn facts(
    bench: &BenchmarkCrate,
    subject: &subject::MetamutantBuild,
    catalog: &ferastrau_mutator::Catalog,
    options: &Options,
    partial_diff: bool,
    skipped: &BTreeMap<u32, String>,
) -> Result<report::Facts> {
    let marks = report::Marks {
        in_diff: options
            .in_diff
            .as_ref()
            .filter(|_| partial_diff)
            .map(|diff| diff.display().to_string()),
        // A sample that leaves mutants out is a subset; one at least as large as the
        // catalog is the whole crate.
        sample: options
            .sample
            .filter(|s| (s.max_mutants as usize) < subject.meta.catalog.viable().count()),
        only_mutants: (!options.only_mutants.is_empty()).then(|| {
            let mut ids = options.only_mutants.clone();
            ids.sort_unstable();
            ids.dedup();
            ids
        }),
        comparison: options.comparison,
        engine: bench.engine,
        untested: ferastrau_mutator::untested_public(&bench.dir)?,
        equivalents_counted: options.count_equivalents,
    };
    // Keys over the whole catalog, so that a sample's keys are those of the full run.
    let keys = ferastrau_mutator::keys_by_id(&subject.meta.catalog.mutants);
    let listed = catalog
        .mutants
        .iter()
        .map(|m| report::listed(m, keys.get(&m.id).cloned()))
        .collect();
    Ok(report::Facts {
        benchmark: bench.name.clone(),
        listed,
        probes: subject
            .meta
            .probes
            .iter()
            .map(report::probe)
            .collect::<Result<_>>()?,
        marks,
        skipped: catalog
            .viable()
            .filter_map(|m| Some((m.id, skipped.get(&m.id)?.clone())))
            .collect(),
        compiler: report::compiler_verdicts(&subject.meta, catalog),
    })
}
