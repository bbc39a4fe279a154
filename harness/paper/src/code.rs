//! What Table 1 says about our code: the mutated functions with their sizes (counted by the
//! mutator on the syntax tree) and the mutant counts, written beside a run's reports as
//! `code.json` so that rendering needs no build.

use std::path::Path;

use anyhow::Result;
use ferastrau_artifacts::Artifact;
use ferastrau_mutator::FnSize;

/// The file a run's code facts are kept in, inside its report directory.
pub const FILE: &str = "code.json";

/// The sample a run evaluated.
pub use ferastrau_artifacts::Sample;

/// `code.json` as the tables use it (the file is [`ferastrau_artifacts::CodeFacts`]: the same
/// fields, the mutator's function sizes).
#[derive(Clone, Debug, PartialEq)]
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
        ferastrau_artifacts::CodeFacts {
            schema_version: ferastrau_artifacts::CodeFacts::SCHEMA_VERSION,
            functions: self
                .functions
                .iter()
                .map(|f| ferastrau_artifacts::FnSize {
                    function: f.function.clone(),
                    file: f.file.clone(),
                    line: f.line as u32,
                    ncnb_lines: f.ncnb_lines as u32,
                    branches: f.branches as u32,
                })
                .collect(),
            mutants_all: self.mutants_all as u32,
            mutants_viable: self.mutants_viable as u32,
            mutants_evaluated: self.mutants_evaluated as u32,
            sample: self.sample,
        }
        .write(&dir.join(FILE))
    }

    /// Reads the code facts of the report directory `dir`.
    pub fn read(dir: &Path) -> Result<CodeFacts> {
        let c = ferastrau_artifacts::CodeFacts::read(&dir.join(FILE))?;
        Ok(CodeFacts {
            functions: c
                .functions
                .into_iter()
                .map(|f| FnSize {
                    function: f.function,
                    file: f.file,
                    line: f.line as usize,
                    ncnb_lines: f.ncnb_lines as usize,
                    branches: f.branches as usize,
                })
                .collect(),
            mutants_all: c.mutants_all as usize,
            mutants_viable: c.mutants_viable as usize,
            mutants_evaluated: c.mutants_evaluated as usize,
            sample: c.sample,
        })
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
