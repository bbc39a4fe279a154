//! An output directory owned by one run at a time, and the run's sealed scratch space.
//!
//! - **One writer:** an advisory lock on `DIR/.ferastrau.lock` (std's file locking) for the
//!   whole run; a second run on the same directory fails at once, naming the holder (its pid,
//!   start time and command line, which the holder writes into the lock file).
//! - **One owner:** `DIR/.ferastrau-owner` names the benchmark crate whose reports the
//!   directory holds; a run of another crate (a user's crate named like a built-in, say) is
//!   refused instead of overwriting them.
//! - **Sealed scratch:** inputs, cursors and the like go to a fresh directory under
//!   `target/ferastrau/runs/`, removed when the run ends; leftovers of killed runs are removed
//!   by the next run. No file of one run is ever read by another.

use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use ferastrau_artifacts::{Artifact, Evaluation};

use crate::locate::BenchmarkCrate;
use crate::target_dir::ferastrau_target;
use ferastrau_console::exit_code::usage;

const LOCK: &str = ".ferastrau.lock";
const OWNER: &str = ".ferastrau-owner";

/// An output directory held by this run.
pub struct OutputDir {
    pub path: PathBuf,
    _lock: std::fs::File,
}

impl OutputDir {
    /// Creates (if needed) and takes `path` for the benchmark crate at `crate_dir` named
    /// `benchmark`.
    pub fn take(path: &Path, benchmark: &str, crate_dir: &Path) -> Result<OutputDir> {
        let out = OutputDir::lock(path)?;
        out.claim(benchmark, crate_dir)?;
        Ok(out)
    }

    /// Refuses the directory of another crate's reports; claims `self` for the benchmark
    /// crate at `crate_dir` otherwise.
    pub fn claim(&self, benchmark: &str, crate_dir: &Path) -> Result<()> {
        check_owner(&self.path, benchmark, crate_dir)
    }

    /// Creates (if needed) and locks `path`, a directory that is empty or ferastrau's, before
    /// it is known whose reports it will hold (`merge` learns that from the shards).
    pub fn lock(path: &Path) -> Result<OutputDir> {
        refuse_foreign(path)?;
        // The directory is the user's argument: a path that is a file, or under one, or
        // where they may not write, is a usage error naming the option, not an I/O failure.
        if path.exists() && !path.is_dir() {
            return Err(usage(format!(
                "--out {} is a file, not a directory: choose a new or empty directory (nothing was changed)",
                path.display()
            )));
        }
        std::fs::create_dir_all(path).map_err(|e| {
            usage(format!(
                "--out {}: cannot create the directory: {e}",
                path.display()
            ))
        })?;
        let lock_path = path.join(LOCK);
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("cannot open {}", lock_path.display()))?;
        wait_for_readers(&f, path);
        match f.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(usage(format!(
                    "another ferastrau run is writing to {} ({}); wait for it to end or choose another --out",
                    path.display(),
                    Holder::of(&mut f)
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
            }
        }
        let me = Holder {
            pid: std::process::id(),
            started: epoch_seconds(),
            command: command_line(std::env::args_os()),
        }
        .to_string();
        f.set_len(0)?;
        f.rewind()?;
        f.write_all(me.as_bytes())?;
        Ok(OutputDir {
            path: path.to_path_buf(),
            _lock: f,
        })
    }
}

/// A reader's hold on an output directory ([`OutputDir::read`]), released on drop.
pub struct Reading {
    _lock: Option<std::fs::File>,
}

impl OutputDir {
    /// Holds `path`'s lock shared while a command reads the reports there (`gate --current`,
    /// `merge`'s shards, `subsets`): a run holding it (about to clear those reports, or
    /// writing them) is refused, naming it, as a second run is; readers do not exclude each
    /// other, and a run that starts meanwhile waits for them ([`wait_for_readers`]). A
    /// directory no run ever locked (committed reports, or none at all) is read unlocked:
    /// a reader writes nothing.
    pub fn read(path: &Path) -> Result<Reading> {
        let lock_path = path.join(LOCK);
        let mut f = match std::fs::File::open(&lock_path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Reading { _lock: None })
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot open {}", lock_path.display()))
            }
        };
        match f.try_lock_shared() {
            Ok(()) => Ok(Reading { _lock: Some(f) }),
            Err(std::fs::TryLockError::WouldBlock) => Err(usage(format!(
                "a ferastrau run is writing to {} ({}): its reports are not to be read until it ends; wait for it",
                path.display(),
                Holder::of(&mut f)
            ))),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("cannot lock {}", lock_path.display()))
            }
        }
    }
}

/// Waits while only readers ([`OutputDir::read`]) hold the lock file `f` of `path`: they hold
/// it for the moments a read takes, and a run that starts meanwhile takes the directory
/// after them instead of being refused. Returns when the lock is free (held by the caller) or
/// a run holds it (the caller refuses).
fn wait_for_readers(f: &std::fs::File, path: &Path) {
    let mut said = false;
    while matches!(f.try_lock(), Err(std::fs::TryLockError::WouldBlock))
        && f.try_lock_shared().is_ok()
    {
        // Let go at once: two runs waiting here, each holding it shared, would wait forever.
        let _ = f.unlock();
        if !std::mem::replace(&mut said, true) {
            ferastrau_console::stage!(
                "Waiting",
                "for the commands reading {} to finish",
                path.display()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Refuses an existing, non-empty directory that no ferastrau run wrote (no owner stamp, no
/// lock, no `evaluation.json`): a run clears the reports it finds before writing its own, and
/// a user's `report.html` or `kill-matrix/` in a directory chosen by mistake is not its to
/// remove.
fn refuse_foreign(path: &Path) -> Result<()> {
    let Ok(mut entries) = std::fs::read_dir(path) else {
        return Ok(()); // missing: created below (an error to read it is create_dir_all's)
    };
    if entries.next().is_none() {
        return Ok(());
    }
    if [OWNER, LOCK, "evaluation.json"]
        .iter()
        .any(|f| path.join(f).exists())
    {
        return Ok(());
    }
    Err(usage(format!(
        "--out {} is a directory with files no ferastrau run wrote; choose a new or empty directory (nothing was changed)",
        path.display()
    )))
}

/// A command line for people (the lock file's `command`): its words joined by spaces, any that
/// are not UTF-8 (a path of such bytes is a valid `--out`) shown lossily. `std::env::args`
/// would panic on them, after the lock file was created and before its holder was written.
fn command_line(args: impl IntoIterator<Item = std::ffi::OsString>) -> String {
    let words: Vec<String> = args
        .into_iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    words.join(" ")
}

/// Seconds since the epoch, now.
fn epoch_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Who holds an output directory's lock, as its lock file says: read back by a second run,
/// which tells its user how long ago the first one started (not a raw clock value).
#[derive(Debug, PartialEq, Eq)]
struct Holder {
    pid: u32,
    /// Seconds since the epoch.
    started: u64,
    command: String,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pid {}\nstarted {}\ncommand {}\n",
            self.pid, self.started, self.command
        )
    }
}

impl Holder {
    /// The holder that the lock file `f` names, described for a message now.
    fn of(f: &mut std::fs::File) -> String {
        let mut text = Vec::new();
        let _ = f.read_to_end(&mut text);
        Holder::describe(&String::from_utf8_lossy(&text), epoch_seconds())
    }

    fn parse(text: &str) -> Option<Holder> {
        let mut fields = text.lines().map(|l| l.split_once(' '));
        let mut field = |name: &str| match fields.next()? {
            Some((k, v)) if k == name => Some(v.to_string()),
            _ => None,
        };
        Some(Holder {
            pid: field("pid")?.parse().ok()?,
            started: field("started")?.parse().ok()?,
            command: field("command")?,
        })
    }

    /// `text` (a lock file's) for a message at `now`: "pid 42, started 3 min 5 s ago:
    /// `ferastrau evaluate ...`", or the text as it is when it is not one this version wrote.
    fn describe(text: &str, now: u64) -> String {
        let Some(h) = Holder::parse(text) else {
            return text.trim().to_string();
        };
        let ago = now.saturating_sub(h.started);
        let ago = match ago {
            0..=59 => format!("{ago} s"),
            60..=3599 => format!("{} min {} s", ago / 60, ago % 60),
            _ => format!("{} h {} min", ago / 3600, ago % 3600 / 60),
        };
        format!("pid {}, started {ago} ago: `{}`", h.pid, h.command)
    }
}

/// The crate directory recorded as the owner of the reports in `path`, if one is.
pub fn recorded_owner(path: &Path) -> Option<PathBuf> {
    let owner = std::fs::read_to_string(path.join(OWNER)).ok()?;
    Some(PathBuf::from(owner.trim()))
}

/// Refuses a directory that holds another crate's reports; claims it otherwise.
fn check_owner(path: &Path, benchmark: &str, crate_dir: &Path) -> Result<()> {
    let owner_path = path.join(OWNER);
    let me = crate_dir.display().to_string();
    match std::fs::read_to_string(&owner_path) {
        Ok(owner) if owner.trim() != me => {
            return Err(usage(format!(
                "{} holds the reports of the crate at {}, not of {me}; choose another --out (or delete the directory)",
                path.display(),
                owner.trim()
            )))
        }
        Ok(_) => return Ok(()),
        Err(_) => {}
    }
    // No owner recorded (reports written elsewhere and copied, or committed ones): the
    // reports' own benchmark name must match.
    let evaluation = path.join("evaluation.json");
    if evaluation.is_file() {
        // Reports this build cannot read name no benchmark: they are replaced like any
        // unnamed ones.
        let named = Evaluation::read(&evaluation).ok().map(|e| e.benchmark);
        if let Some(other) = named.filter(|n| n != benchmark) {
            return Err(usage(format!(
                "{} holds the reports of benchmark {other}, not of {benchmark}; choose another --out",
                path.display()
            )));
        }
    }
    std::fs::write(&owner_path, format!("{me}\n"))
        .with_context(|| format!("cannot write {}", owner_path.display()))
}

/// A run's private scratch directory, removed on drop.
///
/// Its owner is known by a lock, not a PID: the run holds an exclusive lock on the directory's
/// [`SCRATCH_LOCK`] file for its whole life, and a leftover is removed only when that lock can
/// be taken, i.e. no live process holds it. A PID alone would say "dead" for a live run on
/// another node of a shared file system (the Slurm setup) or in another PID namespace, whose
/// scratch would then be deleted under it.
pub struct Scratch {
    dir: tempfile::TempDir,
    _lock: std::fs::File,
}

/// The file a run's scratch directory is locked by.
pub const SCRATCH_LOCK: &str = ".owner.lock";

impl Scratch {
    /// A fresh directory `<target>/ferastrau/runs/<pid>-<random>` in `bench`'s target
    /// directory (the PID for people); removes those whose owner's lock is free.
    pub fn new(bench: &BenchmarkCrate) -> Result<Scratch> {
        Scratch::new_in(&ferastrau_target(bench).join("runs"))
    }

    /// [`Scratch::new`] under `runs`.
    pub fn new_in(runs: &Path) -> Result<Scratch> {
        std::fs::create_dir_all(runs)
            .with_context(|| format!("cannot create {}", runs.display()))?;
        for entry in std::fs::read_dir(runs).into_iter().flatten().flatten() {
            remove_if_abandoned(&entry.path());
        }
        let dir = tempfile::Builder::new()
            .prefix(&format!("{}-", std::process::id()))
            .tempdir_in(runs)
            .with_context(|| format!("cannot create a directory in {}", runs.display()))?;
        let lock_path = dir.path().join(SCRATCH_LOCK);
        let lock = std::fs::File::create(&lock_path)
            .with_context(|| format!("cannot create {}", lock_path.display()))?;
        lock.lock()
            .with_context(|| format!("cannot lock {}", lock_path.display()))?;
        Ok(Scratch { dir, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Removes the scratch directory `dir` of another run if no process holds its lock. One
/// without a lock file is left alone: a run that has just created it takes the lock next
/// (directories of older versions, locked by nothing, are cleared by `cargo clean`).
fn remove_if_abandoned(dir: &Path) {
    let Ok(f) = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join(SCRATCH_LOCK))
    else {
        return;
    };
    if f.try_lock().is_ok() {
        // Held while removing: the directory is nobody's.
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Free bytes on the file system holding `path`.
pub fn free_bytes(path: &Path) -> Option<u64> {
    let s = nix::sys::statvfs::statvfs(path).ok()?;
    Some(s.blocks_available() as u64 * s.fragment_size() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_holder_is_told_by_how_long_ago_it_started() {
        let h = Holder {
            pid: 42,
            started: 1_000_000,
            command: "ferastrau evaluate --scopes 1..7".into(),
        };
        let text = h.to_string();
        assert_eq!(Holder::parse(&text), Some(h));
        assert_eq!(
            Holder::describe(&text, 1_000_185),
            "pid 42, started 3 min 5 s ago: `ferastrau evaluate --scopes 1..7`"
        );
        assert!(Holder::describe(&text, 1_007_300).contains("started 2 h 1 min ago"));
        // A lock file of an older version is shown as it is.
        assert_eq!(
            Holder::describe("pid 7, started at 5 s since the epoch, `x`\n", 9),
            "pid 7, started at 5 s since the epoch, `x`"
        );
    }
    use crate::locate::known_benchmarks;
    use crate::target_dir::scratch_dir;

    /// The README's main command, run at the repository's root, leaves `git status` clean: all
    /// it writes is the default output directory (`ferastrau.out/<benchmark>/`: reports, lock,
    /// owner stamp, journal) and scratch under `target/` (the run's inputs, builds, worker
    /// binaries). Checked against the repository's ignore rules for every built-in benchmark.
    /// A leftover whose PID is dead but whose lock a live process holds (a run on another
    /// node of a shared file system, or in another PID namespace) is left alone; once the
    /// lock is free it is removed.
    #[test]
    fn a_scratch_directory_is_removed_only_when_its_lock_is_free() {
        let runs = tempfile::tempdir().unwrap();
        let dead = {
            let mut c = std::process::Command::new("true").spawn().unwrap();
            let pid = c.id();
            c.wait().unwrap();
            pid
        };
        let other = runs.path().join(format!("{dead}-elsewhere"));
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("inputs"), "a live run's inputs").unwrap();
        let held = std::fs::File::create(other.join(SCRATCH_LOCK)).unwrap();
        held.lock().unwrap();
        // Another open file description of the same file: flock locks conflict between them
        // as between processes.
        let mine = Scratch::new_in(runs.path()).unwrap();
        assert!(
            other.join("inputs").exists(),
            "a live run's scratch was removed"
        );
        drop(held);
        // A child that another test thread forks while `held` was open holds the lock too,
        // until it execs (descriptors close on exec): the lock is free a moment later, and
        // the next run removes the directory.
        let mut again = Scratch::new_in(runs.path()).unwrap();
        for _ in 0..100 {
            if !other.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            again = Scratch::new_in(runs.path()).unwrap();
        }
        assert!(!other.exists(), "an abandoned scratch stayed");
        assert!(mine.path().exists() && again.path().exists());
    }

    #[test]
    fn what_a_default_run_writes_is_ignored_by_git() {
        let root = crate::runtime::checkout().expect("the tests run in the checkout");
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .arg("-C")
                .arg(&root)
                .args(args)
                .output()
        };
        if !git(&["rev-parse", "--is-inside-work-tree"]).is_ok_and(|o| o.status.success()) {
            eprintln!("{} is not a git checkout: nothing to check", root.display());
            return;
        }
        let rel = |p: &Path| p.strip_prefix(&root).unwrap().display().to_string();
        let mut paths = vec![];
        for b in known_benchmarks() {
            let out = Path::new("ferastrau.out").join(&b);
            for f in [
                "evaluation.json",
                "evaluation.csv",
                "mutants.json",
                "journal.jsonl",
                LOCK,
                OWNER,
            ] {
                paths.push(out.join(f).display().to_string());
            }
            let bench = crate::locate::locate(Some(&b), None).unwrap();
            paths.push(rel(&scratch_dir(&bench, "metamutant").join("src/lib.rs")));
            let scratch = Scratch::new(&bench).unwrap();
            paths.push(rel(&scratch.path().join("inputs/1-0.frs")));
        }
        let mut args = vec!["check-ignore", "--verbose", "--non-matching"];
        args.extend(paths.iter().map(String::as_str));
        let o = git(&args).unwrap();
        let listing = String::from_utf8_lossy(&o.stdout);
        // `--non-matching` lists every path; those no rule ignores start with `::`.
        let tracked: Vec<&str> = listing.lines().filter(|l| l.starts_with("::")).collect();
        assert_eq!(listing.lines().count(), paths.len(), "{listing}");
        assert!(tracked.is_empty(), "git would see: {tracked:?}");
    }
}
