//! The harness's integration tests, one binary: a module per concern. One binary links once
//! (each test binary was a separate link of the whole harness) and its tests share one pool of
//! test threads.

/// The binary the helpers of [`common`] run. (A test can name only its own package's
/// binaries: the paper crate's tests include `common.rs` with their own.)
pub const BIN: &str = env!("CARGO_BIN_EXE_ferastrau");

mod common;
mod support;

mod axioms;
mod ci_recipes;
mod cli;
mod compare;
mod coverage_places;
mod design;
mod engines;
mod equivalent;
mod evaluate;
mod export_tests;
mod gate;
mod gate_formats;
mod generator;
mod html;
mod infrastructure;
mod init;
mod inputs;
mod layers;
mod matrix;
mod matrix_rows;
mod metamutant;
mod paper;
mod progress;
mod pull_requests;
mod reach;
mod readme;
mod shard;
mod skip;
mod snapshots;
mod stdout_schemas;
mod suite;
mod terminal;
mod trust;
mod trust_edits;
mod user_crates;
mod white_box;
