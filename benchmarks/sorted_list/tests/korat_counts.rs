//! The counts that prove the search: the paper's input counts per method and scope, a
//! brute-force check of soundness, completeness and optimality on small scopes, and the
//! original's postconditions on every input of a small scope.

use std::ops::ControlFlow;

use ferastrau_worker::korat::{self, brute, Candidate};
use ferastrau_worker::Benchmark;
use sorted_list::invariant::rep_ok;
use sorted_list::space::{finitization, Args, CandidateList};
use sorted_list::{SortedList, SortedListBench};

const BENCH: SortedListBench = SortedListBench;

/// The paper's `# inputs` per scope 1..7 (insert + remove + sort + merge).
const PAPER: [u64; 7] = [7, 36, 188, 1066, 7427, 73263, 1047608];

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Per method at scope n: insert and remove n·C(2n, n), sort Σ_{k≤n} n^k, merge C(3n−1, n−1).
fn expected(n: u64) -> [u64; 4] {
    let sorted = binomial(2 * n, n);
    let any: u64 = (0..=n as u32).map(|k| n.pow(k)).sum();
    [n * sorted, n * sorted, any, binomial(3 * n - 1, n - 1)]
}

fn method_stats(m: usize, n: u32) -> korat::Stats {
    let b = SortedListBench;
    let (fin, f) = b.finitize(m, n);
    korat::search(
        &fin,
        |c| b.precondition(m, &f, c),
        |_| ControlFlow::Continue(()),
    )
}

fn check_scope(n: u32) {
    let want = expected(u64::from(n));
    let mut total = 0;
    for (m, &w) in want.iter().enumerate() {
        let s = method_stats(m, n);
        eprintln!(
            "scope {n} {}: {} inputs, {} candidates, {:.3} s",
            SortedListBench.methods()[m],
            s.valid,
            s.explored,
            s.seconds
        );
        assert_eq!(s.valid, w, "method {m} at scope {n}");
        total += s.valid;
    }
    assert_eq!(total, PAPER[n as usize - 1], "scope {n}");
}

/// All seven scopes (about 1.3 million candidates at scope 7, a second or two).
#[test]
fn inputs_match_the_paper() {
    for n in 1..=7 {
        check_scope(n);
    }
}

#[test]
fn sorted_lists_are_the_central_binomial_coefficients() {
    let want = [2, 6, 20, 70, 252, 924, 3432];
    for n in 1..=7u32 {
        let (fin, f) = finitization("SortedList", n, Args::None);
        let s = korat::search(
            &fin,
            |c| rep_ok(&mut CandidateList { c, f: &f }, 0, true),
            |_| ControlFlow::Continue(()),
        );
        assert_eq!(s.valid, want[n as usize - 1], "scope {n}");
    }
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    let b = SortedListBench;
    for n in 1..=2u32 {
        for m in 0..b.methods().len() {
            let (fin, f) = b.finitize(m, n);
            let pred = |c: &mut Candidate<'_>| b.precondition(m, &f, c);
            let oracle = brute::enumerate(&fin, pred);
            let mut found = Vec::new();
            korat::search(&fin, pred, |c| {
                found.push(c.state().to_vec());
                ControlFlow::Continue(())
            });
            brute::check_exact(&fin, pred, &found, &oracle)
                .unwrap_or_else(|e| panic!("scope {n}, method {m}: {e}"));
            assert_eq!(
                oracle.classes.len() as u64,
                expected(u64::from(n))[m],
                "scope {n}, method {m}"
            );
        }
    }
}

/// Runs every method on every input of `scope` and checks the invariant of the decoded
/// pre-state (for `sort`, the unsorted one), the postcondition and the invariant after.
fn check_original_on_all_inputs(scope: u32) -> u64 {
    let b = SortedListBench;
    let mut checked = 0;
    for m in 0..b.methods().len() {
        let (fin, f) = b.finitize(m, scope);
        korat::search(
            &fin,
            |c| b.precondition(m, &f, c),
            |c| {
                let mut c = Candidate::new(c.finitization(), c.state());
                let pre = b.decode(m, &f, &mut c);
                if m != 2 {
                    assert!(b.invariant(&pre), "decoded {}", b.render(m, &pre));
                }
                let mut post = pre.clone();
                let ret = b.run(m, &mut post);
                b.postcondition(m, &pre, &post, &ret)
                    .unwrap_or_else(|e| panic!("{}: {e}", b.render(m, &pre)));
                assert!(b.invariant(&post));
                checked += 1;
                ControlFlow::Continue(())
            },
        );
    }
    checked
}

#[test]
fn the_original_meets_every_postcondition() {
    for n in 1..=4u32 {
        assert_eq!(check_original_on_all_inputs(n), PAPER[n as usize - 1]);
    }
}

#[test]
fn the_postconditions_and_the_invariant_reject_wrong_outputs() {
    let b = SortedListBench;
    let (fin, f) = b.finitize(2, 3);
    let mut unsorted = 0;
    korat::search(
        &fin,
        |c| b.precondition(2, &f, c),
        |c| {
            let mut c = Candidate::new(c.finitization(), c.state());
            let pre = b.decode(2, &f, &mut c);
            let els = sorted_list::space::elements(&pre.list);
            let is_sorted = els.windows(2).all(|w| w[0] <= w[1]);
            // sort's inputs include unsorted lists, which the class invariant rejects.
            assert_eq!(b.invariant(&pre), is_sorted, "{}", b.render(2, &pre));
            if !is_sorted {
                unsorted += 1;
                let ret = b.run(2, &mut pre.clone());
                assert!(b.postcondition(2, &pre, &pre, &ret).is_err());
            }
            ControlFlow::Continue(())
        },
    );
    assert!(unsorted > 0);
    // An insert that loses its element is caught.
    let mut call = sorted_list::Call {
        list: SortedList::new(),
        x: 2,
        other: None,
    };
    call.list.insert(1);
    let pre = call.clone();
    let ret = b.run(0, &mut call);
    assert!(b.postcondition(0, &pre, &call, &ret).is_ok());
    assert!(b.postcondition(0, &pre, &pre, &ret).is_err());
}

/// The renderings of every input of `method` at `scope`.
fn renders(method: usize, scope: u32) -> Vec<String> {
    let b = BENCH;
    let (fin, f) = b.finitize(method, scope);
    let mut out = Vec::new();
    korat::search(
        &fin,
        |c| b.precondition(method, &f, c),
        |c| {
            let mut c = Candidate::new(c.finitization(), c.state());
            out.push(b.render(method, &b.decode(method, &f, &mut c)));
            ControlFlow::Continue(())
        },
    );
    out
}

#[test]
fn inputs_render_readably_and_distinctly() {
    assert_eq!(
        renders(3, 2),
        [
            "merge([]) on []",
            "merge([1]) on []",
            "merge([2]) on []",
            "merge([]) on [1]",
            "merge([]) on [2]",
        ]
    );
    for m in 0..4 {
        let r = renders(m, 3);
        let distinct: std::collections::HashSet<_> = r.iter().collect();
        assert_eq!(distinct.len(), r.len());
    }
    assert!(renders(2, 3).contains(&"sort() on [3, 1, 2]".to_string()));
}
