//! `generators.json`: generation with a benchmark's dedicated generators beside the plain
//! generation, measured in one run (Table 2's `ded.` column).
//!
//! Written by `harness/paper/src/dedicated.rs` (`measure`) as the document
//! `generate --generators --json` prints (`generate::document`), a `serde_json::Value`: every
//! key of every object is in alphabetical order, so the fields below are declared in that
//! order. Read by `dedicated::read`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{artifact, Layout};

/// The version of `generators.json` this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// `generators.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Generators {
    pub benchmark: String,
    /// See the crate's "Versions".
    #[serde(default)]
    pub schema_version: u32,
    pub scopes: Vec<ScopeStats>,
    pub search: Search,
    /// What made the inputs (left out when Korat's search over the finitization).
    #[serde(default, skip_serializing_if = "crate::common::Engine::is_korat")]
    pub engine: crate::common::Engine,
}

artifact!(Generators, file: "generators.json", schema: "generators", version: SCHEMA_VERSION,
    layout: Layout::Pretty { trailing_newline: true }, remedy: "re-run ferastrau-paper reproduce");

/// What Korat searched for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Search {
    /// (structure, arguments) pairs: the inputs.
    Inputs,
    /// Structures only (`generate --structure`).
    Structure,
}

/// Korat's figures for one scope: the totals over the methods and the breakdown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeStats {
    pub candidates: u64,
    /// The first inputs of each method, rendered (`generate --print` only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// The totals of the methods that have dedicated generators, with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generators: Option<DedicatedSearch>,
    pub inputs: u64,
    pub methods: Vec<MethodStats>,
    pub scope: u32,
    pub seconds: f64,
}

/// Korat's figures for one method at one scope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MethodStats {
    pub candidates: u64,
    /// The same search with the method's dedicated generators; absent for a method with none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generators: Option<DedicatedSearch>,
    pub inputs: u64,
    pub method: String,
    pub scope: u32,
    pub seconds: f64,
    /// log2 of the size of the state space.
    pub state_space_log2: f64,
}

/// A search with dedicated generators beside the plain one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// The schema keeps the type's first name: the committed schema does not change with the Rust
// name.
#[schemars(rename = "Saved")]
pub struct DedicatedSearch {
    pub candidates: u64,
    /// The plain search's candidates less these.
    pub candidates_saved: u64,
    pub seconds: f64,
}

/// A rendered input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub method: String,
    pub text: String,
}
