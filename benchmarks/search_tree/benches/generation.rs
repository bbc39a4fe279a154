//! Korat's generation speed on SearchTree: prints, per scope, the candidates explored, the
//! best-of-N time and candidates per second, for `add` + `remove` (scopes 1..7) and for the
//! bare tree predicate (scope 8). One core; run with `cargo bench -p search_tree`.
//!
//! Targets (issue 2): scope 7 for both methods within 0.12 s and the scope-8 tree predicate
//! within 0.2 s — 10× Korat 1.0's 0.6 s and 1.9 s on the same machine.

use std::ops::ControlFlow;
use std::time::Instant;

use ferastrau_sdk::korat;
use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::Benchmark;
use search_tree::invariant::rep_ok;
use search_tree::space::finitization;
use search_tree::SearchTreeBench;

const RUNS: usize = 7;

/// Best-of-RUNS seconds of `f`, and what it returned.
fn best<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..RUNS {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("RUNS > 0"))
}

fn main() {
    println!(
        "{:<24} {:>10} {:>12} {:>10} {:>14}",
        "search", "valid", "candidates", "best [s]", "cand./second"
    );
    for n in 1..=7u32 {
        let (secs, (valid, explored)) = best(|| {
            let mut v = 0;
            let mut e = 0;
            for m in 0..2 {
                let (fin, f) = SearchTreeBench.finitize(m, n);
                let s = korat::search(
                    &fin,
                    |c| SearchTreeBench.precondition(m, &f, c),
                    |_| ControlFlow::Continue(()),
                );
                v += s.valid;
                e += s.explored;
            }
            (v, e)
        });
        println!(
            "{:<24} {:>10} {:>12} {:>10.4} {:>14.0}",
            format!("add+remove, scope {n}"),
            valid,
            explored,
            secs,
            explored as f64 / secs
        );
    }
    for n in [7u32, 8] {
        let (fin, f) = finitization("SearchTree", n, false);
        let (secs, stats) = best(|| {
            korat::search(
                &fin,
                |c| rep_ok(&mut View::new(c, &f)),
                |_| ControlFlow::Continue(()),
            )
        });
        println!(
            "{:<24} {:>10} {:>12} {:>10.4} {:>14.0}",
            format!("tree predicate, scope {n}"),
            stats.valid,
            stats.explored,
            secs,
            stats.explored as f64 / secs
        );
    }
}
