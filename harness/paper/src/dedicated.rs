//! Table 2's `ded.` column of ours: generation with the benchmarks' dedicated generators beside
//! the plain generation, measured in one run so that the two are comparable.
//!
//! `reproduce` keeps, per benchmark with generators, the document
//! `ferastrau generate --scopes S --generators --jobs 1 --json` prints as
//! `<out>/<benchmark>/generators.json` (so it can be remade by hand); rendering only reads it.
//! One thread, as the paper's single-threaded Korat; the inputs are counted, neither listed nor
//! stored (the `gen.` column's evaluation stores them, so compare `ded.` with the plain seconds
//! of this file, not with `gen.`).

use std::ops::RangeInclusive;
use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_artifacts::{Artifact, Generators};
use serde::Serialize;

use ferastrau_harness::generate::{self, Mode, ScopeStats};
use ferastrau_harness::locate::BenchmarkCrate;

/// The file, beside `evaluation.json`.
pub const FILE: &str = "generators.json";

/// One scope's generation with and without the dedicated generators.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Dedicated {
    pub scope: u32,
    /// Plain generation: every method's candidates and seconds.
    pub plain_candidates: u64,
    pub plain_seconds: f64,
    /// With the generators, where a method has them (the plain figures of the others).
    pub candidates: u64,
    pub seconds: f64,
}

impl Dedicated {
    /// The figures of a `generate --generators` scope; `None` when no method has generators.
    pub fn of(s: &ScopeStats) -> Option<Dedicated> {
        s.generators?;
        let (mut candidates, mut seconds) = (0, 0.0);
        for m in &s.methods {
            match m.generators {
                Some(g) => {
                    candidates += g.candidates;
                    seconds += g.seconds;
                }
                None => {
                    candidates += m.candidates;
                    seconds += m.seconds;
                }
            }
        }
        Some(Dedicated {
            scope: s.scope,
            plain_candidates: s.candidates,
            plain_seconds: s.seconds,
            candidates,
            seconds,
        })
    }

    /// The share of the plain candidates the generators save, in percent.
    pub fn candidates_saved_percent(&self) -> f64 {
        100.0 * self.plain_candidates.saturating_sub(self.candidates) as f64
            / self.plain_candidates.max(1) as f64
    }
}

/// Measures `scopes` of `bench` with and without its generators and writes [`FILE`] into
/// `dir`; a benchmark without generators gets none (a stale one is removed). Returns whether
/// it has generators.
pub fn measure(bench: &BenchmarkCrate, scopes: RangeInclusive<u32>, dir: &Path) -> Result<bool> {
    let worker = ferastrau_harness::subject::original_worker(bench)?;
    let mode = Mode {
        jobs: 1,
        structure: false,
        generators: true,
    };
    let path = dir.join(FILE);
    let stats = generate::generate(&worker, scopes, 0, mode, |_| {})?;
    if stats.iter().all(|s| s.generators.is_none()) {
        if path.exists() {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
        return Ok(false);
    }
    generate::document(bench, mode, &stats).write(&path)?;
    Ok(true)
}

/// The scopes of `dir`'s [`FILE`] that have generators; none without the file.
pub fn read(dir: &Path) -> Result<Vec<Dedicated>> {
    let path = dir.join(FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let file = Generators::read(&path)?;
    Ok(file.scopes.iter().filter_map(Dedicated::of).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{tables, BenchmarkReport, CodeFacts, Paper};
    use ferastrau_harness::generate::{DedicatedSearch, MethodStats};

    fn method(name: &str, candidates: u64, ded: Option<u64>) -> MethodStats {
        MethodStats {
            method: name.into(),
            scope: 5,
            inputs: 7,
            candidates,
            seconds: 1.0,
            state_space_log2: 0.0,
            generators: ded.map(|c| DedicatedSearch {
                candidates: c,
                seconds: 0.25,
                candidates_saved: candidates - c,
            }),
        }
    }

    fn scope(methods: Vec<MethodStats>) -> ScopeStats {
        ScopeStats {
            scope: 5,
            inputs: 14,
            candidates: methods.iter().map(|m| m.candidates).sum(),
            seconds: methods.iter().map(|m| m.seconds).sum(),
            generators: methods
                .iter()
                .any(|m| m.generators.is_some())
                .then(DedicatedSearch::default),
            methods,
            examples: Vec::new(),
        }
    }

    #[test]
    fn a_method_without_dedicated_generators_counts_with_its_plain_figures() {
        let d = Dedicated::of(&scope(vec![
            method("add", 100, Some(40)),
            method("rev", 50, None),
        ]));
        let d = d.expect("one method has generators");
        assert_eq!((d.plain_candidates, d.candidates), (150, 90));
        assert_eq!((d.plain_seconds, d.seconds), (2.0, 1.25));
        assert!((d.candidates_saved_percent() - 40.0).abs() < 1e-9);
        assert_eq!(Dedicated::of(&scope(vec![method("add", 100, None)])), None);
    }

    #[test]
    fn the_ded_cell_is_ours_where_a_benchmark_has_dedicated_generators() {
        let ours = |dedicated: Vec<Dedicated>| BenchmarkReport {
            name: "b".into(),
            class: "B".into(),
            scopes: Vec::new(),
            code: CodeFacts {
                functions: Vec::new(),
                mutants_all: 0,
                mutants_viable: 0,
                mutants_evaluated: 0,
                sample: None,
            },
            survivors: Vec::new(),
            dedicated,
            structural: Vec::new(),
        };
        let d = Dedicated::of(&scope(vec![method("add", 100, Some(40))])).unwrap();
        let rows = tables::table4(&Paper::default(), &[ours(vec![d]), ours(vec![])], false);
        assert_eq!(
            rows.len(),
            0,
            "no scope of ours, none of the paper's: no row"
        );
        let mut with = ours(vec![d]);
        let mut scope = crate::test_scope(5, 7, 3.0, 1);
        scope.checking_seconds = 1.0;
        with.scopes = vec![scope];
        let mut without = with.clone();
        without.dedicated.clear();
        let rows = tables::table4(&Paper::default(), &[with, without], false);
        assert_eq!(rows[0].cells["ded_gen_seconds"].ours, Some(0.25));
        assert_eq!(rows[0].dedicated, Some(d));
        assert_eq!(rows[1].cells["ded_gen_seconds"].ours, None);
        let md = tables::table4_markdown(&rows);
        assert!(md.contains("40 / 100 (−60.0%), 0.250 / 1.000"), "{md}");
    }
}
