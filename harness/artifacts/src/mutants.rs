//! `mutants.json`: every listed mutant with its status per scope.
//!
//! `harness/src/evaluate/report.rs` (`write`) builds it as a `serde_json::Value` from the
//! mutator's catalog entries, and `harness/paper/src/next_scope.rs` (`mark`) rewrites it
//! with each survivor's `next_scope`: every key of every object is in alphabetical order, so
//! the fields below are declared in that order.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use crate::common::{Family, Limit, Reason, Status};
use crate::{artifact, Layout};

/// The version of `mutants.json` this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// `mutants.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mutants {
    pub benchmark: String,
    /// Every mutant of the run's catalog (sampled, filtered by a diff), in id order, viable or
    /// not.
    pub mutants: Vec<MutantEntry>,
    /// See the crate's "Versions".
    #[serde(default)]
    pub schema_version: u32,
}

artifact!(Mutants, file: "mutants.json", schema: "mutants", version: SCHEMA_VERSION,
    // `reproduce`'s rewrite (`next_scope::mark`, which every committed file went through) ends
    // with a newline; `evaluate`'s own writer does not (see the crate's report on drift).
    layout: Layout::Pretty { trailing_newline: true });

/// A source position: 1-based line, 1-based column counted in characters.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Pos {
    pub column: u32,
    pub line: u32,
}

/// The textual replacement that turns the source into the mutant (the paper's
/// `left/*temp*/` form).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Edit {
    /// Exclusive.
    pub end: Pos,
    pub new: String,
    /// The text replaced, to detect a source that changed since.
    pub old: String,
    pub start: Pos,
}

/// One mutant: the catalog's entry, its key, and what it did per scope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MutantEntry {
    pub column: u32,
    /// Trivial compiler equivalence: set when the mutant's function compiles to the
    /// original's code (`equivalent`) or to a lower-numbered mutant's (`duplicate`, `of` it).
    /// Absent for every other mutant, and in reports older than the comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiler: Option<CompilerVerdict>,
    pub edit: Edit,
    pub family: Family,
    /// Relative to the crate directory.
    pub file: String,
    /// `Type::method` or `function`.
    pub function: String,
    /// Stable: the same sources give the same ids. From 1.
    pub id: u32,
    /// The content key the gate matches mutants by (`SearchTree::add call: contains -> add
    /// #0`). The writer writes `null` for a mutant it has no key for (never, in practice);
    /// reports older than keys have none.
    #[serde(default)]
    pub key: Option<String>,
    pub line: u32,
    /// `reproduce` only, on the survivors of the largest scope: what scope + 1 said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_scope: Option<NextScope>,
    pub original: String,
    pub replacement: String,
    /// The mutant's result per scope (JSON keys: the scopes' numbers). Empty for a mutant that
    /// did not run (not viable, or another shard's).
    #[serde(default)]
    pub scopes: BTreeMap<u32, ScopeOutcome>,
    /// Set (to the reason) when the crate's `skip` list names the mutant: it was not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// `false` when compile-pruning dropped it; `null` before pruning (never in a report).
    pub viable: Option<bool>,
}

/// What a mutant did at one scope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopeOutcome {
    /// What differed, for people (`over 10020 ticks (the original used 2)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Inputs the mutant ran on at this scope (up to and including the killing one; fewer than
    /// the scope's under reach selection).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub executions: Option<u64>,
    /// The first killing input's index among its method's inputs (Korat's order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// The first killing input, rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// For timeouts: which limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    /// The first killing input's method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    pub status: Status,
}

/// What the compiler says of a mutant (`mutants.json`'s `compiler`): its function compiles
/// to the original's optimised code, or to the code of mutant `of` (the lowest-numbered
/// mutant of that code). The kill rate leaves such mutants out by default
/// (`evaluation.json`'s `equivalents_counted`).
///
/// Read as an internally tagged enum (`verdict`); written with its keys sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(tag = "verdict", rename_all = "snake_case", deny_unknown_fields)]
pub enum CompilerVerdict {
    Equivalent,
    Duplicate { of: u32 },
}

impl CompilerVerdict {
    /// How the survivor list and the page say it: `equivalent (compiler)`, `duplicate of #17`.
    pub fn words(self) -> String {
        match self {
            CompilerVerdict::Equivalent => "equivalent (compiler)".into(),
            CompilerVerdict::Duplicate { of } => format!("duplicate of #{of}"),
        }
    }
}

impl Serialize for CompilerVerdict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match self {
            CompilerVerdict::Equivalent => m.serialize_entry("verdict", "equivalent")?,
            CompilerVerdict::Duplicate { of } => {
                m.serialize_entry("of", of)?;
                m.serialize_entry("verdict", "duplicate")?;
            }
        }
        m.end()
    }
}

/// What scope + 1 said about a survivor of the run's largest scope (`reproduce`).
///
/// Read as an internally tagged enum (`status`); written with its keys sorted, as the
/// `serde_json::Value` the current writer builds has them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case", deny_unknown_fields)]
pub enum NextScope {
    /// It survives scope + 1 too.
    Survived { scope: u32 },
    /// Scope + 1 kills it: it was not equivalent.
    Killed { scope: u32, reason: Reason },
    /// Scope + 1 was not run, and why (too large for the budget, say).
    NotRun { scope: u32, why: String },
}

impl Serialize for NextScope {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match self {
            NextScope::Survived { scope } => {
                m.serialize_entry("scope", scope)?;
                m.serialize_entry("status", "survived")?;
            }
            NextScope::Killed { scope, reason } => {
                m.serialize_entry("reason", reason)?;
                m.serialize_entry("scope", scope)?;
                m.serialize_entry("status", "killed")?;
            }
            NextScope::NotRun { scope, why } => {
                m.serialize_entry("scope", scope)?;
                m.serialize_entry("status", "not_run")?;
                m.serialize_entry("why", why)?;
            }
        }
        m.end()
    }
}

/// What a mark says, in the words of the terminal's survivor list and the page.
impl std::fmt::Display for NextScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NextScope::Survived { scope } => write!(f, "survives scope {scope} too"),
            NextScope::Killed { scope, reason } => {
                write!(f, "killed at scope {scope} ({})", reason.as_str())
            }
            NextScope::NotRun { scope, why } => write!(f, "scope {scope} not run ({why})"),
        }
    }
}
