//! The kill matrix (`evaluate --kill-matrix`): for one scope, which of its inputs kill which
//! mutants.
//!
//! The input index space is T(s), every input of every method at scope s: a **global index**
//! numbers them method-major, each method's inputs in Korat's generation order (method 0's
//! inputs are `0..n0`, method 1's `n0..n0+n1`, ...). Per mutant the matrix holds a
//! [`RoaringBitmap`] of killing global indices, the count of kills per reason, and a second
//! bitmap of the inputs whose outcome is **unknown** (see [`run`]): a mutant that kills its
//! process too often is not re-run on every input, and the inputs left are marked, never
//! guessed. Everything computed from the matrix ([`crate::subsets`]) bounds what is unknown
//! instead of treating it as a survival.

pub mod file;
pub mod run;

use std::collections::BTreeMap;

use ferastrau_worker::protocol::Reason;
use roaring::RoaringBitmap;
use serde::{Deserialize, Serialize};

use crate::evaluate::results::ScopeResult;
use crate::fingerprint::Fingerprint;

/// One method's slice of the global index space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodRange {
    pub name: String,
    /// The global index of the method's first input.
    pub offset: u64,
    /// Its number of inputs at the scope.
    pub inputs: u64,
}

/// The first killing input of a row, to compare with the first-kill run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstKill {
    pub index: u64,
    pub reason: Reason,
}

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
    /// The lowest killing index and its reason.
    pub first: Option<FirstKill>,
}

impl Row {
    /// Whether every input's outcome is known.
    pub fn complete(&self) -> bool {
        self.unknown.is_empty()
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
