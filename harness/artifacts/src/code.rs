//! `code.json`: what Table 1 says about a run's code — the mutated functions with their sizes
//! and the mutant counts — kept beside the reports so that rendering needs no build.
//!
//! Written by `harness/paper/src/code.rs` (`CodeFacts::write`, called by `reproduce`)
//! through `serde_json::to_string_pretty` and a newline: fields in declaration order. Read by
//! `reproduce::Run::read`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{artifact, Layout};

/// The version of `code.json` this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// `code.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeFacts {
    /// See the crate's "Versions".
    #[serde(default)]
    pub schema_version: u32,
    /// The crate's `mutate` functions, in source order.
    pub functions: Vec<FnSize>,
    /// Every mutant of those functions.
    pub mutants_all: u32,
    /// Those that compile.
    pub mutants_viable: u32,
    /// Those the run evaluated: the viable ones, sampled, skips left out.
    pub mutants_evaluated: u32,
    /// The sample, when the run did not evaluate every viable mutant it could (`null`).
    pub sample: Option<Sample>,
}

artifact!(CodeFacts, file: "code.json", schema: "code", version: SCHEMA_VERSION,
    layout: Layout::Pretty { trailing_newline: true }, remedy: "re-run ferastrau-paper reproduce");

/// One mutated function's size, counted on the syntax tree (the mutator's `FnSize`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FnSize {
    /// `Type::method` or `function`.
    pub function: String,
    pub file: String,
    /// The line of the `fn` keyword.
    pub line: u32,
    /// Non-comment non-blank lines.
    pub ncnb_lines: u32,
    /// Decision points.
    pub branches: u32,
}

/// `--max-mutants` and `--seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    pub max_mutants: u32,
    pub seed: u64,
}
