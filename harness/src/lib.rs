//! Ferastrau's pipeline: locating a benchmark crate, building its worker processes and
//! metamutant, generating inputs, running the original and the mutants, kill matrices, shards
//! and their merge, the gate, and the reports. Stages import downward only: the report and the
//! gate read the artifacts (`ferastrau-artifacts`) that the runs wrote. The `ferastrau` binary
//! (`harness/cli`) drives it.

pub mod evaluate;
pub mod exit_code;
pub mod export;
pub mod fingerprint;
#[cfg(test)]
mod fuzz;
pub mod gate;
pub mod generate;
pub mod html;
pub mod in_diff;
pub mod init;
pub mod interrupt;
pub mod locate;
pub mod matrix;
pub mod outdir;
pub mod process;
pub mod runner;
pub mod runtime;
pub mod scopes;
pub mod sequences;
pub mod shard;
pub mod subject;
pub mod subsets;
pub mod suite;
pub mod target_dir;
pub mod term;
pub mod white_box;
pub mod worker;
