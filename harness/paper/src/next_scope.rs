//! Equivalence evidence from data: every mutant that survives a run's largest scope s is run
//! again at s + 1 when that fits in a budget, and `mutants.json` records the outcome
//! (`"next_scope": {"status": "survived" | "killed" | "not_run", "scope": s + 1, ...}`), so
//! that an argument that a survivor is equivalent rests on one more scope than the run.

use ferastrau_harness::evaluate::budget::{self, Cost};

use ferastrau_artifacts::EvaluationScope;

/// The marks and their reading and writing, shared with `evaluate --next-scope`.
pub use ferastrau_harness::evaluate::next_scope::{mark, not_run, outcomes, survivors};
pub use ferastrau_harness::evaluate::next_scope::{NextScope, Survivor};

/// A mark's label, for tables and documents.
pub trait Label {
    /// `survives s+1`, `killed at s+1`, `s+1 not run`.
    fn label(&self) -> &'static str;
}

impl Label for NextScope {
    fn label(&self) -> &'static str {
        match self {
            NextScope::Survived { .. } => "survives s+1",
            NextScope::Killed { .. } => "killed at s+1",
            NextScope::NotRun { .. } => "s+1 not run",
        }
    }
}

/// An estimate of the seconds that running the survivors at scope s + 1 takes, from the
/// run's last two scopes: `evaluate`'s own estimate of a scope
/// ([`ferastrau_harness::evaluate::budget::estimate_seconds`], the one definition), with
/// `executions` the sum over the survivors of the inputs each ran at s (a survivor never stops
/// early), shared by `jobs` processes. `None` without two scopes with inputs to extrapolate
/// from. The estimate only decides whether to try; `reproduce` stops the run at the budget
/// when it is wrong.
pub fn estimate_seconds(scopes: &[EvaluationScope], executions: u64, jobs: usize) -> Option<f64> {
    let [.., prev, last] = scopes else {
        return None;
    };
    let cost = |s: &EvaluationScope| Cost {
        scope: s.scope,
        inputs: s.inputs,
        candidates: s.candidates,
        generation_seconds: s.generation_seconds,
        checking_seconds: s.checking_seconds,
    };
    budget::estimate_seconds(&cost(prev), &cost(last), executions, jobs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(scope: u32, inputs: u64, seconds: f64) -> EvaluationScope {
        let mut s = crate::test_scope(scope, inputs, seconds, 0);
        s.candidates = 0;
        s
    }

    #[test]
    fn the_estimate_grows_with_the_inputs_and_the_survivors() {
        let s = [scope(1, 10, 1.0), scope(2, 100, 10.0)];
        // growth 10; fixed (10 + 2 × 10) × 10 = 300; three survivors that ran every one of the
        // 100 inputs at s run 1,000 each at s + 1: per input 0.1 s, × 2 × 3,000 / 2 jobs.
        assert_eq!(estimate_seconds(&s, 300, 2), Some(300.0 + 300.0));
        // Reach selection: survivors that ran a tenth of the inputs at s cost a tenth.
        assert_eq!(estimate_seconds(&s, 30, 2), Some(300.0 + 30.0));
        assert_eq!(estimate_seconds(&s[..1], 300, 2), None);
    }

    #[test]
    fn generation_grows_with_the_candidates() {
        let mut s = [scope(1, 10, 1.0), scope(2, 100, 10.0)];
        s[0].candidates = 10;
        s[1].candidates = 1000;
        // Generation 10 s × 100 (candidates), checking twice 10 s × 10 (inputs), no survivor.
        assert_eq!(estimate_seconds(&s, 0, 2), Some(1000.0 + 200.0));
    }
}
