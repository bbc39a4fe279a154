//! `ferastrau gate`: a run compared with a committed baseline, failing on anything weaker.
//!
//! A baseline is a small JSON file holding, per benchmark, each gated scope's kill rate and code
//! coverage, and each evaluated mutant's key ([`ferastrau_mutator::keys`]: function, family,
//! texts and occurrence) with the scopes that killed it, its place, and each mutated
//! function's lines. A run's mutants are matched to the baseline's through the change between
//! the two sources ([`identity`]): a mutant on an unchanged line keeps its identity wherever
//! the line moved; one on a line the change edited is new. The gate fails
//! ([`Exit::GateFailed`](ferastrau_console::exit_code::Exit)) when at some scope the kill rate
//! falls under `--min-kill-rate` or more than `--tolerance` points under the baseline's, a
//! mutant the baseline killed now survives, or code coverage drops; a broken run fails with its
//! own status and never becomes a baseline. Mutants the baseline does not know (new code) are
//! reported apart and fail only with `--fail-on-new-survivors`.

//!
//! The baseline file's format is in [`baseline`], the reading of a run's reports in [`run`],
//! the comparison in [`compare`], the notes on what it did not compare in [`notes`], its
//! formats, `--format json` document and printing in [`print`], the table in [`table`], what
//! it found as one ordered list in [`findings`], which [`github`] and [`gitlab`] write for a CI
//! job.

mod baseline;
mod compare;
mod findings;
pub mod github;
pub mod gitlab;
mod identity;
mod notes;
mod print;
pub mod run;
pub mod suite_gate;
mod table;

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

pub use compare::Thresholds;
pub use print::Print;

use baseline::{read_baseline, write_baseline, BenchmarkBaseline, VERSION};
use compare::{compare, Basis, Comparison, Failure};
use notes::notes;
use print::print_outcome;
use run::GatedRun;
use table::describe;

use ferastrau_console::exit_code::{broken, usage, GateFailed};

/// Gates the run in `dir` against the baseline file `baseline` (or, with `update`, makes the
/// run the baseline of its benchmark), printing as `print` says. The caller holds `dir` for
/// reading (`OutputDir::read`) across the call: a run that has taken the directory is clearing
/// the reports read here.
pub fn gate(
    dir: &Path,
    baseline: &Path,
    t: &Thresholds,
    update: bool,
    print: &Print,
) -> Result<()> {
    let mut run = GatedRun::read(dir)?;
    sound(dir, &run, print)?;
    // An update reads, changes and rewrites the file under a lock: six updates at once (one
    // per benchmark, as a CI matrix runs them) must keep every section.
    let _lock = if update {
        Some(baseline::lock_for_update(baseline)?)
    } else {
        None
    };
    let mut file = read_baseline(baseline)?;
    let base = file.benchmarks.get(&run.benchmark).cloned();
    comparable(dir, &mut run, base.as_ref(), update)?;
    let empty = BenchmarkBaseline::default();
    // The baseline's mutants under the run's keys, matched through the change between the
    // two sources; those on lines the change edited are compared with nothing.
    let (translated, matching) = identity::translate(base.as_ref().unwrap_or(&empty), &run.figures);
    let reference = &translated;
    let edited = &matching.edited;
    // A run of some functions (`--in-diff`) says nothing of the others: only a whole run's
    // missing functions are unmatched.
    let unmatched = match run.partial {
        Some(_) => Default::default(),
        None => matching.unmatched,
    };
    let unmatched_count: usize = unmatched.values().map(Vec::len).sum();
    let changed_code = !edited.is_empty()
        || unmatched_count > 0
        || run
            .figures
            .mutants
            .keys()
            .any(|k| !reference.mutants.contains_key(k));
    let basis = match (&run.partial, changed_code) {
        (Some(_), _) => Basis::Partial,
        (None, true) => Basis::ChangedCode,
        (None, false) => Basis::Whole,
    };
    let mut c = compare(reference, &run.figures, t, basis);
    c.note_skipped(reference, &run.skipped);
    let base_count = base.as_ref().map_or(0, |b| b.mutants.len());
    let unmatched_share = 100.0 * unmatched_count as f64 / base_count.max(1) as f64;
    if unmatched_share > compare::UNMATCHED_SHARE && !t.accept_unmatched && !update {
        c.failures.push(Failure::Unmatched {
            mutants: unmatched_count,
            of: base_count,
            functions: unmatched.keys().cloned().collect(),
        });
    }
    if let Some(why) = run.partial.as_ref().filter(|_| update) {
        return Err(usage(format!(
            "the run in {} {why}: a subset cannot become a baseline (evaluate the whole crate)",
            dir.display()
        )));
    }
    let notes = notes(
        &run,
        reference,
        base.as_ref(),
        &c,
        basis,
        &matching.edited,
        &unmatched,
        t,
        update,
    );
    let verdict = if update {
        GateVerdict::Updated
    } else if base.is_none() {
        GateVerdict::NoBaseline
    } else if c.failures.is_empty() {
        GateVerdict::Passed
    } else {
        GateVerdict::Failed
    };
    if verdict == GateVerdict::Updated {
        file.schema_version = VERSION;
        file.benchmarks
            .insert(run.benchmark.clone(), run.figures.clone());
        write_baseline(baseline, &file)?;
    }
    print_outcome(
        print, dir, baseline, &run, reference, &c, basis, t, &notes, verdict,
    )?;
    match verdict {
        GateVerdict::Updated | GateVerdict::Passed => Ok(()),
        GateVerdict::NoBaseline => Err(usage(format!(
            "{} has no baseline for {}: run the gate with --update-baseline to make one",
            baseline.display(),
            run.benchmark
        ))),
        GateVerdict::Failed => Err(failed(&run, &c)),
    }
}

/// Refuses, as a broken run (exit 4), reports that disagree with each other or a run that
/// was broken, telling the CI job why as `print` says.
fn sound(dir: &Path, run: &GatedRun, print: &Print) -> Result<()> {
    // Reports that disagree with each other (a merge or a run that failed half-way, a file
    // edited by hand) are refused, as `report` refuses them; a broken run never passes. The
    // CI job is told why, as it is told a verdict.
    let unsound = match crate::html::check(dir) {
        Err(e) => Some(format!(
            "the reports in {} cannot be gated: {e:#}",
            dir.display()
        )),
        Ok(_) => run.broken.as_ref().map(|why| {
            format!(
                "the run in {} is broken, it cannot pass a gate or become a baseline: {why}",
                dir.display()
            )
        }),
    };
    if let Some(why) = unsound {
        // The status stays a broken run's, whatever becomes of the annotation.
        if let Err(e) = print.broken(&run.benchmark, &why) {
            ferastrau_console::warning!("{e:#}");
        }
        return Err(broken(why));
    }
    Ok(())
}

/// Refuses a run the baseline does not describe: another sample of mutants than the
/// baseline's, or kill rates under the other rule for the compiler's equivalent and duplicate
/// mutants (unless it becomes the baseline). A run of every mutant against a sampled baseline
/// passes, marked partial (unless it becomes the baseline).
fn comparable(
    dir: &Path,
    run: &mut GatedRun,
    base: Option<&BenchmarkBaseline>,
    update: bool,
) -> Result<()> {
    // A sample of other mutants than the baseline's leaves some of the baseline's out: like
    // a run of chosen mutants, it is not the run the baseline describes, and is refused. A
    // run of every mutant holds all of a sampled baseline's: compared mutant by mutant, or
    // made the baseline in its place.
    if let Some(b) = base.filter(|b| b.sample != run.figures.sample) {
        let why = match (run.figures.sample, b.sample) {
            (Some(now), None) => Some(format!(
                "evaluated a sample ({now}) where the baseline has every mutant"
            )),
            (Some(now), Some(then)) => Some(format!(
                "evaluated another sample ({now}) than the baseline's ({then})"
            )),
            (None, Some(then)) => {
                if run.partial.is_none() && !update {
                    run.partial = Some(format!(
                        "evaluated every mutant where the baseline has a sample ({then})"
                    ));
                }
                None
            }
            (None, None) => unreachable!("the samples differ"),
        };
        if let Some(why) = why {
            return Err(usage(format!(
                "the run in {} {why}: not the run a baseline describes, it cannot pass a gate or become a baseline (evaluate with the baseline's --max-mutants and --seed, or every mutant)",
                dir.display()
            )));
        }
    }
    // Kill rates under two rules (the compiler's equivalent and duplicate mutants left out or
    // counted) differ with no test changed: such a run is compared with nothing, but refused,
    // unless it becomes the baseline.
    if let Some(b) = base.filter(|b| {
        !update && b.leaves_out_compiler_verdicts != run.figures.leaves_out_compiler_verdicts
    }) {
        let (then, now) = match b.leaves_out_compiler_verdicts {
            true => ("leave out", "counts them"),
            false => ("count", "leaves them out"),
        };
        return Err(usage(format!(
            "the baseline's kill rates {then} the mutants the compiler finds equivalent or duplicate, and the run in {} {now}: rates under two rules are not comparable (gate a run made {}, or record the baseline again with --update-baseline)",
            dir.display(),
            match b.leaves_out_compiler_verdicts {
                true => "with the comparison on and without --count-equivalents",
                false => "with --count-equivalents",
            }
        )));
    }
    Ok(())
}

/// A failed gate's error: one line per regression, a mutant that survives now at several
/// scopes one line with its scopes, then the other failures in words.
fn failed(run: &GatedRun, c: &Comparison) -> anyhow::Error {
    // A mutant that survives now at several scopes is one regression line.
    let survives = survives_by_key(c);
    let mut lines: Vec<String> = survives
        .iter()
        .map(|(key, scopes)| {
            format!(
                "{}: killed in the baseline, survives now: {}",
                scopes_text(scopes),
                run.describe(key)
            )
        })
        .collect();
    lines.extend(
        c.failures
            .iter()
            .filter(|f| !matches!(f, Failure::Survives { .. }))
            .map(|f| describe(f, run)),
    );
    let mut text = format!(
        "the gate failed for {}: {} regression(s)",
        run.benchmark,
        lines.len()
    );
    for l in &lines {
        let _ = write!(text, "\n  - {l}");
    }
    anyhow::Error::new(GateFailed(text))
}

/// The mutants that survive now where the baseline killed them, each with its scopes.
pub(crate) fn survives_by_key(c: &Comparison) -> std::collections::BTreeMap<&String, Vec<u32>> {
    by_key(c.failures.iter().filter_map(|f| match f {
        Failure::Survives { scope, key } => Some((*scope, key)),
        _ => None,
    }))
}

/// The scopes of each key, keys in order: what one line per mutant lists.
pub(crate) fn by_key<'a>(
    pairs: impl Iterator<Item = (u32, &'a String)>,
) -> std::collections::BTreeMap<&'a String, Vec<u32>> {
    let mut out: std::collections::BTreeMap<&String, Vec<u32>> = Default::default();
    for (scope, key) in pairs {
        out.entry(key).or_default().push(scope);
    }
    for scopes in out.values_mut() {
        scopes.sort_unstable();
        scopes.dedup();
    }
    out
}

/// `scope 2`, `scopes 1..3` (consecutive) or `scopes 1, 3`.
pub(crate) fn scopes_text(scopes: &[u32]) -> String {
    match scopes {
        [one] => format!("scope {one}"),
        [first, .., last] if scopes.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("scopes {first}..{last}")
        }
        _ => format!(
            "scopes {}",
            scopes
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// How a gate ends (`--update-baseline`'s `Updated`, a baseline without the benchmark's
/// `NoBaseline`): the `verdict` of its `--format json` document.
pub use ferastrau_artifacts::GateVerdict;

#[cfg(test)]
mod tests {
    use super::baseline::{render, GateBaseline, ScopeFigures};
    use super::*;

    fn figures(rate: f64, st: f64, mutants: &[(&str, &[u32])]) -> BenchmarkBaseline {
        BenchmarkBaseline {
            scopes: [(
                3,
                ScopeFigures {
                    mutants: mutants.len() as u32,
                    killed: 0,
                    kill_rate: rate,
                    statement_coverage: st,
                    branch_coverage: 100.0,
                },
            )]
            .into(),
            mutants: mutants
                .iter()
                .map(|(k, s)| (k.to_string(), s.to_vec()))
                .collect(),
            ..BenchmarkBaseline::default()
        }
    }

    #[test]
    fn the_same_run_passes_and_every_kind_of_regression_fails() {
        let base = figures(75.0, 100.0, &[("a", &[2, 3]), ("b", &[3]), ("c", &[])]);
        let t = Thresholds::default();
        assert!(compare(&base, &base, &t, Basis::Whole).failures.is_empty());

        let weaker = figures(
            50.0,
            90.0,
            &[("a", &[2]), ("b", &[3]), ("c", &[]), ("d", &[])],
        );
        let c = compare(&base, &weaker, &t, Basis::Whole);
        assert!(c.failures.contains(&Failure::Survives {
            scope: 3,
            key: "a".into()
        }));
        assert!(c.failures.contains(&Failure::Dropped {
            scope: 3,
            from: 75.0,
            to: 50.0
        }));
        assert!(c.failures.iter().any(|f| matches!(
            f,
            Failure::CoverageDropped {
                kind: "statement",
                ..
            }
        )));
        // `d` is new: reported, a failure only on request.
        assert_eq!(c.changes[&3].new_surviving, ["d"]);
        assert!(!c
            .failures
            .iter()
            .any(|f| matches!(f, Failure::NewSurvivor { .. })));
        let strict = Thresholds {
            fail_on_new_survivors: true,
            ..t
        };
        assert!(compare(&base, &weaker, &strict, Basis::Whole)
            .failures
            .contains(&Failure::NewSurvivor {
                scope: 3,
                key: "d".into()
            }));
        // Within the tolerance and over the floor: the rate alone does not fail.
        let lenient = Thresholds {
            tolerance: 30.0,
            min_kill_rate: Some(40.0),
            ..t
        };
        assert!(!compare(&base, &weaker, &lenient, Basis::Whole)
            .failures
            .iter()
            .any(|f| matches!(f, Failure::Dropped { .. } | Failure::BelowFloor { .. })));
        let floor = Thresholds {
            min_kill_rate: Some(80.0),
            ..t
        };
        assert!(compare(&base, &base, &floor, Basis::Whole)
            .failures
            .iter()
            .any(|f| matches!(f, Failure::BelowFloor { .. })));
    }

    #[test]
    fn the_floor_applies_to_the_largest_scope_unless_another_is_named() {
        let mut two = figures(90.0, 100.0, &[("a", &[3])]);
        let small = ScopeFigures {
            kill_rate: 40.0,
            ..two.scopes[&3]
        };
        two.scopes.insert(1, small);
        let floor = Thresholds {
            min_kill_rate: Some(80.0),
            ..Thresholds::default()
        };
        assert!(compare(&two, &two, &floor, Basis::Whole)
            .failures
            .is_empty());
        let at_one = Thresholds {
            min_kill_rate_scope: Some(1),
            ..floor
        };
        assert_eq!(
            compare(&two, &two, &at_one, Basis::Whole).failures,
            [Failure::BelowFloor {
                scope: 1,
                rate: 40.0,
                floor: 80.0
            }]
        );
        assert_eq!(scopes_text(&[1, 2, 3]), "scopes 1..3");
        assert_eq!(scopes_text(&[1, 3]), "scopes 1, 3");
        assert_eq!(scopes_text(&[2]), "scope 2");
    }

    #[test]
    fn the_written_baseline_reads_back_the_same() {
        let mut b = GateBaseline {
            schema_version: VERSION,
            ..GateBaseline::default()
        };
        b.benchmarks.insert(
            "x".into(),
            figures(75.0, 100.0, &[("a \"q\"", &[2, 3]), ("c", &[])]),
        );
        b.benchmarks.insert(
            "y".into(),
            BenchmarkBaseline {
                sample: Some(ferastrau_artifacts::SampleMark {
                    max_mutants: 300,
                    seed: 1,
                }),
                untested: Some(vec!["S::peek".into(), "lonely".into()]),
                ..BenchmarkBaseline::default()
            },
        );
        let text = render(&b).unwrap();
        let back: GateBaseline = serde_json::from_str(&text).unwrap();
        assert_eq!(back.benchmarks, b.benchmarks);
        assert!(text.contains("\n        \"c\": []"), "{text}");
    }

    #[test]
    fn a_killed_mutant_skipped_now_is_listed_not_gone_and_not_a_failure() {
        let base = figures(75.0, 100.0, &[("a", &[3]), ("b", &[]), ("c", &[3])]);
        let run = figures(75.0, 100.0, &[("c", &[3])]);
        let skipped = [
            ("a".to_string(), "slow".to_string()),
            ("b".into(), "equivalent".into()),
        ];
        let mut c = compare(&base, &run, &Thresholds::default(), Basis::Whole);
        assert_eq!(c.changes[&3].gone, ["a", "b"]);
        c.note_skipped(&base, &skipped.into());
        assert_eq!(
            c.changes[&3].now_skipped,
            ["a"],
            "b survived in the baseline"
        );
        assert!(c.changes[&3].gone.is_empty());
        assert!(c.failures.is_empty());
    }

    #[test]
    fn a_scope_the_baseline_has_must_be_evaluated() {
        let base = figures(75.0, 100.0, &[("a", &[3])]);
        let mut run = base.clone();
        run.scopes.clear();
        assert_eq!(
            compare(&base, &run, &Thresholds::default(), Basis::Whole).failures,
            [Failure::MissingScope(3)]
        );
    }
}
