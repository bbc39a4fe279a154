//! Tables 1, 2 and 4, ours beside the paper's: built from the runs, written as CSV, JSON and
//! Markdown. A cell of Tables 2 and 4 is `paper`, `ours` and their `delta` (ours − paper).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use super::code::outside_table1;
use super::dedicated::Dedicated;
use super::paper::Paper;
use super::BenchmarkReport;

/// Table 1's row for one benchmark.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Table1Row {
    pub benchmark: String,
    /// The paper's target and helper methods (space-separated, its spelling).
    pub target_methods: String,
    pub helper_methods: String,
    /// Our mutated functions.
    pub mutated: Vec<String>,
    /// Those of them Table 1 does not list.
    pub outside_table1: Vec<String>,
    pub ncnb_lines: Cell,
    pub branches: Cell,
    /// The paper's count against all of ours.
    pub mutants: Cell,
    pub mutants_viable: usize,
    pub mutants_evaluated: usize,
    /// `all 220` or `300 of 419 (sample, seed 1)`.
    pub evaluated: String,
}

/// A figure of the paper beside ours. `None`: that side has no such figure.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Cell {
    pub paper: Option<f64>,
    pub ours: Option<f64>,
    pub delta: Option<f64>,
}

impl Cell {
    pub fn new(paper: Option<f64>, ours: Option<f64>) -> Cell {
        let delta = match (paper, ours) {
            (Some(p), Some(o)) => Some(round2(o - p)),
            _ => None,
        };
        Cell {
            paper: paper.map(round2),
            ours: ours.map(round2),
            delta,
        }
    }
}

/// A scope's kills by reason, as Table 4's rows hold them (by the reason's name).
fn killed_by(s: &ferastrau_artifacts::EvaluationScope) -> BTreeMap<String, u32> {
    ferastrau_artifacts::Reason::ALL
        .iter()
        .map(|&r| (r.as_str().to_string(), s.killed_by.get(r)))
        .collect()
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The columns of Table 4, in the paper's order: name (in JSON and CSV) and Markdown heading.
pub const COLUMNS: [(&str, &str); 9] = [
    ("gen_seconds", "gen. s"),
    ("ded_gen_seconds", "ded. s"),
    ("spec_statement_coverage", "spec st %"),
    ("spec_branch_coverage", "spec br %"),
    ("inputs", "inputs"),
    ("checking_seconds", "check s"),
    ("statement_coverage", "code st %"),
    ("branch_coverage", "code br %"),
    ("kill_rate", "killed %"),
];

/// Table 4's row (Table 2's, at the two largest scopes) for one benchmark and scope.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Table4Row {
    pub benchmark: String,
    pub scope: u32,
    /// Keyed by [`COLUMNS`]' names.
    pub cells: BTreeMap<String, Cell>,
    /// Ours only: candidates Korat explored, mutants evaluated and killed, kills by reason,
    /// and the kill rate over the paper's three families.
    pub candidates: u64,
    pub mutants: u32,
    pub killed: u32,
    pub killed_by: BTreeMap<String, u32>,
    pub kill_rate_3_families: f64,
    /// Ours only: generation with the dedicated generators beside the plain generation of the
    /// same run (`generators.json`), whose seconds fill the `ded. s` cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dedicated: Option<Dedicated>,
    /// Ours only: the kill rate of the same mutants compared structurally (the post-state's
    /// concrete structure too, as Java serialization compares it), for a benchmark whose
    /// report has that second reading (`structural/`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kill_rate_structural: Option<f64>,
}

pub fn table1(paper: &Paper, runs: &[BenchmarkReport]) -> Vec<Table1Row> {
    runs.iter()
        .map(|run| {
            let p = paper.table1.get(&run.name);
            let (targets, helpers) = p
                .map(|p| (p.target_methods.clone(), p.helper_methods.clone()))
                .unwrap_or_default();
            let c = &run.code;
            Table1Row {
                benchmark: run.class.clone(),
                mutated: c.functions.iter().map(|f| f.function.clone()).collect(),
                outside_table1: match p {
                    Some(_) => outside_table1(&c.functions, &targets, &helpers),
                    None => Vec::new(),
                },
                target_methods: targets,
                helper_methods: helpers,
                ncnb_lines: Cell::new(p.map(|p| p.ncnb_lines.into()), Some(c.ncnb_lines() as f64)),
                branches: Cell::new(p.map(|p| p.branches.into()), Some(c.branches() as f64)),
                mutants: Cell::new(p.map(|p| p.mutants.into()), Some(c.mutants_all as f64)),
                mutants_viable: c.mutants_viable,
                mutants_evaluated: c.mutants_evaluated,
                evaluated: c.evaluated_text(),
            }
        })
        .collect()
}

/// Table 4 (every scope of ours or the paper's), or Table 2 (`largest_two`: the paper's two
/// largest scopes of each benchmark).
pub fn table4(paper: &Paper, runs: &[BenchmarkReport], largest_two: bool) -> Vec<Table4Row> {
    let mut out = Vec::new();
    for run in runs {
        let mut scopes: Vec<u32> = run.scopes.iter().map(|s| s.scope).collect();
        if let Some(rows) = paper.table4.get(&run.name) {
            scopes.extend(rows.iter().map(|r| r.scope));
        }
        scopes.sort();
        scopes.dedup();
        if largest_two {
            let top = paper.largest_scope(&run.name).or(scopes.last().copied());
            scopes.retain(|s| top.is_some_and(|t| *s + 1 >= t && *s <= t));
        }
        for scope in scopes {
            let ours = run.scopes.iter().find(|s| s.scope == scope);
            let ded = run.dedicated.iter().find(|d| d.scope == scope).copied();
            let p = paper.row(&run.name, scope);
            let paper_value = |name: &str| -> Option<f64> {
                let p = p?;
                Some(match name {
                    "gen_seconds" => p.gen_seconds,
                    "ded_gen_seconds" => p.ded_gen_seconds,
                    "spec_statement_coverage" => p.spec_statement_coverage,
                    "spec_branch_coverage" => p.spec_branch_coverage,
                    "inputs" => p.inputs as f64,
                    "checking_seconds" => p.checking_seconds,
                    "statement_coverage" => p.statement_coverage,
                    "branch_coverage" => p.branch_coverage,
                    _ => p.kill_rate,
                })
            };
            let our_value = |name: &str| -> Option<f64> {
                let o = ours?;
                match name {
                    "gen_seconds" => Some(o.generation_seconds),
                    // Generation with the dedicated generators, where the benchmark has them.
                    "ded_gen_seconds" => ded.map(|d| d.seconds),
                    "spec_statement_coverage" => Some(o.spec_statement_coverage),
                    "spec_branch_coverage" => Some(o.spec_branch_coverage),
                    "inputs" => Some(o.inputs as f64),
                    "checking_seconds" => Some(o.checking_seconds),
                    "statement_coverage" => Some(o.statement_coverage),
                    "branch_coverage" => Some(o.branch_coverage),
                    _ => Some(o.kill_rate),
                }
            };
            let cells = COLUMNS
                .iter()
                .map(|(name, _)| {
                    (
                        name.to_string(),
                        Cell::new(paper_value(name), our_value(name)),
                    )
                })
                .collect();
            out.push(Table4Row {
                benchmark: run.class.clone(),
                scope,
                cells,
                candidates: ours.map_or(0, |o| o.candidates),
                mutants: ours.map_or(0, |o| o.mutants),
                killed: ours.map_or(0, |o| o.killed),
                killed_by: ours.map(killed_by).unwrap_or_default(),
                kill_rate_3_families: ours.map_or(0.0, crate::table3::kill_rate),
                dedicated: ded,
                kill_rate_structural: run
                    .structural
                    .iter()
                    .find(|s| s.scope == scope)
                    .map(|s| s.kill_rate),
            });
        }
    }
    out
}

fn num(x: Option<f64>, integer: bool) -> String {
    match x {
        None => "—".into(),
        Some(v) if integer => format!("{v:.0}"),
        Some(v) => format!("{v:.2}"),
    }
}

fn signed(x: Option<f64>, integer: bool) -> String {
    match x {
        None => "—".into(),
        Some(v) if integer => format!("{v:+.0}"),
        Some(v) => format!("{v:+.2}"),
    }
}

/// A Markdown cell: `paper / ours (Δ)`.
pub fn md_cell(c: &Cell, integer: bool) -> String {
    match c.delta {
        Some(_) => format!(
            "{} / {} ({})",
            num(c.paper, integer),
            num(c.ours, integer),
            signed(c.delta, integer)
        ),
        None => format!("{} / {}", num(c.paper, integer), num(c.ours, integer)),
    }
}

fn write(path: PathBuf, text: String) -> Result<PathBuf> {
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

fn json(rows: &impl Serialize) -> Result<String> {
    Ok(serde_json::to_string_pretty(rows)? + "\n")
}

pub fn table1_markdown(rows: &[Table1Row]) -> String {
    let mut md = String::from(
        "| benchmark | target methods | helper methods | mutated functions outside Table 1 | ncnb lines paper / ours (Δ) | branches paper / ours (Δ) | mutants paper / ours (Δ) | viable | evaluated |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let outside = if r.outside_table1.is_empty() {
            "—".to_string()
        } else {
            r.outside_table1
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        md += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.benchmark,
            r.target_methods,
            r.helper_methods,
            outside,
            md_cell(&r.ncnb_lines, true),
            md_cell(&r.branches, true),
            md_cell(&r.mutants, true),
            r.mutants_viable,
            r.evaluated
        );
    }
    md
}

pub fn write_table1(out: &Path, rows: &[Table1Row]) -> Result<Vec<PathBuf>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "benchmark",
        "target_methods",
        "helper_methods",
        "mutated",
        "outside_table1",
        "ncnb_lines_paper",
        "ncnb_lines_ours",
        "ncnb_lines_delta",
        "branches_paper",
        "branches_ours",
        "branches_delta",
        "mutants_paper",
        "mutants_ours",
        "mutants_delta",
        "mutants_viable",
        "mutants_evaluated",
        "evaluated",
    ])?;
    for r in rows {
        let mut rec = vec![
            r.benchmark.clone(),
            r.target_methods.clone(),
            r.helper_methods.clone(),
            r.mutated.join(" "),
            r.outside_table1.join(" "),
        ];
        for c in [&r.ncnb_lines, &r.branches, &r.mutants] {
            rec.extend([c.paper, c.ours, c.delta].map(csv_num));
        }
        rec.extend([
            r.mutants_viable.to_string(),
            r.mutants_evaluated.to_string(),
            r.evaluated.clone(),
        ]);
        w.write_record(rec)?;
    }
    let csv = String::from_utf8(w.into_inner()?)?;
    Ok(vec![
        write(out.join("table1.csv"), csv)?,
        write(out.join("table1.json"), json(&rows)?)?,
        write(out.join("table1.md"), table1_markdown(rows))?,
    ])
}

fn csv_num(v: Option<f64>) -> String {
    v.map(|v| format!("{v}")).unwrap_or_default()
}

/// Kills by reason, for people: `invariant 94, output 53, timeout 23` (reasons with kills).
pub fn reasons(by: &BTreeMap<String, u32>) -> String {
    let parts: Vec<String> = by
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(", ")
    }
}

/// The dedicated generators beside the plain generation of the same run, for people:
/// `21066 / 123900 (−83.0%), 0.023 / 0.094` (three decimals: these searches take
/// milliseconds); `—` without generators.
fn dedicated_cell(d: Option<&Dedicated>) -> String {
    match d {
        None => "—".into(),
        Some(d) => format!(
            "{} / {} (−{:.1}%), {:.3} / {:.3}",
            d.candidates,
            d.plain_candidates,
            d.candidates_saved_percent(),
            d.seconds,
            d.plain_seconds
        ),
    }
}

pub fn table4_markdown(rows: &[Table4Row]) -> String {
    let mut md = String::from("| benchmark | scope |");
    for (_, heading) in COLUMNS {
        md += &format!(" {heading} |");
    }
    md += " killed %, structural | candidates | ded. candidates / plain, s / s | killed / mutants (3 fam. %) | kills by reason |\n|---|---|";
    md += &"---|".repeat(COLUMNS.len() + 5);
    md.push('\n');
    for r in rows {
        md += &format!("| {} | {} |", r.benchmark, r.scope);
        for (name, _) in COLUMNS {
            md += &format!(" {} |", md_cell(&r.cells[name], name == "inputs"));
        }
        md += &format!(
            " {} | {} | {} | {}/{} ({:.2}) | {} |\n",
            r.kill_rate_structural
                .map_or_else(|| "—".to_string(), |k| format!("{k:.2}")),
            r.candidates,
            dedicated_cell(r.dedicated.as_ref()),
            r.killed,
            r.mutants,
            r.kill_rate_3_families,
            reasons(&r.killed_by)
        );
    }
    md
}

pub fn write_table4(out: &Path, stem: &str, rows: &[Table4Row]) -> Result<Vec<PathBuf>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut head = vec!["benchmark".to_string(), "scope".to_string()];
    for (name, _) in COLUMNS {
        for side in ["paper", "ours", "delta"] {
            head.push(format!("{name}_{side}"));
        }
    }
    head.extend(
        [
            "candidates",
            "mutants",
            "killed",
            "killed_invariant",
            "killed_output",
            "killed_timeout",
            "killed_memory",
            "killed_crash",
            "kill_rate_3_families",
            "ded_candidates",
            "ded_plain_candidates",
            "ded_seconds",
            "ded_plain_seconds",
            "kill_rate_structural",
        ]
        .map(String::from),
    );
    w.write_record(&head)?;
    for r in rows {
        let mut rec = vec![r.benchmark.clone(), r.scope.to_string()];
        for (name, _) in COLUMNS {
            let c = r.cells[name];
            rec.extend([c.paper, c.ours, c.delta].map(csv_num));
        }
        rec.extend([
            r.candidates.to_string(),
            r.mutants.to_string(),
            r.killed.to_string(),
        ]);
        for reason in ["invariant", "output", "timeout", "memory", "crash"] {
            rec.push(r.killed_by.get(reason).copied().unwrap_or(0).to_string());
        }
        rec.push(format!("{}", r.kill_rate_3_families));
        let d = r.dedicated;
        rec.extend([
            csv_num(d.map(|d| d.candidates as f64)),
            csv_num(d.map(|d| d.plain_candidates as f64)),
            csv_num(d.map(|d| round3(d.seconds))),
            csv_num(d.map(|d| round3(d.plain_seconds))),
            csv_num(r.kill_rate_structural),
        ]);
        w.write_record(rec)?;
    }
    let csv = String::from_utf8(w.into_inner()?)?;
    Ok(vec![
        write(out.join(format!("{stem}.csv")), csv)?,
        write(out.join(format!("{stem}.json")), json(&rows)?)?,
        write(out.join(format!("{stem}.md")), table4_markdown(rows))?,
    ])
}
