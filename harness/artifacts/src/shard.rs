//! `shard.json`: what one shard of a run leaves beside its reports for `merge`.
//!
//! Written by `harness/src/shard.rs` (`Record::write`) with `serde_json::to_string` of a
//! struct: one line, fields in declaration order, no final newline; except `facts.listed`,
//! which holds `serde_json::Value`s (the mutator's catalog entries with their keys added), so
//! its keys are sorted.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::{Family, Fingerprint, Probe, ScopeResult, ScopeRun, Shard};
use crate::mutants::Edit;
use crate::{artifact, Layout};

/// The version of `shard.json` this build reads and writes (the record's own `version`, 1
/// since sharding exists; 2 since the facts no longer list the mutants of a family set, which
/// each listed mutant's `family` says).
pub const SCHEMA_VERSION: u32 = 2;

/// `shard.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShardRecord {
    /// Stored as `"version"`, the name it had before this crate (see the crate's "Versions").
    #[serde(rename = "version")]
    pub schema_version: u32,
    pub shard: Shard,
    /// The run's fingerprint without the shard (`shard` is `null`): equal in every shard.
    pub run: Fingerprint,
    /// Every mutant the whole run evaluates, and this shard's share of them.
    pub evaluated: Vec<u32>,
    pub share: Vec<u32>,
    /// What the reports are made of besides results (the same in every shard).
    pub facts: Facts,
    /// The scopes as this shard generated them and ran the original on them.
    pub scopes: Vec<ScopeRun>,
    /// The share's results.
    pub results: Vec<ScopeResult>,
}

artifact!(ShardRecord, file: "shard.json", schema: "shard", version: SCHEMA_VERSION,
    layout: Layout::Compact, key: "version", remedy: "re-run the shard");

/// What a run's reports are made of besides the scopes and results (`evaluate::report::Facts`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Facts {
    pub benchmark: String,
    /// Every mutant of the run's catalog, as `mutants.json` lists it before results.
    pub listed: Vec<ListedMutant>,
    pub probes: Vec<Probe>,
    /// Top-level marks of `evaluation.json`.
    pub marks: Marks,
    /// The listed viable mutants the crate's `skip` list names, with the reason (JSON keys:
    /// the ids). Absent in records older than skip lists.
    #[serde(default)]
    pub skipped: BTreeMap<u32, String>,
    /// The compiler's verdicts on the listed mutants (JSON keys: the ids): equivalent to the
    /// original or duplicate of another. Absent in records older than the comparison.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub compiler: BTreeMap<u32, crate::CompilerVerdict>,
}

/// The marks every shard's `evaluation.json` gets (a `serde_json::Map` in the harness, which
/// only ever sets `in_diff` and `only_mutants`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Marks {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_diff: Option<String>,
    /// The mutants `--only-mutants` named, when it was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_mutants: Option<Vec<u32>>,
    /// The sample `--max-mutants` took, when it left mutants out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<SampleMark>,
    /// What the mutants' outputs were compared by (left out when abstract).
    #[serde(
        default,
        skip_serializing_if = "crate::common::Comparison::is_abstract"
    )]
    pub comparison: crate::common::Comparison,
    /// What made the inputs (left out when Korat).
    #[serde(default, skip_serializing_if = "crate::common::Engine::is_korat")]
    pub engine: crate::common::Engine,
    /// See [`crate::Evaluation::untested`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untested: Vec<String>,
    /// See [`crate::Evaluation::equivalents_counted`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub equivalents_counted: bool,
}

/// A run that evaluated a sample of the crate's mutants (`--max-mutants N --seed S`, when N is
/// under the number of viable mutants): the same sample is the same subset, another sample
/// (or none) is other mutants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SampleMark {
    /// `--max-mutants`.
    pub max_mutants: u32,
    /// `--seed`.
    pub seed: u64,
}

impl std::fmt::Display for SampleMark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--max-mutants {} --seed {}", self.max_mutants, self.seed)
    }
}

/// A catalog entry with its key: [`crate::MutantEntry`] without results (keys sorted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListedMutant {
    pub column: u32,
    pub edit: Edit,
    pub family: Family,
    pub file: String,
    pub function: String,
    pub id: u32,
    /// `null` when the writer has no key for it (never, in practice).
    pub key: Option<String>,
    pub line: u32,
    pub original: String,
    pub replacement: String,
    pub viable: Option<bool>,
}
