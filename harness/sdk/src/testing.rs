//! Helpers for the tests of benchmark crates: Korat over a method's inputs, the brute-force
//! check of a search, and the original code judged on every input of a scope.
//!
//! Everything here is generic over [`Benchmark`] (or over a bare finitization and predicate)
//! and names no benchmark; the benchmarks' own tests are the tests of these functions.

use std::ops::ControlFlow;

use korat::{brute, Candidate, Finitization, Stats};

use crate::exec::{execute, Outcome};
use crate::Benchmark;

/// Korat over `method`'s finitization at `scope` with its precondition, counting only.
pub fn search_method<B: Benchmark>(bench: &B, method: usize, scope: u32) -> Stats {
    let (fin, f) = bench.finitize(method, scope);
    korat::search(
        &fin,
        |c| bench.precondition(method, &f, c),
        |_| ControlFlow::Continue(()),
    )
}

/// The state vectors of `method`'s valid inputs at `scope`, in Korat's order.
pub fn method_states<B: Benchmark>(bench: &B, method: usize, scope: u32) -> Vec<Vec<u32>> {
    let (fin, f) = bench.finitize(method, scope);
    let mut out = Vec::new();
    korat::search(
        &fin,
        |c| bench.precondition(method, &f, c),
        |c| {
            out.push(c.state().to_vec());
            ControlFlow::Continue(())
        },
    );
    out
}

pub use crate::inputs::for_each_input;

/// The decoded valid inputs of `method` at `scope`, in Korat's order.
pub fn method_inputs<B: Benchmark>(bench: &B, method: usize, scope: u32) -> Vec<B::Input> {
    let mut out = Vec::new();
    for_each_input(bench, method, scope, |input| out.push(input));
    out
}

/// Checks what `generate` produces at `scope` — on one thread and on `jobs`, with the shared
/// structure search where the benchmark allows it, without and with dedicated generators —
/// against each method's own sequential search: the same inputs (rendered) in the same order,
/// the same number of inputs, and the same number of candidates (with generators: no more,
/// and fewer for a method that has them). Renders every input: for small scopes. The figures
/// must not depend on how many inputs are shown: with none or two shown, the free products
/// are counted instead of listed, and must count the same.
pub fn check_generation<B: Benchmark>(bench: &B, scope: u32, jobs: usize) -> Result<(), String> {
    let opts = korat::SearchSwitches::default();
    let methods = bench.methods();
    let mut own = Vec::new();
    for m in 0..methods.len() {
        let mut shown = Vec::new();
        let stats = for_each_input(bench, m, scope, |input| shown.push(bench.render(m, &input)));
        own.push((stats, shown));
    }
    for generators in [false, true] {
        for (threads, print) in [(1, usize::MAX), (jobs, usize::MAX), (1, 0), (jobs, 2)] {
            let runs =
                crate::inputs::generate_scope(bench, scope, print, opts, threads, generators);
            for (m, run) in runs.iter().enumerate() {
                let (stats, shown) = &own[m];
                let at = format!(
                    "{} at scope {scope} on {threads} threads showing {print}{}",
                    methods[m],
                    if generators { " with generators" } else { "" }
                );
                let got = (run.stats.valid, run.stats.explored);
                let want = (stats.valid, stats.explored);
                let fewer = run.generators;
                let candidates_ok = if fewer {
                    got.1 < want.1
                } else {
                    got.1 == want.1
                };
                if got.0 != want.0 || !candidates_ok {
                    return Err(format!(
                        "{at}: (inputs, candidates) {got:?}, its own search {want:?}"
                    ));
                }
                let n = shown.len().min(print);
                if run.shown.len() != n {
                    return Err(format!("{at}: {} inputs shown", run.shown.len()));
                }
                if let Some(i) = (0..n).find(|&i| run.shown.get(i) != Some(&shown[i])) {
                    return Err(format!(
                        "{at}: input {i} is {:?}, its own search has {:?}",
                        run.shown.get(i),
                        shown[i]
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The valid states and figures of `method`'s structure search at `scope` on `jobs` threads,
/// with the plain precondition or, with `generators`, its dedicated-generator variant.
pub fn structure_states<B: Benchmark>(
    bench: &B,
    method: usize,
    scope: u32,
    jobs: usize,
    generators: bool,
) -> (Stats, Vec<Vec<u32>>) {
    let (fin, f) = bench.finitize(method, scope);
    let (stats, parts) = korat::search_structures(
        &fin,
        korat::SearchSwitches::default(),
        jobs,
        |c| {
            if generators {
                bench.precondition_dedicated(method, &f, c)
            } else {
                bench.precondition(method, &f, c)
            }
        },
        Vec::new,
        |out: &mut Vec<Vec<u32>>, c| {
            out.push(c.state().to_vec());
            ControlFlow::Continue(())
        },
    );
    (stats, parts.concat())
}

/// Checks `method`'s dedicated generators at each of `scopes`: the structure search with them
/// finds exactly the plain search's inputs in the same order, on one thread and on two, and
/// the two predicates agree on every candidate of scope `brute` (judged without recording,
/// so nothing is ruled out). Returns (plain, generators) figures per scope, for the caller
/// to require fewer candidates.
pub fn check_dedicated<B: Benchmark>(
    bench: &B,
    method: usize,
    scopes: std::ops::RangeInclusive<u32>,
    brute: u32,
) -> Result<Vec<(Stats, Stats)>, String> {
    if !B::HAS_DEDICATED {
        return Err(format!("{} has no generators", bench.methods()[method]));
    }
    let (fin, f) = bench.finitize(method, brute);
    let mut disagree = None;
    brute::enumerate(&fin, |c| {
        let plain = bench.precondition(method, &f, c);
        if plain != bench.precondition_dedicated(method, &f, c) && disagree.is_none() {
            disagree = Some(c.state().to_vec());
        }
        plain
    });
    if let Some(state) = disagree {
        return Err(format!(
            "the predicates disagree at scope {brute} on {state:?}"
        ));
    }
    let mut out = Vec::new();
    for scope in scopes {
        let (plain, plain_states) = structure_states(bench, method, scope, 1, false);
        let (ded, ded_states) = structure_states(bench, method, scope, 1, true);
        if ded_states != plain_states {
            return Err(format!(
                "scope {scope}: {} inputs with generators, {} without, or another order",
                ded_states.len(),
                plain_states.len()
            ));
        }
        let (par, par_states) = structure_states(bench, method, scope, 2, true);
        if par_states != ded_states || par.explored != ded.explored {
            return Err(format!("scope {scope}: two threads differ from one"));
        }
        out.push((plain, ded));
    }
    Ok(out)
}

/// Checks Korat on `fin` with `pred` against the brute force (every candidate of the space):
/// sound, complete and optimal ([`brute::check_exact`]). Returns the number of isomorphism
/// classes, which is then also the number of inputs Korat found. Exponential in the slots: for
/// small scopes only.
pub fn check_search_against_brute_force<P>(fin: &Finitization, mut pred: P) -> Result<u64, String>
where
    P: FnMut(&mut Candidate<'_>) -> bool,
{
    let oracle = brute::enumerate(fin, &mut pred);
    let mut found = Vec::new();
    korat::search(fin, &mut pred, |c| {
        found.push(c.state().to_vec());
        ControlFlow::Continue(())
    });
    brute::check_exact(fin, &mut pred, &found, &oracle)?;
    Ok(oracle.classes.len() as u64)
}

/// [`check_search_against_brute_force`] on `method`'s finitization at `scope` with its
/// precondition. Returns the number of isomorphism classes (= Korat's inputs).
pub fn check_against_brute_force<B: Benchmark>(
    bench: &B,
    method: usize,
    scope: u32,
) -> Result<u64, String> {
    let (fin, f) = bench.finitize(method, scope);
    check_search_against_brute_force(&fin, |c| bench.precondition(method, &f, c))
}

/// Runs the original on every valid input of every method at `scope` (through
/// [`execute`], without a tick budget) and requires a normal outcome (no panic, a post-state
/// that satisfies the invariant) and the postcondition. `also(method, pre, post, ret)` adds a
/// caller's checks and counts on each call. Returns the number of inputs checked, or the first
/// failure with the input rendered.
///
/// Panics inside the calls are outcomes (silent); the worker's panic hook, which [`execute`]
/// installs, still prints any other panic, such as a failing assertion.
pub fn check_postconditions_with<B: Benchmark>(
    bench: &B,
    scope: u32,
    mut also: impl FnMut(usize, &B::Input, &B::Input, &B::Ret) -> Result<(), String>,
) -> Result<u64, String> {
    let mut checked = 0;
    for method in 0..bench.methods().len() {
        let mut failure = None;
        for_each_input(bench, method, scope, |pre| {
            if failure.is_some() {
                return;
            }
            let mut post = pre.clone();
            let judged = match execute(bench, method, &mut post, u64::MAX, false).0 {
                Outcome::Normal(ret, _) => bench
                    .postcondition(method, &pre, &post, &ret)
                    .and_then(|()| also(method, &pre, &post, &ret)),
                other => Err(other.render()),
            };
            match judged {
                Ok(()) => checked += 1,
                Err(e) => {
                    let shown = bench.render(method, &pre);
                    failure = Some(format!("scope {scope}: {shown}: {e}"));
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
    }
    Ok(checked)
}

/// `Err` unless `input` satisfies the class invariant: for [`check_postconditions_with`], to
/// check that the decoder builds valid pre-states.
pub fn require_invariant<B: Benchmark>(bench: &B, input: &B::Input) -> Result<(), String> {
    if bench.invariant(input) {
        Ok(())
    } else {
        Err("the decoded input violates the invariant".into())
    }
}

/// [`check_postconditions_with`] without extra checks.
pub fn check_postconditions<B: Benchmark>(bench: &B, scope: u32) -> Result<u64, String> {
    check_postconditions_with(bench, scope, |_, _, _, _| Ok(()))
}

/// The postcondition test of most benchmark crates: at each scope `1..=totals.len()`, the
/// original meets its postcondition on every input, every decoded pre-state satisfies the
/// invariant, and there are exactly `totals[scope − 1]` inputs. Panics naming the input.
pub fn assert_postconditions<B: Benchmark>(bench: &B, totals: &[u64]) {
    for (scope, &inputs) in (1u32..).zip(totals) {
        let checked =
            check_postconditions_with(bench, scope, |_, pre, _, _| require_invariant(bench, pre))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(checked, inputs, "inputs checked at scope {scope}");
    }
}

/// The renderings of every input of `method` at `scope`, in Korat's order.
pub fn renders<B: Benchmark>(bench: &B, method: usize, scope: u32) -> Vec<String> {
    method_inputs(bench, method, scope)
        .iter()
        .map(|input| bench.render(method, input))
        .collect()
}

/// Two descriptions of one benchmark's inputs — e.g. its finitization and a generator program
/// (`crate::generator::Generated`) — give the same inputs: at each of `scopes`, for every
/// method, the same renderings (order aside), none twice; and the original meets its
/// postconditions on as many inputs at `check_scope` under both. Panics naming the scope and
/// method.
pub fn assert_same_inputs<A: Benchmark, B: Benchmark>(
    a: &A,
    b: &B,
    scopes: std::ops::RangeInclusive<u32>,
    check_scope: u32,
) {
    assert_eq!(a.methods(), b.methods(), "the same methods");
    for scope in scopes {
        for m in 0..a.methods().len() {
            let mut left = renders(a, m, scope);
            let mut right = renders(b, m, scope);
            assert_eq!(right.len(), left.len(), "scope {scope}, method {m}");
            left.sort();
            right.sort();
            assert!(
                right.windows(2).all(|w| w[0] != w[1]),
                "an input twice at {scope}"
            );
            assert_eq!(right, left, "scope {scope}, method {m}");
        }
    }
    let checked = check_postconditions(b, check_scope).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(checked, check_postconditions(a, check_scope).unwrap());
}

/// The count test every benchmark crate has: at each scope `1..=totals.len()`, Korat finds
/// exactly `totals[scope - 1]` valid inputs over all of `bench`'s methods together (the
/// paper's `# inputs`). `each(scope, stats)` sees each scope's per-method figures first, in
/// method order, for the crate's own relations (structures × argument values, explored
/// candidates); it asserts what it likes. Panics naming the scope.
pub fn assert_counts<B: Benchmark>(bench: &B, totals: &[u64], mut each: impl FnMut(u32, &[Stats])) {
    for (scope, &expected) in (1u32..).zip(totals) {
        let stats: Vec<Stats> = (0..bench.methods().len())
            .map(|m| search_method(bench, m, scope))
            .collect();
        each(scope, &stats);
        let total: u64 = stats.iter().map(|s| s.valid).sum();
        assert_eq!(total, expected, "inputs at scope {scope}");
    }
}

/// The brute-force test every benchmark crate has: at scopes `1..=max`, Korat is sound,
/// complete and optimal ([`check_against_brute_force`]) on each method's inputs, and on the
/// bare structure through `structure(scope)` (typically [`check_search_against_brute_force`]
/// on the structure's finitization; `|_| Ok(1)` for a crate without one). Every search must
/// find something. Panics naming the scope and what failed; returns the inputs found per
/// scope (from 1) and method, for exact counts.
pub fn assert_exact_against_brute_force<B: Benchmark>(
    bench: &B,
    max: u32,
    mut structure: impl FnMut(u32) -> Result<u64, String>,
) -> Vec<Vec<u64>> {
    let mut found = Vec::new();
    for scope in 1..=max {
        let structures =
            structure(scope).unwrap_or_else(|e| panic!("scope {scope}, structure: {e}"));
        assert!(structures > 0, "scope {scope}: no structure");
        let per_method = bench
            .methods()
            .iter()
            .enumerate()
            .map(|(m, name)| {
                let n = check_against_brute_force(bench, m, scope)
                    .unwrap_or_else(|e| panic!("scope {scope}, method {name}: {e}"));
                assert!(n > 0, "scope {scope}: no input of {name}");
                n
            })
            .collect();
        found.push(per_method);
    }
    found
}

/// For a benchmark that defines a structure ([`Benchmark::STRUCTURE`]): on every input of
/// every method at every scope of `scopes`, the structure together with the arguments
/// (`args(method, input)`) tells the input apart from every other. Korat gives one input per
/// isomorphism class, and a structure is the same for isomorphic states only, so two inputs with
/// one structure and the same arguments mean the structure leaves out something the state
/// holds. Every method must have inputs from scope 2 on (an empty check proves nothing).
pub fn assert_structures_distinct<B: Benchmark>(
    bench: &B,
    scopes: std::ops::RangeInclusive<u32>,
    args: impl Fn(usize, &B::Input) -> String,
) {
    assert!(B::STRUCTURE, "the benchmark defines no structure");
    for method in 0..bench.methods().len() {
        for scope in scopes.clone() {
            let inputs = method_inputs(bench, method, scope);
            assert!(
                !inputs.is_empty() || scope == 1,
                "method {method} scope {scope}: no inputs"
            );
            let mut seen = std::collections::HashMap::new();
            for input in &inputs {
                let key = (bench.structure(input), args(method, input));
                if let Some(other) = seen.insert(key, bench.render(method, input)) {
                    panic!(
                        "scope {scope}: {} and {other} have the same structure and arguments",
                        bench.render(method, input)
                    );
                }
            }
        }
    }
}

/// A call's arguments as a rendering `method(args) on state` writes them: everything before
/// ` on ` (the whole rendering when it has none).
pub fn rendered_call<B: Benchmark>(bench: &B, method: usize, input: &B::Input) -> String {
    let r = bench.render(method, input);
    match r.split_once(" on ") {
        Some((call, _)) => call.to_string(),
        None => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use korat::{Domain, FinitizationBuilder, ROOT};

    #[test]
    fn the_brute_force_check_counts_the_classes() {
        // Two ints over 0..=2 with a <= b: six inputs, ints have no isomorphism.
        let mut b = FinitizationBuilder::new("Pair");
        b.field(ROOT, "a", Domain::ints(0, 2));
        b.field(ROOT, "b", Domain::ints(0, 2));
        let fin = b.build();
        let (a, b) = (fin.field_at(ROOT, 0), fin.field_at(ROOT, 1));
        let ordered = |c: &mut Candidate<'_>| c.int(a, 0) <= c.int(b, 0);
        assert_eq!(check_search_against_brute_force(&fin, ordered), Ok(6));
        assert_eq!(check_search_against_brute_force(&fin, |_| false), Ok(0));
    }
}
