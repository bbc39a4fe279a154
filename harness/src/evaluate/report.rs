//! Reports of an evaluation: a row per scope, `evaluation.json`, `evaluation.csv` and
//! `mutants.json` on disk (the rows' table on stdout is in [`super::table`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_artifacts::{
    Artifact, CompilerVerdict, Construct, Evaluation, EvaluationScope, Family, FamilyKills,
    KilledBy, ListedMutant, MutantEntry, Mutants, Probe, ProbeKind, ProbeRole, RunReports,
    ShardLabel,
};
use serde::Serialize;

use ferastrau_protocol::Reason;

use super::ScopeRun;
use ferastrau_artifacts::ScopeResult;

/// What the reports of a run are made of besides the scopes and results: the same for every
/// shard of a run, so that `merge` writes what `evaluate` would have (`shard.json` holds it).
pub use ferastrau_artifacts::Facts;
/// Top-level marks of `evaluation.json` that every shard of a run gets (`in_diff`).
pub use ferastrau_artifacts::Marks;

/// The marks of one directory's `evaluation.json` besides the run's [`Marks`].
#[derive(Clone, Debug, Default)]
pub struct Extra {
    /// Why the run is broken: its figures stay inspectable, marked so that nothing reads them
    /// as a pass.
    pub broken: Option<String>,
    /// The directory holds this shard's share of the run.
    pub shard: Option<ferastrau_artifacts::Shard>,
}

/// A mutator's probe as the reports hold it.
pub fn probe(p: &ferastrau_mutator::Probe) -> Result<Probe> {
    // The mutator's probe is the same record with its closed sets as strings.
    Ok(Probe {
        id: p.id,
        role: match p.role.as_str() {
            "code" => ProbeRole::Code,
            "spec" => ProbeRole::Spec,
            other => anyhow::bail!("probe {}: unknown role {other:?}", p.id),
        },
        function: p.function.clone(),
        kind: match p.kind.as_str() {
            "statement" => ProbeKind::Statement,
            "branch" => ProbeKind::Branch,
            other => anyhow::bail!("probe {}: unknown kind {other:?}", p.id),
        },
        construct: match p.construct.as_deref() {
            None => None,
            Some(c) => Some(
                Construct::ALL
                    .into_iter()
                    .find(|&k| construct(k) == c)
                    .with_context(|| format!("probe {}: unknown construct {c:?}", p.id))?,
            ),
        },
        outcome: p.outcome.clone(),
        file: p.file.clone(),
        line: u32::try_from(p.line).context("a probe's line")?,
    })
}

/// Where a probe is and what it sees, for people (the mutator's `Probe::place`).
fn place(p: &Probe) -> String {
    let what = match (&p.construct, &p.outcome) {
        (Some(c), Some(o)) => format!("{} {o}", construct(*c)),
        _ => match p.kind {
            ProbeKind::Statement => "statement".to_string(),
            ProbeKind::Branch => "branch".to_string(),
        },
    };
    format!("{}:{} {}: {what}", p.file, p.line, p.function)
}

/// A construct as the mutator names it.
fn construct(c: Construct) -> &'static str {
    use Construct::*;
    match c {
        If => "if",
        While => "while",
        For => "for",
        Match => "match",
        And => "&&",
        Or => "||",
        Try => "?",
    }
}

/// A catalog entry as `mutants.json` lists it, with its content key.
pub fn listed(m: &ferastrau_mutator::Mutant, key: Option<String>) -> ListedMutant {
    use ferastrau_artifacts::{Edit, Pos};
    let pos = |p: ferastrau_mutator::Pos| Pos {
        column: p.column as u32,
        line: p.line as u32,
    };
    ListedMutant {
        column: m.column as u32,
        edit: Edit {
            end: pos(m.edit.end),
            new: m.edit.new.clone(),
            old: m.edit.old.clone(),
            start: pos(m.edit.start),
        },
        family: m.family,
        file: m.file.clone(),
        function: m.function.clone(),
        id: m.id,
        key,
        line: m.line as u32,
        original: m.original.clone(),
        replacement: m.replacement.clone(),
        viable: m.viable,
    }
}

/// The compiler's verdicts on the mutants of `catalog` (the run's listed ones), as the reports
/// hold them: a duplicate names the lowest mutant of its code.
pub fn compiler_verdicts(
    meta: &ferastrau_mutator::Metamutant,
    catalog: &ferastrau_mutator::Catalog,
) -> BTreeMap<u32, CompilerVerdict> {
    let Some(e) = &meta.equivalence else {
        return BTreeMap::new();
    };
    catalog
        .mutants
        .iter()
        .filter_map(|m| {
            let v = match e.verdict(m.id)? {
                ferastrau_mutator::Verdict::Equivalent => CompilerVerdict::Equivalent,
                ferastrau_mutator::Verdict::Duplicate { of } => CompilerVerdict::Duplicate { of },
            };
            Some((m.id, v))
        })
        .collect()
}

/// Writes the reports of a run whose `evaluated` mutants gave `results` into `dir`, with the
/// marks of `extra`. (The page is drawn from them afterwards, by the caller's readers: the
/// reports do not know who reads them.)
pub fn publish(
    dir: &Path,
    facts: &Facts,
    scopes: &[ScopeRun],
    results: &[ScopeResult],
    evaluated: &[u32],
    extra: &Extra,
) -> Result<()> {
    let mine: BTreeSet<u32> = evaluated.iter().copied().collect();
    let families: BTreeMap<u32, Family> = facts.listed.iter().map(|m| (m.id, m.family)).collect();
    let mut all = results.to_vec();
    for s in scopes {
        all.extend(
            facts
                .skipped
                .keys()
                .map(|&m| ScopeResult::skipped(m, s.scope)),
        );
    }
    let marked: BTreeMap<u32, CompilerVerdict> = facts
        .compiler
        .iter()
        .filter(|(id, _)| mine.contains(id))
        // A duplicate counts as one only beside its representative (a sample may leave that
        // out).
        .filter(|(_, v)| match v {
            CompilerVerdict::Duplicate { of } => mine.contains(of),
            CompilerVerdict::Equivalent => true,
        })
        .map(|(&id, &v)| (id, v))
        .collect();
    let rule = Rule {
        marked: &marked,
        counted: facts.marks.equivalents_counted,
    };
    let rows = rows(scopes, &all, &mine, &families, &facts.probes, &rule);
    write(dir, facts, &rows, &all, extra)
}

/// Which mutants the kill rate leaves out: by default those the compiler found equivalent to
/// the original (no input can kill them) or duplicates of a lower-numbered mutant (the same
/// program counted again), from the denominator and, for a duplicate that is killed, from the
/// numerator; with `counted` (`--count-equivalents`, the paper's tables) every evaluated
/// mutant counts, as before the comparison.
pub struct Rule<'a> {
    /// The compiler's verdicts on the evaluated mutants.
    pub marked: &'a BTreeMap<u32, CompilerVerdict>,
    pub counted: bool,
}

impl Rule<'_> {
    /// Whether mutant `id` is left out of the kill rate.
    fn leaves_out(&self, id: u32) -> bool {
        !self.counted && self.marked.contains_key(&id)
    }

    /// How many evaluated mutants the compiler found equivalent (`true`) or duplicate.
    fn count(&self, equivalent: bool) -> u32 {
        count(
            self.marked
                .values()
                .filter(|v| (**v == CompilerVerdict::Equivalent) == equivalent),
        )
    }
}

fn percent(hit: &BTreeSet<u32>, probes: &[Probe], role: ProbeRole, kind: ProbeKind) -> f64 {
    let all: Vec<u32> = probes
        .iter()
        .filter(|p| p.role == role && p.kind == kind)
        .map(|p| p.id)
        .collect();
    if all.is_empty() {
        return 0.0;
    }
    let n = all.iter().filter(|id| hit.contains(id)).count();
    round2(100.0 * n as f64 / all.len() as f64)
}

/// The statement and branch coverage of the code under test (percent) that the probes `hit`
/// give, as `evaluate` counts them: for runs of the original outside `evaluate` (`sequences`).
pub fn code_coverage(hit: &[u32], probes: &[Probe]) -> (f64, f64) {
    let hit: BTreeSet<u32> = hit.iter().copied().collect();
    (
        percent(&hit, probes, ProbeRole::Code, ProbeKind::Statement),
        percent(&hit, probes, ProbeRole::Code, ProbeKind::Branch),
    )
}

/// The places of the probes of `role` not in `hit`.
fn unreached(probes: &[Probe], role: ProbeRole, hit: &BTreeSet<u32>) -> Vec<String> {
    probes
        .iter()
        .filter(|p| p.role == role && !hit.contains(&p.id))
        .map(place)
        .collect()
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn rate(killed: u32, mutants: u32) -> f64 {
    if mutants == 0 {
        0.0
    } else {
        round2(100.0 * killed as f64 / mutants as f64)
    }
}

/// Computes the rows of `evaluation.json` from the scopes' runs and the mutants' results:
/// `evaluated` are the mutants the run evaluated, `families` every listed mutant's family.
pub fn rows(
    scopes: &[ScopeRun],
    results: &[ScopeResult],
    evaluated: &BTreeSet<u32>,
    families: &BTreeMap<u32, Family>,
    probes: &[Probe],
    rule: &Rule<'_>,
) -> Vec<EvaluationScope> {
    let counted: BTreeSet<u32> = evaluated
        .iter()
        .copied()
        .filter(|&id| !rule.leaves_out(id))
        .collect();
    let family_of = |id: u32| families.get(&id).copied();
    scopes
        .iter()
        .map(|s| {
            let spec: BTreeSet<u32> = s.spec_probes.iter().copied().collect();
            let code: BTreeSet<u32> = s.code_probes.iter().copied().collect();
            let here: Vec<&ScopeResult> = results
                .iter()
                .filter(|r| r.scope == s.scope && !rule.leaves_out(r.mutant))
                .collect();
            let killed: Vec<&&ScopeResult> = here.iter().filter(|r| r.killed()).collect();
            let by = |reason: Reason| count(killed.iter().filter(|r| r.reason == Some(reason)));
            let killed_by = KilledBy {
                crash: by(Reason::Crash),
                invariant: by(Reason::Invariant),
                memory: by(Reason::Memory),
                output: by(Reason::Output),
                timeout: by(Reason::Timeout),
            };
            let mut by_family: BTreeMap<Family, FamilyKills> = BTreeMap::new();
            for f in counted.iter().filter_map(|&id| family_of(id)) {
                by_family.entry(f).or_default().mutants += 1;
            }
            for f in killed.iter().filter_map(|r| family_of(r.mutant)) {
                by_family.entry(f).or_default().killed += 1;
            }
            for k in by_family.values_mut() {
                k.kill_rate = rate(k.killed, k.mutants);
            }
            let (mutants, killed) = (count(counted.iter()), count(killed.iter()));
            EvaluationScope {
                branch_coverage: percent(&code, probes, ProbeRole::Code, ProbeKind::Branch),
                by_family,
                candidates: s.candidates,
                checking_seconds: s.checking_seconds,
                compiler_duplicate: rule.count(false),
                compiler_equivalent: rule.count(true),
                generation_seconds: s.generation_seconds,
                inputs: s.inputs,
                kill_rate: rate(killed, mutants),
                killed,
                killed_by,
                killed_crash: killed_by.crash,
                killed_invariant: killed_by.invariant,
                killed_memory: killed_by.memory,
                killed_output: killed_by.output,
                killed_timeout: killed_by.timeout,
                mutants,
                scope: s.scope,
                skipped: count(
                    here.iter()
                        .filter(|r| r.status == ferastrau_artifacts::Status::Skipped),
                ),
                spec_branch_coverage: percent(&spec, probes, ProbeRole::Spec, ProbeKind::Branch),
                spec_statement_coverage: percent(
                    &spec,
                    probes,
                    ProbeRole::Spec,
                    ProbeKind::Statement,
                ),
                statement_coverage: percent(&code, probes, ProbeRole::Code, ProbeKind::Statement),
                uncovered: unreached(probes, ProbeRole::Code, &code),
                uncovered_spec: Some(unreached(probes, ProbeRole::Spec, &spec)),
                violations: s.violation_count,
            }
        })
        .collect()
}

/// How many items `it` yields, as the reports count mutants (`u32`, as their ids are).
fn count<I: Iterator>(it: I) -> u32 {
    u32::try_from(it.count()).expect("more mutants than ids")
}

/// What `evaluate` and `merge` print of the run whose reports are in `dir` (`--format json`):
/// `evaluation.json` as written, with the directory and the number of mutants evaluated; each
/// command's document adds its own figures.
pub fn run_reports(dir: &Path, evaluated: usize) -> Result<RunReports> {
    Ok(RunReports {
        evaluation: Evaluation::read(&dir.join("evaluation.json"))?,
        evaluated: u32::try_from(evaluated).context("the number of mutants evaluated")?,
        reports: dir.display().to_string(),
    })
}

/// The report files [`write`] produces, in an output directory.
pub const FILES: [&str; 3] = ["evaluation.json", "evaluation.csv", "mutants.json"];

/// A row of `evaluation.csv`: its columns, in their order (the scope's figures that a
/// spreadsheet reads; lists and per-family figures are `evaluation.json`'s only).
#[derive(Serialize)]
struct CsvRow {
    scope: u32,
    inputs: u64,
    candidates: u64,
    generation_seconds: f64,
    checking_seconds: f64,
    statement_coverage: f64,
    branch_coverage: f64,
    spec_statement_coverage: f64,
    spec_branch_coverage: f64,
    mutants: u32,
    killed: u32,
    kill_rate: f64,
    killed_invariant: u32,
    killed_output: u32,
    killed_timeout: u32,
    killed_memory: u32,
    killed_crash: u32,
    violations: u64,
    skipped: u32,
}

impl From<&EvaluationScope> for CsvRow {
    fn from(s: &EvaluationScope) -> CsvRow {
        CsvRow {
            scope: s.scope,
            inputs: s.inputs,
            candidates: s.candidates,
            generation_seconds: s.generation_seconds,
            checking_seconds: s.checking_seconds,
            statement_coverage: s.statement_coverage,
            branch_coverage: s.branch_coverage,
            spec_statement_coverage: s.spec_statement_coverage,
            spec_branch_coverage: s.spec_branch_coverage,
            mutants: s.mutants,
            killed: s.killed,
            kill_rate: s.kill_rate,
            killed_invariant: s.killed_invariant,
            killed_output: s.killed_output,
            killed_timeout: s.killed_timeout,
            killed_memory: s.killed_memory,
            killed_crash: s.killed_crash,
            violations: s.violations,
            skipped: s.skipped,
        }
    }
}

/// Writes `evaluation.json`, `evaluation.csv` and `mutants.json` into `dir`: the run's
/// `facts` (its listed mutants, marked `skipped` where the crate's skip list names them, and
/// its marks) and `extra`'s marks on `evaluation.json`.
pub fn write(
    dir: &Path,
    facts: &Facts,
    rows: &[EvaluationScope],
    results: &[ScopeResult],
    extra: &Extra,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Evaluation {
        benchmark: facts.benchmark.clone(),
        // Marks on the whole run (`broken`: its figures stay inspectable, marked so that
        // nothing reads them as a pass; `in_diff`: only some mutants were evaluated).
        broken: extra.broken.clone(),
        in_diff: facts.marks.in_diff.clone(),
        only_mutants: facts.marks.only_mutants.clone(),
        sample: facts.marks.sample,
        comparison: facts.marks.comparison,
        engine: facts.marks.engine,
        equivalents_counted: facts.marks.equivalents_counted,
        schema_version: Evaluation::SCHEMA_VERSION,
        scopes: rows.to_vec(),
        shard: extra.shard.map(ShardLabel),
        untested: facts.marks.untested.clone(),
    }
    .write(&dir.join("evaluation.json"))?;

    let mut csv = csv::Writer::from_writer(Vec::new());
    for r in rows {
        csv.serialize(CsvRow::from(r))?;
    }
    let bytes = csv.into_inner().context("cannot write csv")?;
    ferastrau_artifacts::write_atomically(&dir.join("evaluation.csv"), &bytes)?;

    let mut per: BTreeMap<u32, BTreeMap<u32, &ScopeResult>> = BTreeMap::new();
    for r in results {
        per.entry(r.mutant).or_default().insert(r.scope, r);
    }
    Mutants {
        benchmark: facts.benchmark.clone(),
        mutants: facts
            .listed
            .iter()
            .map(|m| MutantEntry {
                column: m.column,
                compiler: facts.compiler.get(&m.id).copied(),
                edit: m.edit.clone(),
                family: m.family,
                file: m.file.clone(),
                function: m.function.clone(),
                id: m.id,
                key: m.key.clone(),
                line: m.line,
                next_scope: None,
                original: m.original.clone(),
                replacement: m.replacement.clone(),
                scopes: per
                    .get(&m.id)
                    .map(|s| s.iter().map(|(&scope, r)| (scope, r.outcome())).collect())
                    .unwrap_or_default(),
                skipped: facts.skipped.get(&m.id).cloned(),
                viable: m.viable,
            })
            .collect(),
        schema_version: Mutants::SCHEMA_VERSION,
    }
    .write(&dir.join("mutants.json"))
}
