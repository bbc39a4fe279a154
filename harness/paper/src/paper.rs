//! The paper's tables as data (`reports/paper/*.csv`, transcribed by hand): what every
//! reproduced figure is compared with.

use std::collections::BTreeMap;
use std::path::Path;

use crate::table3::PaperLine;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// A row of the paper's Table 1.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Table1Row {
    pub benchmark: String,
    /// Space-separated, as the paper spells them (`add remove`).
    pub target_methods: String,
    pub helper_methods: String,
    pub ncnb_lines: u32,
    pub branches: u32,
    pub mutants: u32,
}

/// A row of the paper's Table 4 (Table 2 is its two largest scopes).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Table4Row {
    pub benchmark: String,
    pub scope: u32,
    pub gen_seconds: f64,
    pub ded_gen_seconds: f64,
    pub spec_statement_coverage: f64,
    pub spec_branch_coverage: f64,
    pub inputs: u64,
    pub checking_seconds: f64,
    pub statement_coverage: f64,
    pub branch_coverage: f64,
    pub kill_rate: f64,
}

/// The paper's Tables 1, 3 and 4, keyed by our crate names (see [`crate_name`]).
#[derive(Clone, Debug, Default)]
pub struct Paper {
    /// Table 1's benchmarks (crate names) in the paper's order.
    pub order: Vec<String>,
    pub table1: BTreeMap<String, Table1Row>,
    pub table4: BTreeMap<String, Vec<Table4Row>>,
    /// Empty when the directory has no `table3.csv`.
    pub table3: BTreeMap<String, PaperLine>,
}

impl Paper {
    /// Reads `table1.csv`, `table4.csv` and, if present, `table3.csv` from `dir`
    /// (`reports/paper/`).
    pub fn read(dir: &Path) -> Result<Paper> {
        let mut paper = Paper::default();
        for row in read_csv::<Table1Row>(&dir.join("table1.csv"))? {
            paper.order.push(crate_name(&row.benchmark));
            paper.table1.insert(crate_name(&row.benchmark), row);
        }
        for row in read_csv::<Table4Row>(&dir.join("table4.csv"))? {
            paper
                .table4
                .entry(crate_name(&row.benchmark))
                .or_default()
                .push(row);
        }
        for rows in paper.table4.values_mut() {
            rows.sort_by_key(|r| r.scope);
        }
        let table3 = dir.join("table3.csv");
        if table3.is_file() {
            paper.table3 = table3_by_crate(&table3)?;
        }
        Ok(paper)
    }

    /// The paper's largest scope for a benchmark (Table 4's last row).
    pub fn largest_scope(&self, bench: &str) -> Option<u32> {
        self.table4.get(bench)?.last().map(|r| r.scope)
    }

    pub fn row(&self, bench: &str, scope: u32) -> Option<&Table4Row> {
        self.table4.get(bench)?.iter().find(|r| r.scope == scope)
    }
}

fn read_csv<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    r.deserialize()
        .collect::<Result<Vec<T>, _>>()
        .with_context(|| format!("parsing {}", path.display()))
}

/// The crate name of a paper benchmark: its class name in snake case, a run of capitals one
/// word (`SearchTree` → `search_tree`, `AVTree` → `av_tree`). The benchmarks' directories are
/// The paper's Table 3 lines in the CSV at `path`, by crate name (`SearchTree` is
/// `search_tree`'s).
pub fn table3_by_crate(path: &Path) -> Result<BTreeMap<String, PaperLine>> {
    Ok(crate::table3::paper_lines(path)?
        .into_iter()
        .map(|l| (crate_name(&l.benchmark), l))
        .collect())
}

/// named so; the harness names none of them itself.
pub fn crate_name(class: &str) -> String {
    let c: Vec<char> = class.chars().collect();
    let mut out = String::new();
    for (i, ch) in c.iter().enumerate() {
        if ch.is_uppercase() && i > 0 {
            let prev_lower = c[i - 1].is_lowercase() || c[i - 1].is_ascii_digit();
            let next_lower = c.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev_lower || (c[i - 1].is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(ch.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_become_crate_names() {
        assert_eq!(crate_name("SearchTree"), "search_tree");
        assert_eq!(crate_name("AVTree"), "av_tree");
        assert_eq!(crate_name("HashSet"), "hash_set");
        assert_eq!(crate_name("ListItr"), "list_itr");
    }
}
