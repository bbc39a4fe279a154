//! What the kill matrix says about smaller suites: random subsets of the exhaustive suite and a
//! greedy test-suite reduction evaluated on held-out mutants (the `subsets` command).
//!
//! For a run evaluated over scopes `..=s` with `--kill-matrix`, R(s) is a uniformly random
//! subset of T(s) with |R(s)| = |T(s−1)|. From scope s's matrix: the exact expected kill rate
//! of R(s) ([`expect`]), `samples` seeded draws ([`sample`]) with their distribution and how
//! each compares with T(s−1) (the first-kill run's kill count at s−1) and T(s). The kill
//! rate's denominator is evaluate's: the evaluated mutants (viable, sampled, not skipped),
//! over every family and over each set of families the caller asks for (`--families`).
//! Rows the matrix left incomplete are bounded: the expectation and every draw are given as
//! (known kills) .. (known kills + unknown inputs), and comparisons they could tip are
//! `undetermined`.

pub mod expect;
pub mod reduce;
pub mod reduced_suite;
pub mod sample;
pub mod table;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Result;
use ferastrau_artifacts::{
    Artifact, CompilerVerdict, Evaluation, EvaluationScope, Family, FamilyKills, MutantEntry,
    Mutants,
};
use roaring::RoaringBitmap;

use crate::matrix::{KillMatrix, Row};
use ferastrau_console::exit_code::{broken, usage};
use sample::{Compare as _, Comparison};

/// What `subsets` writes into a run's directory (removed when a new run starts there).
pub const FILES: [&str; 5] = [
    Subsets::FILE_NAME,
    "subsets.csv",
    "subsets.md",
    "reduced-suite.json",
    "reduced-suite.txt",
];

/// How the random subsets are drawn: how many, from which seed.
#[derive(Clone, Debug)]
pub struct Sampling {
    /// Random draws per comparison (`--random-samples`).
    pub samples: u64,
    /// Seed of the draws and of the held-out split.
    pub seed: u64,
}

/// Everything `subsets` computes for one run (`subsets.json`); the comparison and the reduction of a run, as `subsets.json` holds them: a suite's kills,
/// the exact expectation over random subsets, a row over one set of families, the held-out
/// measure and the greedy reduction.
pub use ferastrau_artifacts::{Expected, HeldOut, Kills, Reduction, Subsets, SubsetsRow};

/// Reads a report of the run: one missing or unreadable is a usage error naming it.
fn read<T: Artifact>(path: &Path) -> Result<T> {
    T::read(path).map_err(|e| usage(format!("{e:#}")))
}

fn kills(killed: u64, high: u64, of: u64) -> Kills {
    Kills {
        killed: killed as u32,
        kill_rate: percent(killed as f64, of),
        killed_high: (high != killed).then_some(high as u32),
    }
}

fn percent(x: f64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        (10000.0 * x / of as f64).round() / 100.0
    }
}

/// The exact expectation of random `r`-subsets of `n` inputs over `rows`.
fn expected(rows: &[&Row], n: u64, r: u64) -> Expected {
    let of = rows.len() as u64;
    let low = expect::expected_killed(n, r, rows.iter().map(|x| x.kills.len()));
    let high = expect::expected_killed(n, r, rows.iter().map(|x| x.kills.len() + x.unknown.len()));
    Expected {
        killed: (low * 1000.0).round() / 1000.0,
        kill_rate: percent(low, of),
        kill_rate_high: rows
            .iter()
            .any(|x| !x.complete())
            .then_some(percent(high, of)),
    }
}

/// Known and possible kills of a whole suite among `rows`.
fn suite_kills(rows: &[&Row], suite: Option<&RoaringBitmap>) -> Kills {
    let hit = |b: &RoaringBitmap| match suite {
        Some(s) => !b.is_disjoint(s),
        None => !b.is_empty(),
    };
    let low = rows.iter().filter(|r| hit(&r.kills)).count() as u64;
    let high = rows
        .iter()
        .filter(|r| hit(&r.kills) || hit(&r.unknown))
        .count() as u64;
    kills(low, high, rows.len() as u64)
}

/// Computes the report of the run in `dir` (its `evaluation.json`, `mutants.json` and the
/// matrix of its largest scope): a row over every family, then one over each of `sets`.
pub fn compute(dir: &Path, opts: &Sampling, sets: &[Vec<Family>]) -> Result<Subsets> {
    let eval: Evaluation = read(&dir.join("evaluation.json"))?;
    if let Some(why) = &eval.broken {
        return Err(broken(format!(
            "{} is a broken run ({why}): its kill rates mean nothing",
            dir.display()
        )));
    }
    let (s, m) = largest_matrix(dir, &eval)?;
    let line = |x: u32| eval.scopes.iter().find(|l| l.scope == x);
    let here = line(s).ok_or_else(|| usage(format!("evaluation.json has no scope {s}")))?;
    let prev = s.checked_sub(1).and_then(line).ok_or_else(|| {
        usage(format!(
            "the random subsets compare with scope {}: evaluate scopes 1..{s}",
            s.saturating_sub(1)
        ))
    })?;
    let listed = read::<Mutants>(&dir.join("mutants.json"))?.mutants;
    let left_out = left_out(&listed, &eval, &m);
    if here.inputs != m.header.inputs
        || u64::from(here.mutants) + left_out.len() as u64 != m.rows.len() as u64
    {
        return Err(usage(format!(
            "{}: the kill matrix of scope {s} ({} inputs, {} mutants) is not of this run's evaluation ({} inputs, {} mutants)",
            dir.display(), m.header.inputs, m.rows.len(), here.inputs, u64::from(here.mutants) + left_out.len() as u64
        )));
    }
    let family: BTreeMap<u32, Family> = listed.iter().map(|x| (x.id, x.family)).collect();
    let n = m.header.inputs;
    let r = prev.inputs;
    let mut table = Vec::new();
    for set in std::iter::once(Family::ALL.to_vec()).chain(sets.iter().map(|s| ordered(s))) {
        // The mutants the run's kill rates count (see `left_out`), of the set's families.
        let rows: Vec<&Row> = m
            .rows
            .iter()
            .filter(|r| !left_out.contains(&r.mutant))
            .filter(|r| family.get(&r.mutant).is_some_and(|f| set.contains(f)))
            .collect();
        let sum = |scope: &EvaluationScope, of: fn(&FamilyKills) -> u32| -> u32 {
            set.iter()
                .filter_map(|f| scope.by_family.get(f))
                .map(of)
                .sum()
        };
        if rows.len() as u64 != u64::from(sum(here, |k| k.mutants)) {
            return Err(usage(format!(
                "{}: mutants.json gives {} evaluated mutants of {}, evaluation.json {}",
                dir.display(),
                rows.len(),
                names(&set),
                sum(here, |k| k.mutants)
            )));
        }
        let exhaustive = suite_kills(&rows, None);
        let first_kill = sum(here, |k| k.killed);
        if exhaustive.killed_high.is_none() && exhaustive.killed != first_kill {
            return Err(broken(format!(
                "{}: the kill matrix kills {} mutants of {} at scope {s}, the first-kill run {first_kill}",
                dir.display(),
                exhaustive.killed,
                names(&set)
            )));
        }
        let prev_killed = sum(prev, |k| k.killed).into();
        table.push(table_row(set, &rows, n, r, prev_killed, exhaustive, opts));
    }
    Ok(Subsets {
        schema_version: Subsets::SCHEMA_VERSION,
        benchmark: eval.benchmark,
        scope: s,
        inputs: n,
        subset_size: r,
        samples: opts.samples,
        seed: opts.seed,
        incomplete_mutants: m
            .rows
            .iter()
            .filter(|r| !r.complete())
            .map(|r| r.mutant)
            .collect(),
        disagreements: m.header.disagreements.clone(),
        rows: table,
        reduction: reduction(&m, opts),
    })
}

/// A set of families in `Family`'s order, each once.
fn ordered(set: &[Family]) -> Vec<Family> {
    Family::ALL
        .into_iter()
        .filter(|f| set.contains(f))
        .collect()
}

/// A set of families as tables and messages name it: `all` for every family, else the names
/// joined by `+` (`operator+variable+call`).
pub fn names(set: &[Family]) -> String {
    if ordered(set) == Family::ALL {
        "all".into()
    } else {
        let names: Vec<&str> = ordered(set).into_iter().map(Family::as_str).collect();
        names.join("+")
    }
}

/// The run's largest scope and its kill matrix, which must be of the run's benchmark.
fn largest_matrix(dir: &Path, eval: &Evaluation) -> Result<(u32, KillMatrix)> {
    let scopes = crate::matrix::file::scopes(dir)?;
    let s = *scopes.last().ok_or_else(|| {
        usage(format!(
            "{} has no kill matrix: run evaluate with --kill-matrix",
            dir.display()
        ))
    })?;
    let m = crate::matrix::file::read(dir, s)?;
    if m.header.benchmark != eval.benchmark {
        return Err(usage(format!(
            "{}: the kill matrix is of {}, the reports of {}",
            dir.display(),
            m.header.benchmark,
            eval.benchmark
        )));
    }
    Ok((s, m))
}

/// The matrix's mutants the run's kill rates leave out. The matrix has a row per evaluated
/// mutant; the kill rate's `mutants` leaves out those the compiler marked (a duplicate beside
/// its representative), unless the run counted them; the subsets count as the run's kill
/// rate does.
fn left_out(listed: &[MutantEntry], eval: &Evaluation, m: &KillMatrix) -> BTreeSet<u32> {
    let rows: BTreeSet<u32> = m.rows.iter().map(|r| r.mutant).collect();
    listed
        .iter()
        .filter(|x| !eval.equivalents_counted && rows.contains(&x.id))
        .filter(|x| match x.compiler {
            None => false,
            Some(CompilerVerdict::Equivalent) => true,
            Some(CompilerVerdict::Duplicate { of }) => rows.contains(&of),
        })
        .map(|x| x.id)
        .collect()
}

fn table_row(
    families: Vec<Family>,
    rows: &[&Row],
    n: u64,
    r: u64,
    prev_killed: u64,
    exhaustive: Kills,
    opts: &Sampling,
) -> SubsetsRow {
    let of = rows.len() as u64;
    let draws = sample::draws(rows, n, r, opts.samples, opts.seed);
    let lows: Vec<u64> = draws.iter().map(|d| d.low).collect();
    let vs_previous = Comparison::of(&draws, prev_killed);
    // T(s) as a reference: its known kills; with unknowns, a draw could match a higher count.
    let vs_exhaustive = Comparison::of(&draws, exhaustive.killed.into());
    SubsetsRow {
        families,
        mutants: of as u32,
        previous: kills(prev_killed, prev_killed, of),
        expected: expected(rows, n, r),
        exhaustive,
        samples: sample::summary(&lows, of),
        verdict_previous: vs_previous.verdict(),
        verdict_exhaustive: vs_exhaustive.verdict(),
        vs_previous,
        vs_exhaustive,
    }
}

fn reduction(m: &KillMatrix, opts: &Sampling) -> Reduction {
    let n = m.header.inputs;
    let all: Vec<&Row> = m.rows.iter().collect();
    let suite = reduce::greedy_cover(&all, n);
    let bitmap: RoaringBitmap = suite.iter().map(|&g| g as u32).collect();
    let ids: Vec<u32> = m.rows.iter().map(|r| r.mutant).collect();
    let (a, b) = reduce::split(&ids, opts.seed);
    let half =
        |ids: &[u32]| -> Vec<&Row> { m.rows.iter().filter(|r| ids.contains(&r.mutant)).collect() };
    let (ra, rb) = (half(&a), half(&b));
    let chosen = reduce::greedy_cover(&ra, n);
    let chosen_bitmap: RoaringBitmap = chosen.iter().map(|&g| g as u32).collect();
    let size = chosen.len() as u64;
    let draws = sample::draws(&rb, n, size, opts.samples, opts.seed);
    let lows: Vec<u64> = draws.iter().map(|d| d.low).collect();
    let reduced = suite_kills(&rb, Some(&chosen_bitmap));
    Reduction {
        size: suite.len() as u64,
        kill_rate: suite_kills(&all, Some(&bitmap)).kill_rate,
        exhaustive_kill_rate: suite_kills(&all, None).kill_rate,
        suite,
        held_out: HeldOut {
            chosen_on: ra.len() as u32,
            measured_on: rb.len() as u32,
            size,
            random_vs_reduced: Comparison::of(&draws, reduced.killed.into()),
            reduced,
            exhaustive: suite_kills(&rb, None),
            random_expected: expected(&rb, n, size),
            random_samples: sample::summary(&lows, rb.len() as u64),
        },
    }
}

/// Writes the reduced suite of `report` (the run in `dir`) as inputs:
/// `reduced-suite.{json,txt}`, which rebuilds the run's crate to render them.
pub fn write_reduced_suite(dir: &Path, report: &Subsets) -> Result<()> {
    let m = crate::matrix::file::read(dir, report.scope)?;
    let suite = reduced_suite::render(&m, &report.reduction.suite)?;
    reduced_suite::write(dir, &suite)
}
