//! The figures of ours that disagree with the paper's, and the notes that explain them
//! (`disagreements.toml`, written by a person): a disagreement is a rule's finding, its
//! explanation a person's.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;

use super::{PAPER_MUTANTS, RATE_TOLERANCE, SIZE_TOLERANCE};
use crate::paper::Paper;
use crate::tables::{self, Table1Row};
use crate::BenchmarkReport;

/// What kind of figure disagrees.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Inputs,
    KillRate,
    Coverage,
    Size,
    Mutants,
    MutatedFunctions,
    /// Table 3 computed at another scope than the paper's.
    RandomSubsets,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Inputs => "inputs",
            Kind::KillRate => "kill_rate",
            Kind::Coverage => "coverage",
            Kind::Size => "size",
            Kind::Mutants => "mutants",
            Kind::MutatedFunctions => "mutated_functions",
            Kind::RandomSubsets => "random_subsets",
        }
    }
}

#[derive(Debug, Deserialize)]
struct Note {
    benchmark: String,
    kind: Kind,
    explanation: String,
}

#[derive(Debug, Deserialize, Default)]
struct NotesFile {
    #[serde(default)]
    note: Vec<Note>,
}

/// Explanations by (crate name, kind).
#[derive(Debug, Default)]
pub struct Notes(pub(super) BTreeMap<(String, Kind), String>);

impl Notes {
    /// Reads `disagreements.toml` (`[[note]] benchmark = "av_tree" kind = "inputs"
    /// explanation = "..."`); a missing file is no notes.
    pub fn read(path: &Path) -> Result<Notes> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(Notes::default());
        };
        let file: NotesFile =
            toml::from_str(&text).with_context(|| format!("cannot parse {}", path.display()))?;
        Ok(Notes(
            file.note
                .into_iter()
                .map(|n| ((n.benchmark, n.kind), n.explanation))
                .collect(),
        ))
    }
}

/// A figure of ours that disagrees with the paper's.
#[derive(Clone, Debug, PartialEq)]
pub struct Disagreement {
    pub benchmark: String,
    pub class: String,
    pub kind: Kind,
    pub what: String,
}

/// Every disagreement of our figures with the paper's.
pub fn disagreements(
    paper: &Paper,
    runs: &[BenchmarkReport],
    t1: &[Table1Row],
    t3: &[ferastrau_artifacts::Subsets],
) -> Vec<Disagreement> {
    let mut out = Vec::new();
    // Table 3 at another scope than the paper's: its R(s) is then of another size, and the
    // paper's verdicts are beside ours only as the nearest comparison.
    for r in t3 {
        let Some(p) = paper
            .table3
            .get(&r.benchmark)
            .filter(|p| p.scope != r.scope)
        else {
            continue;
        };
        let Some(run) = runs.iter().find(|run| run.name == r.benchmark) else {
            continue;
        };
        out.push(Disagreement {
            benchmark: run.name.clone(),
            class: run.class.clone(),
            kind: Kind::RandomSubsets,
            what: format!(
                "Table 3 at scope {} (|R| = |T({})| = {}), the paper's at scope {}",
                r.scope,
                r.scope - 1,
                r.subset_size,
                p.scope
            ),
        });
    }
    for (run, row) in runs.iter().zip(t1) {
        let found = of_table1(row).into_iter().chain(of_scopes(paper, run));
        out.extend(found.map(|(kind, what)| Disagreement {
            benchmark: run.name.clone(),
            class: run.class.clone(),
            kind,
            what,
        }));
    }
    out
}

/// What of a benchmark's Table 1 line disagrees: functions Table 1 does not list, sizes, the
/// number of mutants evaluated.
fn of_table1(row: &Table1Row) -> Vec<(Kind, String)> {
    let mut found = Vec::new();
    let mut push = |kind: Kind, what: String| found.push((kind, what));
    if !row.outside_table1.is_empty() {
        push(
            Kind::MutatedFunctions,
            format!(
                "mutates functions Table 1 does not list: {}",
                row.outside_table1
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
    let far = |c: &tables::Cell| match (c.paper, c.ours) {
        (Some(p), Some(o)) if p > 0.0 => ((o - p) / p).abs() > SIZE_TOLERANCE,
        _ => false,
    };
    if far(&row.ncnb_lines) || far(&row.branches) {
        push(
            Kind::Size,
            format!(
                "lines {}, branches {} (paper / ours)",
                tables::md_cell(&row.ncnb_lines, true),
                tables::md_cell(&row.branches, true)
            ),
        );
    }
    // The paper instructed its Ferastrau to generate 200–300 mutants per benchmark (its
    // Section 6), and its Table 1 counts are what that gave: the mutants we evaluate (a
    // sample of at most 300 where a benchmark has more) agree when they are in that range.
    if !PAPER_MUTANTS.contains(&row.mutants_evaluated) {
        push(
            Kind::Mutants,
            format!(
                "{} mutants evaluated, outside the paper's {}–{} (its Table 1: {}; we generate {})",
                row.mutants_evaluated,
                PAPER_MUTANTS.start(),
                PAPER_MUTANTS.end(),
                row.mutants
                    .paper
                    .map_or("—".to_string(), |p| format!("{p:.0}")),
                row.mutants
                    .ours
                    .map_or("—".to_string(), |o| format!("{o:.0}")),
            ),
        );
    }
    found
}

/// What of a benchmark's scopes disagrees: input counts at any scope, the kill rate and code
/// coverage at the largest.
fn of_scopes(paper: &Paper, run: &BenchmarkReport) -> Vec<(Kind, String)> {
    let mut found = Vec::new();
    let mut push = |kind: Kind, what: String| found.push((kind, what));
    let differing: Vec<String> = run
        .scopes
        .iter()
        .filter_map(|s| {
            let p = paper.row(&run.name, s.scope)?;
            (p.inputs != s.inputs)
                .then(|| format!("scope {}: {} / {}", s.scope, p.inputs, s.inputs))
        })
        .collect();
    if !differing.is_empty() {
        push(
            Kind::Inputs,
            format!("inputs differ (paper / ours): {}", differing.join("; ")),
        );
    }
    let Some(last) = run.largest() else {
        return found;
    };
    let Some(p) = paper.row(&run.name, last.scope) else {
        return found;
    };
    if (last.kill_rate - p.kill_rate).abs() > RATE_TOLERANCE {
        push(
                Kind::KillRate,
                format!(
                    "kill rate at scope {}: {:.2} / {:.2} % (paper / ours; {:.2} over the paper's three families)",
                    last.scope, p.kill_rate, last.kill_rate, crate::table3::kill_rate(last)
                ),
            );
    }
    if (last.statement_coverage - p.statement_coverage).abs() > RATE_TOLERANCE
        || (last.branch_coverage - p.branch_coverage).abs() > RATE_TOLERANCE
    {
        push(
                Kind::Coverage,
                format!(
                    "code coverage at scope {}: statement {:.2} / {:.2}, branch {:.2} / {:.2} % (paper / ours)",
                    last.scope,
                    p.statement_coverage,
                    last.statement_coverage,
                    p.branch_coverage,
                    last.branch_coverage
                ),
            );
    }
    found
}

/// Every disagreement with the paper, by the rule that finds it: those a note explains, with
/// its explanation, then the open ones.
pub(super) fn section(
    paper: &Paper,
    runs: &[BenchmarkReport],
    t1: &[Table1Row],
    t3: &[ferastrau_artifacts::Subsets],
    notes: &Notes,
) -> String {
    let mut md = String::new();
    md += "\n## Disagreements with the paper\n\n";
    md += &format!("A figure disagrees when input counts differ at any scope, the kill rate or a code coverage at the largest scope differs by more than {RATE_TOLERANCE} points, Table 1's lines or branches differ by more than {:.0}%, the mutants we evaluate are outside the {}–{} the paper's Ferastrau was instructed to generate, we mutate functions Table 1 does not list, or Table 3 is at another scope than the paper's. Explained ones carry the explanation from `disagreements.toml`; the others are open.\n\n", SIZE_TOLERANCE * 100.0, PAPER_MUTANTS.start(), PAPER_MUTANTS.end());
    let all = disagreements(paper, runs, t1, t3);
    let (explained, open): (Vec<_>, Vec<_>) = all
        .iter()
        .partition(|d| notes.0.contains_key(&(d.benchmark.clone(), d.kind)));
    md += "### Explained\n\n";
    if explained.is_empty() {
        md += "None.\n";
    }
    for d in explained {
        md += &format!(
            "- **{}**, {}: {}. {}\n",
            d.class,
            d.kind.as_str(),
            d.what,
            notes.0[&(d.benchmark.clone(), d.kind)].trim()
        );
    }
    md += "\n### Open\n\n";
    if open.is_empty() {
        md += "None.\n";
    }
    for d in open {
        md += &format!("- **{}**, {}: {}.\n", d.class, d.kind.as_str(), d.what);
    }
    md
}
