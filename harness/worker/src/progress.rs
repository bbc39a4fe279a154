//! How far an `inputs` request's search has got, in a small file the harness polls.
//!
//! Generating a large scope can take minutes, and the search's figures reach the harness only
//! when a method's search ends ([`crate::protocol::Message::Method`]): a terminal would show
//! nothing meanwhile. So while the worker searches, a thread of its own copies Korat's
//! process-wide counters ([`korat::progress`]) into `scope-<s>/progress` under the inputs
//! directory a few times a second, and the harness reads them from there ([`read`]) to draw its
//! progress line. A file rather than a protocol message, as the cursor file ([`crate::cursor`])
//! is: the protocol and every reader of it stay as they are, and a reader that polls a file
//! needs nothing from the channel's thread.
//!
//! The file holds three little-endian `u64`s: inputs found, candidates explored, and the two
//! XORed with a constant, so that a read that overlaps a write (pwrite is not atomic against
//! read) is told from a real one and skipped. Progress is decoration: a thread that cannot
//! start or a file that cannot be written costs nothing but the progress line.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Mixed into the file's third word: a torn read almost never checks.
const CHECK: u64 = 0x6b6f_7261_7470_726f;

/// How often the counters are copied to the file: the harness redraws about as often.
const EVERY: Duration = Duration::from_millis(100);

/// The progress file of `scope` under the inputs directory `dir`.
pub fn path(dir: &Path, scope: u32) -> PathBuf {
    dir.join(format!("scope-{scope}")).join("progress")
}

/// The inputs found and candidates explored that the file at `path` holds, if it holds a whole
/// record.
pub fn read(path: &Path) -> Option<korat::progress::Counts> {
    let bytes = std::fs::read(path).ok()?;
    let word = |i: usize| {
        bytes
            .get(i * 8..i * 8 + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    };
    let (valid, explored, check) = (word(0)?, word(1)?, word(2)?);
    (valid ^ explored ^ CHECK == check).then_some(korat::progress::Counts { valid, explored })
}

fn record(c: korat::progress::Counts) -> [u8; 24] {
    let mut out = [0u8; 24];
    out[..8].copy_from_slice(&c.valid.to_le_bytes());
    out[8..16].copy_from_slice(&c.explored.to_le_bytes());
    out[16..].copy_from_slice(&(c.valid ^ c.explored ^ CHECK).to_le_bytes());
    out
}

/// Copies Korat's counters to a progress file until dropped; the file is removed then.
pub struct Publisher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    path: PathBuf,
}

impl Publisher {
    /// Starts publishing to `path` (its directory created); `None` when the file or the
    /// thread cannot be had (under a tight `--memory-limit`, say), which only costs progress.
    pub fn start(path: PathBuf) -> Option<Publisher> {
        std::fs::create_dir_all(path.parent()?).ok()?;
        let file = File::create(&path).ok()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        // A small stack, and no allocation on the thread (parking, not a channel, whose
        // waiting allocates): the worker runs under the run's address-space limit, and a
        // thread's first allocation can reserve a whole malloc arena (64 MiB of address
        // space) that generation's own threads may need.
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .stack_size(64 << 10)
            .spawn(move || {
                while !stopped.load(Ordering::Acquire) {
                    let _ = file.write_all_at(&record(korat::progress::counts()), 0);
                    std::thread::park_timeout(EVERY);
                }
            })
            .ok()?;
        Some(Publisher {
            stop,
            thread: Some(thread),
            path,
        })
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_and_a_torn_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let p = path(dir.path(), 3);
        assert_eq!(read(&p), None, "no file yet");
        let c = korat::progress::Counts {
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
    }

    #[test]
    fn the_publisher_writes_while_it_runs_and_cleans_up() {
        let dir = tempfile::tempdir().unwrap();
        let p = path(dir.path(), 1);
        let publisher = Publisher::start(p.clone()).expect("starts");
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while read(&p).is_none() {
            assert!(std::time::Instant::now() < deadline, "nothing published");
            std::thread::sleep(Duration::from_millis(10));
        }
        drop(publisher);
        assert!(!p.exists());
    }
}
