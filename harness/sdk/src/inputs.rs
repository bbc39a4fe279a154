//! Every target method's inputs at one scope: Korat over each method's finitization.
//!
//! Methods whose precondition is the class invariant alone
//! ([`Benchmark::precondition_is_invariant`]) share one search of the receiver's structure per
//! scope: each structure found is carried into every such method's finitization and
//! completed with that method's arguments enumerated over their domains ([`korat::Transfer`]),
//! which gives each method exactly the inputs, the order and the counts of its own search. A
//! method whose structure does not carry over (an argument that is an object, a field it lacks)
//! is searched on its own. Searches run on `jobs` threads, split by prefixes of the candidate
//! vector ([`korat::search_parallel`]), with results identical to one thread. Inputs are built
//! only while some are left to show (`--print`): the rest of each free product is counted
//! ([`korat::Transfer::count`], [`korat::count_parallel`]), the same figures for a fraction of
//! the time when arguments multiply the structures (BinomialHeap 7: 2.58 M inputs from
//! 107,416 structures). Evaluation, which stores every input, enumerates them (`evaluate`).

use std::ops::ControlFlow;

use crate::Benchmark;

/// Decodes each valid input of `method` at `scope`, in Korat's order, and hands it to `visit`
/// (without keeping them all in memory). Returns the search's figures.
pub fn for_each_input<B: Benchmark>(
    bench: &B,
    method: usize,
    scope: u32,
    mut visit: impl FnMut(B::Input),
) -> korat::Stats {
    let (fin, f) = bench.finitize(method, scope);
    korat::search(
        &fin,
        |c| bench.precondition(method, &f, c),
        |c| {
            let mut c = korat::Candidate::new(c.finitization(), c.state());
            visit(bench.decode(method, &f, &mut c));
            ControlFlow::Continue(())
        },
    )
}

/// One method's generation at one scope.
#[derive(Clone, Debug)]
pub struct MethodRun {
    /// Korat's figures. For methods that share a structure search, `seconds` is that search's
    /// time divided among them in proportion to their candidates (the scope's total is the
    /// wall-clock time).
    pub stats: korat::Stats,
    /// The first inputs, rendered.
    pub shown: Vec<String>,
    /// log2 of the method's state space.
    pub state_space_log2: f64,
    /// Whether the inputs came from a structure search shared with other methods.
    pub shared: bool,
    /// Whether the search ran with the method's dedicated generators.
    pub generators: bool,
}

/// `method`'s precondition on a candidate: with `generators`, its dedicated-generator variant
/// where the benchmark has one (the same verdicts, fewer candidates), else the plain one.
#[inline]
pub fn precondition<B: Benchmark>(
    bench: &B,
    method: usize,
    generators: bool,
    fields: &B::Fields,
    c: &mut korat::Candidate<'_>,
) -> bool {
    if generators && B::HAS_DEDICATED {
        bench.precondition_dedicated(method, fields, c)
    } else {
        bench.precondition(method, fields, c)
    }
}

/// Generates every method's inputs at `scope` on `jobs` threads, rendering the first `print`
/// of each; one [`MethodRun`] per method, in the benchmark's order. With `generators`, each
/// method that has dedicated generators is searched with them ([`precondition`]).
pub fn generate_scope<B: Benchmark>(
    bench: &B,
    scope: u32,
    print: usize,
    opts: korat::SearchSwitches,
    jobs: usize,
    generators: bool,
) -> Vec<MethodRun> {
    let spaces: Vec<_> = (0..bench.methods().len())
        .map(|m| bench.finitize(m, scope))
        .collect();
    let mut runs: Vec<Option<MethodRun>> = vec![None; spaces.len()];
    let shared: Vec<usize> = (0..spaces.len())
        .filter(|&m| bench.precondition_is_invariant(m))
        .collect();
    if shared.len() > 1 && opts == korat::SearchSwitches::default() {
        for (m, run) in shared_search(bench, &spaces, &shared, print, jobs, generators) {
            runs[m] = Some(run);
        }
    }
    runs.into_iter()
        .enumerate()
        .map(|(m, run)| {
            run.unwrap_or_else(|| own_search(bench, m, &spaces[m], print, opts, jobs, generators))
        })
        .collect()
}

/// What one part of the shared search gathered for one method.
#[derive(Default)]
struct Gathered {
    inputs: u64,
    shown: Vec<String>,
    /// A structure did not carry over: the method is searched on its own.
    failed: bool,
}

/// One structure search for the methods `members`, led by the first; the runs of those whose
/// structures all carried over.
fn shared_search<B: Benchmark>(
    bench: &B,
    spaces: &[(korat::Finitization, B::Fields)],
    members: &[usize],
    print: usize,
    jobs: usize,
    generators: bool,
) -> Vec<(usize, MethodRun)> {
    let lead = members[0];
    let (lead_fin, lead_fields) = &spaces[lead];
    let members: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&m| korat::Transfer::new(lead_fin, &spaces[m].0).is_some())
        .collect();
    let init = || {
        let transfers: Vec<_> = members
            .iter()
            .map(|&m| korat::Transfer::new(lead_fin, &spaces[m].0).expect("checked above"))
            .collect();
        let gathered: Vec<Gathered> = members.iter().map(|_| Gathered::default()).collect();
        (transfers, gathered)
    };
    let (stats, parts) = korat::search_structures(
        lead_fin,
        korat::SearchSwitches::default(),
        jobs,
        |c| precondition(bench, lead, generators, lead_fields, c),
        init,
        |(transfers, gathered), c| {
            for (i, &m) in members.iter().enumerate() {
                let g = &mut gathered[i];
                if g.failed {
                    continue;
                }
                let fields = &spaces[m].1;
                let shown = &mut g.shown;
                // Inputs are built only while some are left to show; the rest are counted.
                let carried = if shown.len() < print {
                    transfers[i].products(c, |input| {
                        if shown.len() < print {
                            shown.push(rendered(bench, m, fields, input));
                        }
                        ControlFlow::Continue(())
                    })
                } else {
                    transfers[i].count(c)
                };
                match carried {
                    Some(k) => g.inputs += k,
                    None => g.failed = true,
                }
            }
            ControlFlow::Continue(())
        },
    );
    let mut runs: Vec<(usize, MethodRun)> = Vec::new();
    for (i, &m) in members.iter().enumerate() {
        let mut inputs = 0;
        let mut shown = Vec::new();
        let mut failed = false;
        for (_, gathered) in &parts {
            let g = &gathered[i];
            failed |= g.failed;
            inputs += g.inputs;
            shown.extend(
                g.shown
                    .iter()
                    .take(print.saturating_sub(shown.len()))
                    .cloned(),
            );
        }
        if failed {
            continue;
        }
        // Each structure is judged once; its other argument combinations are not.
        let s = korat::Stats {
            valid: inputs,
            explored: stats.explored + (inputs - stats.valid),
            seconds: 0.0,
            judged: stats.explored,
            structures: stats.valid,
        };
        runs.push((
            m,
            MethodRun {
                stats: s,
                shown,
                state_space_log2: spaces[m].0.state_space_log2(),
                shared: true,
                generators: generators && B::HAS_DEDICATED,
            },
        ));
    }
    let total: u64 = runs.iter().map(|(_, r)| r.stats.explored).sum();
    for (_, r) in &mut runs {
        r.stats.seconds = stats.seconds * r.stats.explored as f64 / total.max(1) as f64;
    }
    runs
}

/// The rendering of method `m`'s input that a search found (decoded from a fresh candidate
/// over its values: the found one is read-only).
fn rendered<B: Benchmark>(
    bench: &B,
    m: usize,
    fields: &B::Fields,
    found: &korat::Candidate<'_>,
) -> String {
    let mut c = korat::Candidate::new(found.finitization(), found.state());
    bench.render(m, &bench.decode(m, fields, &mut c))
}

/// Korat over one method's own finitization: with inputs to show, the enumerating search;
/// else the counting one, which gives the same figures without building the free product.
fn own_search<B: Benchmark>(
    bench: &B,
    m: usize,
    (fin, fields): &(korat::Finitization, B::Fields),
    print: usize,
    opts: korat::SearchSwitches,
    jobs: usize,
    generators: bool,
) -> MethodRun {
    let pred = |c: &mut korat::Candidate<'_>| precondition(bench, m, generators, fields, c);
    let (stats, shown) = if print == 0 {
        (korat::count_parallel(fin, opts, jobs, pred), Vec::new())
    } else {
        let (stats, parts) = korat::search_parallel(
            fin,
            opts,
            jobs,
            pred,
            Vec::new,
            |shown: &mut Vec<String>, c| {
                if shown.len() < print {
                    shown.push(rendered(bench, m, fields, c));
                }
                ControlFlow::Continue(())
            },
        );
        (stats, parts.into_iter().flatten().take(print).collect())
    };
    MethodRun {
        stats,
        shown,
        state_space_log2: fin.state_space_log2(),
        shared: false,
        generators: generators && B::HAS_DEDICATED,
    }
}

/// The structure-only search of every method at `scope`: its structures found and candidates
/// explored without enumerating the arguments it leaves unread (what compares with Korat 1.0's
/// search of the bare structure).
pub fn structure_scope<B: Benchmark>(
    bench: &B,
    scope: u32,
    opts: korat::SearchSwitches,
    jobs: usize,
    generators: bool,
) -> Vec<MethodRun> {
    (0..bench.methods().len())
        .map(|m| {
            let (fin, fields) = bench.finitize(m, scope);
            let (stats, _) = korat::search_structures(
                &fin,
                opts,
                jobs,
                |c| precondition(bench, m, generators, &fields, c),
                || (),
                |_, _| ControlFlow::Continue(()),
            );
            MethodRun {
                stats,
                shown: Vec::new(),
                state_space_log2: fin.state_space_log2(),
                shared: false,
                generators: generators && B::HAS_DEDICATED,
            }
        })
        .collect()
}
