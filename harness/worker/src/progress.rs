//! Publishes an `inputs` request's search progress to the file the harness polls
//! ([`crate::protocol::progress`] defines it).

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::protocol::progress::{record, Counts};

/// How often the counters are copied to the file: the harness redraws about as often.
const EVERY: Duration = Duration::from_millis(100);

/// Korat's process-wide counters, as the file holds them.
fn counts() -> Counts {
    let c = korat::progress::counts();
    Counts {
        valid: c.valid,
        explored: c.explored,
    }
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
                    let _ = file.write_all_at(&record(counts()), 0);
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
    use crate::protocol::progress::{path, read};

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
