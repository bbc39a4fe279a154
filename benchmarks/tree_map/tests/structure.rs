//! Issue 32: the structure `--compare structural` compares (Java serialization's view of the
//! post-state) tells every input of every method apart, given its argument, at scopes 1..5:
//! it leaves nothing of the state out, or two of Korat's non-isomorphic inputs would share one.

use ferastrau_sdk::testing;
use tree_map::TreeMapBench;

#[test]
fn every_input_has_a_structure_of_its_own() {
    testing::assert_structures_distinct(&TreeMapBench, 1..=5, |method, input| {
        testing::rendered_call(&TreeMapBench, method, input)
    });
}
