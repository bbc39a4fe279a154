//! Running one call of a target method, judged the way the runner compares mutants: a panic is
//! an output, a broken post-state is its own outcome, and a run past its tick budget stops.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Once;
use std::time::{Duration, Instant};

use ferastrau_probes::BudgetExceeded;

use crate::Benchmark;

/// What one call did.
pub enum Outcome<B: Benchmark> {
    /// Returned normally with a post-state that satisfies the invariant.
    Normal(B::Ret, B::Abs),
    /// Returned (or panicked while checking) with a post-state that violates the invariant.
    Broken,
    /// Panicked; the message.
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
            Outcome::Broken => "post-state violates the invariant".into(),
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
    quiet_panics();
    ferastrau_probes::start_run(budget);
    ferastrau_probes::set_coverage(cover);
    let ran = catch_unwind(AssertUnwindSafe(|| bench.run(method, input)));
    ferastrau_probes::set_coverage(false);
    let ticks = ferastrau_probes::ticks();
    ferastrau_probes::start_run(u64::MAX);
    let outcome = match ran {
        Err(p) if p.is::<BudgetExceeded>() => Outcome::OverBudget,
        Err(p) => Outcome::Panicked(panic_message(&*p)),
        Ok(ret) => {
            let judged = catch_unwind(AssertUnwindSafe(|| {
                bench.invariant(input).then(|| bench.abstraction(input))
            }));
            match judged {
                Ok(Some(abs)) => Outcome::Normal(ret, abs),
                _ => Outcome::Broken,
            }
        }
    };
    (outcome, ticks)
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".into()
    }
}

/// Panics are expected outcomes here; the default hook would print each one.
fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|_| {})));
}

/// A wall-clock limit per call, enforced by a watchdog thread: when a call runs past its
/// deadline the watchdog calls `on_timeout` (which should end the process). This catches
/// loops the tick budget cannot see (code without probes, e.g. a plain single-mutant crate).
pub struct Watchdog {
    started: Instant,
    /// Nanoseconds since `started` after which the current call is over time; 0 = none.
    deadline: &'static AtomicU64,
}

impl Watchdog {
    pub fn start(on_timeout: fn()) -> Watchdog {
        let deadline: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let started = Instant::now();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(5));
            let d = deadline.load(Relaxed);
            if d != 0 && started.elapsed().as_nanos() as u64 > d {
                on_timeout();
            }
        });
        Watchdog { started, deadline }
    }

    /// Arms the limit for the next call.
    pub fn arm(&self, limit: Duration) {
        let now = self.started.elapsed().as_nanos() as u64;
        self.deadline.store(now + limit.as_nanos() as u64, Relaxed);
    }

    /// Disarms it after the call.
    pub fn disarm(&self) {
        self.deadline.store(0, Relaxed);
    }
}
