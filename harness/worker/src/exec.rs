//! Running one call of a target method, judged the way the runner compares mutants: a panic is
//! an output, a broken post-state is its own outcome, and a run past its tick budget stops.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use ferastrau_probes::BudgetExceeded;

use crate::panics;
use crate::Benchmark;

/// What one call did.
pub enum Outcome<B: Benchmark> {
    /// Returned normally with a post-state that satisfies the invariant.
    Normal(B::Ret, B::Abs),
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
            let judged =
                panics::expected(|| bench.invariant(input).then(|| bench.abstraction(input)));
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

/// A wall-clock limit per call, enforced by a watchdog thread: when a call runs past its
/// deadline the watchdog calls `on_timeout` (which should end the process). This catches
/// loops the tick budget cannot see (code without probes, e.g. a plain single-mutant crate,
/// or the original, which runs without a budget).
pub struct Watchdog {
    started: Instant,
    /// Nanoseconds since `started` after which the current call is over time; 0 = none.
    deadline: &'static AtomicU64,
    /// The limit armed last, for the timeout's report.
    limit: &'static AtomicU64,
}

impl Watchdog {
    /// Starts the watchdog thread; `on_timeout` gets the limit that was exceeded.
    ///
    /// The thread gets a small stack (it only sleeps and reports), so that it costs little of
    /// the process's address-space limit; if it cannot start even so, the error says that the
    /// worker itself, not the code under test, is short of memory.
    pub fn start(on_timeout: fn(Duration)) -> std::io::Result<Watchdog> {
        let deadline: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let limit: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let started = Instant::now();
        std::thread::Builder::new()
            .name("ferastrau-watchdog".into())
            .stack_size(256 << 10)
            .spawn(move || loop {
                std::thread::sleep(Duration::from_millis(5));
                let d = deadline.load(Relaxed);
                if d != 0 && started.elapsed().as_nanos() as u64 > d {
                    on_timeout(Duration::from_nanos(limit.load(Relaxed)));
                }
            })
            .map_err(|e| {
                std::io::Error::other(format!(
                    "the worker cannot start its watchdog thread ({e}): Ferastrau's own worker needs more memory than --memory-limit leaves it, before any code under test runs; raise --memory-limit"
                ))
            })?;
        Ok(Watchdog {
            started,
            deadline,
            limit,
        })
    }

    /// Arms the limit for the next call.
    pub fn arm(&self, limit: Duration) {
        let now = self.started.elapsed().as_nanos() as u64;
        let nanos = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
        self.limit.store(nanos, Relaxed);
        self.deadline
            .store(now.saturating_add(nanos).max(1), Relaxed);
    }

    /// Disarms it after the call.
    pub fn disarm(&self) {
        self.deadline.store(0, Relaxed);
    }
}
