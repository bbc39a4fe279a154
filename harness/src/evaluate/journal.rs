//! The journal: every result appended as it arrives, so that an interrupted run loses
//! nothing and `--resume` continues where it stopped.
//!
//! JSON lines: a header holding the run's [`Fingerprint`], then `scope` lines (a scope's
//! generation and original run), `result` lines (one mutant at one scope) and, with
//! `--kill-matrix`, `row` lines (one mutant's kill-matrix row at one scope: a matrix at a
//! paper's largest scope runs for hours, and an interrupt must not lose the rows done). A line
//! cut short by a crash is ignored on reading. Resuming rewrites the journal without such lines
//! atomically (a new file, synced, renamed over the old one): a signal or a crash at any
//! moment leaves either the old journal or the new one, never a truncated one.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use anyhow::{Context, Result};
use base64::Engine;
use roaring::RoaringBitmap;
use serde::{Deserialize, Serialize};

use super::results::ScopeResult;
use super::ScopeRun;
use crate::exit_code::usage;
use crate::fingerprint::Fingerprint;
use crate::matrix::{FirstKill, Row};

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    Header(Box<Fingerprint>),
    Scope(ScopeRun),
    Result(ScopeResult),
    Row(RowLine),
}

/// A kill-matrix row as a journal line: its bitmaps in roaring's portable serialization,
/// base64-encoded.
#[derive(Serialize, Deserialize)]
struct RowLine {
    scope: u32,
    /// The death cap the row was computed under (`--kill-matrix-max-deaths`): a row capped
    /// under another is not this run's row.
    max_deaths: u32,
    mutant: u32,
    kills: String,
    unknown: String,
    reasons: BTreeMap<ferastrau_worker::protocol::Reason, u64>,
    deaths: u32,
    first: Option<FirstKill>,
}

impl RowLine {
    fn new(scope: u32, max_deaths: u32, row: &Row) -> Result<RowLine> {
        let encode = |b: &RoaringBitmap| -> Result<String> {
            let mut bytes = Vec::with_capacity(b.serialized_size());
            b.serialize_into(&mut bytes)?;
            Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
        };
        Ok(RowLine {
            scope,
            max_deaths,
            mutant: row.mutant,
            kills: encode(&row.kills)?,
            unknown: encode(&row.unknown)?,
            reasons: row.reasons.clone(),
            deaths: row.deaths,
            first: row.first,
        })
    }

    /// The row, if the line decodes to a [consistent](Row::consistent) one; `None` for a
    /// damaged line, which is then computed again.
    fn row(&self) -> Option<Row> {
        let decode = |s: &str| {
            let bytes = base64::engine::general_purpose::STANDARD.decode(s).ok()?;
            RoaringBitmap::deserialize_from(&bytes[..]).ok()
        };
        let row = Row {
            mutant: self.mutant,
            kills: decode(&self.kills)?,
            unknown: decode(&self.unknown)?,
            reasons: self.reasons.clone(),
            deaths: self.deaths,
            first: self.first,
        };
        row.consistent().then_some(row)
    }
}

/// What a journal already holds.
#[derive(Default)]
pub struct Recorded {
    pub scopes: BTreeMap<u32, ScopeRun>,
    pub results: BTreeMap<(u32, u32), ScopeResult>,
    /// Kill-matrix rows by (scope, mutant), with the death cap each was computed under.
    pub rows: BTreeMap<(u32, u32), (u32, Row)>,
}

/// An open journal.
pub struct Journal {
    file: Mutex<File>,
}

fn encode(line: &Line) -> Result<Vec<u8>> {
    let mut text = serde_json::to_vec(line)?;
    text.push(b'\n');
    Ok(text)
}

impl Journal {
    /// Starts a new journal at `path` (atomically replacing any) for the run `fingerprint`.
    pub fn create(path: &Path, fingerprint: &Fingerprint) -> Result<Journal> {
        Self::write_new(path, fingerprint, &Recorded::default())
    }

    /// Writes `fingerprint` and `recorded` to a new file beside `path`, syncs it and renames
    /// it over `path`; returns the journal open for appending.
    fn write_new(path: &Path, fingerprint: &Fingerprint, recorded: &Recorded) -> Result<Journal> {
        let dir = path.parent().context("the journal has a directory")?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir)
            .with_context(|| format!("cannot create a file in {}", dir.display()))?;
        let mut text = encode(&Line::Header(Box::new(fingerprint.clone())))?;
        for s in recorded.scopes.values() {
            text.extend(encode(&Line::Scope(s.clone()))?);
        }
        for r in recorded.results.values() {
            text.extend(encode(&Line::Result(r.clone()))?);
        }
        for (&(scope, _), (max_deaths, row)) in &recorded.rows {
            text.extend(encode(&Line::Row(RowLine::new(scope, *max_deaths, row)?))?);
        }
        tmp.write_all(&text).context("cannot write the journal")?;
        tmp.as_file()
            .sync_all()
            .context("cannot sync the journal")?;
        let file = tmp
            .persist(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        // The rename itself is durable once the directory is synced.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(Journal {
            file: Mutex::new(file),
        })
    }

    /// Reopens the journal at `path` for appending, returning what it holds; refuses one
    /// written for a different run, naming what differs.
    pub fn resume(path: &Path, fingerprint: &Fingerprint) -> Result<(Journal, Recorded)> {
        let text = std::fs::read_to_string(path).map_err(|_| {
            usage(format!(
                "cannot resume: no journal at {} (run without --resume)",
                path.display()
            ))
        })?;
        let mut lines = text.lines();
        match lines
            .next()
            .and_then(|l| serde_json::from_str::<Line>(l).ok())
        {
            Some(Line::Header(h)) => {
                let differences = fingerprint.differences(&h);
                if !differences.is_empty() {
                    return Err(usage(format!(
                        "cannot resume {}: changed since it was written: {} (run without --resume to start over)",
                        path.display(),
                        differences.join("; ")
                    )));
                }
            }
            _ => {
                return Err(usage(format!(
                    "cannot resume: {} is not a journal of this version (run without --resume)",
                    path.display()
                )))
            }
        }
        let mut rec = Recorded::default();
        for l in lines {
            match serde_json::from_str::<Line>(l) {
                Ok(Line::Scope(s)) => {
                    rec.scopes.insert(s.scope, s);
                }
                Ok(Line::Result(r)) => {
                    rec.results.insert((r.mutant, r.scope), r);
                }
                Ok(Line::Row(line)) => {
                    if let Some(row) = line.row() {
                        rec.rows
                            .insert((line.scope, line.mutant), (line.max_deaths, row));
                    }
                }
                // A header in the middle or a torn last line: skip it.
                _ => {}
            }
        }
        let j = Self::write_new(path, fingerprint, &rec)?;
        Ok((j, rec))
    }

    pub fn scope(&self, s: &ScopeRun) -> Result<()> {
        self.append(&Line::Scope(s.clone()))
    }

    pub fn result(&self, r: &ScopeResult) -> Result<()> {
        self.append(&Line::Result(r.clone()))
    }

    /// Records `row` of the kill matrix at `scope`, computed under the death cap `max_deaths`.
    pub fn row(&self, scope: u32, max_deaths: u32, row: &Row) -> Result<()> {
        self.append(&Line::Row(RowLine::new(scope, max_deaths, row)?))
    }

    fn append(&self, line: &Line) -> Result<()> {
        let text = encode(line)?;
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // One write per line: a crash tears at most the last line, which reading skips.
        f.write_all(&text).context("cannot write the journal")?;
        Ok(())
    }
}
