//! Issue 32: the structure `--compare structural` compares (Java serialization's view of the
//! post-state) tells every input of every method apart, given its argument, at scopes 1..5:
//! it leaves nothing of the state out, or two of Korat's non-isomorphic inputs would share one.

use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;
use search_tree::SearchTreeBench;

#[test]
fn every_input_has_a_structure_of_its_own() {
    let bench = SearchTreeBench;
    for method in 0..bench.methods().len() {
        for scope in 1..=5 {
            // The argument, through the rendering's call (everything before " on ").
            let n = testing::assert_structures_distinct(&bench, method, scope, |input| {
                let r = bench.render(method, input);
                r.split(" on ").next().unwrap_or_default().to_string()
            });
            assert!(
                n > 0 || scope == 1,
                "method {method} scope {scope}: no inputs"
            );
        }
    }
}
