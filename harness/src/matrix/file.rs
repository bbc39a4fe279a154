//! The kill matrix on disk: `DIR/kill-matrix/scope-<s>.bin` (the rows' bitmaps) beside
//! `scope-<s>.json` (the header: index space, methods' offsets, the run's fingerprint, each
//! row's counts, and the binary file's size and content hash).
//!
//! Binary format: the magic `FKM1`, the number of rows (u32 LE), then per row its mutant id
//! (u32 LE) and two bitmaps — kills, then unknown inputs — each as a length (u64 LE) and
//! roaring's portable serialization. A file whose size or hash differs from its header's, or
//! whose rows disagree with the header's counts, is refused (exit status 2): a damaged matrix
//! must not become a number.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_artifacts::{Artifact, KillMatrixHeader};
use roaring::RoaringBitmap;

use super::{Header, KillMatrix, Row};
use crate::fingerprint::ContentHash;
use ferastrau_console::exit_code::usage;

const MAGIC: &[u8; 4] = b"FKM1";
/// The header's `format`: bumped when the layout changes.
pub const FORMAT: u32 = KillMatrixHeader::SCHEMA_VERSION;

/// A row's summary in the JSON header (the bitmaps are in the binary file).
pub use ferastrau_artifacts::RowSummary;

/// The directory of a run's kill matrices.
pub fn dir(out: &Path) -> PathBuf {
    out.join("kill-matrix")
}

/// The (header, bitmaps) paths of `scope`'s matrix under a run's output directory.
pub fn paths(out: &Path, scope: u32) -> (PathBuf, PathBuf) {
    let d = dir(out);
    (
        d.join(format!("scope-{scope}.json")),
        d.join(format!("scope-{scope}.bin")),
    )
}

fn bitmap_bytes(b: &RoaringBitmap, out: &mut Vec<u8>) -> Result<()> {
    let mut copy = b.clone();
    copy.optimize();
    out.extend_from_slice(&(copy.serialized_size() as u64).to_le_bytes());
    copy.serialize_into(&mut *out)?;
    Ok(())
}

/// Writes `m` under the output directory `out`; returns the binary file's size.
pub fn write(out: &Path, m: &KillMatrix) -> Result<u64> {
    let (json, bin) = paths(out, m.header.scope);
    std::fs::create_dir_all(dir(out))?;
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(m.rows.len() as u32).to_le_bytes());
    for r in &m.rows {
        bytes.extend_from_slice(&r.mutant.to_le_bytes());
        bitmap_bytes(&r.kills, &mut bytes)?;
        bitmap_bytes(&r.unknown, &mut bytes)?;
    }
    let h = &m.header;
    let head = KillMatrixHeader {
        schema_version: FORMAT,
        benchmark: h.benchmark.clone(),
        scope: h.scope,
        inputs: h.inputs,
        methods: h.methods.clone(),
        max_deaths: h.max_deaths,
        fingerprint: h.fingerprint.clone(),
        disagreements: h.disagreements.clone(),
        seconds: h.seconds,
        skipped: h.skipped,
        resumed: h.resumed,
        bin_bytes: bytes.len() as u64,
        bin_hash: ContentHash::default().feed(&bytes).hex(),
        rows: m
            .rows
            .iter()
            .map(|r| RowSummary {
                mutant: r.mutant,
                kills: r.kills.len(),
                unknown: r.unknown.len(),
                reasons: r.reasons.clone(),
                deaths: r.deaths,
                recycles: r.recycles,
                first: r.first,
            })
            .collect(),
    };
    std::fs::File::create(&bin)
        .and_then(|mut f| f.write_all(&bytes))
        .with_context(|| format!("cannot write {}", bin.display()))?;
    head.write(&json)?;
    Ok(bytes.len() as u64)
}

/// The scopes whose matrices a run's output directory holds, in order.
pub fn scopes(out: &Path) -> Result<Vec<u32>> {
    let d = dir(out);
    let entries = std::fs::read_dir(&d).map_err(|e| {
        usage(format!(
            "{} has no kill matrix ({e}): run evaluate with --kill-matrix",
            out.display()
        ))
    })?;
    let mut scopes: Vec<u32> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_prefix("scope-")?
                .strip_suffix(".json")?
                .parse()
                .ok()
        })
        .collect();
    scopes.sort_unstable();
    Ok(scopes)
}

fn bad(path: &Path, why: impl std::fmt::Display) -> anyhow::Error {
    usage(format!(
        "{} is not a readable kill matrix: {why}",
        path.display()
    ))
}

fn read_bitmap(bytes: &mut &[u8], path: &Path) -> Result<RoaringBitmap> {
    let mut len = [0u8; 8];
    bytes
        .read_exact(&mut len)
        .map_err(|_| bad(path, "truncated"))?;
    let len = u64::from_le_bytes(len) as usize;
    if len > bytes.len() {
        return Err(bad(path, "truncated"));
    }
    let (body, rest) = bytes.split_at(len);
    *bytes = rest;
    RoaringBitmap::deserialize_from(body).map_err(|e| bad(path, format!("a bitmap: {e}")))
}

/// Reads `scope`'s matrix from a run's output directory, checking it whole.
pub fn read(out: &Path, scope: u32) -> Result<KillMatrix> {
    let (json, bin) = paths(out, scope);
    let text = std::fs::read_to_string(&json).map_err(|e| bad(&json, e))?;
    // Not a header of this format (damaged, or written by a newer ferastrau): refused, naming
    // the file and, for a newer one, both versions.
    let head = KillMatrixHeader::from_text(&text, &json).map_err(|e| usage(format!("{e:#}")))?;
    let bytes = std::fs::read(&bin).map_err(|e| bad(&bin, e))?;
    if bytes.len() as u64 != head.bin_bytes {
        return Err(bad(
            &bin,
            format!("{} bytes, its header says {}", bytes.len(), head.bin_bytes),
        ));
    }
    if ContentHash::default().feed(&bytes).hex() != head.bin_hash {
        return Err(bad(&bin, "its content hash differs from its header's"));
    }
    let mut rest: &[u8] = &bytes;
    let mut magic = [0u8; 4];
    rest.read_exact(&mut magic)
        .map_err(|_| bad(&bin, "truncated"))?;
    if &magic != MAGIC {
        return Err(bad(&bin, "no FKM1 magic"));
    }
    let mut n = [0u8; 4];
    rest.read_exact(&mut n)
        .map_err(|_| bad(&bin, "truncated"))?;
    let n = u32::from_le_bytes(n) as usize;
    if n != head.rows.len() {
        return Err(bad(
            &bin,
            format!("{n} rows, its header {}", head.rows.len()),
        ));
    }
    let mut rows = Vec::with_capacity(n);
    let inputs = head.inputs;
    for s in &head.rows {
        let mut id = [0u8; 4];
        rest.read_exact(&mut id)
            .map_err(|_| bad(&bin, "truncated"))?;
        let row = Row {
            mutant: s.mutant,
            kills: read_bitmap(&mut rest, &bin)?,
            unknown: read_bitmap(&mut rest, &bin)?,
            reasons: s.reasons.clone(),
            deaths: s.deaths,
            recycles: s.recycles,
            first: s.first,
        };
        let consistent = u32::from_le_bytes(id) == s.mutant
            && row.kills.len() == s.kills
            && row.unknown.len() == s.unknown
            && row.kills.max().is_none_or(|g| u64::from(g) < inputs)
            && row.unknown.max().is_none_or(|g| u64::from(g) < inputs)
            && row.consistent();
        if !consistent {
            return Err(bad(
                &bin,
                format!("mutant {}'s row disagrees with its header", s.mutant),
            ));
        }
        rows.push(row);
    }
    if !rest.is_empty() {
        return Err(bad(&bin, "bytes after the last row"));
    }
    let offsets_ok = head.methods.iter().map(|m| m.inputs).sum::<u64>() == inputs;
    if !offsets_ok || head.scope != scope {
        return Err(bad(
            &json,
            "its methods' inputs do not add up to its scope's",
        ));
    }
    Ok(KillMatrix {
        header: Header {
            benchmark: head.benchmark,
            scope: head.scope,
            inputs: head.inputs,
            methods: head.methods,
            max_deaths: head.max_deaths,
            fingerprint: head.fingerprint,
            disagreements: head.disagreements,
            seconds: head.seconds,
            skipped: head.skipped,
            resumed: head.resumed,
        },
        rows,
    })
}
