//! The cases `cargo bench -p ferastrau-speed` times: the structure-only searches of issue 13's
//! table (the receiver's invariant over its own finitization, no arguments: the figure that
//! compares with Korat 1.0), the same searches with each benchmark's dedicated generators
//! (`ded.`, beside the plain one at the paper's largest scope), and whole-scope generation of
//! every benchmark at the paper's largest scope (Table 4).
//!
//! This crate names benchmarks on purpose: it is the only place that does, besides the
//! benchmarks themselves.

use std::hash::Hasher;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::korat::{self, Stats};

/// A structure-only search: benchmark, scope, and the search itself.
pub struct Structure {
    /// `benchmark scope`, e.g. `search_tree 8`.
    pub name: &'static str,
    /// Runs the search with `jobs` threads.
    pub run: fn(usize) -> Stats,
}

/// Whether [`count`] digests what it finds (set by [`structure_digest`]; off for the timings).
static DIGEST: AtomicBool = AtomicBool::new(false);
/// The digest of the last search [`count`] ran with [`DIGEST`] on.
static LAST_DIGEST: AtomicU64 = AtomicU64::new(0);

/// FNV-1a over the little-endian bytes of `words`, continuing from `h`.
fn fnv(h: u64, words: impl IntoIterator<Item = u32>) -> u64 {
    let mut hasher = fnv::FnvHasher::with_key(h);
    for w in words {
        hasher.write(&w.to_le_bytes());
    }
    hasher.finish()
}

/// FNV-1a's offset basis: the digest of nothing.
fn fnv_start() -> u64 {
    fnv::FnvHasher::default().finish()
}

fn count(
    fin: &korat::Finitization,
    jobs: usize,
    pred: impl Fn(&mut korat::Candidate<'_>) -> bool + Sync,
) -> Stats {
    // Korat's own search (unread fields enumerated, as Korat 1.0 counts), on `jobs` threads.
    if !DIGEST.load(Ordering::Relaxed) {
        return korat::search_parallel(
            fin,
            korat::SearchSwitches::default(),
            jobs,
            pred,
            || (),
            |_, _| ControlFlow::Continue(()),
        )
        .0;
    }
    // The same search, digesting each valid input's state vector and structure slots in order.
    let (stats, parts) = korat::search_parallel(
        fin,
        korat::SearchSwitches::default(),
        jobs,
        pred,
        fnv_start,
        |h, c| {
            let s = c.structure_slots();
            *h = fnv(fnv(*h, c.state().iter().copied()), s.iter().copied());
            *h = fnv(*h, [u32::MAX]);
            ControlFlow::Continue(())
        },
    );
    let d = parts
        .iter()
        .fold(fnv_start(), |h, &p| fnv(h, [p as u32, (p >> 32) as u32]));
    LAST_DIGEST.store(d, Ordering::Relaxed);
    stats
}

fn tree_map(n: u32, jobs: usize) -> Stats {
    use tree_map::{invariant::rep_ok, space};
    let (fin, f) = space::finitization("TreeMap", n, false);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f)))
}

fn tree_map_ded(n: u32, jobs: usize) -> Stats {
    use tree_map::{dedicated::rep_ok_dedicated, space};
    let (fin, f) = space::finitization("TreeMap", n, false);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f))
}

fn fibonacci_heap(n: u32, jobs: usize) -> Stats {
    use fibonacci_heap::invariant::rep_ok;
    let (fin, f) = fibonacci_heap::FibonacciHeap::finitization("FibonacciHeap", n, &[]);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f)))
}

fn fibonacci_heap_ded(n: u32, jobs: usize) -> Stats {
    use fibonacci_heap::dedicated::rep_ok_dedicated;
    let (fin, f) = fibonacci_heap::FibonacciHeap::finitization("FibonacciHeap", n, &[]);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f))
}

fn linked_list(n: u32, jobs: usize) -> Stats {
    use linked_list::{invariant::rep_ok, space};
    let (fin, f) = space::finitization("LinkedList", n, false);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f)))
}

fn linked_list_ded(n: u32, jobs: usize) -> Stats {
    use linked_list::{dedicated::rep_ok_dedicated, space};
    let (fin, f) = space::finitization("LinkedList", n, false);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f))
}

fn sorted_list(n: u32, jobs: usize) -> Stats {
    use sorted_list::{invariant::rep_ok, space};
    let (fin, f) = space::finitization("SortedList", n, space::Args::None);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f), 0, true))
}

fn sorted_list_ded(n: u32, jobs: usize) -> Stats {
    use sorted_list::{dedicated::rep_ok_dedicated, space};
    let (fin, f) = space::finitization("SortedList", n, space::Args::None);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f, 0, true))
}

fn search_tree_ded(n: u32, jobs: usize) -> Stats {
    use search_tree::{dedicated::rep_ok_dedicated, space};
    let (fin, f) = space::finitization("SearchTree", n, false);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f))
}

fn heap_array_ded(n: u32, jobs: usize) -> Stats {
    use heap_array::{dedicated::rep_ok_dedicated, space};
    let (fin, f) = space::finitization("HeapArray", n, false);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f))
}

fn disj_set_ded(n: u32, jobs: usize) -> Stats {
    use disj_set::{dedicated::rep_ok_dedicated, space};
    let (fin, f) = space::finitization("DisjSet", n, 0);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f))
}

fn binomial_heap_ded(n: u32, jobs: usize) -> Stats {
    use binomial_heap::dedicated::rep_ok_dedicated;
    let (fin, f) = binomial_heap::BinomialHeap::finitization("BinomialHeap", n, &[]);
    count(&fin, jobs, |c| rep_ok_dedicated(c, &f))
}

fn search_tree(n: u32, jobs: usize) -> Stats {
    use search_tree::{invariant::rep_ok, space};
    let (fin, f) = space::finitization("SearchTree", n, false);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f)))
}

fn heap_array(n: u32, jobs: usize) -> Stats {
    use heap_array::{invariant::rep_ok, space};
    let (fin, f) = space::finitization("HeapArray", n, false);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f)))
}

fn binomial_heap(n: u32, jobs: usize) -> Stats {
    use binomial_heap::invariant::rep_ok;
    let (fin, f) = binomial_heap::BinomialHeap::finitization("BinomialHeap", n, &[]);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f)))
}

fn disj_set(n: u32, jobs: usize) -> Stats {
    use disj_set::{invariant::rep_ok, space};
    let (fin, f) = space::finitization("DisjSet", n, 0);
    count(&fin, jobs, |c| rep_ok(&mut View::new(c, &f)))
}

/// The structure-only search of `bench` (a crate name, e.g. `search_tree`; `_ded` for its
/// dedicated generators) at scope `n` on `jobs` threads, or `None` for an unknown name: one
/// search alone, to profile it (`examples/structure.rs`, e.g. under callgrind).
pub fn structure(bench: &str, n: u32, jobs: usize) -> Option<Stats> {
    let run: fn(u32, usize) -> Stats = match bench {
        "search_tree" => search_tree,
        "search_tree_ded" => search_tree_ded,
        "heap_array" => heap_array,
        "heap_array_ded" => heap_array_ded,
        "binomial_heap" => binomial_heap,
        "binomial_heap_ded" => binomial_heap_ded,
        "disj_set" => disj_set,
        "disj_set_ded" => disj_set_ded,
        "tree_map" => tree_map,
        "tree_map_ded" => tree_map_ded,
        "fibonacci_heap" => fibonacci_heap,
        "fibonacci_heap_ded" => fibonacci_heap_ded,
        "linked_list" => linked_list,
        "linked_list_ded" => linked_list_ded,
        "sorted_list" => sorted_list,
        "sorted_list_ded" => sorted_list_ded,
        _ => return None,
    };
    Some(run(n, jobs))
}

/// [`structure`], with a digest of the valid inputs it finds — their state vectors and
/// structure slots, in order — to check that a change to the search finds the same inputs in
/// the same order. Not for timing (the digest costs a walk of every valid input).
pub fn structure_digest(bench: &str, n: u32, jobs: usize) -> Option<(Stats, u64)> {
    DIGEST.store(true, Ordering::Relaxed);
    let st = structure(bench, n, jobs);
    DIGEST.store(false, Ordering::Relaxed);
    Some((st?, LAST_DIGEST.load(Ordering::Relaxed)))
}

/// Issue 13's table: the structures and scopes Korat 1.0 was timed on.
pub const STRUCTURES: &[Structure] = &[
    Structure {
        name: "search_tree 7",
        run: |j| search_tree(7, j),
    },
    Structure {
        name: "search_tree 8",
        run: |j| search_tree(8, j),
    },
    // The same search through the invariant with dedicated generators (Table 2's `ded.`).
    Structure {
        name: "search_tree 8 ded.",
        run: |j| search_tree_ded(8, j),
    },
    Structure {
        name: "heap_array 8",
        run: |j| heap_array(8, j),
    },
    Structure {
        name: "heap_array 8 ded.",
        run: |j| heap_array_ded(8, j),
    },
    Structure {
        name: "binomial_heap 7",
        run: |j| binomial_heap(7, j),
    },
    Structure {
        name: "binomial_heap 7 ded.",
        run: |j| binomial_heap_ded(7, j),
    },
    Structure {
        name: "disj_set 5",
        run: |j| disj_set(5, j),
    },
    Structure {
        name: "disj_set 5 ded.",
        run: |j| disj_set_ded(5, j),
    },
    // The other benchmarks with dedicated generators, at the paper's largest scope.
    Structure {
        name: "tree_map 7",
        run: |j| tree_map(7, j),
    },
    Structure {
        name: "tree_map 7 ded.",
        run: |j| tree_map_ded(7, j),
    },
    Structure {
        name: "fibonacci_heap 5",
        run: |j| fibonacci_heap(5, j),
    },
    Structure {
        name: "fibonacci_heap 5 ded.",
        run: |j| fibonacci_heap_ded(5, j),
    },
    Structure {
        name: "linked_list 7",
        run: |j| linked_list(7, j),
    },
    Structure {
        name: "linked_list 7 ded.",
        run: |j| linked_list_ded(7, j),
    },
    Structure {
        name: "sorted_list 7",
        run: |j| sorted_list(7, j),
    },
    Structure {
        name: "sorted_list 7 ded.",
        run: |j| sorted_list_ded(7, j),
    },
];

/// Korat 1.0's times for the same searches (issue 13, same machine class): whole process and
/// warm-JVM search, seconds.
pub fn korat1(name: &str) -> Option<(f64, f64)> {
    Some(match name {
        "search_tree 8" | "search_tree 8 ded." => (1.52, 0.94),
        "search_tree 7" => (0.48, 0.12),
        "heap_array 8" | "heap_array 8 ded." => (0.73, 0.47),
        "binomial_heap 7" | "binomial_heap 7 ded." => (0.42, 0.093),
        "disj_set 5" | "disj_set 5 ded." => (0.63, 0.085),
        _ => return None,
    })
}

/// Whole-scope generation: every method of one benchmark at one scope.
pub struct Generation {
    /// `benchmark scope`.
    pub name: &'static str,
    /// `ferastrau generate` with `jobs` threads (its inputs counted, none shown), or with
    /// `true` `generate --structure` (each method's structure-only search); one [`Stats`] per
    /// method.
    pub run: fn(usize, bool) -> Vec<Stats>,
}

fn generate<B: ferastrau_sdk::Benchmark>(
    bench: &B,
    scope: u32,
    jobs: usize,
    structure: bool,
) -> Vec<Stats> {
    use ferastrau_sdk::inputs::{generate_scope, structure_scope};
    let opts = korat::SearchSwitches::default();
    let runs = if structure {
        structure_scope(bench, scope, opts, jobs, false)
    } else {
        generate_scope(bench, scope, 0, opts, jobs, false)
    };
    runs.into_iter().map(|r| r.stats).collect()
}

/// Every benchmark at the paper's largest scope (Table 4), and HeapArray at 8 (issue 13).
pub const GENERATIONS: &[Generation] = &[
    Generation {
        name: "search_tree 7",
        run: |j, s| generate(&search_tree::SearchTreeBench, 7, j, s),
    },
    Generation {
        name: "disj_set 5",
        run: |j, s| generate(&disj_set::DisjSetBench, 5, j, s),
    },
    Generation {
        name: "heap_array 7",
        run: |j, s| generate(&heap_array::HeapArrayBench, 7, j, s),
    },
    Generation {
        name: "heap_array 8",
        run: |j, s| generate(&heap_array::HeapArrayBench, 8, j, s),
    },
    Generation {
        name: "binomial_heap 7",
        run: |j, s| generate(&binomial_heap::BinomialHeapBench, 7, j, s),
    },
    Generation {
        name: "fibonacci_heap 5",
        run: |j, s| generate(&fibonacci_heap::FibonacciHeapBench, 5, j, s),
    },
    Generation {
        name: "linked_list 7",
        run: |j, s| generate(&linked_list::LinkedListBench, 7, j, s),
    },
    Generation {
        name: "sorted_list 7",
        run: |j, s| generate(&sorted_list::SortedListBench, 7, j, s),
    },
    Generation {
        name: "tree_map 7",
        run: |j, s| generate(&tree_map::TreeMapBench, 7, j, s),
    },
    Generation {
        name: "hash_set 7",
        run: |j, s| generate(&hash_set::HashSetBench, 7, j, s),
    },
    Generation {
        name: "av_tree 5",
        run: |j, s| generate(&av_tree::AvTreeBench, 5, j, s),
    },
];
