//! The invariant with dedicated generators finds exactly the inputs of the plain invariant, in
//! the same order, from fewer candidates (the paper's Sec. 5, Table 2's `ded.` column).

use ferastrau_sdk::{testing, Benchmark};
use tree_map::TreeMapBench;

#[test]
fn dedicated_generators_give_the_same_maps_in_the_same_order_from_fewer_candidates() {
    for m in 0..TreeMapBench.methods().len() {
        let runs = testing::check_dedicated(&TreeMapBench, m, 1..=7, 2).unwrap();
        for (n, (plain, ded)) in (1..).zip(runs) {
            println!("scope {n}: {} -> {} candidates", plain.judged, ded.judged);
            assert!(ded.explored < plain.explored, "scope {n}");
        }
    }
}
