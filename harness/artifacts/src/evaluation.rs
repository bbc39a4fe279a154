//! `evaluation.json`: a run's figures per scope: inputs, coverage, kills in all and per family.
//!
//! Written by `harness/src/evaluate/report.rs` (`write`): the fields below are declared in
//! alphabetical order, as the files have always had them; `by_family`'s keys are in the
//! families' order (`Family`'s: operator, variable, call, constant).

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use std::collections::BTreeMap;

use crate::common::{Family, Shard};
use crate::{artifact, Layout};

/// The version of `evaluation.json` this build reads and writes: 2 since a scope's kills are
/// given per family (`by_family`), which version 1 did not have and cannot be rebuilt from the
/// file alone; a version-1 file is refused, naming its version (re-run the evaluation).
pub const SCHEMA_VERSION: u32 = 2;

/// `evaluation.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    /// The benchmark crate's name.
    pub benchmark: String,
    /// Set when the run is broken (why): its figures are there to inspect, never to compare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broken: Option<String>,
    /// Set (to the diff's path) when only the mutants on a diff's lines were evaluated
    /// (`--in-diff`): kill rates and coverage are not the whole crate's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_diff: Option<String>,
    /// Set (to their ids) when only the mutants `--only-mutants` named were evaluated: like
    /// `in_diff`, a subset, gated mutant by mutant and never a baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_mutants: Option<Vec<u32>>,
    /// Set when `--max-mutants` evaluated a sample of the crate's mutants: gated as a whole
    /// only against a baseline of the same sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<crate::SampleMark>,
    /// `structural` when the run compared the post-states' concrete structures too
    /// (`--compare structural`); left out for the default, abstract values.
    #[serde(
        default,
        skip_serializing_if = "crate::common::Comparison::is_abstract"
    )]
    pub comparison: crate::common::Comparison,
    /// `generator` when a generator program made the inputs (`--engine generator`); left out
    /// for Korat's search, the default.
    #[serde(default, skip_serializing_if = "crate::common::Engine::is_korat")]
    pub engine: crate::common::Engine,
    /// Set when the kill rate counts the mutants the compiler found equivalent or duplicate
    /// (`evaluate --count-equivalents`, the paper's reproduction); left out for the default
    /// rule, which leaves them out of `mutants` (and duplicates out of `killed`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub equivalents_counted: bool,
    /// See the crate's "Versions" (0 when absent: a file of the tool before versions).
    #[serde(default)]
    pub schema_version: u32,
    /// One row per evaluated scope, in increasing order.
    pub scopes: Vec<EvaluationScope>,
    /// Set when the directory holds one shard's share of a run (`"k/n"`); its figures are the
    /// share's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardLabel>,
    /// The crate's public functions that neither a mutant nor an input exercises (not
    /// mutated, not reached from the benchmark's `run`; `Type::method`): a gate notes those
    /// its baseline did not have.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untested: Vec<String>,
}

artifact!(Evaluation, file: "evaluation.json", schema: "evaluation", version: SCHEMA_VERSION,
    // The writer puts no newline after the closing brace (unlike every other pretty file).
    layout: Layout::Pretty { trailing_newline: false });

/// A shard as `evaluation.json` names it: `"k/n"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardLabel(pub Shard);

impl std::fmt::Display for ShardLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for ShardLabel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ShardLabel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let bad = || serde::de::Error::custom(format!("{text:?} is not a shard (k/n)"));
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) =
            (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(ShardLabel(Shard { index, count }))
    }
}

impl JsonSchema for ShardLabel {
    fn schema_name() -> Cow<'static, str> {
        "ShardLabel".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "description": "A shard `k/n`: share k (from 1) of n.",
            "type": "string",
            "pattern": "^[1-9][0-9]*/[1-9][0-9]*$"
        })
    }
}

/// One scope's row. Counts of mutants are `u32` (mutant ids are); of inputs and candidates
/// `u64`. Rates and coverages are percentages rounded to two decimals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluationScope {
    /// Code branch coverage, percent (both outcomes of every branch in the mutated functions).
    pub branch_coverage: f64,
    /// The evaluated mutants and kills of each family that has evaluated mutants, by the same
    /// rule as `mutants` and `killed` (which are their sums).
    pub by_family: BTreeMap<Family, FamilyKills>,
    /// Candidates Korat explored (valid ones included).
    pub candidates: u64,
    /// Seconds the original took on the scope's inputs (the checking run).
    pub checking_seconds: f64,
    /// The evaluated mutants the compiler found duplicates of a lower-numbered mutant
    /// (`mutants.json`'s `compiler`), counted or not by the rule (`equivalents_counted`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compiler_duplicate: u32,
    /// The evaluated mutants the compiler found equivalent to the original.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub compiler_equivalent: u32,
    /// Seconds Korat took to generate them.
    pub generation_seconds: f64,
    /// Valid inputs, over every target method.
    pub inputs: u64,
    /// `killed` over `mutants`, percent.
    pub kill_rate: f64,
    pub killed: u32,
    /// Kills per reason (the same figures as the `killed_*` fields).
    pub killed_by: KilledBy,
    pub killed_crash: u32,
    pub killed_invariant: u32,
    pub killed_memory: u32,
    pub killed_output: u32,
    pub killed_timeout: u32,
    /// The evaluated mutants (viable, sampled, not skipped): the kill rate's denominator; by
    /// default without those the compiler found equivalent or duplicate.
    pub mutants: u32,
    pub scope: u32,
    /// Mutants the crate's `skip` list names: not run, not in `mutants` (absent in reports
    /// older than skip lists: none was skipped).
    #[serde(default)]
    pub skipped: u32,
    pub spec_branch_coverage: f64,
    pub spec_statement_coverage: f64,
    pub statement_coverage: f64,
    /// Each code statement or branch outcome the original did not reach at this scope
    /// (`src/heap.rs:256 BinomialHeap::decrease: if true`).
    pub uncovered: Vec<String>,
    /// The same for the specification functions: what generation did not reach. Always
    /// written; absent (not recorded, which is not "none") in reports older than the field,
    /// such as five of the committed `reports/<benchmark>/evaluation.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncovered_spec: Option<Vec<String>>,
    /// Postcondition violations of the original (absent in reports older than the field, which
    /// `report.html` reads as none).
    #[serde(default)]
    pub violations: u64,
}

/// Kills per reason, as `evaluation.json`'s `killed_by` object (keys sorted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KilledBy {
    pub crash: u32,
    pub invariant: u32,
    pub memory: u32,
    pub output: u32,
    pub timeout: u32,
}

impl KilledBy {
    /// The count for `reason`.
    pub fn get(&self, reason: crate::Reason) -> u32 {
        use crate::Reason::*;
        match reason {
            Invariant => self.invariant,
            Output => self.output,
            Timeout => self.timeout,
            Memory => self.memory,
            Crash => self.crash,
        }
    }
}

/// One family's figures at a scope (`by_family`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FamilyKills {
    /// `killed` over `mutants`, percent.
    pub kill_rate: f64,
    pub killed: u32,
    pub mutants: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
