//! The random subsets and the reduction of a run as people and spreadsheets read them:
//! `subsets.csv` and `subsets.md` beside `subsets.json`, and the Markdown that `subsets
//! --markdown` prints. A caller may add columns to the Markdown ([`Columns`]: figures
//! published elsewhere to compare with); the files have none.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use ferastrau_artifacts::Artifact as _;

use super::sample::{Relation, Summary, Symbol as _};
use super::{names, Sampling, Subsets, SubsetsRow};
use ferastrau_artifacts::Family;

/// `subsets` on one run's directory: computes its random subsets over every family and over
/// each of `sets`, and its reduction ([`compute`](super::compute)), writes
/// `subsets.{json,csv,md}` there and, with `render_suite`, the reduced suite as inputs
/// (`reduced-suite.{json,txt}`, which rebuilds the run's crate to render them).
pub fn compute_and_write(
    dir: &Path,
    opts: &Sampling,
    sets: &[Vec<Family>],
    render_suite: bool,
) -> Result<Subsets> {
    let report = super::compute(dir, opts, sets)?;
    write(dir, &report)?;
    if render_suite {
        super::write_reduced_suite(dir, &report)?;
    }
    Ok(report)
}

/// Writes `subsets.{json,csv,md}` of `report` into `dir`.
fn write(dir: &Path, report: &Subsets) -> Result<()> {
    report.write(&dir.join(Subsets::FILE_NAME))?;
    std::fs::write(dir.join("subsets.csv"), csv(std::slice::from_ref(report))?)
        .context("cannot write subsets.csv")?;
    std::fs::write(
        dir.join("subsets.md"),
        markdown(std::slice::from_ref(report), &NoColumns),
    )
    .context("cannot write subsets.md")?;
    Ok(())
}

/// Columns a caller adds to the Markdown of the random subsets, after ours: figures published
/// elsewhere for the same benchmarks, to compare with. The files' tables have none.
pub trait Columns {
    /// Whether any report has something in them: a table for people shows no column that
    /// nothing fills.
    fn shown(&self, reports: &[Subsets]) -> bool;
    /// The header cells, each as `" name |"`, and as many separator cells (`"---|"`).
    fn header(&self) -> (&str, &str);
    /// The cells of `report`'s row, each as `" value |"`.
    fn cells(&self, report: &Subsets) -> String;
    /// The scope as the table shows it (where the other figures are of another scope).
    fn scope(&self, report: &Subsets) -> String {
        report.scope.to_string()
    }
}

/// No added columns (`ferastrau subsets`).
pub struct NoColumns;

impl Columns for NoColumns {
    fn shown(&self, _: &[Subsets]) -> bool {
        false
    }
    fn header(&self) -> (&str, &str) {
        ("", "")
    }
    fn cells(&self, _: &Subsets) -> String {
        String::new()
    }
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

/// One CSV line per benchmark and set of families.
pub fn csv(reports: &[Subsets]) -> Result<String> {
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
            let h = &r.reduction.held_out;
            w.write_record([
                r.benchmark.clone(),
                r.scope.to_string(),
                names(&t.families),
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

fn subsets_line(out: &mut String, r: &Subsets, t: &SubsetsRow, columns: Option<&dyn Columns>) {
    let s = &t.samples;
    let high = t
        .expected
        .kill_rate_high
        .map_or(String::new(), |h| format!("..{h:.2}"));
    let scope = columns.map_or_else(|| r.scope.to_string(), |c| c.scope(r));
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
    if let Some(c) = columns {
        out.push_str(&c.cells(r));
    }
    out.push('\n');
}

/// The random subsets (a table per set of families, in the order of the first report's rows)
/// and the reduction, as Markdown, with the caller's `columns` after ours.
pub fn markdown(reports: &[Subsets], columns: &dyn Columns) -> String {
    let mut out = String::new();
    let added = columns.shown(reports).then_some(columns);
    let samples = reports.first().map_or(0, |r| r.samples);
    let seed = reports.first().map_or(0, |r| r.seed);
    let sets: Vec<&Vec<Family>> = reports
        .first()
        .map(|r| r.rows.iter().map(|t| &t.families).collect())
        .unwrap_or_default();
    for f in sets {
        let title = match names(f).as_str() {
            "all" => "every family".to_string(),
            _ => format!("the families {}", names(f).replace('+', ", ")),
        };
        let _ = writeln!(
            out,
            "### Random subsets R(s), |R(s)| = |T(s−1)|: {title}\n\n\
             Kill rates in %. Expected: exact, over all subsets. Draws: {samples} seeded draws (seed {seed}), mean / min / median / q3 / max. \
             vs T(s−1), vs T(s): draws worse / equal / better. Ours: what most draws say (`<` random worse).\n"
        );
        out.push_str(
            "| benchmark | s | \\|T(s)\\| | \\|R(s)\\| | T(s−1) | T(s) | R(s) expected | R(s) draws | vs T(s−1) | vs T(s) | ours |",
        );
        let (header, separator) = added.map_or(("", ""), |c| c.header());
        out.push_str(header);
        out.push_str("\n|---|---|---|---|---|---|---|---|---|---|---|");
        out.push_str(separator);
        out.push('\n');
        for r in reports {
            for t in r.rows.iter().filter(|t| &t.families == f) {
                subsets_line(&mut out, r, t, added);
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
