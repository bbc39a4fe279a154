//! What Table 1 says about our code: the mutated functions with their sizes (counted by the
//! mutator on the syntax tree) and the mutant counts, written beside a run's reports as
//! `code.json` so that rendering needs no build.

use std::path::Path;

use anyhow::{Context, Result};
use ferastrau_mutator::FnSize;
use serde::{Deserialize, Serialize};

/// The file a run's code facts are kept in, inside its report directory.
pub const FILE: &str = "code.json";

/// The sample a run evaluated.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
pub struct Sample {
    pub max_mutants: u32,
    pub seed: u64,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct CodeFacts {
    /// The crate's `mutate` functions, in source order.
    pub functions: Vec<FnSize>,
    /// Every mutant of those functions.
    pub mutants_all: usize,
    /// Those that compile.
    pub mutants_viable: usize,
    /// Those the run evaluated: the viable ones, sampled, skips left out.
    pub mutants_evaluated: usize,
    /// The sample, when the run did not evaluate every viable mutant it could.
    pub sample: Option<Sample>,
}

impl CodeFacts {
    pub fn ncnb_lines(&self) -> usize {
        self.functions.iter().map(|f| f.ncnb_lines).sum()
    }

    pub fn branches(&self) -> usize {
        self.functions.iter().map(|f| f.branches).sum()
    }

    /// Which mutants the run evaluated, for people: `all 220` or `300 of 419 (seed 1)`.
    pub fn evaluated_text(&self) -> String {
        match self.sample {
            Some(s) if self.mutants_evaluated < self.mutants_viable => format!(
                "{} of {} (sample, seed {})",
                self.mutants_evaluated, self.mutants_viable, s.seed
            ),
            _ => format!("all {}", self.mutants_evaluated),
        }
    }

    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(FILE);
        let text = serde_json::to_string_pretty(self)? + "\n";
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The method name a paper name designates: its last segment in snake case
/// (`ListIterator.next` → `next`, `HashMap.containsKey` → `contains_key`).
pub fn paper_method(name: &str) -> String {
    super::paper::crate_name(name.rsplit('.').next().unwrap_or(name))
}

/// Our mutated functions that Table 1 does not list (by method name): `targets` and `helpers`
/// are the paper's space-separated lists.
pub fn outside_table1(functions: &[FnSize], targets: &str, helpers: &str) -> Vec<String> {
    let listed: Vec<String> = targets
        .split_whitespace()
        .chain(helpers.split_whitespace())
        .map(paper_method)
        .collect();
    functions
        .iter()
        .filter(|f| {
            let method = f.function.rsplit("::").next().unwrap_or(&f.function);
            !listed.iter().any(|l| l == method)
        })
        .map(|f| f.function.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str) -> FnSize {
        FnSize {
            function: name.into(),
            file: "src/lib.rs".into(),
            line: 1,
            ncnb_lines: 1,
            branches: 0,
        }
    }

    #[test]
    fn functions_outside_table1_are_named() {
        let fs = [
            f("L::add"),
            f("L::index_of"),
            f("Itr::next"),
            f("M::contains_key"),
        ];
        assert_eq!(
            outside_table1(&fs, "add remove", "ListIterator.next HashMap.containsKey"),
            ["L::index_of"]
        );
    }
}
