//! Running one call of a target method, judged the way the runner compares mutants: a panic is
//! an output, a broken post-state is its own outcome, and a run past its tick budget stops.

use ferastrau_probes::BudgetExceeded;

use crate::panics;
use crate::Benchmark;

/// What one call did.
pub enum Outcome<B: Benchmark> {
    /// Returned normally with a post-state that satisfies the invariant.
    Normal(B::Ret, B::Abstraction),
    /// Returned `ret` (rendered with `Debug`) with a post-state that violates the invariant;
    /// `panic` holds the panic if the invariant or the abstraction panicked on it.
    Broken {
        /// The return value, rendered with `Debug`.
        ret: String,
        /// The panic of the invariant or the abstraction on the post-state, if either panicked.
        panic: Option<String>,
    },
    /// Panicked, with this message. (Not its location: in the metamutant it is a line of
    /// generated code, which would also make a mutant's output differ from a plain crate's.)
    Panicked(String),
    /// Ran past its tick budget (the deterministic time limit).
    OverBudget,
}

impl<B: Benchmark> Outcome<B> {
    /// Same observable behaviour (the paper's output comparison; panics compare equal to
    /// panics, whatever their messages).
    pub fn same_as(&self, other: &Self) -> bool {
        match (self, other) {
            (Outcome::Normal(r1, a1), Outcome::Normal(r2, a2)) => r1 == r2 && a1 == a2,
            (Outcome::Panicked(_), Outcome::Panicked(_)) => true,
            _ => false,
        }
    }

    /// A one-line rendering.
    pub fn render(&self) -> String {
        match self {
            Outcome::Normal(r, a) => format!("returned {r:?}, state {a:?}"),
            Outcome::Broken { ret, panic: None } => {
                format!("returned {ret}, post-state violates the invariant")
            }
            Outcome::Broken {
                ret,
                panic: Some(p),
            } => format!("returned {ret}, the invariant panicked on the post-state: {p}"),
            Outcome::Panicked(m) => format!("panicked: {m}"),
            Outcome::OverBudget => "timeout".into(),
        }
    }
}

/// Runs `method` on `input` (leaving the post-state there) with the given tick budget;
/// returns the outcome and the ticks used. With `cover`, coverage probes count during the call
/// itself but not while the post-state is judged (the invariant is specification).
pub fn execute<B: Benchmark>(
    bench: &B,
    method: usize,
    input: &mut B::Input,
    budget: u64,
    cover: bool,
) -> (Outcome<B>, u64) {
    run_and_judge(bench, method, input, budget, cover, true)
}

/// The original on an input whose run the original's checking run already judged: [`execute`]
/// with no budget and no coverage, and without asking the invariant of the post-state again.
/// The code is deterministic and the checking run stops a run at the first post-state that
/// breaks the invariant, so on a checked input the answer is known to be yes; asking it again
/// was about 6% of the mutant phase on BinomialHeap 7 (a profile put the invariant, the
/// dearest part of judging a call, at 12%, half of it the original's). The abstraction is
/// still taken, and a panic in it still makes the outcome [`Outcome::Broken`].
pub fn execute_checked_original<B: Benchmark>(
    bench: &B,
    method: usize,
    input: &mut B::Input,
) -> (Outcome<B>, u64) {
    run_and_judge(bench, method, input, u64::MAX, false, false)
}

/// [`execute`], judging the post-state's invariant only when `check_invariant`.
fn run_and_judge<B: Benchmark>(
    bench: &B,
    method: usize,
    input: &mut B::Input,
    budget: u64,
    cover: bool,
    check_invariant: bool,
) -> (Outcome<B>, u64) {
    ferastrau_probes::start_run(budget);
    ferastrau_probes::set_coverage(cover);
    let ran = panics::expected(|| bench.run(method, input));
    ferastrau_probes::set_coverage(false);
    let ticks = ferastrau_probes::ticks();
    ferastrau_probes::start_run(u64::MAX);
    let outcome = match ran {
        Err((p, _)) if p.is::<BudgetExceeded>() => Outcome::OverBudget,
        Err((p, _)) => Outcome::Panicked(panics::payload_text(&*p)),
        Ok(ret) => {
            let judged = panics::expected(|| {
                (!check_invariant || bench.invariant(input)).then(|| bench.abstraction(input))
            });
            match judged {
                Ok(Some(abs)) => Outcome::Normal(ret, abs),
                Ok(None) => Outcome::Broken {
                    ret: format!("{ret:?}"),
                    panic: None,
                },
                Err((p, _)) => Outcome::Broken {
                    ret: format!("{ret:?}"),
                    panic: Some(panics::payload_text(&*p)),
                },
            }
        }
    };
    (outcome, ticks)
}

/// Puts back what [`execute`] restores on its way out, for a worker that abandoned a call
/// inside it without unwinding (its budget hook suspends a deep recursion for good): no
/// budget, coverage off, panics unexpected again. The call's outcome is
/// [`Outcome::OverBudget`], as if it had unwound.
pub fn abandoned() {
    ferastrau_probes::set_coverage(false);
    ferastrau_probes::start_run(u64::MAX);
    panics::forget_expected();
}
