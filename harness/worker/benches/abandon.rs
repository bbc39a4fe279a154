//! What stopping a recursion at its tick budget costs, unwound against abandoned
//! (`cargo bench -p ferastrau-worker`): a recursion without end, ticking at each call as mutated
//! code does, stopped at budgets of 10,000 ticks (the default floor) and 100,000 — the frames
//! unwound to the `catch_unwind` that makes the timeout, or the call left on the worker's call
//! stack and the stack taken back (`ferastrau_worker::abandon`). Both run the same calls and
//! ticks; the difference is the unwinding.

use ferastrau_worker::abandon::CallStack;

fn main() {
    divan::main();
}

/// Recurses without end, one tick per call, as a mutant that never reaches its base case.
#[allow(unconditional_recursion)] // on purpose: the tick budget stops it
fn bottomless(x: u64) -> u64 {
    ferastrau_probes::tick();
    std::hint::black_box(bottomless(std::hint::black_box(x + 1))) + x
}

/// One call stopped at `budget` ticks, on the main stack: the budget's panic unwinds it.
fn unwound(budget: u64) {
    ferastrau_probes::start_run(budget);
    let r = std::panic::catch_unwind(|| bottomless(0));
    ferastrau_probes::start_run(u64::MAX);
    assert!(r.is_err());
}

#[divan::bench(args = [10_000, 100_000])]
fn unwind(bencher: divan::Bencher, budget: u64) {
    ferastrau_sdk::panics::install();
    bencher.bench_local(|| ferastrau_sdk::panics::expected(|| unwound(budget)));
}

#[divan::bench(args = [10_000, 100_000])]
fn abandon(bencher: divan::Bencher, budget: u64) {
    ferastrau_sdk::panics::install();
    let calls = CallStack::new().expect("a call stack");
    bencher.bench_local(|| {
        let r = calls.run(|| {
            ferastrau_probes::start_run(budget);
            ferastrau_sdk::panics::expected(|| bottomless(0))
        });
        ferastrau_sdk::exec::abandoned();
        assert!(r.is_none(), "abandoned, not unwound");
    });
}
