//! `subsets.json`: what a run's kill matrix says about smaller suites — random subsets of the
//! largest scope's inputs the size of the scope below, over all families and over the sets of
//! families asked for, and a greedy reduction measured on held-out mutants.
//!
//! Written by `harness/src/subsets/table.rs` (`write`) through `serde_json::to_string_pretty`
//! and a newline: fields in declaration order. Read back by the paper's crate, which puts
//! published figures beside it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::Family;
use crate::{artifact, Layout};

/// The version of `subsets.json` this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// `subsets.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Subsets {
    /// See the crate's "Versions".
    #[serde(default)]
    pub schema_version: u32,
    pub benchmark: String,
    /// s: the largest scope, whose matrix this is.
    pub scope: u32,
    /// |T(s)| and |R(s)| = |T(s−1)|.
    pub inputs: u64,
    pub subset_size: u64,
    /// Random draws per comparison (`--random-samples`) and their seed.
    pub samples: u64,
    pub seed: u64,
    /// Rows the matrix left incomplete (their figures are bounded, see `*_high`).
    pub incomplete_mutants: Vec<u32>,
    /// Where the matrix disagreed with the first-kill run (from its header).
    pub disagreements: Vec<String>,
    /// Every family, then each set of families `subsets --families` asked for.
    pub rows: Vec<SubsetsRow>,
    pub reduction: Reduction,
}

artifact!(Subsets, file: "subsets.json", schema: "subsets", version: SCHEMA_VERSION,
    layout: Layout::Pretty { trailing_newline: true }, remedy: "re-run ferastrau subsets");

/// A suite's kills among a set of mutants.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Kills {
    pub killed: u32,
    pub kill_rate: f64,
    /// With incomplete rows: the most it could be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub killed_high: Option<u32>,
}

/// The exact expectation over random subsets (in mutants and in percent).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub killed: f64,
    pub kill_rate: f64,
    /// With incomplete rows: the expectation if every unknown input killed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kill_rate_high: Option<f64>,
}

/// Mean, minimum, quartiles and maximum of the draws' kill rates, in percent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    pub mean: f64,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
}

/// How the draws compare with a reference suite's kill count: the paper's `<` (random worse),
/// `=` and `>`; `undetermined` when unknown inputs could put a draw on either side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Comparison {
    pub worse: u64,
    pub equal: u64,
    pub better: u64,
    pub undetermined: u64,
}

/// How one suite's kills relate to another's, as symbols: `<` (worse), `=`, `>` (better).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Relation {
    #[serde(rename = "<")]
    Worse,
    #[serde(rename = "=")]
    Equal,
    #[serde(rename = ">")]
    Better,
}

/// The random subsets over one set of families.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SubsetsRow {
    /// The families whose evaluated mutants the row counts, in `Family`'s order (every family:
    /// evaluate's `kill_rate`; a set: the sum of its `by_family` figures).
    pub families: Vec<Family>,
    pub mutants: u32,
    /// T(s−1), from the run's first-kill results.
    pub previous: Kills,
    /// T(s), from the matrix.
    pub exhaustive: Kills,
    /// R(s): the exact expectation.
    pub expected: Expected,
    /// R(s): the draws' kill rates (`null` without draws).
    pub samples: Option<Summary>,
    pub vs_previous: Comparison,
    pub vs_exhaustive: Comparison,
    /// What most draws say against T(s−1) and T(s) (`null`: no majority).
    pub verdict_previous: Option<Relation>,
    pub verdict_exhaustive: Option<Relation>,
}

/// The greedy reduction of T(s).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reduction {
    /// Inputs chosen over every evaluated mutant, and their global indices in the order chosen.
    pub size: u64,
    pub suite: Vec<u64>,
    /// The kill rate with the reduced suite and with T(s) (equal by construction).
    pub kill_rate: f64,
    pub exhaustive_kill_rate: f64,
    pub held_out: HeldOut,
}

/// The reduction chosen on half of the mutants, measured on the other half.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeldOut {
    /// Mutants of half A (the cover is chosen on them) and half B (it is measured on them).
    pub chosen_on: u32,
    pub measured_on: u32,
    /// The cover chosen on A: its size (inputs) and its kills on B.
    pub size: u64,
    pub reduced: Kills,
    /// All of T(s) on B.
    pub exhaustive: Kills,
    /// Random subsets of `size` inputs on B: exact expectation and draws.
    pub random_expected: Expected,
    pub random_samples: Option<Summary>,
    pub random_vs_reduced: Comparison,
}
