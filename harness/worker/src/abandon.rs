//! Stopping a call over its tick budget without unwinding it.
//!
//! A mutant that recurses without end reaches its tick budget some 10,000 frames deep, and
//! unwinding those frames to the `catch_unwind` that turns the budget's panic into a timeout
//! cost ~90% of such a mutant's time (libgcc's unwinder and the personality routine, frame by
//! frame); a kill matrix pays it on every input. So the worker runs each budgeted call on a
//! stack of its own (a stackful coroutine, `corosensei`): when the budget trips deep in that
//! stack, the call is suspended, never to be resumed, and the stack is taken back for the next
//! call — no frame is unwound. A trip near the bottom of the stack (a loop, a short recursion)
//! still unwinds, as it always did: that is cheap, and it runs every destructor.
//!
//! What an abandoned call leaves behind:
//! - Its frames' destructors never run, so what they owned leaks, and so does the input the
//!   call was given: [`CallStack::run`]'s caller must forget it, not drop it (code stopped in
//!   the middle, e.g. inside a sort's comparator, may have left it unsafe to drop). The heap in
//!   use is measured after each abandon; once it has grown by [`leak_allowance`] the worker
//!   asks to be replaced by a fresh process ([`CallStack::must_recycle`]), so that leaks never
//!   reach the memory limit, where they would be blamed on whichever mutant ran next.
//! - The outcome is the one unwinding gave: over budget, after the same ticks.
//!
//! The stack is as large as the main thread's may grow (`RLIMIT_STACK`), so that a recursion
//! overflows it where it overflowed the main thread's, and an overflow is reported as the main
//! thread's is: "has overflowed its stack", then abort ([`overflow`]). It is mapped at once, so
//! it counts against `--memory-limit` from the start (8 MiB of the default 1 GiB); under a
//! limit less than four times its size, calls run on the main thread's stack and unwind, as
//! they always did.

use std::cell::Cell;
use std::io;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering::Relaxed};

use corosensei::stack::{DefaultStack, Stack};
use corosensei::{Coroutine, CoroutineResult, Yielder};

use crate::protocol::Message;

/// How deep (in bytes of stack) a call must be when its budget trips for it to be abandoned
/// rather than unwound: a few hundred frames. Below it unwinding costs microseconds.
pub const ABANDON_DEPTH: usize = 64 << 10;

/// The stack size when `RLIMIT_STACK` is unlimited.
const UNLIMITED_STACK: usize = 64 << 20;

/// The yielder of the call running on the [`CallStack`], null when none is.
static YIELDER: AtomicPtr<Yielder<(), ()>> = AtomicPtr::new(std::ptr::null_mut());
/// The top (highest address) of the call stack, 0 before there is one.
static STACK_BASE: AtomicUsize = AtomicUsize::new(0);
/// The lowest address of the call stack: its guard page, one page, starts there.
static STACK_LIMIT: AtomicUsize = AtomicUsize::new(0);

/// A stack that budgeted calls run on, and what abandoning calls on it has cost.
pub struct CallStack {
    /// The stack, between calls.
    stack: Cell<Option<DefaultStack>>,
    /// Heap in use when the stack was made.
    heap_at_start: usize,
    /// Heap growth after which the process should be replaced.
    allowance: usize,
    /// Calls abandoned so far.
    abandoned: Cell<u64>,
    /// Whether the heap has grown past the allowance.
    recycle: Cell<bool>,
}

impl CallStack {
    /// Makes the stack (as large as `RLIMIT_STACK` allows the main thread's) and installs the
    /// budget hook and the overflow report. An error says the worker itself is short of
    /// memory (the stack is mapped before any code under test runs).
    pub fn new() -> io::Result<CallStack> {
        let size = main_stack_size();
        // Mapped at once, the stack would take a large share of a small --memory-limit, where
        // the main thread's takes only what it touches: memory kills would change. Under such
        // a limit calls run on the main thread's stack instead, unwound as they always were.
        let stack = if size > soft_limit(libc::RLIMIT_AS).unwrap_or(usize::MAX) / 4 {
            None
        } else {
            let stack = DefaultStack::new(size).map_err(|e| {
                io::Error::other(format!(
                    "the worker cannot map the {} MiB stack it runs mutants' calls on ({e}): Ferastrau's own worker needs more memory than --memory-limit leaves it, before any code under test runs; raise --memory-limit",
                    size >> 20
                ))
            })?;
            STACK_BASE.store(stack.base().get(), Relaxed);
            STACK_LIMIT.store(stack.limit().get(), Relaxed);
            overflow::install();
            ferastrau_probes::on_exceeded(Some(abandon_if_deep));
            Some(stack)
        };
        Ok(CallStack {
            stack: Cell::new(stack),
            heap_at_start: heap_in_use(),
            allowance: leak_allowance(),
            abandoned: Cell::new(0),
            recycle: Cell::new(false),
        })
    }

    /// Runs `call` on the stack: `Some` of what it returned, or `None` if its tick budget
    /// tripped deep in it and it was abandoned. After `None`, whatever `call` borrowed
    /// mutably must be forgotten (`std::mem::forget`), not dropped or read: the call stopped
    /// half-way.
    pub fn run<R>(&self, call: impl FnOnce() -> R) -> Option<R> {
        let Some(stack) = self.stack.take() else {
            return Some(call());
        };
        // SAFETY: `with_stack_unchecked` lets the body borrow from this frame; the coroutine
        // never outlives it: it either returns, or is suspended and reset below, before this
        // function returns.
        let mut co = unsafe {
            Coroutine::with_stack_unchecked(stack, |yielder: &Yielder<(), ()>, ()| {
                YIELDER.store(yielder as *const _ as *mut _, Relaxed);
                let r = call();
                YIELDER.store(std::ptr::null_mut(), Relaxed);
                r
            })
        };
        let result = match co.resume(()) {
            CoroutineResult::Return(r) => Some(r),
            CoroutineResult::Yield(()) => {
                YIELDER.store(std::ptr::null_mut(), Relaxed);
                // SAFETY: the call is abandoned: its frames are dropped without running their
                // destructors (what they own leaks, which the heap check below bounds), and
                // nothing of it runs again; its borrows end with this function's, and the
                // caller forgets what it lent mutably.
                unsafe { co.force_reset() };
                self.abandoned.set(self.abandoned.get() + 1);
                if self.grown() > self.allowance {
                    self.recycle.set(true);
                }
                None
            }
        };
        self.stack.set(Some(co.into_stack()));
        result
    }

    /// Bytes of heap grown since the stack was made.
    fn grown(&self) -> usize {
        heap_in_use().saturating_sub(self.heap_at_start)
    }

    /// Calls abandoned so far, and the heap grown since the stack was made.
    pub fn leaked(&self) -> (u64, u64) {
        (self.abandoned.get(), self.grown() as u64)
    }

    /// The message that ends a request early for [`CallStack::must_recycle`].
    pub fn recycle_message(&self) -> Message {
        let (abandoned, leaked_bytes) = self.leaked();
        Message::Recycle {
            abandoned,
            leaked_bytes,
        }
    }

    /// Whether the heap leaked by abandoned calls has grown past the allowance: the worker
    /// should end its request at the next clean point and let the harness start a fresh
    /// process for the rest.
    pub fn must_recycle(&self) -> bool {
        self.recycle.get()
    }
}

impl Drop for CallStack {
    fn drop(&mut self) {
        ferastrau_probes::on_exceeded(None);
    }
}

/// The budget hook: on the call stack and deeper than [`ABANDON_DEPTH`], suspends the call for
/// good; otherwise returns, and the budget's panic unwinds as before.
fn abandon_if_deep() {
    let yielder = YIELDER.load(Relaxed);
    if yielder.is_null() {
        return;
    }
    let here = std::ptr::addr_of!(yielder) as usize;
    let (base, limit) = (STACK_BASE.load(Relaxed), STACK_LIMIT.load(Relaxed));
    if here < limit || here > base || base - here < ABANDON_DEPTH {
        return;
    }
    // SAFETY: the yielder belongs to the coroutine this code runs on (`here` lies in its
    // stack), which `CallStack::run` resumed and is waiting on.
    unsafe { (*yielder).suspend(()) };
    unreachable!("an abandoned call is never resumed");
}

/// The size the main thread's stack may grow to.
fn main_stack_size() -> usize {
    soft_limit(libc::RLIMIT_STACK).unwrap_or(UNLIMITED_STACK)
}

/// The heap growth abandoned calls may leak before the worker asks to be replaced: 64 MiB,
/// or an eighth of the address-space limit if that is less.
pub fn leak_allowance() -> usize {
    (64 << 20).min(soft_limit(libc::RLIMIT_AS).map_or(usize::MAX, |a| a / 8))
}

/// The soft limit of `resource` (`RLIMIT_STACK`; `RLIMIT_AS`, which is `--memory-limit`), or
/// `None` when it is unlimited or cannot be read.
fn soft_limit(resource: libc::__rlimit_resource_t) -> Option<usize> {
    let mut rlim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let ok = unsafe { libc::getrlimit(resource, &mut rlim) } == 0;
    (ok && rlim.rlim_cur != libc::RLIM_INFINITY)
        .then(|| usize::try_from(rlim.rlim_cur).unwrap_or(usize::MAX))
}

/// Bytes of heap in use (allocated and not freed), from the allocator's own statistics.
fn heap_in_use() -> usize {
    // SAFETY: mallinfo2 only reads the allocator's statistics.
    let info = unsafe { libc::mallinfo2() };
    info.uordblks.saturating_add(info.hblkhd)
}

/// Reporting an overflow of the call stack as Rust reports the main thread's.
///
/// The standard library's handler for SIGSEGV recognises its own threads' guard pages only;
/// a fault in the call stack's guard page would be a plain segmentation fault, where the same
/// recursion on the main thread was a stack overflow. This handler, installed in front of it,
/// reports the call stack's overflow the same way and hands every other fault back.
mod overflow {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    use std::sync::Once;

    use super::{STACK_BASE, STACK_LIMIT};

    /// The handlers in place before ours, for SIGSEGV and SIGBUS.
    static PREVIOUS: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

    const SIGNALS: [libc::c_int; 2] = [libc::SIGSEGV, libc::SIGBUS];

    /// Installs the handler for SIGSEGV and SIGBUS (once per process), on the alternate signal
    /// stack the standard library set up for the main thread.
    pub fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            for (i, &sig) in SIGNALS.iter().enumerate() {
                // SAFETY: plain sigaction calls with zeroed, then filled, structs.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    let mut new: libc::sigaction = std::mem::zeroed();
                    new.sa_sigaction = handler as *const () as usize;
                    new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                    libc::sigemptyset(&mut new.sa_mask);
                    if libc::sigaction(sig, &new, &mut old) == 0 {
                        let boxed = Box::leak(Box::new(old));
                        PREVIOUS[i].store(boxed as *mut libc::sigaction as usize, Relaxed);
                    }
                }
            }
        });
    }

    extern "C" fn handler(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        let limit = STACK_LIMIT.load(Relaxed);
        // SAFETY: sysconf is async-signal-safe.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        if limit != 0 && STACK_BASE.load(Relaxed) != 0 && addr >= limit && addr < limit + page {
            const MESSAGE: &[u8] = b"\nthread 'main' has overflowed its stack (the stack a budgeted call runs on)\nfatal runtime error: stack overflow, aborting\n";
            // SAFETY: write and abort are async-signal-safe.
            unsafe {
                libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
                libc::abort();
            }
        }
        // Not the call stack's guard page: put the previous handler back and return; the
        // faulting instruction runs again and faults under it.
        let i = usize::from(sig == libc::SIGBUS);
        let previous = PREVIOUS[i].load(Relaxed) as *const libc::sigaction;
        // SAFETY: sigaction is async-signal-safe; `previous` is the leaked copy of the old
        // action, or null (then the default action).
        unsafe {
            if previous.is_null() {
                libc::signal(sig, libc::SIG_DFL);
            } else {
                libc::sigaction(sig, previous, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Frames whose destructor ran.
        static DROPPED: Cell<u64> = const { Cell::new(0) };
    }

    /// A frame with a destructor: it counts whether unwinding (or a return) reached it.
    struct Frame(#[allow(dead_code)] Vec<u64>);

    impl Drop for Frame {
        fn drop(&mut self) {
            DROPPED.with(|d| d.set(d.get() + 1));
        }
    }

    /// Recurses `depth` frames (or without end), ticking at each like mutated code.
    fn recurse(depth: Option<u64>) -> u64 {
        ferastrau_probes::tick();
        let frame = Frame(std::hint::black_box(vec![0; 4]));
        match depth {
            Some(0) => 0,
            Some(d) => 1 + recurse(Some(d - 1)) + frame.0[0],
            None => 1 + recurse(None) + frame.0[0],
        }
    }

    /// Loops without end at the bottom of the stack, ticking.
    fn spin() -> u64 {
        let _frame = Frame(vec![0; 4]);
        loop {
            ferastrau_probes::tick();
        }
    }

    /// Runs `f` under `budget` ticks the way `exec::execute` does: `Ok` of its value, or
    /// `Err` with whether the budget's panic was caught.
    fn budgeted(f: impl FnOnce() -> u64, budget: u64) -> Result<u64, bool> {
        ferastrau_probes::start_run(budget);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        ferastrau_probes::start_run(u64::MAX);
        r.map_err(|p| p.is::<ferastrau_probes::BudgetExceeded>())
    }

    fn dropped() -> u64 {
        DROPPED.with(|d| d.replace(0))
    }

    // One test for the process-wide state (the budget, the hook, the call stack).
    #[test]
    fn deep_trips_are_abandoned_shallow_ones_unwind_and_leaks_ask_for_a_new_process() {
        ferastrau_sdk::panics::install();
        let calls = CallStack::new().unwrap();
        dropped();

        // A call that finishes returns its value, every frame dropped.
        assert_eq!(
            calls.run(|| budgeted(|| recurse(Some(100)), 1_000)),
            Some(Ok(100))
        );
        assert_eq!(dropped(), 101);

        // 10,000 frames deep at its budget: abandoned, and not one frame unwound.
        assert_eq!(calls.run(|| budgeted(|| recurse(None), 10_000)), None);
        assert_eq!(dropped(), 0, "an abandoned call's frames are not unwound");
        assert_eq!(calls.leaked().0, 1);
        ferastrau_probes::start_run(u64::MAX);
        assert_eq!(ferastrau_probes::ticks(), 0, "the budget is disarmed");

        // A loop at the bottom of the stack trips its budget shallow: it unwinds as before,
        // destructors and all, and the panic is the budget's.
        assert_eq!(calls.run(|| budgeted(spin, 10_000)), Some(Err(true)));
        assert_eq!(dropped(), 1);
        // A short recursion over its budget unwinds too.
        assert_eq!(
            calls.run(|| budgeted(|| recurse(None), 50)),
            Some(Err(true))
        );
        assert_eq!(dropped(), 50, "the tick that trips comes before its frame");

        // The stack is taken back after an abandon: calls run on it as before.
        assert_eq!(
            calls.run(|| budgeted(|| recurse(Some(5_000)), 10_000)),
            Some(Ok(5_000))
        );
        assert_eq!(dropped(), 5_001);

        // Abandoned calls leak what their frames hold (here 10,000 small vectors each):
        // past the allowance the worker is asked to give way to a fresh process.
        assert!(!calls.must_recycle());
        let per_call = 10_000 * 4 * 8;
        let needed = leak_allowance() / per_call + 2;
        for _ in 0..needed {
            assert_eq!(calls.run(|| budgeted(|| recurse(None), 10_000)), None);
            if calls.must_recycle() {
                break;
            }
        }
        assert!(
            calls.must_recycle(),
            "{:?} after {needed} abandons",
            calls.leaked()
        );
        assert!(calls.leaked().1 > leak_allowance() as u64);
        assert!(matches!(
            calls.recycle_message(),
            Message::Recycle { abandoned, .. } if abandoned > 2
        ));
        drop(calls);
        // Without a call stack the hook is gone: a deep trip unwinds.
        assert_eq!(budgeted(|| recurse(None), 10_000), Err(true));
        assert_eq!(dropped(), 10_000);
    }

    /// With `FERASTRAU_OVERFLOW_CHILD` set, overflows the call stack (the parent test below
    /// runs it in a process of its own).
    #[test]
    #[ignore = "run by overflowing_the_call_stack_is_reported_as_a_stack_overflow"]
    fn overflow_child() {
        #[allow(unconditional_recursion)] // on purpose: it overflows the stack
        fn bottomless(x: u64) -> u64 {
            let pad = std::hint::black_box([x; 16]);
            std::hint::black_box(bottomless(std::hint::black_box(x + 1))) + pad[3]
        }
        if std::env::var_os("FERASTRAU_OVERFLOW_CHILD").is_some() {
            let calls = CallStack::new().unwrap();
            calls.run(|| bottomless(0));
        }
    }

    #[test]
    fn overflowing_the_call_stack_is_reported_as_a_stack_overflow() {
        use std::os::unix::process::ExitStatusExt;
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "abandon::tests::overflow_child",
                "--ignored",
                "--nocapture",
            ])
            .env("FERASTRAU_OVERFLOW_CHILD", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("has overflowed its stack"), "{stderr}");
        assert_eq!(out.status.signal(), Some(libc::SIGABRT), "{:?}", out.status);
    }
}
