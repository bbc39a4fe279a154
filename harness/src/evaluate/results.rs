//! What a mutant did at one scope, as the worker reports it and as the journal stores it.

use serde::{Deserialize, Serialize};

/// Why a mutant was killed (the paper's criteria, plus a dead process).
pub const REASONS: [&str; 5] = ["invariant", "output", "timeout", "memory", "crash"];

/// One mutant at one scope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScopeResult {
    pub mutant: u32,
    pub scope: u32,
    /// `killed` or `survived`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For timeouts: `ticks` (the deterministic budget), `clock` (the per-input wall-clock
    /// limit) or `guard` (the whole process ran too long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
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
        self.status == "killed"
    }
}

/// A worker's result line: like [`ScopeResult`] without the mutant, and with the method as
/// an index.
#[derive(Deserialize)]
pub struct WorkerLine {
    pub scope: u32,
    pub status: String,
    pub reason: Option<String>,
    pub limit: Option<String>,
    pub method: Option<usize>,
    pub index: Option<u64>,
    pub input: Option<String>,
    pub detail: Option<String>,
    pub executions: Option<u64>,
    /// Seconds the worker spent on the scope (kept out of results: they vary run to run).
    pub seconds: Option<f64>,
}

impl WorkerLine {
    pub fn into_result(self, mutant: u32, methods: &[String]) -> ScopeResult {
        ScopeResult {
            mutant,
            scope: self.scope,
            status: self.status,
            reason: self.reason,
            limit: self.limit,
            method: self.method.and_then(|m| methods.get(m).cloned()),
            index: self.index,
            input: self.input,
            detail: self.detail,
            executions: self.executions,
        }
    }
}
