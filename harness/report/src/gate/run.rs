//! The run being gated, read from the reports of an `evaluate` (or a `merge`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_artifacts::{Artifact, Evaluation, Mutants, Status};

use super::baseline::{BenchmarkBaseline, ScopeFigures};
use ferastrau_artifacts::MutantPlace;
use ferastrau_console::exit_code::usage;

/// Why a run of `--only-mutants` is refused, by the gate given its reports and by the gate
/// asked to run one.
pub const ONLY_MUTANTS: &str = "not the run a baseline describes, it cannot pass a gate or become a baseline (gate a run without --only-mutants)";

/// The run being gated, read from an `evaluate` output directory. (`Default`: an empty run,
/// for tests that build one by hand.)
#[derive(Default)]
pub struct GatedRun {
    pub benchmark: String,
    pub broken: Option<String>,
    /// Why only a subset of the crate's mutants was evaluated (`--in-diff` of some
    /// functions): the kill rate and coverage are not comparable with the baseline's, only
    /// each mutant's status is.
    pub partial: Option<String>,
    pub figures: BenchmarkBaseline,
    /// Mutants the crate's `skip` list names (not run), by key, with the reason.
    pub skipped: BTreeMap<String, String>,
    /// Where each key's mutant is, for messages: `src/tree.rs:67:15 SearchTree::add`.
    pub(crate) places: BTreeMap<String, String>,
    /// The mutants' readable edits, by key (`left/*temp*/`: the edit inline).
    pub(crate) edits: BTreeMap<String, String>,
    /// The evaluated mutants no input reached at any scope (they ran on nothing): what
    /// survives for want of a test, not for want of an oracle.
    pub(crate) unreached: std::collections::BTreeSet<String>,
}

impl GatedRun {
    /// Reads `evaluation.json` and `mutants.json` from `dir`.
    pub fn read(dir: &Path) -> Result<GatedRun> {
        let evaluation: Evaluation = read(&dir.join("evaluation.json"))?;
        let mutants: Mutants = read(&dir.join("mutants.json"))?;
        refuse_ungateable(dir, &evaluation)?;
        let mut figures = figures_of(&evaluation);
        let benchmark = evaluation.benchmark;
        let broken = evaluation.broken;
        // A diff's subset of the crate's mutants: its figures are not the crate's. (A diff
        // that selects every mutant makes a whole run, not marked.)
        let partial = evaluation
            .in_diff
            .map(|diff| format!("evaluated only the mutants of a diff (--in-diff {diff})"));
        let mut places = BTreeMap::new();
        let mut skipped = BTreeMap::new();
        let mut edits = BTreeMap::new();
        let mut unreached = std::collections::BTreeSet::new();
        for m in mutants.mutants {
            if m.scopes.is_empty() {
                continue; // not evaluated (not viable)
            }
            let key = m.key.with_context(|| {
                format!(
                    "{} has mutants without keys: re-run `evaluate` with this version",
                    dir.join("mutants.json").display()
                )
            })?;
            // Skipped mutants too: one the baseline killed is matched, to be listed as
            // skipped now.
            figures.places.insert(
                key.clone(),
                MutantPlace {
                    file: m.file.clone(),
                    function: m.function.clone(),
                    // The mutant's own place (an operator's), not its edit's start: the
                    // edits of `a && b && c`'s two operators both start at `a`.
                    line: m.line,
                    end_line: m.edit.end.line,
                    column: m.column,
                },
            );
            if let Some(reason) = m.skipped {
                skipped.insert(key, reason);
                continue;
            }
            let killed: Vec<u32> = m
                .scopes
                .iter()
                .filter(|(_, r)| r.status == Status::Killed)
                .map(|(&s, _)| s)
                .collect();
            places.insert(
                key.clone(),
                format!("{}:{}:{} {}", m.file, m.line, m.column, m.function),
            );
            if m.scopes.values().all(|r| r.executions == Some(0)) {
                unreached.insert(key.clone());
            }
            edits.insert(key.clone(), m.edit.new);
            figures.mutants.insert(key, killed);
        }
        figures.regions = super::identity::regions(&figures.places, &sources(dir)?);
        Ok(GatedRun {
            benchmark,
            broken,
            partial,
            figures,
            skipped,
            places,
            edits,
            unreached,
        })
    }

    /// `src/tree.rs:67:15 SearchTree::add: current -> parent/*current*/`.
    pub fn describe(&self, key: &str) -> String {
        format!(
            "{} ({}: {})",
            key,
            self.places.get(key).map_or("?", String::as_str),
            self.edits.get(key).map_or("?", String::as_str)
        )
    }
}

/// Refuses a run the gate cannot compare with a baseline: one shard of it, a structural
/// comparison, or mutants chosen by hand.
fn refuse_ungateable(dir: &Path, evaluation: &Evaluation) -> Result<()> {
    if evaluation.shard.is_some() {
        return Err(usage(format!(
            "{} holds one shard of a run: merge the shards (`ferastrau merge`) and gate the result",
            dir.display()
        )));
    }
    if evaluation.comparison != ferastrau_protocol::Comparison::Abstract {
        return Err(usage(format!(
            "{} holds a run with --compare {}: the gate and its baselines compare abstract values (run evaluate without --compare)",
            dir.display(),
            evaluation.comparison
        )));
    }
    // Mutants chosen by hand: the others (those that now survive, say) are compared with
    // nothing, so such a run proves nothing about the crate, whatever its mutants did.
    if let Some(ids) = &evaluation.only_mutants {
        return Err(usage(format!(
            "{} holds a run of {} mutant(s) chosen with --only-mutants: {ONLY_MUTANTS}",
            dir.display(),
            ids.len()
        )));
    }
    Ok(())
}

/// The run's figures per scope, as a baseline holds them (its mutants still to be added).
fn figures_of(evaluation: &Evaluation) -> BenchmarkBaseline {
    let marked = evaluation
        .scopes
        .iter()
        .any(|s| s.compiler_equivalent + s.compiler_duplicate > 0);
    let mut figures = BenchmarkBaseline {
        sample: evaluation.sample,
        untested: Some(evaluation.untested.clone()),
        leaves_out_compiler_verdicts: marked && !evaluation.equivalents_counted,
        ..BenchmarkBaseline::default()
    };
    for s in &evaluation.scopes {
        let f: ScopeFigures = ScopeFigures {
            mutants: s.mutants,
            killed: s.killed,
            kill_rate: s.kill_rate,
            statement_coverage: s.statement_coverage,
            branch_coverage: s.branch_coverage,
        };
        figures.scopes.insert(s.scope, f);
    }
    figures
}

/// The source of each mutated file as the run evaluated it, out of its
/// `mutation-testing-report.json` (Stryker's format, whose `files` hold each file's `source`).
fn sources(dir: &Path) -> Result<BTreeMap<String, String>> {
    let path = dir.join(crate::stryker::FILE);
    if !path.is_file() {
        return Err(usage(format!(
            "cannot read {}: no such file",
            path.display()
        )));
    }
    let doc = crate::stryker::Document::read(&path)?;
    Ok(doc
        .files
        .into_iter()
        .map(|(name, f)| (name, f.source))
        .collect())
}

/// Reads a report of the run: a missing one is a usage error; one this build cannot read (not
/// this format, or written by a newer ferastrau) an error naming the file and its version.
fn read<T: Artifact>(path: &Path) -> Result<T> {
    std::fs::metadata(path).map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    T::read(path)
}
