//! Sequences of `put` and `remove` calls (`ferastrau sequences`, the JPF paper's way to
//! TreeMap's inputs) against Korat's red-black trees.

use ferastrau_sdk::call_sequences::reach;
use tree_map::TreeMapBench;

/// Of Korat's 16 red-black trees at scope 3, sequences of three calls reach 11: the empty
/// map, the three one-key maps, the six of two keys (a black root, a red child) and
/// (2B (1R) (3R)). Not the four with a red root (no call leaves one; Korat's invariant allows
/// it), nor (2B (1B) (3B)): its children turn black only when a fourth key is put under one of
/// them, and `remove` of that key leaves them black — five calls at least.
#[test]
fn sequences_of_three_calls_reach_the_red_black_trees_puts_build() {
    assert_eq!(reach(&TreeMapBench, 3, 3), (11, 16));
}
