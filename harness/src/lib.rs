//! Ferastrau's harness: locating benchmark crates, building their worker processes, and the
//! commands of the `ferastrau` binary.

pub mod cli;
pub mod evaluate;
pub mod generate;
pub mod locate;
pub mod scopes;
pub mod subject;
pub mod worker;
