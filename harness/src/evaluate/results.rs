//! What a mutant did at one scope, as the journal stores it and the reports show it.

use ferastrau_worker::protocol::{Limit, Reason};
use serde::{Deserialize, Serialize};

/// A mutant's fate at one scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Killed,
    Survived,
    /// Not run: the crate's `skip` list names it (the reason is the mutant's `skipped`).
    Skipped,
}

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
