//! The mutator's integration tests, one binary (one link instead of one per file).

mod common;

mod catalog;
mod equivalence;
mod inference;
mod pruning;
