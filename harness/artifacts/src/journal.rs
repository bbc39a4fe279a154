//! `journal.jsonl`: a run's results appended as they arrive, one JSON line each, so that an
//! interrupted run loses nothing and `--resume` continues it.
//!
//! Written and read by `harness/src/evaluate/journal.rs` (`Journal`): a `header` line holding
//! the run's fingerprint, then `scope`, `result` and (with `--kill-matrix`) `row` lines, each
//! `serde_json::to_vec` of an internally tagged enum (`"kind"` first, then the fields in
//! declaration order) and a newline. A line cut short by a crash is skipped on reading, and so
//! is any other line that is not exactly a line of this version: its work is done again, never
//! misread.
//!
//! The journal is not one JSON document, so it is not an [`crate::Artifact`]: its version is
//! the header line's `schema_version` ([`SCHEMA_VERSION`]; absent, 0, in journals of the tool
//! before versions, read as the current version if the header parses exactly).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::{Fingerprint, FirstKill, Reason, ScopeResult, ScopeRun};
use crate::ReadError;

/// The journal's file name in a run's directory.
pub const FILE_NAME: &str = "journal.jsonl";

/// The committed schema (of one line) is `schemas/<SCHEMA_NAME>.schema.json`.
pub const SCHEMA_NAME: &str = "journal-line";

/// The version of the journal's lines this build reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// One line of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JournalLine {
    /// The first line: the run the journal belongs to. (Closed by `unevaluatedProperties`:
    /// the header's flattened fingerprint cannot close itself, the `kind` being outside it.)
    #[schemars(extend("unevaluatedProperties" = false))]
    Header(JournalHeader),
    /// A scope's generation and original run.
    Scope(ScopeRun),
    /// One mutant at one scope.
    Result(ScopeResult),
    /// One mutant's kill-matrix row at one scope.
    Row(MatrixRowLine),
}

/// The header line: the version, then the run's fingerprint, flat.
///
/// `deny_unknown_fields` does not work through serde's `flatten`, so [`parse`] checks the
/// header's keys itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JournalHeader {
    /// See the module's documentation.
    #[serde(default)]
    pub schema_version: u32,
    #[serde(flatten)]
    pub fingerprint: Fingerprint,
}

impl JournalHeader {
    /// The header of a new journal for the run `fingerprint`.
    pub fn new(fingerprint: Fingerprint) -> JournalHeader {
        JournalHeader {
            schema_version: SCHEMA_VERSION,
            fingerprint,
        }
    }
}

/// A kill-matrix row as a journal line (`matrix::Row` with its scope and death cap): its
/// bitmaps in roaring's portable serialization, base64-encoded (standard alphabet, padded).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatrixRowLine {
    pub scope: u32,
    /// The death cap the row was computed under (`--kill-matrix-max-deaths`).
    pub max_deaths: u32,
    pub mutant: u32,
    /// Global indices of the killing inputs.
    pub kills: String,
    /// Global indices whose outcome is unknown.
    pub unknown: String,
    /// Kills per reason (they add up to the killing inputs).
    pub reasons: BTreeMap<Reason, u64>,
    /// Child processes the mutant killed while the row was computed.
    pub deaths: u32,
    /// Child processes replaced, not killed, while the row was computed (abandoned calls'
    /// leaks at their allowance).
    #[serde(default, skip_serializing_if = "crate::common::is_zero_u32")]
    pub recycles: u32,
    /// The lowest killing index and its reason (`null`: no kill).
    pub first: Option<FirstKill>,
}

/// One line's bytes: compact JSON and a newline.
pub fn encode(line: &JournalLine) -> Result<Vec<u8>> {
    if let JournalLine::Header(h) = line {
        anyhow::ensure!(
            h.schema_version == SCHEMA_VERSION,
            "refusing to write a journal header of schema_version {}: this build writes {SCHEMA_VERSION}",
            h.schema_version
        );
    }
    let mut bytes = serde_json::to_vec(line)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A journal read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Journal {
    /// Its header, upgraded to [`SCHEMA_VERSION`].
    pub header: JournalHeader,
    /// The lines after it that parsed, in order (a header among them is skipped).
    pub lines: Vec<JournalLine>,
    /// Lines after the header that did not parse (a torn last line; a damaged one).
    pub skipped: usize,
}

/// Reads the journal at `path`.
pub fn read(path: &Path) -> Result<Journal> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse(&text, path)
}

/// Parses a journal's text (`path` names it in errors). The header must be exactly a header of
/// this version or of version 0, or the journal is refused: its fingerprint decides whether
/// the rest may be resumed.
pub fn parse(text: &str, path: &Path) -> Result<Journal> {
    let invalid = |version: Option<u32>, why: String| ReadError::Invalid {
        path: path.to_path_buf(),
        file_name: FILE_NAME,
        version,
        why,
    };
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(first)
        .map_err(|e| invalid(None, format!("its first line is not JSON: {e}")))?;
    let version = crate::peek_version(first, "schema_version").map_err(|w| invalid(None, w))?;
    let version = version.unwrap_or(0);
    if version > SCHEMA_VERSION {
        return Err(ReadError::Newer {
            path: path.to_path_buf(),
            file_name: FILE_NAME,
            found: version,
            supported: SCHEMA_VERSION,
            remedy: "run without --resume",
        }
        .into());
    }
    let mut header = match serde_json::from_value::<JournalLine>(value.clone()) {
        Ok(JournalLine::Header(h)) => h,
        Ok(_) => return Err(invalid(Some(version), "its first line is no header".into()).into()),
        Err(e) => return Err(invalid(Some(version), e.to_string()).into()),
    };
    // `flatten` lets unknown keys through: every key must be one the header writes.
    let known = serde_json::to_value(JournalLine::Header(header.clone()))?;
    if let (Some(have), Some(known)) = (value.as_object(), known.as_object()) {
        if let Some(k) = have.keys().find(|k| !known.contains_key(*k)) {
            return Err(
                invalid(Some(version), format!("unknown field `{k}` in its header")).into(),
            );
        }
    }
    header.schema_version = SCHEMA_VERSION;
    let mut journal = Journal {
        header,
        lines: Vec::new(),
        skipped: 0,
    };
    for l in lines {
        match serde_json::from_str::<JournalLine>(l) {
            Ok(JournalLine::Header(_)) | Err(_) => journal.skipped += 1,
            Ok(line) => journal.lines.push(line),
        }
    }
    Ok(journal)
}
