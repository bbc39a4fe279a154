//! The search on several threads: the candidate space split by prefixes of the access list.
//!
//! A *part* is a prefix of the access list with fixed values: every candidate Korat explores
//! while those slots sit at the bottom of its stack with those values. Korat's depth-first
//! order explores a part entirely before the next one, so the parts, searched independently
//! (each backtracking only above its prefix) and concatenated in order, give exactly the
//! sequential search: the same candidates, the same valid ones, in the same order.
//!
//! A part splits by the slot its first candidate lists next (the first field read beyond the
//! prefix): one sub-part per value that slot takes under isomorphism breaking. Splitting goes
//! on, round by round, until there are [`PARTS_PER_THREAD`] parts per thread; rayon balances
//! them over the threads.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::candidate::Candidate;
use crate::finitization::Finitization;
use crate::search::{Engine, Product, SearchSwitches, Stats};

/// Parts per thread the split aims at: enough for rayon to even out parts of very unequal size.
pub const PARTS_PER_THREAD: usize = 64;

/// Rounds of splitting at most (each deepens every part by one slot).
const MAX_ROUNDS: usize = 48;

/// A part: (slot, domain index) pairs, bottom of the access list first.
pub type Prefix = Vec<(u32, u32)>;

/// Splits the search space of `fin` into parts in Korat's order, at least `target` when the
/// space allows. Runs the predicate once on the first candidate of each part it splits.
pub fn split<P>(
    fin: &Finitization,
    opts: SearchSwitches,
    pred: &mut P,
    target: usize,
) -> Vec<Prefix>
where
    P: FnMut(&mut Candidate<'_>) -> bool,
{
    let mut eng = Engine::new(fin, opts);
    let mut parts: Vec<Prefix> = vec![Vec::new()];
    for _ in 0..MAX_ROUNDS {
        if parts.len() >= target {
            break;
        }
        let mut next = Vec::with_capacity(parts.len() * 2);
        let mut grew = false;
        for p in parts {
            eng.start(&p);
            let (valid, read) = eng.judge(pred);
            let k = p.len();
            // Nothing listed beyond the prefix (a one-candidate part), or only fields the
            // predicate did not read (the free product, or unread links): keep it whole.
            if eng.rec.stack.len() <= k || (valid && k >= read) {
                next.push(p);
                continue;
            }
            let s = eng.rec.stack[k] as usize;
            let mut v = 0;
            loop {
                let mut q = p.clone();
                q.push((s as u32, v));
                next.push(q);
                match eng.next_value(k, s, v) {
                    Some(n) => v = n,
                    None => break,
                }
            }
            grew = true;
        }
        parts = next;
        if !grew {
            break;
        }
    }
    parts
}

/// The search on `jobs` threads (1: the sequential search). Each part collects its valid
/// candidates into a fresh `init()` through `on_valid`; the collections come back in Korat's
/// order, one per part, with the figures of the whole search. `on_valid` returning `Break`
/// stops the search (figures and collections then cover what was searched).
pub fn search_parallel<P, T, I, F>(
    fin: &Finitization,
    opts: SearchSwitches,
    jobs: usize,
    pred: P,
    init: I,
    on_valid: F,
) -> (Stats, Vec<T>)
where
    P: Fn(&mut Candidate<'_>) -> bool + Sync,
    T: Send,
    I: Fn() -> T + Sync,
    F: Fn(&mut T, &Candidate<'_>) -> ControlFlow<()> + Sync,
{
    run(fin, opts, jobs, Product::Enumerate, pred, init, on_valid)
}

/// The figures of [`search_parallel`] without its inputs: each valid structure's free product
/// is counted, not listed ([`Product::Count`]), so that a method whose arguments multiply its
/// inputs costs no more than its structure search. The same `valid` and `explored` as
/// enumerating (tested against it).
pub fn count_parallel<P>(fin: &Finitization, opts: SearchSwitches, jobs: usize, pred: P) -> Stats
where
    P: Fn(&mut Candidate<'_>) -> bool + Sync,
{
    let (stats, _) = run(
        fin,
        opts,
        jobs,
        Product::Count,
        pred,
        || (),
        |_, _| ControlFlow::Continue(()),
    );
    stats
}

/// The structure-only search on `jobs` threads: Korat without the free product, so each valid
/// structure is one candidate, handed to `on_structure` (its
/// [`Candidate::structure_slots`] say which slots it consists of), and its unread argument
/// fields are not enumerated. For a method whose precondition leaves its arguments unread
/// this is the receiver's own search, the figure Korat 1.0 reports for the bare structure
/// (`valid == structures`, `explored == judged`).
pub fn search_structures<P, T, I, F>(
    fin: &Finitization,
    opts: SearchSwitches,
    jobs: usize,
    pred: P,
    init: I,
    on_structure: F,
) -> (Stats, Vec<T>)
where
    P: Fn(&mut Candidate<'_>) -> bool + Sync,
    T: Send,
    I: Fn() -> T + Sync,
    F: Fn(&mut T, &Candidate<'_>) -> ControlFlow<()> + Sync,
{
    run(fin, opts, jobs, Product::Skip, pred, init, on_structure)
}

fn run<P, T, I, F>(
    fin: &Finitization,
    opts: SearchSwitches,
    jobs: usize,
    product: Product,
    pred: P,
    init: I,
    on_valid: F,
) -> (Stats, Vec<T>)
where
    P: Fn(&mut Candidate<'_>) -> bool + Sync,
    T: Send,
    I: Fn() -> T + Sync,
    F: Fn(&mut T, &Candidate<'_>) -> ControlFlow<()> + Sync,
{
    let started = Instant::now();
    let jobs = jobs.max(1);
    let parts = if jobs == 1 {
        vec![Vec::new()]
    } else {
        split(fin, opts, &mut |c| pred(c), jobs * PARTS_PER_THREAD)
    };
    let stop = AtomicBool::new(false);
    let part = |eng: &mut Engine<'_>, p: &Prefix| {
        let mut out = init();
        let mut st = Stats::default();
        if !stop.load(Ordering::Relaxed)
            && !eng.run_part(p, &mut |c| pred(c), &mut |c| on_valid(&mut out, c), &mut st)
        {
            stop.store(true, Ordering::Relaxed);
        }
        (st, out)
    };
    let engine = || {
        let mut e = Engine::new(fin, opts);
        e.product = product;
        e
    };
    let results: Vec<(Stats, T)> = if jobs == 1 {
        let mut eng = engine();
        parts.iter().map(|p| part(&mut eng, p)).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .expect("a thread pool");
        pool.install(|| {
            parts
                .par_iter()
                .map_init(engine, |eng, p| part(eng, p))
                .collect()
        })
    };
    let mut stats = Stats::default();
    let mut outs = Vec::with_capacity(results.len());
    for (st, out) in results {
        stats.add_counts(&st);
        outs.push(out);
    }
    stats.seconds = started.elapsed().as_secs_f64();
    (stats, outs)
}
