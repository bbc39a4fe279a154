//! Panics in the worker: expected ones are outcomes, the rest are reported.
//!
//! A panic inside a call being judged ([`expected`]) is an outcome of that call (a mutant's
//! panic is an output like any other): it prints nothing, and its message and location are
//! kept for the outcome. Any other panic — in the benchmark's decoder, in its invariant while
//! Korat searches, in the worker itself — is handed to the reporter the worker process sets
//! ([`report_unexpected_with`]: it sends the payload and location to the harness) before the
//! process unwinds and ends, so the user reads the message instead of an exit status; it is
//! printed on stderr either way.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe, PanicHookInfo};
use std::sync::{Once, OnceLock};

thread_local! {
    static EXPECTED: Cell<bool> = const { Cell::new(false) };
    static LAST: RefCell<Option<(String, Option<String>)>> = const { RefCell::new(None) };
}

/// Where an unexpected panic's message and location go besides stderr.
static REPORTER: OnceLock<fn(&str, Option<&str>)> = OnceLock::new();

/// Sets, once per process, what receives an unexpected panic's message and location (the
/// worker process: a message to the harness), and installs the hook.
pub fn report_unexpected_with(report: fn(&str, Option<&str>)) {
    let _ = REPORTER.set(report);
    install();
}

/// Installs the hook (once per process).
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(hook)));
}

fn hook(info: &PanicHookInfo<'_>) {
    let message = payload_text(info.payload());
    let location = info.location().map(|l| l.to_string());
    if EXPECTED.with(Cell::get) {
        LAST.with(|l| *l.borrow_mut() = Some((message, location)));
        return;
    }
    if let Some(report) = REPORTER.get() {
        report(&message, location.as_deref());
    }
    match location {
        Some(l) => eprintln!("panicked at {l}: {message}"),
        None => eprintln!("panicked: {message}"),
    }
}

/// The text of a panic payload.
pub fn payload_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".into()
    }
}

/// Runs `f`, catching a panic as an expected outcome: `Err((message, location))`, the payload
/// itself for callers that need to recognise it.
pub fn expected<R>(
    f: impl FnOnce() -> R,
) -> Result<R, (Box<dyn std::any::Any + Send>, Option<String>)> {
    install();
    let was = EXPECTED.with(|e| e.replace(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    EXPECTED.with(|e| e.set(was));
    r.map_err(|p| {
        let location = LAST
            .with(|l| l.borrow_mut().take())
            .and_then(|(_, loc)| loc);
        (p, location)
    })
}

/// Marks panics as unexpected again after a call inside [`expected`] was abandoned without
/// unwinding (the worker's budget hook suspends a deep recursion for good): `expected` never
/// got to restore the flag. Only for calls that were not nested in another `expected`.
pub fn forget_expected() {
    EXPECTED.with(|e| e.set(false));
    LAST.with(|l| l.borrow_mut().take());
}
