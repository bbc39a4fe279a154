//! A suite whose second test is wrong about the original: `evaluate --suite` refuses to measure
//! with it (exit status 4), naming the test, since every mutant would "die" of it.

use chain::Chain;

#[test]
fn insert_says_it_added() {
    assert!(Chain::default().insert(1));
}

#[test]
fn remove_of_the_absent_says_it_removed() {
    assert!(Chain::default().remove(1), "a wrong expectation");
}
