//! What a benchmark crate depends on to be measured by Ferastrau.
//!
//! A benchmark crate implements [`Benchmark`] (its target methods, their finitizations with
//! [`korat`], the invariant, the abstraction, the postconditions) and says
//! `ferastrau_sdk::export!(MyBench)` — or describes its inputs by generator programs instead of
//! finitizations ([`generator::Generator`], exported as `generator::Generated::new(MyBench)`). Its tests use [`testing`]. Nothing here talks to the
//! `ferastrau` binary: the worker process that does (`ferastrau-worker`, with the protocol of
//! `ferastrau-protocol`) is a crate Ferastrau generates and builds per benchmark, which links the
//! benchmark and calls the function `export!` defines.

// The library surface benchmark authors program against: every public item says what it is for.
#![warn(missing_docs)]

pub mod axioms;
mod benchmark;
pub mod call_sequences;
pub mod exec;
pub mod generator;
pub mod inputs;
pub mod panics;
pub mod priority_queue;
pub mod structure;
/// Helpers for benchmark crates' tests (Korat per method, brute-force checks, postconditions).
pub mod testing;

pub use benchmark::{Axiom, Benchmark};
pub use korat;
pub use korat_choice;
/// `#[derive(Korat)]`: a structure's finitization field ids, view trait, candidate and real
/// views and decoder, from its type definitions (`korat::view`).
pub use korat_derive::Korat;

/// Exports a crate's benchmark to Ferastrau: defines `pub fn ferastrau_benchmark()`, which the
/// worker crate Ferastrau generates calls (the crate itself needs no part of the worker).
///
/// A crate that describes its inputs a second way names it too: `export!(MyBench, generator:
/// Generated::new(MyProgram))` also defines `ferastrau_generator()`, which `--engine generator`
/// runs (the manifest declares `engines = ["korat", "generator"]`); `korat: ...` likewise
/// defines `ferastrau_korat()` for a crate whose own benchmark is a generator program.
#[macro_export]
macro_rules! export {
    ($bench:expr) => {
        /// The benchmark Ferastrau's worker process runs for this crate.
        pub fn ferastrau_benchmark() -> impl $crate::Benchmark {
            $bench
        }
    };
    ($bench:expr, generator: $program:expr) => {
        $crate::export!($bench);
        /// The same inputs from a generator program (`ferastrau ... --engine generator`).
        pub fn ferastrau_generator() -> impl $crate::Benchmark {
            $program
        }
    };
    ($bench:expr, korat: $finitized:expr) => {
        $crate::export!($bench);
        /// The same inputs from Korat's search (`ferastrau ... --engine korat`).
        pub fn ferastrau_korat() -> impl $crate::Benchmark {
            $finitized
        }
    };
}
