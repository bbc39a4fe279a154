//! Worker processes: started isolated, watched, and never left behind.
//!
//! Every worker — generation, the original, each mutant — runs the same way:
//! - in its own process group, so that killing it kills everything it started;
//! - with `PR_SET_PDEATHSIG`, so that it dies with the harness even when the harness is
//!   killed with SIGKILL and cannot clean up;
//! - under an address-space limit (`RLIMIT_AS`), when one is given;
//! - with the protocol on a pipe of its own ([`ferastrau_protocol`]); its stdout goes
//!   to a file or nowhere, its stderr is kept (the last 16 KiB) for crash reports;
//! - under a guard deadline, and stopped at once when the user interrupts the run.

use std::io::{BufRead, BufReader, Read};
use std::os::fd::{AsRawFd, BorrowedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use ferastrau_protocol::{Message, Request, CHANNEL_ENV};
use nix::fcntl::{fcntl, FcntlArg, FdFlag};
use nix::sys::resource::{setrlimit, Resource};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::{getppid, Pid};

use crate::interrupt;

/// How a worker process is confined.
#[derive(Clone, Debug, Default)]
pub struct Isolation {
    /// Address-space limit in bytes (`None`: unlimited).
    pub memory_limit: Option<u64>,
    /// A file for the process's stdout (`None`: discarded).
    pub stdout: Option<std::path::PathBuf>,
    /// How long the whole process may run before it is killed.
    pub guard: Option<Duration>,
}

/// How a worker process ended.
#[derive(Debug)]
pub enum Ending {
    /// It exited or was killed by a signal on its own.
    Exited(ExitStatus),
    /// It ran past its guard deadline and was killed.
    Guard,
    /// The user interrupted the run; it was killed.
    Interrupted,
}

/// A finished worker process: how it ended and what it said.
#[derive(Debug)]
pub struct Finished {
    pub ending: Ending,
    /// Messages received on the protocol channel, in order.
    pub messages: Vec<Message>,
    /// Lines on the channel that were not messages (a worker bug, or code under test writing
    /// to a descriptor it does not own).
    pub garbled: Vec<String>,
    /// The end of its stderr.
    pub stderr: String,
}

impl Finished {
    /// Whether the request completed: the last message is [`Message::Done`] and the process
    /// exited with status 0. Anything else means it stopped early, whatever the status says.
    pub fn completed(&self) -> bool {
        matches!(self.messages.last(), Some(Message::Done))
            && matches!(&self.ending, Ending::Exited(s) if s.success())
            && self.garbled.is_empty()
    }

    /// The worker's own error message, if it reported one.
    pub fn error(&self) -> Option<&str> {
        self.messages.iter().find_map(|m| match m {
            Message::Error { message } => Some(message.as_str()),
            _ => None,
        })
    }

    /// The panic reported by the worker's hook, if any: message and location.
    pub fn panic(&self) -> Option<String> {
        self.messages.iter().find_map(|m| match m {
            Message::Panic { message, location } => Some(match location {
                Some(l) => format!("{message} (at {l})"),
                None => message.clone(),
            }),
            _ => None,
        })
    }

    /// What killed the process, in words, when it did not complete: the panic it reported,
    /// out of memory, a stack overflow, a signal, or an exit status.
    pub fn death(&self) -> Death {
        if let Some(p) = self.panic() {
            return Death::Panic(p);
        }
        let status = match &self.ending {
            Ending::Guard => return Death::Guard,
            Ending::Interrupted => return Death::Interrupted,
            Ending::Exited(s) => s,
        };
        if let Some(line) = self
            .stderr
            .lines()
            .rev()
            .find(|l| l.contains("memory allocation of") || runtime_out_of_memory(l))
        {
            return Death::Memory(line.trim().into());
        }
        if self.stderr.contains("has overflowed its stack") {
            return Death::StackOverflow;
        }
        match (status.code(), status.signal()) {
            (Some(c), _) => Death::Exit(c),
            (None, Some(sig)) => Death::Signal(sig),
            _ => Death::Exit(-1),
        }
    }
}

/// Whether a line of a dead worker's stderr is the C runtime's or Rust's own runtime failing
/// for want of memory outside any allocation of the code (glibc cannot register a thread-local
/// destructor, a thread cannot be spawned): under a tight `--memory-limit` a worker dies this
/// way in its own machinery, whatever code it runs.
pub fn runtime_out_of_memory(line: &str) -> bool {
    (line.contains("Fatal glibc error") && line.contains("out of memory"))
        || line.contains("failed to spawn thread")
}

/// Why a worker process died before completing its request.
#[derive(Clone, Debug, PartialEq)]
pub enum Death {
    /// A panic outside any judged call (the message, with its location).
    Panic(String),
    /// The allocator failed (the address-space limit): the allocator's message.
    Memory(String),
    StackOverflow,
    /// Killed by a signal (abort is 6, SIGKILL 9, SIGSEGV 11).
    Signal(i32),
    /// Exited with this status without finishing.
    Exit(i32),
    /// Ran past the guard deadline.
    Guard,
    Interrupted,
}

impl Death {
    /// Whether this is a memory death in the runtime's own machinery (see
    /// [`runtime_out_of_memory`]) rather than an allocation that failed.
    pub fn in_runtime(&self) -> bool {
        matches!(self, Death::Memory(m) if runtime_out_of_memory(m))
    }

    /// Whether the death came from outside the process, not from the code it ran: a signal
    /// that safe code under test does not send itself and that is not one of Ferastrau's own
    /// limits (those end as [`Death::Guard`] or [`Death::Memory`]). SIGKILL is the kernel's
    /// OOM killer, a cgroup or a user's `kill -9`; SIGBUS a store to a mapped file whose file
    /// system filled up; SIGTERM, SIGHUP, SIGINT and SIGQUIT someone stopping processes;
    /// SIGXFSZ, SIGXCPU and SIGPIPE limits and pipes the environment set. Such a death says
    /// nothing about the mutant and must never count as a kill.
    pub fn is_from_outside(&self) -> bool {
        use nix::sys::signal::Signal::*;
        let Death::Signal(s) = self else {
            return false;
        };
        [
            SIGKILL, SIGBUS, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGXFSZ, SIGXCPU, SIGPIPE,
        ]
        .iter()
        .any(|&sig| sig as i32 == *s)
    }
}

impl std::fmt::Display for Death {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Death::Panic(p) => write!(f, "panicked: {p}"),
            Death::Memory(m) => write!(f, "ran out of memory ({m})"),
            Death::StackOverflow => f.write_str("overflowed its stack"),
            Death::Signal(6) => f.write_str("aborted (signal 6)"),
            Death::Signal(s) => write!(f, "was killed by signal {s}"),
            Death::Exit(c) => write!(f, "exited with status {c} before finishing"),
            Death::Guard => f.write_str("ran past its overall time limit"),
            Death::Interrupted => f.write_str("was interrupted"),
        }
    }
}

/// Runs `exe` on `request` under `isolation` and waits for it.
pub fn run(exe: &Path, request: &Request, isolation: &Isolation) -> Result<Finished> {
    run_watched(exe, request, isolation, &|_| {})
}

/// [`run`], handing each message to `watch` as it arrives, on the thread that reads the
/// channel, while the process still runs: a batch of mutants can run for minutes, and a
/// progress line that waited for its end would stand still meanwhile. The messages are in
/// [`Finished::messages`] all the same.
pub fn run_watched(
    exe: &Path,
    request: &Request,
    isolation: &Isolation,
    watch: &(dyn Fn(&Message) + Sync),
) -> Result<Finished> {
    let encoded = serde_json::to_string(request).context("cannot encode a request")?;
    ferastrau_console::detail!("worker: {} '{encoded}'", exe.display());
    run_inner(exe, &[encoded.as_str()], isolation, watch)
}

/// Runs `exe` with `args` under `isolation` and waits for it: [`run`] for a program that
/// takes its own arguments (a test suite's runner), watched and confined the same way.
pub fn run_args(exe: &Path, args: &[&str], isolation: &Isolation) -> Result<Finished> {
    run_inner(exe, args, isolation, &|_| {})
}

/// Whether a worker keeps the harness's variable `name`: only `FERASTRAU_*` ones, the tool's
/// own (the test-only fault hook `FERASTRAU_FAULT`) and those a crate's code reads on purpose
/// (the test fixtures' switches): a few, which the user sets knowingly.
fn worker_keeps(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().starts_with(b"FERASTRAU_")
}

fn run_inner(
    exe: &Path,
    args: &[&str],
    isolation: &Isolation,
    watch: &(dyn Fn(&Message) + Sync),
) -> Result<Finished> {
    let (reader, writer) = std::io::pipe().context("cannot create a pipe")?;
    let channel_fd = writer.as_raw_fd();
    let mut cmd = Command::new(exe);
    // The worker gets an environment of its own, not the shell's: the variables are copied
    // onto its stack, inside `--memory-limit`, so a mutant near the limit lived or died by
    // how much the user's shell held (at 7 MiB, 12 KB of variables turned a survivor into a
    // memory kill), and the code under test must not read what the machine happens to set.
    cmd.env_clear();
    cmd.envs(std::env::vars_os().filter(|(k, _)| worker_keeps(k)));
    cmd.args(args)
        .env(CHANNEL_ENV, channel_fd.to_string())
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    match &isolation.stdout {
        Some(p) => {
            let f = std::fs::File::create(p)
                .with_context(|| format!("cannot create {}", p.display()))?;
            cmd.stdout(f);
        }
        None => {
            cmd.stdout(Stdio::null());
        }
    }
    let memory = isolation.memory_limit;
    let parent = Pid::this();
    // SAFETY: between fork and exec only async-signal-safe system calls (fcntl, prctl,
    // getppid, setrlimit) run; nothing allocates or takes a lock.
    unsafe {
        cmd.pre_exec(move || {
            // The channel's write end survives exec (std opens every descriptor close-on-exec).
            fcntl(
                BorrowedFd::borrow_raw(channel_fd),
                FcntlArg::F_SETFD(FdFlag::empty()),
            )?;
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
            // The harness may have died before the line above took effect.
            if getppid() != parent {
                return Err(std::io::Error::other("the harness is gone"));
            }
            if let Some(limit) = memory {
                setrlimit(Resource::RLIMIT_AS, limit, limit)?;
            }
            Ok(())
        });
    }
    let mut child = spawn(&mut cmd).with_context(|| format!("cannot start {}", exe.display()))?;
    // Only the child may hold the write end now, so the reader sees the end of the stream
    // when the child ends.
    drop(cmd);
    drop(writer);
    // Scoped: the reader borrows `watch`. The scope ends only once the reader has seen the end
    // of the stream, which the kill below guarantees whatever `wait` returned.
    std::thread::scope(|s| {
        let channel = s.spawn(move || read_channel(reader, watch));
        let stderr = collect_stderr(&mut child);
        let deadline = isolation.guard.and_then(|g| Instant::now().checked_add(g));
        let ending = wait(&mut child, deadline);
        // Anything the worker started dies with it.
        let _ = killpg(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
        let (messages, garbled) = channel.join().unwrap_or_default();
        let stderr = stderr.join().unwrap_or_default();
        Ok(Finished {
            ending: ending?,
            messages,
            garbled,
            stderr,
        })
    })
}

/// Starts `cmd`, again while the kernel answers "text file busy" (`ETXTBSY`). A worker binary
/// is written under a temporary name and renamed into place, and while it is being written
/// another thread of this process may fork: the child holds the writable descriptor until it
/// execs, and executing the binary in that window fails although nothing is wrong with it (it
/// happened in the tests, which run many workers at once). The window is a fork's length, so a
/// few short waits always outlast it; any other error is returned at once.
pub fn spawn(cmd: &mut Command) -> std::io::Result<Child> {
    let mut attempt = 0;
    loop {
        match cmd.spawn() {
            Err(e)
                if e.raw_os_error() == Some(nix::errno::Errno::ETXTBSY as i32) && attempt < 50 =>
            {
                attempt += 1;
                std::thread::sleep(Duration::from_millis(2 * attempt));
            }
            result => return result,
        }
    }
}

fn wait(child: &mut Child, deadline: Option<Instant>) -> Result<Ending> {
    use wait_timeout::ChildExt;
    loop {
        if let Some(status) = child.wait_timeout(Duration::from_millis(20))? {
            return Ok(Ending::Exited(status));
        }
        let stop = if interrupt::requested() {
            Some(Ending::Interrupted)
        } else if deadline.is_some_and(|d| Instant::now() > d) {
            Some(Ending::Guard)
        } else {
            None
        };
        if let Some(e) = stop {
            let _ = killpg(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
            let _ = child.wait();
            return Ok(e);
        }
    }
}

fn read_channel(
    reader: std::io::PipeReader,
    watch: &(dyn Fn(&Message) + Sync),
) -> (Vec<Message>, Vec<String>) {
    let mut messages = Vec::new();
    let mut garbled = Vec::new();
    for line in BufReader::new(reader).split(b'\n') {
        let Ok(line) = line else { break };
        match serde_json::from_slice::<Message>(&line) {
            Ok(m) => {
                watch(&m);
                messages.push(m)
            }
            Err(_) => garbled.push(String::from_utf8_lossy(&line).chars().take(200).collect()),
        }
    }
    (messages, garbled)
}

/// Reads the child's stderr on a thread (a process printing in a loop must not block on a
/// full pipe), keeping its last 16 KiB.
fn collect_stderr(child: &mut Child) -> std::thread::JoinHandle<String> {
    let mut pipe = child.stderr.take().expect("stderr is piped");
    std::thread::spawn(move || {
        let mut keep: Vec<u8> = Vec::new();
        let mut buf = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            keep.extend_from_slice(&buf[..n]);
            if keep.len() > 32 * 1024 {
                keep.drain(..keep.len() - 16 * 1024);
            }
        }
        String::from_utf8_lossy(&keep).into_owned()
    })
}

/// Address space one more search thread may take in the worker: its allocator arena (glibc
/// reserves 64 MiB of address space per thread arena), its stack and its parts' buffers.
const PER_THREAD: u64 = 256 << 20;

/// Threads for the input search: the run's `jobs`, as many as the address-space limit leaves
/// room for at [`PER_THREAD`] each (one at least), so that `--memory-limit 256M` searches on
/// one thread as before and the default 1 GiB on up to four.
pub fn generation_threads(jobs: usize, memory_limit: Option<u64>) -> usize {
    let room = memory_limit.map_or(usize::MAX, |l| (l / PER_THREAD) as usize);
    jobs.min(room).max(1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_search_threads_fit_the_address_space_limit() {
        const M: u64 = 1 << 20;
        assert_eq!(generation_threads(2, Some(1024 * M)), 2);
        assert_eq!(generation_threads(16, Some(1024 * M)), 4);
        // The limits the tests and users pick to provoke memory kills: one thread, as before.
        assert_eq!(generation_threads(2, Some(256 * M)), 1);
        assert_eq!(generation_threads(8, Some(4 * M)), 1);
        assert_eq!(generation_threads(0, None), 1);
        assert_eq!(generation_threads(6, None), 6);
    }

    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::ExitStatusExt;

    /// glibc's and Rust's runtime failing for want of memory is a memory death (it once was
    /// "it aborts the process", blamed on the code under test's input), told apart from an
    /// allocation that failed.
    #[test]
    fn the_runtime_out_of_memory_is_a_memory_death_of_its_own() {
        let died = |stderr: &str| {
            Finished {
                ending: Ending::Exited(std::process::ExitStatus::from_raw(6)),
                messages: Vec::new(),
                garbled: Vec::new(),
                stderr: stderr.into(),
            }
            .death()
        };
        let glibc = died("Fatal glibc error: failed to register TLS destructor: out of memory\n");
        assert!(matches!(glibc, Death::Memory(_)), "{glibc:?}");
        assert!(glibc.in_runtime());
        let alloc = died("memory allocation of 1048576 bytes failed\n");
        assert!(
            matches!(alloc, Death::Memory(_)) && !alloc.in_runtime(),
            "{alloc:?}"
        );
        let abort = died("something else\n");
        assert_eq!(abort, Death::Signal(6));
        assert!(!abort.in_runtime());
    }

    /// A binary that some process still holds open for writing cannot be executed (`ETXTBSY`);
    /// [`spawn`] starts it once the writer is gone instead of failing the run.
    #[test]
    fn a_binary_still_open_for_writing_starts_once_the_writer_closes_it() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("true");
        std::fs::copy("/bin/true", &exe).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let writer = std::fs::OpenOptions::new().write(true).open(&exe).unwrap();
        let busy = Command::new(&exe).spawn().unwrap_err();
        assert_eq!(busy.raw_os_error(), Some(nix::errno::Errno::ETXTBSY as i32));
        let closer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            drop(writer);
        });
        let mut child = spawn(&mut Command::new(&exe)).unwrap();
        assert!(child.wait().unwrap().success());
        closer.join().unwrap();
    }
}
