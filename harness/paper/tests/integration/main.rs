//! The paper crate's integration tests, one binary (as the CLI's): `ferastrau-paper reproduce`
//! and `table3` end to end, and README.md's figures against the committed reproduction. They
//! run the real `ferastrau-paper` binary with the CLI tests' helpers, included by path rather
//! than copied.

/// The binary the helpers of [`common`] run: `ferastrau-paper`, which has every command of
/// `ferastrau` beside the paper's (a test can name only its own package's binaries).
pub const BIN: &str = env!("CARGO_BIN_EXE_ferastrau-paper");

#[path = "../../../cli/tests/integration/common.rs"]
mod common;

mod readme_figures;
mod reproduce;
mod table3;
