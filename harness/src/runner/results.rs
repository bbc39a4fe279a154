//! What a mutant did at one scope, as the journal stores it and the reports show it.

use ferastrau_worker::protocol::{Limit, Reason};
use serde::{Deserialize, Serialize};

/// A mutant's fate at one scope.
pub use ferastrau_artifacts::Status;

/// One mutant at one scope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScopeResult {
    pub mutant: u32,
    pub scope: u32,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// For timeouts: which limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    /// The first killing input: its method, its index in Korat's order, and its rendering.
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
    /// The result as the journal, `shard.json` and (without mutant and scope) `mutants.json`
    /// store it.
    pub fn artifact(&self) -> ferastrau_artifacts::ScopeResult {
        ferastrau_artifacts::ScopeResult {
            mutant: self.mutant,
            scope: self.scope,
            status: self.status,
            reason: self.reason.map(Into::into),
            limit: self.limit.map(Into::into),
            method: self.method.clone(),
            index: self.index,
            input: self.input.clone(),
            detail: self.detail.clone(),
            executions: self.executions,
        }
    }

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

    /// A survivor.
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
}

impl From<ferastrau_artifacts::ScopeResult> for ScopeResult {
    fn from(r: ferastrau_artifacts::ScopeResult) -> ScopeResult {
        ScopeResult {
            mutant: r.mutant,
            scope: r.scope,
            status: r.status,
            reason: r.reason.map(Into::into),
            limit: r.limit.map(Into::into),
            method: r.method,
            index: r.index,
            input: r.input,
            detail: r.detail,
            executions: r.executions,
        }
    }
}
