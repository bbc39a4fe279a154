//! Ferastrau's pipeline: locating a benchmark crate, building its worker processes and
//! metamutant, generating inputs, running the original and the mutants, kill matrices, shards
//! and their merge, and the files each run writes (`ferastrau-artifacts`). Stages import
//! downward only. What reads those files back for people and CI (the report page, the Stryker
//! JSON, the gate) is `ferastrau-report`, which never depends on this crate, nor this crate on
//! it; the `ferastrau` binary (`harness/cli`) drives both.

pub mod evaluate;
pub mod export_tests;
pub mod fingerprint;
#[cfg(test)]
mod fuzz;
pub mod generate;
pub(crate) mod in_diff;
pub mod init;
pub mod interrupt;
pub mod locate;
pub mod matrix;
pub mod merge;
pub mod mutants;
pub mod outdir;
pub mod process;
pub(crate) mod runner;
pub mod runtime;
pub mod sequences;
pub(crate) mod shard;
pub mod subject;
pub mod subsets;
pub mod suite;
pub mod target_dir;
pub(crate) mod white_box;
pub mod worker;
