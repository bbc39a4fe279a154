//! `gate --suite FILE`: a test suite's run (`suite.json`) against a baseline that is an earlier
//! run's `suite.json` (committed by the user). It fails (status 3) when a mutant the baseline's
//! suite killed survives now, when the kill rate falls more than `--tolerance` points (both
//! runs of the same mutants), or when it is under `--min-kill-rate`. Mutants are matched
//! through the change between the two sources ([`super::identity`]), as the gate of Korat's
//! inputs matches them: an edit that moves lines or adds identical edits renames no mutant.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_artifacts::{Artifact, MutantPlace};
use ferastrau_mutator::Catalog;

use super::compare::Thresholds;
use super::identity;
use ferastrau_artifacts::{SuiteRun, SuiteStatus as Status};
use ferastrau_console::exit_code::{usage, GateFailed};

/// Fills in `run`'s keys, places and regions from the catalog it ran and the crate's `sources`
/// (file → text, as the metamutant was built from them), so that it can serve as a baseline.
pub fn identify(run: &mut SuiteRun, catalog: &Catalog, sources: &BTreeMap<String, String>) {
    let keys = ferastrau_mutator::keys_by_id(&catalog.mutants);
    let mut places = BTreeMap::new();
    for v in &mut run.verdicts {
        let (Some(m), Some(key)) = (catalog.get(v.id), keys.get(&v.id)) else {
            continue;
        };
        v.key = Some(key.clone());
        places.insert(
            key.clone(),
            MutantPlace {
                file: m.file.clone(),
                function: m.function.clone(),
                line: m.line as u32,
                end_line: m.edit.end.line as u32,
                column: m.column as u32,
            },
        );
    }
    run.regions = identity::regions(&places, sources);
    run.places = places;
}

/// Gates `run` against the baseline at `baseline` (or makes `run` the baseline, with
/// `update`); the report goes to stdout, a failure is an error of [`GateFailed`].
pub fn gate(run: &SuiteRun, baseline: &Path, t: &Thresholds, update: bool) -> Result<()> {
    if update {
        run.write(baseline)
            .with_context(|| format!("cannot write {}", baseline.display()))?;
        println!(
            "suite baseline of {} updated in {} ({} mutants, {:.2}% killed)",
            run.benchmark,
            baseline.display(),
            run.mutants,
            run.kill_rate
        );
        return Ok(());
    }
    let base = read_baseline(baseline, run)?;
    let matching = identity::matching(&base.places, &base.regions, &run.places, &run.regions);
    let weaker = weaker(&base, run, &matching);
    let same_mutants = matching.edited.is_empty()
        && matching.renamed.len() == base.places.len()
        && base.mutants == run.mutants;
    let mut failures = Vec::new();
    if !weaker.is_empty() {
        failures.push(format!(
            "{} mutant(s) the baseline's suite killed survive now",
            weaker.len()
        ));
    }
    if same_mutants && run.kill_rate + t.tolerance < base.kill_rate {
        failures.push(format!(
            "the kill rate fell from {:.2}% to {:.2}%",
            base.kill_rate, run.kill_rate
        ));
    }
    if let Some(min) = t.min_kill_rate {
        if run.kill_rate < min {
            failures.push(format!(
                "the kill rate {:.2}% is under --min-kill-rate {min:.2}%",
                run.kill_rate
            ));
        }
    }
    let mut report = format!(
        "{} against its suite baseline: kill rate {:.2}% → {:.2}% ({} of {} mutants killed)\n",
        run.benchmark, base.kill_rate, run.kill_rate, run.killed, run.mutants
    );
    if !same_mutants {
        report.push_str(
            "the mutants differ from the baseline's (edited code or another selection): kill rates are not compared, mutants are\n",
        );
    }
    if !weaker.is_empty() {
        report.push_str("killed in the baseline, survive now:\n");
        for w in &weaker {
            let _ = writeln!(report, "  {w}");
        }
    }
    if failures.is_empty() {
        report.push_str("gate passed\n");
        print!("{report}");
        return Ok(());
    }
    print!("{report}");
    Err(anyhow::Error::new(GateFailed(format!(
        "suite gate failed: {}",
        failures.join("; ")
    ))))
}

/// The suite baseline in `baseline`, which must be `run`'s benchmark's.
fn read_baseline(baseline: &Path, run: &SuiteRun) -> Result<SuiteRun> {
    if !baseline.exists() {
        return Err(usage(format!(
            "no suite baseline at {}: make one with --update-baseline",
            baseline.display()
        )));
    }
    let base = SuiteRun::read(baseline).map_err(|e| {
        usage(format!(
            "{}: {e:#} (a suite baseline is a suite.json)",
            baseline.display()
        ))
    })?;
    if base.benchmark != run.benchmark {
        return Err(usage(format!(
            "{} is {}'s suite baseline, not {}'s",
            baseline.display(),
            base.benchmark,
            run.benchmark
        )));
    }
    Ok(base)
}

/// Killed in the baseline, survives now: each baseline mutant under the run's key for it
/// (none where the change edited its line, or its function is gone), as `place  key`.
fn weaker(base: &SuiteRun, run: &SuiteRun, matching: &identity::Matching) -> Vec<String> {
    let now: BTreeMap<&str, Status> = run
        .verdicts
        .iter()
        .filter_map(|v| Some((v.key.as_deref()?, v.status)))
        .collect();
    let mut weaker = Vec::new();
    for v in base.verdicts.iter().filter(|v| v.status == Status::Killed) {
        let Some(key) = v.key.as_deref() else {
            continue;
        };
        let Some(here) = matching.renamed.get(key).map(String::as_str) else {
            continue;
        };
        if now.get(here) == Some(&Status::Survived) {
            let place = run
                .places
                .get(here)
                .map(|p| format!("{}:{}:{}", p.file, p.line, p.column))
                .unwrap_or_default();
            weaker.push(format!("{place}  {here}"));
        }
    }
    weaker
}
