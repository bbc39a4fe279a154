//! The counts that prove the search: the paper's table and input counts per scope, a
//! brute-force check of soundness, completeness and optimality on small scopes, and the
//! original's postconditions on every input of a small scope.

use std::ops::ControlFlow;

use ferastrau_sdk::korat::view::View;
use ferastrau_sdk::korat::{self, Candidate};
use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use hash_set::invariant::rep_ok;
use hash_set::space::{finitization, Fields};
use hash_set::HashSetBench;

const BENCH: HashSetBench = HashSetBench;

/// Tables (the bare structure) per scope 1..7.
const TABLES: [u64; 7] = [1, 5, 21, 86, 225, 669, 2386];
/// (set, o) pairs, the inputs of each method, per scope 1..7.
const PAIRS: [u64; 7] = [2, 17, 106, 585, 1819, 6466, 27422];
/// The paper's `# inputs` per scope 1..7 (2 × pairs).
const PAPER: [u64; 7] = [4, 34, 212, 1170, 3638, 12932, 54844];

fn pred(f: &Fields) -> impl FnMut(&mut Candidate<'_>) -> bool + '_ {
    move |c| rep_ok(&mut View::new(c, f))
}

fn count(n: u32, with_arg: bool) -> korat::Stats {
    let (fin, f) = finitization("HashSet", n, with_arg);
    korat::search(&fin, pred(&f), |_| ControlFlow::Continue(()))
}

#[test]
fn tables_and_inputs_match_the_paper() {
    testing::assert_counts(&BENCH, &PAPER, |n, methods| {
        let i = n as usize - 1;
        assert_eq!(count(n, false).valid, TABLES[i], "tables at scope {n}");
        for (m, s) in methods.iter().enumerate() {
            assert_eq!(s.valid, PAIRS[i], "method {m} at scope {n}");
        }
    });
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    let found = testing::assert_exact_against_brute_force(&BENCH, 2, |n| {
        let (fin, f) = finitization("HashSet", n, false);
        let tables = testing::check_search_against_brute_force(&fin, pred(&f))?;
        assert_eq!(tables, TABLES[n as usize - 1]);
        Ok(tables)
    });
    for (per_method, pairs) in found.iter().zip(PAIRS) {
        assert!(per_method.iter().all(|&n| n == pairs), "{per_method:?}");
    }
}

/// Runs both methods on every input of `scope` and checks the invariant on the decoded
/// pre-state, the postcondition and the invariant on the post-state. Returns the number of
/// inputs and how many of them rehashed.
fn check_original_on_all_inputs(scope: u32) -> (u64, u64) {
    let mut rehashed = 0;
    let checked = testing::check_postconditions_with(&BENCH, scope, |_, pre, post, _| {
        if post.set.map.table.len() > pre.set.map.table.len() {
            rehashed += 1;
        }
        testing::require_invariant(&BENCH, pre)
    })
    .unwrap_or_else(|e| panic!("{e}"));
    (checked, rehashed)
}

#[test]
fn the_original_meets_every_postcondition() {
    for n in 1..=5u32 {
        let (checked, rehashed) = check_original_on_all_inputs(n);
        assert_eq!(checked, PAPER[n as usize - 1]);
        assert!(rehashed > 0, "scope {n} exercises rehash");
    }
}

#[test]
fn the_postconditions_and_the_invariant_reject_wrong_outputs() {
    let b = HashSetBench;
    let mut nonempty = 0;
    testing::for_each_input(&b, 0, 4, |pre| {
        let mut post = pre.clone();
        let ret = b.run(0, &mut post);
        // Doing nothing is wrong exactly when o was absent.
        let was_in = pre.set.contains(pre.o);
        assert_eq!(b.postcondition(0, &pre, &pre, &ret).is_ok(), was_in);
        if pre.set.map.count > 0 {
            nonempty += 1;
            // A count that disagrees with the entries breaks the invariant.
            let mut bad = post.clone();
            bad.set.map.count += 1;
            assert!(!b.invariant(&bad));
            // So does a stale cached hash.
            let mut bad = pre.clone();
            bad.set.map.entries[0].hash += 1;
            assert!(!b.invariant(&bad), "{}", b.render(0, &pre));
        }
    });
    assert!(nonempty > 0);
}

/// The argument `o` is decoded into the set's own key pool (`decode_with`): null, the id of
/// a key the set holds, or a fresh key appended after the set's keys, each with the hash code
/// Korat gave it; entries cache their keys' hashes and the threshold follows the length.
#[test]
fn the_argument_is_a_key_of_the_set_or_one_fresh_key_after_them() {
    let (mut held, mut fresh, mut null) = (0, 0, 0);
    testing::for_each_input(&BENCH, 0, 4, |call| {
        let m = &call.set.map;
        let keys: Vec<_> = m.entries.iter().filter_map(|e| e.key).collect();
        match call.o {
            None => null += 1,
            Some(k) if keys.contains(&k) => held += 1,
            Some(k) => {
                fresh += 1;
                assert_eq!(k.0, m.keys.len() - 1, "a fresh key is the last one");
            }
        }
        assert!(m
            .entries
            .iter()
            .all(|e| e.hash == e.key.map_or(0, |k| m.keys[k.0].hash)));
        assert_eq!(m.threshold, (m.table.len() as f32 * 0.75) as i64);
    });
    assert!(held > 0 && fresh > 0 && null > 0, "{held} {fresh} {null}");
}

#[test]
fn inputs_render_readably_and_distinctly() {
    let r = testing::renders(&BENCH, 0, 2);
    assert_eq!(
        &r[..3],
        ["add(null) on [_]", "add(k0#0) on [_]", "add(k0#1) on [_]"]
    );
    assert!(r.contains(&"add(k1#0) on [k0#0 | _]".to_string()));
    for m in 0..2 {
        let r = testing::renders(&BENCH, m, 4);
        let distinct: std::collections::HashSet<_> = r.iter().collect();
        assert_eq!(distinct.len(), r.len());
    }
}
