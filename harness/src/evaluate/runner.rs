//! Running one mutant in child processes of the metamutant worker, so that a hung, exploding
//! or crashing mutant costs only itself.
//!
//! One child runs the mutant over a range of scopes and writes a line per finished scope. If
//! the child dies (stack overflow, abort, memory limit, `exit`, the guard timer), the scope it
//! was in is recorded as killed with the reason read from its exit and stderr, the input is
//! read from its cursor file, and a new child takes the remaining scopes.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use wait_timeout::ChildExt;

use super::results::{ScopeResult, WorkerLine};
use crate::worker::Worker;

/// Limits and places shared by every mutant of a run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Where the scopes' inputs and the original's times are stored.
    pub inputs_dir: PathBuf,
    /// Where each mutant's scratch files go.
    pub scratch_dir: PathBuf,
    pub methods: Vec<String>,
    pub limits: ferastrau_worker::Limits,
    /// Address-space limit of a mutant process, in bytes.
    pub memory_limit: u64,
    /// The original's total seconds per scope (for the whole-process guard).
    pub original_seconds: Vec<(u32, f64)>,
}

impl RunConfig {
    /// How long a child may run over `scopes` before it is killed as a whole: generous, since
    /// per-input limits are enforced inside the child; this only catches a child that stopped
    /// responding to them.
    fn guard(&self, scopes: &std::ops::RangeInclusive<u32>) -> Duration {
        let original: f64 = self
            .original_seconds
            .iter()
            .filter(|(s, _)| scopes.contains(s))
            .map(|(_, t)| t)
            .sum();
        Duration::from_secs(60) + Duration::from_secs_f64(original * 20.0)
    }
}

/// Set on Ctrl-C: children are killed and no new ones start.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Where a mutant's time went, for the runner's own performance figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    /// Child processes started.
    pub children: u64,
    /// Their wall-clock time, start to exit.
    pub child_seconds: f64,
    /// Time the workers report spending on inputs (decode, original, mutant, compare).
    pub work_seconds: f64,
    pub executions: u64,
}

impl Timing {
    pub fn add(&mut self, o: &Timing) {
        self.children += o.children;
        self.child_seconds += o.child_seconds;
        self.work_seconds += o.work_seconds;
        self.executions += o.executions;
    }
}

/// Runs `mutant` over `scopes`, returning one result per scope (fewer if interrupted).
pub fn run_mutant(
    worker: &Worker,
    mutant: u32,
    scopes: std::ops::RangeInclusive<u32>,
    cfg: &RunConfig,
) -> Result<(Vec<ScopeResult>, Timing)> {
    let mut timing = Timing::default();
    let dir = cfg.scratch_dir.join(format!("mutant-{mutant}"));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let results_file = dir.join("results.jsonl");
    let cursor_file = dir.join("cursor");
    let mut done: Vec<ScopeResult> = Vec::new();
    let mut next = *scopes.start();
    while next <= *scopes.end() && !INTERRUPTED.load(Ordering::Relaxed) {
        let range = next..=*scopes.end();
        let _ = std::fs::remove_file(&results_file);
        let _ = std::fs::remove_file(&cursor_file);
        let started = Instant::now();
        let (status, stderr) = run_child(worker, mutant, &range, cfg, &results_file, &cursor_file)?;
        timing.children += 1;
        timing.child_seconds += started.elapsed().as_secs_f64();
        let text = std::fs::read_to_string(&results_file).unwrap_or_default();
        let before = next;
        for line in text.lines() {
            if let Ok(l) = serde_json::from_str::<WorkerLine>(line) {
                next = next.max(l.scope + 1);
                timing.work_seconds += l.seconds.unwrap_or(0.0);
                timing.executions += l.executions.unwrap_or(0);
                done.push(l.into_result(mutant, &cfg.methods));
            }
        }
        match status {
            Exit::Interrupted => break,
            Exit::Finished(s) if s.success() && next > *scopes.end() => break,
            // The worker's own errors (exit 2, "worker: ..." on stderr); a mutant calling
            // `exit(2)` prints no such line and is judged below like any other death.
            Exit::Finished(s)
                if s.code() == Some(2)
                    && next == *range.start()
                    && stderr.lines().any(|l| l.starts_with("worker: ")) =>
            {
                // The worker refused its arguments or could not read its inputs: a harness
                // bug or a damaged work directory, not something the mutant did.
                anyhow::bail!(
                    "worker failed on mutant {mutant}: {}",
                    last_line(&stderr).unwrap_or("(no message)")
                );
            }
            _ => {}
        }
        if next > *scopes.end() {
            break;
        }
        let pos = ferastrau_worker::cursor::read_file(&cursor_file);
        let inside = matches!(pos, Some([scope, ..]) if scope == next);
        if !inside && next > before {
            // The child ended between scopes, after recording one (a clock timeout ends the
            // process on purpose): start a new one for the rest.
            continue;
        }
        // The child ended inside scope `next`: that is the mutant's doing.
        let (reason, limit, detail) = classify(&status, &stderr);
        let (method, index) = match pos {
            Some([scope, m, i]) if scope == next => {
                (cfg.methods.get(m as usize).cloned(), Some(u64::from(i)))
            }
            _ => (None, None),
        };
        done.push(ScopeResult {
            mutant,
            scope: next,
            status: "killed".into(),
            reason: Some(reason.into()),
            limit: limit.map(String::from),
            method,
            index,
            input: None,
            detail: Some(detail),
            executions: None,
        });
        next += 1;
    }
    Ok((done, timing))
}

/// How a child ended.
enum Exit {
    Finished(ExitStatus),
    /// Killed by the guard timer.
    Guard,
    Interrupted,
}

fn run_child(
    worker: &Worker,
    mutant: u32,
    scopes: &std::ops::RangeInclusive<u32>,
    cfg: &RunConfig,
    results: &Path,
    cursor: &Path,
) -> Result<(Exit, String)> {
    let l = &cfg.limits;
    let mut cmd = worker.command([
        "mutant".to_string(),
        "--mutant".into(),
        mutant.to_string(),
        "--from".into(),
        scopes.start().to_string(),
        "--to".into(),
        scopes.end().to_string(),
        "--tick-factor".into(),
        l.tick_factor.to_string(),
        "--tick-floor".into(),
        l.tick_floor.to_string(),
        "--timeout-factor".into(),
        l.timeout_factor.to_string(),
        "--timeout-floor-ms".into(),
        l.timeout_floor.as_millis().to_string(),
    ]);
    cmd.arg("--dir")
        .arg(&cfg.inputs_dir)
        .arg("--results")
        .arg(results)
        .arg("--cursor")
        .arg(cursor)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    let limit = cfg.memory_limit;
    // SAFETY: only async-signal-safe calls (setrlimit) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let r = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: limit as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &r) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start {}", worker.exe.display()))?;
    let stderr = collect_stderr(&mut child);
    let deadline = Instant::now() + cfg.guard(scopes);
    let exit = loop {
        if let Some(status) = child.wait_timeout(Duration::from_millis(50))? {
            break Exit::Finished(status);
        }
        let stop = if INTERRUPTED.load(Ordering::Relaxed) {
            Some(Exit::Interrupted)
        } else if Instant::now() > deadline {
            Some(Exit::Guard)
        } else {
            None
        };
        if let Some(e) = stop {
            kill_group(&mut child);
            break e;
        }
    };
    let text = stderr.join().unwrap_or_default();
    Ok((exit, text))
}

/// Reads the child's stderr on a thread (a mutant printing in a loop must not block on a full
/// pipe), keeping its last 16 KiB.
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

fn kill_group(child: &mut Child) {
    // SAFETY: signalling the child's own process group (it was started as a group leader).
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
    let _ = child.wait();
}

fn last_line(s: &str) -> Option<&str> {
    s.lines().rev().find(|l| !l.trim().is_empty())
}

/// The kill reason of a child that died inside a scope: (reason, timeout limit, detail).
fn classify(exit: &Exit, stderr: &str) -> (&'static str, Option<&'static str>, String) {
    let status = match exit {
        Exit::Guard => {
            return (
                "timeout",
                Some("guard"),
                "the process ran past its overall time limit".into(),
            )
        }
        Exit::Interrupted => unreachable!("interrupted runs record nothing"),
        Exit::Finished(s) => s,
    };
    if stderr.contains("memory allocation of") {
        return (
            "memory",
            None,
            last_line(stderr).unwrap_or("out of memory").to_string(),
        );
    }
    if stderr.contains("has overflowed its stack") {
        return ("crash", None, "stack overflow".into());
    }
    let how = match (status.code(), status.signal()) {
        (Some(c), _) => format!("the process exited with status {c} in the middle of a run"),
        (None, Some(sig)) => format!("the process was killed by signal {sig}"),
        _ => "the process ended abnormally".into(),
    };
    ("crash", None, how)
}
