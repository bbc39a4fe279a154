//! What the next scope will cost, and whether `--max-time` leaves room for it.
//!
//! Scopes grow fast and unevenly (BinomialHeap's inputs ×9.5, ×16.1, then ×6.3 to scope 8), so
//! `--scopes 1..12` can ask for days without a word. Before each scope past the second, the run
//! says what that scope should take, from the growth of the two before it ([`estimate_seconds`],
//! the one definition: `ferastrau-paper reproduce` decides its next-scope runs with it too),
//! and with `--max-time` it stops between scopes when the estimate would not fit
//! ([`refusal`]). The estimate only decides whether to try: it is a growth ratio, not a
//! promise.

use std::time::Duration;

use ferastrau_artifacts::ScopeRun;

use ferastrau_console::term::duration;

/// The figures of a scope that the next one's cost grows from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    pub scope: u32,
    pub inputs: u64,
    /// Candidates Korat explored (0 when unknown: generation then grows with the inputs).
    pub candidates: u64,
    pub generation_seconds: f64,
    /// The original's run on every input.
    pub checking_seconds: f64,
}

impl From<&ScopeRun> for Cost {
    fn from(s: &ScopeRun) -> Cost {
        Cost {
            scope: s.scope,
            inputs: s.inputs,
            candidates: s.candidates,
            generation_seconds: s.generation_seconds,
            checking_seconds: s.checking_seconds,
        }
    }
}

/// An estimate of the seconds the scope after `last` takes, from the growth from `prev` to
/// `last`: generation grows with the candidates Korat explores; checking grows with the inputs
/// and is counted twice (the original's run, then the limits check, which runs the metamutant
/// with no mutant active on every input); and the mutants run the original and themselves on
/// as many inputs as they ran at `last` (`executions`, summed over the mutants: every reached
/// input for a survivor, up to the first kill for the others), grown with the inputs, shared
/// by `jobs` processes. `None` without two scopes with inputs to extrapolate from.
///
/// Only the last ratio is used: ratios wander (BinomialHeap's inputs grow ×9.5, ×16.1, then
/// ×6.3 to scope 8), so a trend would mislead as often as help.
pub fn estimate_seconds(prev: &Cost, last: &Cost, executions: u64, jobs: usize) -> Option<f64> {
    let input_growth = growth(prev.inputs, last.inputs)?;
    // A run without candidate counts grows its generation with its inputs.
    let candidate_growth = growth(prev.candidates, last.candidates).unwrap_or(input_growth);
    let per_input = last.checking_seconds / last.inputs as f64;
    let fixed =
        last.generation_seconds * candidate_growth + 2.0 * last.checking_seconds * input_growth;
    Some(fixed + 2.0 * per_input * executions as f64 * input_growth / jobs.max(1) as f64)
}

/// `last / prev`, when both are positive.
fn growth(prev: u64, last: u64) -> Option<f64> {
    (prev > 0 && last > 0).then(|| last as f64 / prev as f64)
}

/// Why `--max-time max` leaves no room for the next scope after `elapsed`, which `estimate`
/// seconds would take (`None`: no estimate yet); `None` when it does. Spent time alone stops
/// a run too: without an estimate (before the third scope), a budget already used up still
/// holds.
pub fn refusal(elapsed: Duration, estimate: Option<f64>, max: Duration) -> Option<String> {
    if elapsed >= max {
        return Some(format!(
            "the {} --max-time is used up ({} elapsed)",
            duration(max),
            duration(elapsed)
        ));
    }
    let left = max - elapsed;
    let needs = Duration::try_from_secs_f64(estimate?).unwrap_or(Duration::MAX);
    (needs > left).then(|| {
        format!(
            "it needs about {}, more than the {} that the {} --max-time leaves",
            duration(needs),
            duration(left),
            duration(max)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(scope: u32, inputs: u64, seconds: f64) -> Cost {
        Cost {
            scope,
            inputs,
            candidates: 0,
            generation_seconds: seconds,
            checking_seconds: seconds,
        }
    }

    #[test]
    fn the_estimate_grows_with_the_inputs_and_the_executions() {
        let (a, b) = (scope(1, 10, 1.0), scope(2, 100, 10.0));
        // growth 10; fixed (10 + 2 × 10) × 10 = 300; three mutants that ran every one of the
        // 100 inputs at s run 1,000 each at s + 1: per input 0.1 s, × 2 × 3,000 / 2 jobs.
        assert_eq!(estimate_seconds(&a, &b, 300, 2), Some(300.0 + 300.0));
        // Reach selection, or kills: mutants that ran a tenth of the inputs cost a tenth.
        assert_eq!(estimate_seconds(&a, &b, 30, 2), Some(300.0 + 30.0));
        assert_eq!(estimate_seconds(&scope(1, 0, 0.0), &b, 300, 2), None);
    }

    #[test]
    fn generation_grows_with_the_candidates() {
        let (mut a, mut b) = (scope(1, 10, 1.0), scope(2, 100, 10.0));
        a.candidates = 10;
        b.candidates = 1000;
        // Generation 10 s × 100 (candidates), checking twice 10 s × 10 (inputs), no mutant.
        assert_eq!(estimate_seconds(&a, &b, 0, 2), Some(1000.0 + 200.0));
    }

    #[test]
    fn the_budget_stops_what_will_not_fit_and_what_is_spent() {
        let s = Duration::from_secs;
        // 3m 10s needed, 1m 40s of 5m left.
        let why = refusal(s(200), Some(190.0), s(300)).expect("stops");
        assert_eq!(
            why,
            "it needs about 3m 10s, more than the 1m 40s that the 5m --max-time leaves"
        );
        assert_eq!(refusal(s(200), Some(90.0), s(300)), None);
        // No estimate yet: only a spent budget stops.
        assert_eq!(refusal(s(200), None, s(300)), None);
        let why = refusal(s(301), None, s(300)).expect("stops");
        assert_eq!(why, "the 5m --max-time is used up (5m 1s elapsed)");
        // An estimate past any duration is no panic.
        assert!(refusal(s(1), Some(f64::INFINITY), s(300)).is_some());
    }
}
