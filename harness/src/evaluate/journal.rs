//! The journal: every result appended as it arrives, so that an interrupted run loses
//! nothing and `--resume` continues where it stopped.
//!
//! JSON lines: a header naming the run's configuration, then `scope` lines (a scope's
//! generation and original run) and `result` lines (one mutant at one scope). A line cut short
//! by a crash is ignored on reading.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::results::ScopeResult;
use super::ScopeRun;

/// What makes two runs the same run: results of one can stand for the other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub benchmark: String,
    pub mutants: Vec<u32>,
    pub limits: String,
    pub memory_limit: u64,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line {
    Header(Header),
    Scope(ScopeRun),
    Result(ScopeResult),
}

/// What a journal already holds.
#[derive(Default)]
pub struct Recorded {
    pub scopes: BTreeMap<u32, ScopeRun>,
    pub results: BTreeMap<(u32, u32), ScopeResult>,
}

/// An open journal.
pub struct Journal {
    file: Mutex<File>,
}

impl Journal {
    /// Starts a new journal at `path` (replacing any) for the run described by `header`.
    pub fn create(path: &Path, header: &Header) -> Result<Journal> {
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        let j = Journal {
            file: Mutex::new(file),
        };
        j.append(&Line::Header(header.clone()))?;
        Ok(j)
    }

    /// Reopens the journal at `path` for appending, returning what it holds; fails if it was
    /// written for a different run.
    pub fn resume(path: &Path, header: &Header) -> Result<(Journal, Recorded)> {
        let text = std::fs::read_to_string(path).with_context(|| {
            format!(
                "cannot resume: no journal at {} (run without --resume)",
                path.display()
            )
        })?;
        let mut lines = text.lines();
        match lines.next().and_then(|l| serde_json::from_str::<Line>(l).ok()) {
            Some(Line::Header(h)) if &h == header => {}
            Some(Line::Header(_)) => bail!(
                "cannot resume: {} was written for a different benchmark, mutant set or limits (run without --resume)",
                path.display()
            ),
            _ => bail!("cannot resume: {} is not a journal", path.display()),
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
                // A header in the middle or a torn last line: skip it.
                _ => {}
            }
        }
        // Rewrite the journal without any torn line, so appends start on a fresh line.
        let j = Journal::create(path, header)?;
        for s in rec.scopes.values() {
            j.scope(s)?;
        }
        for r in rec.results.values() {
            j.result(r)?;
        }
        Ok((j, rec))
    }

    pub fn scope(&self, s: &ScopeRun) -> Result<()> {
        self.append(&Line::Scope(s.clone()))
    }

    pub fn result(&self, r: &ScopeResult) -> Result<()> {
        self.append(&Line::Result(r.clone()))
    }

    fn append(&self, line: &Line) -> Result<()> {
        let mut text = serde_json::to_string(line)?;
        text.push('\n');
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(text.as_bytes())
            .context("cannot write the journal")?;
        f.flush()?;
        Ok(())
    }
}
