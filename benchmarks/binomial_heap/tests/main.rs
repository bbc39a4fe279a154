//! The crate's integration tests, one binary (a module per file): one link instead of one
//! per file. `autotests = false` in `Cargo.toml` names this file the only test target.

mod dedicated;
mod korat_counts;
mod ports;
mod sequences;
mod structure;
