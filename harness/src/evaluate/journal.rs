//! The journal: every result appended as it arrives, so that an interrupted run loses
//! nothing and `--resume` continues where it stopped.
//!
//! JSON lines: a header holding the run's [`Fingerprint`], then `scope` lines (a scope's
//! generation and original run), `result` lines (one mutant at one scope) and, with
//! `--kill-matrix`, `row` lines (one mutant's kill-matrix row at one scope: a matrix at a
//! large scope runs for hours, and an interrupt must not lose the rows done). A line
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
use ferastrau_artifacts::journal::{self, JournalHeader, JournalLine, MatrixRowLine};
use ferastrau_artifacts::ReadError;
use roaring::RoaringBitmap;

use super::ScopeRun;
use crate::fingerprint::Fingerprint;
use crate::matrix::Row;
use ferastrau_artifacts::ScopeResult;
use ferastrau_console::exit_code::usage;

/// A kill-matrix row as a journal line: its bitmaps in roaring's portable serialization,
/// base64-encoded.
fn row_line(scope: u32, max_deaths: u32, row: &Row) -> Result<MatrixRowLine> {
    let encode = |b: &RoaringBitmap| -> Result<String> {
        let mut bytes = Vec::with_capacity(b.serialized_size());
        b.serialize_into(&mut bytes)?;
        Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
    };
    Ok(MatrixRowLine {
        scope,
        max_deaths,
        mutant: row.mutant,
        kills: encode(&row.kills)?,
        unknown: encode(&row.unknown)?,
        reasons: row.reasons.clone(),
        deaths: row.deaths,
        recycles: row.recycles,
        first: row.first,
    })
}

/// The row of a journal line, if the line decodes to a [consistent](Row::consistent) one;
/// `None` for a damaged line, which is then computed again.
fn row(line: &MatrixRowLine) -> Option<Row> {
    let decode = |s: &str| {
        let bytes = base64::engine::general_purpose::STANDARD.decode(s).ok()?;
        RoaringBitmap::deserialize_from(&bytes[..]).ok()
    };
    let row = Row {
        mutant: line.mutant,
        kills: decode(&line.kills)?,
        unknown: decode(&line.unknown)?,
        reasons: line.reasons.clone(),
        deaths: line.deaths,
        recycles: line.recycles,
        first: line.first,
    };
    row.consistent().then_some(row)
}

/// The journal in `bytes` (the file at `path`), parsed; refusals say why it cannot be resumed
/// (status 2).
fn parse(bytes: &[u8], path: &Path) -> Result<journal::Journal> {
    journal::parse(text(bytes, path)?, path).map_err(|e| match e.downcast_ref::<ReadError>() {
        // Written by a newer ferastrau: say so, naming both versions.
        Some(ReadError::Newer { .. }) => usage(format!("cannot resume: {e}")),
        _ => usage(format!(
            "cannot resume: {} is not a journal of this version (run without --resume)",
            path.display()
        )),
    })
}

/// A journal's bytes as text. The harness writes UTF-8 (JSON), a line per write: a line that is
/// not UTF-8 is damage no crash of a run makes, and what it held cannot be told, so it is
/// refused by its number. Only a last line cut inside a character (a write torn by a crash) is
/// dropped, as a torn last line is.
fn text<'b>(bytes: &'b [u8], path: &Path) -> Result<&'b str> {
    let e = match std::str::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(e) => e,
    };
    let valid = &bytes[..e.valid_up_to()];
    if e.error_len().is_none() {
        // Cut at the end, inside a character: the line it starts is torn.
        let kept = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        return Ok(std::str::from_utf8(&valid[..kept]).unwrap_or_default());
    }
    let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
    Err(usage(format!(
        "cannot resume: line {line} of {} is not UTF-8 text: the journal is damaged and the run cannot resume from it (run without --resume to start over)",
        path.display()
    )))
}

/// What a journal already holds.
#[derive(Default)]
pub struct Recorded {
    pub scopes: BTreeMap<u32, ScopeRun>,
    pub results: BTreeMap<(u32, u32), ScopeResult>,
    /// Kill-matrix rows by (scope, mutant), with the death cap each was computed under.
    pub rows: BTreeMap<(u32, u32), (u32, Row)>,
}

impl Recorded {
    /// What a journal's `lines` hold. Lines that did not parse (a torn last line) were skipped
    /// by the reader; headers in the middle are skipped here, and rows that do not decode to a
    /// consistent one are computed again.
    fn of(lines: Vec<JournalLine>) -> Recorded {
        let mut rec = Recorded::default();
        for l in lines {
            match l {
                JournalLine::Scope(s) => {
                    rec.scopes.insert(s.scope, s);
                }
                JournalLine::Result(r) => {
                    rec.results.insert((r.mutant, r.scope), r);
                }
                JournalLine::Row(line) => {
                    if let Some(row) = row(&line) {
                        rec.rows
                            .insert((line.scope, line.mutant), (line.max_deaths, row));
                    }
                }
                JournalLine::Header(_) => {}
            }
        }
        rec
    }
}

/// An open journal.
pub struct Journal {
    file: Mutex<File>,
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
        let mut text = journal::encode(&JournalLine::Header(JournalHeader::new(
            fingerprint.clone(),
        )))?;
        for s in recorded.scopes.values() {
            text.extend(journal::encode(&JournalLine::Scope(s.clone()))?);
        }
        for r in recorded.results.values() {
            text.extend(journal::encode(&JournalLine::Result(r.clone()))?);
        }
        for (&(scope, _), (max_deaths, row)) in &recorded.rows {
            text.extend(journal::encode(&JournalLine::Row(row_line(
                scope,
                *max_deaths,
                row,
            )?))?);
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
    /// Checks that the journal at `path` can be resumed under `fingerprint` (the refusals of
    /// [`Journal::resume`], status 2), touching nothing: a command refused this way must not
    /// have removed the reports of the run it would have continued.
    pub fn check_resumable(path: &Path, fingerprint: &Fingerprint) -> Result<()> {
        Self::read_resumable(path, fingerprint).map(|_| ())
    }

    /// The journal at `path`, parsed, if it can be resumed under `fingerprint`.
    fn read_resumable(path: &Path, fingerprint: &Fingerprint) -> Result<journal::Journal> {
        let bytes = std::fs::read(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => usage(format!(
                "cannot resume: no journal at {} (run without --resume)",
                path.display()
            )),
            _ => usage(format!(
                "cannot resume: cannot read {}: {e} (run without --resume to start over)",
                path.display()
            )),
        })?;
        let read = parse(&bytes, path)?;
        let differences = crate::fingerprint::differences(fingerprint, &read.header.fingerprint);
        if !differences.is_empty() {
            return Err(usage(format!(
                "cannot resume {}: changed since it was written: {} (run without --resume to start over)",
                path.display(),
                differences.join("; ")
            )));
        }
        Ok(read)
    }

    pub fn resume(path: &Path, fingerprint: &Fingerprint) -> Result<(Journal, Recorded)> {
        let rec = Recorded::of(Self::read_resumable(path, fingerprint)?.lines);
        let j = Self::write_new(path, fingerprint, &rec)?;
        Ok((j, rec))
    }

    pub fn scope(&self, s: &ScopeRun) -> Result<()> {
        self.append(&JournalLine::Scope(s.clone()))
    }

    pub fn result(&self, r: &ScopeResult) -> Result<()> {
        self.append(&JournalLine::Result(r.clone()))
    }

    /// Records `row` of the kill matrix at `scope`, computed under the death cap `max_deaths`.
    pub fn row(&self, scope: u32, max_deaths: u32, row: &Row) -> Result<()> {
        self.append(&JournalLine::Row(row_line(scope, max_deaths, row)?))
    }

    fn append(&self, line: &JournalLine) -> Result<()> {
        let text = journal::encode(line)?;
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // One write per line: a crash tears at most the last line, which reading skips.
        f.write_all(&text).context("cannot write the journal")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A journal a run wrote (`chain`, scopes 1..2, with kill-matrix rows).
    pub(crate) const WRITTEN: &str =
        include_str!("../../artifacts/tests/artifacts/fixtures/journal.jsonl");

    /// The fingerprint [`WRITTEN`] was written under.
    pub(crate) fn written_fingerprint() -> Fingerprint {
        let path = Path::new("journal.jsonl");
        journal::parse(WRITTEN, path).unwrap().header.fingerprint
    }

    /// A line of bytes that are not UTF-8 is named, with the run it stops: the journal is
    /// there (it was "no journal at ..."). A last line cut inside a character by a crash is
    /// dropped as any torn last line.
    #[test]
    fn a_journal_line_that_is_not_utf8_is_named_not_called_missing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let fingerprint = written_fingerprint();
        let mut lines: Vec<Vec<u8>> = WRITTEN.lines().map(|l| l.as_bytes().to_vec()).collect();
        lines[3].insert(20, 0xff);
        std::fs::write(&path, [lines.join(&b'\n'), vec![b'\n']].concat()).unwrap();
        let e = Journal::check_resumable(&path, &fingerprint).unwrap_err();
        let message = format!("{e:#}");
        assert!(
            message.contains(&format!("line 4 of {} is not UTF-8 text", path.display()))
                && message.contains("cannot resume from it")
                && !message.contains("no journal"),
            "{message}"
        );
        assert_eq!(
            ferastrau_console::exit_code::of(&e),
            ferastrau_console::exit_code::Exit::Usage
        );
        // Torn inside `é` (two bytes): the rest resumes.
        let torn = [
            WRITTEN.as_bytes(),
            "{\"kind\":\"result\",\"x\":\"é".as_bytes(),
        ]
        .concat();
        std::fs::write(&path, &torn[..torn.len() - 1]).unwrap();
        let (_, recorded) = Journal::resume(&path, &fingerprint).unwrap();
        assert_eq!(recorded.results.len(), 7);
        std::fs::remove_file(&path).unwrap();
        let e = format!(
            "{:#}",
            Journal::check_resumable(&path, &fingerprint).unwrap_err()
        );
        assert!(e.contains("no journal at"), "{e}");
    }

    /// Arbitrary bytes ([`crate::fuzz`]) as the journal `--resume` reads: a refusal or what
    /// the run would resume from (its rows decoded), never a panic.
    #[test]
    fn fuzz_a_journal_never_panics_its_reader() {
        let path = Path::new("journal.jsonl");
        let fingerprint = written_fingerprint();
        // The header and one line of each kind, their arrays cut to two elements: the
        // reader's time grows with its input.
        let kinds = ["header", "scope", "result", "row"];
        let short: String = kinds
            .iter()
            .filter_map(|k| {
                WRITTEN
                    .lines()
                    .find(|l| l.contains(&format!("\"kind\":\"{k}\"")))
            })
            .map(|l| {
                let mut line: serde_json::Value = serde_json::from_str(l).unwrap();
                for v in line.as_object_mut().unwrap().values_mut() {
                    if let Some(a) = v.as_array_mut() {
                        a.truncate(2);
                    }
                }
                format!("{line}\n")
            })
            .collect();
        assert_eq!(parse(short.as_bytes(), path).unwrap().lines.len(), 3);
        let tokens: Vec<&[u8]> = [
            crate::fuzz::JSON,
            &[
                b"{\"kind\":\"row\",".as_slice(),
                b"\"kills\":\"",
                b"\"schema_version\":7,",
                b"AAAA",
                b"OjAAAA",
            ],
        ]
        .concat();
        crate::fuzz::no_panic("journal", 4, &[short.as_bytes()], &tokens, |bytes| {
            if let Ok(read) = parse(bytes, path) {
                crate::fingerprint::differences(&fingerprint, &read.header.fingerprint);
                Recorded::of(read.lines);
            }
        });
    }
}
