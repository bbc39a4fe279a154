//! What an evaluation is of besides its results: the fingerprint its journal is written under
//! (everything the results depend on: a resumed or merged run must match it) and the facts
//! its reports are made of (the mutants listed with their keys, the paper's families, the
//! probes, the run's marks). Apart from the run ([`super::evaluate`]), which computes both
//! once its mutants are chosen.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;

use super::args::*;
use ferastrau_harness::evaluate::report;
use ferastrau_harness::fingerprint::{tree_hash, Fingerprint, Hasher};
use ferastrau_harness::locate::BenchmarkCrate;
use ferastrau_harness::subject;

/// The fingerprint of an evaluation: everything its results depend on.
pub(super) fn fingerprint(
    bench: &BenchmarkCrate,
    subject: &subject::Subject,
    catalog: &ferastrau_mutator::Catalog,
    viable: &[u32],
    skipped: &BTreeMap<u32, String>,
    a: &EvaluateArgs,
    limits: ferastrau_protocol::Limits,
) -> Result<Fingerprint> {
    let mut h = Hasher::default();
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
        sample: a
            .sampling
            .max_mutants
            .map(|n| (n as usize, a.sampling.seed)),
        scopes: (*a.scopes.start(), *a.scopes.end()),
        limits,
        memory_limit: a.original.memory_limit,
        original_timeout_ms: a.original.original_timeout.as_millis() as u64,
        shard: a.shard,
        skipped: skipped.clone().into_iter().collect(),
        comparison: a.compare,
        engine: bench.engine,
    })
}

/// What the reports are made of besides results: the listed mutants with their keys, the
/// paper's families, the probes and the run's marks.
pub(super) fn facts(
    bench: &BenchmarkCrate,
    subject: &subject::Subject,
    catalog: &ferastrau_mutator::Catalog,
    a: &EvaluateArgs,
    partial_diff: bool,
    skipped: &BTreeMap<u32, String>,
) -> Result<report::Facts> {
    let paper: BTreeSet<u32> = catalog
        .viable()
        .filter(|m| m.family != ferastrau_mutator::Family::Constant)
        .filter(|m| !skipped.contains_key(&m.id))
        .map(|m| m.id)
        .collect();
    let marks = report::Marks {
        in_diff: a
            .in_diff
            .as_ref()
            .filter(|_| partial_diff)
            .map(|diff| diff.display().to_string()),
        // A sample that leaves mutants out is a subset; one at least as large as the
        // catalog is the whole crate.
        sample: a
            .sampling
            .max_mutants
            .filter(|&n| (n as usize) < subject.meta.catalog.viable().count())
            .map(|max_mutants| ferastrau_artifacts::SampleMark {
                max_mutants,
                seed: a.sampling.seed,
            }),
        only_mutants: (!a.only_mutants.is_empty()).then(|| {
            let mut ids = a.only_mutants.clone();
            ids.sort_unstable();
            ids.dedup();
            ids
        }),
        comparison: a.compare,
        engine: bench.engine,
        untested: ferastrau_mutator::untested_public(&bench.dir)?,
        equivalents_counted: a.count_equivalents,
    };
    // Keys over the whole catalog, so that a sample's keys are those of the full run.
    let all = &subject.meta.catalog.mutants;
    let keys: BTreeMap<u32, String> = all
        .iter()
        .map(|m| m.id)
        .zip(ferastrau_mutator::keys(all))
        .collect();
    let listed = catalog
        .mutants
        .iter()
        .map(|m| report::listed(m, keys.get(&m.id).cloned()))
        .collect();
    Ok(report::Facts {
        benchmark: bench.name.clone(),
        listed,
        paper,
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
