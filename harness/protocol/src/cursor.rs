//! Where a worker is, in a file the parent can read after the worker dies.
//!
//! A mutant can end its process at any instruction (stack overflow, abort, `exit`). The worker
//! keeps (scope, method, input index, mutant) in a small shared memory-mapped file, updated with
//! plain stores before each input, so the parent can name the input (and, for a process that
//! runs several mutants in turn, the mutant) that killed the process without the worker
//! writing anything per input.

use std::path::Path;
use std::sync::atomic::{AtomicPtr, Ordering};

static CURSOR: AtomicPtr<u32> = AtomicPtr::new(std::ptr::null_mut());

/// Slots of the cursor file, in order.
/// The scope being run.
pub const SCOPE: usize = 0;
/// The method, in the worker's numbering.
pub const METHOD: usize = 1;
/// The input's number among the method's stored inputs.
pub const INDEX: usize = 2;
/// The mutant being run (a process may run several in turn).
pub const MUTANT: usize = 3;
const WORDS: usize = 4;

/// A position read back from a cursor file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CursorPosition {
    /// The scope being run.
    pub scope: u32,
    /// The method, in the worker's numbering.
    pub method: u32,
    /// The input's number among the method's stored inputs.
    pub index: u32,
    /// The mutant being run (meaningful for `mutants` requests only).
    pub mutant: u32,
}

impl CursorPosition {
    /// The input this position names.
    pub fn position(&self) -> crate::Position {
        crate::Position {
            scope: self.scope,
            method: self.method as usize,
            index: u64::from(self.index),
        }
    }
}

/// Maps the cursor file at `path` (created or truncated to its size) for this process.
///
/// The file's bytes are written, not merely sized: a sized file is sparse, and on a full file
/// system the first store through the mapping would kill the process with SIGBUS, a death
/// that would look like the mutant's. Written, a full disk is an error here, before any
/// mutant runs.
pub fn open(path: &Path) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::fd::AsRawFd;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    f.write_all(&[0; WORDS * 4])?;
    // SAFETY: a fresh shared mapping of a file we just sized; the pointer stays valid for the
    // life of the process (never unmapped) and is only written by this process.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            WORDS * 4,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            f.as_raw_fd(),
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    CURSOR.store(p.cast(), Ordering::Release);
    Ok(())
}

/// Records a position (no-op without a mapped cursor).
#[inline]
pub fn set(word: usize, value: u32) {
    let p = CURSOR.load(Ordering::Relaxed);
    if !p.is_null() {
        // SAFETY: `p` maps WORDS u32s (see `open`), and `word < WORDS` for every caller.
        unsafe { p.add(word).write_volatile(value) }
    }
}

/// Reads a position back (0 without a mapped cursor).
pub fn get(word: usize) -> u32 {
    let p = CURSOR.load(Ordering::Relaxed);
    if p.is_null() {
        return 0;
    }
    // SAFETY: as in `set`.
    unsafe { p.add(word).read_volatile() }
}

/// Reads a cursor file left behind by a worker.
pub fn read_file(path: &Path) -> Option<CursorPosition> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.len() < WORDS * 4 {
        return None;
    }
    let mut w = [0u32; WORDS];
    for (i, v) in w.iter_mut().enumerate() {
        *v = u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().ok()?);
    }
    Some(CursorPosition {
        scope: w[SCOPE],
        method: w[METHOD],
        index: w[INDEX],
        mutant: w[MUTANT],
    })
}
