//! The kill matrix (`evaluate --kill-matrix`): for one scope, which of its inputs kill which
//! mutants.
//!
//! The input index space is T(s), every input of every method at scope s: a **global index**
//! numbers them method-major, each method's inputs in Korat's generation order (method 0's
//! inputs are `0..n0`, method 1's `n0..n0+n1`, ...). Per mutant the matrix holds a
//! [`RoaringBitmap`] of killing global indices, the count of kills per reason, and a second
//! bitmap of the inputs whose outcome is **unknown** (see [`run`]): a mutant that kills its
//! process too often is not re-run on every input, and the inputs left are marked, never
//! guessed. Everything computed from the matrix (the `subsets` command) bounds what is unknown
//! instead of treating it as a survival.

pub mod file;
pub mod run;

use std::collections::BTreeMap;

use ferastrau_protocol::Reason;
use roaring::RoaringBitmap;
use serde::{Deserialize, Serialize};

use crate::fingerprint::Fingerprint;
use ferastrau_artifacts::ScopeResult;

/// One method's slice of the global index space.
pub use ferastrau_artifacts::MethodRange;

/// The first killing input of a row, to compare with the first-kill run.
pub use ferastrau_artifacts::FirstKill;

/// One mutant's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub mutant: u32,
    /// Global indices of the inputs that kill the mutant.
    pub kills: RoaringBitmap,
    /// Global indices whose outcome is unknown (the row was capped after `deaths` process
    /// deaths, or an input's process was stopped by the whole-process guard).
    pub unknown: RoaringBitmap,
    /// Kills per reason (they sum to `kills.len()`).
    pub reasons: BTreeMap<Reason, u64>,
    /// Child processes the mutant killed while its row was computed.
    pub deaths: u32,
    /// Child processes replaced while its row was computed, not killed: their calls
    /// abandoned over the tick budget had leaked up to the allowance (see the worker's
    /// `abandon` module).
    pub recycles: u32,
    /// The lowest killing index and its reason.
    pub first: Option<FirstKill>,
}

impl Row {
    /// A complete row killed by exactly `kills` (no reasons, deaths or first kill): the
    /// subsets tests' matrices.
    #[cfg(test)]
    pub(crate) fn killed_by(mutant: u32, kills: &[u32]) -> Row {
        Row {
            mutant,
            kills: kills.iter().copied().collect(),
            unknown: RoaringBitmap::new(),
            reasons: BTreeMap::new(),
            deaths: 0,
            recycles: 0,
            first: None,
        }
    }

    /// Whether every input's outcome is known.
    pub fn complete(&self) -> bool {
        self.unknown.is_empty()
    }

    /// Whether the row agrees with itself: its kills by reason add up to its killing inputs,
    /// its first kill is the lowest of them, and no input both kills and is unknown. A row
    /// read back from disk that does not is damaged.
    pub fn consistent(&self) -> bool {
        self.reasons.values().sum::<u64>() == self.kills.len()
            && self.first.map(|f| f.index) == self.kills.min().map(u64::from)
            && self.kills.is_disjoint(&self.unknown)
    }
}

/// The kill matrix of one scope.
#[derive(Clone, Debug, PartialEq)]
pub struct KillMatrix {
    pub header: Header,
    /// Rows in mutant id order.
    pub rows: Vec<Row>,
}

/// What the matrix's JSON header holds besides the rows' summaries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub benchmark: String,
    pub scope: u32,
    /// |T(s)|: the size of the global index space.
    pub inputs: u64,
    pub methods: Vec<MethodRange>,
    /// Process deaths after which a row stops and its remaining inputs are marked unknown.
    pub max_deaths: u32,
    /// The run the matrix belongs to.
    pub fingerprint: Fingerprint,
    /// Mutants whose row disagrees with the first-kill run of the same evaluation (killed
    /// versus survived, or another first killing input): listed, never hidden. Clock limits
    /// are the one source of run-to-run differences.
    #[serde(default)]
    pub disagreements: Vec<String>,
    /// Wall-clock seconds the scope's rows took (a figure of this run, not a result).
    #[serde(default)]
    pub seconds: f64,
    /// Mutant × input pairs settled without running them: the input does not reach the
    /// mutant's point, so the mutant does there what the original does (reach selection;
    /// 0 with `--no-reach`). A figure of this run, not a result: the rows are the same.
    /// (Of this session's rows: `resumed` ones were settled by an earlier one.)
    #[serde(default)]
    pub skipped: u64,
    /// Rows taken from the journal of an interrupted session (`--resume`) rather than
    /// computed by this one; `seconds` is this session's time.
    #[serde(default)]
    pub resumed: u64,
}

impl KillMatrix {
    /// The methods' ranges from their input counts, in the worker's numbering.
    pub fn ranges(methods: &[(String, u64)]) -> Vec<MethodRange> {
        let mut offset = 0;
        methods
            .iter()
            .map(|(name, inputs)| {
                let r = MethodRange {
                    name: name.clone(),
                    offset,
                    inputs: *inputs,
                };
                offset += inputs;
                r
            })
            .collect()
    }

    /// The method (its number) and per-method index of global index `g`.
    pub fn locate(&self, g: u64) -> Option<(usize, u64)> {
        self.header
            .methods
            .iter()
            .enumerate()
            .find(|(_, m)| g >= m.offset && g < m.offset + m.inputs)
            .map(|(i, m)| (i, g - m.offset))
    }

    /// Where this matrix's rows disagree with the first-kill results of the same scope: a
    /// mutant killed in one and not the other, or first killed at another input or for
    /// another reason. Incomplete rows are checked only up to what they know.
    pub fn disagreements(&self, results: &[ScopeResult]) -> Vec<String> {
        let mut out = Vec::new();
        for row in &self.rows {
            let Some(r) = results
                .iter()
                .find(|r| r.mutant == row.mutant && r.scope == self.header.scope)
            else {
                out.push(format!("mutant {}: no first-kill result", row.mutant));
                continue;
            };
            let first = r.killed().then(|| {
                let method = r
                    .method
                    .as_ref()
                    .and_then(|m| self.header.methods.iter().find(|x| &x.name == m));
                (method.zip(r.index).map(|(m, i)| m.offset + i), r.reason)
            });
            let agree = match (first, row.first) {
                (None, None) => true,
                (None, Some(_)) => false,
                (Some((Some(g), reason)), Some(f)) => {
                    g == f.index && reason == Some(f.reason)
                        || row.unknown.contains(g as u32)
                            && reason.is_some_and(Reason::is_infrastructure)
                }
                // A kill by a dead process whose cursor was unreadable, or a row whose
                // killing input is among its unknown ones.
                (Some((None, _)), Some(_)) => true,
                (Some((g, _)), None) => g.is_none_or(|g| row.unknown.contains(g as u32)),
            };
            if !agree {
                out.push(format!(
                    "mutant {}: first-kill run {}, matrix {}",
                    row.mutant,
                    match first {
                        None => "survived".to_string(),
                        Some((g, reason)) => format!(
                            "killed at #{} ({})",
                            g.map_or("?".into(), |g| g.to_string()),
                            reason.map_or("?", |x| x.as_str())
                        ),
                    },
                    match row.first {
                        None => format!("no kill ({} unknown)", row.unknown.len()),
                        Some(f) => format!("first kill at #{} ({})", f.index, f.reason),
                    }
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferastrau_artifacts::Status;

    fn matrix(rows: Vec<Row>) -> KillMatrix {
        let fingerprint: Fingerprint = serde_json::from_value(serde_json::json!({
            "tool": "0", "benchmark": "b", "crate_dir": "/b", "source": "0", "worker": "0",
            "mutants": [], "catalog": "0", "sample": null, "scopes": [1, 1],
            "limits": {"tick_factor": 10, "tick_floor": 0, "timeout_factor": 1.0,
                       "timeout_floor": {"secs": 1, "nanos": 0}},
            "memory_limit": 0, "original_timeout_ms": 0
        }))
        .unwrap();
        KillMatrix {
            header: Header {
                benchmark: "b".into(),
                scope: 1,
                inputs: 6,
                methods: KillMatrix::ranges(&[("f".into(), 2), ("g".into(), 4)]),
                max_deaths: 1,
                fingerprint,
                disagreements: Vec::new(),
                seconds: 0.0,
                skipped: 0,
                resumed: 0,
            },
            rows,
        }
    }

    fn row(mutant: u32, kills: &[u32], first: Option<(u64, Reason)>) -> Row {
        Row {
            first: first.map(|(index, reason)| FirstKill { index, reason }),
            ..Row::killed_by(mutant, kills)
        }
    }

    fn result(mutant: u32, kill: Option<(&str, u64, Reason)>) -> ScopeResult {
        match kill {
            None => ScopeResult::survived(mutant, 1, 6),
            Some((method, index, reason)) => ScopeResult {
                status: Status::Killed,
                reason: Some(reason),
                method: Some(method.into()),
                index: Some(index),
                ..ScopeResult::survived(mutant, 1, 0)
            },
        }
    }

    #[test]
    fn rows_are_checked_against_first_kills_by_global_index_and_reason() {
        let m = matrix(vec![
            row(1, &[3, 5], Some((3, Reason::Output))),
            row(2, &[], None),
            row(3, &[0], Some((0, Reason::Invariant))),
            row(4, &[4], Some((4, Reason::Output))),
        ]);
        assert_eq!(m.locate(3), Some((1, 1)));
        assert_eq!(m.locate(6), None);
        let agree = [
            result(1, Some(("g", 1, Reason::Output))),
            result(2, None),
            result(3, Some(("f", 0, Reason::Invariant))),
            result(4, Some(("g", 2, Reason::Output))),
        ];
        assert!(m.disagreements(&agree).is_empty());
        let disagree = [
            result(1, Some(("f", 1, Reason::Output))), // another input
            result(2, Some(("g", 0, Reason::Output))), // killed vs no kill
            result(3, Some(("f", 0, Reason::Output))), // another reason
            result(4, None),                           // survived vs killed
        ];
        assert_eq!(m.disagreements(&disagree).len(), 4);
    }
}
