//! The counts that prove the search: the original Korat's candidate counts for the tree
//! predicate, the paper's input counts, and a brute-force check of soundness, completeness and
//! optimality on small scopes.

use std::ops::ControlFlow;

use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::korat::{self, brute, Candidate, SearchSwitches};
use ferastrau_sdk::testing;
use search_tree::invariant::rep_ok;
use search_tree::space::finitization;
use search_tree::SearchTreeBench;

fn tree_search(n: u32, opts: SearchSwitches) -> (korat::Stats, Vec<Vec<u32>>) {
    let (fin, f) = finitization("SearchTree", n, false);
    let mut found = Vec::new();
    let stats = korat::search_with(
        &fin,
        opts,
        |c| rep_ok(&mut View::new(c, &f)),
        |c| {
            found.push(c.state().to_vec());
            ControlFlow::Continue(())
        },
    );
    (stats, found)
}

#[test]
fn tree_predicate_explores_exactly_the_original_korat_candidates() {
    let explored = [6, 31, 178, 1165, 8308, 61950, 471708, 3625977];
    let valid = [2, 5, 15, 51, 188, 731, 2950, 12235];
    for n in 1..=8u32 {
        let (s, _) = tree_search(n, SearchSwitches::default());
        assert_eq!(
            (s.valid, s.explored),
            (valid[n as usize - 1], explored[n as usize - 1]),
            "scope {n}"
        );
    }
}

#[test]
fn add_and_remove_inputs_match_the_paper() {
    let paper = [4, 20, 90, 408, 1880, 8772, 41300];
    testing::assert_counts(&SearchTreeBench, &paper, |n, methods| {
        // Joint generation with one argument over n values adds found·(n − 1) candidates.
        let (tree, _) = tree_search(n, SearchSwitches::default());
        for s in methods {
            assert_eq!(s.explored, tree.explored + tree.valid * (u64::from(n) - 1));
        }
    });
}

fn pred_for(f: &search_tree::space::Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    testing::assert_exact_against_brute_force(&SearchTreeBench, 3, |n| {
        let (fin, f) = finitization("SearchTree", n, false);
        testing::check_search_against_brute_force(&fin, pred_for(&f))
    });
}

#[test]
fn korat_star_without_pruning_finds_the_same_classes_from_more_candidates() {
    for n in 1..=3u32 {
        let (korat, _) = tree_search(n, SearchSwitches::default());
        let star_opts = SearchSwitches {
            pruning: false,
            isomorphism_breaking: false,
        };
        let (star, star_found) = tree_search(n, star_opts);
        assert!(
            star.explored > korat.explored,
            "scope {n}: pruning must save candidates"
        );
        // Korat* enumerates isomorphic copies too; up to isomorphism it is exactly Korat.
        let (fin, f) = finitization("SearchTree", n, false);
        let oracle = brute::enumerate(&fin, pred_for(&f));
        let classes: std::collections::HashSet<_> = star_found
            .iter()
            .map(|s| brute::canonical(&fin, s))
            .collect();
        assert_eq!(classes, oracle.classes, "scope {n}");
        assert_eq!(korat.valid as usize, oracle.classes.len());
        assert!(star.valid >= korat.valid);
    }
}

#[test]
fn breaking_a_rule_is_caught_by_the_oracle() {
    // Without isomorphism breaking Korat emits isomorphic copies: the oracle must say so.
    let (fin, f) = finitization("SearchTree", 3, false);
    let oracle = brute::enumerate(&fin, pred_for(&f));
    let (_, dupes) = tree_search(
        3,
        SearchSwitches {
            pruning: true,
            isomorphism_breaking: false,
        },
    );
    let err = brute::check_exact(&fin, pred_for(&f), &dupes, &oracle).unwrap_err();
    assert!(err.contains("not optimal"), "{err}");
}
