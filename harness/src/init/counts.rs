//! The counts that prove the finitization: Korat finds exactly the inputs counted by hand,
//! and agrees with the brute force (sound, complete, optimal) at small scopes.

use ferastrau_sdk::testing;
use ferastrau_sdk::Benchmark;

// The benchmark under a short name, so that these lines read the same whatever the crate's.
use ferastrau_init_crate::FerastrauInitBenchmark as Bench;

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
fn korat_finds_exactly_the_counted_inputs() {
    for n in 1..=6u32 {
        for (m, name) in Bench.methods().iter().enumerate() {
            let stats = testing::search_method(&Bench, m, n);
            assert_eq!(stats.valid, expected(name, n), "{name} at scope {n}");
        }
    }
}

#[test]
fn korat_is_sound_complete_and_optimal_against_brute_force() {
    for n in 1..=3u32 {
        for (m, name) in Bench.methods().iter().enumerate() {
            let classes = testing::check_against_brute_force(&Bench, m, n)
                .unwrap_or_else(|e| panic!("{name} at scope {n}: {e}"));
            assert_eq!(classes, expected(name, n), "{name} at scope {n}");
        }
    }
}

#[test]
fn the_original_meets_its_postconditions() {
    for n in 1..=4u32 {
        let checked =
            testing::check_postconditions(&Bench, n).unwrap_or_else(|e| panic!("scope {n}: {e}"));
        let all: u64 = Bench.methods().iter().map(|m| expected(m, n)).sum();
        assert_eq!(checked, all, "scope {n}");
    }
}
