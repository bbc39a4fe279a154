//! Valid inputs on disk: one file per (scope, method) of compact state vectors, so that the
//! original and every mutant process read the same inputs without re-running Korat, and no
//! process ever holds the inputs as structures.
//!
//! Format: the magic `FRS1`, one byte of width (1 or 2 bytes per slot), three zero bytes, the
//! number of slots (u32 LE), then the vectors back to back.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 4] = b"FRS1";
/// Bytes before the first state vector.
pub const HEADER: u64 = 12;

/// The inputs file of `method` at `scope` under `dir`.
pub fn inputs_path(dir: &Path, scope: u32, method: usize) -> PathBuf {
    dir.join(format!("scope-{scope}"))
        .join(format!("inputs-{method}.bin"))
}

/// The original's per-input nanoseconds for `method` at `scope` under `dir`.
pub fn times_path(dir: &Path, scope: u32, method: usize) -> PathBuf {
    dir.join(format!("scope-{scope}"))
        .join(format!("times-{method}.bin"))
}

/// Appends state vectors to an inputs file, within a byte budget.
pub struct StateWriter {
    out: BufWriter<File>,
    wide: bool,
    written: u64,
    max_bytes: u64,
    /// One encoded vector, reused by every push.
    scratch: Vec<u8>,
}

impl StateWriter {
    /// Creates the file; [`StateWriter::push`] fails once more than `max_bytes` would be
    /// written (a scope too large for the scratch disk stops early instead of filling it).
    pub fn create(path: &Path, layout: Layout, max_bytes: u64) -> std::io::Result<Self> {
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        let Layout { slots, wide } = layout;
        let mut out = BufWriter::new(File::create(path)?);
        out.write_all(MAGIC)?;
        out.write_all(&[if wide { 2 } else { 1 }, 0, 0, 0])?;
        out.write_all(&(slots as u32).to_le_bytes())?;
        Ok(StateWriter {
            out,
            wide,
            written: HEADER,
            max_bytes,
            scratch: Vec::new(),
        })
    }

    /// Appends one state vector.
    pub fn push(&mut self, state: &[u32]) -> std::io::Result<()> {
        self.reserve(
            Layout {
                slots: state.len(),
                wide: self.wide,
            }
            .vector_bytes(),
        )?;
        self.scratch.clear();
        encode(state, self.wide, &mut self.scratch);
        self.out.write_all(&self.scratch)
    }

    /// Appends state vectors already encoded by [`encode`] with this file's width (a part of
    /// a search run on several threads), within the same budget as [`StateWriter::push`].
    pub fn push_encoded(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.reserve(bytes.len() as u64)?;
        self.out.write_all(bytes)
    }

    /// Counts `n` more bytes against the budget, or fails (and [`StateWriter::over_budget`]
    /// says so from then on).
    fn reserve(&mut self, n: u64) -> std::io::Result<()> {
        if self.written + n > self.max_bytes {
            self.written = self.max_bytes.saturating_add(1);
            return Err(std::io::Error::other("over the inputs' byte budget"));
        }
        self.written += n;
        Ok(())
    }

    /// Appends the rest of `from`, state vectors encoded by [`encode`] with this file's width.
    pub fn copy_encoded(&mut self, from: &mut impl Read) -> std::io::Result<()> {
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let n = from.read(&mut chunk)?;
            if n == 0 {
                return Ok(());
            }
            self.push_encoded(&chunk[..n])?;
        }
    }

    /// Whether a push failed for want of budget.
    pub fn over_budget(&self) -> bool {
        self.written > self.max_bytes
    }

    /// Flushes the file; returns its size in bytes.
    pub fn finish(mut self) -> std::io::Result<u64> {
        self.out.flush()?;
        Ok(self.written)
    }
}

/// The shape of a finitization's state vectors in an inputs file: how many slots, and whether
/// a slot takes two bytes. Given by the domains' sizes alone, so the file's readers need
/// nothing of Korat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Slots per state vector.
    pub slots: usize,
    /// Two bytes per slot (some domain has over 256 values), else one.
    pub wide: bool,
}

impl Layout {
    /// The layout of state vectors whose slots have these domain sizes, in slot order.
    pub fn of(domain_sizes: impl IntoIterator<Item = usize>) -> Layout {
        let (mut slots, mut wide) = (0, false);
        for size in domain_sizes {
            slots += 1;
            wide |= size > 256;
        }
        Layout { slots, wide }
    }

    /// Bytes one state vector takes in an inputs file.
    pub fn vector_bytes(self) -> u64 {
        self.slots as u64 * if self.wide { 2 } else { 1 }
    }
}

/// Appends one state vector to `out` as an inputs file stores it: one byte per slot, or two
/// (little endian) when `wide`.
pub fn encode(state: &[u32], wide: bool, out: &mut Vec<u8>) {
    for &v in state {
        if wide {
            out.extend_from_slice(&(v as u16).to_le_bytes());
        } else {
            out.push(v as u8);
        }
    }
}

/// Streams state vectors back from an inputs file.
pub struct StateReader {
    input: BufReader<File>,
    wide: bool,
    buf: Vec<u8>,
    state: Vec<u32>,
    count: u64,
}

impl StateReader {
    /// Opens a file of stored inputs and checks its header (magic, slot width, slots per input).
    pub fn open(path: &Path) -> std::io::Result<Self> {
        let mut input = BufReader::with_capacity(1 << 16, File::open(path)?);
        let mut head = [0u8; 12];
        input.read_exact(&mut head)?;
        if &head[..4] != MAGIC {
            return Err(std::io::Error::other(format!(
                "{} is not an inputs file",
                path.display()
            )));
        }
        let wide = head[4] == 2;
        let slots = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes")) as usize;
        let width = slots * if wide { 2 } else { 1 };
        let len = input.get_ref().metadata()?.len() - 12;
        Ok(StateReader {
            input,
            wide,
            buf: vec![0; width],
            state: vec![0; slots],
            count: len.checked_div(width as u64).unwrap_or(0),
        })
    }

    /// How many inputs the file holds.
    pub fn inputs(&self) -> u64 {
        self.count
    }

    /// Skips the next `n` state vectors (vectors have a fixed size: a seek, within the buffer
    /// when it is near).
    pub fn skip(&mut self, n: u64) -> std::io::Result<()> {
        if n > 0 {
            self.input
                .seek_relative((n * self.buf.len() as u64) as i64)?;
        }
        Ok(())
    }

    /// Positions the reader at input `index` (the next [`StateReader::next_state`] returns it).
    pub fn seek_to(&mut self, index: u64) -> std::io::Result<()> {
        let at = HEADER + index * self.buf.len() as u64;
        self.input.seek(SeekFrom::Start(at)).map(|_| ())
    }

    /// How many inputs the file holds (from its length).
    pub fn count(path: &Path) -> std::io::Result<u64> {
        let reader = StateReader::open(path)?;
        let len = std::fs::metadata(path)?.len();
        let per = reader.buf.len().max(1) as u64;
        if !(len - HEADER).is_multiple_of(per) {
            return Err(std::io::Error::other(format!(
                "{} ends in the middle of an input",
                path.display()
            )));
        }
        Ok((len - HEADER) / per)
    }

    /// The next state vector, or `None` at the end.
    pub fn next_state(&mut self) -> std::io::Result<Option<&[u32]>> {
        match self.input.read_exact(&mut self.buf) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        if self.wide {
            for (v, b) in self.state.iter_mut().zip(self.buf.chunks_exact(2)) {
                *v = u32::from(u16::from_le_bytes([b[0], b[1]]));
            }
        } else {
            for (v, &b) in self.state.iter_mut().zip(&self.buf) {
                *v = u32::from(b);
            }
        }
        Ok(Some(&self.state))
    }
}

/// Streams the original's per-input times to disk (u64 LE nanoseconds) as they are measured:
/// a scope of 85 M inputs would need 680 MB of them in memory, and twice that while a vector
/// grows — more than the worker's memory limit.
pub struct TimesWriter {
    out: BufWriter<File>,
    written: u64,
}

impl TimesWriter {
    /// Creates (or truncates) the file.
    pub fn create(path: &Path) -> std::io::Result<Self> {
        Ok(TimesWriter {
            out: BufWriter::new(File::create(path)?),
            written: 0,
        })
    }

    /// Appends the time of the next input.
    pub fn push(&mut self, nanos: u64) -> std::io::Result<()> {
        self.written += 1;
        self.out.write_all(&nanos.to_le_bytes())
    }

    /// Times written so far: the index of the next input.
    pub fn len(&self) -> u64 {
        self.written
    }

    /// Whether no time was written.
    pub fn is_empty(&self) -> bool {
        self.written == 0
    }

    /// Flushes the file; returns how many times it holds.
    pub fn finish(mut self) -> std::io::Result<u64> {
        self.out.flush()?;
        Ok(self.written)
    }
}

/// Streams the original's per-input times.
pub struct TimesReader(BufReader<File>);

impl TimesReader {
    /// Opens the times the original's run recorded for one method.
    pub fn open(path: &Path) -> std::io::Result<Self> {
        Ok(TimesReader(BufReader::new(File::open(path)?)))
    }

    /// Skips the times of the next `n` inputs.
    pub fn skip(&mut self, n: u64) -> std::io::Result<()> {
        if n > 0 {
            self.0.seek_relative((n * 8) as i64)?;
        }
        Ok(())
    }

    /// Positions the reader at input `index`.
    pub fn seek_to(&mut self, index: u64) -> std::io::Result<()> {
        self.0.seek(SeekFrom::Start(index * 8)).map(|_| ())
    }

    /// The original's time on the next input, in nanoseconds.
    pub fn next_time(&mut self) -> std::io::Result<u64> {
        let mut b = [0u8; 8];
        self.0.read_exact(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_in_either_width_and_a_damaged_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (domains, top) in [(vec![3, 256, 2], 255), (vec![3, 257, 2], 256)] {
            let layout = Layout::of(domains);
            assert_eq!(layout.wide, top > 255);
            let path = inputs_path(dir.path(), 2, usize::from(layout.wide));
            let mut w = StateWriter::create(&path, layout, u64::MAX).unwrap();
            let states = [[0, top, 1], [2, 0, 0], [1, 7, 1]];
            for s in &states {
                w.push(s).unwrap();
            }
            let bytes = w.finish().unwrap();
            assert_eq!(bytes, HEADER + 3 * layout.vector_bytes());
            assert_eq!(StateReader::count(&path).unwrap(), 3);
            let mut r = StateReader::open(&path).unwrap();
            r.seek_to(1).unwrap();
            assert_eq!(r.next_state().unwrap(), Some(&states[1][..]));
            assert_eq!(r.next_state().unwrap(), Some(&states[2][..]));
            assert_eq!(r.next_state().unwrap(), None);

            // A file cut in the middle of an input is refused, not read as fewer inputs.
            let whole = std::fs::read(&path).unwrap();
            std::fs::write(&path, &whole[..whole.len() - 1]).unwrap();
            assert!(StateReader::count(&path).is_err());
            // Another file's bytes are not inputs.
            std::fs::write(&path, b"FRR1\0\0\0\0\0\0\0\0").unwrap();
            assert!(StateReader::open(&path).is_err());
        }
    }

    #[test]
    fn the_budget_stops_a_writer_before_the_disk_fills() {
        let dir = tempfile::tempdir().unwrap();
        let path = inputs_path(dir.path(), 1, 0);
        let layout = Layout::of([2, 2]);
        let mut w = StateWriter::create(&path, layout, HEADER + 2 * 2).unwrap();
        w.push(&[0, 1]).unwrap();
        w.push(&[1, 0]).unwrap();
        assert!(!w.over_budget());
        assert!(w.push(&[1, 1]).is_err());
        assert!(w.over_budget());
    }
}
