//! Types that more than one file holds: the closed sets of values (reasons, limits, statuses,
//! families, probe kinds), a run's fingerprint, a scope's generation and original run, and a
//! mutant's result at one scope as the journal and `shard.json` store it.

use std::fmt;

use schemars::JsonSchema;

/// The protocol's values that the files hold too, defined once there (with their schemas).
pub use ferastrau_protocol::{Clause, Comparison, Engine, Limit, Limits, Reason};
use serde::{Deserialize, Serialize};

/// A mutant's fate at one scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Killed,
    Survived,
    /// Not run: the crate's `skip` list names it (the reason is the mutant's `skipped`).
    Skipped,
}

/// The families of mutation operators (the protocol's, which the mutator's catalog uses too).
pub use ferastrau_protocol::Family;

/// Where a coverage probe counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProbeRole {
    /// In a mutated function, while the original runs (code coverage).
    Code,
    /// In a specification function, while Korat generates (specification coverage).
    Spec,
}

/// What a coverage probe counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProbeKind {
    Statement,
    /// One outcome of a branch (see `construct` and `outcome`).
    Branch,
}

/// The construct a branch probe is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Construct {
    #[serde(rename = "if")]
    If,
    #[serde(rename = "while")]
    While,
    #[serde(rename = "for")]
    For,
    #[serde(rename = "match")]
    Match,
    #[serde(rename = "&&")]
    And,
    #[serde(rename = "||")]
    Or,
    /// The `?` operator: outcomes `continue` and `return`.
    #[serde(rename = "?")]
    Try,
}

impl Construct {
    /// Every construct.
    pub const ALL: [Construct; 7] = [
        Construct::If,
        Construct::While,
        Construct::For,
        Construct::Match,
        Construct::And,
        Construct::Or,
        Construct::Try,
    ];
}

/// A coverage probe: one statement, or one outcome of one branch (the mutator's `Probe`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    pub id: u32,
    pub role: ProbeRole,
    /// `Type::method` or `function`.
    pub function: String,
    pub kind: ProbeKind,
    /// For branches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construct: Option<Construct>,
    /// For branches: `true`/`false`, for `?` `continue`/`return`, for `match` `arm N` (an
    /// open set: a string).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Relative to the crate directory.
    pub file: String,
    pub line: u32,
}

/// Shard `index` of `count`, both from 1 (`--shard k/n`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The most shards a run may be split into.
pub const MAX_SHARDS: u32 = 1024;

impl std::str::FromStr for Shard {
    type Err = String;

    /// `k/n` with 1 ≤ k ≤ n ≤ [`MAX_SHARDS`].
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s:?} is not a shard: k/n, e.g. 2/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || count > MAX_SHARDS {
            return Err(format!(
                "{s:?}: the number of shards must be from 1 to {MAX_SHARDS}"
            ));
        }
        if index == 0 || index > count {
            return Err(format!(
                "{s:?}: the shard must be from 1 to {count} (shards count from 1)"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The clap value parser.
    pub fn parse(s: &str) -> Result<Shard, String> {
        s.parse()
    }

    /// This shard's share of `mutants` (the run's evaluated mutants, in id order): those whose
    /// position modulo `count` is `index - 1`.
    pub fn share(&self, mutants: &[u32]) -> Vec<u32> {
        mutants
            .iter()
            .enumerate()
            .filter(|(i, _)| *i as u32 % self.count == self.index - 1)
            .map(|(_, &m)| m)
            .collect()
    }
}

/// Everything a run's results depend on: the journal is written under it, `shard.json` and
/// the kill matrix's header name their run by it. Field order: the declaration order of
/// `harness/src/fingerprint.rs`'s `Fingerprint`, as written there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fingerprint {
    /// The `ferastrau` version that ran it.
    pub tool: String,
    /// The benchmark's package name and its directory.
    pub benchmark: String,
    pub crate_dir: String,
    /// The content hash of the benchmark crate (16 hex digits).
    pub source: String,
    /// The content hash of the worker binary (the compiled metamutant).
    pub worker: String,
    /// The evaluated mutants (ids) and a hash of their catalog entries.
    pub mutants: Vec<u32>,
    pub catalog: String,
    /// `--max-mutants` and `--seed`, when sampling.
    pub sample: Option<(u32, u64)>,
    /// The first and last scope.
    pub scopes: (u32, u32),
    pub limits: Limits,
    /// Bytes of address space per worker process.
    pub memory_limit: u64,
    /// The original's clock limit per input, in milliseconds.
    pub original_timeout_ms: u64,
    /// `--shard k/n`: the run is one share of the run the other fields describe (always
    /// written, `null` when unsharded; absent in journals older than sharding).
    #[serde(default)]
    pub shard: Option<Shard>,
    /// The mutants the crate's `skip` list names, with their reasons: a list of pairs, not a
    /// map, because the journal's header is read through an internally tagged enum, which
    /// cannot read numbers back from JSON object keys.
    #[serde(default)]
    pub skipped: Vec<(u32, String)>,
    /// `--compare`: what the mutants' outputs were compared by (left out when abstract, the
    /// default, so that files older than the option read the same).
    #[serde(default, skip_serializing_if = "Comparison::is_abstract")]
    pub comparison: Comparison,
    /// `--engine`: what made the inputs (left out when Korat, the default, so that files
    /// older than the option read the same).
    #[serde(default, skip_serializing_if = "Engine::is_korat")]
    pub engine: Engine,
}

/// A violation of the original's specification on one input (a counterexample).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Violation {
    pub method: String,
    /// The input's number among the method's inputs at its scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// The input (pre-state), rendered.
    pub input: String,
    pub output: String,
    /// What the postcondition says is wrong, or why the invariant rejects the post-state.
    pub message: String,
    /// Which part of the specification fails (absent: the postcondition).
    #[serde(default, skip_serializing_if = "is_postcondition")]
    pub clause: Clause,
    /// The post-state, rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_state: Option<String>,
}

/// One scope's generation and original run (the journal's `scope` lines, `shard.json`'s
/// `scopes`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeRun {
    pub scope: u32,
    pub inputs: u64,
    pub candidates: u64,
    pub generation_seconds: f64,
    pub checking_seconds: f64,
    /// Bytes of stored inputs (absent in journals older than the disk check).
    #[serde(default)]
    pub bytes: u64,
    /// Specification probes hit while Korat generated the scope's inputs.
    pub spec_probes: Vec<u32>,
    /// Code probes hit while the original ran on them.
    pub code_probes: Vec<u32>,
    /// Violations of the original's specification, the first few of each clause kept.
    pub violations: Vec<Violation>,
    /// All of them, counted.
    pub violation_count: u64,
    /// Those of them that are of the invariant (a broken post-state): `check` reports them;
    /// `evaluate` stops on them, as no mutant can be judged against a broken original.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub invariant_violation_count: u64,
}

fn is_postcondition(c: &Clause) -> bool {
    *c == Clause::Postcondition
}

/// Whether a count is zero (a field left out of the JSON when it is).
pub(crate) fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One mutant at one scope, as the journal's `result` lines and `shard.json`'s `results` hold
/// it (declaration order). `mutants.json` holds the same without `mutant` and `scope`, keys
/// sorted: [`crate::ScopeOutcome`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeResult {
    pub mutant: u32,
    pub scope: u32,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// For timeouts: which limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    /// The first killing input: its method, its index in Korat's order, its rendering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Inputs the mutant ran on at this scope (up to and including the killing one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub executions: Option<u64>,
}

impl ScopeResult {
    /// Whether the mutant was killed at this scope.
    pub fn killed(&self) -> bool {
        self.status == Status::Killed
    }

    /// A mutant the crate's `skip` list names, at `scope` (reports only; never journaled).
    pub fn skipped(mutant: u32, scope: u32) -> ScopeResult {
        ScopeResult {
            status: Status::Skipped,
            executions: None,
            ..ScopeResult::survived(mutant, scope, 0)
        }
    }

    /// A survivor that ran on `executions` inputs.
    pub fn survived(mutant: u32, scope: u32, executions: u64) -> ScopeResult {
        ScopeResult {
            mutant,
            scope,
            status: Status::Survived,
            reason: None,
            limit: None,
            method: None,
            index: None,
            input: None,
            detail: None,
            executions: Some(executions),
        }
    }

    /// The result as `mutants.json` lists it under its scope.
    pub fn outcome(&self) -> crate::ScopeOutcome {
        crate::ScopeOutcome {
            detail: self.detail.clone(),
            executions: self.executions,
            index: self.index,
            input: self.input.clone(),
            limit: self.limit,
            method: self.method.clone(),
            reason: self.reason,
            status: self.status,
        }
    }
}

/// A kill-matrix row's lowest killing input (global index) and its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FirstKill {
    pub index: u64,
    pub reason: Reason,
}
