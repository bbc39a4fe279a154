//! The paper's Table 3 (`reports/paper/table3.csv`: `benchmark,scope,random_kill_rate,
//! vs_exhaustive_scope_minus_1,vs_exhaustive_scope`), read as the reference line beside a run's
//! random-subset comparison (computed and written by the pipeline, `ferastrau_harness::subsets`).

use std::path::Path;

use anyhow::Result;

use ferastrau_console::exit_code::usage;
use ferastrau_harness::subsets::sample::{Relation, Symbol as _};
use ferastrau_harness::subsets::{PaperLine, Report};

/// A benchmark name reduced for matching the paper's (`search_tree` and `SearchTree` meet).
fn plain(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Every line of the paper's Table 3 CSV.
pub fn paper_lines(path: &Path) -> Result<Vec<PaperLine>> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    let mut lines = Vec::new();
    for rec in reader.records() {
        let rec = rec.map_err(|e| usage(format!("{}: {e}", path.display())))?;
        let field = |i: usize| rec.get(i).unwrap_or("").trim();
        let benchmark = field(0);
        let bad = |what: &str| {
            usage(format!(
                "{}: {benchmark}'s {what} is unreadable",
                path.display()
            ))
        };
        lines.push(PaperLine {
            benchmark: benchmark.to_string(),
            scope: field(1).parse().map_err(|_| bad("scope"))?,
            random_kill_rate: field(2).parse().map_err(|_| bad("kill rate"))?,
            vs_previous: Relation::parse(field(3)),
            vs_exhaustive: Relation::parse(field(4)),
        });
    }
    Ok(lines)
}

/// The paper's line for `benchmark` in its Table 3 CSV, if the table has one.
pub fn paper_line(path: &Path, benchmark: &str, scope: u32) -> Result<Option<PaperLine>> {
    let Some(line) = paper_lines(path)?
        .into_iter()
        .find(|l| plain(&l.benchmark) == plain(benchmark))
    else {
        return Ok(None);
    };
    if line.scope != scope {
        eprintln!(
            "warning: the paper's Table 3 has {benchmark} at scope {}, this run's matrix is of scope {scope}",
            line.scope
        );
    }
    Ok(Some(line))
}

/// The paper's line for a run's report, from the CSV at `paper` (`None` without a CSV): the
/// reference `ferastrau_harness::subsets::table::compute_and_write` adds.
pub fn reference(paper: Option<&Path>) -> impl Fn(&Report) -> Result<Option<PaperLine>> + '_ {
    move |r: &Report| match paper {
        Some(p) => paper_line(p, &r.benchmark, r.scope),
        None => Ok(None),
    }
}
