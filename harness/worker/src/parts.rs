//! A method's inputs searched on several threads and stored in Korat's order.
//!
//! [`korat::search_parallel`] splits the candidate space into parts whose concatenation, in
//! order, is the sequential search. Each part here encodes its valid candidates as the inputs
//! file stores them, in a buffer that spills to a temporary file in the inputs directory once
//! it passes [`SPILL`] bytes (so memory stays bounded by parts × `SPILL`, whatever the scope);
//! when the search is done the parts are appended to the inputs file in order, each spill file
//! deleted as soon as it is copied (the disk holds the inputs about once). The file is the one
//! the sequential search writes, byte for byte (`tests` below), and so are the figures.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

use korat::{Candidate, Finitization, Stats};

use crate::store::{encode, Layout, StateWriter, HEADER};

/// How the inputs file of `fin` stores its state vectors.
pub fn layout(fin: &Finitization) -> Layout {
    Layout::of((0..fin.slots()).map(|s| fin.domain_size(s)))
}

/// Bytes a part buffers before it appends them to its spill file.
const SPILL: usize = 256 << 10;

/// Spill files made by this process so far (their names' serial numbers).
static SPILLS: AtomicUsize = AtomicUsize::new(0);

/// A part's spill file, deleted when the part is dropped. (Named by hand rather than with the
/// `tempfile` crate: the worker runs mutants under address-space limits of a few MiB, and
/// every crate it links takes some of them.)
struct SpillFile(PathBuf);

impl SpillFile {
    /// A new empty file in `dir`, `.part-<pid>-<serial>`: unique within the directory, which
    /// belongs to one run.
    fn create(dir: &Path) -> std::io::Result<SpillFile> {
        let name = format!(
            ".part-{}-{}",
            std::process::id(),
            SPILLS.fetch_add(1, Relaxed)
        );
        let path = dir.join(name);
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        Ok(SpillFile(path))
    }
}

impl Drop for SpillFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// One part's valid candidates, encoded.
#[derive(Default)]
struct Part {
    buf: Vec<u8>,
    /// Where the part's earlier bytes went, once it grew past [`SPILL`].
    spill: Option<SpillFile>,
    error: Option<std::io::Error>,
}

impl Part {
    fn spill(&mut self, dir: &Path) -> std::io::Result<()> {
        let file = match &self.spill {
            Some(f) => f,
            None => self.spill.insert(SpillFile::create(dir)?),
        };
        // Opened per spill, not kept: a search has up to 64 parts per thread, and a file
        // descriptor each could exceed the process's limit on a large machine.
        OpenOptions::new()
            .append(true)
            .open(&file.0)?
            .write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

/// How a parallel search's storing ended.
pub enum Stored {
    /// The inputs file is written: its size in bytes.
    Written(u64),
    /// The inputs would take more than the budget (a file may be left, incomplete).
    OverBudget,
}

/// Searches `fin` on `jobs` threads and stores the valid candidates in `path` as
/// [`StateWriter`] does, within `max_bytes` (the header included).
pub fn search_into<P>(
    fin: &Finitization,
    jobs: usize,
    pred: P,
    path: &Path,
    max_bytes: u64,
) -> std::io::Result<(Stats, Stored)>
where
    P: Fn(&mut Candidate<'_>) -> bool + Sync,
{
    search_spilling(fin, jobs, pred, path, max_bytes, SPILL)
}

/// [`search_into`] with parts spilling past `spill` bytes (small in tests, to spill often).
fn search_spilling<P>(
    fin: &Finitization,
    jobs: usize,
    pred: P,
    path: &Path,
    max_bytes: u64,
    spill: usize,
) -> std::io::Result<(Stats, Stored)>
where
    P: Fn(&mut Candidate<'_>) -> bool + Sync,
{
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let layout = layout(fin);
    let (wide, per_input) = (layout.wide, layout.vector_bytes());
    let used = AtomicU64::new(HEADER);
    let over = AtomicBool::new(false);
    let (stats, parts) = korat::search_parallel(
        fin,
        korat::SearchSwitches::default(),
        jobs,
        pred,
        Part::default,
        |part: &mut Part, c| {
            if used.fetch_add(per_input, Relaxed) + per_input > max_bytes {
                over.store(true, Relaxed);
                return ControlFlow::Break(());
            }
            encode(c.state(), wide, &mut part.buf);
            if part.buf.len() >= spill {
                if let Err(e) = part.spill(dir) {
                    part.error = Some(e);
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        },
    );
    if over.load(Relaxed) {
        return Ok((stats, Stored::OverBudget));
    }
    let mut parts = parts;
    if let Some(e) = parts.iter_mut().find_map(|p| p.error.take()) {
        return Err(e);
    }
    let mut w = StateWriter::create(path, layout, max_bytes)?;
    // Each part is dropped (its spill file deleted) once appended, so the disk holds the
    // inputs about once, not twice, while they move into the inputs file.
    for p in parts {
        if let Some(spilled) = &p.spill {
            w.copy_encoded(&mut BufReader::new(File::open(&spilled.0)?))?;
        }
        w.push_encoded(&p.buf)?;
    }
    Ok((stats, Stored::Written(w.finish()?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use korat::{Domain, FinitizationBuilder, ROOT};

    /// Sorted lists of up to `n` nodes with values in 0..n: enough inputs that every part
    /// spills at a small scale, with an invariant that reads links and values.
    fn lists(n: u32) -> (Finitization, impl Fn(&mut Candidate<'_>) -> bool + Sync) {
        let mut b = FinitizationBuilder::new("List");
        let node = b.class("Node", n);
        b.field(ROOT, "head", Domain::nullable(node));
        b.field(node, "next", Domain::nullable(node));
        b.field(node, "value", Domain::ints(0, n as i64 - 1));
        let fin = b.build();
        let (head, next, value) = (
            fin.field(ROOT, "head"),
            fin.field(node, "next"),
            fin.field(node, "value"),
        );
        let pred = move |c: &mut Candidate<'_>| {
            let mut seen = Vec::new();
            let mut at = c.obj(head, 0);
            let mut last = i64::MIN;
            while let Some(i) = at {
                if seen.contains(&i) {
                    return false;
                }
                seen.push(i);
                let v = c.int(value, i);
                if v < last {
                    return false;
                }
                last = v;
                at = c.obj(next, i);
            }
            true
        };
        (fin, pred)
    }

    fn sequential(
        fin: &Finitization,
        pred: impl Fn(&mut Candidate<'_>) -> bool,
        path: &Path,
    ) -> Stats {
        let mut w = StateWriter::create(path, layout(fin), u64::MAX).unwrap();
        let stats = korat::search(fin, pred, |c| {
            w.push(c.state()).unwrap();
            ControlFlow::Continue(())
        });
        w.finish().unwrap();
        stats
    }

    #[test]
    fn the_parts_make_the_sequential_file_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let (fin, pred) = lists(7);
        let one = dir.path().join("one.bin");
        let figures = sequential(&fin, &pred, &one);
        let expected = std::fs::read(&one).unwrap();
        let spill = 64;
        assert!(expected.len() > 100 * spill, "parts spill, some many times");
        for jobs in [1, 2, 3, 8] {
            let many = dir.path().join(format!("many-{jobs}.bin"));
            let (stats, stored) =
                search_spilling(&fin, jobs, &pred, &many, u64::MAX, spill).unwrap();
            assert_eq!(
                (stats.valid, stats.explored, stats.judged, stats.structures),
                (
                    figures.valid,
                    figures.explored,
                    figures.judged,
                    figures.structures
                ),
                "jobs {jobs}"
            );
            let Stored::Written(bytes) = stored else {
                panic!("over budget")
            };
            assert_eq!(bytes, expected.len() as u64);
            assert!(std::fs::read(&many).unwrap() == expected, "jobs {jobs}");
        }
        // The spill files are gone with their parts.
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().starts_with(".part-"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_budget_too_small_is_reported_and_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let (fin, pred) = lists(5);
        let path = dir.path().join("inputs.bin");
        sequential(&fin, &pred, &path);
        let size = std::fs::metadata(&path).unwrap().len();
        std::fs::remove_file(&path).unwrap();
        let (_, stored) = search_into(&fin, 2, &pred, &path, size - 1).unwrap();
        assert!(matches!(stored, Stored::OverBudget));
        assert!(!path.exists());
        // Exactly the size fits.
        let (_, stored) = search_into(&fin, 2, &pred, &path, size).unwrap();
        assert!(matches!(stored, Stored::Written(s) if s == size));
    }
}
