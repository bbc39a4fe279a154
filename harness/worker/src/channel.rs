//! The worker's end of the protocol pipe (see [`crate::protocol`]).
//!
//! Messages are written whole, one `write` per line, straight to the pipe: a line written
//! before the process dies (a crash, the watchdog's `_exit`) reaches the harness intact, and
//! nothing the code under test prints on stdout or stderr can be mistaken for one.

use std::fs::File;
use std::io::Write;
use std::os::fd::FromRawFd;
use std::sync::{Mutex, OnceLock};

use crate::protocol::{Message, CHANNEL_ENV};

static CHANNEL: OnceLock<Mutex<File>> = OnceLock::new();

/// Opens the pipe the harness named in [`CHANNEL_ENV`]. Without it (the worker started by
/// hand, for debugging), messages go to a duplicate of stdout.
pub fn open() -> std::io::Result<()> {
    let file = match std::env::var(CHANNEL_ENV) {
        Ok(fd) => {
            let fd: i32 = fd
                .parse()
                .map_err(|_| std::io::Error::other(format!("{CHANNEL_ENV}={fd:?} is no fd")))?;
            // Reject the standard streams: the protocol must not share them with the code
            // under test.
            if fd <= 2 {
                return Err(std::io::Error::other(format!(
                    "{CHANNEL_ENV}={fd} is a standard stream"
                )));
            }
            // SAFETY: the harness opened this descriptor for us (the write end of a pipe, left
            // open across exec) and nothing else in the process uses it.
            let file = unsafe { File::from_raw_fd(fd) };
            // Hide it from the code under test: no variable names it, and nothing the code
            // under test starts inherits it. (Code that deliberately scans its descriptors
            // could still write to it; the protocol defends against accidents, not malice.)
            std::env::remove_var(CHANNEL_ENV);
            set_cloexec(&file)?;
            file
        }
        Err(_) => {
            let out = std::io::stdout();
            let fd = std::os::fd::AsFd::as_fd(&out).try_clone_to_owned()?;
            File::from(fd)
        }
    };
    let _ = CHANNEL.set(Mutex::new(file));
    Ok(())
}

/// Marks `file` close-on-exec, so that a process the code under test starts cannot write into
/// the channel.
fn set_cloexec(file: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: plain fcntl calls on a descriptor this process owns.
    unsafe {
        let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFD);
        if flags < 0 || libc::fcntl(file.as_raw_fd(), libc::F_SETFD, flags | libc::FD_CLOEXEC) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Sends one message. Fails only if the pipe is gone (the harness died or stopped reading).
pub fn send(message: &Message) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message)?;
    line.push(b'\n');
    let Some(channel) = CHANNEL.get() else {
        return Err(std::io::Error::other("the protocol channel is not open"));
    };
    let mut f = channel.lock().unwrap_or_else(|e| e.into_inner());
    f.write_all(&line)
}

/// Whether [`open`] succeeded (the panic hook reports panics only then).
pub fn is_open() -> bool {
    CHANNEL.get().is_some()
}
