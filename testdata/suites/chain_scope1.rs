//! Every input of `testdata/chain` at scope 1, written by hand as tests: `insert(1)` and
//! `remove(1)` on the empty chain and on `[1]`, each asserting what the original returns, the
//! values it leaves and the invariant — exactly what `evaluate --scopes 1` compares. So
//! `evaluate --suite` of this file must kill exactly the mutants scope 1 kills
//! (`harness/cli/tests/integration/suite.rs`).

use chain::{Chain, ChainBench, Node};
use ferastrau_sdk::Benchmark;

/// The chain of `values` (strictly increasing), nodes in list order as Korat's inputs are.
fn chain(values: &[i64]) -> Chain {
    let nodes: Vec<Node> = values
        .iter()
        .enumerate()
        .map(|(i, &value)| Node {
            next: (i + 1 < values.len()).then_some(i + 1),
            value,
        })
        .collect();
    Chain {
        head: (!values.is_empty()).then_some(0),
        size: values.len() as i64,
        nodes,
    }
}

/// The post-state's values and the invariant, as the evaluation checks them.
fn after(c: Chain, values: &[i64]) {
    assert_eq!(c.values(), values);
    assert!(ChainBench.invariant(&(c, 0)), "the invariant");
}

#[test]
fn insert_into_the_empty_chain() {
    let mut c = chain(&[]);
    assert!(c.insert(1));
    after(c, &[1]);
}

#[test]
fn insert_what_is_there() {
    let mut c = chain(&[1]);
    assert!(!c.insert(1));
    after(c, &[1]);
}

#[test]
fn remove_from_the_empty_chain() {
    let mut c = chain(&[]);
    assert!(!c.remove(1));
    after(c, &[]);
}

#[test]
fn remove_the_only_value() {
    let mut c = chain(&[1]);
    assert!(c.remove(1));
    after(c, &[]);
}
