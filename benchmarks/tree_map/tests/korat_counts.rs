//! The counts that prove the search: the paper's red-black tree structures and `# inputs` per
//! scope, a brute-force check of soundness, completeness and optimality on small scopes, and
//! the original code's postconditions on every input of small scopes.

use ferastrau_sdk::korat::view::View;
use std::ops::ControlFlow;

use ferastrau_sdk::korat::{self, Candidate};
use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use tree_map::invariant::rep_ok;
use tree_map::space::{finitization, Fields};
use tree_map::TreeMapBench;

fn structures(n: u32) -> korat::Stats {
    let (fin, f) = finitization("TreeMap", n, false);
    korat::search(&fin, pred_for(&f), |_| ControlFlow::Continue(()))
}

fn pred_for(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

/// All valid inputs of `method` at `scope`, decoded.
fn inputs(method: usize, scope: u32) -> Vec<tree_map::Call> {
    testing::method_inputs(&TreeMapBench, method, scope)
}

#[test]
fn structures_match_the_paper() {
    let paper = [3, 7, 16, 41, 115, 327, 911];
    for n in 1..=7u32 {
        assert_eq!(structures(n).valid, paper[n as usize - 1], "scope {n}");
    }
}

#[test]
fn put_and_remove_inputs_match_the_paper() {
    let paper = [6, 28, 96, 328, 1150, 3924, 12754];
    testing::assert_counts(&TreeMapBench, &paper, |n, methods| {
        let s = structures(n);
        for stats in methods {
            // The key argument is never read by the invariant: each structure pairs with each
            // of the n keys, and the joint search explores found·(n − 1) extra candidates.
            assert_eq!(stats.valid, s.valid * u64::from(n), "scope {n}");
            assert_eq!(stats.explored, s.explored + s.valid * (u64::from(n) - 1));
        }
    });
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    testing::assert_exact_against_brute_force(&TreeMapBench, 2, |n| {
        let (fin, f) = finitization("TreeMap", n, false);
        testing::check_search_against_brute_force(&fin, pred_for(&f))
    });
}

#[test]
fn the_invariant_does_not_require_a_black_root() {
    // Scope 1: the empty map, one red entry, one black entry.
    let calls = inputs(0, 1);
    let colors: Vec<Option<bool>> = calls
        .iter()
        .map(|c| c.map.root.map(|r| c.map.entries[r].color))
        .collect();
    assert_eq!(
        colors,
        vec![
            None,
            Some(tree_map::tree_map::RED),
            Some(tree_map::tree_map::BLACK)
        ]
    );
}

#[test]
fn the_original_meets_its_postconditions_on_every_input() {
    for scope in 1..=7u32 {
        testing::check_postconditions_with(&TreeMapBench, scope, |_, pre, _, _| {
            testing::require_invariant(&TreeMapBench, pre)
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn every_branch_of_the_fix_ups_is_reached() {
    // Scope 5 reaches all of the rebalancing cases; check a few tell-tale effects: some put
    // rotates (the root entry changes), some remove rotates, some remove recolours only.
    let mut put_rotates = false;
    let mut remove_rotates = false;
    for m in 0..2 {
        let calls = inputs(m, 5);
        for pre in calls {
            let mut post = pre.clone();
            TreeMapBench.run(m, &mut post);
            let (before, after) = (pre.map.root, post.map.root);
            let key_of = |c: &tree_map::Call, r: Option<usize>| r.map(|r| c.map.entries[r].key);
            if before.is_some() && after.is_some() && key_of(&pre, before) != key_of(&post, after) {
                if m == 0 {
                    put_rotates = true;
                } else {
                    remove_rotates = true;
                }
            }
        }
    }
    assert!(put_rotates && remove_rotates);
}
