//! `kill-matrix/scope-<s>.json`: the header of one scope's kill matrix, beside the bitmaps in
//! `scope-<s>.bin` (binary: the magic `FKM1`, the row count, then per row its mutant id and two
//! length-prefixed roaring bitmaps; not JSON, so not typed here).
//!
//! Written and read by `harness/src/matrix/file.rs` (`write`, `read`): a struct (`HeaderFile`,
//! which flattens `matrix::Header`) through `serde_json::to_string_pretty` and a newline,
//! fields in declaration order. The type here is flat, so that unknown fields are refused.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::{Fingerprint, FirstKill, Reason};
use crate::{artifact, Layout};

/// The version of the kill matrix's header (and of its `.bin`) this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// `kill-matrix/scope-<s>.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KillMatrixHeader {
    /// Stored as `"format"`, the name it had before this crate: it versions the `.bin`'s
    /// layout too (see the crate's "Versions").
    #[serde(rename = "format")]
    pub schema_version: u32,
    pub benchmark: String,
    pub scope: u32,
    /// |T(s)|: the size of the global index space (every input of every method, method-major).
    pub inputs: u64,
    /// Each method's slice of the global index space, in the worker's numbering.
    pub methods: Vec<MethodRange>,
    /// Process deaths after which a row stops and its remaining inputs are marked unknown.
    pub max_deaths: u32,
    /// The run the matrix belongs to.
    pub fingerprint: Fingerprint,
    /// Mutants whose row disagrees with the first-kill run, in words.
    #[serde(default)]
    pub disagreements: Vec<String>,
    /// Wall-clock seconds the scope's rows took (this session's).
    #[serde(default)]
    pub seconds: f64,
    /// Mutant × input pairs settled without running them (reach selection).
    #[serde(default)]
    pub skipped: u64,
    /// Rows taken from the journal of an interrupted session.
    #[serde(default)]
    pub resumed: u64,
    /// Size and FNV-1a hash (16 hex digits) of the `.bin` file.
    pub bin_bytes: u64,
    pub bin_hash: String,
    /// Each row's counts, in mutant id order (the bitmaps are in the `.bin`).
    pub rows: Vec<RowSummary>,
}

artifact!(KillMatrixHeader, file: "kill-matrix/scope-<s>.json", schema: "kill-matrix-scope",
    version: SCHEMA_VERSION, layout: Layout::Pretty { trailing_newline: true }, key: "format",
    remedy: "re-run evaluate --kill-matrix");

/// One method's slice of the global index space.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MethodRange {
    pub name: String,
    /// The global index of the method's first input.
    pub offset: u64,
    /// Its number of inputs at the scope.
    pub inputs: u64,
}

/// A row's summary in the header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RowSummary {
    pub mutant: u32,
    /// Killing inputs.
    pub kills: u64,
    /// Inputs whose outcome is unknown (0: the row is complete).
    pub unknown: u64,
    /// Kills per reason (they add up to `kills`).
    pub reasons: BTreeMap<Reason, u64>,
    pub deaths: u32,
    /// Child processes replaced, not killed, while the row was computed: each had abandoned
    /// calls over their tick budget deep in a recursion until what they leaked reached its
    /// allowance (left out when 0).
    #[serde(default, skip_serializing_if = "crate::common::is_zero_u32")]
    pub recycles: u32,
    /// The lowest killing index and its reason (`null`: no kill).
    pub first: Option<FirstKill>,
}
