//! How a mutant's time is limited on each input, and the reasons a mutant is killed (a
//! timeout naming the limit it hit).

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How a mutant's time is limited on each input.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Tick budget: `tick_factor` × the original's ticks on the input + `tick_floor`.
    pub tick_factor: u64,
    /// Ticks every input allows beyond the factor (an original that ticks little on an input).
    pub tick_floor: u64,
    /// Clock limit: `timeout_factor` × the original's time on the input + `timeout_floor`.
    pub timeout_factor: f64,
    /// Time every input allows beyond the factor, for scheduling noise (as serde writes a
    /// `std::time::Duration`: `{"secs": .., "nanos": ..}`).
    pub timeout_floor: Duration,
}

/// Why a mutant was killed: the paper's criteria, plus a dead process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The post-state breaks the class invariant.
    Invariant,
    /// The return value, the abstract post-state or a panic differs from the original's.
    Output,
    /// Ran past a time limit (see `limit`).
    Timeout,
    /// The process ran out of its address space.
    Memory,
    /// The process died: stack overflow, abort, `exit`, a signal.
    Crash,
}

impl Reason {
    /// Every reason, in report order.
    pub const ALL: [Reason; 5] = [
        Reason::Invariant,
        Reason::Output,
        Reason::Timeout,
        Reason::Memory,
        Reason::Crash,
    ];

    /// The reason's name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Invariant => "invariant",
            Reason::Output => "output",
            Reason::Timeout => "timeout",
            Reason::Memory => "memory",
            Reason::Crash => "crash",
        }
    }

    /// Kills that say something about the process rather than about the code's results:
    /// a run where most mutants die this way is suspect (see the harness's health checks).
    pub fn is_infrastructure(self) -> bool {
        matches!(self, Reason::Timeout | Reason::Memory | Reason::Crash)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which time limit a timeout hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The deterministic tick budget.
    Ticks,
    /// The per-input wall-clock limit (the worker's watchdog).
    Clock,
    /// The whole process ran too long and the harness killed it.
    Guard,
}

impl Limit {
    /// The limit's name in reports (the same as its serialized form).
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::Ticks => "ticks",
            Limit::Clock => "clock",
            Limit::Guard => "guard",
        }
    }
}
