//! A hand-written suite for `testdata/chain` as a user might keep one: a few cases, return
//! values only, no invariant. `evaluate --suite` shows what it misses next to Korat's inputs.

use chain::Chain;

#[test]
fn a_value_inserted_is_found() {
    let mut c = Chain::default();
    assert!(c.insert(2));
    assert!(c.contains(2));
    assert!(!c.contains(3));
}

#[test]
fn inserting_twice_says_so() {
    let mut c = Chain::default();
    c.insert(1);
    assert!(!c.insert(1));
}

#[test]
fn removing_what_is_absent_fails() {
    let mut c = Chain::default();
    c.insert(3);
    assert!(!c.remove(2));
    assert!(c.remove(3));
}
