//! `ferastrau-paper reproduce`: the paper's Tables 1, 2 and 4 and Figure 9 from our runs, beside the
//! paper's own figures, and `REPRODUCTION.md` with a verdict per hypothesis.
//!
//! The evaluation itself is `evaluate`'s (the CLI runs it per benchmark into
//! `<out>/<benchmark>/`); this module only reads what the runs wrote — `evaluation.json`,
//! `mutants.json` and the crate's size facts `code.json` — and renders. Rendering never runs
//! anything, so `reproduce --render-only` re-renders committed reports and the tests render
//! small runs.

pub mod code;
pub mod dedicated;
pub mod document;
pub mod figure;
pub mod next_scope;
pub mod paper;
pub mod table3;
pub mod tables;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_artifacts::{Artifact, Evaluation, EvaluationScope};
use ferastrau_protocol::Comparison;

pub use code::CodeFacts;
pub use next_scope::{Label, NextScope};
pub use paper::Paper;

/// The scopes of the run whose reports are in `dir` (its `evaluation.json`), as the tables use
/// them, and why it is broken if it is.
/// Where a report keeps its second reading, the same evaluation with `--compare structural`.
pub const STRUCTURAL_DIR: &str = "structural";

pub fn scopes(dir: &Path) -> Result<(Vec<EvaluationScope>, Option<String>)> {
    let ev = Evaluation::read(&dir.join("evaluation.json"))?;
    Ok((ev.scopes, ev.broken))
}

/// A survivor of the largest scope, with its next-scope mark: the harness's, which
/// `evaluate --next-scope` uses too.
pub use next_scope::Survivor;

/// Everything the reports say about one benchmark.
#[derive(Clone, Debug)]
pub struct BenchmarkReport {
    /// The crate name (`search_tree`), also the report directory's name.
    pub name: String,
    /// The paper's class name (`SearchTree`), or the crate name when the paper lacks it.
    pub class: String,
    pub scopes: Vec<EvaluationScope>,
    pub code: CodeFacts,
    pub survivors: Vec<Survivor>,
    /// Generation with the dedicated generators, per measured scope (none without them).
    pub dedicated: Vec<dedicated::Dedicated>,
    /// The same mutants compared structurally (`<name>/structural/`, for a benchmark that
    /// defines a structure), per scope; empty when not run.
    pub structural: Vec<EvaluationScope>,
}

impl BenchmarkReport {
    /// Reads `<reports>/<name>/`: `evaluation.json`, `mutants.json`, `code.json` and, if the
    /// benchmark has dedicated generators, `generators.json`. A broken
    /// run is refused: its figures are not results.
    pub fn read(reports: &Path, name: &str, class: &str) -> Result<BenchmarkReport> {
        let dir = reports.join(name);
        let (scopes, broken) = scopes(&dir)?;
        if let Some(why) = broken {
            anyhow::bail!(
                "{}: a broken run ({why}); its figures are not results",
                dir.display()
            );
        }
        let comparison = Evaluation::read(&dir.join("evaluation.json"))?.comparison;
        if comparison != Comparison::Abstract {
            anyhow::bail!(
                "{}: a run with --compare {comparison}; the report's own run compares abstract values (the structural one goes in {STRUCTURAL_DIR}/)",
                dir.display()
            );
        }
        let structural = structural(&dir, &scopes)?;
        let code = CodeFacts::read(&dir)?;
        let largest = scopes.iter().map(|s| s.scope).max().unwrap_or(0);
        let survivors = next_scope::survivors(&dir.join("mutants.json"), largest)?;
        Ok(BenchmarkReport {
            name: name.to_string(),
            class: class.to_string(),
            scopes,
            code,
            survivors,
            dedicated: dedicated::read(&dir)?,
            structural,
        })
    }

    pub fn largest(&self) -> Option<&EvaluationScope> {
        self.scopes.iter().max_by_key(|s| s.scope)
    }
}

/// The structural reading of the report in `dir`, if there is one: it must be a whole,
/// structural run of the same mutants at scopes the report has (the two kill rates are
/// compared side by side, so they must count the same mutants).
fn structural(dir: &Path, main: &[EvaluationScope]) -> Result<Vec<EvaluationScope>> {
    let sdir = dir.join(STRUCTURAL_DIR);
    if !sdir.join("evaluation.json").is_file() {
        return Ok(Vec::new());
    }
    let ev = Evaluation::read(&sdir.join("evaluation.json"))?;
    if ev.comparison != Comparison::Structural {
        anyhow::bail!("{}: not a run with --compare structural", sdir.display());
    }
    if let Some(why) = &ev.broken {
        anyhow::bail!(
            "{}: a broken run ({why}); its figures are not results",
            sdir.display()
        );
    }
    let scopes = ev.scopes;
    for s in &scopes {
        match main.iter().find(|m| m.scope == s.scope) {
            Some(m) if m.mutants == s.mutants => {}
            _ => anyhow::bail!(
                "{}: scope {} evaluated {} mutants, which the report beside it does not (another sample, or a scope it lacks)",
                sdir.display(),
                s.scope,
                s.mutants
            ),
        }
    }
    Ok(scopes)
}

/// The benchmarks to render, in the paper's order (Table 1's rows), with their class names;
/// benchmarks the paper lacks follow, named by their crate.
pub fn ordered(paper: &Paper, names: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for k in paper.order.iter().filter(|k| names.contains(k)) {
        out.push((k.clone(), paper.table1[k].benchmark.clone()));
    }
    for n in names {
        if !out.iter().any(|(k, _)| k == n) {
            out.push((n.clone(), n.clone()));
        }
    }
    out
}

/// Renders every table, the figure and `REPRODUCTION.md` into `out` from the runs under it.
/// Returns the files written.
pub fn render(out: &Path, paper: &Paper, names: &[String]) -> Result<Vec<PathBuf>> {
    let runs: Vec<BenchmarkReport> = ordered(paper, names)
        .iter()
        .map(|(name, class)| BenchmarkReport::read(out, name, class))
        .collect::<Result<_>>()?;
    let mut written = Vec::new();
    let t1 = tables::table1(paper, &runs);
    let t4 = tables::table4(paper, &runs, false);
    let t2 = tables::table4(paper, &runs, true);
    written.extend(tables::write_table1(out, &t1)?);
    written.extend(tables::write_table4(out, "table4", &t4)?);
    written.extend(tables::write_table4(out, "table2", &t2)?);
    let svg = out.join(figure::FILE);
    figure::draw(&svg, paper, &runs)?;
    written.push(svg);
    // Table 3 where `table3` (or `reproduce --kill-matrix`) wrote it (a kill matrix is not part
    // of every run).
    let mut t3 = Vec::new();
    for run in &runs {
        let path = out
            .join(&run.name)
            .join(ferastrau_artifacts::Subsets::FILE_NAME);
        if path.exists() {
            t3.push(ferastrau_artifacts::Subsets::read(&path)?);
        }
    }
    let notes = document::Notes::read(&out.join(document::NOTES_FILE))?;
    let md = document::reproduction(paper, &runs, &t1, &t2, &t4, &t3, &notes);
    let path = out.join(document::FILE);
    std::fs::write(&path, md).with_context(|| format!("cannot write {}", path.display()))?;
    written.push(path);
    Ok(written)
}

/// A scope of `evaluation.json` for the crate's tests: the figures given, every other one 0.
#[cfg(test)]
pub(crate) fn test_scope(scope: u32, inputs: u64, seconds: f64, killed: u32) -> EvaluationScope {
    serde_json::from_value(serde_json::json!({
        "scope": scope, "inputs": inputs, "candidates": 100, "generation_seconds": seconds,
        "checking_seconds": seconds, "statement_coverage": 100.0, "branch_coverage": 100.0,
        "spec_statement_coverage": 100.0, "spec_branch_coverage": 100.0, "mutants": 1,
        "killed": killed, "kill_rate": 100.0 * f64::from(killed),
        "killed_by": {"crash": 0, "invariant": killed, "memory": 0, "output": 0, "timeout": 0},
        "killed_crash": 0, "killed_invariant": killed, "killed_memory": 0, "killed_output": 0,
        "killed_timeout": 0,
        "by_family": {"operator": {"kill_rate": 100.0 * f64::from(killed), "killed": killed, "mutants": 1}},
        "uncovered": []
    }))
    .expect("a scope of evaluation.json")
}
