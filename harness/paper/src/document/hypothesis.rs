//! The paper's hypotheses judged by stated rules, on our runs and on the paper's own figures
//! alike: a rule that the paper's data would fail is stricter than the paper's claim.

use super::FEASIBLE_SECONDS;
use crate::paper::Paper;
use crate::table3::PaperLine;
use crate::{BenchmarkReport, NextScope};
use ferastrau_artifacts::EvaluationScope;
use ferastrau_harness::subsets::sample::{Relation, Symbol as _};

/// The smallest scope from which the kill rate no longer changes (the mutation-adequate scope
/// of the run), with that rate.
pub fn adequate_scope(scopes: &[(u32, f64)]) -> Option<(u32, f64)> {
    let last = scopes.last()?.1;
    let mut s = scopes.last()?.0;
    for (scope, rate) in scopes.iter().rev() {
        if (rate - last).abs() > 1e-9 {
            break;
        }
        s = *scope;
    }
    Some((s, last))
}

/// One scope's figures that the rules read: ours (`evaluation.json`) or the paper's (Table 4).
struct ScopeFigures {
    scope: u32,
    kill_rate: f64,
    statement_coverage: f64,
    branch_coverage: f64,
    /// Generating the inputs and checking the original on them.
    seconds: f64,
}

impl From<&EvaluationScope> for ScopeFigures {
    fn from(s: &EvaluationScope) -> ScopeFigures {
        ScopeFigures {
            scope: s.scope,
            kill_rate: s.kill_rate,
            statement_coverage: s.statement_coverage,
            branch_coverage: s.branch_coverage,
            seconds: s.generation_seconds + s.checking_seconds,
        }
    }
}

impl From<&crate::paper::Table4Row> for ScopeFigures {
    fn from(r: &crate::paper::Table4Row) -> ScopeFigures {
        ScopeFigures {
            scope: r.scope,
            kill_rate: r.kill_rate,
            statement_coverage: r.statement_coverage,
            branch_coverage: r.branch_coverage,
            seconds: r.gen_seconds + r.checking_seconds,
        }
    }
}

/// Mutation (the strict rule), Coverage and Feasibility judged on one benchmark's scopes, ours
/// or the paper's: the same rules for both.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub largest: u32,
    /// The mutation-adequate scope ([`adequate_scope`]) and its kill rate.
    pub adequate: (u32, f64),
    pub mutation: bool,
    /// The smallest scope at which statement and branch coverage reach their largest values.
    pub coverage_scope: u32,
    pub kill_at_coverage: f64,
    pub coverage: bool,
    pub feasibility_seconds: f64,
    pub feasibility: bool,
}

fn judge(scopes: &[ScopeFigures]) -> Option<Judged> {
    let rates: Vec<(u32, f64)> = scopes.iter().map(|s| (s.scope, s.kill_rate)).collect();
    let adequate = adequate_scope(&rates)?;
    let largest = scopes.iter().map(|s| s.scope).max()?;
    let st = scopes
        .iter()
        .map(|s| s.statement_coverage)
        .fold(0.0, f64::max);
    let br = scopes.iter().map(|s| s.branch_coverage).fold(0.0, f64::max);
    let full = scopes
        .iter()
        .find(|s| s.statement_coverage >= st && s.branch_coverage >= br)?;
    let seconds = scopes.iter().find(|s| s.scope == adequate.0)?.seconds;
    Some(Judged {
        largest,
        adequate,
        mutation: adequate.0 < largest,
        coverage_scope: full.scope,
        kill_at_coverage: full.kill_rate,
        coverage: full.kill_rate < adequate.1,
        feasibility_seconds: seconds,
        feasibility: seconds <= FEASIBLE_SECONDS,
    })
}

/// The paper's own figures judged by the rules our runs are judged by: its Table 4 for
/// Mutation, Coverage and Feasibility, its Table 3 for Randomness. (Its seconds are a 1.8 GHz
/// Pentium 4's; the paper's survivors were all argued equivalent, so by its own definition each
/// benchmark's adequate scope is the one from which the kill rate no longer changes.)
#[derive(Clone, Debug, PartialEq)]
pub struct PaperFindings {
    pub class: String,
    pub judged: Judged,
    /// The paper's Table 3 line (`None`: it has none for the benchmark).
    pub random: Option<PaperLine>,
}

impl PaperFindings {
    /// Table 3's R(s) against T(s − 1) is `<` (`None`: no line for the benchmark).
    pub(super) fn randomness(&self) -> Option<bool> {
        self.random
            .as_ref()
            .map(|l| l.vs_previous == Some(Relation::Worse))
    }
}

pub fn paper_findings(paper: &Paper, name: &str, class: &str) -> Option<PaperFindings> {
    let scopes: Vec<ScopeFigures> = paper.table4.get(name)?.iter().map(Into::into).collect();
    Some(PaperFindings {
        class: class.to_string(),
        judged: judge(&scopes)?,
        random: paper.table3.get(name).cloned(),
    })
}

/// One benchmark's findings for the hypotheses we can judge.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    pub class: String,
    pub judged: Judged,
    /// The paper's adequate scope and kill rate by the same rule, from its Table 4.
    pub paper_adequate: Option<(u32, f64)>,
    /// The mutation-adequate scope as the paper defines it, from the evidence we have: the
    /// smallest scope from which the kill rate no longer changes up to the largest, provided
    /// no survivor of the largest dies at scope + 1 (`None`: one does, so no scope run is
    /// adequate).
    pub adequate_by_next_scope: Option<u32>,
    /// Survivors of the largest scope run again at scope + 1, and how many died there.
    pub next_scope_tried: usize,
    pub next_scope_killed: usize,
}

/// How many survivors of the largest scope were run again at scope + 1, and how many of them
/// died there (a survivor scope + 1 was not run for says nothing either way).
pub(super) fn next_scope_evidence(survivors: &[crate::Survivor]) -> (usize, usize) {
    let tried: Vec<&NextScope> = survivors
        .iter()
        .filter_map(|s| s.next_scope.as_ref())
        .filter(|n| !matches!(n, NextScope::NotRun { .. }))
        .collect();
    let killed = tried
        .iter()
        .filter(|n| matches!(n, NextScope::Killed { .. }))
        .count();
    (tried.len(), killed)
}

pub fn findings(paper: &Paper, run: &BenchmarkReport) -> Option<Findings> {
    let scopes: Vec<ScopeFigures> = run.scopes.iter().map(Into::into).collect();
    let judged = judge(&scopes)?;
    let paper_adequate = paper.table4.get(&run.name).and_then(|rows| {
        let rates: Vec<(u32, f64)> = rows.iter().map(|r| (r.scope, r.kill_rate)).collect();
        adequate_scope(&rates)
    });
    let (tried, killed_next) = next_scope_evidence(&run.survivors);
    Some(Findings {
        class: run.class.clone(),
        adequate_by_next_scope: (killed_next == 0).then_some(judged.adequate.0),
        judged,
        paper_adequate,
        next_scope_tried: tried,
        next_scope_killed: killed_next,
    })
}

fn verdict(held: usize, of: usize) -> String {
    match held {
        _ if of == 0 => "no data".into(),
        h if h == of => format!("**supported** ({h} of {of} benchmarks)"),
        0 => format!("**not supported** (0 of {of} benchmarks)"),
        h => format!("**partly supported** ({h} of {of} benchmarks)"),
    }
}

/// The Randomness verdicts from the benchmarks' Table 3. It holds for a benchmark when random
/// subsets R(s) of T(s), each as large as T(s − 1), kill fewer of the paper's three families
/// than T(s − 1) does (Table 3's `<` against T(s − 1)): judged once by most of the seeded draws
/// (`=` or `>` is against it) and once by the exact expected kill rate of a random subset.
pub(super) fn randomness(t3: &[ferastrau_artifacts::Subsets], benchmarks: usize) -> String {
    if t3.is_empty() {
        return "- **Randomness**: *pending* — it needs Table 3 (random subsets of scope s the size of scope s − 1), which no benchmark here has yet (see \"Table 3\" below).\n".into();
    }
    let rows: Vec<(&str, Option<&ferastrau_artifacts::SubsetsRow>)> = t3
        .iter()
        .map(|r| (r.benchmark.as_str(), crate::table3::row(r)))
        .collect();
    let by_draws = rows
        .iter()
        .filter(|(_, row)| row.and_then(|r| r.verdict_previous) == Some(Relation::Worse))
        .count();
    let expected_worse =
        |r: &ferastrau_artifacts::SubsetsRow| r.expected.kill_rate < r.previous.kill_rate;
    let by_expectation = rows
        .iter()
        .filter(|(_, row)| row.is_some_and(expected_worse))
        .count();
    let each: Vec<String> = rows
        .iter()
        .map(|(b, row)| {
            let draws = row
                .and_then(|r| r.verdict_previous)
                .map_or("?", |v| v.symbol());
            match row {
                Some(r) => format!(
                    "{b} `{draws}` ({:.2} expected against {:.2})",
                    r.expected.kill_rate, r.previous.kill_rate
                ),
                None => format!("{b} `?`"),
            }
        })
        .collect();
    format!(
        "- **Randomness**: by most of the draws {}; by the expected kill rate {} ({} of {benchmarks} benchmarks have Table 3; R(s) against T(s − 1): {}). Rule: holds for a benchmark when random subsets R(s) of T(s), each of |T(s − 1)| inputs, kill fewer of the paper's three families than T(s − 1) — judged once by most of the seeded draws and once by the exact expectation over all such subsets.\n",
        verdict(by_draws, rows.len()),
        verdict(by_expectation, rows.len()),
        t3.len(),
        each.join(", ")
    )
}

/// The hypotheses: each verdict on our runs and on the paper's figures, by its rule, then the
/// findings benchmark by benchmark.
pub(super) fn section(
    paper: &Paper,
    runs: &[BenchmarkReport],
    t3: &[ferastrau_artifacts::Subsets],
) -> String {
    let mut md = String::new();
    let fs: Vec<Findings> = runs.iter().filter_map(|r| findings(paper, r)).collect();
    md += "## Hypotheses\n\n";
    md += "The paper states four hypotheses, named here by their names only; each verdict below is computed from our runs by the rule given with it, and the paper's own figures (its Tables 3 and 4) are judged by the same rules beside ours: a rule that the paper's data would fail is stricter than the paper's claim.\n\n";
    let ps: Vec<PaperFindings> = runs
        .iter()
        .filter_map(|r| paper_findings(paper, &r.name, &r.class))
        .collect();
    // A rule's verdict on our runs, then on the paper's figures.
    let both = |rule: fn(&Judged) -> bool| {
        let ours = fs.iter().filter(|f| rule(&f.judged)).count();
        let papers = ps.iter().filter(|p| rule(&p.judged)).count();
        (verdict(ours, fs.len()), verdict(papers, ps.len()))
    };
    let (ours, papers) = both(|j| j.mutation);
    md += &format!(
        "- **Mutation**: {ours}; the paper's data by the same rule: {papers}. Rule: a benchmark's *mutation-adequate scope* is the smallest scope from which its kill rate no longer changes up to the largest scope run; the hypothesis holds for it when that scope is below the largest (the last scope adds no kill).\n",
    );
    let unevidenced = fs
        .iter()
        .filter(|f| f.adequate_by_next_scope.is_some() && f.next_scope_tried == 0)
        .count();
    md += &format!(
        "- **Mutation, by the paper's definition**: {}{}. Rule: the mutation-adequate scope is the smallest from which every survivor survives scope + 1; our evidence is the kill rate up to the largest scope and the survivors of the largest scope run again at scope + 1 (`reproduce`): it holds for a benchmark when none of them dies there. (The paper's own survivors were all argued unkillable, so by this rule its data holds for every benchmark.)\n",
        verdict(
            fs.iter().filter(|f| f.adequate_by_next_scope.is_some()).count(),
            fs.len()
        ),
        match unevidenced {
            0 => String::new(),
            n => format!(", {n} of them without evidence (no survivor of the largest scope was run at scope + 1)"),
        }
    );
    let (ours, papers) = both(|j| j.coverage);
    md += &format!(
        "- **Coverage**: {ours}; the paper's data: {papers}. Rule: holds for a benchmark when, at the smallest scope reaching its largest statement and branch coverage, fewer mutants die than at the mutation-adequate scope (complete coverage is reached before the kill rate stops rising).\n",
    );
    let (ours, papers) = both(|j| j.feasibility);
    md += &format!(
        "- **Feasibility**: {ours}; the paper's data: {papers}. Rule: holds for a benchmark when generating the inputs and checking the original on them at the mutation-adequate scope takes at most {FEASIBLE_SECONDS:.0} s (ours on this machine, the paper's on its own).\n",
    );
    md += &randomness(t3, runs.len());
    let paper_random: Vec<bool> = ps.iter().filter_map(PaperFindings::randomness).collect();
    md += &format!(
        "- **Randomness, the paper's data** (its Table 3, R(s) against T(s − 1)): {}.\n\n",
        verdict(
            paper_random.iter().filter(|&&r| r).count(),
            paper_random.len()
        )
    );
    md += &ours_table(&fs);
    md += &papers_table(&ps);
    md
}

/// Our findings, benchmark by benchmark.
fn ours_table(fs: &[Findings]) -> String {
    let mut md = String::new();
    md += "| benchmark | largest scope | adequate scope, kill % (paper's) | Mutation | adequate by scope + 1 (survivors killed there / run there) | full-coverage scope, kill % there | Coverage | seconds at adequate scope | Feasibility |\n|---|---|---|---|---|---|---|---|---|\n";
    for f in fs {
        let j = &f.judged;
        let paper_adequate = f
            .paper_adequate
            .map(|(s, r)| format!("{s}, {r:.2}"))
            .unwrap_or_else(|| "—".into());
        let by_next = match f.adequate_by_next_scope {
            Some(s) if f.next_scope_tried == 0 => format!("{s} (scope + 1 not run)"),
            Some(s) => format!("{s} ({} / {})", f.next_scope_killed, f.next_scope_tried),
            None => format!(
                "none up to {} ({} / {})",
                j.largest, f.next_scope_killed, f.next_scope_tried
            ),
        };
        md += &format!(
            "| {} | {} | {}, {:.2} ({}) | {} | {} | {}, {:.2} | {} | {:.2} | {} |\n",
            f.class,
            j.largest,
            j.adequate.0,
            j.adequate.1,
            paper_adequate,
            yes(j.mutation),
            by_next,
            j.coverage_scope,
            j.kill_at_coverage,
            yes(j.coverage),
            j.feasibility_seconds,
            yes(j.feasibility)
        );
    }
    md
}

/// The paper's own findings by the same rules, benchmark by benchmark.
fn papers_table(ps: &[PaperFindings]) -> String {
    let mut md = String::new();
    md += "\nThe paper's own figures, judged by the same rules (seconds on its 1.8 GHz Pentium 4):\n\n";
    md += "| benchmark | largest scope | adequate scope, kill % | Mutation | full-coverage scope, kill % there | Coverage | seconds at adequate scope | Feasibility | Table 3: R(s) vs T(s − 1) | Randomness |\n|---|---|---|---|---|---|---|---|---|---|\n";
    for p in ps {
        let j = &p.judged;
        let t3 = p.random.as_ref().map_or("—".to_string(), |l| {
            format!(
                "`{}` at scope {}",
                l.vs_previous.map_or("?", |v| v.symbol()),
                l.scope
            )
        });
        md += &format!(
            "| {} | {} | {}, {:.2} | {} | {}, {:.2} | {} | {:.2} | {} | {} | {} |\n",
            p.class,
            j.largest,
            j.adequate.0,
            j.adequate.1,
            yes(j.mutation),
            j.coverage_scope,
            j.kill_at_coverage,
            yes(j.coverage),
            j.feasibility_seconds,
            yes(j.feasibility),
            t3,
            p.randomness().map_or("—", yes)
        );
    }
    md
}

/// A rule's finding in a table.
fn yes(b: bool) -> &'static str {
    if b {
        "holds"
    } else {
        "does not hold"
    }
}
