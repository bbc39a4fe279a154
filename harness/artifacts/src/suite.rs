//! `suite.json`: the verdicts of `evaluate --suite FILE`, a Rust test file measured against
//! every mutant (written by `harness/cli/src/cli/suite.rs` from `harness/src/suite`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::gate_baseline::{MutantPlace, Region};

use crate::common::Reason;
use crate::{artifact, Layout};

/// The version of `suite.json` this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// `suite.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuiteRun {
    pub benchmark: String,
    /// See the crate's "Versions".
    #[serde(default)]
    pub schema_version: u32,
    /// The suite file as given on the command line.
    pub suite: String,
    /// Its tests, in the order they run (`module::name`).
    pub tests: Vec<String>,
    /// Mutants evaluated, and killed.
    pub mutants: u32,
    pub killed: u32,
    /// Killed over evaluated, in percent, rounded to two decimals.
    pub kill_rate: f64,
    /// The original's run of the whole suite, in seconds (the mutants' clock is a factor of it).
    pub original_seconds: f64,
    /// Every evaluated mutant, by id.
    pub verdicts: Vec<SuiteVerdict>,
    /// Where each evaluated mutant is, by key, and each mutated function's lines (by
    /// `"<file> <function>"`): what `gate --suite` matches a later run's mutants through, when
    /// this file is its baseline (`harness/report/src/gate/identity.rs`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub places: BTreeMap<String, MutantPlace>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub regions: BTreeMap<String, Region>,
}

artifact!(SuiteRun, file: "suite.json", schema: "suite", version: SCHEMA_VERSION,
    layout: Layout::Pretty { trailing_newline: true }, remedy: "re-run evaluate --suite");

/// One mutant's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuiteVerdict {
    pub id: u32,
    pub status: SuiteStatus,
    /// How it died: `output` for a failing test, else the runner's death.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// The test that failed (for `output`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// The mutant's key (`Chain::insert operator: + -> - #0`), what the gate names it by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// Whether a mutant survived the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuiteStatus {
    Killed,
    Survived,
}
