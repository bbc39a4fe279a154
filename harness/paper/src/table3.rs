//! The paper's Table 3 beside ours. Ours is the pipeline's random-subset comparison
//! (`subsets.json`, written by `ferastrau_harness::subsets` with a row over the paper's three
//! families, [`FAMILIES`]); the paper's is `reports/paper/table3.csv`
//! (`benchmark,scope,random_kill_rate,vs_exhaustive_scope_minus_1,vs_exhaustive_scope`), read
//! here and shown as columns beside ours ([`Beside`]).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use ferastrau_artifacts::{EvaluationScope, Family, FamilyKills, Subsets, SubsetsRow};

use ferastrau_console::exit_code::usage;
use ferastrau_harness::subsets::sample::{Relation, Symbol as _};
use ferastrau_harness::subsets::table::Columns;

/// The paper's three families of mutation operators: our constant family is not one of them.
pub const FAMILIES: [Family; 3] = [Family::Operator, Family::Variable, Family::Call];

/// A run's kills over the paper's three families at one scope, from its per-family figures,
/// for a like-for-like comparison with the paper's kill rates (percent, two decimals, as
/// `evaluation.json`'s).
pub fn kills(s: &EvaluationScope) -> FamilyKills {
    let (killed, mutants) = FAMILIES
        .iter()
        .filter_map(|f| s.by_family.get(f))
        .fold((0u32, 0u32), |(k, m), f| (k + f.killed, m + f.mutants));
    FamilyKills {
        kill_rate: match mutants {
            0 => 0.0,
            _ => (10000.0 * f64::from(killed) / f64::from(mutants)).round() / 100.0,
        },
        killed,
        mutants,
    }
}

/// The kill rate of [`kills`].
pub fn kill_rate(s: &EvaluationScope) -> f64 {
    kills(s).kill_rate
}

/// A run's random-subset row over the paper's three families (`None`: `subsets` was not asked
/// for it).
pub fn row(r: &Subsets) -> Option<&SubsetsRow> {
    r.rows.iter().find(|t| t.families == FAMILIES)
}

/// The paper's Table 3 line for one benchmark.
#[derive(Clone, Debug, PartialEq)]
pub struct PaperLine {
    /// The paper's class name (`SearchTree`).
    pub benchmark: String,
    pub scope: u32,
    pub random_kill_rate: f64,
    pub vs_previous: Option<Relation>,
    pub vs_exhaustive: Option<Relation>,
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

/// The paper's line beside each of our reports: its R(s) and its verdicts against T(s − 1)
/// and T(s); our scope written `4 (paper 5)` where the paper's is another.
pub struct Beside<'a>(pub &'a BTreeMap<String, PaperLine>);

impl Beside<'_> {
    fn line(&self, r: &Subsets) -> Option<&PaperLine> {
        self.0.get(&r.benchmark)
    }
}

impl Columns for Beside<'_> {
    fn shown(&self, reports: &[Subsets]) -> bool {
        reports.iter().any(|r| self.line(r).is_some())
    }

    fn header(&self) -> (&str, &str) {
        (" paper R(s) | paper |", "---|---|")
    }

    fn cells(&self, r: &Subsets) -> String {
        let sym = |v: Option<Relation>| v.map_or("?", Relation::symbol);
        match self.line(r) {
            Some(p) => format!(
                " {:.2} | {} {} |",
                p.random_kill_rate,
                sym(p.vs_previous),
                sym(p.vs_exhaustive)
            ),
            None => "  |   |".into(),
        }
    }

    fn scope(&self, r: &Subsets) -> String {
        match self.line(r) {
            Some(p) if p.scope != r.scope => format!("{} (paper {})", r.scope, p.scope),
            _ => r.scope.to_string(),
        }
    }
}
