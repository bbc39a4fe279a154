//! Table 3 and the reduction of a run as people and spreadsheets read them: `table3.csv` and
//! `table3.md` beside `table3.json`, and the Markdown that `subsets --markdown` and
//! `REPRODUCTION.md` show. The reference line (`Report::paper`) is whatever the caller added:
//! the paper's (read by `harness/paper/`) or none.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use ferastrau_artifacts::Artifact as _;

use super::sample::{Relation, Summary, Symbol as _};
use super::{Families, PaperLine, Report, Sampling, Table3Row};

/// `subsets` on one run's directory: computes its Table 3 and reduction
/// ([`compute`](super::compute)), adds the line `reference` gives for it (`None`: no
/// reference), writes `table3.{json,csv,md}` there and, with `render_suite`, the reduced suite
/// as inputs (`reduced-suite.{json,txt}`, which rebuilds the run's crate to render them).
pub fn compute_and_write(
    dir: &Path,
    opts: &Sampling,
    reference: &dyn Fn(&Report) -> Result<Option<PaperLine>>,
    render_suite: bool,
) -> Result<Report> {
    let mut report = super::compute(dir, opts)?;
    report.paper = reference(&report)?;
    write(dir, &report)?;
    if render_suite {
        super::write_reduced_suite(dir, &report)?;
    }
    Ok(report)
}

/// Writes `table3.{json,csv,md}` of `report` into `dir`.
fn write(dir: &Path, report: &Report) -> Result<()> {
    report.write(&dir.join(super::TABLE3_JSON))?;
    std::fs::write(dir.join("table3.csv"), csv(std::slice::from_ref(report))?)
        .context("cannot write table3.csv")?;
    std::fs::write(
        dir.join("table3.md"),
        markdown(std::slice::from_ref(report)),
    )
    .context("cannot write table3.md")?;
    Ok(())
}

fn sym(v: Option<Relation>) -> &'static str {
    v.map_or("?", Relation::symbol)
}

fn num(x: Option<f64>) -> String {
    x.map_or(String::new(), |x| format!("{x:.2}"))
}

fn stat(s: &Option<Summary>, f: fn(&Summary) -> f64) -> String {
    num(s.as_ref().map(f))
}

/// One CSV line per benchmark and set of families. The reference line's columns
/// (`paper_*`) are always there, empty without one: a CSV's header is a schema that programs
/// read by name, the same whichever command wrote the file.
pub fn csv(reports: &[Report]) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "benchmark",
        "scope",
        "families",
        "mutants",
        "inputs",
        "subset_size",
        "samples",
        "seed",
        "previous_kill_rate",
        "exhaustive_kill_rate",
        "expected_kill_rate",
        "expected_kill_rate_high",
        "mean",
        "min",
        "q1",
        "median",
        "q3",
        "max",
        "worse_than_previous",
        "equal_to_previous",
        "better_than_previous",
        "undetermined_previous",
        "worse_than_exhaustive",
        "equal_to_exhaustive",
        "better_than_exhaustive",
        "undetermined_exhaustive",
        "verdict_previous",
        "verdict_exhaustive",
        "paper_random_kill_rate",
        "paper_vs_previous",
        "paper_vs_exhaustive",
        "incomplete_mutants",
        "reduced_size",
        "held_out_size",
        "held_out_reduced_kill_rate",
        "held_out_random_expected_kill_rate",
        "held_out_random_mean",
        "held_out_exhaustive_kill_rate",
    ])?;
    for r in reports {
        for t in &r.rows {
            let p = r.paper.as_ref();
            let h = &r.reduction.held_out;
            w.write_record([
                r.benchmark.clone(),
                r.scope.to_string(),
                families(t.families).into(),
                t.mutants.to_string(),
                r.inputs.to_string(),
                r.subset_size.to_string(),
                r.samples.to_string(),
                r.seed.to_string(),
                num(Some(t.previous.kill_rate)),
                num(Some(t.exhaustive.kill_rate)),
                num(Some(t.expected.kill_rate)),
                num(t.expected.kill_rate_high),
                stat(&t.samples, |s| s.mean),
                stat(&t.samples, |s| s.min),
                stat(&t.samples, |s| s.q1),
                stat(&t.samples, |s| s.median),
                stat(&t.samples, |s| s.q3),
                stat(&t.samples, |s| s.max),
                t.vs_previous.worse.to_string(),
                t.vs_previous.equal.to_string(),
                t.vs_previous.better.to_string(),
                t.vs_previous.undetermined.to_string(),
                t.vs_exhaustive.worse.to_string(),
                t.vs_exhaustive.equal.to_string(),
                t.vs_exhaustive.better.to_string(),
                t.vs_exhaustive.undetermined.to_string(),
                sym(t.verdict_previous).into(),
                sym(t.verdict_exhaustive).into(),
                num(p.map(|p| p.random_kill_rate)),
                p.map_or("", |p| sym(p.vs_previous)).into(),
                p.map_or("", |p| sym(p.vs_exhaustive)).into(),
                r.incomplete_mutants.len().to_string(),
                r.reduction.size.to_string(),
                h.size.to_string(),
                num(Some(h.reduced.kill_rate)),
                num(Some(h.random_expected.kill_rate)),
                stat(&h.random_samples, |s| s.mean),
                num(Some(h.exhaustive.kill_rate)),
            ])?;
        }
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}

fn families(f: Families) -> &'static str {
    match f {
        Families::All => "all",
        Families::Paper => "paper",
    }
}

fn table3_line(out: &mut String, r: &Report, t: &Table3Row, reference: bool) {
    let s = &t.samples;
    let (pr, pp, pe) = match &r.paper {
        Some(p) => (
            format!("{:.2}", p.random_kill_rate),
            sym(p.vs_previous),
            sym(p.vs_exhaustive),
        ),
        None => (String::new(), "", ""),
    };
    let high = t
        .expected
        .kill_rate_high
        .map_or(String::new(), |h| format!("..{h:.2}"));
    let scope = match &r.paper {
        Some(p) if p.scope != r.scope => format!("{} (paper {})", r.scope, p.scope),
        _ => r.scope.to_string(),
    };
    let _ = write!(
        out,
        "| {} | {} | {} | {} | {:.2} | {:.2} | **{:.2}**{high} | {} / {} / {} / {} / {} | {}/{}/{} | {}/{}/{} | {} {} |",
        r.benchmark,
        scope,
        r.inputs,
        r.subset_size,
        t.previous.kill_rate,
        t.exhaustive.kill_rate,
        t.expected.kill_rate,
        stat(s, |s| s.mean),
        stat(s, |s| s.min),
        stat(s, |s| s.median),
        stat(s, |s| s.q3),
        stat(s, |s| s.max),
        t.vs_previous.worse,
        t.vs_previous.equal,
        t.vs_previous.better,
        t.vs_exhaustive.worse,
        t.vs_exhaustive.equal,
        t.vs_exhaustive.better,
        sym(t.verdict_previous),
        sym(t.verdict_exhaustive),
    );
    if reference {
        let _ = write!(out, " {pr} | {pp} {pe} |");
    }
    out.push('\n');
}

/// Table 3 (paper's families, then all families) and the reduction, as Markdown. The columns
/// of the reference line (`paper R(s)`, `paper`) are there when some report has one: a table
/// for people shows no column that nothing fills.
pub fn markdown(reports: &[Report]) -> String {
    let mut out = String::new();
    let reference = reports.iter().any(|r| r.paper.is_some());
    let samples = reports.first().map_or(0, |r| r.samples);
    let seed = reports.first().map_or(0, |r| r.seed);
    for (f, title) in [
        (
            Families::Paper,
            "the paper's three families (operator, variable, call)",
        ),
        (Families::All, "all four families"),
    ] {
        let _ = writeln!(
            out,
            "### Random subsets R(s), |R(s)| = |T(s−1)|: {title}\n\n\
             Kill rates in %. Expected: exact, over all subsets. Draws: {samples} seeded draws (seed {seed}), mean / min / median / q3 / max. \
             vs T(s−1), vs T(s): draws worse / equal / better. Ours: what most draws say (`<` random worse).\n"
        );
        out.push_str(
            "| benchmark | s | \\|T(s)\\| | \\|R(s)\\| | T(s−1) | T(s) | R(s) expected | R(s) draws | vs T(s−1) | vs T(s) | ours |",
        );
        if reference {
            out.push_str(" paper R(s) | paper |");
        }
        out.push_str("\n|---|---|---|---|---|---|---|---|---|---|---|");
        if reference {
            out.push_str("---|---|");
        }
        out.push('\n');
        for r in reports {
            for t in r.rows.iter().filter(|t| t.families == f) {
                table3_line(&mut out, r, t, reference);
            }
        }
        out.push('\n');
    }
    out.push_str(
        "### Test-suite reduction (greedy set cover over T(s)), held out\n\n\
         Reduced: the cover of every mutant T(s) kills. Held out: a cover chosen on a seeded half A of the mutants, \
         measured on the other half B, beside random subsets of the same size on B (exact expectation; mean of the draws) and T(s) on B.\n\n\
         | benchmark | s | \\|T(s)\\| | reduced | chosen on A | size | on B: reduced | random expected | random mean | T(s) |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in reports {
        let h = &r.reduction.held_out;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} mutants | {} | **{:.2}** | {:.2} | {} | {:.2} |",
            r.benchmark,
            r.scope,
            r.inputs,
            r.reduction.size,
            h.chosen_on,
            h.size,
            h.reduced.kill_rate,
            h.random_expected.kill_rate,
            stat(&h.random_samples, |s| s.mean),
            h.exhaustive.kill_rate,
        );
    }
    let notes: Vec<String> = reports
        .iter()
        .filter(|r| !r.incomplete_mutants.is_empty() || !r.disagreements.is_empty())
        .map(|r| {
            format!(
                "- {}: {} mutant(s) with inputs of unknown outcome (bounded: `low..high`); {} disagreement(s) with the first-kill run",
                r.benchmark,
                r.incomplete_mutants.len(),
                r.disagreements.len()
            )
        })
        .collect();
    if !notes.is_empty() {
        out.push_str("\nNotes:\n");
        for n in notes {
            out.push_str(&n);
            out.push('\n');
        }
    }
    out
}
