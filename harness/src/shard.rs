//! Sharded runs: `evaluate --shard k/n` evaluates a deterministic share of the mutants, and
//! `merge` puts the shares back together into the reports one unsharded run would write.
//!
//! The share is taken after sampling (`--max-mutants/--seed`) and `--in-diff`, so that every
//! shard samples the same mutants, and it is a mutant's position in the sorted list of the
//! run's evaluated mutants modulo `n`: stable, and balanced within one mutant. Nothing but the
//! results travels between machines: each shard regenerates the inputs (Korat is
//! deterministic) and runs the original itself. A shard's directory holds, beside its own
//! reports (marked `shard`, which `gate` refuses), a [`Record`] in `shard.json`: the run's
//! fingerprint without the shard, its share, the per-scope facts every shard recomputes
//! (inputs, candidates, coverage, violations), and its results. [`merge`] refuses shards of
//! different runs, a share given twice or missing, and scope facts that disagree between
//! shards (a machine that generated other inputs is an error, never averaged).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::Result;

use ferastrau_artifacts::Artifact;

use crate::fingerprint::Fingerprint;
use ferastrau_artifacts::Facts;
use ferastrau_artifacts::ScopeResult;
use ferastrau_artifacts::ScopeRun;
use ferastrau_console::exit_code::{broken, usage};

/// The file a shard writes beside its reports.
pub const RECORD: &str = "shard.json";

/// Shard `index` of `count` (both from 1, as on the command line): the type `shard.json`
/// holds, with its parser and its share of the mutants.
pub use ferastrau_artifacts::Shard;

/// What a shard leaves for [`merge`] (`shard.json`).
pub use ferastrau_artifacts::ShardRecord;

/// The record of `shard`'s share of the run `run` (the whole run's `evaluated` mutants).
pub fn record(
    shard: Shard,
    run: &Fingerprint,
    evaluated: &[u32],
    facts: Facts,
    scopes: Vec<ScopeRun>,
    results: &[ScopeResult],
) -> ShardRecord {
    let mut run = run.clone();
    run.shard = None;
    ShardRecord {
        schema_version: ShardRecord::SCHEMA_VERSION,
        shard,
        run: run.clone(),
        evaluated: evaluated.to_vec(),
        share: shard.share(evaluated),
        facts,
        scopes,
        results: results.to_vec(),
    }
}

/// Writes `record` into the shard's directory `dir`.
pub fn write(dir: &Path, record: ShardRecord) -> Result<()> {
    record.write(&dir.join(RECORD))
}

/// Reads the record of the shard directory `dir`.
pub fn read(dir: &Path) -> Result<ShardRecord> {
    let path = dir.join(RECORD);
    if !path.is_file() {
        return Err(usage(format!(
            "{} is not a shard's directory (it has no {RECORD}): merge takes the --out directories of `evaluate --shard k/n` runs",
            dir.display()
        )));
    }
    // A record this build cannot read (another version, edited) is a usage error, naming it.
    let r = ShardRecord::read(&path).map_err(|e| usage(format!("{e:#}")))?;
    let shard = r.shard;
    if r.share != shard.share(&r.evaluated)
        || r.results.iter().any(|x| !r.share.contains(&x.mutant))
    {
        return Err(usage(format!(
            "{}: the results are not shard {}'s share of the run (the file was edited)",
            path.display(),
            shard
        )));
    }
    Ok(r)
}

/// The shards of one run, put together: what an unsharded run would have produced.
pub struct Merged {
    pub run: Fingerprint,
    pub evaluated: Vec<u32>,
    pub facts: Facts,
    pub scopes: Vec<ScopeRun>,
    pub results: Vec<ScopeResult>,
}

/// The facts of a scope that every shard recomputes and that must agree, with their names.
fn scope_differences(a: &ScopeRun, b: &ScopeRun) -> Vec<&'static str> {
    let mut d = Vec::new();
    let checks = [
        (a.scope == b.scope, "the scope"),
        (a.inputs == b.inputs, "inputs"),
        (a.candidates == b.candidates, "candidates"),
        (a.spec_probes == b.spec_probes, "specification coverage"),
        (a.code_probes == b.code_probes, "code coverage"),
        (
            a.violations == b.violations && a.violation_count == b.violation_count,
            "postcondition violations",
        ),
    ];
    for (same, what) in checks {
        if !same {
            d.push(what);
        }
    }
    d
}

/// Reads the shards in `dirs` and merges them; refuses (with [`usage`]) shards of different
/// runs, a shard given twice, a missing shard or a directory that is no shard, and (with
/// [`broken`]) shards that disagree on what every one of them recomputed.
pub fn merge(dirs: &[PathBuf]) -> Result<Merged> {
    let mut records: BTreeMap<u32, (PathBuf, ShardRecord)> = BTreeMap::new();
    let mut first: Option<(PathBuf, ShardRecord)> = None;
    for dir in dirs {
        let r = read(dir)?;
        if let Some((d0, r0)) = &first {
            same_run(dir, &r, d0, r0)?;
        } else {
            first = Some((dir.clone(), r.clone()));
        }
        if let Some((other, _)) = records.get(&r.shard.index) {
            return Err(usage(format!(
                "shard {} is given twice ({} and {}): each share must be merged once",
                r.shard,
                other.display(),
                dir.display()
            )));
        }
        records.insert(r.shard.index, (dir.clone(), r));
    }
    let Some((d0, r0)) = first else {
        return Err(usage("merge needs the directories of the shards"));
    };
    let missing: Vec<String> = (1..=r0.shard.count)
        .filter(|k| !records.contains_key(k))
        .map(|k| format!("{k}/{}", r0.shard.count))
        .collect();
    if !missing.is_empty() {
        return Err(usage(format!(
            "shard(s) {} of the run missing: a merge of part of the shards is not the run",
            missing.join(", ")
        )));
    }
    for (dir, r) in records.values() {
        same_scopes(dir, r, &d0, &r0)?;
    }
    let mut results: Vec<ScopeResult> = records
        .values()
        .flat_map(|(_, r)| r.results.iter().cloned())
        .collect();
    results.sort_by_key(|r| (r.mutant, r.scope));
    // Timings are shard 1's (whatever the order of the directories): the rest of each scope
    // is the same in every shard.
    let (_, one) = &records[&1];
    Ok(Merged {
        run: one.run.clone(),
        evaluated: one.evaluated.clone(),
        facts: one.facts.clone(),
        scopes: one.scopes.clone(),
        results,
    })
}

/// Checks that shard `r` (in `dir`) is of the same run as shard `r0` (in `d0`): split the same
/// way, of the same fingerprint, listing the same mutants, probes and marks.
fn same_run(dir: &Path, r: &ShardRecord, d0: &Path, r0: &ShardRecord) -> Result<()> {
    if r.shard.count != r0.shard.count {
        return Err(usage(format!(
            "{} is shard {} but {} is shard {}: the shards of one run are split the same way",
            dir.display(),
            r.shard,
            d0.display(),
            r0.shard
        )));
    }
    let differences = crate::fingerprint::differences(&r.run, &r0.run);
    if !differences.is_empty() {
        return Err(usage(format!(
            "{} (shard {}) is not of the same run as {} (shard {}): {}",
            dir.display(),
            r.shard,
            d0.display(),
            r0.shard,
            differences.join("; ")
        )));
    }
    if r.facts != r0.facts || r.evaluated != r0.evaluated {
        return Err(broken(format!(
            "{} (shard {}) and {} (shard {}) have the same fingerprint but list different mutants, probes or marks",
            dir.display(),
            r.shard,
            d0.display(),
            r0.shard
        )));
    }
    Ok(())
}

/// Checks that shard `r` (in `dir`) generated and ran at every scope what shard `r0` (in `d0`)
/// did.
fn same_scopes(dir: &Path, r: &ShardRecord, d0: &Path, r0: &ShardRecord) -> Result<()> {
    let scopes: BTreeSet<u32> = r.scopes.iter().map(|s| s.scope).collect();
    let scopes0: BTreeSet<u32> = r0.scopes.iter().map(|s| s.scope).collect();
    if scopes != scopes0 {
        return Err(usage(format!(
            "{} (shard {}) holds scopes {scopes:?}, {} (shard {}) {scopes0:?}: the records were edited",
            dir.display(),
            r.shard,
            d0.display(),
            r0.shard
        )));
    }
    for (a, b) in r.scopes.iter().zip(&r0.scopes) {
        let d = scope_differences(a, b);
        if !d.is_empty() {
            return Err(broken(format!(
                "shards {} ({}) and {} ({}) disagree at scope {} on {}: they did not generate or run the same thing; the merge would mean nothing",
                r.shard,
                dir.display(),
                r0.shard,
                d0.display(),
                a.scope,
                d.join(", ")
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_within_bounds() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/2000", "-1/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_shares_partition_the_mutants() {
        let mutants: Vec<u32> = (10..27).collect();
        for n in 1..=20 {
            let mut all: Vec<u32> = (1..=n)
                .flat_map(|k| Shard { index: k, count: n }.share(&mutants))
                .collect();
            all.sort_unstable();
            assert_eq!(all, mutants, "{n} shards");
        }
        assert_eq!(
            Shard { index: 2, count: 3 }.share(&mutants),
            [11, 14, 17, 20, 23, 26]
        );
    }
}
