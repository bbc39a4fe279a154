//! The clock limit of each call, which the tick budget cannot enforce alone.

use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicU64, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};
use std::time::{Duration, Instant};

/// A clock limit per call, enforced by a watchdog thread: when a call runs past its limit the
/// watchdog calls `on_timeout` (which should end the process). This catches loops the tick
/// budget cannot see (code without probes, e.g. a plain single-mutant crate, or the original,
/// which runs without a budget).
///
/// The call's time is the wall-clock time since it was armed **less the time its thread
/// waited for a CPU** (the run-queue delay the kernel counts in
/// `/proc/self/task/<tid>/schedstat`). Time the call runs or sleeps counts; time a loaded
/// machine keeps it off the CPU does not. So a never-ending mutant that also allocates dies
/// of whichever limit its own work reaches first, the same on an idle machine and beside
/// eight busy loops, instead of the clock on a loaded one and the memory limit on an idle
/// one (issue 57). Where the kernel keeps no such count, it is the wall clock, as before.
pub struct Watchdog {
    started: Instant,
    /// Nanoseconds since `started` when the current call was armed, plus its limit; 0 = none.
    deadline: &'static AtomicU64,
    /// The limit armed last, for the timeout's report and to find when the call began.
    limit: &'static AtomicU64,
    /// Counts the calls armed, so that the watchdog knows a new one began.
    armed: &'static AtomicU64,
    /// The thread the calls run on (its id, for its schedstat); 0 until the first `arm`.
    thread: &'static AtomicI32,
}

/// The nanoseconds `tid` (of this process) has waited on a run queue, if the kernel says.
///
/// Without the heap: the watchdog thread calls it every few milliseconds, and a thread's first
/// allocation gives it a malloc arena of its own — 64 MiB of address space, inside
/// `--memory-limit` — created whenever that first look happens. A mutant that needed most of
/// the limit (the `faulty` fixture's 128 MiB of 256) then lived or died by whether the arena
/// came before its allocation: a flaky memory kill. The path is formatted on the stack (std
/// opens short paths without allocating) and the file read into a stack buffer.
fn run_queue_wait(tid: i32) -> Option<u64> {
    use std::io::{Read, Write};
    let mut path = [0u8; 64];
    let len = {
        let mut rest = &mut path[..];
        write!(rest, "/proc/self/task/{tid}/schedstat").ok()?;
        64 - rest.len()
    };
    let path = std::str::from_utf8(&path[..len]).ok()?;
    let mut buf = [0u8; 128];
    let n = std::fs::File::open(path).ok()?.read(&mut buf).ok()?;
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    text.split_whitespace().nth(1)?.parse().ok()
}

impl Watchdog {
    /// Starts the watchdog thread; `on_timeout` gets the limit that was exceeded.
    ///
    /// The thread gets a small stack (it only sleeps and reports), so that it costs little of
    /// the process's address-space limit; if it cannot start even so, the error says that the
    /// worker itself, not the code under test, is short of memory.
    pub fn start(on_timeout: fn(Duration)) -> std::io::Result<Watchdog> {
        let deadline: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let limit: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let armed: &'static AtomicU64 = Box::leak(Box::new(AtomicU64::new(0)));
        let thread: &'static AtomicI32 = Box::leak(Box::new(AtomicI32::new(0)));
        let started = Instant::now();
        // Set by the thread once it runs. The runtime maps a new thread's signal stack as it
        // starts, and a thread started late did so after a mutant that needs most of
        // `--memory-limit` had taken it: the process died "failed to allocate an alternative
        // stack" outside the judged call, a crash where the mutant dies of memory (faulty's
        // hog, under load). So `start` returns only once the thread is running.
        let running: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let handle = std::thread::Builder::new()
            .name("ferastrau-watchdog".into())
            .stack_size(256 << 10)
            .spawn(move || {
                running.store(true, Release);
                // The run-queue wait of the calls' thread at the last look, and at the look
                // before the current call was armed (at most one period before it began).
                let (mut waited, mut waited_at_arm, mut seen) = (0u64, 0u64, 0u64);
                loop {
                    std::thread::sleep(Duration::from_millis(5));
                    let tid = thread.load(Relaxed);
                    let now_waited = match tid {
                        0 => 0,
                        t => run_queue_wait(t).unwrap_or(0),
                    };
                    let call = armed.load(Relaxed);
                    if call != seen {
                        seen = call;
                        waited_at_arm = waited;
                    }
                    waited = now_waited;
                    let d = deadline.load(Relaxed);
                    let elapsed = started.elapsed().as_nanos() as u64;
                    if d == 0 || elapsed <= d {
                        continue;
                    }
                    // Past the wall-clock deadline: over the limit only if the call's own
                    // time, its waits for a CPU taken out, is too.
                    let l = limit.load(Relaxed);
                    let own = elapsed
                        .saturating_sub(d.saturating_sub(l))
                        .saturating_sub(now_waited.saturating_sub(waited_at_arm));
                    if own > l {
                        on_timeout(Duration::from_nanos(l));
                    }
                }
            })
            .map_err(|e| {
                std::io::Error::other(format!(
                    "the worker cannot start its watchdog thread ({e}): Ferastrau's own worker needs more memory than --memory-limit leaves it, before any code under test runs; raise --memory-limit"
                ))
            })?;
        while !running.load(Acquire) {
            if handle.is_finished() {
                return Err(std::io::Error::other(
                    "the worker's watchdog thread ended as it started: Ferastrau's own worker needs more memory than --memory-limit leaves it, before any code under test runs; raise --memory-limit",
                ));
            }
            std::thread::yield_now();
        }
        Ok(Watchdog {
            started,
            deadline,
            limit,
            armed,
            thread,
        })
    }

    /// Arms the limit for the next call, made on this thread.
    pub fn arm(&self, limit: Duration) {
        if self.thread.load(Relaxed) == 0 {
            // SAFETY: gettid has no preconditions.
            self.thread.store(unsafe { libc::gettid() }, Relaxed);
        }
        let now = self.started.elapsed().as_nanos() as u64;
        let nanos = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
        self.limit.store(nanos, Relaxed);
        self.armed.fetch_add(1, Relaxed);
        self.deadline
            .store(now.saturating_add(nanos).max(1), Relaxed);
    }

    /// Disarms it after the call.
    pub fn disarm(&self) {
        self.deadline.store(0, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicU32};

    static TIMEOUTS: AtomicU32 = AtomicU32::new(0);

    fn count(_: Duration) {
        TIMEOUTS.fetch_add(1, Relaxed);
    }

    /// About `cpu` of this thread's own CPU time, however long the machine makes it take.
    fn work(cpu: Duration) {
        let clock = || {
            let mut t = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: a valid pointer to a timespec.
            unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
            Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
        };
        let start = clock();
        let mut x = 0u64;
        while clock() - start < cpu {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
    }

    /// Counts the allocations of the thread that asks, so that a test can say a function
    /// made none (see [`run_queue_wait`]).
    struct Counting;

    std::thread_local! {
        static ALLOCATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    unsafe impl std::alloc::GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
            unsafe { std::alloc::System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
            unsafe { std::alloc::System.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static COUNTING: Counting = Counting;

    #[test]
    fn reading_the_run_queue_wait_allocates_nothing() {
        let tid = unsafe { libc::gettid() };
        let before = ALLOCATIONS.with(|n| n.get());
        let mut seen = None;
        for _ in 0..100 {
            seen = run_queue_wait(tid);
        }
        assert_eq!(
            ALLOCATIONS.with(|n| n.get()),
            before,
            "run_queue_wait allocated"
        );
        if std::path::Path::new("/proc/self/schedstat").exists() {
            assert!(seen.is_some(), "the kernel keeps schedstat: it is read");
        }
    }

    /// One test (the counter is process-wide): a call that needs 100 ms of CPU, run beside
    /// busy threads that keep it off the CPU most of the time, is not over a 400 ms limit
    /// (the wall clock alone had it over: about 100 ms × (threads + 1) / cores); a call that
    /// sleeps past its limit is over it, as a loop that sleeps is.
    #[test]
    fn waiting_for_a_cpu_does_not_count_and_sleeping_does() {
        if run_queue_wait(unsafe { libc::gettid() }).is_none() {
            eprintln!("no schedstat here: the watchdog is the wall clock");
            return;
        }
        let w = Watchdog::start(count).unwrap();
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let busy: Vec<_> = (0..6 * cores)
            .map(|_| {
                std::thread::spawn(move || {
                    while !stop.load(Relaxed) {
                        work(Duration::from_millis(1));
                    }
                })
            })
            .collect();
        let started = Instant::now();
        w.arm(Duration::from_millis(400));
        work(Duration::from_millis(100));
        w.disarm();
        let wall = started.elapsed();
        stop.store(true, Relaxed);
        for b in busy {
            b.join().unwrap();
        }
        assert_eq!(
            TIMEOUTS.load(Relaxed),
            0,
            "timed out after {wall:?} of wall time for 100 ms of work"
        );
        w.arm(Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(300));
        w.disarm();
        assert!(
            TIMEOUTS.load(Relaxed) > 0,
            "a sleep past the limit was not over it"
        );
    }
}
