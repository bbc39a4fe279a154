//! Reports of an evaluation: the paper's Table 4 rows on stdout, `evaluation.json`,
//! `evaluation.csv` and `mutants.json` on disk.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_mutator::Probe;
use serde::{Deserialize, Serialize};

use ferastrau_worker::protocol::Reason;

use super::results::ScopeResult;
use super::ScopeRun;

/// What the reports of a run are made of besides the scopes and results: the same for every
/// shard of a run, so that `merge` writes what `evaluate` would have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    pub benchmark: String,
    /// Every mutant of the run's catalog (sampled, filtered by a diff) as `mutants.json` lists
    /// it, with its key.
    pub listed: Vec<serde_json::Value>,
    /// The evaluated mutants that belong to the paper's three families.
    pub paper: BTreeSet<u32>,
    pub probes: Vec<Probe>,
    /// Top-level marks of `evaluation.json` (`in_diff`).
    pub marks: serde_json::Map<String, serde_json::Value>,
    /// The listed viable mutants the crate's `skip` list names, with the reason: not run, not
    /// in the kill rate's denominator, but listed in every report.
    #[serde(default)]
    pub skipped: BTreeMap<u32, String>,
}

/// Writes the reports of a run whose `evaluated` mutants gave `results` into `dir` (the
/// benchmark crate at `crate_dir` supplies the source `report.html` shows), with
/// `broken` marked if the run is broken and the extra `marks`; returns the rows.
pub fn publish(
    dir: &Path,
    crate_dir: &Path,
    facts: &Facts,
    scopes: &[ScopeRun],
    results: &[ScopeResult],
    evaluated: &[u32],
    extra: &serde_json::Map<String, serde_json::Value>,
) -> Result<Vec<Row>> {
    let mine: BTreeSet<u32> = evaluated.iter().copied().collect();
    let paper: BTreeSet<u32> = facts.paper.intersection(&mine).copied().collect();
    let mut all = results.to_vec();
    for s in scopes {
        all.extend(
            facts
                .skipped
                .keys()
                .map(|&m| ScopeResult::skipped(m, s.scope)),
        );
    }
    let rows = rows(scopes, &all, evaluated.len(), &paper, &facts.probes);
    let mut marks = facts.marks.clone();
    marks.extend(extra.clone());
    let listed: Vec<serde_json::Value> = facts
        .listed
        .iter()
        .map(|m| {
            let mut m = m.clone();
            let id = m["id"].as_u64().map(|id| id as u32);
            if let Some(reason) = id.and_then(|id| facts.skipped.get(&id)) {
                m["skipped"] = serde_json::json!(reason);
            }
            m
        })
        .collect();
    write(dir, &facts.benchmark, &rows, &listed, &all, &marks)?;
    // The page and the schema JSON, from the files just written and the crate's source.
    crate::html::write(dir, crate_dir)?;
    Ok(rows)
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
    /// The same count over the paper's three families only (operator, variable, call; not
    /// our constant family), for a like-for-like comparison with the paper's kill rates.
    pub paper_mutants: usize,
    pub paper_killed: usize,
    pub paper_kill_rate: f64,
    /// Postcondition violations of the original.
    pub violations: u64,
    /// Mutants the crate's `skip` list names: not run, not counted in `mutants`.
    pub skipped: usize,
    /// The code probes the original did not reach at this scope (JSON only: which statement
    /// or branch outcome a coverage short of 100% misses).
    #[serde(skip)]
    pub uncovered: Vec<String>,
    /// The same for the specification (invariant, precondition and postcondition functions):
    /// what generation did not reach, which a specification coverage short of 100% misses.
    #[serde(skip)]
    pub uncovered_spec: Vec<String>,
}

fn percent(hit: &BTreeSet<u32>, probes: &[Probe], role: &str, kind: &str) -> f64 {
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

/// The places of the probes of `role` not in `hit`.
fn unreached(probes: &[Probe], role: &str, hit: &BTreeSet<u32>) -> Vec<String> {
    probes
        .iter()
        .filter(|p| p.role == role && !hit.contains(&p.id))
        .map(Probe::place)
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

/// Computes the rows from the scopes' runs and the mutants' results; `paper` holds the ids of
/// the evaluated mutants that belong to the paper's three families.
pub fn rows(
    scopes: &[ScopeRun],
    results: &[ScopeResult],
    mutants: usize,
    paper: &BTreeSet<u32>,
    probes: &[Probe],
) -> Vec<Row> {
    scopes
        .iter()
        .map(|s| {
            let spec: BTreeSet<u32> = s.spec_probes.iter().copied().collect();
            let code: BTreeSet<u32> = s.code_probes.iter().copied().collect();
            let here: Vec<&ScopeResult> = results.iter().filter(|r| r.scope == s.scope).collect();
            let by = |reason: Reason| {
                here.iter()
                    .filter(|r| r.killed() && r.reason == Some(reason))
                    .count()
            };
            let killed = here.iter().filter(|r| r.killed()).count();
            let paper_killed = here
                .iter()
                .filter(|r| r.killed() && paper.contains(&r.mutant))
                .count();
            Row {
                scope: s.scope,
                inputs: s.inputs,
                candidates: s.candidates,
                generation_seconds: s.generation_seconds,
                checking_seconds: s.checking_seconds,
                statement_coverage: percent(&code, probes, "code", "statement"),
                branch_coverage: percent(&code, probes, "code", "branch"),
                spec_statement_coverage: percent(&spec, probes, "spec", "statement"),
                spec_branch_coverage: percent(&spec, probes, "spec", "branch"),
                mutants,
                killed,
                kill_rate: rate(killed, mutants),
                killed_invariant: by(Reason::Invariant),
                killed_output: by(Reason::Output),
                killed_timeout: by(Reason::Timeout),
                killed_memory: by(Reason::Memory),
                killed_crash: by(Reason::Crash),
                paper_mutants: paper.len(),
                paper_killed,
                paper_kill_rate: rate(paper_killed, paper.len()),
                violations: s.violation_count,
                skipped: here
                    .iter()
                    .filter(|r| r.status == super::results::Status::Skipped)
                    .count(),
                uncovered: unreached(probes, "code", &code),
                uncovered_spec: unreached(probes, "spec", &spec),
            }
        })
        .collect()
}

/// A kill rate's cell, coloured by what it says: every mutant killed, some surviving, none
/// killed (the escapes go around the padded text, so columns stay aligned).
fn rate_cell(killed: usize, mutants: usize, text: String) -> String {
    use crate::term::{paint, style};
    match killed {
        _ if mutants == 0 => text,
        0 => paint(style::BAD, text),
        k if k == mutants => paint(style::GOOD, text),
        _ => paint(style::WARN, text),
    }
}

/// The stdout table, shaped like the paper's Table 4 (coloured: print it with `anstream`).
pub fn table(benchmark: &str, rows: &[Row]) -> String {
    let mut t = format!(
        "{}\n{:>5} {:>9} {:>8} {:>8} {:>10} {:>9} {:>8} {:>8} {:>9} {:>9}   kills by reason\n",
        crate::term::paint(crate::term::style::HEAD, benchmark),
        "scope",
        "gen [s]",
        "spec st",
        "spec br",
        "# inputs",
        "check [s]",
        "code st",
        "code br",
        "killed %",
        "3 fam. %"
    );
    for r in rows {
        let reasons: Vec<String> = Reason::ALL
            .iter()
            .zip([
                r.killed_invariant,
                r.killed_output,
                r.killed_timeout,
                r.killed_memory,
                r.killed_crash,
            ])
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        t.push_str(&format!(
            "{:>5} {:>9.2} {:>8.2} {:>8.2} {:>10} {:>9.2} {:>8.2} {:>8.2} {} {:>9.2}   {}/{}{}: {}\n",
            r.scope,
            r.generation_seconds,
            r.spec_statement_coverage,
            r.spec_branch_coverage,
            r.inputs,
            r.checking_seconds,
            r.statement_coverage,
            r.branch_coverage,
            rate_cell(r.killed, r.mutants, format!("{:>9.2}", r.kill_rate)),
            r.paper_kill_rate,
            r.killed,
            r.mutants,
            if r.skipped > 0 {
                format!(" ({} skipped)", r.skipped)
            } else {
                String::new()
            },
            reasons.join(", ")
        ));
    }
    t
}

/// A report file written by [`write`], read back as `T`.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a report", path.display()))
}

/// `--format json`'s document of a run whose reports are in `dir`: `evaluation.json` as
/// written, with the directory and the number of mutants evaluated.
pub fn json_document(dir: &Path, evaluated: usize) -> Result<serde_json::Value> {
    let mut doc: serde_json::Value = read_json(&dir.join("evaluation.json"))?;
    doc["reports"] = serde_json::json!(dir.display().to_string());
    doc["evaluated"] = serde_json::json!(evaluated);
    Ok(doc)
}

/// The report files [`write`] produces, in an output directory.
pub const FILES: [&str; 3] = ["evaluation.json", "evaluation.csv", "mutants.json"];

/// Removes the reports of an earlier run (and a shard's record) from `dir`, so that a run that fails leaves no
/// report behind that could be read as its own.
pub fn clear(dir: &Path) -> Result<()> {
    let all = FILES.iter().chain(&crate::html::FILES);
    for f in all.chain(&[crate::shard::RECORD]) {
        match std::fs::remove_file(dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot remove {}", dir.join(f).display()))
            }
            _ => {}
        }
    }
    // An earlier run's kill matrices and what `subsets` made of them describe another run.
    let matrices = crate::matrix::file::dir(dir);
    if matrices.exists() {
        std::fs::remove_dir_all(&matrices)
            .with_context(|| format!("cannot remove {}", matrices.display()))?;
    }
    for f in crate::subsets::FILES {
        match std::fs::remove_file(dir.join(f)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("cannot remove {}", dir.join(f).display()))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Writes `evaluation.json`, `evaluation.csv` and `mutants.json` into `dir`; `marks` go to the
/// top level of `evaluation.json`.
pub fn write(
    dir: &Path,
    benchmark: &str,
    rows: &[Row],
    mutants: &[serde_json::Value],
    results: &[ScopeResult],
    marks: &serde_json::Map<String, serde_json::Value>,
) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let scopes: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).expect("rows serialize");
            v["killed_by"] = serde_json::json!({
                "invariant": r.killed_invariant, "output": r.killed_output,
                "timeout": r.killed_timeout, "memory": r.killed_memory, "crash": r.killed_crash,
            });
            v["uncovered"] = serde_json::json!(r.uncovered);
            v["uncovered_spec"] = serde_json::json!(r.uncovered_spec);
            v
        })
        .collect();
    let mut doc = serde_json::json!({ "benchmark": benchmark, "scopes": scopes });
    // Marks on the whole run (`broken`: its figures stay inspectable, marked so that nothing
    // reads them as a pass; `in_diff`: only some mutants were evaluated).
    for (k, v) in marks {
        doc[k] = v.clone();
    }
    write_file(
        &dir.join("evaluation.json"),
        &serde_json::to_string_pretty(&doc)?,
    )?;

    let mut csv = csv::Writer::from_writer(Vec::new());
    for r in rows {
        csv.serialize(r)?;
    }
    let bytes = csv.into_inner().context("cannot write csv")?;
    write_file(
        &dir.join("evaluation.csv"),
        &String::from_utf8_lossy(&bytes),
    )?;

    let mut per: BTreeMap<u32, BTreeMap<String, &ScopeResult>> = BTreeMap::new();
    for r in results {
        per.entry(r.mutant)
            .or_default()
            .insert(r.scope.to_string(), r);
    }
    let listed: Vec<serde_json::Value> = mutants
        .iter()
        .map(|m| {
            let mut m = m.clone();
            let id = m["id"].as_u64().unwrap_or(0) as u32;
            let scopes: BTreeMap<String, serde_json::Value> = per
                .get(&id)
                .map(|s| {
                    s.iter()
                        .map(|(k, r)| {
                            let mut v = serde_json::to_value(r).expect("results serialize");
                            let o = v.as_object_mut().expect("an object");
                            o.remove("mutant");
                            o.remove("scope");
                            (k.clone(), v)
                        })
                        .collect()
                })
                .unwrap_or_default();
            m["scopes"] = serde_json::to_value(scopes).expect("map serializes");
            m
        })
        .collect();
    let doc = serde_json::json!({ "benchmark": benchmark, "mutants": listed });
    write_file(
        &dir.join("mutants.json"),
        &serde_json::to_string_pretty(&doc)?,
    )
}

pub(crate) fn write_file(path: &Path, text: &str) -> Result<()> {
    // Write then rename: an interrupted write never leaves a half report.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
