//! The counts that prove the generator program: it finds exactly the inputs counted by hand,
//! each once, and the original meets its postconditions on all of them.

use ferastrau_sdk::generator::Generated;
use ferastrau_sdk::{testing, Benchmark};

use ferastrau_init_crate::FerastrauInitBenchmark;

/// The valid inputs of each method at scope `n`, counted by hand: a set over 1..=n is a
/// subset of it (2^n sets, one list each); `add(x)` pairs each with the n values of `x`;
/// `remove_first()` takes the 2^n − 1 non-empty ones.
fn expected(method: &str, n: u32) -> u64 {
    let sets = 1u64 << n;
    match method {
        "add" => sets * u64::from(n),
        "remove_first" => sets - 1,
        other => panic!("no count for method {other}"),
    }
}

#[test]
fn the_program_finds_exactly_the_counted_inputs() {
    let bench = Generated::new(FerastrauInitBenchmark);
    for n in 1..=5u32 {
        for (m, name) in bench.methods().iter().enumerate() {
            let stats = testing::search_method(&bench, m, n);
            assert_eq!(stats.valid, expected(name, n), "{name} at scope {n}");
        }
    }
}

#[test]
fn the_original_meets_its_postconditions() {
    let bench = Generated::new(FerastrauInitBenchmark);
    for n in 1..=4u32 {
        let checked =
            testing::check_postconditions(&bench, n).unwrap_or_else(|e| panic!("scope {n}: {e}"));
        let all: u64 = bench.methods().iter().map(|m| expected(m, n)).sum();
        assert_eq!(checked, all, "scope {n}");
    }
}
