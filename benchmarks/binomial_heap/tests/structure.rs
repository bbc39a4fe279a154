//! Issue 32: the structure `--compare structural` compares (Java serialization's view of the
//! post-state) tells every input of every method apart, given its argument, at scopes 1..4:
//! it leaves nothing of the state out, or two of Korat's non-isomorphic inputs would share one.

use binomial_heap::BinomialHeapBench;
use ferastrau_sdk::testing;

#[test]
fn every_input_has_a_structure_of_its_own() {
    testing::assert_structures_distinct(&BinomialHeapBench, 1..=4, |method, input| {
        testing::rendered_call(&BinomialHeapBench, method, input)
    });
}
