//! The run being gated, read from the reports of an `evaluate` (or a `merge`).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};

use super::baseline::{BenchmarkBaseline, ScopeFigures};
use crate::exit_code::usage;

/// The run being gated, read from an `evaluate` output directory.
pub struct Run {
    pub benchmark: String,
    pub broken: Option<String>,
    /// Only the mutants on a diff's lines were evaluated (`evaluate --in-diff`): the kill rate
    /// and coverage are not comparable with the baseline's, only each mutant's status is.
    pub partial: bool,
    pub figures: BenchmarkBaseline,
    /// Mutants the crate's `skip` list names (not run), by key, with the reason.
    pub skipped: BTreeMap<String, String>,
    /// Where each key's mutant is, for messages: `src/tree.rs:67:15 SearchTree::add`.
    pub(crate) places: BTreeMap<String, String>,
    /// The mutants' readable edits, by key (the paper's `left/*temp*/` form).
    pub(crate) edits: BTreeMap<String, String>,
}

impl Run {
    /// Reads `evaluation.json` and `mutants.json` from `dir`.
    pub fn read(dir: &Path) -> Result<Run> {
        let evaluation = read_json(&dir.join("evaluation.json"))?;
        let mutants = read_json(&dir.join("mutants.json"))?;
        let benchmark = evaluation["benchmark"]
            .as_str()
            .context("evaluation.json names no benchmark")?
            .to_string();
        if evaluation.get("shard").is_some() {
            return Err(usage(format!(
                "{} holds one shard of a run: merge the shards (`ferastrau merge`) and gate the result",
                dir.display()
            )));
        }
        let broken = evaluation["broken"].as_str().map(String::from);
        let partial = evaluation.get("in_diff").is_some();
        let mut figures = BenchmarkBaseline::default();
        for s in evaluation["scopes"]
            .as_array()
            .context("evaluation.json has no scopes")?
        {
            let scope = s["scope"].as_u64().context("a scope without a number")? as u32;
            let f: ScopeFigures = ScopeFigures {
                mutants: s["mutants"].as_u64().unwrap_or(0) as usize,
                killed: s["killed"].as_u64().unwrap_or(0) as usize,
                kill_rate: s["kill_rate"].as_f64().unwrap_or(0.0),
                statement_coverage: s["statement_coverage"].as_f64().unwrap_or(0.0),
                branch_coverage: s["branch_coverage"].as_f64().unwrap_or(0.0),
            };
            figures.scopes.insert(scope, f);
        }
        let mut places = BTreeMap::new();
        let mut skipped = BTreeMap::new();
        let mut edits = BTreeMap::new();
        for m in mutants["mutants"]
            .as_array()
            .context("mutants.json has no mutants")?
        {
            let results = m["scopes"].as_object();
            let Some(results) = results.filter(|r| !r.is_empty()) else {
                continue; // not evaluated (not viable)
            };
            let key = m["key"]
                .as_str()
                .with_context(|| {
                    format!(
                        "{} has mutants without keys: re-run `evaluate` with this version",
                        dir.join("mutants.json").display()
                    )
                })?
                .to_string();
            if let Some(reason) = m["skipped"].as_str() {
                skipped.insert(key, reason.to_string());
                continue;
            }
            let killed: Vec<u32> = results
                .iter()
                .filter(|(_, r)| r["status"] == "killed")
                .filter_map(|(s, _)| s.parse().ok())
                .collect();
            places.insert(
                key.clone(),
                format!(
                    "{}:{}:{} {}",
                    m["file"].as_str().unwrap_or("?"),
                    m["line"],
                    m["column"],
                    m["function"].as_str().unwrap_or("?")
                ),
            );
            edits.insert(
                key.clone(),
                m["edit"]["new"].as_str().unwrap_or("?").to_string(),
            );
            figures.mutants.insert(key, killed);
        }
        Ok(Run {
            benchmark,
            broken,
            partial,
            figures,
            skipped,
            places,
            edits,
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

fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))
}
