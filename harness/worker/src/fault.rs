//! Fault injection, for Ferastrau's own tests of what the world does to a worker process.
//!
//! `FERASTRAU_FAULT=<kind>@<mutant>[:<marker file>]` makes a worker, as it starts mutant
//! `<mutant>` of a `mutants` request, do to itself what can happen to any process from outside:
//!
//! - `kill`: SIGKILL, as the kernel's OOM killer or a cgroup limit sends it;
//! - `stop`: SIGSTOP, as a suspended machine, a debugger or a job-control stop;
//! - `bus`: SIGBUS, as a write to a memory-mapped file on a file system that filled up.
//!
//! None of these is something the mutant did, so none may become a kill. With `:<marker>` only
//! the first process that creates the marker file does it (a fault that passes: the verdict
//! must equal an undisturbed run's); without, every process does (a fault that persists: the
//! run must stop, naming it). Unset — always, outside tests — nothing happens.

use std::sync::OnceLock;

/// What the environment asks for, read once per process.
struct Fault {
    signal: libc::c_int,
    mutant: u32,
    marker: Option<std::path::PathBuf>,
}

fn fault() -> Option<&'static Fault> {
    static FAULT: OnceLock<Option<Fault>> = OnceLock::new();
    FAULT
        .get_or_init(|| {
            let spec = std::env::var("FERASTRAU_FAULT").ok()?;
            let (kind, rest) = spec.split_once('@')?;
            let (mutant, marker) = match rest.split_once(':') {
                Some((m, path)) => (m, Some(path.into())),
                None => (rest, None),
            };
            let signal = match kind {
                "kill" => libc::SIGKILL,
                "stop" => libc::SIGSTOP,
                "bus" => libc::SIGBUS,
                _ => return None,
            };
            Some(Fault {
                signal,
                mutant: mutant.parse().ok()?,
                marker,
            })
        })
        .as_ref()
}

/// Called as `mutant` starts: delivers the configured fault to this process, if it is due.
pub fn at_mutant(mutant: u32) {
    let Some(f) = fault() else { return };
    if f.mutant != mutant {
        return;
    }
    if let Some(marker) = &f.marker {
        let first = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(marker)
            .is_ok();
        if !first {
            return;
        }
    }
    // SAFETY: restoring the default disposition (std catches SIGBUS for its stack-overflow
    // report and would return from a raised one) and raising the signal at this process.
    unsafe {
        libc::signal(f.signal, libc::SIG_DFL);
        libc::raise(f.signal);
    }
}
