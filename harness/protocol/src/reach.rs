//! Reach sets on disk: for each mutation point, the inputs of one (scope, method) on which the
//! original evaluated the point, as a roaring bitmap of input indices in the method's order.
//!
//! The original's checking run writes them beside the scope's inputs; a mutant process reads
//! its point's sets and runs only those inputs (the code under test is deterministic, so on the
//! others the mutant does what the original does and cannot be killed), and the harness starts
//! no process at all for a mutant that no input reaches.
//!
//! Format: the magic `FRR1`, the method's number of inputs (u64 LE), the number of points
//! (u32 LE), then a table with, per point in increasing order, its first and last mutant ids
//! (u32 LE each), how many inputs reach it (u64 LE) and its bitmap's size in bytes (u64 LE);
//! then the bitmaps in roaring's portable format, in the table's order. A mutant process reads
//! the table and its own point's bitmap only; the harness only the table. A file is written
//! only when every input index fits a bitmap (below 2³²); without one, mutants run on every
//! input of the method.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use foldhash::HashMap;
use roaring::RoaringBitmap;

const MAGIC: &[u8; 4] = b"FRR1";

/// The reach file of `method` at `scope` under `dir`.
pub fn reach_path(dir: &Path, scope: u32, method: usize) -> PathBuf {
    dir.join(format!("scope-{scope}"))
        .join(format!("reach-{method}.bin"))
}

/// Paths kept apart before they are merged into the points' sets (bounds the recorder's
/// memory whatever the code does; typical runs have far fewer).
const MAX_PATHS: usize = 1 << 16;

/// Collects, input by input, the points the original's calls mark (see
/// `ferastrau_probes::reach`).
///
/// Inputs that take the same path through the marked points share one bitmap: an input costs
/// one lookup of its list of points and one append, not one append per point (a call of a
/// heap operation reaches a hundred points or more). The paths' sets are merged into the
/// points' sets when there are too many of them, and when the file is written.
pub struct ReachRecorder {
    /// Per list of reached points (first mutant ids, in the order of their first marks):
    /// the inputs that reached exactly those.
    paths: HashMap<Vec<u32>, RoaringBitmap>,
    /// Indexed by a point's first mutant id: its last id and the inputs that reached it.
    points: Vec<Option<(u32, RoaringBitmap)>>,
    marked: Vec<(u32, u32)>,
    key: Vec<u32>,
    /// An input index too large for a bitmap was met: no file is written.
    overflow: bool,
}

impl Default for ReachRecorder {
    fn default() -> Self {
        Self::new()
    }
}

impl ReachRecorder {
    /// An empty recorder; also discards marks left by earlier calls in this process.
    pub fn new() -> ReachRecorder {
        let mut marked = Vec::new();
        ferastrau_probes::take_reached(&mut marked);
        ReachRecorder {
            paths: HashMap::default(),
            points: Vec::new(),
            marked,
            key: Vec::new(),
            overflow: false,
        }
    }

    /// Records the points marked since the last call as reached by input `index` (inputs are
    /// recorded in increasing order, each once).
    pub fn record(&mut self, index: u64) {
        ferastrau_probes::take_reached(&mut self.marked);
        let Ok(index) = u32::try_from(index) else {
            self.overflow = true;
            return;
        };
        if self.marked.is_empty() {
            return;
        }
        self.key.clear();
        for &(first, last) in &self.marked {
            self.key.push(first);
            let i = first as usize;
            if self.points.len() <= i {
                self.points.resize_with(i + 1, || None);
            }
            self.points[i].get_or_insert_with(|| (last, RoaringBitmap::new()));
        }
        match self.paths.get_mut(self.key.as_slice()) {
            // Appending in increasing order is the fast path; insert covers the rest.
            Some(bits) => {
                if bits.try_push(index).is_err() {
                    bits.insert(index);
                }
            }
            None => {
                self.paths
                    .insert(self.key.clone(), RoaringBitmap::from_iter([index]));
                if self.paths.len() >= MAX_PATHS {
                    self.merge();
                }
            }
        }
    }

    /// Adds each path's inputs to the sets of its points.
    fn merge(&mut self) {
        for (key, bits) in self.paths.drain() {
            for first in key {
                if let Some((_, set)) = &mut self.points[first as usize] {
                    *set |= &bits;
                }
            }
        }
    }

    /// Writes the sets of a method with `inputs` inputs to `path` (nothing if an index was too
    /// large for a bitmap).
    pub fn write(&mut self, path: &Path, inputs: u64) -> std::io::Result<()> {
        if self.overflow {
            return Ok(());
        }
        self.merge();
        let mut out = BufWriter::new(File::create(path)?);
        out.write_all(MAGIC)?;
        out.write_all(&inputs.to_le_bytes())?;
        let points: Vec<(u32, &(u32, RoaringBitmap))> = self
            .points
            .iter()
            .enumerate()
            .filter_map(|(first, p)| p.as_ref().map(|p| (first as u32, p)))
            .collect();
        out.write_all(&(points.len() as u32).to_le_bytes())?;
        for (first, (last, bits)) in &points {
            out.write_all(&first.to_le_bytes())?;
            out.write_all(&last.to_le_bytes())?;
            out.write_all(&bits.len().to_le_bytes())?;
            out.write_all(&(bits.serialized_size() as u64).to_le_bytes())?;
        }
        for (_, (_, bits)) in &points {
            bits.serialize_into(&mut out)?;
        }
        out.flush()
    }
}

/// One reached point in a reach file's table.
#[derive(Clone, Copy, Debug)]
struct Entry {
    first: u32,
    last: u32,
    count: u64,
    /// Where its bitmap starts in the file, and its size.
    offset: u64,
    len: u64,
}

/// The reach sets of one (scope, method), as the original's run wrote them: the table read,
/// the bitmaps left on disk until asked for.
#[derive(Debug)]
pub struct ReachSets {
    /// The method's number of inputs.
    pub inputs: u64,
    /// By increasing `first`.
    points: Vec<Entry>,
    file: BufReader<File>,
    path: PathBuf,
}

impl ReachSets {
    /// Reads the table of `method` at `scope` under `dir`; `None` if the original wrote none
    /// (the mutants then run on every input).
    pub fn read(dir: &Path, scope: u32, method: usize) -> std::io::Result<Option<ReachSets>> {
        let path = reach_path(dir, scope, method);
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let size = file.metadata()?.len();
        let mut input = BufReader::new(file);
        let bad = || std::io::Error::other(format!("{} is not a reach file", path.display()));
        let mut magic = [0u8; 4];
        input.read_exact(&mut magic)?;
        if &magic != MAGIC {
            return Err(bad());
        }
        let inputs = read_u64(&mut input)?;
        let n = read_u32(&mut input)?;
        let mut offset = 16 + 24 * u64::from(n);
        let mut points = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let first = read_u32(&mut input)?;
            let last = read_u32(&mut input)?;
            let count = read_u64(&mut input)?;
            let len = read_u64(&mut input)?;
            if first > last || count > inputs {
                return Err(bad());
            }
            points.push(Entry {
                first,
                last,
                count,
                offset,
                len,
            });
            offset = offset.checked_add(len).ok_or_else(bad)?;
        }
        if offset != size || !points.is_sorted_by_key(|p| p.first) {
            return Err(bad());
        }
        Ok(Some(ReachSets {
            inputs,
            points,
            file: input,
            path,
        }))
    }

    fn entry(&self, mutant: u32) -> Option<&Entry> {
        let i = self.points.partition_point(|p| p.first <= mutant);
        let e = self.points.get(i.checked_sub(1)?)?;
        (mutant <= e.last).then_some(e)
    }

    /// The mutation point `mutant` belongs to, as the first and last mutant ids of its
    /// entry, if some input reaches it: two mutants of one point have the same set.
    pub fn point(&self, mutant: u32) -> Option<(u32, u32)> {
        self.entry(mutant).map(|e| (e.first, e.last))
    }

    /// How many points some input reaches.
    pub fn points(&self) -> usize {
        self.points.len()
    }

    /// How many inputs reach `mutant`'s point.
    pub fn count(&self, mutant: u32) -> u64 {
        self.entry(mutant).map_or(0, |e| e.count)
    }

    /// The inputs that reach `mutant`'s point (empty if none does).
    pub fn of(&mut self, mutant: u32) -> std::io::Result<RoaringBitmap> {
        let Some(e) = self.entry(mutant).copied() else {
            return Ok(RoaringBitmap::new());
        };
        self.file.seek(SeekFrom::Start(e.offset))?;
        let mut bytes = (&mut self.file).take(e.len);
        let bits = RoaringBitmap::deserialize_from(&mut bytes)?;
        if bytes.limit() != 0 || bits.len() != e.count {
            return Err(std::io::Error::other(format!(
                "{}: the set of mutants {}..={} is damaged",
                self.path.display(),
                e.first,
                e.last
            )));
        }
        Ok(bits)
    }
}

fn read_u32(r: &mut impl Read) -> std::io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn read_u64(r: &mut impl Read) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_round_trip_and_find_a_mutant_s_point() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("scope-2")).unwrap();
        let mut rec = ReachRecorder::new();
        // Input 0 reaches point 3..=5; input 1 nothing; input 2 points 3..=5 and 9..=9.
        ferastrau_probes::reach(3, 5);
        rec.record(0);
        rec.record(1);
        ferastrau_probes::reach(9, 9);
        ferastrau_probes::reach(3, 5);
        rec.record(2);
        // Input 3 takes input 0's path again, input 4 input 2's.
        ferastrau_probes::reach(3, 5);
        rec.record(3);
        ferastrau_probes::reach(9, 9);
        ferastrau_probes::reach(3, 5);
        rec.record(4);
        rec.write(&reach_path(dir.path(), 2, 1), 5).unwrap();
        let mut sets = ReachSets::read(dir.path(), 2, 1).unwrap().unwrap();
        assert_eq!(sets.inputs, 5);
        for m in [9, 3, 4, 5] {
            let want = if m == 9 { vec![2, 4] } else { vec![0, 2, 3, 4] };
            assert_eq!(sets.of(m).unwrap().iter().collect::<Vec<_>>(), want);
            assert_eq!(sets.count(m), want.len() as u64);
        }
        for m in [1, 2, 6, 8, 10, 100] {
            assert!(
                sets.of(m).unwrap().is_empty(),
                "mutant {m} is reached by no input"
            );
            assert_eq!(sets.count(m), 0);
        }
        assert!(ReachSets::read(dir.path(), 1, 1).unwrap().is_none());
        std::fs::write(reach_path(dir.path(), 2, 0), b"FRR0").unwrap();
        assert!(ReachSets::read(dir.path(), 2, 0).is_err());
        // A truncated file is refused, not read as fewer inputs.
        let whole = std::fs::read(reach_path(dir.path(), 2, 1)).unwrap();
        std::fs::write(reach_path(dir.path(), 2, 0), &whole[..whole.len() - 1]).unwrap();
        assert!(ReachSets::read(dir.path(), 2, 0).is_err());
    }
}
