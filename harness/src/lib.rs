//! Ferastrau's harness: locating benchmark crates, building their worker processes, and the
//! commands of the `ferastrau` binary.

pub mod cli;
pub mod evaluate;
pub mod exit_code;
pub mod fingerprint;
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
pub mod reproduce;
pub mod scopes;
pub mod shard;
pub mod subject;
pub mod subsets;
pub mod term;
pub mod worker;
