//! Reports of an evaluation: a row per scope, `evaluation.json`, `evaluation.csv` and
//! `mutants.json` on disk (the rows' table on stdout is in [`super::table`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_artifacts::{
    Artifact, CompilerVerdict, Construct, Evaluation, EvaluationScope, KilledBy, ListedMutant,
    MutantEntry, Mutants, Probe, ProbeKind, ProbeRole, RunReports, ShardLabel,
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
    use ferastrau_artifacts::{Edit, Family, Pos};
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
        family: match m.family {
            ferastrau_mutator::Family::Operator => Family::Operator,
            ferastrau_mutator::Family::Variable => Family::Variable,
            ferastrau_mutator::Family::Call => Family::Call,
            ferastrau_mutator::Family::Constant => Family::Constant,
        },
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
/// marks of `extra`; returns the rows. (The HTML page is drawn from them afterwards, by
/// [`crate::html`]: the reports do not know who reads them.)
pub fn publish(
    dir: &Path,
    facts: &Facts,
    scopes: &[ScopeRun],
    results: &[ScopeResult],
    evaluated: &[u32],
    extra: &Extra,
) -> Result<Vec<Row>> {
    let mine: BTreeSet<u32> = evaluated.iter().copied().collect();
    let classic: BTreeSet<u32> = facts.paper.intersection(&mine).copied().collect();
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
    let rows = rows(
        scopes,
        &all,
        evaluated.len(),
        &classic,
        &facts.probes,
        &rule,
    );
    write(dir, facts, &rows, &all, extra)?;
    Ok(rows)
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

    fn count(&self, equivalent: bool) -> usize {
        self.marked
            .values()
            .filter(|v| (**v == CompilerVerdict::Equivalent) == equivalent)
            .count()
    }
}

/// One row of the evaluation (a scope).
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub scope: u32,
    pub inputs: u64,
    pub candidates: u64,
    pub generation_seconds: f64,
    pub checking_seconds: f64,
    pub statement_coverage: f64,
    pub branch_coverage: f64,
    pub spec_statement_coverage: f64,
    pub spec_branch_coverage: f64,
    pub mutants: usize,
    pub killed: usize,
    pub kill_rate: f64,
    pub killed_invariant: usize,
    pub killed_output: usize,
    pub killed_timeout: usize,
    pub killed_memory: usize,
    pub killed_crash: usize,
    /// The same count over the three classic families only (operator, variable, call; not
    /// the constant family), for a like-for-like comparison with published kill rates.
    pub paper_mutants: usize,
    pub paper_killed: usize,
    pub paper_kill_rate: f64,
    /// Postcondition violations of the original.
    pub violations: u64,
    /// Mutants the crate's `skip` list names: not run, not counted in `mutants`.
    pub skipped: usize,
    /// The evaluated mutants the compiler found equivalent, and duplicates (counted in
    /// `mutants` only under `--count-equivalents`; JSON only).
    #[serde(skip)]
    pub compiler_equivalent: usize,
    #[serde(skip)]
    pub compiler_duplicate: usize,
    /// Whether `mutants` counts them (see [`Rule`]).
    #[serde(skip)]
    pub equivalents_counted: bool,
    /// The code probes the original did not reach at this scope (JSON only: which statement
    /// or branch outcome a coverage short of 100% misses).
    #[serde(skip)]
    pub uncovered: Vec<String>,
    /// The same for the specification (invariant, precondition and postcondition functions):
    /// what generation did not reach, which a specification coverage short of 100% misses.
    #[serde(skip)]
    pub uncovered_spec: Vec<String>,
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

fn rate(killed: usize, mutants: usize) -> f64 {
    if mutants == 0 {
        0.0
    } else {
        round2(100.0 * killed as f64 / mutants as f64)
    }
}

/// Computes the rows from the scopes' runs and the mutants' results; `classic` holds the ids
/// of the evaluated mutants that belong to the three classic families.
pub fn rows(
    scopes: &[ScopeRun],
    results: &[ScopeResult],
    mutants: usize,
    classic: &BTreeSet<u32>,
    probes: &[Probe],
    rule: &Rule<'_>,
) -> Vec<Row> {
    let left_out =
        |ids: &mut dyn Iterator<Item = u32>| ids.filter(|&id| rule.leaves_out(id)).count();
    let mutants = mutants - left_out(&mut rule.marked.keys().copied());
    let classic_count = classic.len() - left_out(&mut classic.iter().copied());
    scopes
        .iter()
        .map(|s| {
            let spec: BTreeSet<u32> = s.spec_probes.iter().copied().collect();
            let code: BTreeSet<u32> = s.code_probes.iter().copied().collect();
            let here: Vec<&ScopeResult> = results
                .iter()
                .filter(|r| r.scope == s.scope && !rule.leaves_out(r.mutant))
                .collect();
            let by = |reason: Reason| {
                here.iter()
                    .filter(|r| r.killed() && r.reason == Some(reason))
                    .count()
            };
            let killed = here.iter().filter(|r| r.killed()).count();
            let paper_killed = here
                .iter()
                .filter(|r| r.killed() && classic.contains(&r.mutant))
                .count();
            Row {
                scope: s.scope,
                inputs: s.inputs,
                candidates: s.candidates,
                generation_seconds: s.generation_seconds,
                checking_seconds: s.checking_seconds,
                statement_coverage: percent(&code, probes, ProbeRole::Code, ProbeKind::Statement),
                branch_coverage: percent(&code, probes, ProbeRole::Code, ProbeKind::Branch),
                spec_statement_coverage: percent(
                    &spec,
                    probes,
                    ProbeRole::Spec,
                    ProbeKind::Statement,
                ),
                spec_branch_coverage: percent(&spec, probes, ProbeRole::Spec, ProbeKind::Branch),
                mutants,
                killed,
                kill_rate: rate(killed, mutants),
                killed_invariant: by(Reason::Invariant),
                killed_output: by(Reason::Output),
                killed_timeout: by(Reason::Timeout),
                killed_memory: by(Reason::Memory),
                killed_crash: by(Reason::Crash),
                paper_mutants: classic_count,
                paper_killed,
                paper_kill_rate: rate(paper_killed, classic_count),
                violations: s.violation_count,
                skipped: here
                    .iter()
                    .filter(|r| r.status == ferastrau_artifacts::Status::Skipped)
                    .count(),
                uncovered: unreached(probes, ProbeRole::Code, &code),
                uncovered_spec: unreached(probes, ProbeRole::Spec, &spec),
                compiler_equivalent: rule.count(true),
                compiler_duplicate: rule.count(false),
                equivalents_counted: rule.counted,
            }
        })
        .collect()
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

impl Row {
    /// The row as `evaluation.json` holds it.
    fn evaluation_scope(&self) -> EvaluationScope {
        EvaluationScope {
            branch_coverage: self.branch_coverage,
            candidates: self.candidates,
            checking_seconds: self.checking_seconds,
            compiler_duplicate: self.compiler_duplicate as u32,
            compiler_equivalent: self.compiler_equivalent as u32,
            generation_seconds: self.generation_seconds,
            inputs: self.inputs,
            kill_rate: self.kill_rate,
            killed: self.killed as u32,
            killed_by: KilledBy {
                crash: self.killed_crash as u32,
                invariant: self.killed_invariant as u32,
                memory: self.killed_memory as u32,
                output: self.killed_output as u32,
                timeout: self.killed_timeout as u32,
            },
            killed_crash: self.killed_crash as u32,
            killed_invariant: self.killed_invariant as u32,
            killed_memory: self.killed_memory as u32,
            killed_output: self.killed_output as u32,
            killed_timeout: self.killed_timeout as u32,
            mutants: self.mutants as u32,
            paper_kill_rate: self.paper_kill_rate,
            paper_killed: self.paper_killed as u32,
            paper_mutants: self.paper_mutants as u32,
            scope: self.scope,
            skipped: self.skipped as u32,
            spec_branch_coverage: self.spec_branch_coverage,
            spec_statement_coverage: self.spec_statement_coverage,
            statement_coverage: self.statement_coverage,
            uncovered: self.uncovered.clone(),
            uncovered_spec: Some(self.uncovered_spec.clone()),
            violations: self.violations,
        }
    }
}

/// Writes `evaluation.json`, `evaluation.csv` and `mutants.json` into `dir`: the run's
/// `facts` (its listed mutants, marked `skipped` where the crate's skip list names them, and
/// its marks) and `extra`'s marks on `evaluation.json`.
pub fn write(
    dir: &Path,
    facts: &Facts,
    rows: &[Row],
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
        scopes: rows.iter().map(Row::evaluation_scope).collect(),
        shard: extra.shard.map(ShardLabel),
        untested: facts.marks.untested.clone(),
    }
    .write(&dir.join("evaluation.json"))?;

    let mut csv = csv::Writer::from_writer(Vec::new());
    for r in rows {
        csv.serialize(r)?;
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
