//! `reduced-suite.json`: the greedy reduction of a scope's inputs, as inputs a user can read
//! and run again.
//!
//! Written by `harness/src/subsets/reduced_suite.rs` (`write`) from `ReducedSuite` through
//! `serde_json::to_string_pretty` and a newline: fields in declaration order. Nothing reads it
//! back today.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{artifact, Layout};

/// The version of `reduced-suite.json` this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// `reduced-suite.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReducedSuite {
    /// See the crate's "Versions".
    #[serde(default)]
    pub schema_version: u32,
    pub benchmark: String,
    pub scope: u32,
    /// |T(s)|, for the reduction's ratio.
    pub of: u64,
    /// In the order the greedy cover chose them.
    pub inputs: Vec<SuiteInput>,
}

artifact!(ReducedSuite, file: "reduced-suite.json", schema: "reduced-suite",
    version: SCHEMA_VERSION, layout: Layout::Pretty { trailing_newline: true },
    remedy: "re-run ferastrau subsets");

/// One input of the reduced suite.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuiteInput {
    pub method: String,
    /// Its index in T(s) (method-major, generation order).
    pub global_index: u64,
    /// Its index among the method's inputs at the scope.
    pub index: u64,
    /// Rendered by the benchmark's worker.
    pub input: String,
}
