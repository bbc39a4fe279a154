//! How far an `inputs` request's search has got, in a small file the harness polls.
//!
//! Generating a large scope can take minutes, and the search's figures reach the harness only
//! when a method's search ends ([`crate::Message::Method`]): a terminal would show nothing
//! meanwhile. So while the worker searches, a thread of its own copies Korat's process-wide
//! counters into `scope-<s>/progress` under the inputs directory a few times a second
//! ([`record`]), and the harness reads them from there ([`read`]) to draw its progress line. A
//! file rather than a protocol message, as the cursor file ([`crate::cursor`]) is: the protocol
//! and every reader of it stay as they are, and a reader that polls a file needs nothing from
//! the channel's thread.
//!
//! The file holds three little-endian `u64`s: inputs found, candidates explored, and the two
//! XORed with a constant, so that a read that overlaps a write (pwrite is not atomic against
//! read) is told from a real one and skipped. Progress is decoration: a file that cannot be
//! written costs nothing but the progress line.

use std::path::{Path, PathBuf};

/// Mixed into the file's third word: a torn read almost never checks.
const CHECK: u64 = 0x6b6f_7261_7470_726f;

/// The progress file of `scope` under the inputs directory `dir`.
pub fn path(dir: &Path, scope: u32) -> PathBuf {
    dir.join(format!("scope-{scope}")).join("progress")
}

/// A search's counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Valid inputs found.
    pub valid: u64,
    /// Candidates explored.
    pub explored: u64,
}

/// The counts that the file at `path` holds, if it holds a whole record.
pub fn read(path: &Path) -> Option<Counts> {
    let bytes = std::fs::read(path).ok()?;
    let word = |i: usize| {
        bytes
            .get(i * 8..i * 8 + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    };
    let (valid, explored, check) = (word(0)?, word(1)?, word(2)?);
    (valid ^ explored ^ CHECK == check).then_some(Counts { valid, explored })
}

/// The file's bytes for `c`, written whole at offset 0.
pub fn record(c: Counts) -> [u8; 24] {
    let mut out = [0u8; 24];
    out[..8].copy_from_slice(&c.valid.to_le_bytes());
    out[8..16].copy_from_slice(&c.explored.to_le_bytes());
    out[16..].copy_from_slice(&(c.valid ^ c.explored ^ CHECK).to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_and_a_torn_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let p = path(dir.path(), 3);
        assert_eq!(read(&p), None, "no file yet");
        let c = Counts {
            valid: 12,
            explored: 3456,
        };
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, record(c)).unwrap();
        assert_eq!(read(&p), Some(c));
        // The first word of a newer record over an older one.
        let mut torn = record(c);
        torn[..8].copy_from_slice(&13u64.to_le_bytes());
        std::fs::write(&p, torn).unwrap();
        assert_eq!(read(&p), None);
        // A short file is no record.
        std::fs::write(&p, &record(c)[..16]).unwrap();
        assert_eq!(read(&p), None);
    }
}
