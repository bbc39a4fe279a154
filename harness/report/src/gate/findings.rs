//! What a gate found, as one ordered list: the verdict's summary, the other reasons it failed,
//! the mutants that survive now (worst first), the new survivors, the notes.
//!
//! Every writer of annotations reads this list — GitHub's workflow commands and step summary
//! ([`super::github`]), GitLab's Code Quality report ([`super::gitlab`]) — so that they agree
//! on what was found, how bad each finding is and in what order it comes; each decides only
//! how many it can show and how. GitHub shows ten errors and ten warnings per step: the ones
//! that matter most must come first, which is why the order is decided here, once.

use std::cmp::Reverse;

use ferastrau_artifacts::MutantPlace;

use super::baseline::BenchmarkBaseline;
use super::compare::{Basis, Comparison, Failure, Thresholds};
use super::run::GatedRun;
use super::table::describe;
use super::{by_key, scopes_text, survives_by_key, GateVerdict};

/// How loudly a finding is reported (GitHub's `::error`, `::warning`, `::notice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Error,
    Warning,
    Notice,
}

impl Level {
    /// The workflow command's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        }
    }
}

/// What a finding reports. The declaration order is the order findings are listed in: the
/// verdict first, a reviewer's first question; then why it failed; then each mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Check {
    /// The gate failed: the kill-rate change at the largest scope and how many mutants
    /// survive now, in one line.
    Failed,
    /// The run is broken (exit 4): its verdicts mean nothing.
    Broken,
    /// A scope's kill rate fell more than `--tolerance` under the baseline's.
    KillRateFell,
    /// Code statement or branch coverage fell.
    CoverageFell,
    /// The kill rate is under `--min-kill-rate`.
    BelowFloor,
    /// A scope of the baseline was not evaluated.
    MissingScope,
    /// Any other reason the gate fails (one added to [`Failure`] later reads as this).
    OtherFailure,
    /// A mutant the baseline killed survives now.
    SurvivesNow,
    /// A mutant the baseline does not know survives (an error with `--fail-on-new-survivors`).
    NewSurvivor,
    /// A note of the gate's report (what was not compared, what is skipped now).
    Note,
}

impl Check {
    /// The name a Code Quality report files the finding under (its `check_name`), part of
    /// its fingerprint: never renamed, or every finding would read as new.
    pub fn name(self) -> &'static str {
        match self {
            Check::Failed => "ferastrau-gate-failed",
            Check::Broken => "ferastrau-broken-run",
            Check::KillRateFell => "ferastrau-kill-rate-fell",
            Check::CoverageFell => "ferastrau-coverage-fell",
            Check::BelowFloor => "ferastrau-kill-rate-below-floor",
            Check::MissingScope => "ferastrau-scope-missing",
            Check::OtherFailure => "ferastrau-gate-failure",
            Check::SurvivesNow => "ferastrau-mutant-survives-now",
            Check::NewSurvivor => "ferastrau-new-mutant-survives",
            Check::Note => "ferastrau-gate-note",
        }
    }
}

/// One thing the gate found.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub level: Level,
    pub check: Check,
    /// The mutant it is about, if it is about one.
    pub key: Option<String>,
    /// Where that mutant is, its file relative to the crate.
    pub place: Option<MutantPlace>,
    pub title: String,
    pub message: String,
    /// What it is about when it is not a mutant, in words that do not change from run to run
    /// (`kill rate`, `code coverage`, the benchmark for the verdict): with the mutant's key,
    /// what makes two runs' findings the same finding (a Code Quality fingerprint) while the
    /// figures in its message move. (A failure of a kind this list does not know is about its
    /// own words.)
    pub about: String,
    /// How bad it is among findings of its [`Check`], larger first: for a mutant that survives
    /// now, the scopes it survives at, then the scopes the baseline killed it at.
    pub rank: (u32, u32),
}

impl Finding {
    fn new(level: Level, check: Check, title: &str, message: String, about: String) -> Finding {
        Finding {
            level,
            check,
            key: None,
            place: None,
            title: title.to_string(),
            message,
            about,
            rank: (0, 0),
        }
    }

    fn of_mutant(mut self, run: &GatedRun, key: &str) -> Finding {
        self.place = run.figures.places.get(key).cloned();
        self.key = Some(key.to_string());
        self
    }
}

/// A broken run (exit 4) as a finding: the reason, which names the failing input.
pub fn broken(benchmark: &str, reason: &str) -> Finding {
    Finding::new(
        Level::Error,
        Check::Broken,
        "ferastrau gate: broken run",
        format!("the run of {benchmark} is broken, so the gate has no verdict (exit 4): {reason}"),
        benchmark.to_string(),
    )
}

/// A gate's outcome, what the writers of annotations read.
pub struct Outcome<'a> {
    pub run: &'a GatedRun,
    /// The baseline under the run's keys.
    pub base: &'a BenchmarkBaseline,
    pub comparison: &'a Comparison,
    pub thresholds: &'a Thresholds,
    pub basis: Basis,
    pub notes: &'a [String],
    pub verdict: GateVerdict,
}

impl Outcome<'_> {
    /// The largest scope the run evaluated: a new mutant killed there is not worth a warning
    /// (a larger scope's inputs kill it; that a small scope misses it is what scopes are for).
    fn largest_run_scope(&self) -> Option<u32> {
        self.run.figures.scopes.keys().max().copied()
    }

    /// The summary line of a failed gate: the kill rate at the largest scope before and after
    /// (or why it is not compared) and how many mutants survive now.
    pub fn summary(&self) -> String {
        let run = self.run;
        let largest = self.base.scopes.keys().max().copied();
        let rate = match (self.basis, largest) {
            (Basis::Partial, _) => {
                "a run of some of the mutants, so kill rates are not compared".to_string()
            }
            (Basis::ChangedCode, _) => {
                "the mutated code changed, so kill rates are not compared".to_string()
            }
            (Basis::Whole, Some(s)) => {
                match (self.base.scopes.get(&s), run.figures.scopes.get(&s)) {
                    (Some(b), Some(n)) if n.kill_rate < b.kill_rate => format!(
                        "the kill rate at scope {s} fell from {:.2}% to {:.2}% ({:+.2} points)",
                        b.kill_rate,
                        n.kill_rate,
                        n.kill_rate - b.kill_rate
                    ),
                    (Some(b), Some(n)) => format!(
                        "the kill rate at scope {s} is {:.2}% (the baseline's {:.2}%)",
                        n.kill_rate, b.kill_rate
                    ),
                    (Some(_), None) => format!("scope {s} was not evaluated"),
                    (None, _) => String::new(),
                }
            }
            (Basis::Whole, None) => String::new(),
        };
        let survive = survives_by_key(self.comparison).len();
        let new = by_key(self.comparison.failures.iter().filter_map(|f| match f {
            Failure::NewSurvivor { scope, key } => Some((*scope, key)),
            _ => None,
        }))
        .len();
        let others = self
            .comparison
            .failures
            .iter()
            .filter(|f| !matches!(f, Failure::Survives { .. } | Failure::NewSurvivor { .. }))
            .count();
        let mut parts = vec![rate];
        parts.push(format!(
            "{survive} mutant(s) killed in the baseline survive now"
        ));
        if new > 0 {
            parts.push(format!(
                "{new} new mutant(s) survive (--fail-on-new-survivors)"
            ));
        }
        if others > 0 {
            parts.push(format!("{others} other failure(s)"));
        }
        parts.retain(|p| !p.is_empty());
        format!(
            "the gate failed for {}: {}",
            run.benchmark,
            parts.join("; ")
        )
    }

    /// Every finding, in the order a reviewer reads them: the verdict, the other failures,
    /// the mutants that survive now (worst first), the new survivors, the notes. A new
    /// survivor killed at the run's largest scope is left out (unless `--fail-on-new-survivors`
    /// made it a failure); an updated baseline has no failures to report.
    pub fn findings(&self) -> Vec<Finding> {
        let run = self.run;
        let mut out = Vec::new();
        let failed = self.verdict == GateVerdict::Failed;
        if failed {
            out.push(Finding::new(
                Level::Error,
                Check::Failed,
                "ferastrau gate failed",
                self.summary(),
                run.benchmark.clone(),
            ));
            out.extend(self.failure_kinds());
            out.extend(self.survivors_now());
        }
        if matches!(self.verdict, GateVerdict::Failed | GateVerdict::Passed) {
            out.extend(self.new_survivors());
        }
        for n in self.notes {
            out.push(Finding::new(
                Level::Notice,
                Check::Note,
                "ferastrau gate note",
                n.clone(),
                n.clone(),
            ));
        }
        // Stable: equal ranks keep their keys' order.
        out.sort_by_key(|f| (f.check, Reverse(f.rank)));
        out
    }

    /// One finding per kind of failure but the survivors, its scopes together.
    fn failure_kinds(&self) -> Vec<Finding> {
        let (run, c) = (self.run, self.comparison);
        // One finding per kind of failure, its scopes together: the kill rate that fell
        // at three scopes is one reason, and three annotations of it would take the
        // places of the mutants a reviewer must see.
        let mut kinds: Vec<Finding> = Vec::new();
        for f in &c.failures {
            let (check, about) = match f {
                Failure::Survives { .. } | Failure::NewSurvivor { .. } => continue,
                Failure::Dropped { .. } => (Check::KillRateFell, "kill rate".to_string()),
                Failure::CoverageDropped { .. } => {
                    (Check::CoverageFell, "code coverage".to_string())
                }
                Failure::BelowFloor { .. } => (Check::BelowFloor, "kill rate floor".to_string()),
                Failure::MissingScope(_) => (Check::MissingScope, "scopes".to_string()),
                #[allow(unreachable_patterns)]
                _ => (Check::OtherFailure, describe(f, run)),
            };
            match kinds
                .iter_mut()
                .find(|k| k.check == check && k.about == about)
            {
                Some(k) => {
                    k.message.push_str("; ");
                    k.message.push_str(&describe(f, run));
                }
                None => kinds.push(Finding::new(
                    Level::Error,
                    check,
                    "ferastrau gate",
                    describe(f, run),
                    about,
                )),
            }
        }
        kinds
    }

    /// A finding per mutant killed in the baseline that survives now.
    fn survivors_now(&self) -> Vec<Finding> {
        let run = self.run;
        let mut out = Vec::new();
        for (key, scopes) in survives_by_key(self.comparison) {
            let killed_before = self.base.mutants.get(key).map_or(0, Vec::len) as u32;
            let mut f = Finding::new(
                Level::Error,
                Check::SurvivesNow,
                "mutant survives",
                format!(
                    "{}: killed in the baseline, survives now: {}",
                    scopes_text(&scopes),
                    run.describe(key)
                ),
                String::new(),
            )
            .of_mutant(run, key);
            f.rank = (scopes.len() as u32, killed_before);
            out.push(f);
        }
        out
    }

    /// A finding per new mutant that survives (an error under `--fail-on-new-survivors`, else
    /// a warning, and none for one the largest scope kills).
    fn new_survivors(&self) -> Vec<Finding> {
        let (run, c) = (self.run, self.comparison);
        let mut out = Vec::new();
        let strict = self.thresholds.fail_on_new_survivors;
        let largest = self.largest_run_scope();
        let new = by_key(
            c.changes
                .iter()
                .flat_map(|(&s, ch)| ch.new_surviving.iter().map(move |k| (s, k))),
        );
        for (key, scopes) in new {
            let killed_at_largest = largest.is_some_and(|l| {
                run.figures
                    .mutants
                    .get(key)
                    .is_some_and(|killed| killed.contains(&l))
            });
            if killed_at_largest && !strict {
                continue;
            }
            let level = if strict { Level::Error } else { Level::Warning };
            let mut f = Finding::new(
                level,
                Check::NewSurvivor,
                "new mutant survives",
                format!(
                    "{}: a new mutant survives: {}",
                    scopes_text(&scopes),
                    run.describe(key)
                ),
                String::new(),
            )
            .of_mutant(run, key);
            f.rank = (scopes.len() as u32, 0);
            out.push(f);
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::gate::baseline::ScopeFigures;
    use crate::gate::compare;

    /// A run of `mutants` (key → the scopes that kill it) at scopes 1..3, each mutant at its
    /// own line of `src/lib.rs`, with the kill rate `rate` at every scope.
    pub(crate) fn run_of(rate: f64, mutants: &[(&str, &[u32])]) -> GatedRun {
        let mut figures = BenchmarkBaseline::default();
        for s in 1..=3 {
            figures.scopes.insert(
                s,
                ScopeFigures {
                    mutants: mutants.len() as u32,
                    killed: 0,
                    kill_rate: rate,
                    statement_coverage: 90.0,
                    branch_coverage: 80.0,
                },
            );
        }
        let mut places = BTreeMap::new();
        let mut edits = BTreeMap::new();
        for (i, (key, killed)) in mutants.iter().enumerate() {
            let line = 10 + i as u32;
            figures.mutants.insert(key.to_string(), killed.to_vec());
            figures.places.insert(
                key.to_string(),
                MutantPlace {
                    file: "src/lib.rs".into(),
                    function: key.split(' ').next().unwrap().to_string(),
                    line,
                    end_line: line,
                    column: 5,
                },
            );
            places.insert(key.to_string(), format!("src/lib.rs:{line}:5 f"));
            edits.insert(key.to_string(), "x - 1".to_string());
        }
        GatedRun {
            benchmark: "chain".into(),
            figures,
            places,
            edits,
            ..GatedRun::default()
        }
    }

    /// `f` of the outcome of a gate of `now` against `before`, compared as a whole.
    pub(crate) fn gated<T>(
        before: &GatedRun,
        now: &GatedRun,
        t: &Thresholds,
        notes: &[String],
        f: impl FnOnce(&Outcome) -> T,
    ) -> T {
        let c = compare(&before.figures, &now.figures, t, Basis::Whole);
        let verdict = if c.failures.is_empty() {
            GateVerdict::Passed
        } else {
            GateVerdict::Failed
        };
        f(&Outcome {
            run: now,
            base: &before.figures,
            comparison: &c,
            thresholds: t,
            basis: Basis::Whole,
            notes,
            verdict,
        })
    }

    #[test]
    fn the_summary_comes_first_then_failures_then_the_worst_regressions() {
        // `a` survives at every scope (killed at all three before), `b` at scope 3 only, `c`
        // at scopes 2..3; `n1` is new and survives, `n2` is new and dies at scope 3.
        let before = run_of(
            90.0,
            &[("a x", &[1, 2, 3]), ("b x", &[3]), ("c x", &[2, 3])],
        );
        let now = run_of(
            50.0,
            &[
                ("a x", &[]),
                ("b x", &[]),
                ("c x", &[]),
                ("n1 x", &[]),
                ("n2 x", &[3]),
            ],
        );
        let notes = ["something to know".to_string()];
        let found = gated(&before, &now, &Thresholds::default(), &notes, |o| {
            o.findings()
        });
        let checks: Vec<Check> = found.iter().map(|f| f.check).collect();
        assert_eq!(checks[0], Check::Failed);
        assert!(
            found[0]
                .message
                .contains("the kill rate at scope 3 fell from 90.00% to 50.00% (-40.00 points)")
                && found[0]
                    .message
                    .contains("3 mutant(s) killed in the baseline survive now"),
            "{}",
            found[0].message
        );
        // The kill rate fell at three scopes: one finding.
        assert_eq!(checks[1], Check::KillRateFell);
        assert_eq!(
            found[1].message,
            "scope 1: kill rate fell from 90.00% to 50.00% (-40.00 points); scope 2: kill rate fell from 90.00% to 50.00% (-40.00 points); scope 3: kill rate fell from 90.00% to 50.00% (-40.00 points)"
        );
        assert_eq!(checks[2], Check::SurvivesNow);
        let survivors: Vec<&str> = found
            .iter()
            .filter(|f| f.check == Check::SurvivesNow)
            .map(|f| f.key.as_deref().unwrap())
            .collect();
        assert_eq!(survivors, ["a x", "c x", "b x"], "worst first");
        // Only the new survivor that lives at the largest scope is a warning.
        let new: Vec<(&str, Level)> = found
            .iter()
            .filter(|f| f.check == Check::NewSurvivor)
            .map(|f| (f.key.as_deref().unwrap(), f.level))
            .collect();
        assert_eq!(new, [("n1 x", Level::Warning)]);
        assert_eq!(found.last().unwrap().check, Check::Note);
        assert_eq!(found.last().unwrap().level, Level::Notice);
        // With --fail-on-new-survivors both new survivors are failures, errors.
        let strict = Thresholds {
            fail_on_new_survivors: true,
            ..Thresholds::default()
        };
        let found = gated(&before, &now, &strict, &[], |o| o.findings());
        let new: Vec<(&str, Level)> = found
            .iter()
            .filter(|f| f.check == Check::NewSurvivor)
            .map(|f| (f.key.as_deref().unwrap(), f.level))
            .collect();
        assert_eq!(new, [("n1 x", Level::Error), ("n2 x", Level::Error)]);
    }

    #[test]
    fn a_passing_gate_has_no_errors() {
        let before = run_of(90.0, &[("a x", &[1, 2, 3])]);
        let now = run_of(90.0, &[("a x", &[1, 2, 3]), ("n x", &[3])]);
        let found = gated(&before, &now, &Thresholds::default(), &[], |o| o.findings());
        assert!(found.is_empty(), "{found:?}");
    }
}
