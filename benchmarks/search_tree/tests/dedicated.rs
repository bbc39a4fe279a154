//! The invariant with dedicated generators finds exactly the inputs of the plain invariant, in
//! the same order, from fewer candidates (the paper's Sec. 5, Table 2's `ded.` column).

use std::ops::ControlFlow;

use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::korat::{self, Candidate, SearchSwitches};
use search_tree::dedicated::rep_ok_dedicated;
use search_tree::invariant::rep_ok;
use search_tree::space::finitization;

fn states(
    n: u32,
    jobs: usize,
    pred: impl Fn(&mut Candidate<'_>, &search_tree::space::Fields) -> bool + Sync,
) -> (korat::Stats, Vec<Vec<u32>>) {
    let (fin, f) = finitization("SearchTree", n, false);
    let (stats, parts) = korat::search_parallel(
        &fin,
        SearchSwitches::default(),
        jobs,
        |c| pred(c, &f),
        Vec::new,
        |out: &mut Vec<Vec<u32>>, c| {
            out.push(c.state().to_vec());
            ControlFlow::Continue(())
        },
    );
    (stats, parts.concat())
}

#[test]
fn dedicated_generators_give_the_same_trees_in_the_same_order_from_fewer_candidates() {
    // Candidates with generators, per scope 1..7 (the plain invariant's are the original
    // Korat's: 6, 31, 178, 1165, 8308, 61950, 471708).
    let expected = [3, 11, 50, 272, 1644, 10533, 69862];
    for n in 1..=7u32 {
        let (plain, plain_states) = states(n, 1, |c, f| rep_ok(&mut View::new(c, f)));
        let (ded, ded_states) = states(n, 1, rep_ok_dedicated);
        assert_eq!(ded_states, plain_states, "scope {n}");
        assert_eq!(ded.valid, plain.valid);
        assert!(ded.explored < plain.explored, "scope {n}");
        assert_eq!(ded.explored, expected[n as usize - 1], "scope {n}");
        let (par, par_states) = states(n, 2, rep_ok_dedicated);
        assert_eq!(par_states, ded_states, "scope {n}, 2 threads");
        assert_eq!(par.explored, ded.explored, "scope {n}, 2 threads");
    }
}

#[test]
fn the_dedicated_generators_agree_with_the_invariant_on_every_candidate_they_judge() {
    // Judged without recording (no ruling out), the two predicates are the same function.
    let (fin, f) = finitization("SearchTree", 3, false);
    let oracle = korat::brute::enumerate(&fin, |c| {
        let plain = rep_ok(&mut View::new(c, &f));
        assert_eq!(plain, rep_ok_dedicated(c, &f), "{:?}", c.state());
        plain
    });
    assert_eq!(oracle.classes.len(), 15);
}

#[test]
fn every_method_searches_with_the_dedicated_generators_through_the_benchmark() {
    use ferastrau_sdk::{testing, Benchmark};
    use search_tree::SearchTreeBench;
    for m in 0..SearchTreeBench.methods().len() {
        let runs = testing::check_dedicated(&SearchTreeBench, m, 1..=6, 3).unwrap();
        for (n, (plain, ded)) in (1..).zip(runs) {
            assert!(ded.explored < plain.explored, "scope {n}");
        }
    }
}
