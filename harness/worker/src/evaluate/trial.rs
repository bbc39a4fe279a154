//! One input judged: the original's run on it, the mutant's under its limits, and the kill
//! that makes, if any. The one definition of a kill, shared by the first-kill run, a cohort's
//! run and the kill matrix.

use std::time::Duration;

use super::mutants::{Judging, Stops};
use super::render_input;
use crate::protocol::{Comparison, Kill, Limit, Reason};
use ferastrau_sdk::exec::{execute, execute_checked_original, Outcome};
use ferastrau_sdk::panics;
use ferastrau_sdk::Benchmark;

/// The original's run on one input: what every mutant judged on the input is compared with.
/// Made once per input however many mutants are judged on it ([`super::cohort`]).
pub(crate) struct OriginalRun<B: Benchmark> {
    /// Its outcome.
    pub expected: Outcome<B>,
    /// The ticks it took: the mutants' budget is a multiple of them.
    pub ticks: u64,
    /// Its post-state, for a structural comparison.
    post: B::Input,
    /// The post-state's structure, computed for the first mutant that needs it.
    structure: Option<String>,
}

impl<B: Benchmark> OriginalRun<B> {
    /// Runs the original of method `m` on `pre` (taken: the original's post-state is left in
    /// it), with no budget.
    pub fn on(bench: &B, m: usize, pre: B::Input) -> OriginalRun<B> {
        let mut post = pre;
        ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
        let (expected, ticks) = execute_checked_original(bench, m, &mut post);
        OriginalRun {
            expected,
            ticks,
            post,
            structure: None,
        }
    }
}

/// One input judged: the mutant's outcome, its tick budget, and the kill reason if the
/// mutant is killed.
pub(crate) struct Trial<B: Benchmark> {
    pub got: Outcome<B>,
    pub budget: u64,
    pub reason: Option<Reason>,
    /// Under [`Comparison::Structural`], the original's and the mutant's structures when
    /// they differ (and nothing else did): the kill's evidence.
    pub structures: Option<(String, String)>,
}

/// Runs the original, then `mutant` under its tick budget and clock limit, on the decoded
/// input `pre` of method `m`, and judges the mutant ([`against`]). `pre` is taken, not
/// borrowed: the original runs on it and the mutant on one copy (a copy per side was an
/// allocation and a copy more per execution, for an input that is needed again only to
/// render a kill, which decodes it anew).
pub(crate) fn trial<B: Benchmark>(
    bench: &B,
    m: usize,
    mutant: u32,
    pre: B::Input,
    original_nanos: u64,
    judging: Judging,
    stops: &Stops,
) -> (OriginalRun<B>, Trial<B>) {
    let input = pre.clone();
    let mut original = OriginalRun::on(bench, m, pre);
    let t = against(
        bench,
        m,
        mutant,
        input,
        &mut original,
        original_nanos,
        judging,
        stops,
    );
    (original, t)
}

/// Runs `mutant` on `input` (a copy of the input `original` ran on) under its tick budget
/// and clock limit, and judges it against the original's run: the one definition of a kill,
/// shared by the first-kill run, a cohort's run and the kill matrix.
#[allow(clippy::too_many_arguments)]
pub(crate) fn against<B: Benchmark>(
    bench: &B,
    m: usize,
    mutant: u32,
    mut input: B::Input,
    original: &mut OriginalRun<B>,
    original_nanos: u64,
    judging: Judging,
    stops: &Stops,
) -> Trial<B> {
    let limits = judging.limits;
    ferastrau_probes::set_active(mutant);
    let clock = Duration::from_nanos(original_nanos)
        .mul_f64(limits.timeout_factor)
        .saturating_add(limits.timeout_floor);
    let budget = original
        .ticks
        .saturating_mul(limits.tick_factor)
        .saturating_add(limits.tick_floor);
    stops.watchdog.arm(clock);
    let (got, post) = match stops
        .calls
        .run(|| execute(bench, m, &mut input, budget, false))
    {
        Some((got, _)) => (got, Some(input)),
        None => {
            // Abandoned deep in a recursion, over its budget: the post-state is half-made
            // and must not be dropped (see `abandon`).
            std::mem::forget(input);
            ferastrau_sdk::exec::abandoned();
            (Outcome::OverBudget, None)
        }
    };
    stops.watchdog.disarm();
    ferastrau_probes::set_active(ferastrau_probes::ORIGINAL);
    let mut reason = match &got {
        Outcome::OverBudget => Some(Reason::Timeout),
        Outcome::Broken { .. } => Some(Reason::Invariant),
        g if !g.same_as(&original.expected) => Some(Reason::Output),
        _ => None,
    };
    let mut structures = None;
    if let Some(post) = post.as_ref().filter(|_| {
        reason.is_none()
            && judging.comparison == Comparison::Structural
            && matches!(got, Outcome::Normal(..))
    }) {
        let a = original
            .structure
            .get_or_insert_with(|| structure_of(bench, &original.post))
            .clone();
        let b = structure_of(bench, post);
        if a != b {
            reason = Some(Reason::Output);
            structures = Some((a, b));
        }
    }
    Trial {
        got,
        budget,
        reason,
        structures,
    }
}

/// The benchmark's structure of a post-state that satisfies the invariant, computed as the
/// original (no mutant active, no tick budget): it is the benchmark's code, not the code under
/// test. A panic there is rendered as the structure, so two panics compare equal and a panic
/// on one side only is a difference.
fn structure_of<B: Benchmark>(bench: &B, post: &B::Input) -> String {
    match panics::expected(|| bench.structure(post)) {
        Ok(s) => s,
        Err((p, _)) => format!("<structure panicked: {}>", panics::payload_text(&*p)),
    }
}

/// The kill a judged input is, if the mutant differs: its input rendered from a second
/// decoding (the code is deterministic, and kills are one per mutant and scope where
/// executions are millions).
pub(crate) fn kill_of<B: Benchmark>(
    bench: &B,
    m: usize,
    index: u64,
    original: &OriginalRun<B>,
    t: Trial<B>,
    decode: impl Fn() -> B::Input,
) -> Option<Kill> {
    let Trial {
        got,
        budget,
        reason,
        structures,
    } = t;
    let reason = reason?;
    let expected = &original.expected;
    let (limit, detail) = if reason == Reason::Timeout {
        (
            Some(Limit::Ticks),
            format!("over {budget} ticks (the original used {})", original.ticks),
        )
    } else if let Some((a, b)) = structures {
        (
            None,
            format!(
                "original {}, structure {a}; mutant {}, structure {b}",
                expected.render(),
                got.render()
            ),
        )
    } else {
        (
            None,
            format!("original {}; mutant {}", expected.render(), got.render()),
        )
    };
    Some(Kill {
        reason,
        limit,
        method: m,
        index,
        input: Some(render_input(bench, m, &decode())),
        detail,
    })
}
